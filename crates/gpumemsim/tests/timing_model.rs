//! The compute-unit timing model (docs/timing.md), one test or more per rule:
//! the LDS pipe of each half of a WGP's LDS (docs/rules/timing.md#lds-halves), its queue and
//! the wait on the consumer (docs/rules/timing.md#one-lds-instruction-at-a-time); dependency latency and
//! `s_delay_alu` (docs/rules/timing.md#dependencies, docs/rules/timing.md#delay-alu); wave64
//! passes (docs/rules/timing.md#wave64-passes); per-unit issue and the FP64 rate
//! (docs/rules/timing.md#issue), the quarter-rate operations and the transcendental unit,
//! `s_nop` (docs/rules/timing.md#s_nop); occupancy-limited residency and slots freeing
//! (docs/rules/timing.md#placement, docs/rules/timing.md#occupancy-rule); the WGP's scalar
//! cache (docs/rules/smem.md#scalar-cache-per-wgp); the shared units' busy cycles.

use gpumemsim::addr::GlobalMemory;
use gpumemsim::exec::{run_grid, Device, RunConfig, Schedule, WaveInit};
use gpumemsim::isa::asm::assemble;
use gpumemsim::lds::LdsMode;
use gpumemsim::occupancy::{occupancy, DeviceLimits, RegisterCounts, Resources};
use gpumemsim::timeline::{SegmentKind, UnitKind};

fn run(text: &str, cfg: &RunConfig) -> Device {
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
    dev.run(&prog.lines, cfg).expect("runs");
    dev
}

/// Each lane reads the dword at lane × 256 bytes: every lane on bank 0 of RDNA3's 64, a
/// 32-way conflict (docs/rules/banks.md), 16 times.
fn column_reads() -> String {
    let mut s = String::from("v_lshlrev_b32 v1, 8, v0\ns_waitcnt lgkmcnt(0)\n");
    for i in 0..16 {
        s.push_str(&format!("ds_load_b32 v{}, v1\n", 2 + i));
    }
    s.push_str("s_waitcnt lgkmcnt(0)\ns_endpgm\n");
    s
}

/// `column_reads` in WGP mode on one WGP, `groups` workgroups of `lds` bytes each.
fn wgp_mode(groups: u32, lds: u32) -> Device {
    let cfg = RunConfig {
        lds_mode: LdsMode::Wgp,
        lds_size: lds,
        workgroups: groups,
        ..RunConfig::default()
    };
    run(&column_reads(), &cfg)
}

#[test]
fn wgp_mode_workgroups_take_the_two_lds_halves_then_share_one() {
    // docs/rules/timing.md#lds-halves: the first two go to the two halves (a pipe each), the
    // third shares the first's half and queues behind it.
    let (one, two, three) = (wgp_mode(1, 8192), wgp_mode(2, 8192), wgp_mode(3, 8192));
    let lds_one = one.unit_busy().busy(UnitKind::Lds);
    // 16 loads × 32 conflicted cycles of the pipe per workgroup.
    assert_eq!(lds_one, 16 * 32, "{:?}", one.unit_busy());
    assert_eq!(one.unit_busy().instances(UnitKind::Lds), 2);
    assert_eq!(two.unit_busy().busy(UnitKind::Lds), 2 * lds_one);
    assert_eq!(three.unit_busy().busy(UnitKind::Lds), 3 * lds_one);
    assert_eq!(three.placement().max_resident_workgroups, 3);
    assert_eq!(two.cycles(), one.cycles(), "one half each: no queueing");
    // LDS-bound: the shared pipe's busy time decides; the third takes about twice as long.
    let (t1, t3) = (one.cycles() as f64, three.cycles() as f64);
    assert!(t1 >= lds_one as f64, "{t1}");
    let ratio = t3 / t1;
    assert!(
        (1.8..=2.2).contains(&ratio),
        "one {t1}, three {t3}: ratio {ratio}"
    );
    // The third workgroup's loads queued behind the first's: stall cycles appear.
    assert!(three.totals().stall_cycles > two.totals().stall_cycles);
}

#[test]
fn an_allocation_across_both_lds_halves_holds_both_pipes() {
    // 40 KB each: one per half, then the third spans the 24 KB left in each and its every
    // instruction takes both pipes, after the other two's.
    let (one, three) = (wgp_mode(1, 40960), wgp_mode(3, 40960));
    let lds_one = one.unit_busy().busy(UnitKind::Lds);
    assert_eq!(three.placement().max_resident_workgroups, 3);
    assert_eq!(three.unit_busy().busy(UnitKind::Lds), 4 * lds_one);
    let ratio = three.cycles() as f64 / one.cycles() as f64;
    assert!((1.8..=2.2).contains(&ratio), "ratio {ratio}");
}

#[test]
fn in_cu_mode_two_workgroups_go_to_the_two_cus_and_their_pipes() {
    let text = column_reads();
    let cfg = RunConfig {
        lds_mode: LdsMode::Cu,
        lds_size: 8192,
        ..RunConfig::default()
    };
    let a = run(&text, &cfg);
    let b = run(
        &text,
        &RunConfig {
            workgroups: 2,
            ..cfg
        },
    );
    assert_eq!(a.unit_busy().instances(UnitKind::Lds), 2);
    assert_eq!(b.cycles(), a.cycles(), "one pipe each: no queueing");
}

fn chain(n: usize, dependent: bool) -> String {
    let mut s = String::from("v_mov_b32 v1, 1.0\nv_mov_b32 v2, 2.0\n");
    for i in 0..n {
        if dependent {
            s.push_str("v_add_f32 v1, v1, v2\n");
        } else {
            s.push_str(&format!("v_add_f32 v{}, v2, v2\n", 10 + i));
        }
    }
    // The result is used: the chain's last latency counts.
    s.push_str("v_mov_b32 v3, v1\ns_endpgm\n");
    s
}

#[test]
fn a_dependent_chain_pays_the_latency_an_independent_stream_the_issue() {
    let cfg = RunConfig::default();
    let n = 32u64;
    let dep = run(&chain(n as usize, true), &cfg);
    let ind = run(&chain(n as usize, false), &cfg);
    let lat = cfg.timing.valu_latency;
    assert!(dep.cycles() >= n * lat, "{} < {n} × {lat}", dep.cycles());
    assert!(ind.cycles() <= n + 2 * lat, "{}", ind.cycles());
    assert!(ind.cycles() >= n);
    // Twice the latency, about twice the chain.
    let mut slow = cfg.clone();
    assert!(slow.set_timing("valu_latency", 2 * lat));
    let dep2 = run(&chain(n as usize, true), &slow);
    assert!(dep2.cycles() >= 2 * n * lat);
}

#[test]
fn transcendental_and_f64_results_take_their_own_latencies() {
    let cfg = RunConfig::default();
    let t = cfg.timing;
    let trans = run(
        "v_exp_f32 v1, v2\nv_exp_f32 v1, v1\nv_exp_f32 v1, v1\ns_endpgm\n",
        &cfg,
    );
    assert!(trans.cycles() >= 2 * t.trans_latency, "{}", trans.cycles());
    let f64 = run(
        "v_add_f64 v[2:3], v[2:3], v[4:5]\nv_add_f64 v[2:3], v[2:3], v[4:5]\ns_endpgm\n",
        &cfg,
    );
    assert!(f64.cycles() >= t.f64_latency, "{}", f64.cycles());
}

#[test]
fn wave64_valu_takes_two_passes_except_the_dual_issue_operations() {
    let body = |op: &str| {
        let mut s = String::new();
        for i in 0..32 {
            s.push_str(&format!("{op} v{}, v1, v2\n", 10 + i));
        }
        s + "s_endpgm\n"
    };
    let w32 = RunConfig::default();
    let w64 = RunConfig {
        wave_size: 64,
        ..RunConfig::default()
    };
    // v_xor_b32: two passes in wave64 (RDNA3 ISA guide 7.2.3.2).
    let x32 = run(&body("v_xor_b32"), &w32)
        .unit_busy()
        .busy(UnitKind::Valu);
    let x64 = run(&body("v_xor_b32"), &w64)
        .unit_busy()
        .busy(UnitKind::Valu);
    assert_eq!(x32, 32);
    assert_eq!(x64, 2 * x32);
    // v_add_f32: one pass on the dual-issue ALUs (docs/rules/timing.md#wave64-passes).
    let a64 = run(&body("v_add_f32"), &w64)
        .unit_busy()
        .busy(UnitKind::Valu);
    assert_eq!(a64, 32);
}

#[test]
fn a_vgpr_limited_kernel_runs_exactly_its_occupancy() {
    // v200 used: 201 VGPRs, allocated in granules of 24 → 216; 1536 / 216 = 7 waves per SIMD.
    // A latency-bound wave: one global load it waits for.
    let text = "v_mov_b32 v200, v0\nv_lshlrev_b32 v1, 2, v0\nglobal_load_b32 v2, v1, s[2:3]\n\
                s_waitcnt vmcnt(0)\ns_endpgm\n";
    let r = Resources {
        vgprs: 201,
        agprs: 0,
        allocated_vgprs: 201,
        sgprs: 0,
        static_lds_bytes: 0,
        dynamic_lds_bytes: 0,
        scratch_bytes_per_lane: 0,
        wave_size: 32,
        workgroup_size: 32,
        wgp_mode: true,
        register_counts: RegisterCounts::Metadata,
    };
    let want = occupancy(&r, &DeviceLimits::GFX1100).waves_per_simd;
    assert_eq!(want, 7);
    let cfg = RunConfig {
        workgroups: 100,
        lds_size: 0,
        lds_mode: LdsMode::Wgp,
        ..RunConfig::default()
    };
    let d = run(text, &cfg);
    let p = d.placement();
    assert_eq!(p.waves_per_simd, want);
    assert_eq!(p.max_resident_waves_per_simd, want);
    assert_eq!(p.max_resident_workgroups, 4 * want);
    // Fewer registers: more waves at once hide more of the latency: the same work sooner.
    let light = run(&text.replace("v200", "v20"), &cfg);
    assert_eq!(light.placement().max_resident_waves_per_simd, 16);
    assert!(light.cycles() < d.cycles());
}

#[test]
fn workgroups_beyond_residency_start_when_slots_free() {
    let cfg = RunConfig {
        workgroups: 3,
        waves: 4,
        waves_per_simd: 1,
        lds_mode: LdsMode::Wgp,
        record_timeline: true,
        ..RunConfig::default()
    };
    let d = run("s_nop 0\nv_mov_b32 v1, v0\ns_endpgm\n", &cfg);
    let t = d.timeline().expect("recorded");
    let starts: Vec<u64> = t.waves.iter().map(|w| w.start).collect();
    assert_eq!(t.waves.len(), 12);
    assert!(starts[..4].iter().all(|&s| s == 0));
    // The second workgroup starts when a slot of the first frees.
    let first_end = t.waves[..4]
        .iter()
        .filter_map(|w| w.end)
        .min()
        .expect("ended waves");
    assert!(t.waves[4].start >= first_end);
    assert!(t.waves[4].started_by.is_some());
    assert_eq!(d.placement().max_resident_workgroups, 1);
    // The critical path ends with the last wave to end and goes back through the waves
    // whose ends let it start.
    let last = t.critical.last().expect("a path");
    assert_eq!(
        last.2,
        t.waves
            .iter()
            .filter_map(|w| w.end)
            .max()
            .expect("ended waves")
    );
    assert!(t.critical.len() >= 3, "{:?}", t.critical);
    assert!(t.segments.iter().any(|s| s.kind == SegmentKind::Issue));
}

#[test]
fn delay_alu_declarations_are_counted_against_the_model() {
    // clang-19's shape: s_delay_alu instid0(VALU_DEP_1) before the dependent add.
    let declared =
        "v_add_f32 v1, v2, v3\ns_delay_alu instid0(VALU_DEP_1)\nv_add_f32 v4, v1, v3\ns_endpgm\n";
    let d = run(declared, &RunConfig::default());
    let s = d.delay_alu();
    assert_eq!(
        (s.declared, s.declared_and_waited, s.undeclared_waits),
        (1, 1, 0)
    );
    let bare = "v_add_f32 v1, v2, v3\nv_add_f32 v4, v1, v3\ns_endpgm\n";
    let d = run(bare, &RunConfig::default());
    let s = d.delay_alu();
    assert_eq!(
        (s.declared, s.undeclared_waits, &s.undeclared_at[..]),
        (0, 1, &[1][..])
    );
}

#[test]
fn an_undeclared_wait_holds_the_simd_a_declared_one_lets_others_issue() {
    // Two waves on one SIMD (waves_per_simd 2 on a CU with 2 SIMDs: 4 waves, 2 per SIMD).
    let work = |delay: &str| {
        let mut s = String::new();
        for _ in 0..8 {
            s.push_str("v_add_f32 v1, v1, v2\n");
            s.push_str(delay);
        }
        s + "s_endpgm\n"
    };
    let cfg = RunConfig {
        waves: 4,
        ..RunConfig::default()
    };
    // With the declaration before each dependent add, the waves sharing a SIMD interleave.
    let declared = format!(
        "v_mov_b32 v1, 0\n{}",
        work("s_delay_alu instid0(VALU_DEP_1)\n")
    );
    let bare = format!("v_mov_b32 v1, 0\n{}", work(""));
    let a = run(&declared, &cfg);
    let b = run(&bare, &cfg);
    assert!(
        a.cycles() < b.cycles(),
        "declared {} bare {}",
        a.cycles(),
        b.cycles()
    );
}

/// Cycles per copy of `line` (a stream of `n` copies and one of `2n`, each ending the
/// program, so what a program does once cancels out).
fn per_copy(line: impl Fn(usize) -> String, n: usize, cfg: &RunConfig) -> u64 {
    let prog = |k: usize| (0..k).map(&line).collect::<String>() + "s_endpgm\n";
    let (a, b) = (run(&prog(n), cfg).cycles(), run(&prog(2 * n), cfg).cycles());
    (b - a) / n as u64
}

#[test]
fn quarter_rate_operations_and_transcendentals_issue_at_a_quarter_of_the_rate() {
    let cfg = RunConfig::default();
    let t = cfg.timing;
    let stream = |op: &'static str| move |i: usize| format!("{op} v{}, v1, v2\n", 3 + i % 32);
    assert_eq!(per_copy(stream("v_add_f32"), 32, &cfg), t.valu);
    assert_eq!(per_copy(stream("v_mul_lo_u32"), 32, &cfg), t.quarter_issue);
    assert_eq!(per_copy(stream("v_mul_hi_i32"), 32, &cfg), 4);
    let rcp = |i: usize| format!("v_rcp_f32 v{}, v1\n", 3 + i % 32);
    assert_eq!(per_copy(rcp, 32, &cfg), t.trans_issue);
    assert_eq!(t.trans_issue, 4 * t.valu);
    // Wave64: two passes of each.
    let w64 = RunConfig {
        wave_size: 64,
        ..cfg.clone()
    };
    assert_eq!(
        per_copy(stream("v_mul_lo_u32"), 32, &w64),
        2 * t.quarter_issue
    );
    assert_eq!(per_copy(rcp, 32, &w64), 2 * t.trans_issue);
    // A dependent multiply waits quarter_latency.
    let chain = |_: usize| "v_mul_lo_u32 v1, v1, v2\n".to_string();
    assert_eq!(per_copy(chain, 16, &cfg), t.quarter_latency);
    // The transcendental unit works beside the VALU: a v_add_f32 after each v_rcp_f32 costs
    // the pair no more than the v_rcp_f32 alone.
    let mixed = |i: usize| {
        format!(
            "v_rcp_f32 v{}, v1\nv_add_f32 v{}, v1, v2\n",
            3 + i % 16,
            20 + i % 16
        )
    };
    assert_eq!(per_copy(mixed, 32, &cfg), t.trans_issue);
    let d = run(&(0..8).map(rcp).collect::<String>(), &cfg);
    assert_eq!(d.unit_busy().busy(UnitKind::Trans), 8 * t.trans_issue);
    assert_eq!(d.unit_busy().busy(UnitKind::Valu), 0);
}

#[test]
fn s_nop_delays_the_next_instruction_by_its_count_plus_one() {
    let cfg = RunConfig::default();
    for n in [0u64, 1, 7, 15] {
        assert_eq!(
            per_copy(|_| format!("s_nop {n}\n"), 8, &cfg),
            n + 1,
            "s_nop {n}"
        );
    }
    // Only SIMM16[3:0] counts.
    assert_eq!(per_copy(|_| "s_nop 0x13\n".to_string(), 8, &cfg), 4);
}

/// A wave32 whose lanes load the dword at lane × `stride`, twice: on the RX 7900 XTX preset
/// (its vector caches modelled) the device after the run.
fn strided_loads(stride: u32) -> Device {
    let text = format!(
        "v_mbcnt_lo_u32_b32 v0, -1, 0\nv_mul_u32_u24 v2, {stride}, v0\n\
         global_load_b32 v1, v2, s[0:1]\ns_waitcnt vmcnt(0)\n\
         global_load_b32 v1, v2, s[0:1]\ns_waitcnt vmcnt(0)\ns_endpgm\n"
    );
    let cfg = RunConfig {
        device: Some(gpumemsim::preset::DevicePreset::named("rx7900xtx").expect("a preset")),
        ..RunConfig::default()
    };
    run(&text, &cfg)
}

/// Vector loads complete in the order they were issued: a load the L0 answers does not
/// overtake an earlier one still on its way from VRAM, so `s_waitcnt vmcnt(1)` after the two
/// waits for the first (docs/rules/timing.md#vector-caches).
#[test]
fn a_cache_hit_does_not_overtake_an_earlier_miss() {
    let cfg = RunConfig {
        device: Some(gpumemsim::preset::DevicePreset::named("rx7900xtx").expect("a preset")),
        ..RunConfig::default()
    };
    let t = cfg.timing;
    // v1 = 0 (line 0, warmed into L0), v2 = 4096 (line 32, cold).
    let text = "v_mov_b32 v1, 0\nv_mov_b32 v2, 4096\nglobal_load_b32 v3, v1, s[0:1]\n\
                s_waitcnt vmcnt(0)\nglobal_load_b32 v4, v2, s[0:1]\n\
                global_load_b32 v5, v1, s[0:1]\ns_waitcnt vmcnt(1)\ns_endpgm\n";
    let d = run(text, &cfg);
    let s = d.stats();
    assert_eq!(s[4].lines.served_by(gpumemsim::vcache::Level::Vram), 1);
    assert_eq!(s[5].lines.served_by(gpumemsim::vcache::Level::L0), 1);
    // The hit waited for the miss: its latency is the miss's less the one cycle between.
    assert!(
        s[5].latency_cycles + 1 >= s[4].latency_cycles,
        "{:?} {:?}",
        s[4],
        s[5]
    );
    assert!(s[4].latency_cycles > t.vram_latency);
    // And vmcnt(1) waited for the miss.
    assert!(d.cycles() > 2 * t.vram_latency, "{}", d.cycles());
}

#[test]
fn strided_loads_touch_a_line_per_lane_and_their_reuse_comes_from_the_level_they_fit() {
    use gpumemsim::vcache::Level;
    // Contiguous: the 32 lanes share one 128-byte line; the second load finds it in L0.
    let dense = strided_loads(4);
    let (first, second) = (&dense.stats()[2].lines, &dense.stats()[4].lines);
    assert_eq!((first.requests, first.served_by(Level::Vram)), (1, 1));
    assert_eq!((second.requests, second.served_by(Level::L0)), (1, 1));
    // 4 KiB apart: 32 lines, all in 2 of the L0's 64 sets (4 ways each), so the second load
    // misses the L0 and finds them in the L1 (16 ways).
    let sparse = strided_loads(4096);
    let (first, second) = (&sparse.stats()[2].lines, &sparse.stats()[4].lines);
    assert_eq!((first.requests, first.served_by(Level::Vram)), (32, 32));
    assert_eq!((second.requests, second.served_by(Level::L1)), (32, 32));
    let t = RunConfig::default().timing;
    assert_eq!(
        sparse.cycles() - dense.cycles(),
        t.l1_latency - t.l0_latency,
        "only the second load's level differs"
    );
    let (_, totals) = sparse.vcache_totals().expect("modelled");
    assert_eq!(totals.requests, 64);
    // Without a device, no cache model: every access takes vmem_latency.
    let plain = run(
        "global_load_b32 v1, v2, s[0:1]\ns_waitcnt vmcnt(0)\ns_endpgm\n",
        &RunConfig::default(),
    );
    assert!(plain.vcache_totals().is_none());
    assert!(plain.cycles() >= t.vmem_latency);
}

/// `strided_loads` on an MI300X (gfx942 code, wave64): the wave's 64 lanes `stride` bytes
/// apart, loaded twice.
fn cdna3_strided_loads(stride: u32) -> Device {
    use gpumemsim::isa::{asm::assemble_in, Wave as Lanes};
    let text = format!(
        "v_mul_u32_u24 v2, {stride}, v0\n\
         global_load_dword v1, v2, s[0:1]\ns_waitcnt vmcnt(0)\n\
         global_load_dword v1, v2, s[0:1]\ns_waitcnt vmcnt(0)\ns_endpgm\n"
    );
    let mut prog = assemble_in(gpumemsim::isa::Isa::Gfx940, &text, Lanes::W64);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    // gfx942 code runs lowered, as a launch lowers its kernel's.
    let code: Vec<_> = prog.lines.iter().map(|l| l.inst.clone()).collect();
    let kernel = gpumemsim::target::gfx9::Kernel { accum_offset: 256 };
    for (line, low) in prog
        .lines
        .iter_mut()
        .zip(gpumemsim::target::gfx9::lower_code(&code, &kernel))
    {
        line.inst = low.expect("lowers");
    }
    let cfg = RunConfig {
        chip: &gpumemsim::target::GFX942,
        wave_size: 64,
        timing: gpumemsim::timing::TimingParams::CDNA3,
        device: Some(gpumemsim::preset::DevicePreset::named("mi300x").expect("a preset")),
        ..RunConfig::default()
    };
    let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
    dev.run(&prog.lines, &cfg).expect("runs");
    dev
}

#[test]
fn on_cdna3_a_vl1d_miss_goes_to_the_l2_and_counts_as_tcc() {
    use gpumemsim::vcache::{Family, Level};
    // Contiguous: 64 lanes × 4 B, two lines; the second load finds them in the vL1D.
    let dense = cdna3_strided_loads(4);
    assert_eq!(dense.vcache_family(), Some(Family::Cdna3));
    let (first, second) = (&dense.stats()[1].lines, &dense.stats()[3].lines);
    assert_eq!((first.requests, first.served_by(Level::Vram)), (2, 2));
    assert_eq!((second.requests, second.served_by(Level::L0)), (2, 2));
    // 4 KiB apart: 64 lines in 2 of the vL1D's 64 sets (4 ways), so the second load misses
    // it and, with no L1 on CDNA3, finds them in the L2.
    let sparse = cdna3_strided_loads(4096);
    let second = &sparse.stats()[3].lines;
    assert_eq!((second.requests, second.served_by(Level::L2)), (64, 64));
    assert_eq!(second.served_by(Level::L1), 0);
    let t = gpumemsim::timing::TimingParams::CDNA3;
    // MI300X's measured pointer-chase latencies (docs/timing.md#vector-caches: the
    // hibagus/SC25_AMD_CDNA3_Artifact gpu-latency data): vL1D, L2, Infinity Cache, HBM.
    assert_eq!(
        (t.l0_latency, t.l2_latency, t.mall_latency, t.vram_latency),
        (115, 210, 384, 850)
    );
    assert_eq!(
        sparse.cycles() - dense.cycles(),
        t.l2_latency - t.l0_latency,
        "only the second load's level differs"
    );
    // rocprof's gfx942 names: TCP at the vL1D, TCC at the L2.
    let prog = gpumemsim::isa::asm::assemble_in(
        gpumemsim::isa::Isa::Gfx940,
        "s_endpgm\n",
        gpumemsim::isa::Wave::W64,
    );
    let counters: std::collections::HashMap<&str, u64> =
        gpumemsim::report::amd_counters(&prog.lines, &sparse)
            .into_iter()
            .collect();
    assert_eq!(counters["TCP_TOTAL_CACHE_ACCESSES_sum"], 128);
    assert_eq!(
        counters["TCP_TCC_READ_REQ_sum"], 128,
        "every line missed the vL1D"
    );
    assert_eq!(
        (
            counters["TCC_REQ_sum"],
            counters["TCC_HIT_sum"],
            counters["TCC_MISS_sum"]
        ),
        (128, 64, 64)
    );
    assert!(
        !counters.contains_key("GL2C_REQ_sum"),
        "RDNA's names are not CDNA's"
    );
}

#[test]
fn every_unit_kind_is_counted() {
    let text = "s_load_b32 s4, s[0:1], 0\ns_add_u32 s5, s4, 1\nv_mov_b32 v1, 0\n\
                v_lshlrev_b32 v2, 2, v0\nds_store_b32 v2, v1\nglobal_load_b32 v3, v2, s[2:3]\n\
                s_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm\n";
    let d = run(text, &RunConfig::default());
    let u = d.unit_busy();
    for k in [
        UnitKind::Lds,
        UnitKind::Valu,
        UnitKind::Salu,
        UnitKind::Vmem,
        UnitKind::Smem,
    ] {
        assert!(u.busy(k) > 0, "{k:?}: {u:?}");
    }
    assert_eq!(u.busy(UnitKind::Gds), 0);
}

#[test]
fn grids_on_several_wgps_run_apart_with_the_result_of_one_schedule() {
    let text = column_reads();
    let cfg = RunConfig {
        workgroups: 8,
        wgps: 4,
        threads: 2,
        lds_size: 8192,
        lds_mode: LdsMode::Wgp,
        ..RunConfig::default()
    };
    let prog = assemble(&text);
    let apart = run_grid(&prog.lines, &cfg, &GlobalMemory::new, &no_init()).expect("config");
    assert!(matches!(apart.schedule, Schedule::Apart { .. }));
    let together = run_grid(
        &prog.lines,
        &RunConfig {
            together: true,
            ..cfg.clone()
        },
        &GlobalMemory::new,
        &no_init(),
    )
    .expect("config");
    assert_eq!(apart.device.cycles(), together.device.cycles());
    assert_eq!(apart.device.clocks(), together.device.clocks());
    assert_eq!(apart.device.unit_busy(), together.device.unit_busy());
    assert_eq!(apart.device.placement(), together.device.placement());
    // Four WGPs: each holds two of the eight workgroups, so the grid takes about what two
    // workgroups on one WGP take.
    let one = run_grid(
        &prog.lines,
        &RunConfig {
            wgps: 1,
            ..cfg.clone()
        },
        &GlobalMemory::new,
        &no_init(),
    )
    .expect("config");
    assert!(one.device.cycles() > 3 * apart.device.cycles());
}

#[test]
fn waves_queueing_for_the_lds_pipe_keep_it_busy_without_gaps() {
    // Eight waves of one workgroup, each 16 conflicted column reads: the pipe serves one
    // instruction at a time, back to back, and the run takes about its busy time.
    let cfg = RunConfig {
        waves: 8,
        lds_mode: LdsMode::Wgp,
        lds_size: 8192,
        ..RunConfig::default()
    };
    let d = run(&column_reads(), &cfg);
    let busy = d.unit_busy().busy(UnitKind::Lds);
    assert_eq!(busy, 8 * 16 * 32);
    let cycles = d.cycles();
    assert!(cycles >= busy, "{cycles}");
    assert!(
        cycles <= busy + 2 * cfg.timing.lds_latency + 16,
        "{cycles} for {busy} busy cycles"
    );
    // Every wave but the first stalled for the pipe.
    assert!(d.totals().stall_cycles >= 7 * 32);
}

#[test]
fn an_lds_load_issues_in_a_cycle_and_its_wait_lands_on_the_s_waitcnt() {
    // One 32-way conflicted load (32 bank cycles), then 8 independent VALU instructions, then
    // the wait: the VALU work overlaps the pipe, and the s_waitcnt waits out the rest of the
    // load's latency (bank cycles + lds_latency).
    let mut text = String::from("v_lshlrev_b32 v1, 8, v0\nds_load_b32 v2, v1\n");
    for i in 0..8 {
        text.push_str(&format!("v_add_f32 v{}, v0, v0\n", 10 + i));
    }
    text.push_str("s_waitcnt lgkmcnt(0)\ns_endpgm\n");
    let cfg = RunConfig {
        lds_size: 8192,
        ..RunConfig::default()
    };
    let d = run(&text, &cfg);
    let s = d.stats();
    // The load's cost is its 32 bank cycles in the pipe; its wave went on after 1 cycle.
    assert_eq!((s[1].cycles, s[1].conflict_cycles), (32, 31));
    assert_eq!(s[1].latency_cycles, 32 + cfg.timing.lds_latency);
    assert!(s[2..10].iter().all(|x| x.stall_cycles == 0), "{s:?}");
    // The wait comes 1 (the load's issue) + 8 (the adds) cycles after the load issued: it
    // waits out the rest of the load's 32 + lds_latency.
    let waited = s[10].stall_cycles;
    assert_eq!(waited, 32 + cfg.timing.lds_latency - 1 - 8, "{s:?}");
}

#[test]
fn dropping_finished_workgroups_state_changes_no_result() {
    // Each workgroup writes its id to LDS, reads it back and stores it to global memory; six
    // workgroups of two waves, one resident at a time (the LDS allocation is 64 KB, CU mode
    // holds one per CU: two at once on the WGP).
    let text = "v_lshlrev_b32 v1, 2, v0\nv_mov_b32 v2, s0\nds_store_b32 v1, v2\n\
                s_waitcnt lgkmcnt(0)\ns_barrier\nds_load_b32 v3, v1\ns_waitcnt lgkmcnt(0)\n\
                s_lshl_b32 s4, s0, 8\nv_add_nc_u32 v1, s4, v1\n\
                global_store_b32 v1, v3, s[2:3]\ns_endpgm\n";
    let prog = assemble(text);
    let run_with = |release: bool| {
        let cfg = RunConfig {
            workgroups: 6,
            waves: 2,
            release_finished: release,
            ..RunConfig::default()
        };
        let init: WaveInit = std::sync::Arc::new(|g: u32, w: &mut gpumemsim::wave::Wave| {
            w.set_sreg(0, g);
            w.set_sreg(2, 0x1000);
        });
        let r = run_grid(&prog.lines, &cfg, &GlobalMemory::new, &init).expect("config");
        r.result.clone().expect("runs");
        r
    };
    let (kept, dropped) = (run_with(false), run_with(true));
    let words = |r: &gpumemsim::exec::GridRun| r.device.memory().words(0x1000, 0x1000 + 6 * 256);
    assert_eq!(words(&kept), words(&dropped));
    assert_eq!(
        words(&dropped)[256 / 4 * 5],
        5,
        "workgroup 5 read back its id"
    );
    let (k, d) = (&kept.device, &dropped.device);
    assert_eq!(k.cycles(), d.cycles());
    assert_eq!(k.stats(), d.stats());
    assert_eq!(k.events(), d.events());
    assert_eq!((k.wave_count(), d.wave_count()), (12, 12));
    assert_eq!(k.wave_clock_sum(), d.wave_clock_sum());
    assert_eq!(d.placement().max_resident_workgroups, 2);
    // Dropping finished workgroups, the device made each workgroup's waves when it started,
    // in one of three slots (two workgroups resident at most, and a slot is reused from the
    // step after its workgroup ended): six waves, not twelve.
    assert_eq!((k.waves().len(), d.waves().len()), (12, 6));
    let mut last: Vec<u32> = d.waves().iter().map(|w| w.id).collect();
    last.sort();
    assert_eq!(
        last,
        [6, 7, 8, 9, 10, 11],
        "the last three workgroups' waves"
    );
    assert!(d.waves().iter().all(|w| w.done));
    // The finished workgroups' LDS and VGPRs are gone; kept, they stay readable.
    assert!((0..3).all(|g| !d.lds(g).is_allocated()));
    assert!((0..6).all(|g| k.lds(g).is_allocated()));
    assert_eq!(k.wave(11).vgpr(3, 0), 5);
    assert!(d.waves().iter().all(|w| w.vgpr(3, 0) == 0));
}

#[test]
fn fp64_operations_occupy_the_valu_for_f64_issue_per_pass() {
    // docs/rules/timing.md#issue: one FP64 lane-operation per SIMD per cycle.
    let body = |op: &str| {
        let mut s = String::new();
        for i in 0..8 {
            s.push_str(&format!(
                "{op} v[{}:{}], v[2:3], v[4:5]\n",
                10 + 2 * i,
                11 + 2 * i
            ));
        }
        s + "s_endpgm\n"
    };
    let cfg = RunConfig::default();
    let f64 = run(&body("v_add_f64"), &cfg)
        .unit_busy()
        .busy(UnitKind::Valu);
    assert_eq!(f64, 8 * cfg.timing.f64_issue);
    let mut fast = cfg.clone();
    assert!(fast.set_timing("f64_issue", 4));
    assert_eq!(
        run(&body("v_add_f64"), &fast)
            .unit_busy()
            .busy(UnitKind::Valu),
        8 * 4
    );
    // A 32-bit operation of the same shape is not affected.
    let w64 = RunConfig {
        wave_size: 64,
        ..RunConfig::default()
    };
    assert_eq!(
        run(&body("v_add_f64"), &w64)
            .unit_busy()
            .busy(UnitKind::Valu),
        2 * 8 * cfg.timing.f64_issue,
        "wave64: two passes"
    );
}

#[test]
fn the_workgroups_of_a_wgp_share_its_scalar_cache() {
    // docs/rules/smem.md#scalar-cache-per-wgp: a line one workgroup fetched is a hit for the
    // next one on the same WGP.
    let text = "s_load_b32 s4, s[2:3], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let one_wgp = RunConfig {
        workgroups: 4,
        ..RunConfig::default()
    };
    let prog = assemble(text);
    let init: WaveInit =
        std::sync::Arc::new(|_: u32, w: &mut gpumemsim::wave::Wave| w.set_sreg(2, 0x1000));
    let together = RunConfig {
        together: true,
        ..one_wgp.clone()
    };
    let shared = run_grid(&prog.lines, &together, &GlobalMemory::new, &init).expect("config");
    let k = shared.device.kcache_stats();
    assert_eq!((k.misses, k.hits), (1, 3), "one WGP: one miss, then hits");
    let apart = RunConfig {
        wgps: 4,
        ..together
    };
    let split = run_grid(&prog.lines, &apart, &GlobalMemory::new, &init).expect("config");
    let k = split.device.kcache_stats();
    assert_eq!((k.misses, k.hits), (4, 0), "four WGPs: a miss each");
}

#[test]
fn a_gds_instruction_occupies_the_gds_unit_once() {
    // docs/rules/timing.md#one-lds-instruction-at-a-time: GDS instructions go to the device's
    // GDS unit for gds_issue cycles and complete gds_latency after.
    let text = "v_mov_b32 v1, 0\nv_mov_b32 v2, 1\nds_add_u32 v1, v2 gds\n\
                s_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let cfg = RunConfig::default();
    let d = run(text, &cfg);
    assert_eq!(d.unit_busy().busy(UnitKind::Gds), cfg.timing.gds_issue);
    assert_eq!(d.unit_busy().busy(UnitKind::Lds), 0);
    assert_eq!(
        d.stats()[2].latency_cycles,
        cfg.timing.gds_issue + cfg.timing.gds_latency
    );
}

/// A wave initialiser that leaves the `run` command's initial state.
fn no_init() -> WaveInit {
    std::sync::Arc::new(|_, _| {})
}

/// A wave's wait counters (`Wave::counters`) count its operations outstanding at its
/// clock: an LDS load issued just before `s_endpgm` is still counted when the wave ends; one
/// followed by a SALU loop longer than the load's latency is not, with no `s_waitcnt`
/// between (the count follows the clock, not only the waits); and `s_waitcnt` empties it.
#[test]
fn wait_counters_drop_as_the_clock_passes_completions() {
    let cfg = RunConfig {
        lds_size: 256,
        ..RunConfig::default()
    };
    let lgkm = |text: &str| run(text, &cfg).wave(0).counters.lgkm;
    assert_eq!(lgkm("ds_load_b32 v1, v0\ns_endpgm"), 1);
    assert_eq!(lgkm("ds_load_b32 v1, v0\nds_load_b32 v2, v0\ns_endpgm"), 2);
    let looped = format!(
        "ds_load_b32 v1, v0\ns_mov_b32 s30, {}\nloop:\ns_sub_u32 s30, s30, 1\n\
         s_cmp_lg_u32 s30, 0\ns_cbranch_scc1 loop\ns_endpgm",
        RunConfig::default().timing.lds_latency + 64
    );
    assert_eq!(lgkm(&looped), 0);
    assert_eq!(
        lgkm("ds_load_b32 v1, v0\ns_waitcnt lgkmcnt(0)\ns_endpgm"),
        0
    );
}
