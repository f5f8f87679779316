//! The operation each VALU mnemonic names (without its `_e32`/`_e64` suffix; VOPD components
//! as `v_<name>` without `dual_`).
//!
//! Some names here are not in the instruction table yet — the `op_sel` forms (`v_add_nc_u16`,
//! `v_fma_f16`, `v_pack_b32_f16`, ...), the `sext()` forms (`v_ldexp_f32`, `v_trig_preop_f64`,
//! `v_cvt_pk_u8_f32`), `v_div_scale_*` and the permlanes (see `tools/gen_table.py`'s
//! `survey_vop3`). Their semantics are implemented and tested per lane, so they execute as
//! soon as the table gains them.

use super::compare::{cmp_ty, pred, valid};
use super::convert::CvtOp;
use super::f16::F16Op;
use super::f32::{F32Op, RoundInt};
use super::f64::F64Op;
use super::int::{IntOp, Pick3};
use super::int16::I16Op;
use super::op::{Op, WholeOp};
use super::sad::SadOp;

/// The operation a mnemonic names, if the executor implements it.
pub(super) fn op_of(name: &str) -> Option<Op> {
    if let Some(rest) = name
        .strip_prefix("v_cmpx_")
        .or_else(|| name.strip_prefix("v_cmp_"))
    {
        let (p, t) = rest.rsplit_once('_')?;
        let (p, t) = (pred(p)?, cmp_ty(t)?);
        return valid(p, t).then_some(Op::Cmp(p, t));
    }
    int(name)
        .map(Op::Int)
        .or_else(|| int16(name).map(Op::I16))
        .or_else(|| sad(name).map(Op::Sad))
        .or_else(|| f16(name).map(Op::F16))
        .or_else(|| f32(name).map(Op::F32))
        .or_else(|| f64(name).map(Op::F64))
        .or_else(|| cvt(name).map(Op::Cvt))
        .or_else(|| whole(name).map(Op::Whole))
}

fn int(name: &str) -> Option<IntOp> {
    use IntOp::*;
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
        "v_min3_u32" => Pick3U(Pick3::Min3),
        "v_max3_u32" => Pick3U(Pick3::Max3),
        "v_med3_u32" => Pick3U(Pick3::Med3),
        "v_min3_i32" => Pick3I(Pick3::Min3),
        "v_max3_i32" => Pick3I(Pick3::Max3),
        "v_med3_i32" => Pick3I(Pick3::Med3),
        "v_maxmin_u32" => Pick3U(Pick3::Maxmin),
        "v_minmax_u32" => Pick3U(Pick3::Minmax),
        "v_maxmin_i32" => Pick3I(Pick3::Maxmin),
        "v_minmax_i32" => Pick3I(Pick3::Minmax),
        "v_bcnt_u32_b32" => Bcnt,
        "v_mbcnt_lo_u32_b32" => MbcntLo,
        "v_mbcnt_hi_u32_b32" => MbcntHi,
        "v_cvt_pk_u16_u32" => CvtPkU16U32,
        "v_cvt_pk_i16_i32" => CvtPkI16I32,
        "v_lshlrev_b64" => Lshl64,
        "v_lshl_add_u64" => LshlAdd64,
        "v_lshrrev_b64" => Lshr64,
        "v_ashrrev_i64" => Ashr64,
        _ => return None,
    })
}

fn int16(name: &str) -> Option<I16Op> {
    use I16Op::*;
    Some(match name {
        "v_mov_b16" => Mov,
        "v_not_b16" => Not,
        "v_and_b16" => And,
        "v_or_b16" => Or,
        "v_xor_b16" => Xor,
        "v_lshlrev_b16" => Lshl,
        "v_lshrrev_b16" => Lshr,
        "v_ashrrev_i16" => Ashr,
        "v_max_u16" => MaxU,
        "v_max_i16" => MaxI,
        "v_min_u16" => MinU,
        "v_min_i16" => MinI,
        "v_mul_lo_u16" => MulLo,
        "v_add_nc_u16" => AddNcU,
        "v_sub_nc_u16" => SubNcU,
        "v_add_nc_i16" => AddNcI,
        "v_sub_nc_i16" => SubNcI,
        "v_mad_u16" => MadU,
        "v_mad_i16" => MadI,
        "v_min3_u16" => Pick3U(Pick3::Min3),
        "v_max3_u16" => Pick3U(Pick3::Max3),
        "v_med3_u16" => Pick3U(Pick3::Med3),
        "v_min3_i16" => Pick3I(Pick3::Min3),
        "v_max3_i16" => Pick3I(Pick3::Max3),
        "v_med3_i16" => Pick3I(Pick3::Med3),
        "v_cndmask_b16" => Cndmask,
        "v_sat_pk_u8_i16" => SatPkU8I16,
        "v_cvt_i32_i16" => CvtI32I16,
        "v_cvt_u32_u16" => CvtU32U16,
        "v_mad_u32_u16" => MadU32U16,
        "v_mad_i32_i16" => MadI32I16,
        "v_pack_b32_f16" => PackB32F16,
        _ => return None,
    })
}

fn sad(name: &str) -> Option<SadOp> {
    use SadOp::*;
    Some(match name {
        "v_sad_u8" => SadU8,
        "v_sad_hi_u8" => SadHiU8,
        "v_sad_u16" => SadU16,
        "v_sad_u32" => SadU32,
        "v_msad_u8" => MsadU8,
        "v_qsad_pk_u16_u8" => QsadPkU16U8,
        "v_mqsad_pk_u16_u8" => MqsadPkU16U8,
        "v_lerp_u8" => LerpU8,
        _ => return None,
    })
}

fn f16(name: &str) -> Option<F16Op> {
    use F16Op::*;
    Some(match name {
        "v_add_f16" => Add,
        "v_sub_f16" => Sub,
        "v_subrev_f16" => Subrev,
        "v_mul_f16" => Mul,
        "v_fma_f16" => Fma,
        "v_fmac_f16" => Fmac,
        "v_fmamk_f16" => Fmamk,
        "v_fmaak_f16" => Fmaak,
        "v_max_f16" => Max,
        "v_min_f16" => Min,
        "v_max3_f16" => Max3,
        "v_min3_f16" => Min3,
        "v_med3_f16" => Med3,
        "v_maxmin_f16" => Maxmin,
        "v_minmax_f16" => Minmax,
        "v_ldexp_f16" => Ldexp,
        "v_rcp_f16" => Rcp,
        "v_sqrt_f16" => Sqrt,
        "v_rsq_f16" => Rsq,
        "v_log_f16" => Log,
        "v_exp_f16" => Exp,
        "v_sin_f16" => Sin,
        "v_cos_f16" => Cos,
        "v_frexp_mant_f16" => FrexpMant,
        "v_frexp_exp_i16_f16" => FrexpExp,
        "v_floor_f16" => Floor,
        "v_ceil_f16" => Ceil,
        "v_trunc_f16" => Trunc,
        "v_rndne_f16" => Rndne,
        "v_fract_f16" => Fract,
        "v_div_fixup_f16" => DivFixup,
        "v_pk_fmac_f16" => PkFmac,
        "v_dot2_f16_f16" => Dot2,
        "v_dot2_bf16_bf16" => Dot2Bf16,
        _ => return None,
    })
}

fn f32(name: &str) -> Option<F32Op> {
    use F32Op::*;
    Some(match name {
        "v_add_f32" => Add,
        "v_sub_f32" => Sub,
        "v_subrev_f32" => Subrev,
        "v_mul_f32" => Mul,
        "v_mul_dx9_zero_f32" => MulDx9,
        "v_fmac_f32" => Fmac,
        "v_fmac_dx9_zero_f32" => FmacDx9,
        "v_fmamk_f32" => Fmamk,
        "v_fmaak_f32" => Fmaak,
        "v_fma_f32" => Fma,
        "v_fma_dx9_zero_f32" => FmaDx9,
        "v_min_f32" => Min,
        "v_max_f32" => Max,
        "v_min3_f32" => Min3,
        "v_max3_f32" => Max3,
        "v_med3_f32" => Med3,
        "v_minmax_f32" => Minmax,
        "v_maxmin_f32" => Maxmin,
        "v_trunc_f32" => Round(RoundInt::Trunc),
        "v_ceil_f32" => Round(RoundInt::Ceil),
        "v_rndne_f32" => Round(RoundInt::Rndne),
        "v_floor_f32" => Round(RoundInt::Floor),
        "v_fract_f32" => Fract,
        "v_rcp_f32" | "v_rcp_iflag_f32" => Rcp,
        "v_rsq_f32" => Rsq,
        "v_sqrt_f32" => Sqrt,
        "v_exp_f32" => Exp,
        "v_log_f32" => Log,
        "v_sin_f32" => Sin,
        "v_cos_f32" => Cos,
        "v_frexp_mant_f32" => FrexpMant,
        "v_frexp_exp_i32_f32" => FrexpExp,
        "v_ldexp_f32" => Ldexp,
        "v_cubeid_f32" => CubeId,
        "v_cubesc_f32" => CubeSc,
        "v_cubetc_f32" => CubeTc,
        "v_cubema_f32" => CubeMa,
        "v_mullit_f32" => Mullit,
        "v_div_scale_f32" => DivScale,
        "v_div_fmas_f32" => DivFmas,
        "v_div_fixup_f32" => DivFixup,
        "v_dot2acc_f32_f16" => Dot2Acc,
        _ => return None,
    })
}

fn f64(name: &str) -> Option<F64Op> {
    use F64Op::*;
    Some(match name {
        "v_add_f64" => Add,
        "v_mul_f64" => Mul,
        "v_fma_f64" => Fma,
        "v_min_f64" => Min,
        "v_max_f64" => Max,
        "v_trunc_f64" => Round(RoundInt::Trunc),
        "v_ceil_f64" => Round(RoundInt::Ceil),
        "v_rndne_f64" => Round(RoundInt::Rndne),
        "v_floor_f64" => Round(RoundInt::Floor),
        "v_fract_f64" => Fract,
        "v_rcp_f64" => Rcp,
        "v_rsq_f64" => Rsq,
        "v_sqrt_f64" => Sqrt,
        "v_frexp_mant_f64" => FrexpMant,
        "v_frexp_exp_i32_f64" => FrexpExp,
        "v_ldexp_f64" => Ldexp,
        "v_div_scale_f64" => DivScale,
        "v_div_fmas_f64" => DivFmas,
        "v_div_fixup_f64" => DivFixup,
        "v_trig_preop_f64" => TrigPreop,
        _ => return None,
    })
}

fn cvt(name: &str) -> Option<CvtOp> {
    use CvtOp::*;
    Some(match name {
        "v_cvt_f32_i32" => F32I32,
        "v_cvt_f32_u32" => F32U32,
        "v_cvt_i32_f32" => I32F32,
        "v_cvt_u32_f32" => U32F32,
        "v_cvt_nearest_i32_f32" => NearestI32F32,
        "v_cvt_floor_i32_f32" => FloorI32F32,
        "v_cvt_f32_ubyte0" => F32Ubyte(0),
        "v_cvt_f32_ubyte1" => F32Ubyte(1),
        "v_cvt_f32_ubyte2" => F32Ubyte(2),
        "v_cvt_f32_ubyte3" => F32Ubyte(3),
        "v_cvt_f16_f32" => F16F32,
        "v_cvt_f32_f16" => F32F16,
        "v_cvt_pk_rtz_f16_f32" => PkRtzF16F32,
        "v_cvt_f64_f32" => F64F32,
        "v_cvt_f32_f64" => F32F64,
        "v_cvt_i32_f64" => I32F64,
        "v_cvt_u32_f64" => U32F64,
        "v_cvt_f64_i32" => F64I32,
        "v_cvt_f64_u32" => F64U32,
        "v_cvt_off_f32_i4" => OffF32I4,
        "v_cvt_f16_u16" => F16U16,
        "v_cvt_f16_i16" => F16I16,
        "v_cvt_u16_f16" => U16F16,
        "v_cvt_i16_f16" => I16F16,
        "v_cvt_norm_i16_f16" => NormI16F16,
        "v_cvt_norm_u16_f16" => NormU16F16,
        "v_cvt_pk_i16_f32" => PkI16F32,
        "v_cvt_pk_u16_f32" => PkU16F32,
        "v_cvt_pk_norm_i16_f32" => PkNormI16F32,
        "v_cvt_pk_norm_u16_f32" => PkNormU16F32,
        "v_cvt_pk_norm_i16_f16" => PkNormI16F16,
        "v_cvt_pk_norm_u16_f16" => PkNormU16F16,
        "v_cvt_pk_u8_f32" => PkU8F32,
        _ => return None,
    })
}

fn whole(name: &str) -> Option<WholeOp> {
    use WholeOp::*;
    Some(match name {
        "v_readfirstlane_b32" => Readfirstlane,
        "v_readlane_b32" => Readlane,
        "v_writelane_b32" => Writelane,
        "v_permlane64_b32" => Permlane64,
        "v_permlane16_b32" => Permlane16,
        "v_permlanex16_b32" => Permlanex16,
        "v_movreld_b32" => Movreld,
        "v_movrels_b32" => Movrels,
        "v_movrelsd_b32" => Movrelsd,
        "v_movrelsd_2_b32" => Movrelsd2,
        "v_swap_b32" => Swap,
        "v_swaprel_b32" => Swaprel,
        "v_mqsad_u32_u8" => MqsadU32U8,
        "v_nop" | "v_pipeflush" => Nop,
        _ => return None,
    })
}
