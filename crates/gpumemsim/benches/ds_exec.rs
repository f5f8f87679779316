//! Throughput of DS execution through the executor: `ds_add_u32` over full waves in a loop.
//!
//! `cargo bench -p gpumemsim --bench ds_exec` reports lane-operations per second (target of
//! issue 3: at least 20 million per second on one core).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::assemble;

const ITERATIONS: u32 = 2000;
const DS_PER_ITERATION: u32 = 8;

fn program() -> String {
    let mut s = String::from("s_mov_b32 s0, 0\nloop:\n");
    for k in 0..DS_PER_ITERATION {
        s.push_str(&format!("ds_add_u32 v1, v2 offset:{}\n", 128 * k));
    }
    s.push_str(&format!(
        "s_add_u32 s0, s0, 1\ns_cmp_lt_u32 s0, {ITERATIONS}\ns_cbranch_scc1 loop\ns_waitcnt lgkmcnt(0)\ns_endpgm\n"
    ));
    s
}

fn bench(c: &mut Criterion) {
    let prog = assemble(&program());
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let mut g = c.benchmark_group("ds_exec");
    for wave in [32u32, 64] {
        let cfg = RunConfig {
            wave_size: wave,
            ..RunConfig::default()
        };
        g.throughput(Throughput::Elements(
            (ITERATIONS * DS_PER_ITERATION * wave) as u64,
        ));
        g.bench_function(format!("ds_add_u32_wave{wave}_lane_ops"), |b| {
            b.iter(|| {
                let mut wg = Device::new(&cfg, prog.lines.len()).expect("config");
                for l in 0..wave {
                    wg.wave_mut(0).set_vgpr(1, l, 4 * l);
                    wg.wave_mut(0).set_vgpr(2, l, 1);
                }
                wg.run(&prog.lines, &cfg).expect("runs");
                wg.steps()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
