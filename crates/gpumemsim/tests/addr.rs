//! The apertures and flat_scratch as a running program reads them.

use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::assemble;

#[test]
fn aperture_registers_and_flat_scratch_are_readable() {
    let prog = assemble(
        "s_mov_b64 s[0:1], src_shared_base\ns_mov_b64 s[2:3], src_private_limit\n\
         s_mov_b32 s4, src_private_base\n\
         s_getreg_b32 s5, hwreg(HW_REG_FLAT_SCR_LO)\ns_getreg_b32 s6, hwreg(HW_REG_FLAT_SCR_HI)\n\
         s_endpgm",
    );
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let cfg = RunConfig {
        wave_size: 64,
        waves: 2,
        scratch_base: 0x1234_0000_0000,
        scratch_size: 4016,
        ..RunConfig::default()
    };
    let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
    dev.run(&prog.lines, &cfg).expect("runs");
    for (i, w) in dev.waves().iter().enumerate() {
        assert_eq!(w.sreg64(0), 0x1_0000_0000_0000);
        assert_eq!(w.sreg64(2), 0x2_0000_ffff_ffff);
        assert_eq!(w.sreg(4), 0, "a 32-bit read gives the low dword");
        let fs = w.sreg(5) as u64 | (w.sreg(6) as u64) << 32;
        assert_eq!(fs, 0x1234_0000_0000 + i as u64 * 0x3ec00, "wave {i}");
    }
}

use gpumemsim::addr::{ScratchLayout, PRIVATE_BASE, SHARED_BASE};
use gpumemsim::exec::RunError;

const SCRATCH_BASE: u64 = 0x5000_0000;

fn cfg64(waves: u32) -> RunConfig {
    RunConfig {
        wave_size: 64,
        waves,
        scratch_base: SCRATCH_BASE,
        scratch_size: 4016,
        ..RunConfig::default()
    }
}

fn run(text: &str, cfg: &RunConfig, setup: impl Fn(&mut Device)) -> (Device, Result<(), RunError>) {
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
    setup(&mut dev);
    let r = dev.run(&prog.lines, cfg);
    (dev, r)
}

fn layout(cfg: &RunConfig) -> ScratchLayout {
    ScratchLayout {
        base: cfg.scratch_base,
        wave_size: cfg.wave_size,
        scratch_size: cfg.scratch_size,
    }
}

#[test]
fn the_hardware_measurement_an_8_byte_private_variable_at_offset_8() {
    // Each lane stores 0x12345678_deadbeaf (hi, lo) at private offset 8 with scratch_store_b64.
    let cfg = cfg64(2);
    let (dev, r) = run(
        "v_mov_b32 v2, 0xdeadbeaf\nv_mov_b32 v3, 0x12345678\nscratch_store_b64 off, v[2:3], off offset:8\n\
         s_waitcnt_vscnt null, 0x0\ns_endpgm",
        &cfg,
        |_| {},
    );
    r.expect("runs");
    let s = layout(&cfg);
    for wave in 0..2 {
        let fs = s.flat_scratch(wave);
        assert_eq!(fs, SCRATCH_BASE + wave as u64 * 0x3ec00);
        for lane in [0u64, 1, 63] {
            assert_eq!(
                dev.memory().read_u32(fs + 8 * 64 + 4 * lane),
                0xdeadbeaf,
                "wave {wave} lane {lane}"
            );
            assert_eq!(dev.memory().read_u32(fs + 12 * 64 + 4 * lane), 0x12345678);
        }
    }
    assert!(dev.events().is_empty(), "{:?}", dev.events());
}

#[test]
fn every_scratch_addressing_form_and_flat_private_give_the_same_bytes() {
    // Each form stores lane+1 at private offset 0x20 of the lane (wave32).
    let cfg = RunConfig {
        scratch_base: SCRATCH_BASE,
        scratch_size: 256,
        ..RunConfig::default()
    };
    let forms = [
        "scratch_store_b32 off, v5, off offset:32",
        "scratch_store_b32 off, v5, s8 offset:16",
        "scratch_store_b32 v6, v5, off",
        "scratch_store_b32 v7, v5, s9 offset:-8",
        "flat_store_b32 v[10:11], v5",
    ];
    for form in forms {
        let (dev, r) = run(
            &format!("{form}\ns_waitcnt_vscnt null, 0x0\ns_endpgm"),
            &cfg,
            |d| {
                let w = d.wave_mut(0);
                w.set_sreg(8, 16);
                w.set_sreg(9, 0x18);
                for l in 0..32 {
                    w.set_vgpr(5, l, l + 1);
                    w.set_vgpr(6, l, 0x20);
                    w.set_vgpr(7, l, 0x10);
                    let flat = PRIVATE_BASE + 0x20;
                    w.set_vgpr(10, l, flat as u32);
                    w.set_vgpr(11, l, (flat >> 32) as u32);
                }
            },
        );
        r.expect("runs");
        let s = layout(&cfg);
        for l in 0..32 {
            assert_eq!(
                dev.memory().read_u32(s.lane_address(0, l, 0x20)),
                l + 1,
                "{form} lane {l}"
            );
        }
        // Loading back through scratch gives the lane its own value.
        assert!(dev.events().is_empty(), "{form}: {:?}", dev.events());
    }
}

#[test]
fn a_flat_instruction_routes_each_lane_by_its_aperture() {
    let cfg = RunConfig {
        scratch_base: SCRATCH_BASE,
        scratch_size: 64,
        ..RunConfig::default()
    };
    // Lane l: l % 3 == 0 → LDS offset 4l, 1 → private offset 4, 2 → global 0x9000 + 4l.
    let (dev, r) = run(
        "flat_store_b32 v[10:11], v5\ns_waitcnt_vscnt null, 0x0\nflat_load_b32 v6, v[10:11]\ns_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm",
        &cfg,
        |d| {
            let w = d.wave_mut(0);
            for l in 0..32u32 {
                let a = match l % 3 {
                    0 => SHARED_BASE + 4 * l as u64,
                    1 => PRIVATE_BASE + 4,
                    _ => 0x9000 + 4 * l as u64,
                };
                w.set_vgpr(10, l, a as u32);
                w.set_vgpr(11, l, (a >> 32) as u32);
                w.set_vgpr(5, l, 100 + l);
            }
        },
    );
    r.expect("runs");
    let s = layout(&cfg);
    for l in 0..32u32 {
        match l % 3 {
            0 => assert_eq!(dev.lds(0).words(4 * l, 4 * l + 4), vec![100 + l]),
            1 => assert_eq!(dev.memory().read_u32(s.lane_address(0, l, 4)), 100 + l),
            _ => assert_eq!(dev.memory().read_u32(0x9000 + 4 * l as u64), 100 + l),
        }
        assert_eq!(
            dev.wave(0).vgpr(6, l),
            100 + l,
            "lane {l} reads back its own"
        );
    }
}

#[test]
fn out_of_range_private_and_lds_accesses_are_dropped_with_events() {
    let cfg = RunConfig {
        scratch_base: SCRATCH_BASE,
        scratch_size: 16,
        lds_size: 1024,
        ..RunConfig::default()
    };
    let (dev, r) = run(
        "s_mov_b32 exec_lo, 1\nscratch_store_b32 off, v5, off offset:12\nscratch_store_b64 off, v[5:6], off offset:12\n\
         scratch_load_b32 v7, off, off offset:16\nflat_store_b32 v[10:11], v5\ns_endpgm",
        &cfg,
        |d| {
            let w = d.wave_mut(0);
            w.set_vgpr(5, 0, 0xaa);
            w.set_vgpr(6, 0, 0xbb);
            w.set_vgpr(7, 0, 0x77);
            let a = SHARED_BASE + 1024;
            w.set_vgpr(10, 0, a as u32);
            w.set_vgpr(11, 0, (a >> 32) as u32);
        },
    );
    r.expect("runs");
    let kinds: Vec<&str> = dev.events().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            "scratch_out_of_range",
            "scratch_out_of_range",
            "lds_out_of_range"
        ]
    );
    let s = layout(&cfg);
    assert_eq!(
        dev.memory().read_u32(s.lane_address(0, 0, 12)),
        0xaa,
        "the in-range store"
    );
    assert_eq!(dev.wave(0).vgpr(7, 0), 0, "an out-of-range load reads 0");
}

use gpumemsim::addr::BufferDescriptor;

/// s[4:7] = a V# with `base`, `stride`, `swizzle` (gfx11 2-bit field), `num_records`, word 3.
fn set_vsharp(d: &mut Device, base: u64, stride: u32, swizzle: u32, num: u32, w3: u32) {
    let w = d.wave_mut(0);
    w.set_sreg(4, base as u32);
    w.set_sreg(
        5,
        (base >> 32) as u32 & 0xffff | stride << 16 | swizzle << 30,
    );
    w.set_sreg(6, num);
    w.set_sreg(7, w3);
}

#[test]
fn structured_buffer_stores_and_loads_by_index_and_offset() {
    // Record l at 0x20000 + 16 l; lanes store at byte 4 of their record; 28 records (OOB 0),
    // so lanes 28-31 are out of range: dropped, and their loads read 0.
    let text = "buffer_store_b32 v5, v[1:2], s[4:7], s3 idxen offen offset:4\n\
                s_waitcnt_vscnt null, 0x0\n\
                buffer_load_b32 v6, v1, s[4:7], s3 idxen offset:8\n\
                s_waitcnt vmcnt(0)\ns_endpgm";
    let (dev, r) = run(text, &RunConfig::default(), |d| {
        set_vsharp(d, 0x20000, 16, 0, 28, 0);
        let w = d.wave_mut(0);
        w.set_sreg(3, 0x1000);
        for l in 0..32 {
            w.set_vgpr(1, l, l);
            w.set_vgpr(2, l, 4);
            w.set_vgpr(5, l, 0x500 + l);
        }
    });
    r.expect("runs");
    for l in 0..32u64 {
        let a = 0x21000 + 16 * l + 8;
        let want = if l < 28 { 0x500 + l as u32 } else { 0 };
        assert_eq!(dev.memory().read_u32(a), want, "lane {l}");
        assert_eq!(dev.wave(0).vgpr(6, l as u32), want, "lane {l} load");
    }
    let kinds: Vec<&str> = dev.events().iter().map(|e| e.kind).collect();
    assert_eq!(kinds, ["buffer_out_of_range", "buffer_out_of_range"]);
}

#[test]
fn raw_buffer_range_is_checked_per_dword() {
    // OOB 3 (raw): 24 bytes; a b128 load at offset 16 gets 2 dwords and 2 zeros.
    let (dev, r) = run(
        "s_mov_b32 exec_lo, 1\nbuffer_load_b128 v[8:11], off, s[4:7], 0 offset:16\ns_waitcnt vmcnt(0)\ns_endpgm",
        &RunConfig::default(),
        |d| {
            set_vsharp(d, 0x30000, 0, 0, 24, 3 << 28);
            d.memory_mut().write_words(0x30010, &[1, 2, 3, 4]);
            for r in 8..12 {
                d.wave_mut(0).set_vgpr(r, 0, 0xff);
            }
        },
    );
    r.expect("runs");
    let got: Vec<u32> = (8..12).map(|r| dev.wave(0).vgpr(r, 0)).collect();
    assert_eq!(got, [1, 2, 0, 0]);
}

#[test]
fn swizzled_buffer_with_add_tid_places_lanes_as_the_formula_says() {
    // Element 4 B, index stride 32, stride 64, add_tid: lane l stores its dword 1 (offset 4).
    let w3 = 2 << 21 | 1 << 23 | 3 << 28;
    let (dev, r) = run(
        "buffer_store_b32 v5, off, s[4:7], 0 offset:4\ns_waitcnt_vscnt null, 0x0\ns_endpgm",
        &RunConfig::default(),
        |d| {
            set_vsharp(d, 0x40000, 64, 1, u32::MAX, w3);
            for l in 0..32 {
                d.wave_mut(0).set_vgpr(5, l, 0x700 + l);
            }
        },
    );
    r.expect("runs");
    let desc = BufferDescriptor::from_words([0x40000, 64 << 16 | 1 << 30, u32::MAX, w3]);
    for l in 0..32u32 {
        let a = desc.address(desc.index(0, l), 4, 0);
        // (offset 4 / 4) × 4 × 32 + l × 4 past the base.
        assert_eq!(a, 0x40000 + 4 * 32 + 4 * l as u64);
        assert_eq!(dev.memory().read_u32(a), 0x700 + l);
    }
}

use gpumemsim::atomic::MemoryFloatRules;

#[test]
fn global_atomics_serialize_lanes_and_return_the_pre_op_value_with_glc() {
    let (dev, r) = run(
        "v_mov_b32 v1, 0\nv_mov_b32 v2, 1\nglobal_atomic_add_u32 v3, v1, v2, s[0:1] glc\n\
         global_atomic_add_u32 v1, v2, s[0:1] offset:4\n\
         v_mov_b32 v4, 7\nv_mov_b32 v5, 32\nglobal_atomic_cmpswap_b32 v6, v1, v[4:5], s[0:1] glc\n\
         global_atomic_csub_u32 v7, v1, v5, s[0:1] offset:4 glc\n\
         s_waitcnt vmcnt(0)\ns_endpgm",
        &RunConfig::default(),
        |d| d.wave_mut(0).set_sreg64(0, 0x8000),
    );
    r.expect("runs");
    let w = dev.wave(0);
    for l in 0..32 {
        assert_eq!(
            w.vgpr(3, l),
            l,
            "lane {l} saw the sum of the lanes before it"
        );
    }
    // cmpswap: the first lane finds 32 (= compare) and writes 7; the others find 7.
    assert_eq!(w.vgpr(6, 0), 32);
    assert_eq!(w.vgpr(6, 1), 7);
    assert_eq!(dev.memory().read_u32(0x8000), 7);
    // csub at offset 4 (32 after the adds): lane 0 takes it to 0; the rest clamp at 0.
    assert_eq!((w.vgpr(7, 0), w.vgpr(7, 1)), (32, 0));
    assert_eq!(dev.memory().read_u32(0x8004), 0);
}

#[test]
fn sixty_four_bit_and_flat_lds_and_buffer_atomics() {
    let text = "s_mov_b32 exec_lo, 1\n\
        global_atomic_add_u64 v[10:11], v1, v[2:3], s[0:1] glc\n\
        flat_atomic_max_i32 v12, v[20:21], v4 glc\n\
        buffer_atomic_add_u32 v5, off, s[4:7], 0 offset:8 glc\n\
        buffer_atomic_add_u32 v6, off, s[4:7], 0 offset:16 glc\n\
        s_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm";
    let (dev, r) = run(text, &RunConfig::default(), |d| {
        d.memory_mut().write_words(0x8000, &[0xffff_ffff, 1]);
        d.memory_mut().write_words(0x9008, &[40]);
        set_vsharp(d, 0x9000, 0, 0, 12, 3 << 28); // 12 bytes: offset 16 is out of range
        let w = d.wave_mut(0);
        w.set_sreg64(0, 0x8000);
        w.set_vgpr(1, 0, 0);
        w.set_vgpr(2, 0, 1);
        w.set_vgpr(3, 0, 0);
        let a = SHARED_BASE + 0x40;
        w.set_vgpr(20, 0, a as u32);
        w.set_vgpr(21, 0, (a >> 32) as u32);
        w.set_vgpr(4, 0, (-5i32) as u32);
        w.set_vgpr(5, 0, 2);
        w.set_vgpr(6, 0, 3);
    });
    r.expect("runs");
    let w = dev.wave(0);
    assert_eq!((w.vgpr(10, 0), w.vgpr(11, 0)), (0xffff_ffff, 1));
    assert_eq!(
        dev.memory().read_u32(0x8000),
        0,
        "carry into the high dword"
    );
    assert_eq!(dev.memory().read_u32(0x8004), 2);
    assert_eq!(w.vgpr(12, 0), 0, "LDS word 0x40 was 0");
    assert_eq!(dev.lds(0).words(0x40, 0x44), vec![0], "max(0, -5) = 0");
    assert_eq!((w.vgpr(5, 0), dev.memory().read_u32(0x9008)), (40, 42));
    assert_eq!(w.vgpr(6, 0), 0, "out of range: returns 0");
    assert_eq!(dev.memory().read_u32(0x9010), 0, "and writes nothing");
    // The flat atomic read LDS nothing in the launch wrote (the checker says so; zero is
    // only the simulator's default, `RunConfig::lds_init`).
    let kinds: Vec<&str> = dev.events().iter().map(|e| e.kind).collect();
    assert_eq!(kinds, ["uninitialized_lds_read", "buffer_out_of_range"]);
}

#[test]
fn memory_add_f32_uses_the_named_switch() {
    // MODE allows denormals; memory + denormal data. The memory reading flushes the input.
    let text = "s_mov_b32 exec_lo, 1\nv_mov_b32 v2, 1\nglobal_atomic_add_f32 v3, v1, v2, s[0:1] glc\ns_endpgm";
    for (rules, want) in [(MemoryFloatRules::Memory, 0), (MemoryFloatRules::Lds, 1)] {
        let cfg = RunConfig {
            memory_float_rules: rules,
            ..RunConfig::default()
        };
        let (dev, r) = run(text, &cfg, |d| d.wave_mut(0).set_sreg64(0, 0x8000));
        r.expect("runs");
        assert_eq!(dev.memory().read_u32(0x8000), want, "{rules:?}");
    }
}

#[test]
fn typed_buffer_loads_and_stores_convert_formats() {
    // tbuffer: store x,y of 16_16_FLOAT (1.0, -2.0 as f32 → f16), load back xyzw (z = 0,
    // w = 1.0); buffer_load_format_x through the V#'s format (32_UINT = 20); d16 forms.
    let text = "s_mov_b32 exec_lo, 1\n\
        tbuffer_store_format_xy v[2:3], off, s[4:7], 0 format:[BUF_FMT_16_16_FLOAT]\n\
        tbuffer_load_format_xyzw v[10:13], off, s[4:7], 0 format:[BUF_FMT_16_16_FLOAT]\n\
        tbuffer_load_d16_format_xy v14, off, s[4:7], 0 format:[BUF_FMT_16_16_FLOAT]\n\
        tbuffer_load_format_x v15, off, s[4:7], 0 offset:8 format:[BUF_FMT_16_SINT]\n\
        buffer_load_format_x v16, off, s[4:7], 0 offset:12\n\
        buffer_load_d16_hi_format_x v17, off, s[4:7], 0\n\
        s_waitcnt vmcnt(0)\ns_endpgm";
    let (dev, r) = run(text, &RunConfig::default(), |d| {
        // Raw buffer of 16 bytes, V# format 32_UINT (20).
        set_vsharp(d, 0xa000, 0, 0, 16, 3 << 28 | 20 << 12);
        d.memory_mut()
            .write_words(0xa008, &[0x0000_8001, 0xdead_beef]);
        let w = d.wave_mut(0);
        w.set_vgpr(2, 0, 1.0f32.to_bits());
        w.set_vgpr(3, 0, (-2.0f32).to_bits());
        w.set_vgpr(17, 0, 0x0000_1234);
    });
    r.expect("runs");
    let w = dev.wave(0);
    assert_eq!(
        dev.memory().read_u32(0xa000),
        0xc000_3c00,
        "two f16 components"
    );
    let got: Vec<u32> = (10..14).map(|r| w.vgpr(r, 0)).collect();
    assert_eq!(
        got,
        [1.0f32.to_bits(), (-2.0f32).to_bits(), 0, 1.0f32.to_bits()]
    );
    assert_eq!(w.vgpr(14, 0), 0xc000_3c00, "d16: the f16 halves packed");
    assert_eq!(w.vgpr(15, 0), 0xffff_8001, "16_SINT sign-extends");
    assert_eq!(w.vgpr(16, 0), 0xdead_beef, "the V#'s 32_UINT");
    assert_eq!(
        w.vgpr(17, 0),
        0x3c00_1234,
        "d16_hi: low 16 bits of 32_UINT x into the high half"
    );
}

#[test]
fn an_unimplemented_buffer_format_stops_the_run_naming_it() {
    let (dev, r) = run(
        "tbuffer_load_format_x v1, off, s[4:7], 0 format:[BUF_FMT_8_UNORM]\ns_endpgm",
        &RunConfig::default(),
        |d| set_vsharp(d, 0xa000, 0, 0, 16, 3 << 28),
    );
    let e = r.expect_err("8_UNORM is not implemented");
    assert!(e.to_string().contains("tbuffer_load_format_x"), "{e}");
    assert_eq!(dev.events()[0].kind, "unsupported_format");
    assert!(dev.events()[0].message.contains("8_UNORM"));
}

#[test]
fn every_vector_memory_opcode_has_semantics() {
    use gpumemsim::isa::def::all;
    use gpumemsim::isa::Format;
    let mut missing = Vec::new();
    let mut n = 0;
    for (op, d) in all() {
        if !matches!(
            d.format,
            Format::Flat | Format::Global | Format::Scratch | Format::Mubuf | Format::Mtbuf
        ) {
            continue;
        }
        n += 1;
        let cache_op = matches!(d.name, "buffer_gl0_inv" | "buffer_gl1_inv");
        if gpumemsim::vmem::global_op_of(op).is_none() != cache_op {
            missing.push(d.name);
        }
    }
    assert!(n > 200, "{n} vector memory opcodes");
    assert!(missing.is_empty(), "{missing:?}");
}

#[test]
fn buffer_loads_to_lds_write_a_dword_per_lane_at_m0_plus_offset() {
    // Lane l reads byte l of the buffer (i8, sign-extended) into LDS at M0 + 16 + 4 l.
    let (dev, r) = run(
        "s_mov_b32 m0, 0x100
buffer_load_lds_i8 off, s[4:7], 0 offset:16
         buffer_load_lds_b32 off, s[4:7], 0 offset:256
s_waitcnt vmcnt(0)
s_endpgm",
        &RunConfig::default(),
        |d| {
            // add_tid with stride 1 makes lane l's record byte l (raw check against 0x1000).
            set_vsharp(d, 0xb000, 1, 0, 0x1000, 1 << 23 | 3 << 28);
            let bytes: Vec<u8> = (0..32u8)
                .map(|i| i.wrapping_mul(9).wrapping_add(0x70))
                .collect();
            d.memory_mut().write_bytes(0xb010, &bytes);
            d.memory_mut().write_words(0xb100, &[0x1234_5678; 12]);
        },
    );
    r.expect("runs");
    let words = dev.lds(0).words(0x110, 0x110 + 4 * 32);
    for (l, w) in words.iter().enumerate() {
        let byte = (l as u8).wrapping_mul(9).wrapping_add(0x70);
        assert_eq!(*w, byte as i8 as i32 as u32, "lane {l}");
    }
    // The b32 form: lane l reads bytes l..l+4 of a run of 0x12345678 words.
    assert_eq!(dev.lds(0).words(0x200, 0x204), vec![0x1234_5678]);
}

#[test]
fn flat_and_global_addresses_outside_the_48_bit_space_are_dropped_and_reported() {
    // Global memory is the 48-bit virtual space
    // (docs/rules/addressing.md#addresses-outside-the-virtual-space). 0x3_0000_0000_1000 is in neither
    // aperture and above 48 bits: before this rule it wrapped to global 0x1000.
    let bad = 0x3_0000_0000_1000u64;
    let canonical_high = 0xffff_8000_0000_2000u64; // the sign extension of bit 47: fine
    let (dev, r) = run(
        "flat_store_b32 v[10:11], v5\nglobal_store_b32 v[10:11], v5, off\ns_waitcnt_vscnt null, 0x0\n\
         flat_load_b32 v6, v[10:11]\ns_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm",
        &RunConfig::default(),
        |d| {
            d.memory_mut().write_u32(0x1000, 0x77);
            let w = d.wave_mut(0);
            w.set_exec(0b11);
            for (l, a) in [(0, bad), (1, canonical_high)] {
                w.set_vgpr(10, l, a as u32);
                w.set_vgpr(11, l, (a >> 32) as u32);
                w.set_vgpr(5, l, 0x55 + l);
                w.set_vgpr(6, l, 9);
            }
        },
    );
    r.expect("runs");
    assert_eq!(
        dev.memory().read_u32(0x1000),
        0x77,
        "nothing wrapped into 0x1000"
    );
    assert_eq!(dev.wave(0).vgpr(6, 0), 0, "the dropped load reads 0");
    assert_eq!(dev.memory().read_u32(0x8000_0000_2000), 0x56);
    assert_eq!(dev.wave(0).vgpr(6, 1), 0x56);
    let e: Vec<_> = dev
        .events()
        .iter()
        .filter(|e| e.kind == "flat_address_range")
        .collect();
    assert_eq!(e.len(), 3, "{:?}", dev.events());
    let detail = e[0].detail.as_ref().expect("detail");
    assert_eq!(
        (detail.lanes.as_slice(), detail.address),
        (&[0][..], Some(bad))
    );
    assert!(e[0].is_error());
}

#[test]
fn an_odd_scratch_size_lets_the_last_dword_of_high_lanes_overlap_the_next_wave() {
    // docs/rules/addressing.md#scratch-size-not-a-multiple-of-4: waves are 64 × 6 = 384
    // bytes apart but a lane's element 1 (bytes 4-5) sits
    // at 256 + 4 × lane: lanes 32-63 reach wave 1's region, where its lanes' element 0 lives.
    let mut cfg = cfg64(2);
    cfg.scratch_size = 6;
    let src = "scratch_store_b16 off, v5, off offset:4\ns_waitcnt_vscnt null, 0x0\n\
               scratch_load_b32 v6, off, off\ns_waitcnt vmcnt(0)\ns_endpgm";
    let (dev, r) = run(src, &cfg, |d| {
        for w in d.waves_mut().iter_mut() {
            for l in 0..64 {
                w.set_vgpr(5, l, 0xbeef);
            }
        }
    });
    r.expect("runs");
    let s = layout(&cfg);
    assert_eq!(
        s.lane_address(0, 32, 4),
        s.flat_scratch(1),
        "wave 0 lane 32 is wave 1's lane 0"
    );
    let e: Vec<_> = dev
        .events()
        .iter()
        .filter(|e| e.kind == "scratch_overlap")
        .collect();
    assert_eq!(e.len(), 2, "one per wave's store: {:?}", dev.events());
    let detail = e[0].detail.as_ref().expect("detail");
    assert_eq!(detail.lanes, (32..64).collect::<Vec<u32>>());
    // The load of element 0 never overlaps; the bytes wave 0 stored sit in wave 1's element 0
    // of lanes 0-31 (the hardware's answer; which wave ran first decides wave 1's value).
    assert_eq!(dev.memory().read_u32(s.flat_scratch(1)) & 0xffff, 0xbeef);
    let even = RunConfig {
        scratch_size: 8,
        ..cfg
    };
    let (dev, r) = run(src, &even, |_| {});
    r.expect("runs");
    assert!(
        !dev.events().iter().any(|e| e.kind == "scratch_overlap"),
        "{:?}",
        dev.events()
    );
}
