//! gfx942 (CDNA3) instructions as the executor runs them.
//!
//! The executor's vocabulary is gfx1100's table. A gfx942 instruction whose meaning gfx1100
//! also has is *lowered* to that gfx1100 instruction, one for one, at load: renamed
//! (`ds_read_b32` → `ds_load_b32`, `v_add_u32` → `v_add_nc_u32`, `s_andn2_b64` →
//! `s_and_not1_b64`), its fields copied, and what is encoded differently re-encoded (scalar
//! operand codes, `s_waitcnt`'s fields, SMEM's offsets, `ds_cmpst`'s operand order, the
//! implicit VCC of VOP2 carry-outs). What gfx1100 has no instruction for *runs as it is*
//! ([`runs_as_is`]), with semantics of its own in the unit that owns it. Anything else is
//! refused with the reason, and a run that reaches it stops there naming it, as for any
//! instruction the executor does not know.
//!
//! This file is the list of differences between the two instruction sets that matter to
//! execution; what they share is written once, in the executor.

use rdna3_isa::def::{all, all_in, Opcode};
use rdna3_isa::{Field, Flags, Format, Instruction, Isa, Kind, SrcTy};
use std::collections::HashMap;
use std::sync::OnceLock;

/// gfx1100's `null` scalar code (124; gfx942 has none: 124 is `m0` there).
const GFX11_NULL: u32 = 124;
/// gfx1100's `m0` code.
const GFX11_M0: u32 = 125;
/// gfx942's `m0` code.
const GFX9_M0: u32 = 124;
/// gfx942's FLAT `saddr` value for "no SGPR address" (`off`).
const GFX9_SADDR_OFF: u32 = 0x7f;
/// gfx1100's VCC code.
const VCC: u32 = 106;

/// gfx942 instructions the executor runs under their own opcode: gfx1100 has no
/// instruction that means the same.
///
/// - `ds_permute_b32`/`ds_bpermute_b32`: a lane index picks any of the wave's 64 lanes
///   (GFX9), where gfx1100's wave64 works as two halves of 32.
/// - `v_lshl_add_u64`: D = (S0 << S1\[2:0\]) + S2, 64-bit (gfx940).
/// - `v_pk_add_f32`, `v_pk_mul_f32`, `v_pk_fma_f32`, `v_pk_mov_b32`: two f32 (or b32) lanes in
///   a VGPR pair (gfx90a).
/// - `s_store_dword{,x2,x4}`, `s_dcache_wb`: scalar stores, which RDNA3 removed
///   (`exec::scalar_mem`).
/// - `ds_add_f64`, `ds_add_rtn_f64` and the memory atomics `*_atomic_{add,min,max}_f64`: the
///   64-bit float atomics (`fp::add_f64`); the memory ones read `sc0` as gfx1100's `glc`
///   (`vmem::returns_data`), and their `off` address is written as gfx1100's `null` here.
/// - `ds_pk_add_{f16,bf16}` (and `_rtn_`), `*_atomic_pk_add_{f16,bf16}`: the packed 16-bit
///   float atomics (`fp::add_pk16`), likewise.
/// - `v_mfma_*`, `v_smfmac_*`: the matrix multiply-adds (the executor knows the forms of
///   `exec::valu::mfma`; their AGPR operands are moved to their VGPRs here, or, past v255,
///   left for the executor to place).
/// - `v_accvgpr_read_b32`, `v_accvgpr_write_b32`, `v_accvgpr_mov_b32` naming an AGPR past
///   v255 (the others become `v_mov_b32` here).
pub fn runs_as_is(name: &str) -> bool {
    matches!(
        name,
        "ds_permute_b32"
            | "ds_bpermute_b32"
            | "v_lshl_add_u64"
            | "v_pk_add_f32"
            | "v_pk_mul_f32"
            | "v_pk_fma_f32"
            | "v_pk_mov_b32"
            | "s_store_dword"
            | "s_store_dwordx2"
            | "s_store_dwordx4"
            | "s_dcache_wb"
            | "ds_add_f64"
            | "ds_add_rtn_f64"
            | "ds_pk_add_f16"
            | "ds_pk_add_rtn_f16"
            | "ds_pk_add_bf16"
            | "ds_pk_add_rtn_bf16"
            | "v_accvgpr_read_b32"
            | "v_accvgpr_write_b32"
            | "v_accvgpr_mov_b32"
    ) || name.starts_with("v_mfma_")
        || name.starts_with("v_smfmac_")
        || f64_memory_atomic(name)
}

/// What lowering needs to know of the kernel.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kernel {
    /// The first VGPR of the unified register file that holds the AGPRs: a\[n\] is
    /// v\[accum_offset + n\] (COMPUTE_PGM_RSRC3 ACCUM_OFFSET, AMDGPUUsage: "offset of a
    /// first AccVGPR in the unified register file", in units of 4, minus one).
    pub accum_offset: u32,
}

impl Kernel {
    /// The kernel whose COMPUTE_PGM_RSRC3 is `rsrc3`.
    pub fn of_rsrc3(rsrc3: u32) -> Kernel {
        Kernel {
            accum_offset: ((rsrc3 & 0x3f) + 1) * 4,
        }
    }

    /// The kernel of gfx942 assembly text, which has no descriptor: its AGPRs start at the
    /// first multiple of 4 above the highest VGPR it names (where clang's ACCUM_OFFSET puts
    /// them), at least at v4. The registers are read from each instruction's canonical text,
    /// the one place that says which operands are AGPRs.
    pub fn for_assembly(code: &[Instruction]) -> Kernel {
        let top = code
            .iter()
            .map(|i| highest_vgpr(&rdna3_isa::gfx9::print::print(i)).map_or(0, |v| v + 1))
            .max()
            .unwrap_or(0);
        Kernel {
            accum_offset: top.div_ceil(4).max(1) * 4,
        }
    }

    /// AGPR `n` as the VGPR the executor keeps it in.
    fn agpr(&self, n: u32) -> Result<u32, String> {
        let v = self.accum_offset + n;
        if v > 255 {
            return Err(format!(
                "a{n} is v{v} of the unified register file; AGPRs past v255 do not run yet"
            ));
        }
        Ok(v)
    }
}

/// The highest VGPR a canonical gfx942 text names (`v7`, `v[4:7]`), if any.
fn highest_vgpr(text: &str) -> Option<u32> {
    let b = text.as_bytes();
    let mut top = None;
    for (i, _) in text.match_indices('v') {
        if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
            continue;
        }
        let rest = &text[i + 1..];
        let digits = |s: &str| -> Option<u32> {
            let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
            s[..end].parse().ok()
        };
        let last = match rest.strip_prefix('[') {
            Some(range) => range.split_once(':').and_then(|(_, hi)| digits(hi)),
            None => digits(rest),
        };
        if let Some(v) = last {
            top = top.max(Some(v));
        }
    }
    top
}

/// The lowering of a run of gfx942 code, in address order: [`lower`] of each instruction,
/// except where GFX9's VGPR index mode is on.
///
/// `s_set_gpr_idx_on S0, gpr_idx(...)` makes the VALU instructions that follow add M0\[7:0\]
/// (set from S0\[7:0\]) to the VGPR numbers of the operands it names, until
/// `s_set_gpr_idx_off` (AMD's Vega and CDNA3 ISA guides). LLVM emits it around one
/// `v_mov_b32` for a dynamic index into a value held in VGPRs; that move is gfx1100's
/// `v_movreld_b32` (destination indexed), `v_movrels_b32` (source) or `v_movrelsd_b32` (both),
/// which index by M0. So `s_set_gpr_idx_on` becomes `s_and_b32 m0, S0, 0xff` — M0 holds the
/// index alone, where the hardware also writes the mode to M0\[15:12\] (a program that reads M0
/// back before writing it would see the difference) — and `s_set_gpr_idx_off` an `s_nop 0`.
/// Any other VALU instruction in index mode is refused.
pub fn lower_code(code: &[Instruction], k: &Kernel) -> Vec<Result<Instruction, String>> {
    let mut mode: Option<u32> = None;
    code.iter()
        .map(|inst| {
            let name = inst.def().name;
            match name {
                "s_set_gpr_idx_on" => {
                    mode = Some(inst.get(Field::Ssrc1) & 0xf);
                    let mut out = Instruction::new(gfx11_opcode("s_and_b32").expect("gfx1100"));
                    out.set(Field::Sdst, GFX11_M0);
                    out.set(Field::Ssrc0, scalar_code(inst.get(Field::Ssrc0)));
                    out.set(Field::Ssrc1, 255);
                    out.literal = Some(0xff);
                    return Ok(out);
                }
                "s_set_gpr_idx_off" => {
                    mode = None;
                    return Ok(Instruction::new(gfx11_opcode("s_nop").expect("gfx1100")));
                }
                _ => {}
            }
            match mode {
                Some(m) if name.starts_with("v_") => indexed_move(inst, m),
                _ => lower(inst, k),
            }
        })
        .collect()
}

/// A `v_mov_b32` in VGPR index mode `mode` (bit 0: source 0 indexed, bit 3: the destination)
/// as gfx1100's M0-indexed move.
fn indexed_move(inst: &Instruction, mode: u32) -> Result<Instruction, String> {
    let name = inst.def().name;
    if name != "v_mov_b32_e32" || mode & 0b0110 != 0 || inst.dpp_kind().is_some() || inst.sdwa() {
        return Err(format!(
            "`{name}` in VGPR index mode (s_set_gpr_idx_on) does not run yet: only v_mov_b32 does"
        ));
    }
    let (src, dst) = (mode & 1 == 1, mode & 8 == 8);
    let target = match (src, dst) {
        (false, false) => "v_mov_b32_e32",
        (false, true) => "v_movreld_b32_e32",
        (true, false) => "v_movrels_b32_e32",
        (true, true) => "v_movrelsd_b32_e32",
    };
    let mut out = Instruction::new(gfx11_opcode(target).expect("gfx1100 has the moves"));
    out.set(Field::Vdst, inst.get(Field::Vdst));
    out.set(Field::Src0, scalar_code_or_vgpr(inst.get(Field::Src0)));
    out.literal = inst.literal;
    Ok(out)
}

/// gfx942's 64-bit and packed 16-bit float atomics of memory
/// (`{global,flat,buffer}_atomic_{add,min,max}_f64`, `..._atomic_pk_add_{f16,bf16}`), which
/// gfx1100 lacks.
fn f64_memory_atomic(name: &str) -> bool {
    ["global_", "flat_", "buffer_"]
        .iter()
        .any(|p| name.starts_with(p))
        && [
            "atomic_add_f64",
            "atomic_min_f64",
            "atomic_max_f64",
            "atomic_pk_add_f16",
            "atomic_pk_add_bf16",
        ]
        .iter()
        .any(|a| name.contains(a))
}

/// The instruction the executor runs for gfx942 instruction `inst` of kernel `k`: its
/// gfx1100 counterpart, or `inst` itself (with gfx1100's scalar codes) when it runs as it is;
/// `Err` says why it does not run.
pub fn lower(inst: &Instruction, k: &Kernel) -> Result<Instruction, String> {
    let d = inst.def();
    debug_assert_eq!(d.isa, Isa::Gfx940);
    if d.name.starts_with("v_accvgpr") {
        return accvgpr(inst, k);
    }
    if d.flags.has(Flags::MFMA) {
        return mfma(inst, k);
    }
    if runs_as_is(d.name) {
        let mut out = inst.clone();
        remap_scalar_fields(inst, &mut out);
        if d.operand(Field::Saddr).is_some()
            && (inst.get(Field::Saddr) == GFX9_SADDR_OFF || d.format == Format::Flat)
        {
            out.set(Field::Saddr, GFX11_NULL);
        }
        if d.format == Format::Smem {
            // The SGPR offsets of a scalar store.
            if inst.get(Field::SmemImm) == 0 {
                out.set(Field::Offset, scalar_code(inst.get(Field::Offset) & 0x7f));
            }
            out.set(Field::Soffset, scalar_code(inst.get(Field::Soffset)));
        }
        return Ok(out);
    }
    if d.name.starts_with("v_mov_b64") {
        return mov_b64(inst);
    }
    if inst.sdwa() {
        return sdwa(inst);
    }
    let (name, carry_out_vcc) = gfx11_name(d.name);
    // An e32 instruction whose gfx1100 counterpart has only a VOP3 form takes that.
    let op = gfx11_opcode(&name)
        .or_else(|| gfx11_opcode(name.strip_suffix("_e32")?))
        .ok_or_else(|| {
            format!(
                "`{}` has no gfx1100 counterpart the executor runs yet",
                d.name
            )
        })?;
    // gfx1100's e32 encodings name register halves with bit 7 of a 16-bit operand's VGPR
    // number (`v1.h`); GFX9's are whole registers v0-v255. The VOP3 form names them alike:
    // op_sel 0 reads and writes the low halves.
    let op = if uses_halves(op) {
        vop3_form(op).unwrap_or(op)
    } else {
        op
    };
    let mut out = Instruction::new(op);
    copy_fields(inst, &mut out);
    out.literal = inst.literal;
    let e32 = matches!(d.format, Format::Vop1 | Format::Vop2 | Format::Vopc);
    if e32 && out.def().format == Format::Vop3 {
        if d.format != Format::Vop1 {
            out.set(Field::Src1, 256 + inst.get(Field::Vsrc1));
        }
        if d.format == Format::Vopc {
            out.set(Field::Vdst, VCC);
        }
        if out
            .def()
            .operand(Field::Src2)
            .is_some_and(|o| o.kind == Kind::LaneMask)
        {
            // The carry-in of a VOP2 carry form: VCC.
            out.set(Field::Src2, VCC);
        }
    }
    if inst.get(Field::Acc) == 1 {
        // The data registers are AGPRs.
        for f in [Field::Vdst, Field::Data0, Field::Data1, Field::Vdata] {
            if d.operand(f).is_some() {
                out.set(f, k.agpr(inst.get(f))?);
            }
        }
    }
    if d.name.starts_with("v_cmpx") && out.def().format == Format::Vop3 {
        // gfx1100's VOP3 v_cmpx has no SGPR destination: its field holds EXEC_LO's code, as
        // llvm-mc-19 encodes it; the SGPR pair GFX9 also writes is `cmpx_also_writes`'.
        out.set(Field::Vdst, 126);
    }
    if reversed(d.name) {
        let (a, b) = (out.get(Field::Src0), out.get(Field::Src1));
        out.set(Field::Src0, b);
        out.set(Field::Src1, a);
    }
    if carry_out_vcc {
        out.set(Field::Sdst, VCC);
    }
    match d.format {
        Format::Smem => smem_offsets(inst, &mut out)?,
        Format::Sopp if d.name == "s_waitcnt" => {
            out.set(Field::Simm16, waitcnt(inst.get(Field::Simm16)))
        }
        Format::Sopk if d.name == "s_getreg_b32" && inst.get(Field::Simm16) & 0x3f == XCC_ID => {
            // One XCC: its id reads 0 (whatever the offset and size).
            let mut mov =
                Instruction::new(gfx11_opcode("s_movk_i32").expect("gfx1100 has s_movk_i32"));
            mov.set(Field::Sdst, out.get(Field::Sdst));
            return Ok(mov);
        }
        Format::Sopk if d.name.contains("etreg") => {
            out.set(Field::Simm16, hwreg(inst.get(Field::Simm16))?)
        }
        Format::Ds if d.name.starts_with("ds_cmpst") => {
            // GFX9 compares with DATA0 and stores DATA1; gfx1100's ds_cmpstore stores DATA0
            // and compares with DATA1 (AMD's RDNA3 pseudocode; clang-19's operand order for
            // the same cmpxchg on each chip agrees).
            out.set(Field::Data0, inst.get(Field::Data1));
            out.set(Field::Data1, inst.get(Field::Data0));
        }
        _ => {}
    }
    Ok(out)
}

/// Whether gfx942 instruction `name` is lowered to the instruction with its sources swapped
/// (`v_subrev_u16` = `v_sub_nc_u16` of source 1 and source 0: gfx1100 has no reversed form).
fn reversed(name: &str) -> bool {
    name.starts_with("v_subrev_u16")
}

/// Whether gfx1100 entry `op` is an e32 encoding with a 16-bit operand (which gfx1100's e32
/// encodings address as register halves).
fn uses_halves(op: Opcode) -> bool {
    let d = op.def();
    matches!(d.format, Format::Vop1 | Format::Vop2 | Format::Vopc)
        && d.operands.iter().any(|o| {
            matches!(
                o.kind,
                Kind::VSrc(_, SrcTy::F16 | SrcTy::I16 | SrcTy::Bf16 | SrcTy::B16LoHi)
            )
        })
        || writes_16_bits(d.name) && d.format != Format::Vop3
}

/// The VOP3 entry of the instruction whose e32 entry is `op`.
fn vop3_form(op: Opcode) -> Option<Opcode> {
    let name = op.def().name;
    gfx11_opcode(&format!(
        "{}_e64",
        name.strip_suffix("_e32").unwrap_or(name)
    ))
}

/// The SGPR pair a gfx942 `v_cmpx_*` also writes its result to: GFX9's compare-and-write-EXEC
/// writes VCC (e32) or its SGPR destination (e64) too, where gfx1100's writes EXEC alone. The
/// executor runs gfx1100's and copies the new EXEC there (`exec::step`).
pub fn cmpx_also_writes(original: &Instruction) -> Option<u32> {
    let d = original.def();
    if d.isa != Isa::Gfx940 || !d.name.starts_with("v_cmpx") {
        return None;
    }
    Some(match d.format {
        Format::Vopc => VCC,
        _ => scalar_code(original.get(Field::Vdst)),
    })
}

/// Whether gfx942 instruction `name` writes 16 bits and zeroes the upper 16 of its VGPR: GFX9
/// keeps the "legacy behavior of 0ing" for its 16-bit results except the multiply-adds
/// (`v_mad_*16`, `v_fma_f16`, `v_div_fixup_f16`, `v_mac_f16`, `v_madak/madmk_f16`), which
/// preserve them (LLVM `GCNSubtarget::zeroesHigh16BitsOfDest`); gfx1100 preserves them
/// always, so the executor clears them after the lowered instruction.
pub fn zeroes_high_16(name: &str) -> bool {
    let mad = [
        "v_mad_",
        "v_fma_",
        "v_div_fixup_",
        "v_mac_",
        "v_madak_",
        "v_madmk_",
    ]
    .iter()
    .any(|p| name.starts_with(p));
    writes_16_bits(name) && !mad
}

/// Why gfx942 instruction `inst`, which a run reached unlowered, does not run: its own
/// lowering's reason, or, when it lowers alone, what made it fail where it stands (the
/// kernel's AGPRs past v255, VGPR index mode around it: [`lower_code`]).
pub fn refusal(inst: &Instruction) -> String {
    match lower(inst, &Kernel::default()) {
        Err(why) => why,
        Ok(_) => format!(
            "`{}` does not run where it stands: in VGPR index mode, or naming AGPRs past v255 \
             of this kernel's register file",
            inst.def().name
        ),
    }
}

/// Whether `name` (a VALU mnemonic) writes a 16-bit result to a VGPR: its result type, the
/// first type in its name, is 16 bits, and it is not a compare (which writes a lane mask) or a
/// packed operation (which writes both halves).
fn writes_16_bits(name: &str) -> bool {
    if !name.starts_with("v_") || name.starts_with("v_cmp") || name.starts_with("v_pk_") {
        return false;
    }
    let result = name.split('_').skip(2).find(|t| {
        t.len() >= 2
            && matches!(&t[..1], "f" | "i" | "u" | "b")
            && t[1..].chars().all(|c| c.is_ascii_digit())
    });
    matches!(result, Some("f16" | "i16" | "u16" | "b16"))
}

/// The gfx1100 mnemonic of gfx942 mnemonic `name`, and whether it is a VOP2 carry-out form
/// whose carry goes to VCC implicitly (gfx1100 has only the VOP3 form, with an SGPR
/// destination).
fn gfx11_name(name: &str) -> (String, bool) {
    let (base, suffix) = match name.rsplit_once('_') {
        Some((b, s @ ("e32" | "e64"))) => (b, Some(s)),
        _ => (name, None),
    };
    let with = |b: &str| match suffix {
        Some(s) => format!("{b}_{s}"),
        None => b.to_string(),
    };
    // VOP2 carry-outs: gfx1100's v_add_co_u32 is VOP3 only.
    if let Some(b @ ("v_add_co_u32" | "v_sub_co_u32" | "v_subrev_co_u32")) = Some(base) {
        return (b.to_string(), suffix == Some("e32"));
    }
    let renamed: Option<&str> = match base {
        "v_add_u32" => Some("v_add_nc_u32"),
        "v_sub_u32" => Some("v_sub_nc_u32"),
        "v_subrev_u32" => Some("v_subrev_nc_u32"),
        "v_add_i32" => Some("v_add_nc_i32"),
        "v_sub_i32" => Some("v_sub_nc_i32"),
        "v_add_u16" => Some("v_add_nc_u16"),
        "v_sub_u16" | "v_subrev_u16" => Some("v_sub_nc_u16"),
        "v_add_i16" => Some("v_add_nc_i16"),
        "v_sub_i16" => Some("v_sub_nc_i16"),
        "v_addc_co_u32" => Some("v_add_co_ci_u32"),
        "v_subb_co_u32" => Some("v_sub_co_ci_u32"),
        "v_subbrev_co_u32" => Some("v_subrev_co_ci_u32"),
        "v_ffbh_u32" => Some("v_clz_i32_u32"),
        "v_ffbl_b32" => Some("v_ctz_i32_b32"),
        "v_ffbh_i32" => Some("v_cls_i32"),
        "v_cvt_flr_i32_f32" => Some("v_cvt_floor_i32_f32"),
        "v_cvt_rpi_i32_f32" => Some("v_cvt_nearest_i32_f32"),
        "v_mul_legacy_f32" => Some("v_mul_dx9_zero_f32"),
        // Cache maintenance: the vector caches are not modelled apart from memory, so these
        // drop and write back nothing, as gfx1100's invalidates do.
        "buffer_inv" | "buffer_wbl2" | "buffer_wbinvl1" | "buffer_wbinvl1_vol" => {
            Some("buffer_gl1_inv")
        }
        "s_ff1_i32_b32" => Some("s_ctz_i32_b32"),
        "s_ff1_i32_b64" => Some("s_ctz_i32_b64"),
        "s_flbit_i32_b32" => Some("s_clz_i32_u32"),
        "s_flbit_i32_b64" => Some("s_clz_i32_u64"),
        "s_flbit_i32" => Some("s_cls_i32"),
        "s_flbit_i32_i64" => Some("s_cls_i32_i64"),
        _ => None,
    };
    if let Some(r) = renamed {
        return (with(r), false);
    }
    if base == "v_cvt_pkrtz_f16_f32" {
        // A VOP3-only instruction on GFX9; gfx1100's VOP3 form has the suffix.
        return ("v_cvt_pk_rtz_f16_f32_e64".into(), false);
    }
    if let Some(rest) = base.strip_prefix("v_cmp_tru_") {
        return (with(&format!("v_cmp_t_{rest}")), false);
    }
    let mut b = base.to_string();
    for (from, to) in SCALAR_RENAMES {
        if let Some(rest) = b.strip_prefix(from) {
            b = format!("{to}{rest}");
            break;
        }
    }
    if b.starts_with("ds_") {
        b = ds_name(&b);
    } else if [
        "flat_",
        "global_",
        "scratch_",
        "buffer_",
        "s_load_",
        "s_buffer_load_",
    ]
    .iter()
    .any(|p| b.starts_with(p))
    {
        b = memory_name(&b);
    }
    (with(&b), false)
}

/// Scalar mnemonics gfx10 renamed (`n2` → `not1`, `n1` → `not0`).
const SCALAR_RENAMES: [(&str, &str); 8] = [
    ("s_andn2_saveexec", "s_and_not1_saveexec"),
    ("s_orn2_saveexec", "s_or_not1_saveexec"),
    ("s_andn1_saveexec", "s_and_not0_saveexec"),
    ("s_orn1_saveexec", "s_or_not0_saveexec"),
    ("s_andn1_wrexec", "s_and_not0_wrexec"),
    ("s_andn2_wrexec", "s_and_not1_wrexec"),
    ("s_andn2_", "s_and_not1_"),
    ("s_orn2_", "s_or_not1_"),
];

/// A GFX9 DS mnemonic in gfx1100's words (`read` → `load`, `write2st64` →
/// `store_2addr_stride64`, `wrxchg` → `storexchg`, `cmpst` → `cmpstore`).
fn ds_name(b: &str) -> String {
    const DS: [(&str, &str); 10] = [
        ("ds_read2st64_", "ds_load_2addr_stride64_"),
        ("ds_read2_", "ds_load_2addr_"),
        ("ds_read_", "ds_load_"),
        ("ds_write2st64_", "ds_store_2addr_stride64_"),
        ("ds_write2_", "ds_store_2addr_"),
        ("ds_write_", "ds_store_"),
        ("ds_wrxchg2st64_", "ds_storexchg_2addr_stride64_"),
        ("ds_wrxchg2_", "ds_storexchg_2addr_"),
        ("ds_wrxchg_", "ds_storexchg_"),
        ("ds_cmpst_", "ds_cmpstore_"),
    ];
    for (from, to) in DS {
        if let Some(rest) = b.strip_prefix(from) {
            return format!("{to}{rest}");
        }
    }
    b.to_string()
}

/// A GFX9 memory mnemonic in gfx1100's data-type words (`load_dwordx2` → `load_b64`,
/// `load_ubyte_d16_hi` → `load_d16_hi_u8`, `atomic_smax_x2` → `atomic_max_i64`).
fn memory_name(b: &str) -> String {
    let Some(at) = b
        .find("load_")
        .or_else(|| b.find("store_"))
        .or_else(|| b.find("atomic_"))
    else {
        return b.to_string();
    };
    let (head, tail) = b.split_at(at);
    let (verb, what) = tail.split_once('_').expect("found with its underscore");
    if verb == "atomic" {
        return format!("{head}{verb}_{}", atomic_type(what));
    }
    let (what, d16) = match what.strip_suffix("_d16_hi") {
        Some(w) => (w, "d16_hi_"),
        None => match what.strip_suffix("_d16") {
            Some(w) => (w, "d16_"),
            None => (what, ""),
        },
    };
    let ty = match what {
        "dword" => "b32",
        "dwordx2" => "b64",
        "dwordx3" => "b96",
        "dwordx4" => "b128",
        "dwordx8" => "b256",
        "dwordx16" => "b512",
        "ubyte" => "u8",
        "sbyte" => "i8",
        "ushort" => "u16",
        "sshort" => "i16",
        "byte" => "b8",
        // A 16-bit load to one half is typed b16 on gfx1100.
        "short" => "b16",
        other => return format!("{head}{verb}_{d16}{other}"),
    };
    format!("{head}{verb}_{d16}{ty}")
}

/// GFX9 atomic operation names with gfx1100's types (`smin` → `min_i32`, `cmpswap_x2` →
/// `cmpswap_b64`); float atomics keep their names.
fn atomic_type(what: &str) -> String {
    let (op, wide) = match what.strip_suffix("_x2") {
        Some(op) => (op, true),
        None => (what, false),
    };
    let (name, int) = match op {
        "swap" | "cmpswap" | "and" | "or" | "xor" => (op, "b"),
        "add" | "sub" | "inc" | "dec" => (op, "u"),
        "smin" => ("min", "i"),
        "umin" => ("min", "u"),
        "smax" => ("max", "i"),
        "umax" => ("max", "u"),
        _ => return what.to_string(),
    };
    format!("{name}_{int}{}", if wide { 64 } else { 32 })
}

/// The gfx1100 entry called `name`.
fn gfx11_opcode(name: &str) -> Option<Opcode> {
    static BY_NAME: OnceLock<HashMap<&'static str, Opcode>> = OnceLock::new();
    BY_NAME
        .get_or_init(|| all().map(|(op, d)| (d.name, op)).collect())
        .get(name)
        .copied()
}

/// The gfx942 entry called `name` (for tests and the extensions' look-ups).
pub fn gfx940_opcode(name: &str) -> Option<Opcode> {
    static BY_NAME: OnceLock<HashMap<&'static str, Opcode>> = OnceLock::new();
    BY_NAME
        .get_or_init(|| all_in(Isa::Gfx940).map(|(op, d)| (d.name, op)).collect())
        .get(name)
        .copied()
}

/// A gfx942 scalar operand code as gfx1100 encodes the same register: `m0` moves from 124
/// to 125; `flat_scratch` (102-103) and `xnack_mask` (104-105) keep their codes, which are
/// SGPRs s102-s105 on gfx1100 — the launch puts the wave's scratch base there.
fn scalar_code(code: u32) -> u32 {
    match code {
        GFX9_M0 => GFX11_M0,
        other => other,
    }
}

/// Whether an operand of `kind` holds a scalar operand code in its field (a source code
/// below 256 for the kinds that also take VGPRs).
fn holds_scalar_code(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::S(_)
            | Kind::Ssrc(_)
            | Kind::SsrcReg(_)
            | Kind::VSrc(..)
            | Kind::LaneMask
            | Kind::BufSoffset
    )
}

/// Copies every field of `from` (gfx942) that `to` (gfx1100) has, with the scalar codes
/// re-encoded and gfx940's cache bits under gfx1100's names (`sc0` returns an atomic's old
/// value as `glc` does; `nt` is `slc`).
fn copy_fields(from: &Instruction, to: &mut Instruction) {
    let d = from.def();
    for b in rdna3_isa::gfx9::format::layout_of(d.format).fields {
        if b.at != 0 || b.field == Field::Op {
            continue;
        }
        let v = from.get(b.field);
        match b.field {
            Field::Sc0 => to.set(Field::Glc, v),
            Field::Nt => to.set(Field::Slc, v),
            Field::OpSel if d.flags.has(Flags::OP_SEL_IGNORED) => {}
            Field::Saddr if v == GFX9_SADDR_OFF => to.set(Field::Saddr, GFX11_NULL),
            // The FLAT segment has no SGPR address on GFX9 (clang encodes 0 there); gfx1100's
            // FLAT adds one unless it is `null`.
            Field::Saddr if d.format == Format::Flat => to.set(Field::Saddr, GFX11_NULL),
            // GFX9's data and number formats as gfx1100's unified format (INVALID, 0, where
            // gfx1100 has none: the access then reports an unsupported format).
            Field::Fmt => to.set(
                Field::Fmt,
                rdna3_isa::special::unified_buf_format(v).unwrap_or(0),
            ),
            f => to.set(f, v),
        }
    }
    if from.dpp_kind().is_some() {
        to.set(Field::Src0, rdna3_isa::dpp::SRC_DPP16);
        for f in [
            Field::DppSrc0,
            Field::DppCtrl,
            Field::BoundCtrl,
            Field::DppNeg,
            Field::DppAbs,
            Field::BankMask,
            Field::RowMask,
        ] {
            to.set(f, from.get(f));
        }
    }
    remap_scalar_fields(from, to);
}

/// Re-encodes the scalar operand codes of `from`'s operands in `to`.
fn remap_scalar_fields(from: &Instruction, to: &mut Instruction) {
    for o in from.def().operands {
        if holds_scalar_code(o.kind) && !(from.dpp_kind().is_some() && o.field == Field::Src0) {
            let v = from.get(o.field);
            if v < 256 {
                to.set(o.field, scalar_code(v));
            }
        }
    }
}

/// SMEM's offset: GFX9 says with `imm` whether the offset field is a byte offset or an SGPR,
/// and with `soe` whether `soffset` adds an SGPR; gfx1100 always has both an immediate
/// offset and an `soffset` (`null` for none).
fn smem_offsets(from: &Instruction, to: &mut Instruction) -> Result<(), String> {
    let (imm, soe) = (from.get(Field::SmemImm), from.get(Field::Soe));
    let offset = from.get(Field::Offset);
    let (off, soffset) = match (imm, soe) {
        (1, 0) => (offset, GFX11_NULL),
        (1, 1) => (offset, scalar_code(from.get(Field::Soffset))),
        (0, 0) => (0, scalar_code(offset & 0x7f)),
        _ => {
            return Err(format!(
                "`{}` with soe and no imm does not run yet",
                from.def().name
            ))
        }
    };
    to.set(Field::Offset, off);
    to.set(Field::Soffset, soffset);
    Ok(())
}

/// `s_waitcnt`'s immediate re-encoded: GFX9 keeps vmcnt in \[3:0\] and \[15:14\], expcnt in
/// \[6:4\], lgkmcnt in \[11:8\]; gfx1100 vmcnt in \[15:10\], lgkmcnt in \[9:4\], expcnt in \[2:0\].
/// GFX9's lgkmcnt 15 (its largest, what compilers write for "do not wait") becomes
/// gfx1100's 63: a wait that waits for nothing on either chip.
fn waitcnt(v: u32) -> u32 {
    let vm = (v & 0xf) | (v >> 14 & 3) << 4;
    let exp = v >> 4 & 7;
    let lgkm = match v >> 8 & 0xf {
        15 => 63,
        n => n,
    };
    vm << 10 | lgkm << 4 | exp
}

/// gfx942's `HW_REG_XCC_ID`, which the simulator answers with 0 (one XCC).
const XCC_ID: u32 = 20;

/// `s_getreg`/`s_setreg`'s hardware register: the ones both chips number alike (MODE,
/// STATUS, TRAPSTS, GPR_ALLOC, LDS_ALLOC, IB_STS, SH_MEM_BASES) pass; others are refused
/// (ids 20 and 21 are gfx942's XCC_ID and SQ_PERF_SNAPSHOT_DATA, gfx1100's FLAT_SCR_LO/HI).
fn hwreg(simm16: u32) -> Result<u32, String> {
    match simm16 & 0x3f {
        1 | 2 | 3 | 5 | 6 | 7 | 15 => Ok(simm16),
        id => Err(format!(
            "hardware register {id} ({}) does not run on gfx942 yet",
            rdna3_isa::gfx9::print::hwreg_text(simm16)
        )),
    }
}

/// A matrix instruction with its AGPR operands as the VGPRs that hold them: A and B are AGPRs
/// where `op_sel_hi` bits 0 and 1 say so, C and D where `acc_cd` (the `clamp` bit) does;
/// those bits are cleared (matrix instructions have no clamp on gfx942's table).
fn mfma(inst: &Instruction, k: &Kernel) -> Result<Instruction, String> {
    let d = inst.def();
    let mut out = inst.clone();
    let regs = |f: Field| match d.operand(f).map(|o| o.kind) {
        Some(Kind::V(n) | Kind::VSrc(n, _)) => n as u32,
        _ => 1,
    };
    let acc_cd = inst.get(Field::Clamp) == 1;
    let hi = inst.get(Field::OpSelHi);
    // (SMFMAC's third source is its index VGPR, never an AGPR.)
    let acc_c = acc_cd && !d.name.starts_with("v_smfmac");
    // AGPRs past v255 do not fit the fields: the executor adds the wave's `accum_offset` to
    // the operands whose AGPR bits stay set (`exec::valu::mfma`).
    let fits = |f: Field, acc: bool| {
        let v = inst.get(f);
        !acc || v < 256 || k.agpr(v - 256 + regs(f) - 1).is_ok()
    };
    let all_fit = fits(Field::Src0, hi & 1 == 1)
        && fits(Field::Src1, hi & 2 == 2)
        && fits(Field::Src2, acc_c)
        && (!acc_cd
            || k.agpr(inst.get(Field::Vdst) + regs(Field::Vdst) - 1)
                .is_ok());
    for (i, f) in [Field::Src0, Field::Src1, Field::Src2]
        .into_iter()
        .enumerate()
    {
        let v = inst.get(f);
        let acc = if i < 2 { hi >> i & 1 == 1 } else { acc_c };
        match v.checked_sub(256) {
            Some(n) if acc && all_fit => out.set(f, 256 + k.agpr(n)?),
            Some(_) => {}
            None => out.set(f, scalar_code(v)),
        }
    }
    if !all_fit {
        return Ok(out);
    }
    if acc_cd {
        out.set(Field::Vdst, k.agpr(inst.get(Field::Vdst))?);
    }
    out.set(Field::Clamp, 0);
    // (The AGPR bits go; bit 2, abid's high bit, stays.)
    out.set(Field::OpSelHi, hi & 4);
    Ok(out)
}

/// `v_accvgpr_read_b32`, `v_accvgpr_write_b32`, `v_accvgpr_mov_b32`: moves between the
/// AGPRs (VGPRs from `accum_offset` on) and the VGPRs, as gfx1100's `v_mov_b32`.
fn accvgpr(inst: &Instruction, k: &Kernel) -> Result<Instruction, String> {
    let name = inst.def().name;
    // An AGPR past v255 does not fit gfx1100's fields: the instruction runs as it is
    // (`exec::valu::vop3p::execute_accvgpr`, with the wave's `accum_offset`).
    let src_agpr = inst.get(Field::Src0).saturating_sub(256);
    let past = match name {
        _ if name.starts_with("v_accvgpr_read") => k.agpr(src_agpr).is_err(),
        _ if name.starts_with("v_accvgpr_write") => k.agpr(inst.get(Field::Vdst)).is_err(),
        _ => k.agpr(src_agpr).is_err() || k.agpr(inst.get(Field::Vdst)).is_err(),
    };
    if past {
        let mut out = inst.clone();
        if name.starts_with("v_accvgpr_write") && inst.get(Field::Src0) < 256 {
            out.set(Field::Src0, scalar_code(inst.get(Field::Src0)));
        }
        return Ok(out);
    }
    let mut out = Instruction::new(gfx11_opcode("v_mov_b32_e32").expect("gfx1100 has v_mov_b32"));
    let (vdst, src0) = (inst.get(Field::Vdst), inst.get(Field::Src0));
    let (dst, src) = if name.starts_with("v_accvgpr_read") {
        (vdst, 256 + k.agpr(src0 - 256)?)
    } else if name.starts_with("v_accvgpr_write") {
        (k.agpr(vdst)?, scalar_code_or_vgpr(src0))
    } else {
        (k.agpr(vdst)?, 256 + k.agpr(src0.saturating_sub(256))?)
    };
    out.set(Field::Vdst, dst);
    out.set(Field::Src0, src);
    out.literal = inst.literal;
    Ok(out)
}

/// An SDWA form as the gfx1100 instruction whose operation it runs, with its sources where the
/// SDWA dword says (`s0`/`s1`: a scalar source); the executor applies the dword's selects
/// around it (`exec::valu::sdwa`). A compare becomes its VOP3 form, so that it can write the
/// SDWA dword's SGPR destination (`sd`).
fn sdwa(inst: &Instruction) -> Result<Instruction, String> {
    let d = inst.def();
    let s = inst.dpp_dword();
    let (name, carry_out_vcc) = gfx11_name(d.name);
    // A compare, and a scalar source 1 (gfx1100's e32 `vsrc1` is a VGPR), take the VOP3 form.
    let name = match d.format {
        Format::Vopc => name.replace("_e32", "_e64"),
        Format::Vop2 if s >> 31 == 1 => name.replace("_e32", "_e64"),
        _ => name,
    };
    // A 16-bit operation takes gfx1100's VOP3 form, whose operands are whole registers (the
    // SDWA selects pick the halves; gfx1100's e32 16-bit encodings name halves instead).
    let e32 = gfx11_opcode(&name);
    let op = e32
        .filter(|&op| !uses_halves(op))
        .or_else(|| e32.and_then(vop3_form))
        .or_else(|| gfx11_opcode(name.strip_suffix("_e32")?))
        .filter(|_| !reversed(d.name))
        .ok_or_else(|| {
            format!(
                "`{}` has no gfx1100 counterpart the executor runs yet",
                d.name
            )
        })?;
    let mut out = Instruction::new(op);
    let src0 = match s >> 23 & 1 {
        1 => scalar_code(s & 0xff),
        _ => 256 + (s & 0xff),
    };
    let src1 = match s >> 31 & 1 {
        1 => scalar_code(inst.get(Field::Vsrc1)),
        _ => 256 + inst.get(Field::Vsrc1),
    };
    out.set(Field::Src0, src0);
    if out.def().format == Format::Vop3 {
        out.set(Field::Src1, src1);
        if out.def().operand(Field::Src2).is_some() {
            // The carry-in of a VOP2 carry form, VCC implicitly.
            out.set(Field::Src2, VCC);
        }
    } else {
        out.set(Field::Vsrc1, inst.get(Field::Vsrc1));
    }
    match d.format {
        Format::Vopc => {
            let sdst = if s >> 15 & 1 == 1 {
                scalar_code(s >> 8 & 0x7f)
            } else {
                VCC
            };
            out.set(Field::Vdst, sdst);
        }
        _ => out.set(Field::Vdst, inst.get(Field::Vdst)),
    }
    if carry_out_vcc {
        out.set(Field::Sdst, VCC);
    }
    Ok(out)
}

/// `v_mov_b64` as gfx1100's `v_lshlrev_b64 vdst, 0, src`: the same 64 bits.
fn mov_b64(inst: &Instruction) -> Result<Instruction, String> {
    if inst.dpp_kind().is_some() {
        return Err("`v_mov_b64` with DPP does not run yet".into());
    }
    let op = gfx11_opcode("v_lshlrev_b64").expect("gfx1100 has v_lshlrev_b64");
    let mut out = Instruction::new(op);
    out.set(Field::Vdst, inst.get(Field::Vdst));
    out.set(Field::Src0, 128); // the inline constant 0
    out.set(Field::Src1, scalar_code_or_vgpr(inst.get(Field::Src0)));
    out.literal = inst.literal;
    Ok(out)
}

fn scalar_code_or_vgpr(v: u32) -> u32 {
    if v < 256 {
        scalar_code(v)
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_gfx1100() {
        let n = |s: &str| gfx11_name(s).0;
        assert_eq!(n("ds_read_b32"), "ds_load_b32");
        assert_eq!(n("ds_read2st64_b64"), "ds_load_2addr_stride64_b64");
        assert_eq!(n("ds_write2_b32"), "ds_store_2addr_b32");
        assert_eq!(n("ds_wrxchg2_rtn_b32"), "ds_storexchg_2addr_rtn_b32");
        assert_eq!(n("ds_cmpst_rtn_b32"), "ds_cmpstore_rtn_b32");
        assert_eq!(n("global_load_dwordx4"), "global_load_b128");
        assert_eq!(n("global_load_ubyte_d16_hi"), "global_load_d16_hi_u8");
        assert_eq!(n("global_store_short_d16_hi"), "global_store_d16_hi_b16");
        assert_eq!(n("flat_atomic_smax_x2"), "flat_atomic_max_i64");
        assert_eq!(n("global_atomic_add_f32"), "global_atomic_add_f32");
        assert_eq!(n("s_load_dwordx16"), "s_load_b512");
        assert_eq!(n("s_andn2_saveexec_b64"), "s_and_not1_saveexec_b64");
        assert_eq!(n("v_add_u32_e32"), "v_add_nc_u32_e32");
        assert_eq!(n("v_addc_co_u32_e64"), "v_add_co_ci_u32_e64");
        assert_eq!(
            gfx11_name("v_add_co_u32_e32"),
            ("v_add_co_u32".into(), true)
        );
        assert_eq!(
            gfx11_name("v_add_co_u32_e64"),
            ("v_add_co_u32".into(), false)
        );
    }

    /// A FLAT-segment access has no SGPR address on GFX9: clang encodes 0 in the field, which
    /// gfx1100's FLAT would read as s\[0:1\]; the lowering writes `null`.
    #[test]
    fn flat_accesses_take_no_sgpr_address() {
        // flat_store_dwordx2 v[4:5], v[6:7], as clang-19 encodes it for gfx942.
        let bytes = [0x00, 0x00, 0x74, 0xdc, 0x04, 0x06, 0x00, 0x00];
        let (inst, _) = rdna3_isa::gfx9::decode::decode(&bytes).expect("decodes");
        assert_eq!(inst.get(Field::Saddr), 0);
        let low = lower(&inst, &Kernel::default()).expect("lowers");
        assert_eq!(low.def().name, "flat_store_b64");
        assert_eq!(low.get(Field::Saddr), GFX11_NULL);
        assert_eq!((low.get(Field::Addr), low.get(Field::Data0)), (4, 6));
    }

    /// The hardware registers both chips number alike pass; HW_ID (4), laid out differently,
    /// is refused.
    #[test]
    fn hwregs_pass_where_both_chips_agree() {
        // hwreg(HW_REG_MODE, 4, 2): id 1, offset 4, size 2 (size - 1 in bits 15:11).
        let mode = 1 | 4 << 6 | 1 << 11;
        assert_eq!(hwreg(mode), Ok(mode));
        assert!(hwreg(4).is_err());
        // gfx942's 20 and 21 are not gfx1100's FLAT_SCR_LO/HI.
        assert!(hwreg(21).is_err());
        // XCC_ID reads 0: an s_movk_i32 of 0 into the destination.
        let (getreg, _) = rdna3_isa::gfx9::decode::decode(
            &rdna3_isa::gfx9::parse::parse_instruction(
                "s_getreg_b32 s7, hwreg(HW_REG_XCC_ID, 0, 16)",
            )
            .expect("parses")
            .inst
            .encode(),
        )
        .expect("decodes");
        let low = lower(&getreg, &Kernel::default()).expect("lowers");
        assert_eq!(
            (low.def().name, low.get(Field::Sdst), low.get(Field::Simm16)),
            ("s_movk_i32", 7, 0)
        );
    }

    /// GFX9's ds_cmpst compares with DATA0 and stores DATA1; gfx1100's ds_cmpstore the other
    /// way round: the lowering swaps them.
    #[test]
    fn cmpst_swaps_its_data_operands() {
        // ds_cmpst_rtn_b32 v0, v0, v1, v2 (llvm-mc-19 -mcpu=gfx942): compare v1, store v2.
        let bytes = [0x00, 0x00, 0x60, 0xd8, 0x00, 0x01, 0x02, 0x00];
        let (inst, _) = rdna3_isa::gfx9::decode::decode(&bytes).expect("decodes");
        let low = lower(&inst, &Kernel::default()).expect("lowers");
        assert_eq!(low.def().name, "ds_cmpstore_rtn_b32");
        assert_eq!((low.get(Field::Data0), low.get(Field::Data1)), (2, 1));
    }

    #[test]
    fn waitcnt_fields_move() {
        // vmcnt(0) lgkmcnt(0) expcnt(7) on GFX9: 0x0070.
        assert_eq!(waitcnt(0x0070), 7);
        // vmcnt(63) expcnt(7) lgkmcnt(15): no wait at all.
        assert_eq!(waitcnt(0xcf7f), 63 << 10 | 63 << 4 | 7);
        // vmcnt(17) = 0b010001: low 4 bits 1, high 2 bits 1.
        assert_eq!(waitcnt(0x4f71) >> 10, 17);
    }

    #[test]
    fn sixteen_bit_results_are_recognised() {
        assert!(writes_16_bits("v_add_f16_e32"));
        assert!(writes_16_bits("v_cvt_f16_f32_e32"));
        assert!(!writes_16_bits("v_cvt_f32_f16_e32"));
        assert!(!writes_16_bits("v_cmp_eq_f16_e32"));
        assert!(!writes_16_bits("v_pk_add_f16"));
        assert!(!writes_16_bits("v_mad_u32_u16"));
    }
}
