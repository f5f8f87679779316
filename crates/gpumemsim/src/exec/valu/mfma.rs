//! gfx942's matrix fused multiply-adds (`v_mfma_*`): D = A·B + C for each of B blocks of
//! M×N (M = N) with K terms, over the 64 lanes.
//!
//! Register layouts (AMD's matrix instruction calculator, `matrix_calculator.py`, the
//! formulas its CDNA register tables print; the single-block ones are also those of the
//! CDNA3 ISA guide's examples). With E = K·M·B/64 elements of A (and of B) per lane:
//! - A\[b\]\[i\]\[k\] is element `k % E` of lane `b·M + (k / E)·M·B + i`; B\[b\]\[k\]\[j\] the same
//!   with `j`. Elements pack into a lane's registers from the low bits: four 8-bit ones, two
//!   16-bit ones or one 32-bit one per VGPR, an f64 per VGPR pair.
//! - C and D: with H = 4 rows per register group for 32-bit results (1 for f64), R = 64/N,
//!   BPR = max(1, 64·H/(M·N)) blocks per register and RPB = M·N/64 registers per block,
//!   D\[b\]\[i\]\[j\] is register `b·RPB + (i / (H·R))·H + i % H` (a VGPR pair for f64) of lane
//!   `(b % BPR)·N + ((i / H) % R)·BPR·N + j`.
//! - `cbsz`/`abid`: block b reads A of block `⌊b / 2^cbsz⌋·2^cbsz + abid`; `blgp` (0-7)
//!   reads B's lane L from lane L, L%32, 32+L%32, (L+16)%64, L%16, 16+L%16, 32+L%16 or
//!   48+L%16. The f64 instructions have `neg` for A, B and C in those three bits: the sign
//!   bit flipped.
//!
//! Arithmetic: the documents do not say it; we follow MMA-Sim (Microsoft Research,
//! arXiv:2511.10909, a model its authors report bit-identical to MI300 output):
//! - f32 and f64: one fused multiply-add per term, k in increasing order, onto C;
//! - f16, bf16, and xf32 (f32 inputs with their low 13 mantissa bits cleared): terms in
//!   groups of min(8, K) (xf32: 4), each group onto the running sum as
//!   [`fused_dot_add`] does;
//! - fp8/bf8 (gfx942's FNUZ formats, `fp::convert::fnuz8_to_f32`): groups of 16, the even and the odd
//!   terms summed apart first ([`fused_dot_add`] with `halves`);
//! - i8: exact products, the sum wrapping at 32 bits.
//!
//! SMFMAC (`v_smfmac_*`) is the same product with A given 2:4 sparse ([`sparse_a`]) and D
//! accumulating onto itself.
//!
//! Where MMA-Sim's own versions differ (the fp8 combining rounds toward zero in its newer
//! code, toward −∞ in its older), we take the newer; NaN and infinity inputs give the sum
//! computed in f64 (its older code's rule; its authors did not check these on hardware).
//!
//! The lowering (`crate::target::gfx9`) moves every AGPR operand to its VGPR of the unified
//! register file; where one is past v255 it keeps the AGPR bits instead, and those operands
//! are read here from the wave's `accum_offset` on. The hardware ignores EXEC for matrix
//! instructions (AMD's CDNA3 ISA guide): every lane takes part.

use rdna3_isa::{Field, Instruction};

use super::shape::ValuError;
use crate::fp::arith as fa;
use crate::fp::bf16;
use crate::fp::convert::{f16_to_f32_mode, fnuz8_to_f32};
use crate::fp::DenormCtl;
use crate::wave::Wave;

/// A matrix operation: its tile, blocks and element types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Mfma {
    /// Rows of each block of D (= columns).
    m: u32,
    /// Terms of each dot product.
    k: u32,
    /// Blocks.
    blocks: u32,
    /// What A holds.
    a: In,
    /// What B holds.
    b: In,
    /// SMFMAC: A is 2:4 sparse (half its values, placed by an index VGPR), C is D.
    sparse: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum In {
    F32,
    Xf32,
    F64,
    F16,
    Bf16,
    I8,
    Fp8,
    Bf8,
}

impl In {
    fn of(name: &str) -> Option<In> {
        Some(match name {
            "f32" => In::F32,
            "xf32" => In::Xf32,
            "f64" => In::F64,
            "f16" => In::F16,
            "bf16" => In::Bf16,
            "i8" => In::I8,
            "fp8" => In::Fp8,
            "bf8" => In::Bf8,
            _ => return None,
        })
    }

    fn bits(self) -> u32 {
        match self {
            In::F64 => 64,
            In::F32 | In::Xf32 => 32,
            In::F16 | In::Bf16 => 16,
            In::I8 | In::Fp8 | In::Bf8 => 8,
        }
    }

    /// The exact f32 value of an element (every type here but f64 and i8 fits f32 exactly).
    fn float(self, x: u64) -> u32 {
        match self {
            In::F32 => x as u32,
            In::Xf32 => x as u32 & 0xffff_e000,
            In::F16 => f16_to_f32_mode(x as u16, DenormCtl::FLUSH_NONE),
            In::Bf16 => bf16::to_f32_bits(x as u16),
            In::Fp8 => fnuz8_to_f32(x as u8, 3, 8),
            In::Bf8 => fnuz8_to_f32(x as u8, 2, 16),
            In::I8 | In::F64 => unreachable!("not an f32 element"),
        }
    }

    /// The smallest exponent of the type's normal numbers (its subnormals' scale).
    fn emin(self) -> i32 {
        match self {
            In::F16 => -14,
            In::Fp8 => -7,
            In::Bf8 => -15,
            _ => -126,
        }
    }
}

impl Mfma {
    /// The operation `name` names (`v_mfma_f32_32x32x1_2b_f32`, `v_mfma_f32_16x16x32_fp8_bf8`,
    /// ...); SMFMAC is not one.
    pub(super) fn of(name: &str) -> Option<Mfma> {
        let sparse = name.starts_with("v_smfmac_");
        let rest = name
            .strip_prefix("v_mfma_")
            .or_else(|| name.strip_prefix("v_smfmac_"))?;
        let (_, rest) = rest.split_once('_')?;
        let (shape, rest) = rest.split_once('_')?;
        let mut dims = shape.split('x').map(|d| d.parse::<u32>().ok());
        let (m, _n, k) = (dims.next()??, dims.next()??, dims.next()??);
        let (blocks, types) = match rest.split_once("b_") {
            Some((b, t)) if b.parse::<u32>().is_ok() => (b.parse().ok()?, t),
            _ => (1, rest),
        };
        let (a, b) = match types.split_once('_') {
            Some((a, b)) => (In::of(a)?, In::of(b)?),
            None => (In::of(types)?, In::of(types)?),
        };
        Some(Mfma {
            m,
            k,
            blocks,
            a,
            b,
            sparse,
        })
    }

    /// Elements of A (and of B) each lane holds.
    fn per_lane(self) -> u32 {
        self.k * self.m * self.blocks / 64
    }

    /// Element `e` of a lane's registers from `reg` on, `bits` wide.
    fn element(w: &Wave, reg: u32, lane: u32, e: u32, bits: u32) -> u64 {
        let at = e * bits;
        let word = w.vgpr(reg + at / 32, lane) as u64;
        match bits {
            64 => word | (w.vgpr(reg + at / 32 + 1, lane) as u64) << 32,
            32 => word,
            _ => word >> (at % 32) & ((1 << bits) - 1),
        }
    }

    /// The lane and element index of A\[block\]\[row\]\[k\] (or B\[block\]\[k\]\[col\]).
    fn input_at(self, block: u32, rc: u32, kk: u32) -> (u32, u32) {
        let e = self.per_lane();
        (
            block * self.m + (kk / e) * self.m * self.blocks + rc,
            kk % e,
        )
    }

    /// The register (VGPR pair for f64, counted in results) and lane of D\[block\]\[i\]\[j\].
    fn output_at(self, block: u32, i: u32, j: u32) -> (u32, u32) {
        let n = self.m;
        let h = if self.a == In::F64 { 1 } else { 4 };
        let r = 64 / n;
        let bpr = (64 * h / (self.m * n)).max(1);
        let rpb = self.m * n / 64;
        (
            block * rpb + (i / (h * r)) * h + i % h,
            (block % bpr) * n + ((i / h) % r) * bpr * n + j,
        )
    }
}

/// SMFMAC's dense A from its compressed one (AMD's 2:4 structured sparsity, as
/// composable_kernel's SMFMAC test packs it on the hardware): lane l holds row `l % M` and a
/// window of `E` terms from `E·(l / M)` in groups of 4; of each group it holds 2 values
/// (`E/2` in all, packed as A elements are), and the index VGPR `index` gives each value's
/// place in its group, 2 bits per value, from one of its index sets (8 bits for 16-bit
/// types, 16 for 8-bit ones): set `abid` when `cbsz` is 0, else set 0 (LLVM's and MLIR's
/// description of gfx942's SMFMAC). The other terms are 0; a place given twice takes the
/// later value (not documented: our choice). The 8-bit layout is the 16-bit one carried
/// over (no document shows it).
fn sparse_a(op: Mfma, w: &Wave, a: u32, index: u32, (cbsz, abid): (u32, u32), am: &mut [u64]) {
    let (m, kk, e) = (op.m, op.k, op.per_lane());
    let set_bits = if op.a.bits() == 8 { 16 } else { 8 };
    let set = if cbsz == 0 { abid % (32 / set_bits) } else { 0 };
    am.fill(0);
    for lane in 0..64 {
        let (row, k0) = (lane % m, e * (lane / m));
        let idx = w.vgpr(index, lane) >> (set * set_bits) & ((1 << set_bits) - 1);
        for p in 0..e / 2 {
            let place = idx >> (2 * p) & 3;
            let t = k0 + 4 * (p / 2) + place;
            if t < kk {
                am[(row * kk + t) as usize] = Mfma::element(w, a, lane, p, op.a.bits());
            }
        }
    }
}

/// `blgp`'s lane pattern: the lane B's lane `l` is read from.
fn blgp_lane(blgp: u32, l: u32) -> u32 {
    match blgp {
        1 => l % 32,
        2 => 32 + l % 32,
        3 => (l + 16) % 64,
        4 => l % 16,
        5 => 16 + l % 16,
        6 => 32 + l % 16,
        7 => 48 + l % 16,
        _ => l,
    }
}

/// Executes matrix operation `op` of `inst` on wave `w` (wave64).
pub(super) fn execute(op: Mfma, inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    if w.size != 64 {
        return Err(ValuError::Unimplemented);
    }
    let (a, b, c, d) = (
        inst.get(Field::Src0),
        inst.get(Field::Src1),
        inst.get(Field::Src2),
        inst.get(Field::Vdst),
    );
    let (Some(a), Some(b)) = (a.checked_sub(256), b.checked_sub(256)) else {
        return Err(ValuError::Unimplemented);
    };
    // AGPR bits the lowering kept (AGPRs past v255): those registers start at accum_offset.
    let hi = inst.get(Field::OpSelHi);
    let acc_cd = inst.get(Field::Clamp) == 1;
    let off = |acc: bool| if acc { w.accum_offset } else { 0 };
    let (a, b) = (a + off(hi & 1 == 1), b + off(hi & 2 == 2));
    let (c, d) = match c.checked_sub(256) {
        Some(v) => (256 + v + off(acc_cd), d + off(acc_cd)),
        None => (c, d + off(acc_cd)),
    };
    let f64_op = op.a == In::F64;
    let cbsz = inst.get(Field::NegHi);
    let abid = inst.get(Field::OpSel) | (inst.get(Field::OpSelHi) >> 2 & 1) << 3;
    let (blgp, neg) = match f64_op {
        true => (0, inst.get(Field::NegLo)),
        false => (inst.get(Field::NegLo), 0),
    };
    let (m, kk, nb) = (op.m, op.k, op.blocks);
    let (ba, bb) = (op.a.bits(), op.b.bits());
    // SMFMAC: C is D, and src2 is the index VGPR.
    let (c, index) = match op.sparse {
        true => (256 + d, inst.get(Field::Src2).checked_sub(256)),
        false => (c, None),
    };
    // A[block][row][k] and B[block][k][col], as raw elements.
    let mut am = vec![0u64; (nb * m * kk) as usize];
    let mut bm = vec![0u64; (nb * kk * m) as usize];
    for blk in 0..nb {
        let src_blk = ((blk >> cbsz) << cbsz) + abid;
        for rc in 0..m {
            for t in 0..kk {
                let (la, ea) = op.input_at(src_blk.min(nb - 1), rc, t);
                let (lb, eb) = op.input_at(blk, rc, t);
                if !op.sparse {
                    am[((blk * m + rc) * kk + t) as usize] = Mfma::element(w, a, la, ea, ba);
                }
                bm[((blk * kk + t) * m + rc) as usize] =
                    Mfma::element(w, b, blgp_lane(blgp, lb), eb, bb);
            }
        }
    }
    if let Some(index) = index {
        sparse_a(op, w, a, index, (cbsz, abid), &mut am);
    }
    let width = if f64_op { 2 } else { 1 };
    let c_of = |w: &Wave, reg: u32, lane: u32| -> u64 {
        match c.checked_sub(256) {
            Some(v) => Mfma::element(w, v + reg * width, lane, 0, 32 * width),
            // A constant C: the same value in every result (f64: its 64-bit form).
            None if f64_op => w.ssrc64(c, inst.literal),
            None => w.ssrc32(c, inst.literal) as u64,
        }
    };
    let mut out = Vec::with_capacity((nb * m * m) as usize);
    for blk in 0..nb {
        for i in 0..m {
            for j in 0..m {
                let (reg, lane) = op.output_at(blk, i, j);
                let acc = c_of(w, reg, lane);
                let row = &am[((blk * m + i) * kk) as usize..][..kk as usize];
                let col: Vec<u64> = (0..kk)
                    .map(|t| bm[((blk * kk + t) * m + j) as usize])
                    .collect();
                out.push((reg, lane, dot(op, row, &col, acc, neg)));
            }
        }
    }
    for (reg, lane, v) in out {
        w.set_vgpr(d + reg * width, lane, v as u32);
        if f64_op {
            w.set_vgpr(d + reg * width + 1, lane, (v >> 32) as u32);
        }
    }
    Ok(())
}

/// One result: `acc` plus the dot product of `row` and `col` (raw elements), as the
/// operation's arithmetic does it; `neg` negates A, B, C (f64).
fn dot(op: Mfma, row: &[u64], col: &[u64], acc: u64, neg: u32) -> u64 {
    let ctl = DenormCtl::FLUSH_NONE;
    match op.a {
        In::I8 => row.iter().zip(col).fold(acc as u32 as i32, |s, (&x, &y)| {
            s.wrapping_add((x as u8 as i8 as i32).wrapping_mul(y as u8 as i8 as i32))
        }) as u32 as u64,
        In::F64 => {
            let flip = |x: u64, bit: u32| x ^ ((neg >> bit & 1) as u64) << 63;
            row.iter().zip(col).fold(flip(acc, 2), |s, (&x, &y)| {
                fa::fma64(flip(x, 0), flip(y, 1), s, ctl)
            })
        }
        In::F32 => row.iter().zip(col).fold(acc as u32, |s, (&x, &y)| {
            fa::fma32(x as u32, y as u32, s, ctl)
        }) as u64,
        _ => {
            let (group, halves) = match op.a {
                In::Xf32 => (4, false),
                In::Fp8 | In::Bf8 => (16, true),
                _ => (8.min(op.k as usize), false),
            };
            let mut s = acc as u32;
            for (xs, ys) in row.chunks(group).zip(col.chunks(group)) {
                let terms: Vec<Term> = xs
                    .iter()
                    .zip(ys)
                    .map(|(&x, &y)| Term::of(op.a, x, op.b, y))
                    .collect();
                s = fused_dot_add(&terms, s, halves);
            }
            s as u64
        }
    }
}

/// One product of a fused dot product: the two factors' exact f32 values and the exponents
/// they are split at.
#[derive(Clone, Copy)]
struct Term {
    a: u32,
    b: u32,
    emin: (i32, i32),
}

impl Term {
    fn of(ta: In, x: u64, tb: In, y: u64) -> Term {
        Term {
            a: ta.float(x),
            b: tb.float(y),
            emin: (ta.emin(), tb.emin()),
        }
    }
}

/// `x` (finite f32 bits) as a signed significand in units of 2^-23 and an exponent, split
/// as a number of a type whose normal exponents start at `emin`: 1 ≤ |s| < 2, or |s| < 1 at
/// `emin` for the type's subnormals. `None` for zero.
fn split(x: u32, emin: i32) -> Option<(i64, i32)> {
    let (e, m) = ((x >> 23 & 0xff) as i32, x & 0x7f_ffff);
    let (mant, exp) = match e {
        0 if m == 0 => return None,
        0 => (m as i64, -126),
        _ => ((m | 1 << 23) as i64, e - 127),
    };
    let (mant, exp) = if exp < emin {
        (mant >> (emin - exp).min(63), emin)
    } else {
        (mant, exp)
    };
    let sign = if x >> 31 == 1 { -1 } else { 1 };
    Some((sign * mant, exp))
}

/// `v · 2^shift` rounded toward zero (`trunc`) or toward −∞.
fn scale(v: i128, shift: i32, trunc: bool) -> i128 {
    match shift {
        0.. => v << shift.min(100),
        _ => {
            let k = (-shift).min(127) as u32;
            if trunc && v < 0 {
                -((-v) >> k)
            } else {
                v >> k
            }
        }
    }
}

/// The products of `terms`, each truncated toward zero to 24 fractional bits at the
/// largest product's exponent, summed exactly: (sum in units of 2^-24, that exponent).
fn truncated_sum(terms: &[Term]) -> Option<(i128, i32)> {
    let products: Vec<(i128, i32)> = terms
        .iter()
        .filter_map(|t| {
            let (sa, ea) = split(t.a, t.emin.0)?;
            let (sb, eb) = split(t.b, t.emin.1)?;
            // Units of 2^-46.
            Some(((sa * sb) as i128, ea + eb))
        })
        .collect();
    let emax = products.iter().map(|&(_, e)| e).max()?;
    let sum = products
        .iter()
        .map(|&(p, e)| scale(p, e - emax - 22, true))
        .sum();
    Some((sum, emax))
}

/// MMA-Sim's fused dot-product-add of CDNA3 (`amd_fused_dot_add`): the products of `terms`
/// summed as [`truncated_sum`] does (with `halves`, the even and the odd terms apart, then
/// the two sums brought to the larger exponent, truncated toward zero); that sum rounded
/// toward −∞ (`halves`: zero) to 31 fractional bits and `c` to 24, at the larger of their
/// exponents; their sum rounded to nearest even into f32.
fn fused_dot_add(terms: &[Term], c: u32, halves: bool) -> u32 {
    let finite = |x: u32| x & 0x7f80_0000 != 0x7f80_0000;
    if !terms.iter().all(|t| finite(t.a) && finite(t.b)) || !finite(c) {
        let f = |x: u32| f32::from_bits(x) as f64;
        let s = terms.iter().fold(f(c), |s, t| s + f(t.a) * f(t.b));
        return (s as f32).to_bits();
    }
    let sum = if halves {
        let even: Vec<Term> = terms.iter().step_by(2).copied().collect();
        let odd: Vec<Term> = terms.iter().skip(1).step_by(2).copied().collect();
        match (truncated_sum(&even), truncated_sum(&odd)) {
            (Some((s0, e0)), Some((s1, e1))) => {
                let em = e0.max(e1);
                Some((scale(s0, e0 - em, true) + scale(s1, e1 - em, true), em))
            }
            (one, None) | (None, one) => one,
        }
    } else {
        truncated_sum(terms)
    };
    let Some((s, emax)) = sum else {
        return c;
    };
    let (sc, ec) = split(c, -126).unwrap_or((0, -126));
    let e = emax.max(ec);
    // Units of 2^-31 at 2^e.
    let s2 = scale(s, emax - e + 7, halves);
    let c2 = scale(sc as i128, ec - e + 1, halves) << 7;
    let n = s2 + c2;
    // |n| < 2^53: exact in f64, then one rounding to f32.
    (((n as f64) * 2f64.powi(e - 31)) as f32).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_tiles_blocks_and_types() {
        let m = Mfma::of("v_mfma_f32_32x32x1_2b_f32").expect("a form");
        assert_eq!((m.m, m.k, m.blocks, m.a), (32, 1, 2, In::F32));
        let m = Mfma::of("v_mfma_f32_16x16x32_fp8_bf8").expect("a form");
        assert_eq!(
            (m.m, m.k, m.blocks, m.a, m.b),
            (16, 32, 1, In::Fp8, In::Bf8)
        );
        let m = Mfma::of("v_mfma_f64_4x4x4_4b_f64").expect("a form");
        assert_eq!((m.blocks, m.per_lane()), (4, 1));
        let s = Mfma::of("v_smfmac_f32_16x16x32_f16").expect("a form");
        assert_eq!((s.m, s.k, s.sparse, s.per_lane()), (16, 32, true, 8));
    }

    #[test]
    fn output_layouts_follow_the_calculator() {
        // 32x32 single block: row 8(r/4) + 4(l/32) + r%4.
        let m = Mfma::of("v_mfma_f32_32x32x8_f16").expect("a form");
        assert_eq!(m.output_at(0, 13, 5), (4 + 1, 32 + 5));
        // 4x4x4_16b: register = row, lane = 4·block + col.
        let m = Mfma::of("v_mfma_f32_4x4x4_16b_f16").expect("a form");
        assert_eq!(m.output_at(7, 2, 3), (2, 31));
        // f64 16x16x4: pair p holds row 4p + l/16.
        let m = Mfma::of("v_mfma_f64_16x16x4_f64").expect("a form");
        assert_eq!(m.output_at(0, 6, 9), (1, 2 * 16 + 9));
        // f64 4x4x4_4b: lane 4·block + 16·row + col.
        let m = Mfma::of("v_mfma_f64_4x4x4_4b_f64").expect("a form");
        assert_eq!(m.output_at(3, 2, 1), (0, 12 + 32 + 1));
    }

    #[test]
    fn fnuz_bytes_decode_as_llvm_defines_them() {
        let f = |x: u8, m: u32, b: i32| f32::from_bits(fnuz8_to_f32(x, m, b));
        assert_eq!(f(0x7f, 3, 8), 240.0, "fp8 max");
        assert_eq!(f(0x7f, 2, 16), 57344.0, "bf8 max");
        assert_eq!(f(0x01, 3, 8), 2f32.powi(-10), "fp8 smallest subnormal");
        assert_eq!(f(0x40, 3, 8), 1.0);
        assert_eq!(f(0xc0, 2, 16), -1.0);
        assert!(f(0x80, 3, 8).is_nan());
    }

    #[test]
    fn the_fused_sum_truncates_small_products_and_rounds_once() {
        let t = |a: f32, b: f32| Term {
            a: a.to_bits(),
            b: b.to_bits(),
            emin: (-14, -14),
        };
        // Exact when everything fits.
        let s = fused_dot_add(&[t(1.0, 2.0), t(3.0, 4.0)], 0.5f32.to_bits(), false);
        assert_eq!(f32::from_bits(s), 14.5);
        // 1 + 2^-30 at the scale of 1: the small product is truncated away (24 bits).
        let s = fused_dot_add(&[t(1.0, 1.0), t(2f32.powi(-15), 2f32.powi(-15))], 0, false);
        assert_eq!(f32::from_bits(s), 1.0);
        // A negative sum far below C rounds toward −∞ at 31 bits: 1 − 2^-40 → 1 − 2^-31,
        // which rounds to nearest even into f32 as 1.0.
        let s = fused_dot_add(
            &[t(-(2f32.powi(-20)), 2f32.powi(-20))],
            1.0f32.to_bits(),
            false,
        );
        assert_eq!(f32::from_bits(s), 1.0);
    }
}
