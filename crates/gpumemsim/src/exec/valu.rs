//! The vector ALU in every encoding the table holds — VOP1, VOP2, VOPC (e32), their VOP3
//! forms (`_e64`), the VOP3-only and VOP3SD instructions and the VOPD dual issue — executed
//! per AMD's pseudocode (`../shared/reference/rdna3-isa-pseudocode.txt`).
//!
//! An instruction is classified once per table entry into an [`Op`] (its operation, whatever
//! its encoding) and read through one operand path: e32 reads `src0` and the VGPR `vsrc1`;
//! VOP3 reads `src0..src2` with `abs`/`neg` on the sources the table says take them, and
//! applies the output modifier and `clamp`; scalar and constant sources are read once per
//! instruction, VGPRs per lane.
//!
//! Implemented families: moves and bit operations (`v_not`, `v_bfrev`, `v_clz`/`v_ctz`/
//! `v_cls`, `v_bfe`/`v_bfi`/`v_bfm`, `v_alignbit`/`v_alignbyte`, `v_perm_b32`, `v_bcnt`,
//! `v_mbcnt_lo/hi`), 32-bit integer add/sub (with carries, clamp saturation on the nc
//! forms), shifts (32 and 64 bit), logic, min/max/min3/max3/med3/minmax, 24-bit and 32-bit
//! multiplies and multiply-adds, `v_mad_u64_u32`/`v_mad_i64_i32`, `v_sad_u32`,
//! `v_cndmask_b32`, every `v_cmp_*`/`v_cmpx_*` (f16, f32, f64, i16, u16, i32, u32, i64,
//! u64, class), f32 and f64 add/sub/mul/fma/min/max, rounding (`trunc`, `ceil`, `floor`,
//! `rndne`, `fract`), `frexp`, `rcp`/`rsq`/`sqrt` (correctly rounded: see [`crate::fp::arith`]),
//! the conversions between f16, f32, f64, i32, u32 and bytes, and the lane operations
//! `v_readfirstlane_b32`, `v_readlane_b32`, `v_writelane_b32`. Anything else — f16
//! arithmetic, transcendental `exp`/`log`/`sin`/`cos`, packed math, permlanes — stops the run
//! as unimplemented, naming the instruction.
//!
//! Float arithmetic runs in round-to-nearest-even only: a MODE.FP_ROUND other than
//! nearest-even stops a float instruction as unimplemented rather than give wrong bits.
//! Compares write VCC (e32), their SGPR destination (e64) or EXEC (`v_cmpx`); bits of
//! inactive lanes are 0.

use std::sync::OnceLock;

use rdna3_isa::{Field, Format, Instruction, Kind, Opcode, SrcTy};

use crate::fp::arith::{self as fa, flush32, flush64};
use crate::fp::valu::{f16_to_f32, f32_to_f16, Round};
use crate::fp::{is_nan_f32, valu_minmax_f32, valu_minmax_f64, DenormCtl};
use crate::wave::Wave;

/// Why a VALU instruction did not execute.
pub enum ValuError {
    /// Not implemented.
    Unimplemented,
}

/// A comparison's predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pred {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    T,
    Ne,
    Class,
}

/// A comparison's operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CmpTy {
    F16,
    F32,
    F64,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

/// What a VALU instruction computes, whatever its encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Mov,
    Not,
    Bfrev,
    Clz,
    Ctz,
    Cls,
    AddNc,
    SubNc,
    SubrevNc,
    AddNcI32,
    SubNcI32,
    Lshl,
    Lshr,
    Ashr,
    And,
    Or,
    Xor,
    Xnor,
    MinI,
    MaxI,
    MinU,
    MaxU,
    MulU24,
    MulHiU24,
    MulI24,
    MulHiI24,
    Cndmask,
    AddCi,
    SubCi,
    SubrevCi,
    AddCo,
    SubCo,
    SubrevCo,
    MadU64,
    MadI64,
    CvtF32Ubyte(u8),
    CvtI32I16,
    CvtU32U16,
    MulLo,
    MulHiU,
    MulHiI,
    MadU24,
    MadI24,
    Add3,
    LshlAdd,
    AddLshl,
    LshlOr,
    AndOr,
    Or3,
    Xor3,
    Xad,
    BfeU,
    BfeI,
    Bfi,
    Bfm,
    Alignbit,
    Alignbyte,
    Perm,
    SadU32,
    Min3U,
    Max3U,
    Med3U,
    Min3I,
    Max3I,
    Med3I,
    MaxminU,
    MinmaxU,
    MaxminI,
    MinmaxI,
    Bcnt,
    MbcntLo,
    MbcntHi,
    CvtPkU16U32,
    CvtPkI16I32,
    Lshl64,
    Lshr64,
    Ashr64,
    AddF32,
    SubF32,
    SubrevF32,
    MulF32,
    MulDx9F32,
    FmacF32,
    FmamkF32,
    FmaakF32,
    FmaF32,
    MinF32,
    MaxF32,
    Min3F32,
    Max3F32,
    Med3F32,
    MinmaxF32,
    MaxminF32,
    CvtF32I32,
    CvtF32U32,
    CvtI32F32,
    CvtU32F32,
    CvtNearestI32F32,
    CvtFloorI32F32,
    TruncF32,
    CeilF32,
    RndneF32,
    FloorF32,
    FractF32,
    RcpF32,
    RsqF32,
    SqrtF32,
    FrexpMantF32,
    FrexpExpF32,
    CvtF16F32,
    CvtF32F16,
    CvtPkRtzF16F32,
    AddF64,
    MulF64,
    FmaF64,
    MinF64,
    MaxF64,
    CvtF64F32,
    CvtF32F64,
    CvtI32F64,
    CvtU32F64,
    CvtF64I32,
    CvtF64U32,
    TruncF64,
    CeilF64,
    RndneF64,
    FloorF64,
    FractF64,
    RcpF64,
    RsqF64,
    SqrtF64,
    FrexpMantF64,
    FrexpExpF64,
    Cmp(Pred, CmpTy),
    Readfirstlane,
    Readlane,
    Writelane,
}

fn pred(s: &str) -> Option<Pred> {
    Some(match s {
        "f" => Pred::F,
        "lt" => Pred::Lt,
        "eq" => Pred::Eq,
        "le" => Pred::Le,
        "gt" => Pred::Gt,
        "lg" => Pred::Lg,
        "ge" => Pred::Ge,
        "o" => Pred::O,
        "u" => Pred::U,
        "nge" => Pred::Nge,
        "nlg" => Pred::Nlg,
        "ngt" => Pred::Ngt,
        "nle" => Pred::Nle,
        "neq" => Pred::Neq,
        "nlt" => Pred::Nlt,
        "t" => Pred::T,
        "ne" => Pred::Ne,
        "class" => Pred::Class,
        _ => return None,
    })
}

fn cmp_ty(s: &str) -> Option<CmpTy> {
    Some(match s {
        "f16" => CmpTy::F16,
        "f32" => CmpTy::F32,
        "f64" => CmpTy::F64,
        "i16" => CmpTy::I16,
        "u16" => CmpTy::U16,
        "i32" => CmpTy::I32,
        "u32" => CmpTy::U32,
        "i64" => CmpTy::I64,
        "u64" => CmpTy::U64,
        _ => return None,
    })
}

/// The operation a mnemonic (without `_e32`/`_e64`) names, if the executor implements it.
fn op_of(name: &str) -> Option<Op> {
    use Op::*;
    if let Some(rest) = name
        .strip_prefix("v_cmpx_")
        .or_else(|| name.strip_prefix("v_cmp_"))
    {
        let (p, t) = rest.rsplit_once('_')?;
        let (p, t) = (pred(p)?, cmp_ty(t)?);
        if p == Pred::Class && !matches!(t, CmpTy::F16 | CmpTy::F32 | CmpTy::F64) {
            return None;
        }
        return Some(Cmp(p, t));
    }
    Some(match name {
        "v_mov_b32" => Mov,
        "v_not_b32" => Not,
        "v_bfrev_b32" => Bfrev,
        "v_clz_i32_u32" => Clz,
        "v_ctz_i32_b32" => Ctz,
        "v_cls_i32" => Cls,
        "v_add_nc_u32" => AddNc,
        "v_sub_nc_u32" => SubNc,
        "v_subrev_nc_u32" => SubrevNc,
        "v_add_nc_i32" => AddNcI32,
        "v_sub_nc_i32" => SubNcI32,
        "v_lshlrev_b32" => Lshl,
        "v_lshrrev_b32" => Lshr,
        "v_ashrrev_i32" => Ashr,
        "v_and_b32" => And,
        "v_or_b32" => Or,
        "v_xor_b32" => Xor,
        "v_xnor_b32" => Xnor,
        "v_min_i32" => MinI,
        "v_max_i32" => MaxI,
        "v_min_u32" => MinU,
        "v_max_u32" => MaxU,
        "v_mul_u32_u24" => MulU24,
        "v_mul_hi_u32_u24" => MulHiU24,
        "v_mul_i32_i24" => MulI24,
        "v_mul_hi_i32_i24" => MulHiI24,
        "v_cndmask_b32" => Cndmask,
        "v_add_co_ci_u32" => AddCi,
        "v_sub_co_ci_u32" => SubCi,
        "v_subrev_co_ci_u32" => SubrevCi,
        "v_add_co_u32" => AddCo,
        "v_sub_co_u32" => SubCo,
        "v_subrev_co_u32" => SubrevCo,
        "v_mad_u64_u32" => MadU64,
        "v_mad_i64_i32" => MadI64,
        "v_cvt_f32_ubyte0" => CvtF32Ubyte(0),
        "v_cvt_f32_ubyte1" => CvtF32Ubyte(1),
        "v_cvt_f32_ubyte2" => CvtF32Ubyte(2),
        "v_cvt_f32_ubyte3" => CvtF32Ubyte(3),
        "v_cvt_i32_i16" => CvtI32I16,
        "v_cvt_u32_u16" => CvtU32U16,
        "v_mul_lo_u32" => MulLo,
        "v_mul_hi_u32" => MulHiU,
        "v_mul_hi_i32" => MulHiI,
        "v_mad_u32_u24" => MadU24,
        "v_mad_i32_i24" => MadI24,
        "v_add3_u32" => Add3,
        "v_lshl_add_u32" => LshlAdd,
        "v_add_lshl_u32" => AddLshl,
        "v_lshl_or_b32" => LshlOr,
        "v_and_or_b32" => AndOr,
        "v_or3_b32" => Or3,
        "v_xor3_b32" => Xor3,
        "v_xad_u32" => Xad,
        "v_bfe_u32" => BfeU,
        "v_bfe_i32" => BfeI,
        "v_bfi_b32" => Bfi,
        "v_bfm_b32" => Bfm,
        "v_alignbit_b32" => Alignbit,
        "v_alignbyte_b32" => Alignbyte,
        "v_perm_b32" => Perm,
        "v_sad_u32" => SadU32,
        "v_min3_u32" => Min3U,
        "v_max3_u32" => Max3U,
        "v_med3_u32" => Med3U,
        "v_min3_i32" => Min3I,
        "v_max3_i32" => Max3I,
        "v_med3_i32" => Med3I,
        "v_maxmin_u32" => MaxminU,
        "v_minmax_u32" => MinmaxU,
        "v_maxmin_i32" => MaxminI,
        "v_minmax_i32" => MinmaxI,
        "v_bcnt_u32_b32" => Bcnt,
        "v_mbcnt_lo_u32_b32" => MbcntLo,
        "v_mbcnt_hi_u32_b32" => MbcntHi,
        "v_cvt_pk_u16_u32" => CvtPkU16U32,
        "v_cvt_pk_i16_i32" => CvtPkI16I32,
        "v_lshlrev_b64" => Lshl64,
        "v_lshrrev_b64" => Lshr64,
        "v_ashrrev_i64" => Ashr64,
        "v_add_f32" => AddF32,
        "v_sub_f32" => SubF32,
        "v_subrev_f32" => SubrevF32,
        "v_mul_f32" => MulF32,
        "v_mul_dx9_zero_f32" => MulDx9F32,
        "v_fmac_f32" => FmacF32,
        "v_fmamk_f32" => FmamkF32,
        "v_fmaak_f32" => FmaakF32,
        "v_fma_f32" => FmaF32,
        "v_min_f32" => MinF32,
        "v_max_f32" => MaxF32,
        "v_min3_f32" => Min3F32,
        "v_max3_f32" => Max3F32,
        "v_med3_f32" => Med3F32,
        "v_minmax_f32" => MinmaxF32,
        "v_maxmin_f32" => MaxminF32,
        "v_cvt_f32_i32" => CvtF32I32,
        "v_cvt_f32_u32" => CvtF32U32,
        "v_cvt_i32_f32" => CvtI32F32,
        "v_cvt_u32_f32" => CvtU32F32,
        "v_cvt_nearest_i32_f32" => CvtNearestI32F32,
        "v_cvt_floor_i32_f32" => CvtFloorI32F32,
        "v_trunc_f32" => TruncF32,
        "v_ceil_f32" => CeilF32,
        "v_rndne_f32" => RndneF32,
        "v_floor_f32" => FloorF32,
        "v_fract_f32" => FractF32,
        "v_rcp_f32" | "v_rcp_iflag_f32" => RcpF32,
        "v_rsq_f32" => RsqF32,
        "v_sqrt_f32" => SqrtF32,
        "v_frexp_mant_f32" => FrexpMantF32,
        "v_frexp_exp_i32_f32" => FrexpExpF32,
        "v_cvt_f16_f32" => CvtF16F32,
        "v_cvt_f32_f16" => CvtF32F16,
        "v_cvt_pk_rtz_f16_f32" => CvtPkRtzF16F32,
        "v_add_f64" => AddF64,
        "v_mul_f64" => MulF64,
        "v_fma_f64" => FmaF64,
        "v_min_f64" => MinF64,
        "v_max_f64" => MaxF64,
        "v_cvt_f64_f32" => CvtF64F32,
        "v_cvt_f32_f64" => CvtF32F64,
        "v_cvt_i32_f64" => CvtI32F64,
        "v_cvt_u32_f64" => CvtU32F64,
        "v_cvt_f64_i32" => CvtF64I32,
        "v_cvt_f64_u32" => CvtF64U32,
        "v_trunc_f64" => TruncF64,
        "v_ceil_f64" => CeilF64,
        "v_rndne_f64" => RndneF64,
        "v_floor_f64" => FloorF64,
        "v_fract_f64" => FractF64,
        "v_rcp_f64" => RcpF64,
        "v_rsq_f64" => RsqF64,
        "v_sqrt_f64" => SqrtF64,
        "v_frexp_mant_f64" => FrexpMantF64,
        "v_frexp_exp_i32_f64" => FrexpExpF64,
        "v_readfirstlane_b32" => Readfirstlane,
        "v_readlane_b32" => Readlane,
        "v_writelane_b32" => Writelane,
        _ => return None,
    })
}

impl Op {
    /// The width of a float result the VOP3 output modifier and `clamp` apply to (32 or 64),
    /// `None` for integer results, compares and moves.
    fn float_result(self) -> Option<u8> {
        use Op::*;
        if matches!(
            self,
            AddF32
                | SubF32
                | SubrevF32
                | MulF32
                | MulDx9F32
                | FmacF32
                | FmaF32
                | MinF32
                | MaxF32
                | Min3F32
                | Max3F32
                | Med3F32
                | MinmaxF32
                | MaxminF32
                | CvtF32I32
                | CvtF32U32
                | TruncF32
                | CeilF32
                | RndneF32
                | FloorF32
                | FractF32
                | RcpF32
                | RsqF32
                | SqrtF32
                | FrexpMantF32
                | CvtF32F16
                | CvtF32F64
                | CvtF32Ubyte(_)
        ) {
            return Some(32);
        }
        if matches!(
            self,
            AddF64
                | MulF64
                | FmaF64
                | MinF64
                | MaxF64
                | CvtF64F32
                | CvtF64I32
                | CvtF64U32
                | TruncF64
                | CeilF64
                | RndneF64
                | FloorF64
                | FractF64
                | RcpF64
                | RsqF64
                | SqrtF64
                | FrexpMantF64
        ) {
            return Some(64);
        }
        None
    }
    /// Whether the operation is float arithmetic that MODE's rounding applies to.
    fn rounds(self) -> bool {
        use Op::*;
        matches!(
            self,
            AddF32
                | SubF32
                | SubrevF32
                | MulF32
                | MulDx9F32
                | FmacF32
                | FmamkF32
                | FmaakF32
                | FmaF32
                | CvtF32I32
                | CvtF32U32
                | RcpF32
                | RsqF32
                | SqrtF32
                | CvtF16F32
                | AddF64
                | MulF64
                | FmaF64
                | CvtF32F64
                | RcpF64
                | RsqF64
                | SqrtF64
        )
    }
}

/// Where a source's value comes from.
#[derive(Clone, Copy, Debug)]
enum Loc {
    /// Absent.
    None,
    /// The instruction's VGPR (and the next one for 64-bit sources).
    Vgpr(u32),
    /// A value uniform over the wave: SGPR, constant or literal.
    Uniform(u64),
}

/// How one table entry executes, worked out once.
#[derive(Clone, Copy, Debug)]
struct Class {
    op: Op,
    /// Source fields in operand order (e32: src0, vsrc1; VOP3: src0-src2).
    fields: [Option<Field>; 3],
    /// Dwords of each source.
    dwords: [u8; 3],
    /// Sign bit of each source for `abs`/`neg` (VOP3 float sources), 0: none.
    sign: [u64; 3],
    /// 16-bit float sources whose inline float constants are f16 values.
    f16_src: [bool; 3],
    /// Result VGPRs: 1 or 2 (0 for compares and lane ops).
    dst_dwords: u8,
    /// VOP3 encoding.
    vop3: bool,
}

fn classify(d: &rdna3_isa::InstrDef) -> Option<Class> {
    if !matches!(
        d.format,
        Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3
    ) {
        return None;
    }
    let base = d
        .name
        .strip_suffix("_e32")
        .or_else(|| d.name.strip_suffix("_e64"))
        .unwrap_or(d.name);
    let op = op_of(base)?;
    let vop3 = d.format == Format::Vop3;
    let src_fields: &[Field] = if vop3 {
        &[Field::Src0, Field::Src1, Field::Src2]
    } else {
        &[Field::Src0, Field::Vsrc1]
    };
    let mut c = Class {
        op,
        fields: [None; 3],
        dwords: [1; 3],
        sign: [0; 3],
        f16_src: [false; 3],
        dst_dwords: 0,
        vop3,
    };
    for (i, &f) in src_fields.iter().enumerate() {
        let Some(o) = d.operand(f) else { continue };
        let (n, ty) = match o.kind {
            Kind::VSrc(n, ty) => (n, ty),
            Kind::V(n) => (n, SrcTy::B32),
            Kind::Ssrc(n) => (n, SrcTy::B32),
            Kind::LaneMask => (1, SrcTy::B32),
            _ => return None,
        };
        let n = if matches!(ty, SrcTy::F64 | SrcTy::B64) {
            2
        } else {
            n
        };
        c.fields[i] = Some(f);
        c.dwords[i] = n;
        c.f16_src[i] = ty == SrcTy::F16;
        if vop3 && d.flags.neg_abs(i) {
            c.sign[i] = match (n, ty) {
                (2, _) => 1 << 63,
                (_, SrcTy::F16) => 1 << 15,
                _ => 1 << 31,
            };
        }
    }
    if let Some(o) = d.operand(Field::Vdst) {
        if let Kind::V(n) = o.kind {
            c.dst_dwords = n;
        }
    }
    Some(c)
}

fn class(op: Opcode) -> Option<&'static Class> {
    static CACHE: OnceLock<Vec<Option<Class>>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            rdna3_isa::table::INSTRUCTIONS
                .iter()
                .map(classify)
                .collect()
        })
        .get(op.0 as usize)?
        .as_ref()
}

/// Where source `i` of `inst` comes from; uniform values are read here, once.
fn locate(inst: &Instruction, w: &Wave, c: &Class, i: usize) -> Loc {
    let Some(f) = c.fields[i] else {
        return Loc::None;
    };
    let v = inst.get(f);
    if f == Field::Vsrc1 {
        return Loc::Vgpr(v);
    }
    if v >= 256 {
        return Loc::Vgpr(v - 256);
    }
    if c.dwords[i] == 2 {
        return Loc::Uniform(w.ssrc64(v, inst.literal));
    }
    if c.f16_src[i] && (240..=248).contains(&v) {
        // An inline float constant in an f16 source is the f16 value.
        let f32_bits = w.ssrc32(v, None);
        return Loc::Uniform(f32_to_f16(f32_bits, Round::NearestEven) as u64);
    }
    Loc::Uniform(w.ssrc32(v, inst.literal) as u64)
}

/// Every lane's value of source `loc` (`out.len()` = the wave's size).
fn gather(w: &Wave, loc: Loc, dwords: u8, out: &mut [u64]) {
    match loc {
        Loc::None => out.fill(0),
        Loc::Uniform(v) => out.fill(v),
        Loc::Vgpr(r) => {
            match w.vgpr_row(r) {
                Some(row) => out.iter_mut().zip(row).for_each(|(o, &x)| *o = x as u64),
                None => out.fill(0),
            }
            if dwords == 2 {
                if let Some(row) = w.vgpr_row(r + 1) {
                    out.iter_mut()
                        .zip(row)
                        .for_each(|(o, &x)| *o |= (x as u64) << 32);
                }
            }
        }
    }
}

/// Writes bits `shift..shift + 32` of `values` to VGPR `reg` in the lanes of `mask`.
fn scatter(w: &mut Wave, reg: u32, mask: u64, values: &[u64], shift: u32) {
    let Some(row) = w.vgpr_row_mut(reg) else {
        return;
    };
    if mask == u64::MAX >> (64 - row.len()) {
        row.iter_mut()
            .zip(values)
            .for_each(|(x, &v)| *x = (v >> shift) as u32);
    } else {
        for (l, (x, &v)) in row.iter_mut().zip(values).enumerate() {
            if mask >> l & 1 == 1 {
                *x = (v >> shift) as u32;
            }
        }
    }
}

#[inline]
fn read(w: &Wave, loc: Loc, lane: u32, dwords: u8) -> u64 {
    match loc {
        Loc::None => 0,
        Loc::Uniform(v) => v,
        Loc::Vgpr(r) => {
            let lo = w.vgpr(r, lane) as u64;
            if dwords == 2 {
                lo | (w.vgpr(r + 1, lane) as u64) << 32
            } else {
                lo
            }
        }
    }
}

/// Per-instruction values every lane uses.
struct Ctx {
    ctl32: DenormCtl,
    ctl64: DenormCtl,
    /// MODE.IEEE (bit 9).
    ieee: bool,
    /// The literal (`v_fmamk`/`v_fmaak`'s K).
    k: u32,
}

impl Ctx {
    fn new(w: &Wave, inst: &Instruction) -> Ctx {
        Ctx {
            ctl32: DenormCtl::from_mode_f32(w.mode),
            ctl64: DenormCtl::from_mode_f64(w.mode),
            ieee: w.mode >> 9 & 1 == 1,
            k: inst.literal.unwrap_or(0),
        }
    }
}

fn class_bit(bits: u64, exp_bits: u32, man_bits: u32) -> u32 {
    let sign = bits >> (exp_bits + man_bits) & 1 == 1;
    let exp = bits >> man_bits & ((1 << exp_bits) - 1);
    let man = bits & ((1 << man_bits) - 1);
    let exp_max = (1 << exp_bits) - 1;
    if exp == exp_max {
        if man == 0 {
            return if sign { 2 } else { 9 };
        }
        return if man >> (man_bits - 1) & 1 == 1 { 1 } else { 0 };
    }
    match (exp, man, sign) {
        (0, 0, true) => 5,
        (0, 0, false) => 6,
        (0, _, true) => 4,
        (0, _, false) => 7,
        (_, _, true) => 3,
        _ => 8,
    }
}

fn float_pred(p: Pred, o: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match p {
        Pred::F => false,
        Pred::T => true,
        Pred::Lt => o == Some(Less),
        Pred::Eq => o == Some(Equal),
        Pred::Le => matches!(o, Some(Less | Equal)),
        Pred::Gt => o == Some(Greater),
        Pred::Lg | Pred::Ne => matches!(o, Some(Less | Greater)),
        Pred::Ge => matches!(o, Some(Greater | Equal)),
        Pred::O => o.is_some(),
        Pred::U => o.is_none(),
        Pred::Nge => !matches!(o, Some(Greater | Equal)),
        Pred::Nlg => !matches!(o, Some(Less | Greater)),
        Pred::Ngt => o != Some(Greater),
        Pred::Nle => !matches!(o, Some(Less | Equal)),
        Pred::Neq => o != Some(Equal),
        Pred::Nlt => o != Some(Less),
        Pred::Class => false,
    }
}

fn int_pred<T: Ord>(p: Pred, a: T, b: T) -> bool {
    match p {
        Pred::F => false,
        Pred::T => true,
        Pred::Lt => a < b,
        Pred::Eq => a == b,
        Pred::Le => a <= b,
        Pred::Gt => a > b,
        Pred::Ne | Pred::Lg | Pred::Neq => a != b,
        Pred::Ge => a >= b,
        _ => false,
    }
}

/// One lane of a comparison (class tests: bit `class` of the mask in `b`).
fn compare(p: Pred, t: CmpTy, a: u64, b: u64, ctx: &Ctx) -> bool {
    if p == Pred::Class {
        let c = match t {
            CmpTy::F32 => class_bit(a & 0xffff_ffff, 8, 23),
            CmpTy::F64 => class_bit(a, 11, 52),
            _ => class_bit(a & 0xffff, 5, 10),
        };
        return b >> c & 1 == 1;
    }
    match t {
        CmpTy::F32 => {
            let f = |x: u64| f32::from_bits(flush32(x as u32, ctx.ctl32.flush_input)) as f64;
            float_pred(p, f(a).partial_cmp(&f(b)))
        }
        CmpTy::F64 => {
            let f = |x: u64| f64::from_bits(flush64(x, ctx.ctl64.flush_input));
            float_pred(p, f(a).partial_cmp(&f(b)))
        }
        CmpTy::F16 => {
            let f = |x: u64| f32::from_bits(f16_to_f32(x as u16)) as f64;
            float_pred(p, f(a).partial_cmp(&f(b)))
        }
        CmpTy::I32 => int_pred(p, a as u32 as i32, b as u32 as i32),
        CmpTy::U32 => int_pred(p, a as u32, b as u32),
        CmpTy::I64 => int_pred(p, a as i64, b as i64),
        CmpTy::U64 => int_pred(p, a, b),
        CmpTy::I16 => int_pred(p, a as u16 as i16, b as u16 as i16),
        CmpTy::U16 => int_pred(p, a as u16, b as u16),
    }
}

fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

fn byte_permute(data: u64, sel: u32) -> u32 {
    let byte = |i: u32| (data >> (8 * i)) as u8 as u32;
    match sel {
        13.. => 0xff,
        12 => 0,
        8..=11 => {
            let src = [1, 3, 5, 7][(sel - 8) as usize];
            if byte(src) & 0x80 != 0 {
                0xff
            } else {
                0
            }
        }
        _ => byte(sel),
    }
}

/// `V_MED3_F32` per the pseudocode, from `V_MIN_F32`/`V_MAX_F32` (which return one of their
/// inputs unflushed, so "the max is S0" is a comparison of bits).
fn med3_f32(a: u32, b: u32, c: u32, ieee: bool, ctl: DenormCtl) -> u32 {
    let min = |x, y| valu_minmax_f32(x, y, false, ieee, ctl.flush_input);
    let max = |x, y| valu_minmax_f32(x, y, true, ieee, ctl.flush_input);
    if is_nan_f32(a) || is_nan_f32(b) || is_nan_f32(c) {
        return min(min(a, b), c);
    }
    let m = max(max(a, b), c);
    if m == a {
        max(b, c)
    } else if m == b {
        max(a, c)
    } else {
        max(a, b)
    }
}

/// One lane: the result (and carry-out) of `op` on sources `s`, with `mask_in` the lane's
/// bit of the carry-in / select mask.
#[inline]
fn lane(op: Op, s: [u64; 3], mask_in: bool, lane: u32, ctx: &Ctx) -> (u64, bool) {
    use Op::*;
    let (a, b, c) = (s[0] as u32, s[1] as u32, s[2] as u32);
    let (ai, bi, ci) = (a as i32, b as i32, c as i32);
    let cin = mask_in as u32;
    let c32 = ctx.ctl32;
    let c64 = ctx.ctl64;
    let f64b = |x: f64| x.to_bits();
    let r: u64 = match op {
        Mov => a as u64,
        Not => !a as u64,
        Bfrev => a.reverse_bits() as u64,
        Clz => (if a == 0 { u32::MAX } else { a.leading_zeros() }) as u64,
        Ctz => (if a == 0 { u32::MAX } else { a.trailing_zeros() }) as u64,
        Cls => {
            let x = if ai < 0 { !a } else { a };
            (if x == 0 { u32::MAX } else { x.leading_zeros() }) as u64
        }
        AddNc => a.wrapping_add(b) as u64,
        SubNc => a.wrapping_sub(b) as u64,
        SubrevNc => b.wrapping_sub(a) as u64,
        AddNcI32 => ai.wrapping_add(bi) as u32 as u64,
        SubNcI32 => ai.wrapping_sub(bi) as u32 as u64,
        Lshl => (b << (a & 31)) as u64,
        Lshr => (b >> (a & 31)) as u64,
        Ashr => (bi >> (a & 31)) as u32 as u64,
        And => (a & b) as u64,
        Or => (a | b) as u64,
        Xor => (a ^ b) as u64,
        Xnor => !(a ^ b) as u64,
        MinI => ai.min(bi) as u32 as u64,
        MaxI => ai.max(bi) as u32 as u64,
        MinU => a.min(b) as u64,
        MaxU => a.max(b) as u64,
        MulU24 => (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff) as u64,
        MulHiU24 => ((a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64) >> 32,
        MulI24 => ((ai << 8) >> 8).wrapping_mul((bi << 8) >> 8) as u32 as u64,
        MulHiI24 => ((((ai << 8) >> 8) as i64 * ((bi << 8) >> 8) as i64) >> 32) as u32 as u64,
        Cndmask => (if mask_in { b } else { a }) as u64,
        AddCi => {
            let t = a as u64 + b as u64 + cin as u64;
            return (t as u32 as u64, t >> 32 != 0);
        }
        SubCi => {
            let t = (a as u64).wrapping_sub(b as u64 + cin as u64);
            return (t as u32 as u64, b as u64 + cin as u64 > a as u64);
        }
        SubrevCi => {
            let t = (b as u64).wrapping_sub(a as u64 + cin as u64);
            return (t as u32 as u64, a as u64 + cin as u64 > b as u64);
        }
        AddCo => {
            let t = a as u64 + b as u64;
            return (t as u32 as u64, t >> 32 != 0);
        }
        SubCo => return (a.wrapping_sub(b) as u64, b > a),
        SubrevCo => return (b.wrapping_sub(a) as u64, a > b),
        MadU64 => {
            let t = a as u128 * b as u128 + s[2] as u128;
            return (t as u64, t >> 64 & 1 == 1);
        }
        MadI64 => {
            let t = ai as i128 * bi as i128 + s[2] as i64 as i128;
            return (t as u64, t >> 64 & 1 == 1);
        }
        CvtF32Ubyte(n) => ((a >> (8 * n)) as u8 as f32).to_bits() as u64,
        CvtI32I16 => a as u16 as i16 as i32 as u32 as u64,
        CvtU32U16 => a as u16 as u64,
        MulLo => a.wrapping_mul(b) as u64,
        MulHiU => (a as u64 * b as u64) >> 32,
        MulHiI => ((ai as i64 * bi as i64) >> 32) as u32 as u64,
        MadU24 => (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c) as u64,
        MadI24 => ((ai << 8) >> 8)
            .wrapping_mul((bi << 8) >> 8)
            .wrapping_add(ci) as u32 as u64,
        Add3 => a.wrapping_add(b).wrapping_add(c) as u64,
        LshlAdd => (a << (b & 31)).wrapping_add(c) as u64,
        AddLshl => (a.wrapping_add(b) << (c & 31)) as u64,
        LshlOr => ((a << (b & 31)) | c) as u64,
        AndOr => ((a & b) | c) as u64,
        Or3 => (a | b | c) as u64,
        Xor3 => (a ^ b ^ c) as u64,
        Xad => (a ^ b).wrapping_add(c) as u64,
        BfeU => ((a >> (b & 31)) & ((1u64 << (c & 31)) - 1) as u32) as u64,
        BfeI => {
            let width = c & 31;
            if width == 0 {
                0
            } else {
                let field = (a >> (b & 31)) & ((1u64 << width) - 1) as u32;
                ((field << (32 - width)) as i32 >> (32 - width)) as u32 as u64
            }
        }
        Bfi => ((a & b) | (!a & c)) as u64,
        Bfm => ((((1u64 << (a & 31)) - 1) as u32) << (b & 31)) as u64,
        Alignbit => (((a as u64) << 32 | b as u64) >> (c & 31)) as u32 as u64,
        Alignbyte => (((a as u64) << 32 | b as u64) >> (8 * (c & 3))) as u32 as u64,
        Perm => {
            let data = (a as u64) << 32 | b as u64;
            (0..4).fold(0u32, |acc, i| {
                acc | byte_permute(data, (c >> (8 * i)) & 0xff) << (8 * i)
            }) as u64
        }
        SadU32 => a.abs_diff(b).wrapping_add(c) as u64,
        Min3U => a.min(b).min(c) as u64,
        Max3U => a.max(b).max(c) as u64,
        Med3U => med3(a, b, c) as u64,
        Min3I => ai.min(bi).min(ci) as u32 as u64,
        Max3I => ai.max(bi).max(ci) as u32 as u64,
        Med3I => med3(ai, bi, ci) as u32 as u64,
        MaxminU => a.max(b).min(c) as u64,
        MinmaxU => a.min(b).max(c) as u64,
        MaxminI => ai.max(bi).min(ci) as u32 as u64,
        MinmaxI => ai.min(bi).max(ci) as u32 as u64,
        Bcnt => a.count_ones().wrapping_add(b) as u64,
        MbcntLo => {
            let below = ((1u64 << lane) - 1) as u32;
            (a & below).count_ones().wrapping_add(b) as u64
        }
        MbcntHi => {
            let below = (((1u128 << lane) - 1) >> 32) as u32;
            (a & below).count_ones().wrapping_add(b) as u64
        }
        CvtPkU16U32 => (a.min(0xffff) | b.min(0xffff) << 16) as u64,
        CvtPkI16I32 => {
            let sat = |x: i32| x.clamp(-32768, 32767) as u16 as u32;
            (sat(ai) | sat(bi) << 16) as u64
        }
        Lshl64 => s[1] << (a & 63),
        Lshr64 => s[1] >> (a & 63),
        Ashr64 => ((s[1] as i64) >> (a & 63)) as u64,
        AddF32 => fa::bin32(a, b, c32, |x, y| x + y) as u64,
        SubF32 => fa::bin32(a, b, c32, |x, y| x - y) as u64,
        SubrevF32 => fa::bin32(b, a, c32, |x, y| x - y) as u64,
        MulF32 => fa::bin32(a, b, c32, |x, y| x * y) as u64,
        MulDx9F32 => fa::mul_dx9_zero32(a, b, c32) as u64,
        FmacF32 | FmaF32 => fa::fma32(a, b, c, c32) as u64,
        FmamkF32 => fa::fma32(a, ctx.k, b, c32) as u64,
        FmaakF32 => fa::fma32(a, b, ctx.k, c32) as u64,
        MinF32 => valu_minmax_f32(a, b, false, ctx.ieee, c32.flush_input) as u64,
        MaxF32 => valu_minmax_f32(a, b, true, ctx.ieee, c32.flush_input) as u64,
        Min3F32 => {
            let m = valu_minmax_f32(a, b, false, ctx.ieee, c32.flush_input);
            valu_minmax_f32(m, c, false, ctx.ieee, c32.flush_input) as u64
        }
        Max3F32 => {
            let m = valu_minmax_f32(a, b, true, ctx.ieee, c32.flush_input);
            valu_minmax_f32(m, c, true, ctx.ieee, c32.flush_input) as u64
        }
        Med3F32 => med3_f32(a, b, c, ctx.ieee, c32) as u64,
        MinmaxF32 => {
            let m = valu_minmax_f32(a, b, false, ctx.ieee, c32.flush_input);
            valu_minmax_f32(m, c, true, ctx.ieee, c32.flush_input) as u64
        }
        MaxminF32 => {
            let m = valu_minmax_f32(a, b, true, ctx.ieee, c32.flush_input);
            valu_minmax_f32(m, c, false, ctx.ieee, c32.flush_input) as u64
        }
        CvtF32I32 => (ai as f32).to_bits() as u64,
        CvtF32U32 => (a as f32).to_bits() as u64,
        CvtI32F32 => fa::f32_to_i32(a, c32) as u64,
        CvtU32F32 => fa::f32_to_u32(a, c32) as u64,
        CvtNearestI32F32 => {
            let x = f32::from_bits(flush32(a, c32.flush_input));
            ((x + 0.5).floor() as i32) as u32 as u64
        }
        CvtFloorI32F32 => {
            let x = f32::from_bits(flush32(a, c32.flush_input));
            (x.floor() as i32) as u32 as u64
        }
        TruncF32 => fa::un32(a, c32, f32::trunc) as u64,
        CeilF32 => fa::un32(a, c32, f32::ceil) as u64,
        RndneF32 => fa::un32(a, c32, f32::round_ties_even) as u64,
        FloorF32 => fa::un32(a, c32, f32::floor) as u64,
        FractF32 => fa::fract32(a, c32) as u64,
        RcpF32 => fa::un32(a, c32, |x| (1.0 / x as f64) as f32) as u64,
        RsqF32 => fa::un32(a, c32, |x| (1.0 / (x as f64).sqrt()) as f32) as u64,
        SqrtF32 => fa::un32(a, c32, |x| (x as f64).sqrt() as f32) as u64,
        FrexpMantF32 => fa::frexp_mant32(a, c32) as u64,
        FrexpExpF32 => fa::frexp_exp32(a, c32) as u64,
        CvtF16F32 => f32_to_f16(flush32(a, c32.flush_input), Round::NearestEven) as u64,
        CvtF32F16 => f16_to_f32(a as u16) as u64,
        CvtPkRtzF16F32 => {
            let h = |x: u32| f32_to_f16(flush32(x, c32.flush_input), Round::TowardZero) as u32;
            (h(a) | h(b) << 16) as u64
        }
        AddF64 => fa::bin64(s[0], s[1], c64, |x, y| x + y),
        MulF64 => fa::bin64(s[0], s[1], c64, |x, y| x * y),
        FmaF64 => fa::fma64(s[0], s[1], s[2], c64),
        MinF64 => valu_minmax_f64(s[0], s[1], false, ctx.ieee, c64.flush_input),
        MaxF64 => valu_minmax_f64(s[0], s[1], true, ctx.ieee, c64.flush_input),
        CvtF64F32 => {
            let x = flush32(a, c32.flush_input);
            if x & 0x7fff_ffff > 0x7f80_0000 {
                // NaN: quieted, payload moved up.
                (x as u64 & 0x8000_0000) << 32
                    | 0x7ff8_0000_0000_0000
                    | (x as u64 & 0x3f_ffff) << 29
            } else {
                f64b(f32::from_bits(x) as f64)
            }
        }
        CvtF32F64 => {
            let x = flush64(s[0], c64.flush_input);
            if x & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000 {
                ((x >> 32) as u32 & 0x8000_0000 | 0x7fc0_0000 | (x >> 29) as u32 & 0x3f_ffff) as u64
            } else {
                flush32((f64::from_bits(x) as f32).to_bits(), c32.flush_output) as u64
            }
        }
        CvtI32F64 => f64::from_bits(flush64(s[0], c64.flush_input)) as i32 as u32 as u64,
        CvtU32F64 => f64::from_bits(flush64(s[0], c64.flush_input)) as u32 as u64,
        CvtF64I32 => f64b(ai as f64),
        CvtF64U32 => f64b(a as f64),
        TruncF64 => fa::un64(s[0], c64, f64::trunc),
        CeilF64 => fa::un64(s[0], c64, f64::ceil),
        RndneF64 => fa::un64(s[0], c64, f64::round_ties_even),
        FloorF64 => fa::un64(s[0], c64, f64::floor),
        FractF64 => fa::fract64(s[0], c64),
        RcpF64 => fa::un64(s[0], c64, |x| 1.0 / x),
        RsqF64 => fa::un64(s[0], c64, |x| 1.0 / x.sqrt()),
        SqrtF64 => fa::un64(s[0], c64, f64::sqrt),
        FrexpMantF64 => fa::frexp_mant64(s[0], c64),
        FrexpExpF64 => fa::frexp_exp64(s[0], c64) as u64,
        Cmp(p, t) => return (0, compare(p, t, s[0], s[1], ctx)),
        Readfirstlane | Readlane | Writelane => 0,
    };
    (r, false)
}

/// Integer `clamp`: the saturating result of the nc add/sub and the carry forms (unsigned,
/// or signed for the `_i32` ones); `None` for an operation whose clamp is not modelled.
fn clamp_int(op: Op, s: [u64; 3]) -> Option<u64> {
    use Op::*;
    let (a, b) = (s[0] as u32, s[1] as u32);
    Some(match op {
        AddNc | AddCo => a.saturating_add(b) as u64,
        SubNc | SubCo => a.saturating_sub(b) as u64,
        SubrevNc | SubrevCo => b.saturating_sub(a) as u64,
        AddNcI32 => (a as i32).saturating_add(b as i32) as u32 as u64,
        SubNcI32 => (a as i32).saturating_sub(b as i32) as u32 as u64,
        _ => return None,
    })
}

/// Writes a lane mask to an SGPR (pair in wave64).
fn set_mask(w: &mut Wave, sgpr: u32, mask: u64) {
    if w.size == 32 {
        w.set_sreg(sgpr, mask as u32);
    } else {
        w.set_sreg64(sgpr, mask);
    }
}

/// Reads a lane mask from a source code (an SGPR, or VCC).
fn get_mask(w: &Wave, code: u32) -> u64 {
    if w.size == 32 {
        w.ssrc32(code, None) as u64
    } else {
        w.ssrc64(code, None)
    }
}

/// Executes a VOP1/VOP2/VOPC/VOP3 instruction for the lanes in EXEC.
pub fn execute(inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    // DPP16/DPP8 forms (src0 = 250/233/234 with a DPP dword) read source 0 across lanes:
    // not modelled yet, so they stop the run rather than read src0 as a constant.
    if inst.dpp_kind().is_some() {
        return Err(ValuError::Unimplemented);
    }
    let c = class(inst.opcode).ok_or(ValuError::Unimplemented)?;
    let op = c.op;
    if op.rounds() && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    let d = inst.def();
    let exec = w.exec();
    let vdst = inst.get(Field::Vdst);
    let locs = [
        locate(inst, w, c, 0),
        locate(inst, w, c, 1),
        locate(inst, w, c, 2),
    ];
    match op {
        Op::Readfirstlane => {
            let l = if exec == 0 { 0 } else { exec.trailing_zeros() };
            let v = read(w, locs[0], l, 1) as u32;
            w.set_sreg(vdst, v);
            return Ok(());
        }
        Op::Readlane => {
            let l = read(w, locs[1], 0, 1) as u32 & (w.size - 1);
            let v = read(w, locs[0], l, 1) as u32;
            w.set_sreg(vdst, v);
            return Ok(());
        }
        Op::Writelane => {
            // Writes one lane whatever EXEC says.
            let l = read(w, locs[1], 0, 1) as u32 & (w.size - 1);
            let v = read(w, locs[0], 0, 1) as u32;
            w.set_vgpr(vdst, l, v);
            return Ok(());
        }
        _ => {}
    }
    let (clamp, omod) = if c.vop3 {
        (inst.get(Field::Clamp) != 0, inst.get(Field::Omod))
    } else {
        (false, 0)
    };
    let (abs, neg) = if c.vop3 {
        (inst.get(Field::Abs), inst.get(Field::Neg))
    } else {
        (0, 0)
    };
    // Sign masks: abs clears, neg flips (abs first).
    let mut and_mask = [u64::MAX; 3];
    let mut xor_mask = [0u64; 3];
    for i in 0..3 {
        if c.sign[i] != 0 {
            if abs >> i & 1 == 1 && d.operand(Field::Sdst).is_none() {
                and_mask[i] = !c.sign[i];
            }
            if neg >> i & 1 == 1 {
                xor_mask[i] = c.sign[i];
            }
        }
    }
    let (float32, float64) = match op.float_result() {
        Some(32) => (true, false),
        Some(_) => (false, true),
        None => (false, false),
    };
    if (omod != 0 || clamp) && !float32 && !float64 && !matches!(op, Op::Cmp(..)) {
        // Integer clamp: only the saturating adds are implemented.
        if omod != 0 || clamp_int(op, [0; 3]).is_none() {
            return Err(ValuError::Unimplemented);
        }
    }
    let ctx = Ctx::new(w, inst);
    let dx10 = w.mode >> 8 & 1 == 1;
    // The select / carry-in mask: e32 reads VCC, VOP3 its lane-mask source (src2).
    let uses_mask = matches!(op, Op::Cndmask | Op::AddCi | Op::SubCi | Op::SubrevCi);
    let mask_in = if !uses_mask {
        0
    } else if c.vop3 {
        get_mask(w, inst.get(Field::Src2))
    } else {
        w.vcc()
    };
    // fmac accumulates into its destination.
    let acc = matches!(op, Op::FmacF32);
    // Gather every lane's sources (a VGPR's row or a uniform value), compute the active
    // lanes, write the results back row by row: the loops over rows vectorize.
    let n = w.size as usize;
    let mut src = [[0u64; 64]; 3];
    for i in 0..3 {
        gather(w, locs[i], c.dwords[i], &mut src[i][..n]);
        if and_mask[i] != u64::MAX || xor_mask[i] != 0 {
            for x in &mut src[i][..n] {
                *x = (*x & and_mask[i]) ^ xor_mask[i];
            }
        }
    }
    if acc {
        gather(w, Loc::Vgpr(vdst), 1, &mut src[2][..n]);
    }
    let mut out = [0u64; 64];
    let mut mask_out = 0u64;
    let mut lanes = exec;
    while lanes != 0 {
        let l = lanes.trailing_zeros();
        lanes &= lanes - 1;
        let li = l as usize & 63;
        let sl = [src[0][li], src[1][li], src[2][li]];
        let (mut r, carry) = lane(op, sl, mask_in >> l & 1 == 1, l, &ctx);
        if carry {
            mask_out |= 1 << l;
        }
        if float32 && (omod != 0 || clamp) {
            r = fa::out_mods32(r as u32, omod, clamp, dx10, ctx.ctl32) as u64;
        } else if float64 && (omod != 0 || clamp) {
            r = fa::out_mods64(r, omod, clamp, dx10, ctx.ctl64);
        } else if clamp {
            r = clamp_int(op, sl).unwrap_or(r);
        }
        out[li] = r;
    }
    if c.dst_dwords != 0 && exec != 0 {
        let mask = exec & (u64::MAX >> (64 - n));
        scatter(w, vdst, mask, &out[..n], 0);
        if c.dst_dwords == 2 {
            scatter(w, vdst + 1, mask, &out[..n], 32);
        }
    }
    match op {
        Op::Cmp(..) => {
            if d.name.starts_with("v_cmpx") {
                w.set_exec(mask_out);
            } else if c.vop3 {
                set_mask(w, vdst, mask_out);
            } else {
                set_mask(w, crate::wave::VCC_LO, mask_out);
            }
        }
        Op::AddCi | Op::SubCi | Op::SubrevCi if !c.vop3 => {
            set_mask(w, crate::wave::VCC_LO, mask_out)
        }
        _ if d.operand(Field::Sdst).is_some() => set_mask(w, inst.get(Field::Sdst), mask_out),
        _ => {}
    }
    Ok(())
}

/// One component of a VOPD instruction: its operation and where its operands live.
struct Component {
    op: Op,
    vdst: u32,
    src0: Loc,
    /// The VGPR `vsrc1` (absent for `v_dual_mov_b32`).
    vsrc1: Option<u32>,
}

fn component(inst: &Instruction, w: &Wave, y: bool) -> Result<Component, ValuError> {
    let opcode = if y {
        inst.vopd_y().ok_or(ValuError::Unimplemented)?
    } else {
        inst.opcode
    };
    let d = opcode.def();
    let base = d
        .name
        .strip_prefix("v_dual_")
        .ok_or(ValuError::Unimplemented)?;
    let op = op_of(&format!("v_{base}")).ok_or(ValuError::Unimplemented)?;
    let (vdst, src0, vsrc1) = if y {
        (
            inst.vopd_vdst_y(),
            inst.get(Field::Src0Y),
            inst.get(Field::Vsrc1Y),
        )
    } else {
        (
            inst.get(Field::Vdst),
            inst.get(Field::Src0),
            inst.get(Field::Vsrc1),
        )
    };
    let src0 = if src0 >= 256 {
        Loc::Vgpr(src0 - 256)
    } else {
        Loc::Uniform(w.ssrc32(src0, inst.literal) as u64)
    };
    let vsrc1 = d.operand(Field::Vsrc1).map(|_| vsrc1);
    Ok(Component {
        op,
        vdst,
        src0,
        vsrc1,
    })
}

/// Executes a VOPD instruction: both operations read their sources, for every lane in
/// EXEC, before either writes (they issue together), as their e32 forms do (`v_dual_fmac`
/// accumulates into its destination, `v_dual_cndmask` selects by VCC, `fmaak`/`fmamk` take
/// the literal K).
pub fn execute_vopd(inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    let parts = [component(inst, w, false)?, component(inst, w, true)?];
    if parts.iter().any(|p| p.op.rounds()) && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    let ctx = Ctx::new(w, inst);
    let vcc = w.vcc();
    let exec = w.exec();
    let mut results = [[0u32; 64]; 2];
    for (p, out) in parts.iter().zip(results.iter_mut()) {
        let mut lanes = exec;
        while lanes != 0 {
            let l = lanes.trailing_zeros();
            lanes &= lanes - 1;
            let a = read(w, p.src0, l, 1);
            let b = p.vsrc1.map_or(0, |r| w.vgpr(r, l) as u64);
            let c = w.vgpr(p.vdst, l) as u64;
            out[l as usize] = lane(p.op, [a, b, c], vcc >> l & 1 == 1, l, &ctx).0 as u32;
        }
    }
    for (p, out) in parts.iter().zip(results.iter()) {
        let mut lanes = exec;
        while lanes != 0 {
            let l = lanes.trailing_zeros();
            lanes &= lanes - 1;
            w.set_vgpr(p.vdst, l, out[l as usize]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_entry_the_executor_names_is_classified() {
        // Each name op_of knows classifies in each encoding the table has it in.
        let mut n = 0;
        for d in rdna3_isa::table::INSTRUCTIONS {
            let base = d
                .name
                .strip_suffix("_e32")
                .or_else(|| d.name.strip_suffix("_e64"))
                .unwrap_or(d.name);
            if op_of(base).is_some() {
                assert!(classify(d).is_some(), "{}", d.name);
                n += 1;
            }
        }
        assert!(n > 500, "{n} table entries execute");
    }

    #[test]
    fn byte_permute_selects_bytes_signs_and_constants() {
        let data = 0x8877_6655_4433_2211u64;
        assert_eq!(byte_permute(data, 0), 0x11);
        assert_eq!(byte_permute(data, 7), 0x88);
        assert_eq!(byte_permute(data, 11), 0xff, "sign of byte 7");
        assert_eq!(byte_permute(data, 8), 0, "sign of byte 1");
        assert_eq!(byte_permute(data, 12), 0);
        assert_eq!(byte_permute(data, 13), 0xff);
    }
}
