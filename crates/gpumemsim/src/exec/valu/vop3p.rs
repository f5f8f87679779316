//! VOP3P: packed 16-bit math (`v_pk_*`), the dot products (`v_dot2_f32_f16/bf16`,
//! `v_dot4_*`, `v_dot8_*`) and `v_fma_mix*`, per AMD's pseudocode (`=== VOP3P n`), with their
//! DPP forms, and WMMA in wave32 ([`super::wmma`]).
//!
//! Each table entry is classified once ([`pclass`]). Per instruction the modifiers are read
//! once; per lane the operation is a `match` on a small enum.
//!
//! # Modifiers (`tools/DPP_VOP3P_NOTES.md` §6.3)
//! - Packed 16-bit sources (`v_pk_*`, the `v_dot2` A/B operands): the low half of the
//!   computation reads `op_sel[i] ? S[31:16] : S[15:0]`, the high half
//!   `op_sel_hi[i] ? S[31:16] : S[15:0]`. For float halves `neg_lo[i]`/`neg_hi[i]` negate
//!   the low/high value. For the integer packed ops the pseudocode never reads NEG: we
//!   ignore `neg_lo`/`neg_hi` there (our choice; LLVM accepts the bits).
//! - `v_dot4_i32_iu8`/`v_dot8_i32_iu4`: `neg_lo[0]`/`neg_lo[1]` make A/B signed (pseudocode);
//!   the unsigned dots and every other neg bit of the dots are ignored, as are `op_sel` and
//!   `op_sel_hi` on their 32-bit operands (the pseudocode reads whole `S0`/`S1`/`S2`).
//! - `v_dot2_f32_*` S2 (an f32): `neg_lo[2]` negates it and `neg_hi[2]` takes its absolute
//!   value (our choice, the meaning the bits have for the f32 inputs of `v_fma_mix*`).
//! - `v_fma_mix*`: per source, `op_sel_hi[i] = 0` reads `S[i]` as f32, else the f16 half
//!   `op_sel[i]` picks, converted exactly; then `neg_hi[i]` = absolute value, `neg_lo[i]` =
//!   negate (abs first), as LLVM prints them (`|x|`, `-x`).
//! - `clamp`: float results are clamped to [0, 1] (each half of a packed result); integer
//!   adds, subtracts, `mad`s and the dots saturate to their result type, as the VOP3 16-bit
//!   forms do (our choice: the pseudocode does not say); shifts, `mul_lo`, min/max ignore it.
//!
//! # Constants
//! An inline float constant (240-248) in an f16 source (`PackedF16`, the `v_fma_mix` F16
//! sources when `op_sel_hi[i]` = 1) is the f16 value in the low half (high half 0); in a
//! bf16 source the top half of the f32 constant, in the low half; elsewhere (B32, mix with
//! `op_sel_hi[i]` = 0) the f32 bits. Integer inline constants and literals are their 32
//! bits. Our choice, consistent with how the VOP3 16-bit operands read constants.
//!
//! # Rounding and denormals
//! Round to nearest even only (MODE.FP_ROUND otherwise stops the float operations). f16
//! values use MODE's f16 (double-precision) denormal control, f32 and bf16 the f32 one
//! (see [`crate::fp::bf16`]). `v_fma_mixlo/hi_f16` round twice, as written: `fma` to f32,
//! then `f32_to_f16`.

use std::sync::OnceLock;

use rdna3_isa::{Field, Format, InstrDef, Instruction, Kind, Opcode, SrcTy};

use super::dpp;
use super::shape::Ctx;
use super::shape::ValuError;
use super::wmma::{self, Wmma};
use crate::fp::arith as fa;
use crate::fp::convert::{f16_to_f32_mode, f32_to_f16 as cvt_f32_f16};
use crate::fp::f16::{self as h, out_mods16};
use crate::fp::valu::{f32_to_f16, Round};
use crate::wave::Wave;

/// A packed 16-bit integer operation (both halves alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PkInt {
    MadI16,
    MulLo,
    AddI16,
    SubI16,
    Lshlrev,
    Lshrrev,
    Ashrrev,
    MaxI16,
    MinI16,
    MadU16,
    AddU16,
    SubU16,
    MaxU16,
    MinU16,
}

/// A packed f16 operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PkF16 {
    Fma,
    Add,
    Mul,
    Min,
    Max,
}

/// A VOP3P operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum POp {
    Int(PkInt),
    F16(PkF16),
    Dot2F16,
    Dot2Bf16,
    /// `v_dot4_*_*8` (signed-capable: `iu8`).
    Dot4 {
        signed: bool,
    },
    /// `v_dot8_*_*4`.
    Dot8 {
        signed: bool,
    },
    /// `v_fma_mix_f32` (None), `v_fma_mixlo_f16` (Some(false)), `v_fma_mixhi_f16` (Some(true)).
    Mix(Option<bool>),
    /// A whole-wave matrix multiply.
    Wmma(Wmma),
    /// gfx942's (gfx90a's) two-f32 operations on register pairs ([`execute_pk_f32`]).
    PkF32(PkF32),
    /// gfx942's matrix multiply-adds ([`super::mfma`]).
    Mfma(super::mfma::Mfma),
}

/// A gfx90a packed-f32 operation: two f32 (or b32) lanes in a 64-bit register pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PkF32 {
    Fma,
    Add,
    Mul,
    Mov,
}

/// How a VOP3P table entry executes.
#[derive(Clone, Copy, Debug)]
struct PClass {
    op: POp,
    /// Number of sources (2 or 3).
    nsrc: usize,
    /// Source i's type (for its inline constants).
    ty: [SrcTy; 3],
    /// Float arithmetic that rounds.
    rounds: bool,
}

fn op_of(name: &str) -> Option<POp> {
    use PkInt::*;
    Some(match name {
        "v_pk_mad_i16" => POp::Int(MadI16),
        "v_pk_mul_lo_u16" => POp::Int(MulLo),
        "v_pk_add_i16" => POp::Int(AddI16),
        "v_pk_sub_i16" => POp::Int(SubI16),
        "v_pk_lshlrev_b16" => POp::Int(Lshlrev),
        "v_pk_lshrrev_b16" => POp::Int(Lshrrev),
        "v_pk_ashrrev_i16" => POp::Int(Ashrrev),
        "v_pk_max_i16" => POp::Int(MaxI16),
        "v_pk_min_i16" => POp::Int(MinI16),
        "v_pk_mad_u16" => POp::Int(MadU16),
        "v_pk_add_u16" => POp::Int(AddU16),
        "v_pk_sub_u16" => POp::Int(SubU16),
        "v_pk_max_u16" => POp::Int(MaxU16),
        "v_pk_min_u16" => POp::Int(MinU16),
        "v_pk_fma_f16" => POp::F16(PkF16::Fma),
        "v_pk_add_f16" => POp::F16(PkF16::Add),
        "v_pk_mul_f16" => POp::F16(PkF16::Mul),
        "v_pk_min_f16" => POp::F16(PkF16::Min),
        "v_pk_max_f16" => POp::F16(PkF16::Max),
        "v_dot2_f32_f16" => POp::Dot2F16,
        "v_dot2_f32_bf16" => POp::Dot2Bf16,
        "v_dot4_i32_iu8" => POp::Dot4 { signed: true },
        "v_dot4_u32_u8" => POp::Dot4 { signed: false },
        "v_dot8_i32_iu4" => POp::Dot8 { signed: true },
        "v_dot8_u32_u4" => POp::Dot8 { signed: false },
        "v_fma_mix_f32" => POp::Mix(None),
        "v_fma_mixlo_f16" => POp::Mix(Some(false)),
        "v_fma_mixhi_f16" => POp::Mix(Some(true)),
        "v_pk_fma_f32" => POp::PkF32(PkF32::Fma),
        "v_pk_add_f32" => POp::PkF32(PkF32::Add),
        "v_pk_mul_f32" => POp::PkF32(PkF32::Mul),
        "v_pk_mov_b32" => POp::PkF32(PkF32::Mov),
        _ => return None,
    })
}

/// The executor's view of a VOP3P table entry.
fn classify(d: &InstrDef) -> Option<PClass> {
    if d.format != Format::Vop3p {
        return None;
    }
    if let Some(o) = super::mfma::Mfma::of(d.name) {
        return Some(PClass {
            op: POp::Mfma(o),
            nsrc: 3,
            ty: [SrcTy::B32; 3],
            rounds: true,
        });
    }
    if let Some(o) = Wmma::of(d.name) {
        return Some(PClass {
            op: POp::Wmma(o),
            nsrc: 3,
            ty: [SrcTy::B32; 3],
            rounds: !matches!(o, Wmma::I32Iu8 | Wmma::I32Iu4),
        });
    }
    let op = op_of(d.name)?;
    let mut c = PClass {
        op,
        nsrc: 0,
        ty: [SrcTy::B32; 3],
        rounds: !matches!(
            op,
            POp::Int(_) | POp::Dot4 { .. } | POp::Dot8 { .. } | POp::PkF32(PkF32::Mov)
        ) && !matches!(op, POp::F16(PkF16::Min | PkF16::Max)),
    };
    for (i, f) in [Field::Src0, Field::Src1, Field::Src2]
        .into_iter()
        .enumerate()
    {
        let Some(o) = d.operand(f) else { break };
        c.ty[i] = match o.kind {
            Kind::VSrc(_, ty) => ty,
            _ => return None,
        };
        c.nsrc = i + 1;
    }
    Some(c)
}

/// Whether the executor runs VOP3P entry `d` (the coverage tests ask).
#[cfg(test)]
pub(super) fn executes(d: &InstrDef) -> bool {
    classify(d).is_some()
}

fn pclass(op: Opcode) -> Option<&'static PClass> {
    static CACHE: OnceLock<Vec<Option<PClass>>> = OnceLock::new();
    super::class::per_entry(&CACHE, op, classify)
}

/// The instruction's modifier bits, read once.
#[derive(Clone, Copy, Debug)]
struct Mods {
    op_sel: u32,
    op_sel_hi: u32,
    neg_lo: u32,
    neg_hi: u32,
    clamp: bool,
}

impl Mods {
    /// The modifier bits of `inst`.
    fn of(inst: &Instruction) -> Mods {
        Mods {
            op_sel: inst.get(Field::OpSel),
            op_sel_hi: inst.get(Field::OpSelHi),
            neg_lo: inst.get(Field::NegLo),
            neg_hi: inst.get(Field::NegHi),
            clamp: inst.get(Field::Clamp) != 0,
        }
    }

    /// Source i's (low, high) 16-bit operands of a packed operation; float halves negated.
    #[inline]
    fn halves(&self, x: u32, i: usize, float: bool) -> (u32, u32) {
        let pick = |hi: bool| if hi { x >> 16 } else { x & 0xffff };
        let mut lo = pick(self.op_sel >> i & 1 == 1);
        let mut hi = pick(self.op_sel_hi >> i & 1 == 1);
        if float {
            lo ^= (self.neg_lo >> i & 1) << 15;
            hi ^= (self.neg_hi >> i & 1) << 15;
        }
        (lo, hi)
    }

    /// An f32 operand with `neg_hi[i]` = abs and `neg_lo[i]` = neg.
    #[inline]
    fn f32_mods(&self, x: u32, i: usize) -> u32 {
        let x = if self.neg_hi >> i & 1 == 1 {
            x & 0x7fff_ffff
        } else {
            x
        };
        x ^ (self.neg_lo >> i & 1) << 31
    }
}

/// One 16-bit integer half.
#[inline]
fn int16(o: PkInt, a: u32, b: u32, c: u32, clamp: bool) -> u32 {
    use PkInt::*;
    let (sa, sb, sc) = (
        a as u16 as i16 as i64,
        b as u16 as i16 as i64,
        c as u16 as i16 as i64,
    );
    let (ua, ub, uc) = (a as u64 & 0xffff, b as u64 & 0xffff, c as u64 & 0xffff);
    let si = |v: i64| {
        if clamp {
            v.clamp(i16::MIN as i64, i16::MAX as i64) as u32 & 0xffff
        } else {
            v as u32 & 0xffff
        }
    };
    let ui = |v: i64| {
        if clamp {
            v.clamp(0, 0xffff) as u32
        } else {
            v as u32 & 0xffff
        }
    };
    match o {
        MadI16 => si(sa * sb + sc),
        MulLo => (ua * ub) as u32 & 0xffff,
        AddI16 => si(sa + sb),
        SubI16 => si(sa - sb),
        Lshlrev => (ub << (ua & 15)) as u32 & 0xffff,
        Lshrrev => (ub >> (ua & 15)) as u32,
        Ashrrev => (sb >> (ua & 15)) as u32 & 0xffff,
        MaxI16 => sa.max(sb) as u32 & 0xffff,
        MinI16 => sa.min(sb) as u32 & 0xffff,
        MadU16 => ui((ua * ub + uc) as i64),
        AddU16 => ui((ua + ub) as i64),
        SubU16 => ui(ua as i64 - ub as i64),
        MaxU16 => ua.max(ub) as u32,
        MinU16 => ua.min(ub) as u32,
    }
}

/// One f16 half.
#[inline]
fn f16(o: PkF16, a: u32, b: u32, c: u32, m: &Mods, cx: &Ctx, dx10: bool) -> u32 {
    let (a, b, c) = (a as u16, b as u16, c as u16);
    let ctl = cx.ctl16;
    let r = match o {
        PkF16::Fma => h::fma16(a, b, c, ctl),
        PkF16::Add => h::add16(a, b, ctl),
        PkF16::Mul => h::mul16(a, b, ctl),
        PkF16::Min => h::minmax16(a, b, false, cx.ieee, ctl.flush_input),
        PkF16::Max => h::minmax16(a, b, true, cx.ieee, ctl.flush_input),
    };
    if m.clamp {
        out_mods16(r, 0, true, dx10, ctl) as u32
    } else {
        r as u32
    }
}

/// `tmp = c; tmp += lo×lo; tmp += hi×hi` in f32, the inputs widened exactly by `widen`
/// (each product rounded to f32, each `+=` rounded: as written).
#[inline]
fn dot2_f32(a: (u32, u32), b: (u32, u32), c: u32, cx: &Ctx, widen: impl Fn(u32) -> u32) -> u32 {
    let prod = |x: u32, y: u32| fa::bin32(widen(x), widen(y), cx.ctl32, |p, q| p * q);
    let t = fa::bin32(c, prod(a.0, b.0), cx.ctl32, |p, q| p + q);
    fa::bin32(t, prod(a.1, b.1), cx.ctl32, |p, q| p + q)
}

/// `v_dot4`/`v_dot8`: `n` fields of `32 / n` bits, A/B signed per `(sa, sb)`, summed onto
/// `c` (an i32 when `signed`, else a u32).
#[inline]
fn dot_int(
    a: u32,
    b: u32,
    c: u32,
    n: u32,
    (sa, sb): (bool, bool),
    signed: bool,
    clamp: bool,
) -> u32 {
    let bits = 32 / n;
    let field = |x: u32, k: u32, s: bool| -> i64 {
        let v = (x >> (k * bits)) & ((1 << bits) - 1);
        if s {
            ((v << (32 - bits)) as i32 >> (32 - bits)) as i64
        } else {
            v as i64
        }
    };
    let acc = if signed { c as i32 as i64 } else { c as i64 };
    let t = (0..n).fold(acc, |t, k| t + field(a, k, sa) * field(b, k, sb));
    match (clamp, signed) {
        (true, true) => t.clamp(i32::MIN as i64, i32::MAX as i64) as u32,
        (true, false) => t.clamp(0, u32::MAX as i64) as u32,
        _ => t as u32,
    }
}

/// One lane: the 32-bit result (`Mix(Some(_))`: the f16 in the low 16 bits).
#[inline]
fn eval(c: &PClass, s: [u32; 3], m: &Mods, cx: &Ctx, dx10: bool, mix_f32: [u32; 3]) -> u32 {
    match c.op {
        POp::Int(o) => {
            let (a, b, cc) = (
                m.halves(s[0], 0, false),
                m.halves(s[1], 1, false),
                m.halves(s[2], 2, false),
            );
            int16(o, a.0, b.0, cc.0, m.clamp) | int16(o, a.1, b.1, cc.1, m.clamp) << 16
        }
        POp::F16(o) => {
            let (a, b, cc) = (
                m.halves(s[0], 0, true),
                m.halves(s[1], 1, true),
                m.halves(s[2], 2, true),
            );
            f16(o, a.0, b.0, cc.0, m, cx, dx10) | f16(o, a.1, b.1, cc.1, m, cx, dx10) << 16
        }
        POp::Dot2F16 | POp::Dot2Bf16 => {
            let (a, b) = (m.halves(s[0], 0, true), m.halves(s[1], 1, true));
            let acc = m.f32_mods(s[2], 2);
            let r = if c.op == POp::Dot2F16 {
                dot2_f32(a, b, acc, cx, |x| f16_to_f32_mode(x as u16, cx.ctl16))
            } else {
                let fi = cx.ctl32.flush_input;
                dot2_f32(a, b, acc, cx, |x| {
                    crate::fp::bf16::to_f32_bits(crate::fp::bf16::flush(x as u16, fi))
                })
            };
            fa::out_mods32(r, 0, m.clamp, dx10, cx.ctl32)
        }
        POp::Dot4 { signed } | POp::Dot8 { signed } => {
            let n = if matches!(c.op, POp::Dot4 { .. }) {
                4
            } else {
                8
            };
            let ab = (signed && m.neg_lo & 1 == 1, signed && m.neg_lo & 2 == 2);
            dot_int(s[0], s[1], s[2], n, ab, signed, m.clamp)
        }
        POp::Mix(half) => {
            let input = |i: usize| {
                let x = if m.op_sel_hi >> i & 1 == 0 {
                    mix_f32[i]
                } else {
                    let h16 = if m.op_sel >> i & 1 == 1 {
                        s[i] >> 16
                    } else {
                        s[i]
                    };
                    f16_to_f32_mode(h16 as u16, cx.ctl16)
                };
                m.f32_mods(x, i)
            };
            let r = fa::fma32(input(0), input(1), input(2), cx.ctl32);
            match half {
                None => fa::out_mods32(r, 0, m.clamp, dx10, cx.ctl32),
                Some(_) => {
                    let r16 = cvt_f32_f16(r, cx.ctl32, cx.ctl16);
                    out_mods16(r16, 0, m.clamp, dx10, cx.ctl16) as u32
                }
            }
        }
        // Executed over the whole wave before lanes are visited.
        POp::Wmma(_) | POp::PkF32(_) | POp::Mfma(_) => 0,
    }
}

/// Where a source's per-lane 32 bits come from.
#[derive(Clone, Copy)]
enum Src {
    Vgpr(u32),
    /// A uniform value (as the operand's type reads it) and, for `v_fma_mix`, its f32 form.
    Uniform(u32, u32),
}

fn locate(inst: &Instruction, w: &Wave, c: &PClass, i: usize) -> Src {
    let f = [Field::Src0, Field::Src1, Field::Src2][i];
    let v = inst.get(f);
    if let Some(r) = v.checked_sub(256) {
        return Src::Vgpr(r);
    }
    let raw = w.ssrc32(v, inst.literal);
    if !(240..=248).contains(&v) {
        return Src::Uniform(raw, raw);
    }
    let x = match c.ty[i] {
        SrcTy::F16 | SrcTy::PackedF16 => f32_to_f16(raw, Round::NearestEven) as u32,
        SrcTy::PackedBf16 | SrcTy::Bf16 => raw >> 16,
        _ => raw,
    };
    Src::Uniform(x, raw)
}

/// Executes a VOP3P instruction (and its DPP form) for the lanes in EXEC.
pub fn execute_vop3p(inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    let c = pclass(inst.opcode).ok_or(ValuError::Unimplemented)?;
    if c.rounds && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    if let POp::Wmma(o) = c.op {
        return wmma::execute(o, inst, w);
    }
    if let POp::Mfma(o) = c.op {
        return super::mfma::execute(o, inst, w);
    }
    if let POp::PkF32(o) = c.op {
        return execute_pk_f32(o, c.nsrc, inst, w);
    }
    let remap = match inst.dpp() {
        Some(d) => Some((
            d.src0,
            dpp::remap(&d, w.size, w.exec(), w.gfx9_dpp).ok_or(ValuError::Unimplemented)?,
        )),
        None => None,
    };
    let m = Mods::of(inst);
    let cx = Ctx::new(w.mode, 0, m.clamp);
    let dx10 = w.mode >> 8 & 1 == 1;
    let n = w.size as usize;
    let exec = remap.as_ref().map_or(w.exec(), |(_, r)| r.exec);
    let mut src = [[0u32; 64]; 3];
    // The f32 form of a uniform source (v_fma_mix with op_sel_hi[i] = 0); None: a VGPR.
    let mut uni_f32 = [None; 3];
    for (i, row) in src.iter_mut().enumerate().take(c.nsrc) {
        let loc = match &remap {
            Some((reg, _)) if i == 0 => Src::Vgpr(*reg),
            _ => locate(inst, w, c, i),
        };
        match loc {
            Src::Vgpr(r) => {
                if let Some(v) = w.vgpr_row(r) {
                    row.iter_mut().zip(v).for_each(|(d, &x)| *d = x);
                }
            }
            Src::Uniform(x, f) => {
                row[..n].fill(x);
                uni_f32[i] = Some(f);
            }
        }
        if let (Some((_, rm)), 0) = (&remap, i) {
            let mut own = [0u64; 64];
            own.iter_mut()
                .zip(row.iter())
                .for_each(|(d, &x)| *d = x as u64);
            let mut out = [0u64; 64];
            dpp::apply(rm, &own[..n], &mut out[..n]);
            row.iter_mut().zip(out).for_each(|(d, x)| *d = x as u32);
        }
    }
    let vdst = inst.get(Field::Vdst);
    let Some(row) = w.vgpr_row_mut(vdst) else {
        return Ok(());
    };
    let mut lanes = exec & (u64::MAX >> (64 - n));
    while lanes != 0 {
        let l = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        let s = [src[0][l], src[1][l], src[2][l]];
        let f32s = [0, 1, 2].map(|i| uni_f32[i].unwrap_or(s[i]));
        let r = eval(c, s, &m, &cx, dx10, f32s);
        row[l] = match c.op {
            POp::Mix(Some(false)) => (row[l] & 0xffff_0000) | (r & 0xffff),
            POp::Mix(Some(true)) => (row[l] & 0xffff) | r << 16,
            _ => r,
        };
    }
    Ok(())
}

/// gfx90a's packed f32 operations (`v_pk_fma_f32`, `v_pk_add_f32`, `v_pk_mul_f32`,
/// `v_pk_mov_b32`) on 64-bit sources, two dwords each: the low result reads dword
/// `op_sel[i]` of source i, the high result dword `op_sel_hi[i]`; `neg_lo[i]`/`neg_hi[i]`
/// negate the f32 read for the low/high result; `clamp` clamps each result to \[0, 1\].
/// `v_pk_mov_b32` takes its low dword from source 0 (`op_sel[0]` picks which) and its high
/// dword from source 1 (`op_sel[1]`), as AMD's CDNA3 ISA guide describes it. A constant
/// source (an inline constant or the literal) is its 32 bits in both dwords (our choice,
/// what `op_sel_hi` = 1, the default, must read for a constant to mean one value).
fn execute_pk_f32(
    o: PkF32,
    nsrc: usize,
    inst: &Instruction,
    w: &mut Wave,
) -> Result<(), ValuError> {
    if inst.dpp_kind().is_some() {
        return Err(ValuError::Unimplemented);
    }
    let m = Mods::of(inst);
    let cx = Ctx::new(w.mode, 0, m.clamp);
    let dx10 = w.mode >> 8 & 1 == 1;
    let n = w.size as usize;
    // Each source's two dwords per lane.
    let mut src = [[(0u32, 0u32); 64]; 3];
    for (i, row) in src.iter_mut().enumerate().take(nsrc) {
        let v = inst.get([Field::Src0, Field::Src1, Field::Src2][i]);
        match v.checked_sub(256) {
            Some(r) => {
                for (l, d) in row.iter_mut().enumerate().take(n) {
                    *d = (w.vgpr(r, l as u32), w.vgpr(r + 1, l as u32));
                }
            }
            None if v < 128 => {
                let x = w.sreg64(v);
                row[..n].fill((x as u32, (x >> 32) as u32));
            }
            None => {
                let x = w.ssrc32(v, inst.literal);
                row[..n].fill((x, x));
            }
        }
    }
    let vdst = inst.get(Field::Vdst);
    let pick = |x: (u32, u32), hi: bool| if hi { x.1 } else { x.0 };
    let mut lanes = w.exec() & (u64::MAX >> (64 - n));
    while lanes != 0 {
        let l = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        let half = |k: u32| -> u32 {
            let sel = if k == 0 { m.op_sel } else { m.op_sel_hi };
            let neg = if k == 0 { m.neg_lo } else { m.neg_hi };
            let x = |i: usize| pick(src[i][l], sel >> i & 1 == 1) ^ (neg >> i & 1) << 31;
            let r = match o {
                PkF32::Fma => fa::fma32(x(0), x(1), x(2), cx.ctl32),
                PkF32::Add => fa::bin32(x(0), x(1), cx.ctl32, |p, q| p + q),
                PkF32::Mul => fa::bin32(x(0), x(1), cx.ctl32, |p, q| p * q),
                PkF32::Mov => return pick(src[k as usize][l], m.op_sel >> k & 1 == 1),
            };
            fa::out_mods32(r, 0, m.clamp, dx10, cx.ctl32)
        };
        let (lo, hi) = (half(0), half(1));
        w.set_vgpr(vdst, l as u32, lo);
        w.set_vgpr(vdst + 1, l as u32, hi);
    }
    Ok(())
}
