//! The float atomic add (DS_ADD_F32, DS_ADD_RTN_F32), in integer arithmetic.

use super::{DenormCtl, Layout, BF16, F16, F32, F64};

const SIGN: u32 = 0x8000_0000;
const ABS: u32 = 0x7fff_ffff;
const INF: u32 = 0x7f80_0000;
const HIDDEN: u32 = 1 << 23;
const FRAC: u32 = HIDDEN - 1;
/// Working precision: significands are held in a `u64` shifted left by this many bits, so
/// alignment and cancellation lose nothing that rounding needs (a sticky bit keeps the rest).
const EXTRA: u32 = 32;

/// The NaN that `-INF + INF` (and `INF + -INF`) produces: `0xffc0_0000`, sign set, exponent all
/// ones, only the mantissa MSB set.
///
/// The add rules say both that -INF + INF is a quiet NaN whose mantissa is all zeros but the
/// MSB, and that -INF + INF (or INF - INF) is a negative quiet NaN. The two lines do not
/// contradict each other: the first fixes the mantissa, the second the sign, so the value is
/// the negative quiet NaN with only the mantissa MSB set
/// (docs/rules/float-atomics.md#infinity-minus-infinity). (This is also the x86 "default NaN";
/// AMD's VALU canonical NaN is the positive `0x7fc0_0000`, which the atomic rules do not use.)
pub const ADD_F32_INVALID_NAN: u32 = 0xffc0_0000;

/// The new memory value of a float atomic add: `mem + data`, rounded to nearest even.
///
/// DS mapping: the pseudocode of DS_ADD_F32 / DS_ADD_RTN_F32 is `tmp = MEM[ADDR].f32;
/// MEM[ADDR].f32 += DATA.f32; RETURN_DATA.f32 = tmp`, so `mem` = `MEM[ADDR]` = the spec's
/// src0 and `data` = DATA0 = src1; the DS layer stores the result and returns the raw `mem`.
///
/// Rules, in the order applied:
/// - Denormal inputs are flushed to ±0 (sign kept) when `ctl.flush_input`
///   (the 32-bit adder uses both the input and the output flush controls of MODE:
///   docs/rules/float-atomics.md#denormal-controls-in-lds).
/// - NaN (docs/rules/float-atomics.md#add-nan-rules): if either input is NaN the output is
///   that NaN made quiet; if both are, the first input's; ±INF + NaN is the NaN made quiet.
///   So: `mem` NaN → `mem` quieted; else `data` NaN → `data` quieted (sign and payload
///   kept).
/// - `-INF + INF` and `INF + -INF` → [`ADD_F32_INVALID_NAN`] (see that constant).
/// - `INF + (finite or ±0)` = that INF with its sign, and `INF + INF` of one sign is that INF
///   (docs/rules/float-atomics.md#add-of-infinities-and-zeros).
/// - Zeros: the add rules say "0 + 0 = +0". We read that as IEEE-754 round-to-nearest-even
///   behaviour: `+0 + +0`, `+0 + -0`, `-0 + +0` and exact cancellation `x + -x` all give `+0`,
///   while `-0 + -0` gives `-0` as IEEE requires; the line does not clearly say otherwise (it
///   names no signs). A flushed `-denorm` counts as `-0` here.
/// - Otherwise the exact sum rounded to nearest, ties to even, whatever MODE.round says
///   (the float atomic add of LDS and memory always rounds to nearest even and ignores
///   MODE.round: docs/rules/float-atomics.md#add-rounds-to-nearest-even). A sum too large
///   rounds to ±INF.
/// - A denormal result is flushed to ±0 (sign of the exact result kept) when
///   `ctl.flush_output`. Addition is exact below the smallest normal, so there is no question
///   of flushing before or after rounding: a result is denormal exactly when the exact sum is.
pub const fn add_f32(mem: u32, data: u32, ctl: DenormCtl) -> u32 {
    let (a, b) = if ctl.flush_input {
        (F32.flush(mem as u64) as u32, F32.flush(data as u64) as u32)
    } else {
        (mem, data)
    };
    if F32.is_nan(a as u64) {
        return F32.quiet(a as u64) as u32;
    }
    if F32.is_nan(b as u64) {
        return F32.quiet(b as u64) as u32;
    }
    let (a_inf, b_inf) = (F32.is_inf(a as u64), F32.is_inf(b as u64));
    if a_inf && b_inf {
        return if a == b { a } else { ADD_F32_INVALID_NAN };
    }
    if a_inf {
        return a;
    }
    if b_inf {
        return b;
    }
    let sum = add_finite(a, b);
    if ctl.flush_output {
        F32.flush(sum as u64) as u32
    } else {
        sum
    }
}

/// [`ADD_F32_INVALID_NAN`]'s f64 form, `-INF + INF` of [`add_f64`]: `0xfff8_0000_0000_0000`.
pub const ADD_F64_INVALID_NAN: u64 = 0xfff8_0000_0000_0000;

/// The new memory value of a 64-bit float atomic add (gfx942's `ds_add_f64`,
/// `global_atomic_add_f64`, ...): `mem + data`, by [`add_f32`]'s rules carried to f64 — our
/// choice, as the float atomic rules name only the 32-bit adder: denormal inputs and results
/// flushed per `ctl` (MODE's double-precision field), a NaN input quieted (`mem`'s first), `-INF
/// + INF` [`ADD_F64_INVALID_NAN`], round to nearest even with IEEE's zeros.
pub fn add_f64(mem: u64, data: u64, ctl: DenormCtl) -> u64 {
    // The host's f64 addition is IEEE-754's: rounded to nearest even, +0 for exact
    // cancellation and +0 + -0, -0 for -0 + -0, overflow to ±INF, denormals exact.
    add_by_rules(F64, mem, data, ctl, |a, b| {
        (f64::from_bits(a) + f64::from_bits(b)).to_bits()
    })
}

/// The new memory value of a packed 16-bit float atomic add (gfx942's `ds_pk_add_f16`,
/// `global_atomic_pk_add_bf16`, ...): each half `mem + data` in f16 (`bf16` false) or bf16,
/// by [`add_f32`]'s rules carried to 16 bits as [`add_f64`] carries them to 64 — our choice,
/// the float atomic rules naming only the 32-bit adder. The exact sum (two 16-bit values add
/// exactly in f64) is rounded once to nearest even.
pub fn add_pk16(mem: u32, data: u32, bf16: bool, ctl: DenormCtl) -> u32 {
    let (layout, format, value): (Layout, _, fn(u16) -> f64) = match bf16 {
        false => (F16, super::round::HALF, super::f16::to_f64),
        true => (BF16, super::bf16::BFLOAT16, super::bf16::to_f64),
    };
    let half = |a: u32, b: u32| {
        add_by_rules(layout, a as u64, b as u64, ctl, |a, b| {
            super::round::round_f64(value(a as u16) + value(b as u16), 0.0, format)
        }) as u32
    };
    half(mem & 0xffff, data & 0xffff) | half(mem >> 16, data >> 16) << 16
}

/// [`add_f32`]'s rules on a float of layout `l`, with `sum` the IEEE round-to-nearest-even
/// sum of two finite values: denormal inputs flushed per `ctl`, a NaN input quieted (`mem`'s
/// first), `-INF + INF` the negative quiet NaN with only the mantissa's top bit set, a
/// denormal result flushed per `ctl`.
fn add_by_rules(
    l: Layout,
    mem: u64,
    data: u64,
    ctl: DenormCtl,
    sum: impl Fn(u64, u64) -> u64,
) -> u64 {
    let (a, b) = if ctl.flush_input {
        (l.flush(mem), l.flush(data))
    } else {
        (mem, data)
    };
    if l.is_nan(a) {
        return l.quiet(a);
    }
    if l.is_nan(b) {
        return l.quiet(b);
    }
    if l.is_inf(a) && l.is_inf(b) && a != b {
        return l.sign | l.exp | l.quiet;
    }
    let s = sum(a, b);
    if ctl.flush_output {
        l.flush(s)
    } else {
        s
    }
}

/// The IEEE round-to-nearest-even sum of two finite, non-NaN f32 values.
const fn add_finite(a: u32, b: u32) -> u32 {
    let (big, small) = if a & ABS >= b & ABS { (a, b) } else { (b, a) };
    let subtract = (a ^ b) & SIGN != 0;
    if subtract && big & ABS == small & ABS {
        // Exact cancellation, including +0 + -0: +0 under round-to-nearest.
        return 0;
    }
    if big & ABS == 0 {
        // Two zeros of one sign: that zero (-0 + -0 = -0).
        return a;
    }
    let sign = big & SIGN;
    let (e_big, m_big) = unpack(big);
    let (e_small, m_small) = unpack(small);
    // |big| >= |small| means e_big >= e_small.
    let m_big = (m_big as u64) << EXTRA;
    let m_small = shift_right_sticky((m_small as u64) << EXTRA, e_big - e_small);
    // Non-zero: |big| > |small| when subtracting, and the sticky bit never exceeds the bits
    // it stands for.
    let m = if subtract {
        m_big - m_small
    } else {
        m_big + m_small
    };
    sign | round_pack(e_big as i32, m)
}

/// (biased exponent, significand) with the hidden bit; denormals use exponent 1 and no hidden
/// bit, so that the value is always `significand * 2^(exponent - 150)`.
const fn unpack(x: u32) -> (u32, u32) {
    let e = (x & ABS) >> 23;
    if e == 0 {
        (1, x & FRAC)
    } else {
        (e, (x & FRAC) | HIDDEN)
    }
}

/// `x >> d` with every bit shifted out ORed into bit 0.
const fn shift_right_sticky(x: u64, d: u32) -> u64 {
    if d == 0 {
        x
    } else if d >= 64 {
        (x != 0) as u64
    } else {
        (x >> d) | ((x & ((1u64 << d) - 1)) != 0) as u64
    }
}

/// Rounds `m * 2^(e - 150 - EXTRA)` (m > 0, 1 <= e <= 254, m < 2^(24 + EXTRA + 1)) to an f32
/// magnitude, nearest even, overflowing to INF.
const fn round_pack(e: i32, m: u64) -> u32 {
    let top = 63 - m.leading_zeros() as i32;
    // The result's biased exponent if normal: the leading bit becomes the hidden bit 23.
    let normal_exp = e + top - (23 + EXTRA as i32);
    let exp = if normal_exp < 1 { 1 } else { normal_exp };
    // q = m * 2^(e - exp - EXTRA) is the significand at exponent `exp` (denormal: at 1).
    let shift = exp + EXTRA as i32 - e;
    let q = if shift <= 0 {
        // Exact: only happens after cancellation, when the low bits are zero.
        m << (-shift) as u32
    } else {
        let shift = shift as u32; // <= 24 + EXTRA + 1 - 23 < 64
        let q = m >> shift;
        let rem = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    };
    // Adding q (hidden bit included) to (exp - 1) << 23 gives the encoding, and a carry out of
    // the significand (q == 2^24) or of a denormal (q == 2^23) bumps the exponent field.
    let bits = (((exp - 1) as u64) << 23) + q;
    if bits >= INF as u64 {
        INF
    } else {
        bits as u32
    }
}

#[cfg(test)]
mod f64_tests {
    use super::*;

    #[test]
    fn packed_16_bit_adds_work_per_half_with_the_adders_rules() {
        let keep = DenormCtl::FLUSH_NONE;
        // f16: 1.0 + 1.0 in the low half, 65504 + 65504 → inf in the high half.
        assert_eq!(add_pk16(0x7bff_3c00, 0x7bff_3c00, false, keep), 0x7c00_4000);
        // Rounded once to nearest even: 2048 + 1 = 2049 → 2048 (f16 has 11 bits).
        assert_eq!(add_pk16(0x6800, 0x3c00, false, keep), 0x6800);
        // -INF + INF: the negative quiet NaN; a NaN in memory comes back quieted.
        assert_eq!(add_pk16(0xfc00, 0x7c00, false, keep), 0xfe00);
        assert_eq!(add_pk16(0x7d00 << 16, 0, false, keep), 0x7f00 << 16);
        // A denormal kept, or flushed to a signed zero.
        assert_eq!(add_pk16(0x0001, 0x0001, false, keep), 0x0002);
        let flush = DenormCtl {
            flush_input: true,
            flush_output: true,
        };
        assert_eq!(add_pk16(0x8001, 0x0000, false, flush), 0x0000);
        // bf16: 1.0 + 2^-8 rounds to even (bf16 has 8 bits): 1.0.
        assert_eq!(add_pk16(0x3f80, 0x3b80, true, keep), 0x3f80);
        assert_eq!(add_pk16(0x4280_0000, 0x3f00_0000, true, keep), 0x4281_0000);
    }

    #[test]
    fn add_f64_follows_the_f32_adders_rules() {
        let keep = DenormCtl::FLUSH_NONE;
        let f = |x: f64| x.to_bits();
        assert_eq!(add_f64(f(1.5), f(2.25), keep), f(3.75));
        // Round to nearest even: 1 + 2^-53 is a tie, to 1.
        assert_eq!(add_f64(f(1.0), f(2f64.powi(-53)), keep), f(1.0));
        assert_eq!(add_f64(f(-0.0), f(0.0), keep), f(0.0));
        assert_eq!(add_f64(f(-0.0), f(-0.0), keep), f(-0.0));
        assert_eq!(
            add_f64(f(f64::INFINITY), f(f64::NEG_INFINITY), keep),
            ADD_F64_INVALID_NAN
        );
        // A signalling NaN in memory comes back quiet with its payload.
        let snan = 0x7ff0_0000_0000_0001;
        assert_eq!(add_f64(snan, f(1.0), keep), 0x7ff8_0000_0000_0001);
        // Denormals kept, or flushed by MODE.
        let tiny = 1u64;
        assert_eq!(add_f64(tiny, tiny, keep), 2);
        let flush = DenormCtl {
            flush_input: true,
            flush_output: true,
        };
        assert_eq!(add_f64(tiny, f(1.0), flush), f(1.0));
    }
}
