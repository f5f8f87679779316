//! `run_grid`: workgroups run apart when that gives the result of running them together,
//! and together when they share a device-wide unit or global bytes.

use gpumemsim::addr::GlobalMemory;
use gpumemsim::exec::{
    run_grid, GridPart, GridRun, RunConfig, Schedule, TogetherBecause, WaveInit,
};
use gpumemsim::isa::asm::assemble;
use gpumemsim::wave::Wave;

/// Each lane stores (workgroup id + 1) to `s[2:3]` + 4 × v0 (lane + 32 × wave in group),
/// plus 4 × 64 × group when `stride_groups`.
fn store_program(stride_groups: bool, extra: &str) -> String {
    let index = if stride_groups {
        "s_lshl_b32 s4, s0, 6\nv_add_nc_u32 v1, s4, v0\n"
    } else {
        "v_mov_b32 v1, v0\n"
    };
    format!(
        "{index}v_lshlrev_b32 v1, 2, v1\ns_add_u32 s5, s0, 1\nv_mov_b32 v2, s5\n{extra}global_store_b32 v1, v2, s[2:3]\ns_endpgm\n"
    )
}

fn run(text: &str, cfg: &RunConfig) -> GridRun {
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let init: WaveInit = std::sync::Arc::new(|g: u32, w: &mut Wave| {
        w.set_sreg(0, g);
        w.set_sreg(2, 0x1000);
    });
    let run = run_grid(&prog.lines, cfg, &GlobalMemory::new, &init).expect("config");
    run.result.clone().expect("the program runs");
    run
}

fn words(r: &GridRun, n: u64) -> Vec<u32> {
    r.device.memory().words(0x1000, 0x1000 + 4 * n)
}

#[test]
fn disjoint_workgroups_run_apart_and_match_running_together() {
    let cfg = RunConfig {
        wgps: 3,
        workgroups: 6,
        waves: 2,
        threads: 2,
        ..RunConfig::default()
    };
    let text = store_program(true, "");
    let apart = run(&text, &cfg);
    let together = run(
        &text,
        &RunConfig {
            together: true,
            ..cfg.clone()
        },
    );
    assert_eq!(
        apart.schedule,
        Schedule::Apart { threads: 2 },
        "{:?}",
        apart.together_because
    );
    assert_eq!(together.schedule, Schedule::Together);
    let want: Vec<u32> = (0..6 * 64).map(|i| i / 64 + 1).collect();
    assert_eq!(words(&apart, 6 * 64), want);
    assert_eq!(words(&together, 6 * 64), want);
    assert_eq!(apart.device.stats(), together.device.stats());
    assert_eq!(apart.device.clocks(), together.device.clocks());
    assert_eq!(apart.device.steps(), together.device.steps());
    let ids: Vec<u32> = apart.device.waves().iter().map(|w| w.id).collect();
    assert_eq!(ids, (0..12).collect::<Vec<u32>>());
    assert_eq!(
        (0..12)
            .map(|i| apart.device.workgroup_of(i))
            .collect::<Vec<_>>(),
        (0..12).map(|i| i as u32 / 2).collect::<Vec<_>>()
    );
}

#[test]
fn workgroups_writing_the_same_bytes_run_together() {
    let cfg = RunConfig {
        wgps: 3,
        workgroups: 3,
        waves: 1,
        ..RunConfig::default()
    };
    let r = run(&store_program(false, ""), &cfg);
    assert_eq!(r.schedule, Schedule::Together);
    assert_eq!(r.together_because, TogetherBecause::SharedMemory(0, 1));
    // Together, the last workgroup's store lands last.
    assert_eq!(words(&r, 32), vec![3; 32]);
}

/// Blocks are checked in order as they end: the reason names the first block that clashes
/// with an earlier one and the first of those (here 1 and 2, though 0 and 3 clash too), on
/// any number of threads.
#[test]
fn the_first_block_to_clash_names_the_reason_on_any_thread_count() {
    // Workgroup g stores to the 64 words of region min(g, 3 - g): 0 and 3 share region 0,
    // 1 and 2 region 1.
    let text = "s_sub_u32 s6, 3, s0\ns_min_u32 s4, s0, s6\ns_lshl_b32 s4, s4, 6\n\
                v_add_nc_u32 v1, s4, v0\nv_lshlrev_b32 v1, 2, v1\ns_add_u32 s5, s0, 1\n\
                v_mov_b32 v2, s5\nglobal_store_b32 v1, v2, s[2:3]\ns_endpgm\n";
    for threads in [1, 2, 4] {
        let cfg = RunConfig {
            wgps: 4,
            workgroups: 4,
            waves: 1,
            threads,
            ..RunConfig::default()
        };
        let r = run(text, &cfg);
        assert_eq!(r.schedule, Schedule::Together, "{threads} threads");
        assert_eq!(
            r.together_because,
            TogetherBecause::SharedMemory(1, 2),
            "{threads} threads"
        );
        // Together, the later workgroup of each pair stores last.
        let mut want = vec![4; 32];
        want.extend([3; 32]);
        assert_eq!(words(&r, 64)[..32], want[..32]);
        assert_eq!(words(&r, 128)[64..96], want[32..]);
    }
}

#[test]
fn a_device_wide_unit_keeps_the_grid_together() {
    let cfg = RunConfig {
        wgps: 3,
        workgroups: 2,
        ..RunConfig::default()
    };
    let r = run(
        &store_program(
            true,
            "v_mov_b32 v3, 0\nds_add_u32 v3, v2 gds\ns_waitcnt lgkmcnt(0)\n",
        ),
        &cfg,
    );
    assert_eq!(r.schedule, Schedule::Together);
    let TogetherBecause::DeviceWide(at) = &r.together_because else {
        panic!("{:?}", r.together_because);
    };
    assert!(at.contains("ds_add_u32"), "{at}");
}

#[test]
fn a_workgroup_that_fails_alone_reruns_together_and_reports_the_grids_error() {
    // Workgroup 1 meets an instruction the executor does not model (an output modifier on
    // an integer result).
    let text = "s_cmp_eq_u32 s0, 1\ns_cbranch_scc0 2\nv_cvt_i32_f32_e64 v1, v0 mul:2\ns_endpgm\n";
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let cfg = RunConfig {
        wgps: 3,
        workgroups: 3,
        ..RunConfig::default()
    };
    let init: WaveInit = std::sync::Arc::new(|g: u32, w: &mut Wave| w.set_sreg(0, g));
    let r = run_grid(&prog.lines, &cfg, &GlobalMemory::new, &init).expect("config");
    assert_eq!(r.schedule, Schedule::Together);
    assert_eq!(r.together_because, TogetherBecause::Error);
    let e = r
        .result
        .expect_err("omod on an integer result is not implemented")
        .to_string();
    assert!(e.contains("v_cvt_i32_f32_e64"), "{e}");
}

#[test]
fn a_cancelled_run_stops_with_interrupted_apart_or_together() {
    // Every wave loops forever (s_branch to itself); a cancelled run stops at its next
    // progress batch instead of at the step limit.
    let prog = assemble("s_branch 0xffff\ns_endpgm\n");
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    for wgps in [1, 2] {
        let progress = std::sync::Arc::new(gpumemsim::exec::RunProgress::new());
        let cfg = RunConfig {
            workgroups: 4,
            wgps,
            release_finished: true,
            max_steps: u64::MAX,
            progress: Some(progress.clone()),
            ..RunConfig::default()
        };
        let canceller = {
            let p = progress.clone();
            std::thread::spawn(move || {
                while p.steps() < 100_000 {
                    std::thread::yield_now();
                }
                p.cancel();
            })
        };
        let init: WaveInit = std::sync::Arc::new(|g: u32, w: &mut Wave| w.set_sreg(0, g));
        let r = run_grid(&prog.lines, &cfg, &GlobalMemory::new, &init).expect("config");
        canceller.join().expect("the canceller ran");
        match r.result {
            Err(gpumemsim::exec::RunError::Interrupted { steps }) => {
                assert!(steps >= 4096, "stopped at a progress batch: {steps}")
            }
            other => panic!("wgps {wgps}: expected an interrupted run, got {other:?}"),
        }
    }
}

/// Runs `text` as `count` shards, each through its part's bytes, and merges them.
fn sharded(text: &str, cfg: &RunConfig, count: u32) -> (Vec<GridPart>, GridRun) {
    use gpumemsim::exec::Shard;
    let parts: Vec<GridPart> = (0..count)
        .map(|index| {
            let shard = RunConfig {
                shard: Some(Shard::Run { index, count }),
                threads: 1,
                ..cfg.clone()
            };
            let part = run(text, &shard).part.expect("a shard hands back a part");
            GridPart::from_bytes(&part.to_bytes()).expect("its bytes read back")
        })
        .collect();
    let merge = RunConfig {
        shard: Some(Shard::Merge(parts.clone().into())),
        ..cfg.clone()
    };
    (parts, run(text, &merge))
}

#[test]
fn shards_merged_are_the_grid_run_apart_in_one_process() {
    let cfg = RunConfig {
        wgps: 5,
        workgroups: 12,
        waves: 2,
        threads: 3,
        ..RunConfig::default()
    };
    let text = store_program(true, "s_sleep 1\n");
    let whole = run(&text, &cfg);
    let (parts, merged) = sharded(&text, &cfg, 3);
    // 5 blocks over 3 shards: blocks 0..1, 1..3 and 3..5, whose workgroups are contiguous.
    let groups: Vec<_> = parts.iter().map(|p| p.groups()).collect();
    assert_eq!(groups, [0..2, 2..7, 7..12]);
    assert_eq!(merged.schedule, Schedule::Apart { threads: 3 });
    assert_eq!(words(&merged, 12 * 64), words(&whole, 12 * 64));
    assert_eq!(merged.device.stats(), whole.device.stats());
    assert_eq!(merged.device.events(), whole.device.events());
    assert_eq!(merged.device.cycles(), whole.device.cycles());
    assert_eq!(merged.device.wave_count(), whole.device.wave_count());
    assert_eq!(
        merged.device.wave_clock_sum(),
        whole.device.wave_clock_sum()
    );
    assert_eq!(merged.device.steps(), whole.device.steps());
    assert_eq!(merged.device.placement(), whole.device.placement());
    assert_eq!(merged.device.unit_busy(), whole.device.unit_busy());
    // More shards than blocks: the extra shards run nothing, and the merge is the same.
    let (parts, merged) = sharded(&text, &cfg, 7);
    assert_eq!(parts.iter().filter(|p| p.groups().is_empty()).count(), 2);
    assert_eq!(words(&merged, 12 * 64), words(&whole, 12 * 64));
    assert_eq!(merged.device.stats(), whole.device.stats());
}

#[test]
fn shards_that_share_bytes_are_run_whole_by_the_merge() {
    let cfg = RunConfig {
        wgps: 4,
        workgroups: 8,
        waves: 2,
        ..RunConfig::default()
    };
    // Every workgroup stores to the same words: one process runs the grid together.
    let text = store_program(false, "");
    let whole = run(&text, &cfg);
    let (parts, merged) = sharded(&text, &cfg, 2);
    assert!(
        parts.iter().all(|p| p.together().is_none()),
        "each shard alone is apart"
    );
    assert_eq!(merged.schedule, Schedule::Together);
    assert_eq!(merged.together_because, whole.together_because);
    assert_eq!(
        merged.together_because,
        TogetherBecause::SharedMemory(0, 1),
        "the first pair of blocks, as one process names it"
    );
    assert_eq!(words(&merged, 64), words(&whole, 64));
    // A device-wide unit: each shard says so and runs nothing; the merge runs the grid.
    let gds = "v_mov_b32 v3, 0\nds_add_u32 v3, v3 gds\ns_waitcnt lgkmcnt(0)\n";
    let cfg = RunConfig {
        gds_size: 64,
        ..cfg
    };
    let (parts, merged) = sharded(&store_program(true, gds), &cfg, 2);
    assert!(parts
        .iter()
        .all(|p| matches!(p.together(), Some(TogetherBecause::DeviceWide(_)))));
    assert!(matches!(
        merged.together_because,
        TogetherBecause::DeviceWide(_)
    ));
}

#[test]
fn parts_of_another_grid_or_an_incomplete_set_are_refused() {
    use gpumemsim::exec::{RunError, Shard};
    let cfg = RunConfig {
        wgps: 4,
        workgroups: 8,
        waves: 2,
        ..RunConfig::default()
    };
    let text = store_program(true, "");
    let (parts, _) = sharded(&text, &cfg, 2);
    let merge = |cfg: &RunConfig, parts: Vec<GridPart>| {
        let prog = assemble(&text);
        let cfg = RunConfig {
            shard: Some(Shard::Merge(parts.into())),
            ..cfg.clone()
        };
        let init: WaveInit = std::sync::Arc::new(|_: u32, _: &mut Wave| {});
        match run_grid(&prog.lines, &cfg, &GlobalMemory::new, &init) {
            Err(RunError::Config(m)) => m,
            _ => panic!("parts accepted"),
        }
    };
    assert!(merge(&cfg, parts[..1].to_vec()).contains("1 given for 2 shards"));
    let other = RunConfig {
        wgps: 8,
        ..cfg.clone()
    };
    assert!(merge(&other, parts.clone()).contains("shard 0 ran another program or grid"));
    assert!(GridPart::from_bytes(b"\x93\x01\x02").is_err());
}
