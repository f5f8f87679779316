//! gfx942's AGPR moves (`v_accvgpr_read_b32`, `_write_b32`, `_mov_b32`) that name an AGPR
//! past v255 of the unified register file, which gfx1100's `v_mov_b32` (the lowering of the
//! others, `crate::target::gfx9`) cannot reach: they run as they are.

use rdna3_isa::{Field, Instruction};

use super::shape::ValuError;
use crate::wave::Wave;

/// gfx942's `v_accvgpr_read_b32`/`_write_b32`/`_mov_b32` naming an AGPR past v255 (the
/// lowering makes the others `v_mov_b32`): AGPR a\[n\] is VGPR `accum_offset + n` of the
/// unified file.
pub fn execute_accvgpr(inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    let (dst, src) = (inst.get(Field::Vdst), inst.get(Field::Src0));
    let name = inst.def().name;
    let off = w.accum_offset;
    let (dst, src) = match name {
        _ if name.starts_with("v_accvgpr_read") => (dst, src + off),
        _ if name.starts_with("v_accvgpr_write") => (dst + off, src),
        _ => (dst + off, src + off),
    };
    let exec = w.exec();
    for l in (0..w.size).filter(|l| exec >> l & 1 == 1) {
        let v = match src.checked_sub(256) {
            Some(r) => w.vgpr(r, l),
            None => w.ssrc32(src, inst.literal),
        };
        w.set_vgpr(dst, l, v);
    }
    Ok(())
}
