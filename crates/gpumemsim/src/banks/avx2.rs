//! An AVX2 kernel for the commonest batch access: 32 lanes in one group, each touching one
//! aligned word (`b32` and narrower on 4-byte banks: a wave32 on RDNA, a warp on NVIDIA),
//! whatever the addresses are. It reads `u32` addresses, and `u64` ones a wave at a time
//! where all 32 fit 32 bits (so NumPy's default int64 needs no pass of its own).
//!
//! - Lanes in arithmetic progression (broadcasts, strides, columns) take the closed form of
//!   [`super::kernel`].
//! - Else each lane's bank byte meets every other lane's as the 32-byte vector of banks turns
//!   round by 1 to 31 places, which counts the lanes on each lane's bank; the most is the
//!   cost where lanes on one word are served one by one ([`SameWord::PerLane`]), and where
//!   they share it ([`SameWord::Once`]) and no two lanes touch one word (which the same turns
//!   tell from the low 8 bits of the rows), as random addresses almost always are.
//! - Else ([`Kernel::shared_words_cost`], kept out of line) each bank serves the lanes that
//!   first touch a word: the turns count those per bank.
//!
//! Misaligned waves, `u64` waves beyond 32 bits and rows too far apart for the 8-bit test
//! with repeated low bits are left to the scalar path, which gives the same costs on every
//! machine; the property tests (`tests/banks_props.rs`) compare both with the per-group
//! breakdown. On the project's build machine the kernel costs random waves about 4 times as
//! fast as the scalar path, and strided ones 2 to 4 times.
//!
//! One of the two modules with `unsafe` (the other is `fp::host_fma`): calling an AVX2
//! function, which is sound once the CPU reports AVX2, and unaligned loads and stores of
//! arrays of exactly the vector size.
#![allow(unsafe_code)]

use std::arch::x86_64::*;

use super::model::SameWord;

/// Lanes of one access.
const LANES: usize = 32;

/// One-word-per-lane accesses of 32 lanes: `bank_shift` is log2(bank width), `bank_mask`
/// the number of banks (at most 64) less one, `align_mask` the access width less one.
#[derive(Clone, Copy)]
pub(super) struct OneWordShape {
    pub bank_shift: u32,
    pub bank_mask: u32,
    pub align_mask: u32,
    pub same: SameWord,
}

/// A batch's addresses, 32 per access.
#[derive(Clone, Copy)]
pub(super) enum Waves<'a> {
    U32(&'a [u32]),
    /// Read as `u32`s where an access's 32 addresses all fit (else the exact path decides),
    /// without a pass of their own.
    U64(&'a [u64]),
}

/// Costs each access of `waves` in turn, calling `each` with its cost; an access the kernel
/// leaves undecided gets `exact(k)` (`k` counts accesses). Returns false, having done
/// nothing, where the CPU has no AVX2.
pub(super) fn one_word_waves(
    waves: Waves<'_>,
    shape: OneWordShape,
    exact: impl FnMut(usize) -> u32,
    each: impl FnMut(u32),
) -> bool {
    if shape.bank_mask > 63 || !std::arch::is_x86_feature_detected!("avx2") {
        return false;
    }
    // SAFETY: the CPU has AVX2 (checked just above), the one requirement of a function whose
    // only target feature is AVX2.
    unsafe { one_word_waves_avx2(waves, shape, exact, each) };
    true
}

#[target_feature(enable = "avx2")]
fn one_word_waves_avx2(
    waves: Waves<'_>,
    shape: OneWordShape,
    mut exact: impl FnMut(usize) -> u32,
    mut each: impl FnMut(u32),
) {
    let k = Kernel {
        shift: _mm_cvtsi32_si128(shape.bank_shift as i32),
        row_shift: _mm_cvtsi32_si128((shape.bank_shift + shape.bank_mask.trailing_ones()) as i32),
        bank_mask: _mm256_set1_epi32(shape.bank_mask as i32),
        align_mask: _mm256_set1_epi32(shape.align_mask as i32),
        bank_shift: shape.bank_shift,
        bank_bits: shape.bank_mask.trailing_ones(),
        same: shape.same,
    };
    match waves {
        Waves::U32(addrs) => {
            for (i, chunk) in addrs.chunks_exact(LANES).enumerate() {
                prefetch(addrs, (i + AHEAD) * LANES);
                let cost = <&[u32; LANES]>::try_from(chunk)
                    .ok()
                    .and_then(|wave| k.cost(&load(wave)));
                each(cost.unwrap_or_else(|| exact(i)));
            }
        }
        Waves::U64(addrs) => {
            for (i, chunk) in addrs.chunks_exact(LANES).enumerate() {
                prefetch(addrs, (i + AHEAD) * LANES);
                let cost = <&[u64; LANES]>::try_from(chunk)
                    .ok()
                    .and_then(|wave| narrow(wave))
                    .and_then(|a| k.cost(&a));
                each(cost.unwrap_or_else(|| exact(i)));
            }
        }
    }
}

/// How many accesses ahead the loops ask for addresses to be fetched into the cache (the
/// kernel's work per access is too short for the hardware's own prefetching to keep up
/// with memory).
const AHEAD: usize = 8;

/// Asks for the cache lines of `addrs[at..]`'s next wave (two 64-byte lines per 128 bytes)
/// to be fetched, if it is there.
#[target_feature(enable = "avx2")]
#[inline]
fn prefetch<T>(addrs: &[T], at: usize) {
    let bytes = LANES * std::mem::size_of::<T>();
    if let Some(wave) = addrs.get(at..at + LANES) {
        let p = wave.as_ptr().cast::<i8>();
        for line in (0..bytes).step_by(64) {
            // A prefetch reads nothing the program sees and never faults; the address is in
            // `addrs` anyway.
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(line));
        }
    }
}

/// 32 `u32` addresses as four vectors of eight.
#[target_feature(enable = "avx2")]
#[inline]
fn load(wave: &[u32; LANES]) -> [__m256i; 4] {
    let p = wave.as_ptr().cast::<__m256i>();
    // SAFETY: `wave` is 32 u32s, 128 bytes: these four 32-byte unaligned loads read exactly it.
    std::array::from_fn(|k| unsafe { _mm256_loadu_si256(p.add(k)) })
}

/// 32 `u64` addresses as four vectors of eight `u32`s, if they all fit.
#[target_feature(enable = "avx2")]
#[inline]
fn narrow(wave: &[u64; LANES]) -> Option<[__m256i; 4]> {
    let p = wave.as_ptr().cast::<__m256i>();
    // SAFETY: `wave` is 32 u64s, 256 bytes: these eight 32-byte unaligned loads read
    // exactly it.
    let v: [__m256i; 8] = std::array::from_fn(|k| unsafe { _mm256_loadu_si256(p.add(k)) });
    let all = v
        .iter()
        .fold(_mm256_setzero_si256(), |x, &y| _mm256_or_si256(x, y));
    if _mm256_testz_si256(all, _mm256_set1_epi64x(-1i64 << 32)) == 0 {
        return None;
    }
    Some(std::array::from_fn(|k| {
        // The low halves of 4 + 4 lanes, in the order 0 1 4 5 2 3 6 7, then put back in
        // order (the closed form for strides reads lanes in order).
        let low = _mm256_shuffle_ps::<0b10_00_10_00>(
            _mm256_castsi256_ps(v[2 * k]),
            _mm256_castsi256_ps(v[2 * k + 1]),
        );
        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_castps_si256(low))
    }))
}

/// The 32 lanes of `a` as an array.
#[target_feature(enable = "avx2")]
#[inline]
fn store(a: &[__m256i; 4]) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    let q = out.as_mut_ptr().cast::<__m256i>();
    for (k, &v) in a.iter().enumerate() {
        // SAFETY: `out` is 32 u32s, 128 bytes: store `k` of four writes bytes 32k..32k+32.
        unsafe { _mm256_storeu_si256(q.add(k), v) };
    }
    out
}

/// The kernel's constants, as vectors.
struct Kernel {
    shift: __m128i,
    /// The shift from a byte address to its row (bank shift plus log2(banks)).
    row_shift: __m128i,
    bank_mask: __m256i,
    align_mask: __m256i,
    bank_shift: u32,
    /// log2(banks).
    bank_bits: u32,
    same: SameWord,
}

impl Kernel {
    /// One access's cost from its 32 addresses (`a`: four vectors of eight, in any lane
    /// order), or `None` where the exact path must decide.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn cost(&self, a: &[__m256i; 4]) -> Option<u32> {
        let all = _mm256_or_si256(_mm256_or_si256(a[0], a[1]), _mm256_or_si256(a[2], a[3]));
        if _mm256_testz_si256(all, self.align_mask) == 0 {
            return None;
        }
        if let Some(cost) = self.progression_cost(a) {
            return Some(cost);
        }
        let bank = |x| _mm256_and_si256(_mm256_srl_epi32(x, self.shift), self.bank_mask);
        let banks = bytes_of([bank(a[0]), bank(a[1]), bank(a[2]), bank(a[3])]);
        if self.same == SameWord::PerLane {
            return Some(u32::from(max_byte(lanes_on_bank(banks))));
        }
        // Rows (word / banks): two lanes on one bank share a word exactly when their rows
        // agree, so where their low 8 bits differ, so do the words.
        let rows = a.map(|x| _mm256_srl_epi32(x, self.row_shift));
        let low = _mm256_set1_epi32(0xff);
        let row_bytes = bytes_of(rows.map(|r| _mm256_and_si256(r, low)));
        let (on, sharing) = lanes_and_sharing(banks, row_bytes);
        let most = max_byte(on);
        if _mm256_testz_si256(sharing, sharing) == 1 {
            // No word repeats: every lane is served on its own.
            return Some(u32::from(most));
        }
        Some(self.shared_words_cost(a, banks, row_bytes, most))
    }

    /// The cost of a wave where some lanes may share a word (their banks and the low 8 bits
    /// of their rows agree), `most` the most lanes on one bank: each bank serves the lanes
    /// that first touch a word. (Kept apart, so that the common path keeps its registers.)
    #[target_feature(enable = "avx2")]
    #[inline(never)]
    #[cold]
    fn shared_words_cost(
        &self,
        a: &[__m256i; 4],
        banks: __m256i,
        row_bytes: __m256i,
        most: u8,
    ) -> u32 {
        // Low bits that agree tell a repeated word while all rows lie within 256 of each
        // other; else each lane they point at is checked against the earlier lanes' words.
        let repeats = repeats(banks, row_bytes);
        let rows = a.map(|x| _mm256_srl_epi32(x, self.row_shift));
        let repeats = if within_256(&rows) {
            repeats
        } else {
            let words = a.map(|x| _mm256_srl_epi32(x, self.shift));
            let wave = store(a);
            let mut maybe = _mm256_movemask_epi8(repeats) as u32;
            let mut truly = 0u32;
            while maybe != 0 {
                let lane = maybe.trailing_zeros();
                maybe &= maybe - 1;
                let word = wave[lane as usize % LANES] >> self.bank_shift;
                let same = lanes_where_u32(&words, _mm256_set1_epi32(word as i32));
                truly |= u32::from(same & ((1 << lane) - 1) != 0) << lane;
            }
            if truly == 0 {
                return u32::from(most);
            }
            byte_mask(truly)
        };
        let first = _mm256_andnot_si256(repeats, _mm256_set1_epi8(-1));
        u32::from(max_byte(first_touches_on_bank(banks, first)))
    }
}

impl Kernel {
    /// The cost of lanes whose addresses step by one stride (`u32` arithmetic) that is zero
    /// (a broadcast) or a whole number of words below 2^24 bytes, `None` otherwise: as
    /// [`super::kernel`]'s closed form has it, lane `i` and `j` share a bank exactly when
    /// `(i - j) * s` is a multiple of the banks `B` (`s` the stride in words), which repeats
    /// with period `p = B / gcd(s, B)`, so the fullest bank holds `ceil(32 / p)` lanes, on
    /// distinct words (32 strides stay below 2^32 bytes, so no two lanes meet).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn progression_cost(&self, a: &[__m256i; 4]) -> Option<u32> {
        let first = _mm256_cvtsi256_si32(a[0]) as u32;
        let step = (_mm256_extract_epi32::<1>(a[0]) as u32).wrapping_sub(first);
        // Lane `i` holds `first + i * step` (in `u32` arithmetic) in every lane.
        let (first_v, step_v) = (
            _mm256_set1_epi32(first as i32),
            _mm256_set1_epi32(step as i32),
        );
        let expected = |k: i32| {
            let i = _mm256_setr_epi32(
                8 * k,
                8 * k + 1,
                8 * k + 2,
                8 * k + 3,
                8 * k + 4,
                8 * k + 5,
                8 * k + 6,
                8 * k + 7,
            );
            _mm256_add_epi32(first_v, _mm256_mullo_epi32(i, step_v))
        };
        let same = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_cmpeq_epi32(a[0], expected(0)),
                _mm256_cmpeq_epi32(a[1], expected(1)),
            ),
            _mm256_and_si256(
                _mm256_cmpeq_epi32(a[2], expected(2)),
                _mm256_cmpeq_epi32(a[3], expected(3)),
            ),
        );
        if _mm256_movemask_epi8(same) != -1 {
            return None;
        }
        if step == 0 {
            return Some(match self.same {
                SameWord::Once => 1,
                SameWord::PerLane => LANES as u32,
            });
        }
        let bytes = (step as i32).unsigned_abs();
        if bytes & ((1 << self.bank_shift) - 1) != 0 || bytes >= 1 << 24 {
            return None;
        }
        let gcd_log = (bytes >> self.bank_shift)
            .trailing_zeros()
            .min(self.bank_bits);
        Some((LANES as u32).div_ceil(1 << (self.bank_bits - gcd_log)))
    }
}

/// 32 lanes' values below 256 (four vectors of eight `u32`s) as 32 bytes in lane order: the
/// saturating packs keep them, interleaving 4-lane blocks as 0,2,4,6,1,3,5,7, which one
/// permutation puts back.
#[target_feature(enable = "avx2")]
#[inline]
fn bytes_of(v: [__m256i; 4]) -> __m256i {
    let packed = _mm256_packus_epi16(
        _mm256_packus_epi32(v[0], v[1]),
        _mm256_packus_epi32(v[2], v[3]),
    );
    _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
}

/// Calls `$meet!(turn)` for every turn of 32 bytes by 1 to 31 places (lane `i` of a turn
/// by `n` holds lane `(i + n) mod 32`), for each of the named vectors at once: `$v` the
/// vector, `$swapped` it with its 16-byte halves swapped (a turn by 16). `alignr` turns each
/// half taking bytes from the other: by 1 to 15 from the swapped halves, by 17 to 31 from
/// the unswapped ones.
macro_rules! every_turn {
    ($meet:ident; $($v:ident / $swapped:ident),+) => {
        every_turn!(@low $meet; [$($v / $swapped),+]; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        $meet!(16; $($swapped),+);
        every_turn!(@high $meet; [$($v / $swapped),+]; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
    };
    (@low $meet:ident; [$($v:ident / $swapped:ident),+]; $n:literal $($rest:literal)*) => {
        $meet!($n; $(_mm256_alignr_epi8::<$n>($swapped, $v)),+);
        every_turn!(@low $meet; [$($v / $swapped),+]; $($rest)*);
    };
    (@high $meet:ident; [$($v:ident / $swapped:ident),+]; $n:literal $($rest:literal)*) => {
        $meet!(16 + $n; $(_mm256_alignr_epi8::<$n>($v, $swapped)),+);
        every_turn!(@high $meet; [$($v / $swapped),+]; $($rest)*);
    };
    (@$half:ident $meet:ident; [$($v:ident / $swapped:ident),+];) => {};
}

/// The 16-byte halves of `v` swapped.
#[target_feature(enable = "avx2")]
#[inline]
fn swapped(v: __m256i) -> __m256i {
    _mm256_permute2x128_si256::<0x01>(v, v)
}

/// For each lane, the lanes (itself included) whose byte in `banks` equals its own.
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_on_bank(banks: __m256i) -> __m256i {
    let banks_swapped = swapped(banks);
    let mut on = _mm256_set1_epi8(1);
    macro_rules! meet {
        ($n:expr; $b:expr) => {
            on = _mm256_sub_epi8(on, _mm256_cmpeq_epi8(banks, $b));
        };
    }
    every_turn!(meet; banks / banks_swapped);
    on
}

/// For each lane, the lanes on its bank (itself included); and whether any two lanes touch
/// one word (bank and row), as a vector that is zero where none do. (Turns by 1 to 16 meet
/// every pair of lanes once.)
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_and_sharing(banks: __m256i, rows: __m256i) -> (__m256i, __m256i) {
    let (banks_swapped, rows_swapped) = (swapped(banks), swapped(rows));
    let mut on = _mm256_set1_epi8(1);
    let mut sharing = _mm256_setzero_si256();
    macro_rules! meet {
        ($n:expr; $b:expr, $r:expr) => {
            let same_bank = _mm256_cmpeq_epi8(banks, $b);
            on = _mm256_sub_epi8(on, same_bank);
            if meets_new_pair($n) {
                let same_word = _mm256_and_si256(same_bank, _mm256_cmpeq_epi8(rows, $r));
                sharing = _mm256_or_si256(sharing, same_word);
            }
        };
    }
    every_turn!(meet; banks / banks_swapped, rows / rows_swapped);
    (on, sharing)
}

/// Whether the turn by `n` places meets pairs of lanes no smaller turn met: turns by `n`
/// and `32 - n` meet the same pairs.
const fn meets_new_pair(n: i32) -> bool {
    n <= 16
}

/// For each lane, whether an earlier lane touches its word (bank and row; all ones where one
/// does).
#[target_feature(enable = "avx2")]
#[inline]
fn repeats(banks: __m256i, rows: __m256i) -> __m256i {
    let (banks_swapped, rows_swapped) = (swapped(banks), swapped(rows));
    let lane = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    );
    let mut repeats = _mm256_setzero_si256();
    macro_rules! meet {
        ($n:expr; $b:expr, $r:expr) => {
            // Lane `i` meets lane `i + n - 32`, an earlier one, where `i >= 32 - n`.
            let earlier = _mm256_cmpgt_epi8(lane, _mm256_set1_epi8(31 - $n));
            let same_word =
                _mm256_and_si256(_mm256_cmpeq_epi8(banks, $b), _mm256_cmpeq_epi8(rows, $r));
            repeats = _mm256_or_si256(repeats, _mm256_and_si256(same_word, earlier));
        };
    }
    every_turn!(meet; banks / banks_swapped, rows / rows_swapped);
    repeats
}

/// For each lane, the lanes on its bank (itself included) that are `first` (all ones) to
/// touch their word: the distinct words its bank serves.
#[target_feature(enable = "avx2")]
#[inline]
fn first_touches_on_bank(banks: __m256i, first: __m256i) -> __m256i {
    let (banks_swapped, first_swapped) = (swapped(banks), swapped(first));
    let mut words = _mm256_sub_epi8(_mm256_setzero_si256(), first);
    macro_rules! meet {
        ($n:expr; $b:expr, $f:expr) => {
            let same_bank = _mm256_cmpeq_epi8(banks, $b);
            words = _mm256_sub_epi8(words, _mm256_and_si256(same_bank, $f));
        };
    }
    every_turn!(meet; banks / banks_swapped, first / first_swapped);
    words
}

/// Whether the 32 `u32`s of `v` lie within 256 of each other (largest - smallest < 256).
#[target_feature(enable = "avx2")]
#[inline]
fn within_256(v: &[__m256i; 4]) -> bool {
    let lo = _mm256_min_epu32(_mm256_min_epu32(v[0], v[1]), _mm256_min_epu32(v[2], v[3]));
    let hi = _mm256_max_epu32(_mm256_max_epu32(v[0], v[1]), _mm256_max_epu32(v[2], v[3]));
    // The smallest everywhere: fold the halves, then the pairs, then the neighbours.
    let fold = |x: __m256i, min: bool| {
        let pick = |p: __m256i, q: __m256i| {
            if min {
                _mm256_min_epu32(p, q)
            } else {
                _mm256_max_epu32(p, q)
            }
        };
        let x = pick(x, swapped(x));
        let x = pick(x, _mm256_shuffle_epi32::<0b01_00_11_10>(x));
        pick(x, _mm256_shuffle_epi32::<0b10_11_00_01>(x))
    };
    let spread = _mm256_sub_epi32(fold(hi, false), fold(lo, true));
    (_mm256_cvtsi256_si32(spread) as u32) < 256
}

/// The lanes (bits) whose `u32` in `v` (four vectors of eight) equals `x`'s.
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_where_u32(v: &[__m256i; 4], x: __m256i) -> u32 {
    let eight =
        |k: usize| _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v[k], x))) as u32;
    eight(0) | eight(1) << 8 | eight(2) << 16 | eight(3) << 24
}

/// The 32 bits of `m` as bytes: all ones where the bit is set.
#[target_feature(enable = "avx2")]
#[inline]
fn byte_mask(m: u32) -> __m256i {
    // Byte `i` of the result looks at byte `i / 8` of `m`, then at its bit `i % 8`.
    let bytes = _mm256_shuffle_epi8(
        _mm256_set1_epi32(m as i32),
        _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
            3, 3, 3,
        ),
    );
    let bits = _mm256_set1_epi64x(i64::from_le_bytes([1, 2, 4, 8, 16, 32, 64, 128]));
    _mm256_cmpeq_epi8(_mm256_and_si256(bytes, bits), bits)
}

/// The largest of 32 bytes.
#[target_feature(enable = "avx2")]
#[inline]
fn max_byte(v: __m256i) -> u8 {
    let m = _mm_max_epu8(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let m = _mm_max_epu8(m, _mm_srli_si128::<8>(m));
    let m = _mm_max_epu8(m, _mm_srli_si128::<4>(m));
    let m = _mm_max_epu8(m, _mm_srli_si128::<2>(m));
    let m = _mm_max_epu8(m, _mm_srli_si128::<1>(m));
    (_mm_cvtsi128_si32(m) & 0xff) as u8
}
