//! DS instruction semantics, end to end through the assembler and the executor.
//!
//! Atomics are checked lane by lane against reference formulas written from AMD's pseudocode
//! (`../shared/reference/rdna3-isa-pseudocode.txt`), on data chosen to reach each formula's
//! branches; other instructions against hand-computed values.

use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::assemble;
use gpumemsim::isa::def::all;
use gpumemsim::isa::Format;
use gpumemsim::lds::AlignMode;

fn run_with(src: &str, cfg: &RunConfig, setup: impl FnOnce(&mut Device)) -> Device {
    let prog = assemble(src);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let mut wg = Device::new(cfg, prog.lines.len()).expect("config");
    setup(&mut wg);
    wg.run(&prog.lines, cfg).expect("runs");
    wg
}

fn run(src: &str, setup: impl FnOnce(&mut Device)) -> Device {
    run_with(src, &RunConfig::default(), setup)
}

/// LDS word i before each atomic test: chosen so lanes see zero, small, equal-to-data,
/// larger-than-data and sign-bit values.
fn mem_init(i: u32) -> u32 {
    match i % 8 {
        0 => 0,
        1 => 5,
        2 => 7,
        3 => 0xffff_fff0,
        4 => 100,
        5 => 0x8000_0000,
        6 => 3,
        _ => 0x1234_5678,
    }
}

fn data0(i: u32) -> u32 {
    [7, 5, 9, 0x10, 3, 1, 0, 0xffff_ffff][(i % 8) as usize]
}

fn data1(i: u32) -> u32 {
    [0, 5, 0xff, 3, 100, 0x8000_0000, 1, 0x1234_5678][(i % 8) as usize] ^ (i & 0x100)
}

type Ref32 = fn(u32, u32, u32) -> u32;

const ATOMICS32: &[(&str, Ref32)] = &[
    ("add_u32", |m, d, _| m.wrapping_add(d)),
    ("sub_u32", |m, d, _| m.wrapping_sub(d)),
    ("rsub_u32", |m, d, _| d.wrapping_sub(m)),
    ("inc_u32", |m, d, _| if m >= d { 0 } else { m + 1 }),
    ("dec_u32", |m, d, _| if m == 0 || m > d { d } else { m - 1 }),
    (
        "min_i32",
        |m, d, _| if (d as i32) < (m as i32) { d } else { m },
    ),
    (
        "max_i32",
        |m, d, _| if (d as i32) >= (m as i32) { d } else { m },
    ),
    ("min_u32", |m, d, _| if d < m { d } else { m }),
    ("max_u32", |m, d, _| if d >= m { d } else { m }),
    ("and_b32", |m, d, _| m & d),
    ("or_b32", |m, d, _| m | d),
    ("xor_b32", |m, d, _| m ^ d),
    ("mskor_b32", |m, d, e| (m & !d) | e),
    ("cmpstore_b32", |m, d, e| if m == e { d } else { m }),
    ("storexchg_rtn_b32", |_, d, _| d),
    ("wrap_rtn_b32", |m, d, e| {
        if m >= d {
            m - d
        } else {
            m.wrapping_add(e)
        }
    }),
];

fn atomic_name(op: &str, rtn: bool) -> String {
    if op.contains("_rtn_") {
        format!("ds_{op}")
    } else if rtn {
        let (base, ty) = op.rsplit_once('_').expect("op_type");
        format!("ds_{base}_rtn_{ty}")
    } else {
        format!("ds_{op}")
    }
}

#[test]
fn integer_atomics_32_follow_the_pseudocode_per_lane() {
    for (op, reference) in ATOMICS32 {
        for rtn in [false, true] {
            if op.contains("_rtn_") && !rtn {
                continue;
            }
            let name = atomic_name(op, rtn);
            let three = matches!(*op, "mskor_b32" | "cmpstore_b32" | "wrap_rtn_b32");
            let operands = match (rtn, three) {
                (false, false) => "v1, v2 offset:16".to_string(),
                (false, true) => "v1, v2, v3 offset:16".to_string(),
                (true, false) => "v4, v1, v2 offset:16".to_string(),
                (true, true) => "v4, v1, v2, v3 offset:16".to_string(),
            };
            let src = format!("{name} {operands}\ns_endpgm\n");
            let wg = run(&src, |wg| {
                let init: Vec<u32> = (0..40).map(mem_init).collect();
                wg.lds_mut(0).fill_words(0, &init);
                let w = wg.wave_mut(0);
                for l in 0..32 {
                    w.set_vgpr(1, l, l * 4);
                    w.set_vgpr(2, l, data0(l));
                    w.set_vgpr(3, l, data1(l));
                    w.set_vgpr(4, l, 0xdead_beef);
                }
            });
            let mem = wg.lds(0).words(0, 160);
            for l in 0..32 {
                let i = l + 4; // offset:16
                let old = mem_init(i);
                let want = reference(old, data0(l), data1(l));
                assert_eq!(mem[i as usize], want, "{name} lane {l}: memory");
                let ret = wg.wave(0).vgpr(4, l);
                assert_eq!(
                    ret,
                    if rtn { old } else { 0xdead_beef },
                    "{name} lane {l}: return"
                );
            }
            assert_eq!(
                mem[..4],
                [0, 5, 7, 0xffff_fff0],
                "{name}: words below the offset untouched"
            );
        }
    }
}

#[test]
fn integer_atomics_64_follow_the_pseudocode_per_lane() {
    type Ref64 = fn(u64, u64, u64) -> u64;
    let cases: &[(&str, Ref64)] = &[
        ("add_u64", |m, d, _| m.wrapping_add(d)),
        ("sub_u64", |m, d, _| m.wrapping_sub(d)),
        ("rsub_u64", |m, d, _| d.wrapping_sub(m)),
        ("inc_u64", |m, d, _| if m >= d { 0 } else { m + 1 }),
        ("dec_u64", |m, d, _| if m == 0 || m > d { d } else { m - 1 }),
        (
            "min_i64",
            |m, d, _| if (d as i64) < (m as i64) { d } else { m },
        ),
        (
            "max_i64",
            |m, d, _| if (d as i64) >= (m as i64) { d } else { m },
        ),
        ("min_u64", |m, d, _| d.min(m)),
        ("max_u64", |m, d, _| d.max(m)),
        ("and_b64", |m, d, _| m & d),
        ("or_b64", |m, d, _| m | d),
        ("xor_b64", |m, d, _| m ^ d),
        ("mskor_b64", |m, d, e| (m & !d) | e),
        ("cmpstore_b64", |m, d, e| if m == e { d } else { m }),
        ("storexchg_rtn_b64", |_, d, _| d),
    ];
    let m64 = |i: u32| (mem_init(i) as u64) << 32 | mem_init(i + 3) as u64;
    let d64 = |i: u32| (data0(i) as u64) << 32 | data0(i + 1) as u64;
    let e64 = |i: u32| {
        if i.is_multiple_of(3) {
            m64(i)
        } else {
            (data1(i) as u64) << 16
        }
    };
    for (op, reference) in cases {
        for rtn in [false, true] {
            if op.contains("_rtn_") && !rtn {
                continue;
            }
            let name = atomic_name(op, rtn);
            let three = matches!(*op, "mskor_b64" | "cmpstore_b64");
            let operands = match (rtn, three) {
                (false, false) => "v1, v[2:3]",
                (false, true) => "v1, v[2:3], v[4:5]",
                (true, false) => "v[6:7], v1, v[2:3]",
                (true, true) => "v[6:7], v1, v[2:3], v[4:5]",
            };
            let src = format!("{name} {operands}\ns_endpgm\n");
            let wg = run(&src, |wg| {
                let mut init = Vec::new();
                for i in 0..32 {
                    init.push(m64(i) as u32);
                    init.push((m64(i) >> 32) as u32);
                }
                wg.lds_mut(0).fill_words(0, &init);
                let w = wg.wave_mut(0);
                for l in 0..32 {
                    w.set_vgpr(1, l, l * 8);
                    w.set_vgpr(2, l, d64(l) as u32);
                    w.set_vgpr(3, l, (d64(l) >> 32) as u32);
                    w.set_vgpr(4, l, e64(l) as u32);
                    w.set_vgpr(5, l, (e64(l) >> 32) as u32);
                }
            });
            let mem = wg.lds(0).words(0, 256);
            for l in 0..32u32 {
                let got = mem[2 * l as usize] as u64 | (mem[2 * l as usize + 1] as u64) << 32;
                assert_eq!(got, reference(m64(l), d64(l), e64(l)), "{name} lane {l}");
                let ret = wg.wave(0).vgpr(6, l) as u64 | (wg.wave(0).vgpr(7, l) as u64) << 32;
                assert_eq!(ret, if rtn { m64(l) } else { 0 }, "{name} lane {l}: return");
            }
        }
    }
}

#[test]
fn lanes_hitting_one_address_act_in_lane_order() {
    // Every lane adds lane+1 to word 0 and gets the running sum before its own add.
    let wg = run("ds_add_rtn_u32 v4, v1, v2\ns_endpgm\n", |wg| {
        for l in 0..32 {
            wg.wave_mut(0).set_vgpr(1, l, 0);
            wg.wave_mut(0).set_vgpr(2, l, l + 1);
        }
    });
    assert_eq!(wg.lds(0).words(0, 4), [(1..=32).sum::<u32>()]);
    for l in 0..32 {
        assert_eq!(wg.wave(0).vgpr(4, l), (1..=l).sum::<u32>(), "lane {l}");
    }
}

#[test]
fn loads_extend_and_d16_forms_keep_the_other_half() {
    let src = "ds_load_u8 v10, v1\nds_load_i8 v11, v1\nds_load_u16 v12, v1\nds_load_i16 v13, v1\n\
               ds_load_u8_d16 v14, v1\nds_load_i8_d16_hi v15, v1\nds_load_u16_d16_hi v16, v1\n\
               ds_load_b32 v17, v1\nds_load_b64 v[18:19], v1\nds_load_b96 v[20:22], v1\n\
               ds_load_b128 v[24:27], v1\ns_endpgm\n";
    let cfg = RunConfig {
        align: AlignMode::Unaligned,
        ..RunConfig::default()
    };
    let wg = run_with(src, &cfg, |wg| {
        wg.lds_mut(0).fill_words(
            0,
            &[
                0x8182_83f4,
                0x1122_3344,
                0x5566_7788,
                0x99aa_bbcc,
                0xddee_ff00,
            ],
        );
        let w = wg.wave_mut(0);
        for l in 0..32 {
            w.set_vgpr(1, l, 0);
            for r in 14..17 {
                w.set_vgpr(r, l, 0x1234_5678);
            }
        }
    });
    let w = wg.wave(0);
    assert_eq!(w.vgpr(10, 3), 0xf4);
    assert_eq!(w.vgpr(11, 3), 0xffff_fff4);
    assert_eq!(w.vgpr(12, 3), 0x83f4);
    assert_eq!(w.vgpr(13, 3), 0xffff_83f4);
    assert_eq!(w.vgpr(14, 3), 0x1234_00f4, "u8_d16 writes the low half");
    assert_eq!(
        w.vgpr(15, 3),
        0xfff4_5678,
        "i8_d16_hi sign-extends into the high half"
    );
    assert_eq!(w.vgpr(16, 3), 0x83f4_5678);
    assert_eq!(w.vgpr(17, 3), 0x8182_83f4);
    assert_eq!((w.vgpr(18, 3), w.vgpr(19, 3)), (0x8182_83f4, 0x1122_3344));
    assert_eq!(
        [w.vgpr(20, 0), w.vgpr(21, 0), w.vgpr(22, 0)],
        [0x8182_83f4, 0x1122_3344, 0x5566_7788]
    );
    assert_eq!(
        [w.vgpr(24, 9), w.vgpr(25, 9), w.vgpr(26, 9), w.vgpr(27, 9)],
        [0x8182_83f4, 0x1122_3344, 0x5566_7788, 0x99aa_bbcc]
    );
}

#[test]
fn stores_of_every_width_and_d16_hi() {
    let src =
        "ds_store_b8 v1, v2\nds_store_b16 v1, v2 offset:2\nds_store_b8_d16_hi v1, v2 offset:4\n\
               ds_store_b16_d16_hi v1, v2 offset:6\nds_store_b32 v1, v2 offset:8\n\
               ds_store_b64 v1, v[2:3] offset:16\nds_store_b96 v1, v[2:4] offset:32\n\
               ds_store_b128 v1, v[2:5] offset:48\ns_endpgm\n";
    let wg = run(src, |wg| {
        let w = wg.wave_mut(0);
        w.set_exec(1);
        w.set_vgpr(1, 0, 0);
        for (r, v) in [
            (2, 0xa1a2_a3a4u32),
            (3, 0xb1b2_b3b4),
            (4, 0xc1c2_c3c4),
            (5, 0xd1d2_d3d4),
        ] {
            w.set_vgpr(r, 0, v);
        }
    });
    let m = wg.lds(0).words(0, 64);
    assert_eq!(m[0], 0xa3a4_00a4);
    assert_eq!(m[1], 0xa1a2_00a2);
    assert_eq!(m[2], 0xa1a2_a3a4);
    assert_eq!(&m[4..6], &[0xa1a2_a3a4, 0xb1b2_b3b4]);
    assert_eq!(&m[8..12], &[0xa1a2_a3a4, 0xb1b2_b3b4, 0xc1c2_c3c4, 0]);
    assert_eq!(
        &m[12..16],
        &[0xa1a2_a3a4, 0xb1b2_b3b4, 0xc1c2_c3c4, 0xd1d2_d3d4]
    );
}

#[test]
fn two_address_forms_scale_offsets_by_element_size_and_stride64() {
    let src = "ds_store_2addr_b32 v1, v2, v3 offset0:1 offset1:3\n\
               ds_store_2addr_stride64_b32 v1, v3, v2 offset0:1 offset1:2\n\
               ds_store_2addr_b64 v1, v[4:5], v[6:7] offset0:8 offset1:9\n\
               ds_load_2addr_b32 v[10:11], v1 offset0:3 offset1:1\n\
               ds_load_2addr_stride64_b64 v[12:15], v1 offset0:0 offset1:1\n\
               ds_storexchg_2addr_rtn_b32 v[16:17], v1, v8, v9 offset0:1 offset1:3\n\
               s_endpgm\n";
    let wg = run(src, |wg| {
        let w = wg.wave_mut(0);
        w.set_exec(1);
        for (r, v) in [
            (1, 0u32),
            (2, 11),
            (3, 33),
            (4, 44),
            (5, 45),
            (6, 66),
            (7, 67),
            (8, 88),
            (9, 99),
        ] {
            w.set_vgpr(r, 0, v);
        }
    });
    let m = wg.lds(0).words(0, 1024);
    // b32: ADJ 4; stride64: ADJ 256; b64: ADJ 8 (docs/rules/ds.md#two-address-forms).
    assert_eq!((m[1], m[3]), (88, 99), "storexchg overwrote the pair");
    assert_eq!((m[64], m[128]), (33, 11));
    assert_eq!((m[16], m[17], m[18], m[19]), (44, 45, 66, 67));
    let w = wg.wave(0);
    assert_eq!((w.vgpr(10, 0), w.vgpr(11, 0)), (33, 11));
    // stride64 b64: offset1 × 512 = byte 512 = word 128.
    assert_eq!((w.vgpr(12, 0), w.vgpr(14, 0)), (0, 11));
    assert_eq!(
        (w.vgpr(16, 0), w.vgpr(17, 0)),
        (11, 33),
        "storexchg returns the old pair"
    );
}

#[test]
fn permute_and_bpermute_wrap_indices_mask_exec_and_split_wave64() {
    // bpermute: lane i reads lane (i+1) mod 32 of its half; lane 5 is disabled (reads of it
    // give 0, and lane 5 itself is not written).
    let cfg = RunConfig {
        wave_size: 64,
        ..RunConfig::default()
    };
    let wg = run_with(
        "ds_bpermute_b32 v5, v1, v2 offset:4\nds_permute_b32 v6, v1, v2\ns_endpgm\n",
        &cfg,
        |wg| {
            let w = wg.wave_mut(0);
            w.set_exec(!(1u64 << 5));
            for l in 0..64 {
                // Bits above [6:2] are ignored: add 0x100 to some indices.
                w.set_vgpr(1, l, (l * 4) | if l % 3 == 0 { 0x100 } else { 0 });
                w.set_vgpr(2, l, 1000 + l);
                w.set_vgpr(5, l, 7);
                w.set_vgpr(6, l, 7);
            }
        },
    );
    let w = wg.wave(0);
    for l in 0..64u32 {
        let half = l & 32;
        let src = half | ((l + 1) & 31);
        let want = if l == 5 {
            7
        } else if src == 5 {
            0
        } else {
            1000 + src
        };
        assert_eq!(w.vgpr(5, l), want, "bpermute lane {l}");
        // permute with index = own lane: identity for enabled lanes, 0 where the source
        // lane (itself) is disabled... lane 5 is not written.
        let want = if l == 5 { 7 } else { 1000 + l };
        assert_eq!(w.vgpr(6, l), want, "permute lane {l}");
    }
}

#[test]
fn permute_highest_source_lane_wins() {
    let wg = run("ds_permute_b32 v5, v1, v2\ns_endpgm\n", |wg| {
        let w = wg.wave_mut(0);
        for l in 0..32 {
            w.set_vgpr(1, l, 0); // every lane sends to lane 0
            w.set_vgpr(2, l, 500 + l);
        }
    });
    assert_eq!(wg.wave(0).vgpr(5, 0), 531);
    assert_eq!(wg.wave(0).vgpr(5, 1), 0, "no lane sent to lane 1");
}

#[test]
fn swizzle_modes() {
    type LaneMap = fn(u32) -> u32;
    let cases: &[(&str, LaneMap)] = &[
        ("swizzle(SWAP,1)", |l| l ^ 1),
        ("swizzle(REVERSE,8)", |l| l ^ 7),
        ("swizzle(BROADCAST,8,3)", |l| (l & !7) | 3),
        ("swizzle(QUAD_PERM,3,2,1,0)", |l| (l & !3) | (3 - (l & 3))),
        ("swizzle(BITMASK_PERM,\"00p01\")", |l| (l & 4) | 1),
    ];
    for (pattern, src_lane) in cases {
        let src = format!("ds_swizzle_b32 v5, v2 offset:{pattern}\ns_endpgm\n");
        let wg = run(&src, |wg| {
            for l in 0..32 {
                wg.wave_mut(0).set_vgpr(2, l, 100 + l);
            }
        });
        for l in 0..32 {
            assert_eq!(
                wg.wave(0).vgpr(5, l),
                100 + src_lane(l),
                "{pattern} lane {l}"
            );
        }
    }
}

#[test]
fn addtid_uses_m0_offset_and_lane_id() {
    let wg = run(
        "ds_store_addtid_b32 v2 offset:8\nds_load_addtid_b32 v3 offset:4\ns_endpgm\n",
        |wg| {
            let w = wg.wave_mut(0);
            w.set_m0(0x10000 | 16); // only M0[15:0] is used
            for l in 0..32 {
                w.set_vgpr(2, l, 7 * l);
            }
        },
    );
    let m = wg.lds(0).words(0, 4 * 40);
    for l in 0..32u32 {
        assert_eq!(m[(24 / 4 + l) as usize], 7 * l, "store lane {l}");
        // load at 16 + 4 + 4l = 20 + 4l: word 5 + l holds 7*(l-1) for l >= 1.
        let want = if l >= 1 { 7 * (l - 1) } else { 0 };
        assert_eq!(wg.wave(0).vgpr(3, l), want, "load lane {l}");
    }
}

#[test]
fn append_and_consume_count_active_lanes() {
    let wg = run(
        "ds_append v4 offset:8\nds_consume v5 offset:8\ns_endpgm\n",
        |wg| {
            wg.lds_mut(0).fill_words(16, &[10]);
            let w = wg.wave_mut(0);
            w.set_m0(8 << 16 | 64); // base 8, size 64
            w.set_exec(0xf0f0);
        },
    );
    assert_eq!(wg.lds(0).words(16, 20), [10]);
    assert_eq!(wg.wave(0).vgpr(4, 4), 10);
    assert_eq!(wg.wave(0).vgpr(5, 4), 18, "consume saw the appended value");
    assert_eq!(wg.wave(0).vgpr(4, 0), 0, "inactive lanes untouched");
}

#[test]
fn condxchg32_replaces_dwords_whose_bit31_is_set() {
    let wg = run(
        "ds_condxchg32_rtn_b64 v[6:7], v1, v[2:3] offset:4\ns_endpgm\n",
        |wg| {
            wg.lds_mut(0).fill_words(8, &[111, 222]);
            let w = wg.wave_mut(0);
            w.set_exec(1);
            w.set_vgpr(1, 0, 4); // (4 + 4) & 0xfff8 = 8
            w.set_vgpr(2, 0, 0x8000_0005);
            w.set_vgpr(3, 0, 0x0000_0009);
        },
    );
    assert_eq!(wg.lds(0).words(8, 16), [5, 222]);
    assert_eq!((wg.wave(0).vgpr(6, 0), wg.wave(0).vgpr(7, 0)), (111, 222));
}

#[test]
fn gds_uses_one_lane_and_the_m0_window() {
    let wg = run(
        "ds_add_rtn_u32 v4, v1, v2 offset:4 gds\nds_store_b32 v1, v2 offset:60 gds\ns_endpgm\n",
        |wg| {
            let w = wg.wave_mut(0);
            w.set_m0(32 << 16 | 64); // window: bytes 32..96
            w.set_exec(0b1100);
            for l in 0..32 {
                w.set_vgpr(1, l, 8);
                w.set_vgpr(2, l, 5 + l);
            }
        },
    );
    // Lane 2 (lowest in EXEC) adds 7 at 32 + 8 + 4 = 44; the store at 8 + 60 = 68 > 64 is
    // outside the window and dropped.
    assert_eq!(wg.gds().words(44, 48), [7]);
    assert_eq!(wg.gds().words(100, 104), [0]);
    assert_eq!(wg.wave(0).vgpr(4, 2), 0);
    assert!(
        wg.events().iter().any(|e| e.kind == "gds_out_of_range"),
        "{:?}",
        wg.events()
    );
}

#[test]
fn gs_register_adds_are_32_bit_below_8_and_64_bit_from_8() {
    let src =
        "ds_add_gs_reg_rtn v[4:5], v2 offset:4 gds\nds_add_gs_reg_rtn v[4:5], v2 offset:4 gds\n\
               ds_sub_gs_reg_rtn v[6:7], v2 offset:32 gds\ns_endpgm\n";
    let wg = run(src, |wg| {
        wg.gds_mut().gs_regs[8] = 0x1_0000_0000;
        let w = wg.wave_mut(0);
        w.set_exec(0b10);
        w.set_vgpr(2, 1, 0xffff_fff0);
    });
    assert_eq!(wg.gds().gs_regs[1], 0xffff_ffe0, "32-bit register wraps");
    assert_eq!(wg.wave(0).vgpr(4, 1), 0xffff_fff0);
    assert_eq!(wg.gds().gs_regs[8], 0x1_0000_0000 - 0xffff_fff0);
    assert_eq!((wg.wave(0).vgpr(6, 1), wg.wave(0).vgpr(7, 1)), (0, 1));
}

#[test]
fn dword_alignment_mode_aligns_down_unaligned_mode_does_not() {
    let src = "ds_load_b32 v5, v1\nds_store_b32 v1, v2 offset:32\ns_endpgm\n";
    let setup = |wg: &mut Device| {
        wg.lds_mut(0).fill_words(0, &[0x4433_2211, 0x8877_6655]);
        let w = wg.wave_mut(0);
        w.set_exec(1);
        w.set_vgpr(1, 0, 2);
        w.set_vgpr(2, 0, 0xaabb_ccdd);
    };
    let wg = run(src, setup);
    assert_eq!(wg.wave(0).vgpr(5, 0), 0x4433_2211);
    assert_eq!(wg.lds(0).words(32, 40), [0xaabb_ccdd, 0]);
    let cfg = RunConfig {
        align: AlignMode::Unaligned,
        ..RunConfig::default()
    };
    let wg = run_with(src, &cfg, setup);
    assert_eq!(wg.wave(0).vgpr(5, 0), 0x6655_4433);
    assert_eq!(wg.lds(0).words(32, 40), [0xccdd_0000, 0x0000_aabb]);
}

#[test]
fn misaligned_atomics_raise_memviol_and_do_nothing() {
    let wg = run("ds_add_rtn_u32 v4, v1, v2\ns_endpgm\n", |wg| {
        wg.lds_mut(0).fill_words(0, &[1, 1]);
        let w = wg.wave_mut(0);
        w.set_exec(0b11);
        w.set_vgpr(1, 0, 0);
        w.set_vgpr(1, 1, 6);
        w.set_vgpr(2, 0, 10);
        w.set_vgpr(2, 1, 10);
        w.set_vgpr(4, 1, 77);
    });
    assert_eq!(wg.lds(0).words(0, 8), [11, 1]);
    assert_eq!(
        wg.wave(0).vgpr(4, 1),
        77,
        "the faulting lane's return is untouched"
    );
    let e: Vec<_> = wg.events().iter().filter(|e| e.kind == "memviol").collect();
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("lane 1"));
}

#[test]
fn accesses_outside_the_allocation_read_zero_and_write_nothing() {
    let cfg = RunConfig {
        lds_size: 64,
        ..RunConfig::default()
    };
    let wg = run_with(
        "ds_store_b32 v1, v2\nds_load_b32 v3, v1\ns_endpgm\n",
        &cfg,
        |wg| {
            wg.lds_mut(0).fill_words(64, &[0x55]);
            let w = wg.wave_mut(0);
            for l in 0..32 {
                w.set_vgpr(1, l, l * 4);
                w.set_vgpr(2, l, 9);
                w.set_vgpr(3, l, 123);
            }
        },
    );
    assert_eq!(
        wg.lds(0).words(60, 68),
        [9, 0x55],
        "the store stopped at the allocation's end"
    );
    assert_eq!(wg.wave(0).vgpr(3, 15), 9);
    assert_eq!(wg.wave(0).vgpr(3, 16), 0, "reads past the end give 0");
    let e: Vec<_> = wg
        .events()
        .iter()
        .filter(|e| e.kind == "lds_out_of_range")
        .collect();
    assert_eq!(e.len(), 2);
}

#[test]
fn exec_masks_lanes_and_wave64_runs_both_halves() {
    let cfg = RunConfig {
        wave_size: 64,
        ..RunConfig::default()
    };
    let wg = run_with("ds_store_b32 v1, v0\ns_endpgm\n", &cfg, |wg| {
        let w = wg.wave_mut(0);
        w.set_exec(0xffff_0000_0000_ffff);
        for l in 0..64 {
            w.set_vgpr(1, l, l * 4);
        }
    });
    let m = wg.lds(0).words(0, 256);
    for l in 0..64u32 {
        let on = !(16..48).contains(&l);
        assert_eq!(m[l as usize], if on { l } else { 0 }, "lane {l}");
    }
}

#[test]
fn float_atomics_use_the_fp_rules() {
    let src = "ds_add_rtn_f32 v4, v1, v2\nds_max_f32 v1, v2 offset:4\nds_min_rtn_f32 v5, v1, v2 offset:8\n\
               ds_cmpstore_f32 v1, v2, v3 offset:12\ns_endpgm\n";
    let wg = run(src, |wg| {
        wg.lds_mut(0)
            .fill_words(0, &[0x3f80_0000, 0x7fa0_0001, 0xff80_0000, 0x8000_0000]);
        let w = wg.wave_mut(0);
        w.set_exec(1);
        w.set_vgpr(1, 0, 0);
        w.set_vgpr(2, 0, 0x4000_0000); // 2.0
        w.set_vgpr(3, 0, 0x0000_0000); // +0 compares equal to -0
    });
    let m = wg.lds(0).words(0, 16);
    assert_eq!(m[0], 0x4040_0000, "1.0 + 2.0 = 3.0");
    assert_eq!(wg.wave(0).vgpr(4, 0), 0x3f80_0000);
    assert_eq!(
        m[1], 0x7fe0_0001,
        "max with a signalling NaN in memory (src0) gives it quieted"
    );
    assert_eq!(m[2], 0xff80_0000, "min(-inf, 2.0) = -inf");
    assert_eq!(m[3], 0x4000_0000, "-0 == +0: cmpstore swaps");
}

#[test]
fn every_ds_instruction_executes() {
    // Alone, only ds_gws_sema_p (a zero semaphore) cannot finish: that must be reported as a
    // deadlock naming the resource, never a hang.
    let mut executed = 0;
    for (_, d) in all().filter(|(_, d)| d.format == Format::Ds) {
        let text = gpumemsim::isa::print::print(&gpumemsim::isa::Instruction::new(
            gpumemsim::isa::def::lookup_name(d.name).expect("listed"),
        ));
        let text = if d.flags.has(gpumemsim::isa::Flags::GDS_ONLY) {
            format!("{text} gds")
        } else {
            text
        };
        let prog = assemble(&format!("{text}\ns_waitcnt lgkmcnt(0)\ns_endpgm\n"));
        assert!(prog.errors.is_empty(), "{text}: {:?}", prog.errors);
        let cfg = RunConfig::default();
        let mut wg = Device::new(&cfg, prog.lines.len()).expect("config");
        match wg.run(&prog.lines, &cfg) {
            Ok(()) => executed += 1,
            Err(e) => {
                let msg = e.to_string();
                assert_eq!(d.name, "ds_gws_sema_p", "{msg}");
                assert!(
                    msg.contains("deadlock") && msg.contains("GWS resource 0"),
                    "{msg}"
                );
            }
        }
    }
    assert_eq!(executed, 126 - 1);
}

#[test]
fn bvh_stack_pushes_valid_children_and_pops_when_no_child_is_returned() {
    // Stack base 16 dwords (byte 64), size 8 (offset1 = 0); entries 128 bytes apart. Lane 0.
    let src = "ds_bvh_stack_rtn_b32 v5, v1, v2, v[10:13]\n\
               ds_bvh_stack_rtn_b32 v6, v1, v2, v[20:23]\n\
               ds_bvh_stack_rtn_b32 v7, v1, v3, v[30:33]\ns_endpgm\n";
    let wg = run(src, |wg| {
        let w = wg.wave_mut(0);
        w.set_exec(1);
        w.set_vgpr(1, 0, 16 << 18);
        w.set_vgpr(2, 0, 0xffff_ffff); // no last-visited node
        w.set_vgpr(3, 0, 77); // last-visited node 77
        let sets = [
            (10, [100u32, 102, 0xffff_ffff, 0xffff_ffff]),
            (20, [200, 201, 202, 203]),
            (30, [300, 77, 301, 302]),
        ];
        for (r, vals) in sets {
            for (k, v) in vals.iter().enumerate() {
                w.set_vgpr(r + k as u32, 0, *v);
            }
        }
    });
    let w = wg.wave(0);
    // 1: push 100 and 102, stop at the first invalid child, pop 102.
    assert_eq!(w.vgpr(5, 0), 102);
    // 2: push 200, 201, 202 and return the fourth child.
    assert_eq!(w.vgpr(6, 0), 203);
    // 3: push 300, stop at the last-visited node 77, pop 300.
    assert_eq!(w.vgpr(7, 0), 300);
    assert_eq!(
        w.vgpr(1, 0),
        16 << 18 | 4,
        "index 4 after 1 + 3 + 1 pushes and 2 pops"
    );
    let slot = |i: u32| wg.lds(0).words(64 + 128 * i, 68 + 128 * i)[0];
    assert_eq!(
        [slot(1), slot(2), slot(3), slot(4), slot(5)],
        [100, 200, 201, 202, 0xffff_ffff]
    );
}

#[test]
fn lds_direct_load_broadcasts_with_m0_type_and_quad_exec() {
    let src = "lds_direct_load v5 wait_vdst:0\ns_waitcnt expcnt(0)\ns_endpgm\n";
    for (dtype, want) in [
        (0u32, 0xf4u32),
        (1, 0x83f4),
        (2, 0x8182_83f4),
        (4, 0xffff_fff4),
        (5, 0xffff_83f4),
    ] {
        let wg = run(src, |wg| {
            wg.lds_mut(0).fill_words(8, &[0x8182_83f4]);
            let w = wg.wave_mut(0);
            w.set_m0(dtype << 16 | 8);
            w.set_exec(0b0010_0000); // lane 5: quad 1 (lanes 4-7) is written whole
        });
        let w = wg.wave(0);
        for l in 0..12 {
            let expect = if (4..8).contains(&l) { want } else { 0 };
            assert_eq!(w.vgpr(5, l), expect, "type {dtype} lane {l}");
        }
    }
}

#[test]
fn lds_param_load_spreads_p0_p10_p20_over_each_quad_by_primitive() {
    // 4 quads (wave32 uses 8; EXEC covers quads 0-3); new_prim_mask[3:0] = 0b0110 as in the
    // ISA guide's example: quads 0 → prim 0, 1 → prim 1, 2 → prim 2, 3 → prim 2.
    let src = "lds_param_load v7, attr1.z wait_vdst:0\ns_waitcnt expcnt(0)\ns_endpgm\n";
    let param_offset = 128u32;
    let wg = run(src, |wg| {
        let prims = 3u32; // bits 0 (implied), 1, 2 over 8 quads
                          // dword value = 1000 * prim + 10 * p + chan, for attr 1.
        for prim in 0..prims {
            for p in 0..3 {
                for chan in 0..4 {
                    let dword = prims * 12 + prim * 12 + p * 4 + chan;
                    wg.lds_mut(0)
                        .fill_words(param_offset + 4 * dword, &[1000 * prim + 10 * p + chan]);
                }
            }
        }
        let w = wg.wave_mut(0);
        w.set_m0((0b0110u32 >> 1) << 16 | param_offset);
        w.set_exec(0xffff);
    });
    let w = wg.wave(0);
    let prim_of_quad = [0, 1, 2, 2];
    for q in 0..4u32 {
        for p in 0..4u32 {
            let want = if p < 3 {
                1000 * prim_of_quad[q as usize] + 10 * p + 2
            } else {
                0
            };
            assert_eq!(w.vgpr(7, 4 * q + p), want, "quad {q} lane {p}");
        }
    }
    assert_eq!(
        w.vgpr(7, 16),
        0,
        "quads without enabled lanes are not written"
    );
}

#[test]
fn f64_float_atomics_follow_the_orders_and_compare_rules() {
    // docs/rules/float-atomics.md#min-and-max-orders: -0 < +0; QNaN is the smallest for max
    // and the largest for min. Compare-store treats +0 == -0 and never matches a NaN.
    let one = 1.0f64.to_bits();
    let two = 2.0f64.to_bits();
    let qnan = 0x7ff8_0000_0000_0001u64;
    let src = "ds_max_f64 v1, v[2:3]\nds_min_rtn_f64 v[10:11], v1, v[4:5] offset:8\n\
               ds_cmpstore_f64 v1, v[6:7], v[8:9] offset:16\nds_cmpstore_rtn_f64 v[12:13], v1, v[6:7], v[4:5] offset:24\n\
               s_endpgm\n";
    let wg = run(src, |wg| {
        let mem = [0x8000_0000_0000_0000u64, qnan, 0, qnan];
        let words: Vec<u32> = mem
            .iter()
            .flat_map(|m| [*m as u32, (m >> 32) as u32])
            .collect();
        wg.lds_mut(0).fill_words(0, &words);
        let w = wg.wave_mut(0);
        w.set_exec(1);
        w.set_vgpr(1, 0, 0);
        for (r, v) in [(2, 0u64), (4, one), (6, two), (8, 0x8000_0000_0000_0000)] {
            w.set_vgpr(r, 0, v as u32);
            w.set_vgpr(r + 1, 0, (v >> 32) as u32);
        }
    });
    let m = wg.lds(0).words(0, 32);
    let q = |i: usize| m[2 * i] as u64 | (m[2 * i + 1] as u64) << 32;
    assert_eq!(q(0), 0, "max(-0, +0) = +0");
    assert_eq!(q(1), one, "min(QNaN, 1.0) = 1.0");
    assert_eq!(q(2), two, "cmpstore: memory +0 equals compare -0");
    assert_eq!(q(3), qnan, "cmpstore never matches a NaN");
    let w = wg.wave(0);
    assert_eq!(
        w.vgpr(10, 0) as u64 | (w.vgpr(11, 0) as u64) << 32,
        qnan,
        "min returns the old value"
    );
}

#[test]
fn param_load_then_v_interp_computes_p0_plus_i_p10_plus_j_p20() {
    // One primitive for the whole wave: P0 = 2.0, P10 = 0.5, P20 = -1.0 for attr0.x.
    let src = "lds_param_load v3, attr0.x wait_vdst:0\n\
               v_interp_p10_f32 v4, v3, v1, v3 wait_exp:0\n\
               v_interp_p2_f32 v5, v3, v2, v4 wait_exp:0\n\
               v_interp_p2_f32 v6, -v3, v2, v4 clamp wait_exp:0\ns_endpgm\n";
    let (p0, p10, p20) = (2.0f32, 0.5f32, -1.0f32);
    let wg = run(src, |wg| {
        // dword (p × 4 + chan) for attr 0, prim 0.
        wg.lds_mut(0).fill_words(
            0,
            &[p0.to_bits(), 0, 0, 0, p10.to_bits(), 0, 0, 0, p20.to_bits()],
        );
        let w = wg.wave_mut(0);
        w.set_m0(0);
        for l in 0..32 {
            w.set_vgpr(1, l, (l as f32 / 32.0).to_bits()); // I
            w.set_vgpr(2, l, (1.0 - l as f32 / 64.0).to_bits()); // J
        }
    });
    let w = wg.wave(0);
    for l in 0..32 {
        let (i, j) = (l as f32 / 32.0, 1.0 - l as f32 / 64.0);
        let tmp = p10.mul_add(i, p0);
        let want = p20.mul_add(j, tmp);
        assert_eq!(f32::from_bits(w.vgpr(4, l)), tmp, "p10 lane {l}");
        assert_eq!(f32::from_bits(w.vgpr(5, l)), want, "p2 lane {l}");
        let neg = (-p20).mul_add(j, tmp).clamp(0.0, 1.0);
        assert_eq!(f32::from_bits(w.vgpr(6, l)), neg, "neg + clamp lane {l}");
    }
}

#[test]
fn v_interp_f16_forms_select_halves_and_round() {
    // P values as f16 pairs: low half attr0 (1.0, 0.25, 2.0), high half attr1 (3.0, 0.5, -4.0).
    let pair = |lo: u16, hi: u16| (hi as u32) << 16 | lo as u32;
    let src = "lds_param_load v3, attr0.x wait_vdst:0\n\
               v_interp_p10_f16_f32 v4, v3, v1, v3 op_sel:[1,0,1,0] wait_exp:0\n\
               v_interp_p2_f16_f32 v5, v3, v2, v4 op_sel:[1,0,0,1] wait_exp:0\n\
               v_interp_p2_rtz_f16_f32 v6, v3, v2, v4 op_sel:[1,0,0,0] wait_exp:0\ns_endpgm\n";
    let wg = run(src, |wg| {
        wg.lds_mut(0).fill_words(
            0,
            &[
                pair(0x3c00, 0x4200),
                0,
                0,
                0,
                pair(0x3400, 0x3800),
                0,
                0,
                0,
                pair(0x4000, 0xc400),
            ],
        );
        let w = wg.wave_mut(0);
        for l in 0..32 {
            w.set_vgpr(1, l, 0.5f32.to_bits());
            w.set_vgpr(2, l, (1.0f32 / 3.0).to_bits());
            w.set_vgpr(5, l, 0x1111_2222);
            w.set_vgpr(6, l, 0x3333_4444);
        }
    });
    let w = wg.wave(0);
    // High halves: tmp = 0.5 × 0.5 + 3.0 = 3.25; result = -4 × (1/3) + 3.25 = 1.91666...
    assert_eq!(f32::from_bits(w.vgpr(4, 7)), 3.25);
    let exact = (-4.0f32).mul_add(1.0 / 3.0, 3.25);
    // With 1/3 rounded to f32 the fused result is 0x3ff55555 (1.9166666); as f16 that is 938.67
    // steps of 2^-10 above 1.0: nearest 0x3fab, toward zero 0x3faa.
    assert_eq!(exact.to_bits(), 0x3ff5_5555);
    assert_eq!(
        w.vgpr(5, 7),
        0x3fab_2222,
        "p2_f16 writes the high half (op_sel[3])"
    );
    assert_eq!(
        w.vgpr(6, 7),
        0x3333_3faa,
        "rtz rounds toward zero into the low half"
    );
}

/// The events of `kind` a run produced.
fn events_of<'a>(wg: &'a Device, kind: &str) -> Vec<&'a gpumemsim::event::Event> {
    wg.events().iter().filter(|e| e.kind == kind).collect()
}

#[test]
fn misaligned_storexchg_2addr_raises_memviol_in_either_alignment_mode() {
    // docs/rules/ds.md#exchange-is-an-atomic: no auto-alignment: lane 1's base 6 is not a
    // multiple of 4 and its lane does nothing; lane 0 (base 0) exchanges words 1 and 3.
    let src = "ds_storexchg_2addr_rtn_b32 v[16:17], v1, v8, v9 offset0:1 offset1:3\ns_endpgm\n";
    for align in [AlignMode::Dword, AlignMode::Unaligned] {
        let cfg = RunConfig {
            align,
            ..RunConfig::default()
        };
        let wg = run_with(src, &cfg, |wg| {
            wg.lds_mut(0).fill_words(0, &[10, 11, 12, 13, 14, 15]);
            let w = wg.wave_mut(0);
            w.set_exec(0b11);
            w.set_vgpr(1, 1, 6);
            for l in 0..2 {
                w.set_vgpr(8, l, 88);
                w.set_vgpr(9, l, 99);
                w.set_vgpr(16, l, 7);
                w.set_vgpr(17, l, 7);
            }
        });
        assert_eq!(
            wg.lds(0).words(0, 24),
            [10, 88, 12, 99, 14, 15],
            "{align:?}"
        );
        let w = wg.wave(0);
        assert_eq!((w.vgpr(16, 0), w.vgpr(17, 0)), (11, 13));
        assert_eq!(
            (w.vgpr(16, 1), w.vgpr(17, 1)),
            (7, 7),
            "the faulting lane's return is untouched"
        );
        let e = events_of(&wg, "memviol");
        assert_eq!(e.len(), 1, "{align:?}: {:?}", wg.events());
        assert!(e[0].message.contains("lane 1"), "{}", e[0].message);
    }
}

#[test]
fn an_address_that_passes_2_pow_32_wraps_and_is_reported() {
    // VGPR 0xffff_fff8 + offset 12 = 2^32 + 4: the 32-bit sum is 4 (word 1). Lane 1's
    // 0x10 + 12 does not wrap.
    let src = "ds_load_b32 v3, v1 offset:12\nds_store_2addr_b32 v1, v2, v2 offset0:3 offset1:5\n\
               ds_add_u32 v1, v2 offset:12\ns_endpgm\n";
    let wg = run(src, |wg| {
        wg.lds_mut(0)
            .fill_words(0, &[100, 101, 102, 103, 104, 105, 106, 107, 108]);
        let w = wg.wave_mut(0);
        w.set_exec(0b11);
        w.set_vgpr(1, 0, 0xffff_fff8);
        w.set_vgpr(1, 1, 0x10);
        w.set_vgpr(2, 0, 1);
        w.set_vgpr(2, 1, 2);
    });
    let w = wg.wave(0);
    assert_eq!(w.vgpr(3, 0), 101, "wrapped to byte 4");
    assert_eq!(w.vgpr(3, 1), 107);
    // 2addr lane 0: 0xffff_fff8 + 12 → 4 and + 20 → 12; lane 1: 0x1c and 0x24. Then the
    // add: lane 0 at 4, lane 1 at 0x1c.
    let m = wg.lds(0).words(0, 40);
    assert_eq!(m[1], 2, "store then add at the wrapped word 1");
    assert_eq!(m[3], 1);
    assert_eq!(m[7], 4);
    assert_eq!(m[9], 2);
    let e = events_of(&wg, "lds_address_wrap");
    assert_eq!(e.len(), 3, "{:?}", wg.events());
    for ev in e {
        assert_eq!(ev.detail.as_ref().expect("lanes").lanes, [0]);
    }
    // 0xffff_fff0 + 12 stays below 2^32: out of the allocation, but no wrap.
    let clean = run("ds_load_b32 v3, v1 offset:12\ns_endpgm\n", |wg| {
        wg.wave_mut(0).set_vgpr(1, 0, 0xffff_fff0);
    });
    assert!(events_of(&clean, "lds_address_wrap").is_empty());
    assert_eq!(events_of(&clean, "lds_out_of_range").len(), 1);
}

/// With every lane active (the row forms' one-pass address path) a lane whose address
/// passes 2^32 wraps and is reported as it is with a partial EXEC.
#[test]
fn a_wrapping_lane_of_a_full_wave_wraps_and_is_reported() {
    let src = "ds_load_b32 v3, v1 offset:12\nds_load_2addr_b32 v[4:5], v1 offset0:3 offset1:5\n\
               s_endpgm\n";
    let wg = run(src, |wg| {
        wg.lds_mut(0)
            .fill_words(0, &(100..164).collect::<Vec<u32>>());
        let w = wg.wave_mut(0);
        w.set_exec(u64::from(u32::MAX));
        for l in 0..32 {
            w.set_vgpr(1, l, 4 * l);
        }
        w.set_vgpr(1, 7, 0xffff_fff8);
    });
    let w = wg.wave(0);
    // Lane 7: 0xffff_fff8 + 12 = 2^32 + 4 (word 1); + 20 = 2^32 + 12 (word 3).
    assert_eq!((w.vgpr(3, 7), w.vgpr(4, 7), w.vgpr(5, 7)), (101, 101, 103));
    // Lane 2: byte 8 + 12 = word 5; 2addr words 5 and 7.
    assert_eq!((w.vgpr(3, 2), w.vgpr(4, 2), w.vgpr(5, 2)), (105, 105, 107));
    let e = events_of(&wg, "lds_address_wrap");
    assert_eq!(e.len(), 2, "{:?}", wg.events());
    for ev in e {
        assert_eq!(ev.detail.as_ref().expect("lanes").lanes, [7]);
    }
}

#[test]
fn addtid_with_a_misaligned_m0_is_reported_and_follows_the_alignment_mode() {
    // M0 = 18: addresses 18 + 4l. DWORD mode aligns each down to 16 + 4l; unaligned mode
    // stores at 18 + 4l.
    let src = "ds_store_addtid_b32 v2\ns_endpgm\n";
    let setup = |wg: &mut Device| {
        let w = wg.wave_mut(0);
        w.set_m0(18);
        w.set_exec(0b11);
        w.set_vgpr(2, 0, 0x1111_1111);
        w.set_vgpr(2, 1, 0x2222_2222);
    };
    let wg = run(src, setup);
    assert_eq!(wg.lds(0).words(16, 28), [0x1111_1111, 0x2222_2222, 0]);
    let e = events_of(&wg, "m0_misaligned");
    assert_eq!(e.len(), 1, "{:?}", wg.events());
    assert!(e[0].message.contains("aligned the addresses down"));
    let cfg = RunConfig {
        align: AlignMode::Unaligned,
        ..RunConfig::default()
    };
    let wg = run_with(src, &cfg, setup);
    assert_eq!(
        wg.lds(0).words(16, 28),
        [0x1111_0000, 0x2222_1111, 0x0000_2222]
    );
    assert_eq!(events_of(&wg, "m0_misaligned").len(), 1);
    let aligned = run(src, |wg| wg.wave_mut(0).set_m0(16));
    assert!(events_of(&aligned, "m0_misaligned").is_empty());
}

#[test]
fn lds_direct_load_with_a_misaligned_m0_is_reported() {
    // Dword type at M0[15:0] = 9: DWORD mode reads the dword at 8.
    let src = "lds_direct_load v5 wait_vdst:0\ns_waitcnt expcnt(0)\ns_endpgm\n";
    let wg = run(src, |wg| {
        wg.lds_mut(0).fill_words(8, &[0x8182_83f4, 0x0000_0055]);
        let w = wg.wave_mut(0);
        w.set_m0(2 << 16 | 9);
        w.set_exec(1);
    });
    assert_eq!(wg.wave(0).vgpr(5, 0), 0x8182_83f4);
    assert_eq!(
        events_of(&wg, "m0_misaligned").len(),
        1,
        "{:?}",
        wg.events()
    );
}

/// Fills attribute 0 of one primitive at `param_offset`: P0/P10/P20 of channel c = 10p + c + 1.
fn fill_params(wg: &mut Device, param_offset: u32) {
    for p in 0..3u32 {
        for chan in 0..4u32 {
            wg.lds_mut(0)
                .fill_words(param_offset + 4 * (p * 4 + chan), &[10 * p + chan + 1]);
        }
    }
}

#[test]
fn lds_param_offset_low_bits_are_ignored_and_reported() {
    // docs/rules/ds.md#lds-parameter-load: lds_param_offset[6:0] must be zero; 128 + 0x44
    // loads from 128.
    let src = "lds_param_load v7, attr0.y wait_vdst:0\ns_waitcnt expcnt(0)\ns_endpgm\n";
    let wg = run(src, |wg| {
        fill_params(wg, 128);
        wg.lds_mut(0).fill_words(128 + 0x44, &[0xdead; 12]);
        let w = wg.wave_mut(0);
        w.set_m0(128 + 0x44);
        w.set_exec(0xf);
    });
    let w = wg.wave(0);
    assert_eq!([w.vgpr(7, 0), w.vgpr(7, 1), w.vgpr(7, 2)], [2, 12, 22]);
    let e = events_of(&wg, "lds_param_rule");
    assert_eq!(e.len(), 1, "{:?}", wg.events());
    assert!(e[0].message.contains("bits [6:0]"), "{}", e[0].message);
}

#[test]
fn lds_param_load_before_lds_ready_is_reported() {
    let src = "lds_param_load v7, attr0.x wait_vdst:0\ns_waitcnt expcnt(0)\ns_endpgm\n";
    let wg = run(src, |wg| {
        fill_params(wg, 0);
        wg.wave_mut(0).lds_ready = false;
    });
    let e = events_of(&wg, "lds_param_rule");
    assert_eq!(e.len(), 1, "{:?}", wg.events());
    assert!(e[0].message.contains("LDS_READY"));
    assert_eq!(
        wg.wave(0).vgpr(7, 0),
        1,
        "the load reads LDS when the stall ends"
    );
    let ready = run(src, |wg| fill_params(wg, 0));
    assert!(events_of(&ready, "lds_param_rule").is_empty());
}

#[test]
fn a_destination_outside_the_vgpr_allocation_forces_exec_to_zero() {
    let src = "lds_param_load v9, attr0.x wait_vdst:0\nlds_direct_load v8 wait_vdst:0\n\
               s_waitcnt expcnt(0)\ns_endpgm\n";
    let wg = run(src, |wg| {
        fill_params(wg, 0);
        let w = wg.wave_mut(0);
        w.vgpr_limit = 9;
        w.set_m0(2 << 16);
        for l in 0..32 {
            w.set_vgpr(9, l, 5);
        }
    });
    let w = wg.wave(0);
    assert!((0..32).all(|l| w.vgpr(9, l) == 5), "v9 is not written");
    assert_eq!(w.vgpr(8, 0), 1, "v8 is inside the allocation");
    let e = events_of(&wg, "lds_param_rule");
    assert_eq!(e.len(), 1, "{:?}", wg.events());
    assert!(e[0].message.contains("v9"), "{}", e[0].message);
}

#[test]
fn wait_vdst_that_lets_a_valu_using_the_destination_stay_outstanding_is_reported() {
    let load = |wait: u32| format!("lds_param_load v1, attr0.x wait_vdst:{wait}\n");
    // v_mov reads v1, then one unrelated VALU: the reader is the second most recent.
    let prefix = "v_mov_b32 v5, v1\nv_add_nc_u32 v2, v3, v4\n";
    let tail = "s_waitcnt expcnt(0)\ns_endpgm\n";
    for (wait, hazard) in [(0, false), (1, false), (2, true), (15, true)] {
        let wg = run(&format!("{prefix}{}{tail}", load(wait)), |wg| {
            fill_params(wg, 0)
        });
        let e = events_of(&wg, "lds_param_rule");
        assert_eq!(
            e.len(),
            hazard as usize,
            "wait_vdst:{wait}: {:?}",
            wg.events()
        );
        if hazard {
            let m = &e[0].message;
            assert!(m.contains("v_mov_b32") && m.contains("reads v1"), "{m}");
        }
    }
    // A VALU writing the destination is a hazard too; a DS instruction in between ends the
    // window.
    let wg = run(&format!("v_mov_b32 v1, 3\n{}{tail}", load(15)), |wg| {
        fill_params(wg, 0)
    });
    assert!(events_of(&wg, "lds_param_rule")[0]
        .message
        .contains("that writes v1"));
    let wg = run(
        &format!("v_mov_b32 v1, 3\nds_nop\n{}{tail}", load(15)),
        |wg| fill_params(wg, 0),
    );
    assert!(
        events_of(&wg, "lds_param_rule").is_empty(),
        "{:?}",
        wg.events()
    );
}
