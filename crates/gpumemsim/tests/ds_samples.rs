//! The opt-in run records: each DS instruction's costliest execution (`RunConfig::record_samples`,
//! `Device::ds_worst`), each vector memory instruction's execution that requested the most
//! cache lines (`Device::vmem_worst`) and the progress counters (`RunConfig::progress`), the
//! same whether a grid runs apart or together.

use std::sync::Arc;

use gpumemsim::addr::GlobalMemory;
use gpumemsim::exec::{run_grid, GridRun, RunConfig, RunProgress, Schedule, WaveInit};
use gpumemsim::isa::asm::assemble;
use gpumemsim::wave::Wave;

/// Workgroup g reads LDS at v0 << (g + 2): a stride of 4, 8, 16, 32 bytes, so workgroup 3's
/// read is the costliest (32 lanes on 4 banks, 8 words each: 8 cycles on rdna3). Each
/// workgroup stores to its own 256 bytes at s[2:3].
const PROGRAM: &str = "\
s_add_u32 s4, s0, 2
v_lshlrev_b32 v1, s4, v0
ds_load_b32 v2, v1
s_waitcnt lgkmcnt(0)
v_lshlrev_b32 v3, 2, v0
s_lshl_b32 s5, s0, 8
v_add_nc_u32 v3, s5, v3
global_store_b32 v3, v2, s[2:3]
s_endpgm
";
const LOAD_PC: usize = 2;

fn run(cfg: &RunConfig, program: &str) -> GridRun {
    let prog = assemble(program);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let init: WaveInit = std::sync::Arc::new(|g: u32, w: &mut Wave| {
        w.set_sreg(0, g);
        w.set_sreg(2, 0x1000);
    });
    let run = run_grid(&prog.lines, cfg, &GlobalMemory::new, &init).expect("config");
    run.result.clone().expect("the program runs");
    run
}

fn cfg(threads: usize, together: bool) -> RunConfig {
    RunConfig {
        workgroups: 4,
        waves: 2,
        threads,
        together,
        wgps: 4,
        record_samples: true,
        ..RunConfig::default()
    }
}

#[test]
fn the_costliest_execution_is_recorded_with_its_lane_addresses() {
    let r = run(&cfg(2, false), PROGRAM);
    assert_eq!(r.schedule, Schedule::Apart { threads: 2 });
    let d = &r.device;
    assert_eq!(d.ds_worst().len(), d.stats().len());
    for (pc, s) in d.ds_worst().iter().enumerate() {
        assert_eq!(s.is_some(), pc == LOAD_PC, "pc {pc}");
    }
    let s = d.ds_worst()[LOAD_PC].as_ref().expect("the load");
    // Workgroup 3's waves (ids 6 and 7) cost the same; the first one is kept.
    assert_eq!(s.wave, 6);
    assert_eq!((s.cycles, s.ideal_cycles), (8, 1));
    assert_eq!(s.wave_size, 32);
    assert_eq!(s.active, 0xffff_ffff);
    assert_eq!(s.addrs, (0..32).map(|l| l << 5).collect::<Vec<u32>>());
    assert_eq!(s.addrs1, None);
    // The statistics still add up every execution: 2 waves × (1 + 2 + 4 + 8) cycles.
    assert_eq!(d.stats()[LOAD_PC].cycles, 2 * (1 + 2 + 4 + 8));
}

#[test]
fn apart_and_together_record_the_same_samples() {
    let apart = run(&cached(cfg(3, false)), STRIDED);
    let together = run(&cached(cfg(1, true)), STRIDED);
    assert_eq!(together.schedule, Schedule::Together);
    assert_eq!(apart.device.ds_worst(), together.device.ds_worst());
    assert!(apart.device.vmem_worst()[VMEM_PC].is_some());
    assert_eq!(apart.device.vmem_worst(), together.device.vmem_worst());
}

/// [`PROGRAM`], and then workgroup g loads a dword per lane at lane << (g + 2) from
/// s[2:3] + 0x2000 (past what the stores write): workgroup 3's lanes are 32 bytes apart, 8
/// lines of 4 lanes each.
const STRIDED: &str = "\
s_add_u32 s4, s0, 2
v_lshlrev_b32 v1, s4, v0
ds_load_b32 v2, v1
s_waitcnt lgkmcnt(0)
v_add_nc_u32 v6, 0x2000, v1
global_load_b32 v5, v6, s[2:3]
s_waitcnt vmcnt(0)
v_lshlrev_b32 v3, 2, v0
s_lshl_b32 s5, s0, 8
v_add_nc_u32 v3, s5, v3
global_store_b32 v3, v5, s[2:3]
s_endpgm
";
const VMEM_PC: usize = 5;

/// `cfg` on a device with vector caches.
fn cached(cfg: RunConfig) -> RunConfig {
    RunConfig {
        device: Some(gpumemsim::preset::DevicePreset::named("rx7900xtx").expect("a preset")),
        ..cfg
    }
}

#[test]
fn the_execution_with_the_most_lines_is_recorded_with_each_lines_lanes() {
    use gpumemsim::vcache::Level;
    let r = run(&cached(cfg(2, false)), STRIDED);
    let d = &r.device;
    for (pc, s) in d.vmem_worst().iter().enumerate() {
        assert_eq!(s.is_some(), pc == VMEM_PC || pc == 10, "pc {pc}");
    }
    let s = d.vmem_worst()[VMEM_PC].as_ref().expect("the load");
    // Workgroup 3's first wave (id 6): 8 lines from 0x3000, lanes 4i..4i+3 on line i, each
    // brought from VRAM (its WGP's caches are cold).
    assert_eq!((s.wave, s.wave_size, s.active), (6, 32, 0xffff_ffff));
    let lines: Vec<(u64, u64, Level)> =
        s.lines.iter().map(|l| (l.line, l.lanes, l.level)).collect();
    let want: Vec<(u64, u64, Level)> = (0..8)
        .map(|i| (0x3000 / 128 + i, 0xf << (4 * i), Level::Vram))
        .collect();
    assert_eq!(lines, want);
    // The statistics add up every execution: 2 waves each of 1 + 2 + 4 + 8 lines.
    assert_eq!(d.stats()[VMEM_PC].lines.requests, 2 * (1 + 2 + 4 + 8));
}

#[test]
fn recording_changes_no_result() {
    let on = run(&cached(cfg(1, true)), STRIDED);
    let off = run(
        &RunConfig {
            record_samples: false,
            ..cached(cfg(1, true))
        },
        STRIDED,
    );
    assert!(off.device.vmem_worst().is_empty());
    for w in 0..8 {
        for reg in [2, 5] {
            for lane in 0..32 {
                assert_eq!(
                    on.device.wave(w).vgpr(reg, lane),
                    off.device.wave(w).vgpr(reg, lane),
                    "wave {w} v{reg} lane {lane}"
                );
            }
        }
    }
    assert_eq!(on.device.stats(), off.device.stats());
    assert_eq!(on.device.cycles(), off.device.cycles());
}

#[test]
fn nothing_is_recorded_unless_asked() {
    let r = run(
        &RunConfig {
            record_samples: false,
            ..cfg(2, false)
        },
        PROGRAM,
    );
    assert!(r.device.ds_worst().is_empty());
}

#[test]
fn two_addr_samples_keep_both_addresses() {
    let r = run(
        &cfg(1, true),
        "v_lshlrev_b32 v1, 7, v0\nds_load_2addr_b32 v[2:3], v1 offset1:1\ns_endpgm\n",
    );
    let s = r.device.ds_worst()[1].as_ref().expect("the load");
    assert_eq!(s.addrs, (0..32).map(|l| l << 7).collect::<Vec<u32>>());
    assert_eq!(
        s.addrs1,
        Some((0..32).map(|l| (l << 7) + 4).collect::<Vec<u32>>())
    );
    // Two passes, each 32 lanes on one bank.
    assert_eq!((s.cycles, s.ideal_cycles), (64, 2));
}

#[test]
fn progress_counts_every_step_and_wave_apart_or_together() {
    for (threads, together) in [(2, false), (1, true)] {
        let p = Arc::new(RunProgress::new());
        let r = run(
            &RunConfig {
                progress: Some(p.clone()),
                ..cfg(threads, together)
            },
            PROGRAM,
        );
        assert_eq!(p.steps(), r.device.steps(), "together {together}");
        assert_eq!(p.waves_ended(), 8, "together {together}");
        assert_eq!(p.restarts(), 0);
    }
}

#[test]
fn progress_starts_over_when_a_grid_must_run_again_together() {
    // Every workgroup stores to the same bytes: the apart run is thrown away.
    let shared = "v_lshlrev_b32 v3, 2, v0\nglobal_store_b32 v3, v0, s[2:3]\ns_endpgm\n";
    let p = Arc::new(RunProgress::new());
    let r = run(
        &RunConfig {
            progress: Some(p.clone()),
            ..cfg(2, false)
        },
        shared,
    );
    assert_eq!(r.schedule, Schedule::Together);
    assert_eq!(p.restarts(), 1);
    assert_eq!((p.steps(), p.waves_ended()), (r.device.steps(), 8));
}
