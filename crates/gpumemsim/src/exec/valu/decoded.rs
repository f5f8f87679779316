//! A VOP1/VOP2/VOPC/VOP3 or VOPD instruction decoded for execution once per program
//! counter ([`Decoded`]): its class, its fields, its sources resolved to a VGPR, a value
//! fixed by the instruction (an inline constant, the literal) or a scalar register read
//! when it executes, and its `abs`/`neg` masks. The device keeps one per instruction of the
//! program ([`decoded_at`]), so executing an instruction again reads no field of its word.
//!
//! Nothing here depends on a wave: registers are read at execution, so one decoded form
//! serves every wave that runs the instruction. Tests compare execution through it with
//! the uncached path ([`super::execute`]) on every entry of the table.

use rdna3_isa::{DppKind, Field, Instruction, Opcode};

use super::class::{class, Class};
use super::op::Op;
use super::regs::Loc;
use super::shape::ValuError;
use crate::wave::{self, Wave};

/// Where a source of the fast path or of a VOPD component comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Src {
    /// Absent (reads 0).
    None,
    /// A VGPR (the first of a pair for a 64-bit source).
    Vgpr(u32),
    /// A value every wave reads alike: an inline constant or the literal, as the source's
    /// width reads it.
    Value(u64),
    /// A scalar source read from the wave (SGPRs, VCC, EXEC, M0, SCC, the apertures, ...):
    /// its operand code.
    Scalar(u32),
}

impl Src {
    /// The source whose field holds `v` (a VGPR number in `vsrc1`, else an operand code) in
    /// an instruction with literal `literal`, `dwords` (1 or 2) wide.
    pub fn of(v: u32, vsrc1: bool, dwords: u8, literal: Option<u32>) -> Src {
        if vsrc1 {
            return Src::Vgpr(v);
        }
        if let Some(r) = v.checked_sub(256) {
            return Src::Vgpr(r);
        }
        let fixed = match dwords {
            2 => wave::constant64(v, literal),
            _ => wave::constant32(v, literal).map(u64::from),
        };
        fixed.map_or(Src::Scalar(v), Src::Value)
    }

    /// Where wave `w` reads the source from (a 32-bit source reads 32 bits of a scalar
    /// register, a 64-bit one a pair).
    #[inline(always)]
    pub fn loc(self, w: &Wave, dwords: u8) -> Loc {
        match self {
            Src::None => Loc::None,
            Src::Vgpr(reg) => Loc::Vgpr { reg, hi: false },
            Src::Value(v) => Loc::Uniform(v),
            Src::Scalar(code) if dwords == 2 => Loc::Uniform(w.ssrc64(code, None)),
            Src::Scalar(code) => Loc::Uniform(w.ssrc32(code, None) as u64),
        }
    }
}

/// An instruction the fast path ([`super::fast`]) executes, decoded.
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    pub class: &'static Class,
    pub fields: Fields,
    /// The sources in operand order.
    pub src: [Src; 3],
    /// Each source's `abs` then `neg` as (and, xor) masks over its 64 bits.
    pub mods: [(u64, u64); 3],
}

impl Plan {
    /// The plan of `inst` (class `c`, fields `d`, which the fast path takes).
    fn of(inst: &Instruction, c: &'static Class, d: Fields) -> Plan {
        let src = std::array::from_fn(|i| match c.fields[i] {
            Some(f) => Src::of(d.src[i], f == Field::Vsrc1, c.dwords[i], inst.literal),
            None => Src::None,
        });
        let mods = std::array::from_fn(|i| {
            let sign = c.sign[i];
            let and = if d.abs >> i & 1 == 1 { !sign } else { !0 };
            let xor = if d.neg >> i & 1 == 1 { sign } else { 0 };
            (and, xor)
        });
        Plan {
            class: c,
            fields: d,
            src,
            mods,
        }
    }
}

impl Plan {
    /// Whether the plan runs on the row form ([`super::fast::rows`]): one 32-bit VGPR result
    /// that is, in every lane, a function of its sources' 32-bit values alone ([`Op::by_rows`]:
    /// no carry or flag in or out, no lane index), with no `abs` or `neg`.
    fn rows(&self) -> bool {
        let c = self.class;
        !c.wide
            && c.dst_dwords == 1
            && !c.sdst
            && !c.cmpx
            && c.shape.mask == super::shape::MaskIn::None
            && c.op.by_rows()
            && self.mods.iter().all(|&(and, xor)| and == !0 && xor == 0)
    }
}

/// One VOPD component decoded: [`Component`] with its `src0` still to read.
#[derive(Clone, Copy, Debug)]
pub(super) struct Part {
    pub op: Op,
    pub vdst: u32,
    pub src0: Src,
    pub vsrc1: Option<u32>,
}

impl Part {
    /// The component as wave `w` runs it.
    #[inline(always)]
    pub fn component(&self, w: &Wave) -> Component {
        Component {
            op: self.op,
            vdst: self.vdst,
            src0: self.src0.loc(w, 1),
            vsrc1: self.vsrc1,
        }
    }
}

/// How an instruction executes, worked out once per program counter.
#[derive(Clone, Copy, Debug)]
pub struct Decoded(pub(super) Form);

/// The forms of [`Decoded`].
#[derive(Clone, Copy, Debug)]
pub(super) enum Form {
    /// Not executed: stops as unimplemented.
    Unimplemented,
    /// Runs the general way ([`super::general`]).
    General(&'static Class),
    /// Runs on the fast path.
    Fast(Plan),
    /// Runs on the fast path's row form ([`super::fast::rows`]): a plan whose every lane is
    /// a function of its plain 32-bit sources alone ([`Plan::rows`]).
    Rows(Plan),
    /// A VOPD instruction's two components, and whether either rounds.
    Vopd([Part; 2], bool),
}

impl Decoded {
    /// The decoded form of VOP1/VOP2/VOPC/VOP3 instruction `inst`.
    pub fn of(inst: &Instruction) -> Decoded {
        let Some(c) = class(inst.opcode) else {
            return Decoded(Form::Unimplemented);
        };
        let d = Fields::of(inst, c);
        Decoded(if d.fast(c) {
            let p = Plan::of(inst, c, d);
            match p.rows() {
                true => Form::Rows(p),
                false => Form::Fast(p),
            }
        } else {
            Form::General(c)
        })
    }

    /// The decoded form of VOPD instruction `inst`.
    pub fn of_vopd(inst: &Instruction) -> Decoded {
        match (part(inst, false), part(inst, true)) {
            (Ok(x), Ok(y)) => {
                let rounds = x.op.shape().rounds || y.op.shape().rounds;
                Decoded(Form::Vopd([x, y], rounds))
            }
            _ => Decoded(Form::Unimplemented),
        }
    }
}

/// The X (`y` false) or Y component of VOPD instruction `inst`, decoded.
fn part(inst: &Instruction, y: bool) -> Result<Part, ValuError> {
    let (opcode, vdst, src0, vsrc1) = vopd_fields(inst, y).ok_or(ValuError::Unimplemented)?;
    let op = super::vopd_op(opcode).ok_or(ValuError::Unimplemented)?;
    Ok(Part {
        op,
        vdst,
        src0: Src::of(src0, false, 1, inst.literal),
        vsrc1: opcode.def().operand(Field::Vsrc1).map(|_| vsrc1),
    })
}

/// The X (`y` false) or Y component's opcode, VDST, SRC0 and VSRC1 fields of VOPD instruction
/// `inst` (`None` without a Y opcode).
pub(super) fn vopd_fields(inst: &Instruction, y: bool) -> Option<(Opcode, u32, u32, u32)> {
    Some(if y {
        (
            inst.vopd_y()?,
            inst.vopd_vdst_y(),
            inst.get(Field::Src0Y),
            inst.get(Field::Vsrc1Y),
        )
    } else {
        (
            inst.opcode,
            inst.get(Field::Vdst),
            inst.get(Field::Src0),
            inst.get(Field::Vsrc1),
        )
    })
}

/// The decoded form of the instruction at `pc`, `inst`, from `cache` (one entry per
/// instruction of the program, filled on first use); `vopd`: the instruction is VOPD. A
/// function of the one field, so that the form stays borrowed while the executor changes
/// the others.
#[inline]
pub fn decoded_at<'a>(
    cache: &'a mut [Option<Decoded>],
    pc: usize,
    inst: &Instruction,
    vopd: bool,
) -> &'a Decoded {
    cache[pc].get_or_insert_with(|| match vopd {
        true => Decoded::of_vopd(inst),
        false => Decoded::of(inst),
    })
}

/// The fields of a VOP1/VOP2/VOPC/VOP3 instruction its execution reads, with the meaning
/// the general path gives them (`op_sel`, `abs` only in VOP3 outside VOP3SD, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fields {
    /// The source fields' raw values.
    pub src: [u32; 3],
    pub vdst: u32,
    pub sdst: u32,
    pub op_sel: u32,
    pub abs: u32,
    pub neg: u32,
    pub clamp: bool,
    pub omod: u32,
    /// The instruction is a DPP form.
    pub dpp: bool,
}

impl Fields {
    /// Reads `inst`'s fields (class `c`).
    #[inline]
    pub fn of(inst: &Instruction, c: &Class) -> Fields {
        let (b, word) = (&c.bits, inst.word());
        let src = [
            b.src[0].read(word),
            b.src[1].read(word),
            b.src[2].read(word),
        ];
        let vop3 = |f: super::class::Bits| if c.vop3 { f.read(word) } else { 0 };
        let (abs, neg) = match c.vop3 {
            true if !c.sdst => (b.abs.read(word), b.neg.read(word)),
            true => (0, b.neg.read(word)),
            false => (0, 0),
        };
        Fields {
            src,
            vdst: b.vdst.read(word),
            sdst: b.sdst.read(word),
            op_sel: if c.sdst { 0 } else { vop3(b.op_sel) },
            abs,
            neg,
            clamp: vop3(b.clamp) != 0,
            omod: vop3(b.omod),
            dpp: c.dpp && DppKind::from_src0(src[0]).is_some(),
        }
    }

    /// Whether the fast path executes the instruction.
    #[inline]
    pub fn fast(&self, c: &Class) -> bool {
        c.plain && !self.dpp && self.omod == 0 && !self.clamp
    }
}

/// One component of a VOPD instruction: its operation and where its operands live.
pub(super) struct Component {
    pub op: Op,
    pub vdst: u32,
    pub src0: Loc,
    /// The VGPR `vsrc1` (absent for `v_dual_mov_b32`).
    pub vsrc1: Option<u32>,
}
