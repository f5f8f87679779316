//! Which VGPRs an instruction's operands name: one walk over the table's operand kinds, for
//! everything that needs to know what an instruction reads or writes in the vector register
//! file (the executor's data-in-flight check, the LDS parameter load's `wait_vdst` rule).
//! What the registers mean stays with the machine; this only reads the encoding.

use crate::fields::Field;
use crate::format::Format;
use crate::inst::{Instruction, SGPR_NULL};
use crate::schema::{Kind, Operand};

/// A range of VGPRs one operand names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VgprOperand {
    /// The operand's field (a VOPD pair's Y operands as their X names: `Vdst`, `Src0`,
    /// `Vsrc1`).
    pub field: Field,
    /// First register.
    pub first: u32,
    /// Registers named (0 when the operand is `off` or not a VGPR this time).
    pub count: u32,
}

impl VgprOperand {
    /// Whether the operand is the destination field `Vdst` (what a VALU writes; memory
    /// instructions' data fields are the caller's to classify).
    pub fn is_vdst(&self) -> bool {
        self.field == Field::Vdst
    }

    /// Whether register `reg` is in the range.
    pub fn contains(&self, reg: u32) -> bool {
        (self.first..self.first + self.count).contains(&reg)
    }
}

impl Instruction {
    /// The VGPR ranges the operands name, in operand order (both halves of a VOPD pair; the
    /// DPP source in place of `src0`; a 9-bit source only when it holds a VGPR; a return
    /// register only with `glc`; FLAT and buffer addresses as wide as their fields make them).
    pub fn vgpr_operands(&self) -> Vec<VgprOperand> {
        let d = self.def();
        let mut out = Vec::new();
        operand_vgprs(self, d.operands, |f| self.get(f), &mut out);
        if d.format == Format::Vopd {
            if let Some(y) = self.vopd_y() {
                let field_y = |f: Field| match f {
                    Field::Vdst => self.vopd_vdst_y(),
                    Field::Src0 => self.get(Field::Src0Y),
                    Field::Vsrc1 => self.get(Field::Vsrc1Y),
                    other => self.get(other),
                };
                operand_vgprs(self, y.def().operands, field_y, &mut out);
            }
        }
        out
    }
}

/// Appends the VGPR ranges of `operands` (field values from `get`) to `out`.
fn operand_vgprs(
    inst: &Instruction,
    operands: &[Operand],
    get: impl Fn(Field) -> u32,
    out: &mut Vec<VgprOperand>,
) {
    let d = inst.def();
    let dpp = inst.dpp_kind().is_some();
    for o in operands {
        let v = get(o.field);
        let (first, count) = match o.kind {
            Kind::V(n) => (v, n as u32),
            Kind::VRtn(n) if inst.get(Field::Glc) == 1 => (v, n as u32),
            Kind::VLoHi(n) => (v & 0x7f, n as u32),
            Kind::VSrc(n, _) | Kind::WmmaAB(n) | Kind::WmmaC(n) | Kind::VinterpSrc(n) => {
                if o.field == Field::Src0 && dpp {
                    (inst.get(Field::DppSrc0), n as u32)
                } else if v >= 256 {
                    (v - 256, n as u32)
                } else {
                    continue;
                }
            }
            Kind::FlatVaddr => {
                let n = match d.format {
                    Format::Scratch => u32::from(inst.get(Field::Sve) == 1),
                    Format::Global if inst.get(Field::Saddr) != SGPR_NULL => 1,
                    _ => 2,
                };
                (v, n)
            }
            Kind::BufVaddr => (v, inst.get(Field::Idxen) + inst.get(Field::Offen)),
            _ => continue,
        };
        out.push(VgprOperand {
            field: o.field,
            first,
            count,
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::asm::assemble;

    /// (field name, first, count) of each VGPR operand of the one instruction in `text`.
    fn ranges(text: &str) -> Vec<(&'static str, u32, u32)> {
        let prog = assemble(text);
        assert!(prog.errors.is_empty(), "{text}: {:?}", prog.errors);
        prog.lines[0]
            .inst
            .vgpr_operands()
            .iter()
            .map(|o| (o.field.name(), o.first, o.count))
            .collect()
    }

    #[test]
    fn addresses_are_as_wide_as_their_fields_make_them() {
        assert_eq!(
            ranges("global_load_b64 v[4:5], v1, s[2:3]"),
            [("vdst", 4, 2), ("addr", 1, 1)]
        );
        assert_eq!(
            ranges("global_load_b32 v4, v[6:7], off"),
            [("vdst", 4, 1), ("addr", 6, 2)]
        );
        assert_eq!(
            ranges("buffer_load_b32 v4, v[2:3], s[8:11], 0 idxen offen"),
            [("vdata", 4, 1), ("vaddr", 2, 2)]
        );
        assert_eq!(
            ranges("scratch_load_b32 v4, off, s2"),
            [("vdst", 4, 1), ("addr", 0, 0)]
        );
    }

    #[test]
    fn constants_are_no_vgprs_and_returns_need_glc() {
        assert_eq!(
            ranges("v_add_f32_e64 v1, 1.0, s3"),
            [("vdst", 1, 1)],
            "an inline constant and an SGPR"
        );
        assert_eq!(
            ranges("v_fma_f64 v[2:3], v[4:5], v[6:7], v[8:9]"),
            [
                ("vdst", 2, 2),
                ("src0", 4, 2),
                ("src1", 6, 2),
                ("src2", 8, 2)
            ]
        );
        assert_eq!(
            ranges("global_atomic_add_u32 v1, v2, s[0:1]"),
            [("addr", 1, 1), ("data0", 2, 1)]
        );
        assert_eq!(
            ranges("global_atomic_add_u32 v5, v1, v2, s[0:1] glc"),
            [("vdst", 5, 1), ("addr", 1, 1), ("data0", 2, 1)]
        );
    }
}
