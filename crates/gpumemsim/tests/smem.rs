//! Scalar memory (docs/rules/smem.md): every SMEM opcode, the address, alignment and
//! range rules at their edges, the scalar cache, LGKMcnt with out-of-order returns, the
//! early-read hazard, and the clause and group rules.

use gpumemsim::event::Event;
use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::{assemble, Program};
use gpumemsim::isa::def::{all, lookup_name};
use gpumemsim::isa::{Field, Format};
use gpumemsim::smem::{smem_op, KcacheConfig, ScalarBufferConstant};
use gpumemsim::wave::Wave;

fn asm(text: &str) -> Program {
    let p = assemble(text);
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    p
}

/// Runs `prog` on one wave after `setup`; returns the device (the run must succeed).
fn run_with(prog: &Program, cfg: &RunConfig, setup: impl Fn(&mut Device)) -> Device {
    let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
    setup(&mut dev);
    dev.run(&prog.lines, cfg).expect("runs");
    dev
}

fn run(text: &str, setup: impl Fn(&mut Device)) -> Device {
    run_with(&asm(text), &RunConfig::default(), setup)
}

fn kinds(dev: &Device) -> Vec<&'static str> {
    dev.events().iter().map(|e: &Event| e.kind).collect()
}

fn w0(dev: &Device) -> &Wave {
    dev.wave(0)
}

/// Memory at 0x10000 holds 0x100 + i at dword i.
fn fill(dev: &mut Device) {
    let words: Vec<u32> = (0..256).map(|i| 0x100 + i).collect();
    dev.memory_mut().write_words(0x10000, &words);
    dev.wave_mut(0).set_sreg64(0, 0x10000);
}

#[test]
fn every_smem_opcode_of_the_table_is_known_to_the_model() {
    let smem: Vec<_> = all().filter(|(_, d)| d.format == Format::Smem).collect();
    assert_eq!(smem.len(), 14);
    for (_, d) in smem {
        assert!(smem_op(d).is_some(), "{} has no SMEM semantics", d.name);
    }
}

#[test]
fn s_load_of_every_width_fills_consecutive_sgprs() {
    for (name, n) in [
        ("b32", 1),
        ("b64", 2),
        ("b128", 4),
        ("b256", 8),
        ("b512", 16),
    ] {
        let dst = if n == 1 {
            "s20".to_string()
        } else {
            format!("s[20:{}]", 19 + n)
        };
        let dev = run(
            &format!("s_load_{name} {dst}, s[0:1], 0x8\ns_waitcnt lgkmcnt(0)\ns_endpgm"),
            fill,
        );
        for i in 0..n {
            assert_eq!(w0(&dev).sreg(20 + i), 0x102 + i, "{name} dword {i}");
        }
        assert_eq!(w0(&dev).sreg(20 + n), 0, "{name} writes no more");
        assert!(dev.events().is_empty(), "{:?}", dev.events());
        assert_eq!(w0(&dev).counters.lgkm, 0);
    }
}

type Setup = dyn Fn(&mut Device);

#[test]
fn address_is_base_plus_offset_plus_soffset_with_the_low_bits_ignored() {
    let cases: &[(&str, &Setup, u32)] = &[
        ("s_load_b32 s10, s[0:1], 0x10", &|_| {}, 0x104),
        (
            "s_load_b32 s10, s[0:1], s4 offset:0x10",
            &|d| d.wave_mut(0).set_sreg(4, 8),
            0x106,
        ),
        (
            "s_load_b32 s10, s[0:1], m0",
            &|d| d.wave_mut(0).set_m0(0xc),
            0x103,
        ),
        ("s_load_b32 s10, s[0:1], 0x7", &|_| {}, 0x101),
        (
            "s_load_b32 s10, s[0:1], s4",
            &|d| d.wave_mut(0).set_sreg(4, 3),
            0x100,
        ),
        // A base with its low bits set is read as if they were zero.
        (
            "s_load_b32 s10, s[0:1], 0x4",
            &|d| d.wave_mut(0).set_sreg(0, 0x10003),
            0x101,
        ),
        // A negative offset is fine while the sum with SOFFSET is not negative.
        (
            "s_load_b32 s10, s[0:1], s4 offset:-0x8",
            &|d| d.wave_mut(0).set_sreg(4, 0x10),
            0x102,
        ),
    ];
    for (text, setup, want) in cases {
        let dev = run(&format!("{text}\ns_waitcnt lgkmcnt(0)\ns_endpgm"), |d| {
            fill(d);
            setup(d);
        });
        assert_eq!(w0(&dev).sreg(10), *want, "{text}");
        assert!(dev.events().is_empty(), "{text}: {:?}", dev.events());
    }
}

#[test]
fn a_negative_sum_of_offsets_is_reported_and_wraps() {
    let dev = run(
        "s_load_b32 s10, s[0:1], -0x8\ns_waitcnt lgkmcnt(0)\ns_endpgm",
        fill,
    );
    assert_eq!(kinds(&dev), ["smem_offset"]);
    // 0x10000 - 8 = 0xfff8: below the filled words, so memory there reads 0.
    assert_eq!(w0(&dev).sreg(10), 0);
    let dev = run(
        "s_load_b32 s10, s[0:1], -0x8\ns_waitcnt lgkmcnt(0)\ns_endpgm",
        |d| {
            fill(d);
            d.memory_mut().write_u32(0xfff8, 0xdead);
        },
    );
    assert_eq!(w0(&dev).sreg(10), 0xdead);
}

/// Sets s[4:7] to a V# with `base`, `stride` and `num_records` (the other bits set to
/// show they are ignored).
fn vsharp(dev: &mut Device, base: u64, stride: u32, num_records: u32) {
    let w = dev.wave_mut(0);
    w.set_sreg(4, base as u32);
    w.set_sreg(5, (base >> 32) as u32 & 0xffff | stride << 16);
    w.set_sreg(6, num_records);
    w.set_sreg(7, 0xffff_ffff);
}

#[test]
fn buffer_constant_fields_are_read_as_the_spec_gives_them() {
    let v = ScalarBufferConstant::from_words([0x1234_5679, 0x0010_abcd, 7, 0xffff_ffff]);
    assert_eq!(v.base, 0xabcd_1234_5679);
    assert_eq!(v.stride, 0x10);
    assert_eq!(v.num_records, 7);
    assert_eq!(v.size(), 112);
    assert_eq!(ScalarBufferConstant::from_words([0, 0, 7, 0]).size(), 7);
}

#[test]
fn s_buffer_load_reads_from_the_vsharp_base_and_zeroes_out_of_range_dwords() {
    // stride 16 × 2 records = 32 bytes.
    let text = "s_buffer_load_b128 s[8:11], s[4:7], 0x18\ns_waitcnt lgkmcnt(0)\ns_endpgm";
    let dev = run(text, |d| {
        fill(d);
        // Low base bits are ignored; stride does not move the address.
        vsharp(d, 0x10002, 16, 2);
    });
    let got: Vec<u32> = (8..12).map(|r| w0(&dev).sreg(r)).collect();
    assert_eq!(got, [0x106, 0x107, 0, 0]);
    assert_eq!(kinds(&dev), ["smem_range"]);
    // Stride 0: m_size = num_records bytes; the last whole dword inside is in range.
    for (records, want) in [(0x1c, 0x106), (0x1b, 0)] {
        let dev = run(
            "s_buffer_load_b32 s8, s[4:7], 0x18\ns_waitcnt lgkmcnt(0)\ns_endpgm",
            |d| {
                fill(d);
                vsharp(d, 0x10000, 0, records);
            },
        );
        assert_eq!(w0(&dev).sreg(8), want, "num_records {records}");
    }
    // SOFFSET adds to the offset that is range-checked.
    let dev = run(
        "s_buffer_load_b32 s8, s[4:7], s3 offset:0x4\ns_waitcnt lgkmcnt(0)\ns_endpgm",
        |d| {
            fill(d);
            vsharp(d, 0x10000, 4, 4);
            d.wave_mut(0).set_sreg(3, 8);
        },
    );
    assert_eq!(w0(&dev).sreg(8), 0x103);
    assert!(dev.events().is_empty());
}

#[test]
fn s_buffer_load_with_a_negative_immediate_offset_is_a_memviol() {
    // The assembler refuses a negative offset here (as llvm-mc-19 does): build the word.
    let dev = run_inst(
        "s_buffer_load_b32",
        &[
            (Field::Sbase, 2),
            (Field::Sdata, 8),
            (Field::Soffset, 3),
            (Field::Offset, 0x1f_fffc),
        ],
        |d| {
            fill(d);
            vsharp(d, 0x10000, 0, 0x100);
            d.wave_mut(0).set_sreg(3, 8);
            d.wave_mut(0).set_sreg(8, 0x5555);
        },
    );
    assert_eq!(kinds(&dev), ["memviol"]);
    assert_eq!(w0(&dev).sreg(8), 0x5555, "nothing loaded");
}

/// Runs one hand-built SMEM instruction (fields the assembler would refuse).
fn run_inst(name: &str, fields: &[(Field, u32)], setup: impl Fn(&mut Device)) -> Device {
    let mut prog = asm("s_load_b32 s0, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm");
    let mut inst = gpumemsim::isa::Instruction::new(lookup_name(name).expect("known"));
    inst.set(Field::Soffset, 0x7c);
    for &(f, v) in fields {
        inst.set(f, v);
    }
    prog.lines[0].inst = inst;
    run_with(&prog, &RunConfig::default(), setup)
}

#[test]
fn misaligned_sdst_loads_into_the_aligned_registers() {
    let dev = run_inst(
        "s_load_b64",
        &[(Field::Sdata, 11), (Field::Offset, 4)],
        fill,
    );
    assert_eq!(kinds(&dev), ["smem_alignment"]);
    assert_eq!((w0(&dev).sreg(10), w0(&dev).sreg(11)), (0x101, 0x102));
    let dev = run_inst("s_load_b128", &[(Field::Sdata, 18)], fill);
    assert_eq!(kinds(&dev), ["smem_alignment"]);
    assert_eq!(w0(&dev).sreg(16), 0x100);
    assert_eq!(w0(&dev).sreg(19), 0x103);
}

#[test]
fn sbase_out_of_range_reads_sgpr0_and_odd_buffer_sbase_is_aligned() {
    // Field 62 names s[124:125]: past TTMP15, so s[0:1] is used.
    let dev = run_inst("s_load_b32", &[(Field::Sbase, 62), (Field::Sdata, 9)], fill);
    assert_eq!(kinds(&dev), ["smem_range"]);
    assert_eq!(w0(&dev).sreg(9), 0x100);
    // The last legal pair, ttmp[14:15] (codes 122-123), is used as given.
    let dev = run_inst(
        "s_load_b32",
        &[(Field::Sbase, 61), (Field::Sdata, 9)],
        |d| {
            fill(d);
            d.wave_mut(0).set_sreg64(122, 0x10010);
        },
    );
    assert!(dev.events().is_empty(), "{:?}", dev.events());
    assert_eq!(w0(&dev).sreg(9), 0x104);
    // s_buffer_load with SBASE field 3 (s6): the V# is read from s[4:7].
    let dev = run_inst(
        "s_buffer_load_b32",
        &[(Field::Sbase, 3), (Field::Sdata, 9), (Field::Offset, 8)],
        |d| {
            fill(d);
            vsharp(d, 0x10000, 0, 64);
        },
    );
    assert_eq!(kinds(&dev), ["smem_alignment"]);
    assert_eq!(w0(&dev).sreg(9), 0x102);
}

#[test]
fn destination_dwords_past_ttmp15_are_dropped() {
    // ttmp12 (code 120) + 16 dwords: 120-123 written, 12 dropped.
    let dev = run_inst("s_load_b512", &[(Field::Sdata, 120)], fill);
    assert_eq!(kinds(&dev), ["smem_range"]);
    assert_eq!(w0(&dev).sreg(123), 0x103);
    assert_eq!(w0(&dev).m0(), 0, "M0 is not written");
    assert_eq!(w0(&dev).exec(), 0xffff_ffff, "EXEC is not written");
    // `null` discards without complaint.
    let dev = run(
        "s_load_b32 null, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm",
        fill,
    );
    assert!(dev.events().is_empty());
}

fn fast_cfg() -> RunConfig {
    RunConfig {
        kcache: KcacheConfig {
            hit_latency: 2,
            miss_latency: 100,
            ..KcacheConfig::default()
        },
        ..RunConfig::default()
    }
}

#[test]
fn reading_an_sdst_before_its_data_arrived_gives_the_old_value_and_a_hazard() {
    let dev = run(
        "s_load_b32 s10, s[0:1], 0x0\ns_mov_b32 s11, s10\ns_waitcnt lgkmcnt(0)\ns_mov_b32 s12, s10\ns_endpgm",
        |d| {
            fill(d);
            d.wave_mut(0).set_sreg(10, 77);
        },
    );
    assert_eq!(kinds(&dev), ["hazard"]);
    assert_eq!(dev.events()[0].pc, 1);
    assert_eq!(w0(&dev).sreg(11), 77, "old value");
    assert_eq!(w0(&dev).sreg(12), 0x100, "after the wait");
}

#[test]
fn a_load_straddling_two_lines_returns_in_parts() {
    // Line 0x10000 is cached; s_load_b64 at 0x1003c reads its last dword (hit) and the
    // first of line 0x10040 (miss): s10 arrives after 2 cycles, s11 after 100.
    let text = "s_load_b32 s20, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n\
                s_load_b64 s[10:11], s[0:1], 0x3c\ns_nop 0\ns_nop 0\ns_nop 0\n\
                s_mov_b32 s12, s10\ns_mov_b32 s13, s11\ns_waitcnt lgkmcnt(0)\ns_endpgm";
    let dev = run_with(&asm(text), &fast_cfg(), |d| {
        fill(d);
        d.wave_mut(0).set_sreg(11, 5);
    });
    assert_eq!(w0(&dev).sreg(12), 0x10f, "the hit half has arrived");
    assert_eq!(w0(&dev).sreg(13), 5, "the miss half has not");
    assert_eq!(kinds(&dev), ["hazard"]);
    assert!(dev.events()[0].message.contains("s11"));
    assert_eq!((w0(&dev).sreg(10), w0(&dev).sreg(11)), (0x10f, 0x110));
    assert_eq!(dev.stats()[2].cache_hits, 1);
    assert_eq!(dev.stats()[2].cache_misses, 1);
    assert_eq!(dev.stats()[2].latency_cycles, 100);
}

#[test]
fn lgkmcnt_counts_one_or_two_and_loads_return_out_of_order() {
    // s20 misses (weight 1, 100 cycles), then s21 hits a line loaded before (2 cycles).
    let pre = "s_load_b32 s30, s[0:1], 0x100\ns_waitcnt lgkmcnt(0)\n";
    let text = format!(
        "{pre}s_load_b32 s20, s[0:1], 0x0\ns_load_b32 s21, s[0:1], 0x100\n\
         s_waitcnt lgkmcnt(1)\ns_mov_b32 s22, s21\ns_mov_b32 s23, s20\ns_endpgm"
    );
    let dev = run_with(&asm(&text), &fast_cfg(), fill);
    assert_eq!(w0(&dev).sreg(22), 0x140, "the later load returned first");
    assert_eq!(w0(&dev).sreg(23), 0, "the earlier one had not");
    assert_eq!(kinds(&dev), ["hazard"]);
    // A 2-dword miss counts 2: lgkmcnt(1) must wait for it too, lgkmcnt(2) need not.
    for (n, waits_for_miss) in [(1, true), (2, false)] {
        let text = format!(
            "{pre}s_load_b64 s[20:21], s[0:1], 0x0\ns_load_b32 s22, s[0:1], 0x100\n\
             s_waitcnt lgkmcnt({n})\ns_mov_b32 s23, s20\ns_endpgm"
        );
        let dev = run_with(&asm(&text), &fast_cfg(), fill);
        assert_eq!(w0(&dev).sreg(23) == 0x100, waits_for_miss, "lgkmcnt({n})");
        assert_eq!(dev.events().is_empty(), waits_for_miss, "lgkmcnt({n})");
        let stall = dev.stats()[4].stall_cycles;
        assert_eq!(stall >= 90, waits_for_miss, "lgkmcnt({n}) stalled {stall}");
    }
}

/// docs/rules/smem.md#dependency-checking: an SMEM load adds 2 to LGKMcnt when it reads two or
/// more dwords, whether or not it straddles two cache lines (the test above runs the executor
/// on a 2-dword load inside one line). Before issue 21 docs/timing.md and
/// docs/rules/timing.md#wait-counters said a load counts 2 when it straddles two cache lines;
/// the timing pages must state the rule as the SMEM rules do.
#[test]
fn timing_docs_state_the_smem_lgkmcnt_weight_by_dwords() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for page in [
        "docs/timing.md",
        "docs/rules/timing.md",
        "docs/rules/smem.md",
    ] {
        let text = std::fs::read_to_string(root.join(page)).expect("the page exists");
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains("two or more dwords"),
            "{page} does not give the count-of-2 rule by dwords"
        );
        for wrong in [
            "straddles two cache lines counts 2",
            "straddles two lines counts 2",
        ] {
            assert!(!words.contains(wrong), "{page} says {wrong:?}");
        }
    }
}

#[test]
fn hits_and_misses_have_their_latencies() {
    let text = "s_load_b32 s10, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n\
                s_load_b32 s11, s[0:1], 0x4\ns_waitcnt lgkmcnt(0)\ns_endpgm";
    let dev = run(text, fill);
    let k = KcacheConfig::default();
    assert_eq!(dev.stats()[0].latency_cycles, k.miss_latency);
    assert_eq!(dev.stats()[0].cache_misses, 1);
    assert_eq!(dev.stats()[2].latency_cycles, k.hit_latency);
    assert_eq!(dev.stats()[2].cache_hits, 1);
    assert_eq!(dev.stats()[1].stall_cycles, k.miss_latency - 1);
    assert_eq!(dev.stats()[3].stall_cycles, k.hit_latency - 1);
    assert_eq!(dev.kcache_stats().hits, 1);
}

const STALE: &str = "s_load_b32 s10, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n\
    v_mov_b32 v1, 0\nv_mov_b32 v2, 0x2a\ns_mov_b32 exec_lo, 1\n\
    global_store_b32 v1, v2, s[0:1]\ns_waitcnt_vscnt null, 0x0\n\
    INVALIDATE\
    s_nop 0\n\
    s_load_b32 s11, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm";

#[test]
fn the_scalar_cache_is_not_coherent_with_vector_stores() {
    for (inv, want) in [
        ("", 0x100),
        ("s_gl1_inv\n", 0x100),
        ("s_dcache_inv\n", 0x2a),
    ] {
        let dev = run(&STALE.replace("INVALIDATE", inv), fill);
        assert_eq!(
            dev.memory().read_u32(0x10000),
            0x2a,
            "the store reached memory"
        );
        assert_eq!(w0(&dev).sreg(11), want, "after `{}`", inv.trim());
        assert!(dev.events().is_empty(), "{:?}", dev.events());
    }
}

#[test]
fn atc_probes_execute_and_count_on_lgkmcnt() {
    let dev = run(
        "s_atc_probe 7, s[0:1], 0x0\ns_atc_probe_buffer 1, s[4:7], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm",
        fill,
    );
    assert!(dev.events().is_empty());
    assert_eq!(
        dev.stats()[2].stall_cycles,
        KcacheConfig::default().hit_latency - 1
    );
}

#[test]
fn clause_and_group_rules() {
    let cases: &[(&str, &[&str])] = &[
        ("s_clause 0x1\ns_load_b32 s10, s[0:1], 0x0\ns_load_b32 s11, s[0:1], 0x4", &[]),
        ("s_clause 0x0\ns_load_b32 s10, s[0:1], 0x0", &["smem_clause"]),
        ("s_clause 0x3f\ns_load_b32 s10, s[0:1], 0x0", &["smem_clause"]),
        ("s_clause 0x1\ns_load_b32 s10, s[0:1], 0x0\ns_dcache_inv", &["smem_clause"]),
        ("s_load_b32 s10, s[0:1], 0x0\ns_dcache_inv", &["smem_group"]),
        ("s_gl1_inv\ns_load_b32 s10, s[0:1], 0x0", &["smem_group"]),
        ("s_load_b32 s10, s[0:1], 0x0\ns_nop 0\ns_dcache_inv\ns_nop 0\ns_load_b32 s11, s[0:1], 0x0", &[]),
    ];
    for (body, want) in cases {
        let dev = run(&format!("{body}\ns_waitcnt lgkmcnt(0)\ns_endpgm"), fill);
        assert_eq!(kinds(&dev), *want, "{body}");
    }
}

#[test]
fn wave64_loads_the_same_and_every_wave_has_its_own_returns() {
    let cfg = RunConfig {
        wave_size: 64,
        waves: 2,
        ..RunConfig::default()
    };
    let prog = asm("s_load_b64 s[10:11], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm");
    let dev = run_with(&prog, &cfg, |d| {
        d.memory_mut().write_words(0x5000, &[1, 2, 3, 4]);
        d.wave_mut(0).set_sreg64(0, 0x5000);
        d.wave_mut(1).set_sreg64(0, 0x5008);
    });
    assert_eq!((dev.wave(0).sreg(10), dev.wave(0).sreg(11)), (1, 2));
    assert_eq!((dev.wave(1).sreg(10), dev.wave(1).sreg(11)), (3, 4));
    assert_eq!(dev.kcache_stats().misses, 1, "one WGP cache, one line");
    assert_eq!(dev.kcache_stats().hits, 1);
}
