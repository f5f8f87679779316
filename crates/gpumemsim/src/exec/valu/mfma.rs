//! gfx942's matrix fused multiply-adds (`v_mfma_*`), the single-block forms clang emits for
//! `__builtin_amdgcn_mfma_*`: D = A·B + C over an M×N tile (M = N = 16 or 32) with K terms,
//! spread over the 64 lanes as AMD's CDNA3 ISA guide ("Matrix fused-multiply-add", the
//! register layouts its matrix instruction calculator prints) lays them out:
//! - A (M×K): lane l holds row `l % M`, terms `(l / M) · K/G ..` (G = 64 / M lane groups),
//!   K/G consecutive values packed into its registers (f16/bf16 two per VGPR, i8 four);
//! - B (K×N): lane l holds column `l % N`, the same terms;
//! - C and D (M×N, f32 or i32, one per VGPR): lane l holds column `l % N`; register r holds
//!   row `(r / 4) · 4G + 4 · (l / N) + r % 4`.
//!
//! Arithmetic: integer products and sums wrap to 32 bits. Float products are rounded to f32
//! (exact for f16 and bf16 inputs, whose products fit f32's precision); the sum is formed in
//! term order onto C, rounded to f32 at each addition, round-to-nearest-even, denormals kept. The hardware's order of additions inside one
//! instruction is not documented: this is our choice, pinned by the tests, and exact for
//! every input whose partial sums are representable (the tests' integers).
//!
//! The lowering (`crate::target::gfx9`) has moved every AGPR operand to its VGPR, so the
//! instruction's registers here are VGPR numbers. The broadcast controls (`cbsz`, `abid`,
//! `blgp`) are refused there unless 0.

use rdna3_isa::{Field, Instruction};

use super::shape::ValuError;
use crate::fp::arith as fa;
use crate::fp::bf16;
use crate::fp::convert::f16_to_f32_mode;
use crate::fp::DenormCtl;
use crate::wave::Wave;

/// A matrix operation's element types and tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Mfma {
    /// Rows of D (= columns).
    m: u32,
    /// Terms of each dot product.
    k: u32,
    /// What A and B hold.
    ty: In,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum In {
    F32,
    F16,
    Bf16,
    I8,
}

impl Mfma {
    /// The operation `name` names, for the forms implemented.
    pub(super) fn of(name: &str) -> Option<Mfma> {
        let (m, k, ty) = match name {
            "v_mfma_f32_16x16x4_f32" => (16, 4, In::F32),
            "v_mfma_f32_32x32x2_f32" => (32, 2, In::F32),
            "v_mfma_f32_16x16x16_f16" => (16, 16, In::F16),
            "v_mfma_f32_32x32x8_f16" => (32, 8, In::F16),
            "v_mfma_f32_16x16x16_bf16" => (16, 16, In::Bf16),
            "v_mfma_f32_32x32x8_bf16" => (32, 8, In::Bf16),
            "v_mfma_i32_16x16x32_i8" => (16, 32, In::I8),
            "v_mfma_i32_32x32x16_i8" => (32, 16, In::I8),
            _ => return None,
        };
        Some(Mfma { m, k, ty })
    }

    /// Lane groups of the wave (64 / M).
    fn groups(self) -> u32 {
        64 / self.m
    }

    /// Terms each lane holds of A (and of B).
    fn per_lane(self) -> u32 {
        self.k / self.groups()
    }

    /// Bits of one element of A and B.
    fn bits(self) -> u32 {
        match self.ty {
            In::F32 => 32,
            In::F16 | In::Bf16 => 16,
            In::I8 => 8,
        }
    }

    /// Element `j` (of [`Mfma::per_lane`]) a lane holds from registers starting at `reg`.
    fn element(self, w: &Wave, reg: u32, lane: u32, j: u32) -> u32 {
        let bits = self.bits();
        let at = j * bits;
        let word = w.vgpr(reg + at / 32, lane);
        if bits == 32 {
            word
        } else {
            word >> (at % 32) & ((1 << bits) - 1)
        }
    }

    /// The f32 value of an A or B element.
    fn float(self, x: u32) -> u32 {
        match self.ty {
            In::F32 => x,
            In::F16 => f16_to_f32_mode(x as u16, DenormCtl::FLUSH_NONE),
            In::Bf16 => bf16::to_f32_bits(x as u16),
            In::I8 => unreachable!("an integer matrix"),
        }
    }
}

/// Executes matrix operation `op` of `inst` on wave `w` (wave64; every lane, as the
/// hardware ignores EXEC for matrix instructions: AMD's CDNA3 ISA guide).
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
    let (m, g, per) = (op.m, op.groups(), op.per_lane());
    let regs = m * m / 64;
    // Gather A (M×K) and B (K×N) as matrices, C as the accumulator tile.
    let mut am = vec![0u32; (m * op.k) as usize];
    let mut bm = vec![0u32; (op.k * m) as usize];
    for lane in 0..64 {
        let (rc, grp) = (lane % m, lane / m);
        for j in 0..per {
            let kk = grp * per + j;
            am[(rc * op.k + kk) as usize] = op.element(w, a, lane, j);
            bm[(kk * m + rc) as usize] = op.element(w, b, lane, j);
        }
    }
    let row_of = |r: u32, lane: u32| (r / 4) * 4 * g + 4 * (lane / m) + r % 4;
    let mut cm = vec![0u32; (m * m) as usize];
    for lane in 0..64 {
        for r in 0..regs {
            let v = match c.checked_sub(256) {
                Some(reg) => w.vgpr(reg + r, lane),
                None => w.ssrc32(c, inst.literal),
            };
            cm[(row_of(r, lane) * m + lane % m) as usize] = v;
        }
    }
    let ctl = DenormCtl::FLUSH_NONE;
    let mut dm = vec![0u32; (m * m) as usize];
    for i in 0..m {
        for j in 0..m {
            let mut acc = cm[(i * m + j) as usize];
            for kk in 0..op.k {
                let (x, y) = (am[(i * op.k + kk) as usize], bm[(kk * m + j) as usize]);
                acc = match op.ty {
                    In::I8 => {
                        let p = (x as u8 as i8 as i32).wrapping_mul(y as u8 as i8 as i32);
                        (acc as i32).wrapping_add(p) as u32
                    }
                    _ => {
                        let p = fa::bin32(op.float(x), op.float(y), ctl, |p, q| p * q);
                        fa::bin32(acc, p, ctl, |p, q| p + q)
                    }
                };
            }
            dm[(i * m + j) as usize] = acc;
        }
    }
    for lane in 0..64 {
        for r in 0..regs {
            w.set_vgpr(d + r, lane, dm[(row_of(r, lane) * m + lane % m) as usize]);
        }
    }
    Ok(())
}
