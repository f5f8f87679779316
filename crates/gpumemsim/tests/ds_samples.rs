//! The opt-in run records: each DS instruction's costliest execution (`RunConfig::record_ds`,
//! `Device::ds_worst`) and the progress counters (`RunConfig::progress`), the same whether a
//! grid runs apart or together.

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
        record_ds: true,
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
    let apart = run(&cfg(3, false), PROGRAM);
    let together = run(&cfg(1, true), PROGRAM);
    assert_eq!(together.schedule, Schedule::Together);
    assert_eq!(apart.device.ds_worst(), together.device.ds_worst());
}

#[test]
fn nothing_is_recorded_unless_asked() {
    let r = run(
        &RunConfig {
            record_ds: false,
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
