//! V_INTERP_* (the VINTERP encoding): parameter interpolation FMAs that read P0/P10/P20 from
//! lanes of the quad (docs/rules/ds.md#parameter-interpolation; pseudocode VINTERP 0-5):
//! - `v_interp_p10_f32 D, P10src, I, P0src`: D = fma(VGPR[quad+1][src0], S1, VGPR[quad][src2])
//! - `v_interp_p2_f32 D, P20src, J, T`: D = fma(VGPR[quad+2][src0], S1, S2)
//! - the `_f16_f32` forms read f16 halves of the P sources (op_sel\[0\] for src0, op_sel\[2\] for
//!   src2 selects the high half); `p2_f16` rounds its result to f16 and writes the half of D
//!   that op_sel\[3\] selects, keeping the other half;
//! - the `_rtz_` forms round toward zero instead of to nearest-even
//!   (docs/rules/ds.md#16-bit-interpolation).
//!
//! The quad-lane reads behave as DPP8 with "fetch invalid" = 1: they read lanes whose EXEC
//! bit is 0. `neg` negates a source; `clamp` clamps the result to [0, 1]; `wait_exp` waits for
//! EXPcnt ≤ N first (done by the executor). Denormals follow MODE.FP_DENORM (f32 bits for
//! f32 arithmetic). Choice: the pseudocode line for `p2_rtz` writes f32; we read it as the f16
//! result of `p2_f16` with toward-zero rounding, as the spec describes the RTZ variants as
//! rounding overrides of the f16 forms.

use rdna3_isa::{Field, Instruction};

use crate::fp::valu::{f16_to_f32, f32_to_f16, fma_f32, Round};
use crate::fp::DenormCtl;
use crate::wave::Wave;

/// Executes a VINTERP instruction on every lane in EXEC.
pub fn execute(inst: &Instruction, w: &mut Wave) {
    let name = inst.def().name;
    let p2 = name.starts_with("v_interp_p2");
    let f16 = name.contains("f16");
    let round = if name.contains("rtz") {
        Round::TowardZero
    } else {
        Round::NearestEven
    };
    let vdst = inst.get(Field::Vdst);
    let src = |f: Field| inst.get(f).wrapping_sub(256);
    let (s0, s1, s2) = (src(Field::Src0), src(Field::Src1), src(Field::Src2));
    let neg = inst.get(Field::Neg);
    let opsel = inst.get(Field::OpSel);
    let clamp = inst.get(Field::Clamp) == 1;
    let ctl = DenormCtl::from_mode_f32(w.mode);
    let exec = w.exec();
    let half = |v: u32, hi: bool| -> u32 { f16_to_f32((if hi { v >> 16 } else { v }) as u16) };
    let mut results = Vec::with_capacity(w.size as usize);
    for l in 0..w.size {
        let quad = l & !3;
        let p = w.vgpr(s0, quad + if p2 { 2 } else { 1 });
        let mut a = if f16 { half(p, opsel & 1 != 0) } else { p };
        let mut b = w.vgpr(s1, l);
        let mut c = if p2 {
            w.vgpr(s2, l)
        } else {
            let p0 = w.vgpr(s2, quad);
            if f16 {
                half(p0, opsel & 4 != 0)
            } else {
                p0
            }
        };
        for (k, x) in [&mut a, &mut b, &mut c].into_iter().enumerate() {
            if neg >> k & 1 == 1 {
                *x ^= 0x8000_0000;
            }
        }
        let mut r = fma_f32(a, b, c, round, ctl.flush_input, ctl.flush_output);
        if clamp {
            let f = f32::from_bits(r);
            r = if f.is_nan() {
                0
            } else {
                f.clamp(0.0, 1.0).to_bits()
            };
        }
        results.push(r);
    }
    for l in (0..w.size).filter(|l| exec >> l & 1 == 1) {
        let r = results[l as usize];
        let v = if p2 && f16 {
            let h = f32_to_f16(r, round) as u32;
            let old = w.vgpr(vdst, l);
            if opsel & 8 != 0 {
                (old & 0xffff) | h << 16
            } else {
                (old & 0xffff_0000) | h
            }
        } else {
            r
        };
        w.set_vgpr(vdst, l, v);
    }
}
