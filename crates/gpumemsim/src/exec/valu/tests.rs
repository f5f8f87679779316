//! Unit tests of the classification: coverage of the instruction table.

use super::class::classify;
use super::names::op_of;
use super::op::Op;
use rdna3_isa::Format;

/// Every VOP1, VOP2, VOPC and VOP3 (VOP3SD included) entry of the table, and every VOPD
/// component, executes: no instruction of these encodings is left unimplemented. There are
/// no exceptions.
#[test]
fn every_valu_table_entry_is_classified() {
    let mut missing = Vec::new();
    let mut n = 0;
    for d in rdna3_isa::table::INSTRUCTIONS {
        match d.format {
            Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 => {
                n += 1;
                if classify(d).is_none() {
                    missing.push(d.name);
                }
            }
            Format::Vopd => {
                n += 1;
                let base = d.name.strip_prefix("v_dual_").unwrap_or(d.name);
                if op_of(&format!("v_{base}")).is_none() {
                    missing.push(d.name);
                }
            }
            _ => {}
        }
    }
    assert!(missing.is_empty(), "not executed: {missing:?}");
    assert!(n > 700, "{n} entries walked");
}

/// Every VOP3P entry executes (WMMA in wave32 only).
#[test]
fn every_vop3p_entry_executes() {
    let mut run = 0;
    for d in rdna3_isa::table::INSTRUCTIONS {
        if d.format == Format::Vop3p {
            assert!(super::vop3p::executes(d), "{}", d.name);
            run += 1;
        }
    }
    assert_eq!(run, 34, "34 VOP3P opcodes");
}

/// The operations named here but not yet in the table (the `op_sel`, `sext()` and VOP3SD
/// scale forms, the permlanes) classify as the family the pseudocode puts them in.
#[test]
fn names_not_yet_in_the_table_have_their_operations() {
    for name in [
        "v_add_nc_u16",
        "v_sub_nc_i16",
        "v_mad_u16",
        "v_mad_i32_i16",
        "v_med3_i16",
        "v_pack_b32_f16",
    ] {
        assert!(matches!(op_of(name), Some(Op::I16(_))), "{name}");
    }
    for name in [
        "v_fma_f16",
        "v_med3_f16",
        "v_div_fixup_f16",
        "v_dot2_f16_f16",
    ] {
        assert!(matches!(op_of(name), Some(Op::F16(_))), "{name}");
    }
    assert!(matches!(op_of("v_ldexp_f32"), Some(Op::F32(_))));
    assert!(matches!(op_of("v_div_scale_f32"), Some(Op::F32(_))));
    assert!(matches!(op_of("v_trig_preop_f64"), Some(Op::F64(_))));
    assert!(matches!(op_of("v_cvt_pk_u8_f32"), Some(Op::Cvt(_))));
    assert!(matches!(op_of("v_permlanex16_b32"), Some(Op::Whole(_))));
    assert_eq!(op_of("v_cmp_lg_i32"), None, "lg is a float predicate");
    assert_eq!(op_of("v_cmp_class_i32"), None);
}

/// One lane of `name` on sources `s` (no clamp unless `clamp`), MODE default.
fn eval(name: &str, s: [u64; 3], clamp: bool) -> (u64, bool) {
    let op = op_of(name).unwrap_or_else(|| panic!("{name}"));
    let cx = super::shape::Ctx::new(crate::wave::mode::DEFAULT, 0, clamp);
    op.eval(s, false, 0, &cx)
}

fn h(x: f32) -> u64 {
    crate::fp::valu::f32_to_f16(x.to_bits(), crate::fp::valu::Round::NearestEven) as u64
}

#[test]
fn op_sel_integer_forms_wrap_or_saturate() {
    assert_eq!(eval("v_add_nc_u16", [0xfff0, 0x20, 0], false).0, 0x10);
    assert_eq!(eval("v_add_nc_u16", [0xfff0, 0x20, 0], true).0, 0xffff);
    assert_eq!(eval("v_sub_nc_u16", [5, 7, 0], false).0, 0xfffe);
    assert_eq!(eval("v_sub_nc_u16", [5, 7, 0], true).0, 0);
    assert_eq!(eval("v_add_nc_i16", [0x7fff, 1, 0], false).0, 0x8000);
    assert_eq!(eval("v_add_nc_i16", [0x7fff, 1, 0], true).0, 0x7fff);
    assert_eq!(eval("v_sub_nc_i16", [0x8000, 1, 0], true).0, 0x8000);
    assert_eq!(
        eval("v_mad_u16", [300, 300, 7,], false).0,
        (90_007 & 0xffff) as u64
    );
    assert_eq!(eval("v_mad_u16", [300, 300, 7], true).0, 0xffff);
    assert_eq!(
        eval("v_mad_i16", [0xff00, 0x0100, 0], true).0,
        0x8000,
        "-256 × 256 saturates"
    );
    assert_eq!(
        eval("v_mad_u32_u16", [0xffff, 0xffff, 0xffff_ffff], false).0,
        (0xffffu64 * 0xffff - 1) & 0xffff_ffff
    );
    assert_eq!(
        eval("v_mad_u32_u16", [0xffff, 0xffff, 0xffff_ffff], true).0,
        0xffff_ffff
    );
    assert_eq!(eval("v_mad_i32_i16", [0xffff, 3, 10], false).0, 7);
    assert_eq!(
        eval("v_med3_i16", [0xffff, 5, 0x8000], false).0,
        0xffff,
        "med(-1, 5, min)"
    );
    assert_eq!(eval("v_med3_u16", [0xffff, 5, 0x8000], false).0, 0x8000);
    assert_eq!(eval("v_min3_i16", [0xffff, 5, 0x8000], false).0, 0x8000);
    assert_eq!(eval("v_max3_u16", [1, 5, 3], false).0, 5);
    assert_eq!(
        eval("v_pack_b32_f16", [0x3c00, 0xbc00, 0], false).0,
        0xbc00_3c00
    );
}

#[test]
fn op_sel_float_forms() {
    assert_eq!(
        eval("v_fma_f16", [h(1.5), h(2.0), h(0.25),], false).0,
        h(3.25)
    );
    assert_eq!(
        eval("v_med3_f16", [h(3.0), h(-1.0), h(2.0)], false).0,
        h(2.0)
    );
    assert_eq!(
        eval("v_min3_f16", [h(3.0), h(-1.0), h(2.0)], false).0,
        h(-1.0)
    );
    assert_eq!(
        eval("v_div_fixup_f16", [h(0.5), h(-4.0), h(2.0)], false).0,
        h(-0.5)
    );
    // dot2_f16_f16: S2 + lo×lo + hi×hi, each step rounded to f16.
    let a = h(2.0) << 16 | h(1.5);
    let b = h(0.5) << 16 | h(4.0);
    assert_eq!(eval("v_dot2_f16_f16", [a, b, h(0.25)], false).0, h(7.25));
    // dot2_bf16_bf16: the same on bf16 (top halves of f32): 0.25 + 1.5×4 + 2×0.5 = 7.25.
    let bf = |x: f32| (x.to_bits() >> 16) as u64;
    let a = bf(2.0) << 16 | bf(1.5);
    let b = bf(0.5) << 16 | bf(4.0);
    assert_eq!(
        eval("v_dot2_bf16_bf16", [a, b, bf(0.25)], false).0,
        bf(7.25)
    );
    // 256 + 1×1 + 0×0: 257 is not a bf16 (8 significant bits), ties to even → 256.
    assert_eq!(
        eval("v_dot2_bf16_bf16", [bf(1.0), bf(1.0), bf(256.0)], false).0,
        bf(256.0)
    );
    assert_eq!(
        eval("v_cvt_pk_norm_i16_f16", [h(1.0), h(-0.5), 0], false).0,
        ((-16384i16) as u16 as u64) << 16 | 32767
    );
    assert_eq!(
        eval("v_cvt_pk_norm_u16_f16", [h(2.0), h(0.25), 0], false).0,
        16384 << 16 | 65535,
        "0.25 × 65535 = 16383.75 → 16384"
    );
}

#[test]
fn sext_and_vop3sd_forms() {
    let f = |x: f32| x.to_bits() as u64;
    assert_eq!(
        eval("v_ldexp_f32", [f(1.5), (-3i32) as u32 as u64, 0], false).0,
        f(0.1875)
    );
    assert_eq!(
        eval("v_ldexp_f64", [2.0f64.to_bits(), 10, 0], false).0,
        2048.0f64.to_bits()
    );
    // div_scale returns its VCC bit: exponents 100 apart set it.
    let (r, vcc) = eval(
        "v_div_scale_f32",
        [f(1.0), f(1.0), f(2f32.powi(100))],
        false,
    );
    assert_eq!((r, vcc), (f(2f32.powi(64)), true));
    assert_eq!(
        eval(
            "v_div_scale_f64",
            [2.0f64.to_bits(), 2.0f64.to_bits(), 3.0f64.to_bits()],
            false
        ),
        (2.0f64.to_bits(), false)
    );
    // trig_preop segment 0 is 2/π truncated to 53 bits.
    let s0 = f64::from_bits(eval("v_trig_preop_f64", [1.0f64.to_bits(), 0, 0], false).0);
    assert!(
        s0 <= std::f64::consts::FRAC_2_PI && std::f64::consts::FRAC_2_PI - s0 <= 2f64.powi(-53)
    );
    // cvt_pk_u8_f32: byte S1[1:0] of S2 replaced by the truncated, saturated S0.
    assert_eq!(
        eval("v_cvt_pk_u8_f32", [f(300.7), 1, 0x1122_3344], false).0,
        0x1122_ff44
    );
    assert_eq!(
        eval("v_cvt_pk_u8_f32", [f(7.9), 6, 0x1122_3344], false).0,
        0x1107_3344
    );
    assert_eq!(
        eval("v_cvt_pk_u8_f32", [f(-2.0), 0, 0x1122_3344], false).0,
        0x1122_3300
    );
}

#[test]
fn permlanes_gather_within_and_across_rows() {
    use super::op::WholeOp;
    use super::regs::Loc;
    use crate::wave::Wave;
    // Any VOP3 instruction carries the destination field; the operation is chosen here.
    let op = rdna3_isa::def::lookup_name("v_add3_u32").expect("in the table");
    let mut inst = rdna3_isa::Instruction::new(op);
    inst.set(rdna3_isa::Field::Vdst, 2);
    let rotate: u64 = 0x0fed_cba9_8765_4321; // lane i reads lane i + 1 of its row
    for (o, cross) in [(WholeOp::Permlane16, false), (WholeOp::Permlanex16, true)] {
        let mut w = Wave::new(0, 64);
        for l in 0..64 {
            w.set_vgpr(1, l, 100 + l);
        }
        w.set_exec(!1);
        let locs = [
            Loc::Vgpr { reg: 1, hi: false },
            Loc::Uniform(rotate & 0xffff_ffff),
            Loc::Uniform(rotate >> 32),
        ];
        super::cross_lane::execute(o, &inst, &mut w, locs);
        for l in 0..64u32 {
            let row = if cross { (l / 16) ^ 1 } else { l / 16 };
            let want = if l == 0 {
                0
            } else {
                100 + row * 16 + (l % 16 + 1) % 16
            };
            assert_eq!(w.vgpr(2, l), want, "{o:?} lane {l}");
        }
    }
}

/// A wave of `size` lanes with v1-v3 set from the lane number (mixed float-ish bit patterns),
/// v10-v13 and the mask SGPRs set to known values, half the lanes of each bank active.
fn dpp_wave(size: u32, v1: impl Fn(u32) -> u32) -> crate::wave::Wave {
    let mut w = crate::wave::Wave::new(0, size);
    for l in 0..size {
        w.set_vgpr(1, l, v1(l));
        w.set_vgpr(2, l, 0x4000_0000 ^ l.wrapping_mul(0x0001_3579));
        w.set_vgpr(3, l, 0x3f00_0000 | l.wrapping_mul(0x0002_4681) & 0xffff);
        for r in 10..14 {
            w.set_vgpr(r, l, 0xdead_0000 | r << 8 | l);
        }
    }
    w.set_sreg64(crate::wave::VCC_LO, 0x5555_aaaa_3333_cccc);
    w.set_sreg64(4, 0x0f0f_f0f0_00ff_ff00);
    w.set_exec(0xffff_7777_ffff_7777 & w.lane_mask());
    w
}

fn lane_v1(l: u32) -> u32 {
    0x3f80_0000u32.wrapping_add(l.wrapping_mul(0x0001_1111)) ^ (l & 1) << 31
}

/// Every VOP1/VOP2/VOPC/VOP3/VOP3P entry with DPP forms executes as DPP16 and DPP8, and equals its
/// plain form run on source 0 already remapped: `row_shr:1 bound_ctrl:1` (lane l reads lane
/// l - 1 of its row, row starts read 0) and `dpp8:[7,6,5,4,3,2,1,0] fi:1` (lane l reads lane
/// l ^ 7), in wave32 and wave64.
#[test]
fn every_dpp_capable_entry_executes_as_its_plain_form_on_remapped_source_0() {
    use rdna3_isa::{Field, Flags, Instruction, Opcode};
    let mut n = 0;
    let mut failed = Vec::new();
    for (idx, d) in rdna3_isa::table::INSTRUCTIONS.iter().enumerate() {
        if !d.flags.has(Flags::DPP)
            || !matches!(
                d.format,
                Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 | Format::Vop3p
            )
        {
            continue;
        }
        n += 1;
        let op = Opcode(idx as u16);
        let vop3 = matches!(d.format, Format::Vop3 | Format::Vop3p);
        let base = |src0: u32| {
            let mut i = Instruction::new(op);
            i.set(Field::Vdst, 10);
            i.set(Field::Src0, src0);
            if vop3 {
                i.set(Field::Src1, 258);
                i.set(
                    Field::Src2,
                    if d.name.contains("cndmask") || d.name.contains("_ci_") {
                        4
                    } else {
                        259
                    },
                );
                if d.name.starts_with("v_cmp") {
                    i.set(Field::Vdst, 4);
                }
                if d.operand(Field::Sdst).is_some() {
                    i.set(Field::Sdst, 6);
                }
            } else {
                i.set(Field::Vsrc1, 2);
            }
            i
        };
        for (size, dpp8) in [(32, false), (64, false), (32, true), (64, true)] {
            let mut di = base(if dpp8 { 234 } else { 250 });
            di.set(Field::DppSrc0, 1);
            if dpp8 {
                di.set(Field::Dpp8Sel, 0o01234567);
            } else {
                di.set(Field::DppCtrl, 0x111);
                di.set(Field::RowMask, 0xf);
                di.set(Field::BankMask, 0xf);
                di.set(Field::BoundCtrl, 1);
                di.set(Field::Fi, 1);
            }
            let plain = base(257);
            let mut wd = dpp_wave(size, lane_v1);
            let mut wp = dpp_wave(size, |l| {
                if dpp8 {
                    lane_v1(l ^ 7)
                } else if l & 15 == 0 {
                    0
                } else {
                    lane_v1(l - 1)
                }
            });
            let exec = |i: &Instruction, w: &mut crate::wave::Wave| {
                if d.format == Format::Vop3p {
                    super::execute_vop3p(i, w).is_ok()
                } else {
                    super::execute(i, w).is_ok()
                }
            };
            let rd = exec(&di, &mut wd);
            let rp = exec(&plain, &mut wp);
            let same = (0..size).all(|l| (10..14).all(|r| wd.vgpr(r, l) == wp.vgpr(r, l)))
                && wd.sreg64(4) == wp.sreg64(4)
                && wd.sreg64(6) == wp.sreg64(6)
                && wd.vcc() == wp.vcc()
                && wd.exec() == wp.exec();
            if !(rd && rp && same) {
                failed.push(format!(
                    "{} wave{size} dpp8={dpp8}: ran {rd}/{rp} same {same}",
                    d.name
                ));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} failing runs over {n} entries: {failed:#?}",
        failed.len()
    );
    assert!(n > 500, "{n} entries walked");
}
