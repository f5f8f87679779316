//! The fast path ([`super::fast`]) against the general one: every table entry it takes,
//! and every VOPD pairing, on random instructions and registers (NaNs with payloads, ±0,
//! denormals, infinities; sparse, empty and full EXEC; every denormal mode) give the same
//! registers, lane masks and errors.

use crate::fp::EDGE_F32;
use rdna3_isa::{Field, Format, Instruction, Opcode};

use super::class::class;
use super::decoded::{Component, Fields};
use super::regs::Loc;
use crate::wave::{Wave, VCC_LO};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let x = &mut self.0;
        *x ^= *x >> 12;
        *x ^= *x << 25;
        *x ^= *x >> 27;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A register value: edge f32s (±0, denormals, ±inf, NaNs with payloads, signalling
    /// ones), small integers, or random bits.
    fn value(&mut self) -> u32 {
        let r = self.next();
        match r % 4 {
            0 => EDGE_F32[(r >> 8) as usize % EDGE_F32.len()],
            1 => (r >> 8) as u32 % 64,
            // Floats near 1 (sums that cancel and round).
            2 => (r >> 8) as u32 & 0x807f_ffff | 0x3f00_0000,
            _ => (r >> 8) as u32,
        }
    }
}

/// A wave of `size` lanes: v0-v15, s0-s105 and VCC random, EXEC full, empty or random,
/// MODE with a random denormal control, IEEE and DX10 clamp bits, and now and then a
/// rounding mode the executor refuses.
fn wave(rng: &mut Rng, size: u32) -> Wave {
    let mut w = Wave::new(0, size);
    for r in 0..16 {
        for l in 0..size {
            w.set_vgpr(r, l, rng.value());
        }
    }
    for s in 0..108 {
        w.set_sreg(s, rng.value());
    }
    w.set_sreg64(VCC_LO, rng.next());
    w.set_exec(match rng.below(4) {
        0 => 0,
        1 => rng.next(),
        _ => u64::MAX,
    });
    w.mode = (rng.below(16) as u32) << 4 | (rng.below(4) as u32) << 8;
    if rng.below(16) == 0 {
        w.mode |= 1;
    }
    w.scc = rng.below(2) == 1;
    w.apertures.shared_base = rng.next();
    w.apertures.private_limit = rng.next();
    w
}

/// A random source operand code: a VGPR, an SGPR, VCC, `null`, M0, EXEC, an aperture,
/// VCCZ, EXECZ, SCC, the literal, an integer or float inline constant.
fn source(rng: &mut Rng) -> u32 {
    const SPECIAL: [u32; 11] = [106, 107, 124, 125, 126, 235, 238, 251, 252, 253, 255];
    match rng.below(8) {
        0..=3 => 256 + rng.below(16) as u32,
        4 => rng.below(106) as u32,
        5 => SPECIAL[rng.below(SPECIAL.len() as u64) as usize],
        6 => 128 + rng.below(81) as u32,
        _ => 240 + rng.below(9) as u32,
    }
}

/// Whether two waves hold the same registers (v0-v23 of every lane, and whether each row
/// exists), scalar registers, SCC and EXEC.
fn same(a: &Wave, b: &Wave) -> bool {
    (0..24).all(|r| a.vgpr_row(r) == b.vgpr_row(r))
        && (0..128).all(|s| a.sreg(s) == b.sreg(s))
        && a.scc == b.scc
        && a.exec() == b.exec()
}

/// A random instruction of table entry `op` (VOP1/VOP2/VOPC/VOP3): random sources,
/// destinations, `abs`/`neg`, a literal (now and then none); `clamp` and `omod` now and
/// then (the general path then runs both times).
fn instruction(rng: &mut Rng, op: Opcode) -> Instruction {
    let mut i = Instruction::new(op);
    for f in [Field::Src0, Field::Src1, Field::Src2] {
        i.set(f, source(rng));
    }
    i.set(Field::Vsrc1, rng.below(16) as u32);
    i.set(Field::Vdst, rng.below(20) as u32);
    if op.def().name.starts_with("v_cmp") && op.def().format == Format::Vop3 {
        i.set(Field::Vdst, [0, 2, 8, 106][rng.below(4) as usize]);
    }
    i.set(Field::Sdst, [4, 10, 106, 124][rng.below(4) as usize]);
    i.set(Field::Abs, rng.below(8) as u32);
    i.set(Field::Neg, rng.below(8) as u32);
    i.set(Field::Clamp, (rng.below(8) == 0) as u32);
    i.set(Field::Omod, if rng.below(8) == 0 { 1 } else { 0 });
    i.literal = (rng.below(8) != 0).then(|| rng.value());
    i
}

/// Every VOP1/VOP2/VOPC/VOP3 entry the fast path takes gives, through [`super::execute`],
/// what the general path gives, in wave32 and wave64 (the row form's entries too).
#[test]
fn fast_path_matches_the_general_path() {
    let mut rng = Rng(0x0000_fa57_fa57);
    let (mut entries, mut fast_runs, mut row_runs) = (0, 0, 0);
    for idx in 0..rdna3_isa::table::INSTRUCTIONS.len() {
        let op = Opcode(idx as u16);
        let Some(c) = class(op) else { continue };
        if !c.plain {
            continue;
        }
        entries += 1;
        for size in [32, 64] {
            for _ in 0..12 {
                let inst = instruction(&mut rng, op);
                let mut fast = wave(&mut rng, size);
                let mut general = fast.clone();
                fast_runs += Fields::of(&inst, c).fast(c) as u32;
                row_runs += matches!(super::Decoded::of(&inst).0, super::Form::Rows(_)) as u32;
                let a = super::execute(&inst, &mut fast).is_ok();
                let b = super::general(&inst, &mut general, c).is_ok();
                assert!(
                    a == b && same(&fast, &general),
                    "{} wave{size} mode {:#x} exec {:#x}: ok {a}/{b}",
                    op.def().name,
                    general.mode,
                    general.exec()
                );
            }
        }
    }
    assert!(entries > 300, "{entries} entries");
    assert!(
        fast_runs > entries * 12,
        "{fast_runs} runs took the fast path"
    );
    // The row form (`fast::rows`) among them: its operations with plain sources.
    assert!(row_runs > 300, "{row_runs} runs took the row form");
}

/// A form decoded once ([`super::Decoded`], as the device keeps one per program counter)
/// runs, through [`super::execute_decoded`], as the general path on every wave that
/// executes it: wave32 and wave64, other registers, apertures, SCC, EXEC and modes. Every
/// VOP1/VOP2/VOPC/VOP3 entry the executor runs.
#[test]
fn a_decoded_form_serves_every_wave() {
    let mut rng = Rng(0x00c0_ffee);
    let mut fast_runs = 0;
    for idx in 0..rdna3_isa::table::INSTRUCTIONS.len() {
        let op = Opcode(idx as u16);
        let Some(c) = class(op) else { continue };
        for _ in 0..6 {
            let inst = instruction(&mut rng, op);
            let d = super::Decoded::of(&inst);
            fast_runs += 4 * Fields::of(&inst, c).fast(c) as u32;
            for size in [32, 64, 32, 64] {
                let mut cached = wave(&mut rng, size);
                let mut general = cached.clone();
                let a = super::execute_decoded(&inst, &mut cached, &d).is_ok();
                let b = super::general(&inst, &mut general, c).is_ok();
                assert!(
                    a == b && same(&cached, &general),
                    "{} wave{size} mode {:#x} exec {:#x}: ok {a}/{b}",
                    op.def().name,
                    general.mode,
                    general.exec()
                );
            }
        }
    }
    assert!(
        fast_runs > 300 * 6 * 4,
        "{fast_runs} runs took the fast path"
    );
}

/// The fields [`Fields`] reads at the positions worked out per entry are those
/// [`Instruction::get`] reads, for every VALU entry and random words.
#[test]
fn decoded_fields_are_the_instruction_fields() {
    let mut rng = Rng(0x00de_c0de);
    for idx in 0..rdna3_isa::table::INSTRUCTIONS.len() {
        let op = Opcode(idx as u16);
        let Some(c) = class(op) else { continue };
        for _ in 0..8 {
            let inst = instruction(&mut rng, op);
            let d = Fields::of(&inst, c);
            let get = |f: Option<Field>| f.map_or(0, |f| inst.get(f));
            assert_eq!(d.src, c.fields.map(get), "{}", op.def().name);
            assert_eq!(d.vdst, inst.get(Field::Vdst), "{}", op.def().name);
            assert_eq!(d.sdst, inst.get(Field::Sdst), "{}", op.def().name);
            if c.vop3 {
                assert_eq!(d.clamp, inst.get(Field::Clamp) != 0, "{}", op.def().name);
                assert_eq!(d.omod, inst.get(Field::Omod), "{}", op.def().name);
                assert_eq!(d.neg, inst.get(Field::Neg), "{}", op.def().name);
            }
            if c.vop3 && !c.sdst {
                assert_eq!(d.op_sel, inst.get(Field::OpSel), "{}", op.def().name);
                assert_eq!(d.abs, inst.get(Field::Abs), "{}", op.def().name);
            }
            assert_eq!(d.dpp, inst.dpp().is_some(), "{}", op.def().name);
        }
    }
}

/// Every VOPD pairing runs as the lane-by-lane reference does ([`super::vopd_general`], on
/// components read straight from the fields), in wave32 and wave64, EXEC full, empty or
/// sparse, each decoded form serving waves of both sizes.
#[test]
fn vopd_matches_the_lane_by_lane_reference() {
    let mut rng = Rng(0x0007_70dd);
    let mut runs = 0;
    for (idx, d) in rdna3_isa::table::INSTRUCTIONS.iter().enumerate() {
        if d.format != Format::Vopd {
            continue;
        }
        for y in 0..32 {
            let mut i = Instruction::new(Opcode(idx as u16));
            i.set(Field::OpY, y);
            if i.vopd_y().is_none() {
                continue;
            }
            for _ in 0..6 {
                for (f, v) in [
                    (Field::Src0, source(&mut rng)),
                    (Field::Src0Y, source(&mut rng)),
                    (Field::Vsrc1, rng.below(16) as u32),
                    (Field::Vsrc1Y, rng.below(16) as u32),
                    (Field::Vdst, rng.below(20) as u32),
                    (Field::VdstY, rng.below(10) as u32),
                ] {
                    i.set(f, v);
                }
                i.literal = (rng.below(8) != 0).then(|| rng.value());
                // One decoded form for waves of both sizes.
                let decoded = super::Decoded::of_vopd(&i);
                for size in [32, 64, 32, 64] {
                    let mut fast = wave(&mut rng, size);
                    let mut reference = fast.clone();
                    let a = super::execute_vopd_decoded(&i, &mut fast, &decoded).is_ok();
                    let b = vopd_reference(&i, &mut reference);
                    assert!(
                        a == b && same(&fast, &reference),
                        "{} :: {:?} wave{size}",
                        d.name,
                        i.vopd_y().map(|o| o.def().name)
                    );
                    runs += a as u32;
                }
            }
        }
    }
    assert!(runs > 1000, "{runs} runs");
}

/// [`super::execute_vopd_decoded`] with the components run by [`super::vopd_general`].
fn vopd_reference(inst: &Instruction, w: &mut Wave) -> bool {
    let (Ok(x), Ok(y)) = (component(inst, w, false), component(inst, w, true)) else {
        return false;
    };
    let parts = [x, y];
    if parts.iter().any(|p| p.op.shape().rounds) && w.mode & 0xf != 0 {
        return false;
    }
    let cx = super::shape::Ctx::new(w.mode, inst.literal.unwrap_or(0), false);
    super::vopd_general(w, &parts, &cx);
    true
}

/// The X (`y` false) or Y component of VOPD instruction `inst` in wave `w`, its operands read
/// straight from the wave (as the executor did before it kept decoded forms).
fn component(inst: &Instruction, w: &Wave, y: bool) -> Result<Component, ()> {
    let (opcode, vdst, src0, vsrc1) = super::decoded::vopd_fields(inst, y).ok_or(())?;
    let op = super::vopd_op(opcode).ok_or(())?;
    let src0 = if src0 >= 256 {
        Loc::Vgpr {
            reg: src0 - 256,
            hi: false,
        }
    } else {
        Loc::Uniform(w.ssrc32(src0, inst.literal) as u64)
    };
    let vsrc1 = opcode.def().operand(Field::Vsrc1).map(|_| vsrc1);
    Ok(Component {
        op,
        vdst,
        src0,
        vsrc1,
    })
}

/// A comparison's outcome bit ([`compare::order`]) in its predicate's mask
/// ([`compare::outcomes`]) is what [`compare::compare`] gives, for every predicate of u32,
/// i32 and f32 (edge values: ±0, denormals under both input controls, NaNs, infinities).
#[test]
fn compare_outcome_masks_agree_with_compare() {
    use super::compare::{self, CmpTy, Pred};
    let mut rng = Rng(0x0c0f_fee5);
    let preds: Vec<Pred> = (0..18).filter_map(pred_at).collect();
    assert_eq!(preds.len(), 18, "every predicate, in declaration order");
    let mut held = [0u32; 2];
    for t in [CmpTy::U32, CmpTy::I32, CmpTy::F32] {
        for &p in &preds {
            if p == Pred::Class || !compare::valid(p, t) {
                continue;
            }
            for k in 0..400 {
                let cx = super::shape::Ctx::new((k % 2) << 4 | 0xe0, 0, false);
                let (a, b) = (rng.value() as u64, rng.value() as u64);
                let b = if k % 5 == 0 { a } else { b };
                let want = compare::compare(p, t, a, b, &cx);
                let got = compare::outcomes(p, t == CmpTy::F32) >> compare::order(t, a, b, &cx) & 1;
                assert_eq!(got == 1, want, "{p:?} {t:?} {a:#x} {b:#x}");
                held[want as usize] += 1;
            }
        }
    }
    assert!(held[0] > 1000 && held[1] > 1000, "{held:?}");
}

/// The predicate of declaration index `i`, found through the names [`compare::pred`] reads.
fn pred_at(i: usize) -> Option<super::compare::Pred> {
    [
        "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq",
        "nlt", "t", "ne", "class",
    ]
    .get(i)
    .and_then(|n| super::compare::pred(n))
    .filter(|p| *p as usize == i)
}
