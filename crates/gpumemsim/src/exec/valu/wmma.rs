//! WMMA (`v_wmma_*_16x16x16_*`): `D = A (16×16) × B (16×16) + C (16×16)` (pseudocode
//! `=== VOP3P 64-69`), in wave32.
//!
//! # Lane layouts (wave32)
//! As AMD's GPUOpen "How to accelerate AI applications on RDNA 3 using WMMA" lays the
//! fragments out, and as Modular's and ROCm FlyDSL's RDNA3 WMMA code (checked on hardware)
//! map the accumulator:
//! - A: lane `l` holds row `l % 16` of A, all 16 K values, packed from the low bits of its
//!   first VGPR up (f16/bf16: two per VGPR, K = 2v, 2v+1; iu8: four, K = 4v..4v+3; iu4:
//!   eight, K = 8v..8v+7). Lanes 16-31 hold the same rows again; we read lanes 0-15.
//! - B: lane `l` holds column `l % 16` of B the same way (lanes 0-15 read).
//! - C and D (8 VGPRs): element `v` of lane `l` is row `2v + l / 16`, column `l % 16`. An f32
//!   or i32 element is the whole VGPR; an f16/bf16 element is the half `op_sel[2]` picks, and
//!   D keeps the other half (LLVM review D158059 packs two matrices this way).
//! - An inline constant C sets every element (an f32/i32 constant, or the f16/bf16 value).
//!
//! # Arithmetic (our choices; the pseudocode gives no order or rounding)
//! Float products of f16/bf16 values are exact in f64; each element's 16 products are added
//! to C in f64, in K order (exact unless the terms' exponents spread beyond f64's 53 bits),
//! and the sum is rounded once to the result type (nearest even, denormals kept, no MODE
//! flushing). Integer dots: A/B signed per `neg_lo[0]`/`neg_lo[1]`, summed in i64 onto
//! the i32 C, wrapping, or saturating with `clamp`.
//!
//! WMMA in wave64, or with EXEC not all ones (the ISA requires all lanes), stops the run as
//! unimplemented rather than guess.

use rdna3_isa::{Field, Instruction};

use super::shape::ValuError;
use crate::fp::bf16::{self, BFLOAT16};
use crate::fp::f16::to_f64 as f16_to_f64;
use crate::fp::round::{round_f64, to_f16, to_f32};
use crate::fp::valu::{f32_to_f16, Round};
use crate::wave::Wave;

/// A WMMA flavour: input type and result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wmma {
    F32F16,
    F32Bf16,
    F16F16,
    Bf16Bf16,
    I32Iu8,
    I32Iu4,
}

impl Wmma {
    /// The flavour a mnemonic names.
    pub fn of(name: &str) -> Option<Wmma> {
        Some(match name {
            "v_wmma_f32_16x16x16_f16" => Wmma::F32F16,
            "v_wmma_f32_16x16x16_bf16" => Wmma::F32Bf16,
            "v_wmma_f16_16x16x16_f16" => Wmma::F16F16,
            "v_wmma_bf16_16x16x16_bf16" => Wmma::Bf16Bf16,
            "v_wmma_i32_16x16x16_iu8" => Wmma::I32Iu8,
            "v_wmma_i32_16x16x16_iu4" => Wmma::I32Iu4,
            _ => return None,
        })
    }

    /// Bits of one A/B element.
    fn bits(self) -> u32 {
        match self {
            Wmma::I32Iu8 => 8,
            Wmma::I32Iu4 => 4,
            _ => 16,
        }
    }
}

/// Executes a WMMA instruction.
pub(super) fn execute(o: Wmma, inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    if w.size != 32 || w.exec() & 0xffff_ffff != 0xffff_ffff {
        return Err(ValuError::Unimplemented);
    }
    let (s0, s1, s2) = (
        inst.get(Field::Src0),
        inst.get(Field::Src1),
        inst.get(Field::Src2),
    );
    let (Some(a), Some(b)) = (s0.checked_sub(256), s1.checked_sub(256)) else {
        return Err(ValuError::Unimplemented);
    };
    let vdst = inst.get(Field::Vdst);
    let hi = inst.get(Field::OpSel) >> 2 & 1 == 1;
    let neg_lo = inst.get(Field::NegLo);
    let clamp = inst.get(Field::Clamp) != 0;
    let bits = o.bits();
    let per = 32 / bits;
    // element k of row/column `lane` of A or B (raw bits).
    let elem = |w: &Wave, base: u32, lane: u32, k: u32| -> u32 {
        let v = w.vgpr(base + k / per, lane);
        (v >> (bits * (k % per))) & ((1u64 << bits) - 1) as u32
    };
    let sh = if hi { 16 } else { 0 };
    let c_uniform = s2.checked_sub(256).is_none().then(|| {
        let raw = w.ssrc32(s2, None);
        let float = (240..=248).contains(&s2);
        match o {
            Wmma::F16F16 if float => f32_to_f16(raw, Round::NearestEven) as u32,
            Wmma::Bf16Bf16 if float => raw >> 16,
            _ => raw,
        }
    });
    let mut out = [[0u32; 32]; 8];
    for (v, row_out) in out.iter_mut().enumerate() {
        for (l, d) in row_out.iter_mut().enumerate() {
            let (row, col) = (2 * v as u32 + l as u32 / 16, l as u32 % 16);
            let c = match c_uniform {
                Some(x) => x,
                None => w.vgpr(s2 - 256 + v as u32, l as u32),
            };
            let old = w.vgpr(vdst + v as u32, l as u32);
            let half16 = |x: u32| (x >> sh) & 0xffff;
            let put16 = |r: u32| (old & !(0xffff << sh)) | (r & 0xffff) << sh;
            let fsum = |to: fn(u32) -> f64, c: f64| {
                (0..16).fold(c, |t, k| {
                    t + to(elem(w, a, row, k)) * to(elem(w, b, col, k))
                })
            };
            let f16v = |x: u32| f16_to_f64(x as u16);
            let bf16v = |x: u32| bf16::to_f64(x as u16);
            let c16 = if c_uniform.is_some() { c } else { half16(c) };
            *d = match o {
                Wmma::F32F16 => to_f32(fsum(f16v, f32::from_bits(c) as f64), 0.0),
                Wmma::F32Bf16 => to_f32(fsum(bf16v, f32::from_bits(c) as f64), 0.0),
                Wmma::F16F16 => put16(to_f16(fsum(f16v, f16v(c16)), 0.0) as u32),
                Wmma::Bf16Bf16 => put16(round_f64(fsum(bf16v, bf16v(c16)), 0.0, BFLOAT16) as u32),
                Wmma::I32Iu8 | Wmma::I32Iu4 => {
                    let ext = |x: u32, signed: bool| -> i64 {
                        if signed {
                            ((x << (32 - bits)) as i32 >> (32 - bits)) as i64
                        } else {
                            x as i64
                        }
                    };
                    let (sa, sb) = (neg_lo & 1 == 1, neg_lo & 2 == 2);
                    let t = (0..16).fold(c as i32 as i64, |t, k| {
                        t + ext(elem(w, a, row, k), sa) * ext(elem(w, b, col, k), sb)
                    });
                    if clamp {
                        t.clamp(i32::MIN as i64, i32::MAX as i64) as u32
                    } else {
                        t as u32
                    }
                }
            };
        }
    }
    for (v, row_out) in out.iter().enumerate() {
        for (l, &x) in row_out.iter().enumerate() {
            w.set_vgpr(vdst + v as u32, l as u32, x);
        }
    }
    Ok(())
}
