//! Functional runs ([`RunConfig::functional`]): the timed run's registers and memory without
//! the timing model, for programs whose result does not depend on the order of their waves'
//! accesses; no cycles; waves take turns, so one spinning on a flag lets the others run.

use gpumemsim::addr::GlobalMemory;
use gpumemsim::exec::{run_grid, GridRun, RunConfig, WaveInit};
use gpumemsim::isa::asm::assemble;
use gpumemsim::launch::{launch, KernelArg, Launch, Launched};
use gpumemsim::loader::CodeObject;
use gpumemsim::wave::Wave;

/// The examples' clang-19 build of `name`.
fn object(name: &str) -> CodeObject {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    CodeObject::parse(&std::fs::read(&path).expect(&path)).expect("parses")
}

fn f32_bytes(values: impl Iterator<Item = f32>) -> Vec<u8> {
    values.flat_map(|v| v.to_le_bytes()).collect()
}

/// Runs `kernel` of `obj` timed and functionally with the same launch.
fn both(
    obj: &CodeObject,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    args: Vec<KernelArg>,
    wgps: u32,
) -> (Launched, Launched) {
    let k = obj
        .kernels
        .iter()
        .find(|k| k.name == kernel)
        .expect("kernel");
    let run = |functional| {
        let done = launch(&Launch {
            grid,
            block,
            args: args.clone(),
            config: RunConfig {
                functional,
                wgps,
                ..gpumemsim::launch::on_chip(&RunConfig::default(), k)
            },
            ..Launch::new(k)
        })
        .expect("launches");
        done.run.result.clone().expect("runs to its end");
        done
    };
    (run(false), run(true))
}

/// The same buffers, registers of every wave and executions per instruction; the functional
/// device reports no cycles and no timing statistics.
fn assert_same_results(timed: &Launched, functional: &Launched) {
    assert_eq!(timed.buffers, functional.buffers, "buffers");
    let (t, f) = (&timed.run.device, &functional.run.device);
    assert!(f.functional() && !t.functional());
    let executions = |d: &gpumemsim::exec::Device| -> Vec<u64> {
        d.stats().iter().map(|s| s.executions).collect()
    };
    assert_eq!(executions(t), executions(f), "executions per instruction");
    assert_eq!(t.steps(), f.steps());
    assert!(t.cycles() > 0);
    assert_eq!(f.cycles(), 0);
    let ft = f.totals();
    assert_eq!(
        (
            ft.cycles,
            ft.stall_cycles,
            ft.latency_cycles,
            ft.conflict_cycles
        ),
        (0, 0, 0, 0)
    );
    assert!(
        f.events().is_empty() && t.events().is_empty(),
        "{:?}",
        f.events()
    );
}

#[test]
fn a_tiled_matmul_gives_the_timed_runs_results() {
    let n = 64u32;
    let a = f32_bytes((0..n * n).map(|i| (i % 7) as f32 - 3.0));
    let b = f32_bytes((0..n * n).map(|i| (i % 5) as f32 * 0.5));
    let (t, f) = both(
        &object("apps/build/gemm_tiled.o"),
        "gemm_tiled_16x16",
        [4, 4, 1],
        [16, 16, 1],
        vec![
            KernelArg::Buffer(a),
            KernelArg::Buffer(b),
            KernelArg::Buffer(vec![0; (4 * n * n) as usize]),
            KernelArg::Scalar(n.to_le_bytes().to_vec()),
            KernelArg::Scalar(n.to_le_bytes().to_vec()),
            KernelArg::Scalar(n.to_le_bytes().to_vec()),
        ],
        1,
    );
    assert_same_results(&t, &f);
}

#[test]
fn a_reduction_over_workgroups_apart_gives_the_timed_runs_results() {
    let n = 64 * 256u32;
    let (t, f) = both(
        &object("apps/build/reduce_two_pass.o"),
        "reduce_sum_count_partial",
        [64, 1, 1],
        [256, 1, 1],
        vec![
            KernelArg::Buffer(f32_bytes((0..n).map(|i| (i % 13) as f32 - 6.0))),
            KernelArg::Scalar(n.to_le_bytes().to_vec()),
            KernelArg::Buffer(vec![0; 4 * 64]),
            KernelArg::Buffer(vec![0; 4 * 64]),
            KernelArg::Local(1024),
            KernelArg::Local(1024),
        ],
        4,
    );
    assert!(
        matches!(f.run.schedule, gpumemsim::exec::Schedule::Apart { .. }),
        "{:?}",
        f.run.together_because
    );
    assert_same_results(&t, &f);
}

/// Runs assembly `text` as a grid of `cfg`'s workgroups: s0 = the workgroup, s[2:3] =
/// 0x1000, where global memory holds `words`.
fn run_asm(text: &str, cfg: &RunConfig, words: &[u32]) -> GridRun {
    let prog = assemble(text);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let init: WaveInit = std::sync::Arc::new(|g: u32, w: &mut Wave| {
        w.set_sreg(0, g);
        w.set_sreg(2, 0x1000);
    });
    let memory = || {
        let mut m = GlobalMemory::new();
        m.write_words(0x1000, words);
        m
    };
    run_grid(&prog.lines, cfg, &memory, &init).expect("config")
}

/// Waves take turns: workgroup 0 spins on a word workgroup 1 writes, and both end, the
/// spinning wave after at most two turns of [`gpumemsim::exec::FUNCTIONAL_SLICE`] steps.
#[test]
fn a_wave_spinning_on_a_flag_lets_the_wave_that_sets_it_run() {
    let text = "s_cmp_eq_u32 s0, 0\n\
                s_cbranch_scc0 writer\n\
                v_mov_b32 v0, 0\n\
                spin:\n\
                global_load_b32 v1, v0, s[2:3] glc\n\
                s_waitcnt vmcnt(0)\n\
                v_cmp_eq_u32_e32 vcc_lo, 0, v1\n\
                s_cbranch_vccnz spin\n\
                s_endpgm\n\
                writer:\n\
                v_mov_b32 v0, 0\n\
                v_mov_b32 v1, 1\n\
                global_store_b32 v0, v1, s[2:3]\n\
                s_endpgm\n";
    let cfg = RunConfig {
        workgroups: 2,
        functional: true,
        together: true,
        max_steps: 10_000,
        ..RunConfig::default()
    };
    let run = run_asm(text, &cfg, &[0]);
    run.result.clone().expect("both waves end");
    let spins = run.device.wave(0).steps;
    let slice = u64::from(gpumemsim::exec::FUNCTIONAL_SLICE);
    assert!(spins > slice && spins <= 2 * slice, "{spins} steps");
    assert_eq!(run.device.memory().words(0x1000, 0x1004), [1]);
}

/// The one documented difference for a program that reads a load's destination before
/// waiting for it: the timed run reads the register's old value (the data has not landed)
/// and reports a missing wait; the functional run reads the loaded value, with no event.
#[test]
fn a_load_read_before_its_wait_reads_the_loaded_value_in_a_functional_run() {
    let text = "v_mov_b32 v0, 0\n\
                v_mov_b32 v1, 7\n\
                global_load_b32 v1, v0, s[2:3]\n\
                v_mov_b32 v2, v1\n\
                s_waitcnt vmcnt(0)\n\
                s_endpgm\n";
    let v2 = |functional| {
        let cfg = RunConfig {
            functional,
            ..RunConfig::default()
        };
        let run = run_asm(text, &cfg, &[5]);
        run.result.clone().expect("runs");
        let kinds: Vec<&str> = run.device.events().iter().map(|e| e.kind).collect();
        (run.device.wave(0).vgpr(2, 0), kinds)
    };
    assert_eq!(v2(false), (7, vec!["missing_wait"]));
    assert_eq!(v2(true), (5, vec![]));
}
