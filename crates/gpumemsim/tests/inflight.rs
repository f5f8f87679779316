//! VGPR data in flight (issue 20 item 1): a returning memory instruction's data reaches its
//! registers when it completes; reading or writing them before the covering `s_waitcnt` gives
//! the old value (or is overwritten when the data lands) plus a `missing_wait` event naming
//! the load, the instruction and the wait that fixes it.

use gpumemsim::event::Event;
use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::assemble;
use gpumemsim::isa::Instruction;

fn run(src: &str, setup: impl FnOnce(&mut Device)) -> Device {
    let prog = assemble(src);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let cfg = RunConfig::default();
    let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
    setup(&mut dev);
    dev.run(&prog.lines, &cfg).expect("runs");
    dev
}

fn missing_waits(dev: &Device) -> Vec<&Event> {
    dev.events()
        .iter()
        .filter(|e| e.kind == "missing_wait")
        .collect()
}

/// LDS word k holds 1000 + k; v0 = lane × 4 (the byte address of word `lane`).
fn lds_setup(dev: &mut Device) {
    let words: Vec<u32> = (0..64).map(|k| 1000 + k).collect();
    dev.lds_mut(0).fill_words(0, &words);
    for l in 0..32 {
        dev.wave_mut(0).set_vgpr(0, l, 4 * l);
        dev.wave_mut(0).set_vgpr(1, l, 7);
    }
}

#[test]
fn a_read_after_the_wait_sees_the_loaded_value_and_no_event() {
    let dev = run(
        "ds_load_b32 v1, v0\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v2, v1\ns_endpgm",
        lds_setup,
    );
    assert!(missing_waits(&dev).is_empty(), "{:?}", dev.events());
    for l in 0..32 {
        assert_eq!(dev.wave(0).vgpr(2, l), 1000 + l);
    }
}

/// Loads one after another, each waited for and read (with more steps between, once all
/// has landed): every read after its wait sees its own load's value.
#[test]
fn each_of_a_series_of_waited_loads_is_read_after_its_wait() {
    let dev = run(
        "ds_load_b32 v1, v0\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v2, v1\n\
         v_mov_b32 v5, 0\nv_mov_b32 v5, 0\n\
         ds_load_b32 v1, v0 offset:4\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v3, v1\n\
         ds_load_b32 v1, v0 offset:8\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v4, v1\ns_endpgm",
        lds_setup,
    );
    assert!(missing_waits(&dev).is_empty(), "{:?}", dev.events());
    for l in 0..32 {
        let w = dev.wave(0);
        assert_eq!(
            (w.vgpr(2, l), w.vgpr(3, l), w.vgpr(4, l)),
            (1000 + l, 1001 + l, 1002 + l)
        );
    }
}

#[test]
fn a_read_before_the_wait_gets_the_old_value_and_names_the_load_and_the_fix() {
    let dev = run(
        "ds_load_b32 v1, v0\nv_mov_b32 v2, v1\ns_waitcnt lgkmcnt(0)\ns_endpgm",
        lds_setup,
    );
    let w = dev.wave(0);
    for l in 0..32 {
        assert_eq!(w.vgpr(2, l), 7, "lane {l} read the old v1");
        assert_eq!(w.vgpr(1, l), 1000 + l, "the load still lands");
    }
    let e = missing_waits(&dev);
    assert_eq!(e.len(), 1, "{:?}", dev.events());
    assert_eq!(e[0].pc, 1);
    let d = e[0].detail.as_ref().expect("detail");
    assert_eq!(d.pcs, vec![0], "the load");
    assert_eq!(d.lanes.len(), 32);
    assert!(e[0].message.contains("reads v1"), "{}", e[0].message);
    assert!(
        e[0].message.contains("s_waitcnt lgkmcnt(0)"),
        "{}",
        e[0].message
    );
}

#[test]
fn lgkmcnt_n_covers_all_but_the_n_youngest_lds_operations() {
    let src = "ds_load_b32 v1, v0\nds_load_b32 v2, v0 offset:4\ns_waitcnt lgkmcnt(1)\n\
               v_mov_b32 v3, v1\nv_mov_b32 v4, v2\ns_waitcnt lgkmcnt(0)\ns_endpgm";
    let dev = run(src, lds_setup);
    let e = missing_waits(&dev);
    assert_eq!(e.len(), 1, "{:?}", dev.events());
    assert_eq!(
        (
            e[0].pc,
            &e[0].detail.as_ref().expect("the event's detail").pcs[..]
        ),
        (4, &[1][..])
    );
    assert!(
        e[0].message.contains("s_waitcnt lgkmcnt(0)"),
        "{}",
        e[0].message
    );
    assert_eq!(
        dev.wave(0).vgpr(3, 5),
        1005,
        "the first load was waited for"
    );
}

#[test]
fn a_write_before_the_load_lands_is_overwritten_and_reported() {
    let dev = run(
        "ds_load_b32 v1, v0\nv_mov_b32 v1, 5\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v2, v1\ns_endpgm",
        lds_setup,
    );
    let e = missing_waits(&dev);
    assert_eq!(e.len(), 1, "{:?}", dev.events());
    assert!(e[0].message.contains("writes v1"), "{}", e[0].message);
    assert_eq!(dev.wave(0).vgpr(2, 3), 1003, "the load's data landed last");
}

#[test]
fn data_that_arrived_by_timing_is_used_but_still_reported() {
    // 200 VALU instructions outlast the LDS latency: the value is there, the wait is not.
    let mut src = String::from("ds_load_b32 v1, v0\n");
    for _ in 0..200 {
        src.push_str("v_add_nc_u32 v3, 1, v3\n");
    }
    src.push_str("v_mov_b32 v2, v1\ns_endpgm");
    let dev = run(&src, lds_setup);
    assert_eq!(dev.wave(0).vgpr(2, 9), 1009);
    let e = missing_waits(&dev);
    assert_eq!(e.len(), 1, "{:?}", dev.events());
    assert!(e[0].message.contains("had arrived"), "{}", e[0].message);
}

#[test]
fn global_loads_wait_on_vmcnt_and_two_loads_into_one_register_land_in_order() {
    let setup = |d: &mut Device| {
        d.memory_mut().write_words(0x1000, &[11, 22]);
        d.wave_mut(0).set_sreg(4, 0x1000);
        d.wave_mut(0).set_sreg(5, 0);
    };
    let ok = run(
        "v_mov_b32 v0, 0\nglobal_load_b32 v1, v0, s[4:5]\nglobal_load_b32 v1, v0, s[4:5] offset:4\n\
         s_waitcnt vmcnt(0)\nv_mov_b32 v2, v1\ns_endpgm",
        setup,
    );
    assert!(ok.events().is_empty(), "{:?}", ok.events());
    assert_eq!(ok.wave(0).vgpr(2, 0), 22, "the later load's data stays");
    let bad = run(
        "v_mov_b32 v0, 0\nglobal_load_b32 v1, v0, s[4:5]\nv_add_nc_u32 v2, v1, 1\n\
         s_waitcnt vmcnt(0)\ns_endpgm",
        setup,
    );
    assert_eq!(bad.wave(0).vgpr(2, 0), 1, "old v1 (0) + 1");
    let e = missing_waits(&bad);
    assert_eq!(e.len(), 1, "{:?}", bad.events());
    assert!(
        e[0].message.contains("s_waitcnt vmcnt(0)"),
        "{}",
        e[0].message
    );
}

#[test]
fn a_different_kind_of_load_into_a_register_in_flight_is_reported() {
    let dev = run(
        "v_mov_b32 v5, 0\nglobal_load_b32 v1, v5, s[4:5]\nds_load_b32 v1, v0\n\
         s_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm",
        |d| {
            lds_setup(d);
            d.wave_mut(0).set_sreg(4, 0x1000);
        },
    );
    let e = missing_waits(&dev);
    assert_eq!(e.len(), 1, "{:?}", dev.events());
    assert_eq!(
        (
            e[0].pc,
            &e[0].detail.as_ref().expect("the event's detail").pcs[..]
        ),
        (2, &[1][..])
    );
}

#[test]
fn the_address_of_a_memory_instruction_is_a_read_too() {
    let dev = run(
        "ds_load_b32 v1, v0\nds_load_b32 v2, v1\ns_waitcnt lgkmcnt(0)\ns_endpgm",
        lds_setup,
    );
    let e = missing_waits(&dev);
    assert_eq!(e.len(), 1, "{:?}", dev.events());
    assert_eq!(e[0].pc, 1);
}

#[test]
fn v_interp_waits_for_its_parameter_load_with_its_own_wait_exp() {
    let dev = run(
        "lds_param_load v3, attr0.x wait_vdst:0\nv_interp_p10_f32 v4, v3, v1, v3 wait_exp:0\ns_endpgm",
        |_| {},
    );
    assert!(missing_waits(&dev).is_empty(), "{:?}", dev.events());
    let late = run(
        "lds_param_load v3, attr0.x wait_vdst:0\nv_mov_b32 v4, v3\ns_endpgm",
        |_| {},
    );
    let e = missing_waits(&late);
    assert_eq!(e.len(), 1, "{:?}", late.events());
    assert!(e[0].message.contains("expcnt(0)"), "{}", e[0].message);
}

/// Runs `ds_load_b32 v1, v0`, then `word` (an instruction given by its encoding), with or
/// without `s_waitcnt lgkmcnt(0)` between them.
fn run_word(word: &[u8], waited: bool) -> Device {
    let src = if waited {
        "ds_load_b32 v1, v0\ns_waitcnt lgkmcnt(0)\ns_nop 0\ns_waitcnt lgkmcnt(0)\ns_endpgm"
    } else {
        "ds_load_b32 v1, v0\ns_nop 0\ns_waitcnt lgkmcnt(0)\ns_endpgm"
    };
    let mut prog = assemble(src);
    let at = if waited { 2 } else { 1 };
    prog.lines[at].inst = Instruction::decode(word).expect("decodes").0;
    let cfg = RunConfig::default();
    let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
    lds_setup(&mut dev);
    dev.run(&prog.lines, &cfg).expect("runs");
    dev
}

#[test]
fn both_halves_of_vopd_and_the_dpp_source_are_reads() {
    // The assembler does not take VOPD text: llvm-mc-19's encodings of
    // `v_dual_mov_b32 v2, v1 :: v_dual_mov_b32 v3, 0`, `v_dual_mov_b32 v2, 0 ::
    // v_dual_mov_b32 v3, v1` and `v_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf
    // bank_mask:0xf`.
    let words: [&[u8]; 3] = [
        &[0x01, 0x01, 0x10, 0xca, 0x80, 0x00, 0x02, 0x02],
        &[0x80, 0x00, 0x10, 0xca, 0x01, 0x01, 0x02, 0x02],
        &[0xfa, 0x02, 0x04, 0x7e, 0x01, 0xb1, 0x00, 0xff],
    ];
    for word in words {
        let dev = run_word(word, false);
        let e = missing_waits(&dev);
        assert_eq!(e.len(), 1, "{word:x?}: {:?}", dev.events());
        assert!(e[0].message.contains("reads v1"), "{}", e[0].message);
        assert!(missing_waits(&run_word(word, true)).is_empty(), "{word:x?}");
    }
}

/// Two `d16` loads into the two halves of one register, both in flight at once (as Triton's
/// and clang's fp16 code issues them): each writes its own half when it lands, so the
/// register ends with both — a load merged at issue would have brought back the other
/// half's old value. The same for LDS (`ds_load_u16_d16_hi` then `ds_load_u16_d16`) and
/// with the other order; a whole-register load after them still replaces both halves.
#[test]
fn d16_loads_in_flight_into_one_register_each_write_their_half() {
    // (first load, second load, the high half, the low half): word 0 is 1000, word 1 1001.
    for (first, second, hi, lo) in [
        (
            "ds_load_u16_d16_hi v1, v0",
            "ds_load_u16_d16 v1, v0 offset:4",
            1000,
            1001,
        ),
        (
            "ds_load_u16_d16 v1, v0",
            "ds_load_u16_d16_hi v1, v0 offset:4",
            1001,
            1000,
        ),
    ] {
        let src =
            format!("v_mov_b32 v1, 0x77778888\n{first}\n{second}\ns_waitcnt lgkmcnt(0)\ns_endpgm");
        let dev = run(&src, |d| {
            lds_setup(d);
            // Every lane reads words 0 and 1.
            for l in 0..32 {
                d.wave_mut(0).set_vgpr(0, l, 0);
            }
        });
        for l in 0..32 {
            let got = dev.wave(0).vgpr(1, l);
            assert_eq!(got, hi << 16 | lo, "{first}; {second}: lane {l} {got:#x}");
        }
    }
    let dev = run(
        "v_mov_b32 v1, 0x77778888\nds_load_u16_d16_hi v1, v0\nds_load_b32 v1, v0 offset:4\n\
         s_waitcnt lgkmcnt(0)\ns_endpgm",
        |d| {
            lds_setup(d);
            for l in 0..32 {
                d.wave_mut(0).set_vgpr(0, l, 0);
            }
        },
    );
    assert_eq!(dev.wave(0).vgpr(1, 3), 1001);
}

/// A 2addr dword load (a row form, whose results go straight to the data in flight) under a
/// partial EXEC: before the wait every lane of both registers reads its old value; after
/// it the lanes under EXEC hold the loaded words and the others their old values.
#[test]
fn a_row_form_load_under_partial_exec_lands_only_its_lanes() {
    let dev = run(
        "s_mov_b32 exec_lo, 0x0f0f00ff\n\
         ds_load_2addr_b32 v[1:2], v0 offset1:1\n\
         s_mov_b32 exec_lo, -1\n\
         v_mov_b32 v3, v1\nv_mov_b32 v4, v2\n\
         s_waitcnt lgkmcnt(0)\ns_endpgm",
        |dev| {
            lds_setup(dev);
            for l in 0..32 {
                dev.wave_mut(0).set_vgpr(2, l, 9);
            }
        },
    );
    let w = dev.wave(0);
    for l in 0..32 {
        assert_eq!(
            (w.vgpr(3, l), w.vgpr(4, l)),
            (7, 9),
            "lane {l} before the wait"
        );
        let on = 0x0f0f_00ffu32 >> l & 1 == 1;
        let want = if on { (1000 + l, 1001 + l) } else { (7, 9) };
        assert_eq!(
            (w.vgpr(1, l), w.vgpr(2, l)),
            want,
            "lane {l} after the wait"
        );
    }
    assert_eq!(missing_waits(&dev).len(), 1, "{:?}", dev.events());
}
