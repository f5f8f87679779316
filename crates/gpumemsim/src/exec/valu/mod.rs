//! The vector ALU in every encoding the table holds — VOP1, VOP2, VOPC (e32), their VOP3
//! forms (`_e64`), the VOP3-only and VOP3SD instructions, VOP3P ([`vop3p`], [`wmma`]), the
//! DPP16/DPP8 forms of all of them ([`dpp`]) and the VOPD dual issue — executed per AMD's
//! pseudocode (`../shared/reference/rdna3-isa-pseudocode.txt`).
//!
//! An instruction is classified once per table entry ([`class`]) into an [`op::Op`] — its
//! operation, in one of the families below, whatever its encoding — and its operand
//! [`shape::Shape`]; an instruction of the program is decoded once ([`decoded`]: its fields
//! and sources, kept per program counter by the device). Execution gathers every lane's
//! sources (e32: `src0` and the VGPR `vsrc1`; VOP3: `src0..src2` with `abs`/`neg` on the
//! sources the table says take them; scalar and constant sources read once), runs the
//! family's per-lane `match` over the lanes in EXEC, applies the output modifier and
//! `clamp`, and writes the results back row by row.
//!
//! Families and where they live:
//! - [`int`]: 32/64-bit integer and bit operations, carries, 24-bit multiplies, `v_perm`,
//!   `v_mbcnt`, three-input selections;
//! - [`int16`]: 16-bit integer operations (`v_mul_lo_u16`, shifts, min/max, `v_cndmask_b16`,
//!   `v_sat_pk_u8_i16`, and the `op_sel` forms `v_add_nc_u16`, `v_mad_u16`, ...);
//! - [`sad`]: `v_sad_*`, `v_msad_u8`, `v_qsad`/`v_mqsad`, `v_lerp_u8`;
//! - [`f16`], [`f32`], [`f64`]: float arithmetic, the transcendental unit, the division
//!   helpers, cube-map operations;
//! - [`convert`]: conversions between types;
//! - [`compare`]: every `v_cmp_*`/`v_cmpx_*`;
//! - [`cross_lane`] and [`movrel`]: operations over the whole wave (`v_readlane`,
//!   `v_permlane*`, `v_movrel*`, `v_swap*`), and `v_mqsad_u32_u8` (128-bit results) in
//!   [`sad`];
//! - [`vop3p`]: packed 16-bit math, dot products, `v_fma_mix*`; [`wmma`]: the matrix ops.
//!
//! A DPP form gathers source 0 through the lane remap of [`dpp`] (worked out once per
//! instruction) and then runs as the plain form, for the lanes the DPP masks leave. The
//! `sext` modifier of the DPP forms that take it (`v_mov_b16_dpp`, `v_ldexp_f16_dpp`) is
//! ignored, as the VOP3 `sext` bits are.
//!
//! 16-bit operands are register halves ([`class`] explains how the half is chosen); a 16-bit
//! result keeps the other half of its destination.
//!
//! Float arithmetic runs in round-to-nearest-even only: a MODE.FP_ROUND other than
//! nearest-even stops an instruction that rounds as unimplemented rather than give wrong
//! bits, as does an output modifier on an integer result. Compares write VCC (e32), their
//! SGPR destination (e64) or EXEC (`v_cmpx`); bits of inactive lanes are 0.

mod agpr;
mod class;
mod compare;
mod convert;
mod cross_lane;
mod decoded;
mod dpp;
mod f16;
mod f32;
mod f64;
mod fast;
mod int;
mod int16;
mod mfma;
mod movrel;
mod names;
mod op;
mod regs;
mod sad;
mod sdwa;
mod shape;
pub use sdwa::execute_sdwa;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fast;
#[cfg(test)]
mod tests_gfx9;
mod vop3p;
mod wmma;

use std::sync::OnceLock;

use rdna3_isa::{Field, Format, Instruction, Opcode};

use crate::fp::{arith as fa, f16::out_mods16};
use crate::wave::{Wave, VCC_LO};
pub use agpr::execute_accvgpr;
use class::Class;
use decoded::Component;
use decoded::Form;
pub use decoded::{decoded_at, Decoded};
use op::{Op, WholeOp};
use regs::{gather, get_mask, half_of, locate, read, scatter, scatter16, set_mask, Loc};
pub use shape::ValuError;
use shape::{Ctx, MaskIn, Res};
pub use vop3p::execute_vop3p;

/// Runs `f(sources, mask bit, lane)` for the lanes in `exec`, storing results in `out`;
/// returns the lanes whose carry/flag bit `f` set.
#[inline(always)]
fn run(
    exec: u64,
    src: &[[u64; 64]; 3],
    mask_in: u64,
    out: &mut [u64; 64],
    f: impl Fn([u64; 3], bool, u32) -> (u64, bool),
) -> u64 {
    let mut mask_out = 0u64;
    let mut lanes = exec;
    while lanes != 0 {
        let l = lanes.trailing_zeros();
        lanes &= lanes - 1;
        let li = l as usize & 63;
        let (r, bit) = f(
            [src[0][li], src[1][li], src[2][li]],
            mask_in >> l & 1 == 1,
            l,
        );
        out[li] = r;
        mask_out |= (bit as u64) << l;
    }
    mask_out
}

/// The destination VGPR and, for a 16-bit result, which half.
fn destination(inst: &Instruction, c: &Class, op_sel: u32) -> (u32, bool) {
    let vdst = inst.get(Field::Vdst);
    match (c.shape.dst16, c.vop3) {
        (true, false) => half_of(vdst),
        (true, true) => (vdst, op_sel >> 3 & 1 == 1),
        (false, _) => (vdst, false),
    }
}

/// Executes a VOP1/VOP2/VOPC/VOP3 instruction for the lanes in EXEC (decoding it first:
/// the executor keeps the decoded form, [`execute_decoded`]).
#[cfg(test)]
pub fn execute(inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    execute_decoded(inst, w, &Decoded::of(inst))
}

/// Executes VOP1/VOP2/VOPC/VOP3 instruction `inst`, decoded as `d` ([`Decoded::of`]), for
/// the lanes in EXEC.
#[inline]
pub fn execute_decoded(inst: &Instruction, w: &mut Wave, d: &Decoded) -> Result<(), ValuError> {
    match &d.0 {
        Form::Rows(p) if w.size == 32 => fast::rows::<32>(inst, w, p),
        Form::Rows(p) if w.size == 64 => fast::rows::<64>(inst, w, p),
        Form::Fast(p) if matches!(w.size, 32 | 64) => fast::execute(inst, w, p),
        Form::Fast(p) | Form::Rows(p) => general(inst, w, p.class),
        Form::General(c) => general(inst, w, c),
        Form::Unimplemented | Form::Vopd(..) => Err(ValuError::Unimplemented),
    }
}

/// [`execute`] of any instruction of class `c`, the general way: every source gathered into
/// a row of 64-bit values per lane, the result written back from one.
fn general(inst: &Instruction, w: &mut Wave, c: &Class) -> Result<(), ValuError> {
    // DPP16/DPP8 forms (src0 = 250/233/234 with a DPP dword) read source 0 across lanes
    // ([`dpp`]): the remap and the lanes that execute, worked out once.
    let dpp = match inst.dpp() {
        Some(d) => Some((
            d,
            dpp::remap(&d, w.size, w.exec(), w.gfx9_dpp).ok_or(ValuError::Unimplemented)?,
        )),
        None => None,
    };
    let shape = c.shape;
    if shape.rounds && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    let op_sel = if c.vop3 && !c.sdst {
        inst.get(Field::OpSel)
    } else {
        0
    };
    let (clamp, omod) = if c.vop3 {
        (inst.get(Field::Clamp) != 0, inst.get(Field::Omod))
    } else {
        (false, 0)
    };
    if omod != 0 && matches!(shape.res, Res::Int | Res::Mask) {
        return Err(ValuError::Unimplemented);
    }
    let mut locs = [
        locate(inst, w, c, 0, op_sel),
        locate(inst, w, c, 1, op_sel),
        locate(inst, w, c, 2, op_sel),
    ];
    if let Some((d, _)) = &dpp {
        locs[0] = dpp_src0(c, d.src0, op_sel);
    }
    let remap = dpp.as_ref().map(|(_, m)| m);
    if let Op::Whole(o) = c.op {
        return whole(o, inst, w, c, locs, clamp, remap);
    }
    let (abs, neg) = match &dpp {
        // e32 DPP16: the DPP dword's bits (bit 0 source 0, bit 1 source 1).
        Some((d, _)) if !c.vop3 => (d.abs, d.neg),
        _ if c.vop3 && !c.sdst => (inst.get(Field::Abs), inst.get(Field::Neg)),
        _ if c.vop3 => (0, inst.get(Field::Neg)),
        _ => (0, 0),
    };
    let cx = Ctx::new(w.mode, inst.literal.unwrap_or(0), clamp);
    let dx10 = w.mode >> 8 & 1 == 1;
    let mask_in = match shape.mask {
        MaskIn::None => 0,
        MaskIn::VccOrSrc2 if c.vop3 => get_mask(w, inst.get(Field::Src2)),
        MaskIn::VccOrSrc2 | MaskIn::Vcc => w.vcc(),
    };
    let (vdst, dst_hi) = destination(inst, c, op_sel);
    let exec = remap.map_or(w.exec(), |m| m.exec);
    // Gather every lane's sources (a VGPR's row or a uniform value), compute the active
    // lanes, write the results back row by row: the loops over rows vectorize.
    let n = w.size as usize;
    let mut src = [[0u64; 64]; 3];
    gather_sources(w, c, &locs, remap, (abs, neg), &mut src);
    if shape.acc {
        // The e32 accumulating forms read their destination as source 2.
        let acc = Loc::Vgpr {
            reg: vdst,
            hi: dst_hi,
        };
        gather(w, acc, 1, shape.dst16, &mut src[2][..n]);
    }
    let mut out = [0u64; 64];
    let mask_out = eval_lanes(c.op, exec, &src, mask_in, &cx, &mut out);
    if omod != 0 || clamp {
        output_modifiers(&mut out, exec, shape.res, omod, clamp, dx10, &cx);
    }
    write_results(w, inst, c, exec, (vdst, dst_hi), &out, mask_out);
    Ok(())
}

/// Gathers every lane's sources `locs` (a VGPR's row or a uniform value; source 0 through
/// the DPP `remap` when there is one) into `src`, with the `abs` and `neg` source modifiers
/// (bit i for source i) applied.
#[inline(always)]
fn gather_sources(
    w: &Wave,
    c: &Class,
    locs: &[Loc; 3],
    remap: Option<&dpp::Remap>,
    (abs, neg): (u32, u32),
    src: &mut [[u64; 64]; 3],
) {
    let n = w.size as usize;
    for (i, row) in src.iter_mut().enumerate() {
        let half = c.shape.src16 >> i & 1 == 1;
        match remap {
            Some(m) if i == 0 => {
                let mut own = [0u64; 64];
                gather(w, locs[0], c.dwords[0], half, &mut own[..n]);
                dpp::apply(m, &own[..n], &mut row[..n]);
            }
            _ => gather(w, locs[i], c.dwords[i], half, &mut row[..n]),
        }
        // abs clears the sign bit, neg flips it (abs first).
        let and = if abs >> i & 1 == 1 { !c.sign[i] } else { !0 };
        let xor = if neg >> i & 1 == 1 { c.sign[i] } else { 0 };
        if and != !0 || xor != 0 {
            row[..n].iter_mut().for_each(|x| *x = (*x & and) ^ xor);
        }
    }
}

/// Runs operation `op` over the lanes in `exec` of the gathered sources `src`, into `out`;
/// returns the lanes whose carry or compare bit it set.
#[inline(always)]
fn eval_lanes(
    op: Op,
    exec: u64,
    src: &[[u64; 64]; 3],
    mask_in: u64,
    cx: &Ctx,
    out: &mut [u64; 64],
) -> u64 {
    match op {
        Op::Int(o) => run(exec, src, mask_in, out, |s, m, l| o.eval(s, m, l, cx)),
        Op::I16(o) => run(exec, src, mask_in, out, |s, m, _| (o.eval(s, m, cx), false)),
        Op::Sad(o) => run(exec, src, 0, out, |s, _, _| (o.eval(s, cx), false)),
        Op::F16(o) => run(exec, src, 0, out, |s, _, _| (o.eval(s, cx), false)),
        Op::F32(o) => run(exec, src, mask_in, out, |s, m, _| o.eval(s, m, cx)),
        Op::F64(o) => run(exec, src, mask_in, out, |s, m, _| o.eval(s, m, cx)),
        Op::Cvt(o) => run(exec, src, 0, out, |s, _, _| (o.eval(s, cx), false)),
        Op::Cmp(p, t) => run(exec, src, 0, out, |s, _, _| {
            (0, compare::compare(p, t, s[0], s[1], cx))
        }),
        Op::Whole(_) => 0,
    }
}

/// Writes the lanes in `exec` of `out` to the destination VGPR `(vdst, hi half)`, and the
/// lane mask `mask_out` where the instruction writes one (VCC, its SGPR destination or EXEC).
fn write_results(
    w: &mut Wave,
    inst: &Instruction,
    c: &Class,
    exec: u64,
    (vdst, dst_hi): (u32, bool),
    out: &[u64; 64],
    mask_out: u64,
) {
    let n = w.size as usize;
    let shape = c.shape;
    if c.dst_dwords != 0 && exec != 0 {
        let mask = exec & (u64::MAX >> (64 - n));
        if shape.dst16 {
            scatter16(w, vdst, dst_hi, mask, &out[..n]);
        } else {
            scatter(w, vdst, mask, &out[..n], 0);
            if c.dst_dwords == 2 {
                scatter(w, vdst + 1, mask, &out[..n], 32);
            }
        }
    }
    write_mask(w, c, inst.get(Field::Vdst), inst.get(Field::Sdst), mask_out);
}

/// Writes the lane mask `mask_out` where an instruction of class `c` writes one: EXEC
/// (`v_cmpx`), the SGPR destination of a VOP3 compare (field `vdst`) or of VOP3SD (`sdst`),
/// or VCC (e32 compares and carries).
fn write_mask(w: &mut Wave, c: &Class, vdst: u32, sdst: u32, mask_out: u64) {
    match c.op {
        Op::Cmp(..) if c.cmpx => w.set_exec(mask_out),
        Op::Cmp(..) if c.vop3 => set_mask(w, vdst, mask_out),
        Op::Cmp(..) => set_mask(w, VCC_LO, mask_out),
        _ if c.sdst => set_mask(w, sdst, mask_out),
        _ if c.shape.mask == MaskIn::VccOrSrc2 && !c.vop3 && mask_out_written(c.op) => {
            set_mask(w, VCC_LO, mask_out)
        }
        _ => {}
    }
}

/// Source 0 of a DPP form: the DPP dword's VGPR, a register half for a 16-bit operand (e32:
/// bit 7 of the number, as everywhere in e32; VOP3: `op_sel` bit 0).
fn dpp_src0(c: &Class, reg: u32, op_sel: u32) -> Loc {
    match (c.shape.src16 & 1 == 1, c.vop3) {
        (true, false) => {
            let (reg, hi) = half_of(reg);
            Loc::Vgpr { reg, hi }
        }
        (true, true) => Loc::Vgpr {
            reg,
            hi: op_sel & 1 == 1,
        },
        (false, _) => Loc::Vgpr { reg, hi: false },
    }
}

/// Whether the e32 form writes its carry-out to VCC (`v_add_co_ci_u32_e32` and the subs).
fn mask_out_written(op: Op) -> bool {
    use int::IntOp::*;
    matches!(op, Op::Int(AddCi | SubCi | SubrevCi))
}

/// The VOP3 output modifier (1 ×2, 2 ×4, 3 ÷2) and `clamp` on the float results of the
/// lanes in `exec` (integer `clamp` was applied by the operation).
fn output_modifiers(
    out: &mut [u64; 64],
    exec: u64,
    res: Res,
    omod: u32,
    clamp: bool,
    dx10: bool,
    cx: &Ctx,
) {
    let mut lanes = exec;
    while lanes != 0 {
        let l = lanes.trailing_zeros() as usize & 63;
        lanes &= lanes - 1;
        let r = out[l];
        out[l] = match res {
            Res::F16 => out_mods16(r as u16, omod, clamp, dx10, cx.ctl16) as u64,
            Res::PkF16 => {
                let h = |x: u64| out_mods16(x as u16, omod, clamp, dx10, cx.ctl16) as u64;
                h(r) | h(r >> 16) << 16
            }
            Res::F32 => fa::out_mods32(r as u32, omod, clamp, dx10, cx.ctl32) as u64,
            Res::F64 => fa::out_mods64(r, omod, clamp, dx10, cx.ctl64),
            Res::Int | Res::Mask => r,
        };
    }
}

/// Executes an operation over the whole wave (with DPP only the register-indexed moves,
/// the only ones of these with DPP forms).
fn whole(
    o: WholeOp,
    inst: &Instruction,
    w: &mut Wave,
    c: &Class,
    locs: [Loc; 3],
    clamp: bool,
    dpp: Option<&dpp::Remap>,
) -> Result<(), ValuError> {
    let movrel = matches!(
        o,
        WholeOp::Movreld | WholeOp::Movrels | WholeOp::Movrelsd | WholeOp::Movrelsd2
    );
    if dpp.is_some() && !movrel {
        return Err(ValuError::Unimplemented);
    }
    match o {
        WholeOp::Readfirstlane
        | WholeOp::Readlane
        | WholeOp::Writelane
        | WholeOp::Permlane64
        | WholeOp::Permlane16
        | WholeOp::Permlanex16 => cross_lane::execute(o, inst, w, locs),
        WholeOp::Nop => {}
        WholeOp::MqsadU32U8 => {
            let src2 = match locs[2] {
                Loc::Vgpr { reg, .. } => reg,
                _ => 0,
            };
            let dwords = c.dwords;
            sad::mqsad_u32_u8(w, inst.get(Field::Vdst), src2, clamp, |w, i, l| {
                read(w, locs[i], l, dwords[i])
            });
        }
        _ => movrel::execute(o, inst, w, locs[0], dpp),
    }
    Ok(())
}

/// The operation of a VOPD component (table entry `v_dual_<name>`), worked out once.
fn vopd_op(opcode: Opcode) -> Option<Op> {
    static CACHE: OnceLock<Vec<Option<Op>>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            rdna3_isa::def::every()
                .map(|(_, d)| d)
                .map(|d| {
                    let base = d.name.strip_prefix("v_dual_")?;
                    (d.format == Format::Vopd)
                        .then(|| names::op_of(&format!("v_{base}")))
                        .flatten()
                })
                .collect()
        })
        .get(opcode.0 as usize)
        .copied()
        .flatten()
}

/// Executes a VOPD instruction: both operations read their sources, for every lane in
/// EXEC, before either writes (they issue together), as their e32 forms do (`v_dual_fmac`
/// and `v_dual_dot2acc` accumulate into their destination, `v_dual_cndmask` selects by VCC,
/// `fmaak`/`fmamk` take the literal K). `d`: the instruction decoded
/// ([`Decoded::of_vopd`]).
#[inline]
pub fn execute_vopd_decoded(
    inst: &Instruction,
    w: &mut Wave,
    d: &Decoded,
) -> Result<(), ValuError> {
    let Form::Vopd([x, y], rounds) = &d.0 else {
        return Err(ValuError::Unimplemented);
    };
    if *rounds && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    let parts = [x.component(w), y.component(w)];
    let cx = Ctx::new(w.mode, inst.literal.unwrap_or(0), false);
    match w.size {
        32 => fast::vopd::<32>(w, &parts, &cx),
        64 => fast::vopd::<64>(w, &parts, &cx),
        _ => vopd_general(w, &parts, &cx),
    }
    Ok(())
}

/// The components of a VOPD instruction run lane by lane (a wave of any size): the
/// reference [`fast::vopd`] is tested against.
fn vopd_general(w: &mut Wave, parts: &[Component; 2], cx: &Ctx) {
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
            out[l as usize & 63] = p.op.eval([a, b, c], vcc >> l & 1 == 1, l, cx).0 as u32;
        }
    }
    for (p, out) in parts.iter().zip(results.iter()) {
        let mut lanes = exec;
        while lanes != 0 {
            let l = lanes.trailing_zeros();
            lanes &= lanes - 1;
            w.set_vgpr(p.vdst, l, out[l as usize & 63]);
        }
    }
}
