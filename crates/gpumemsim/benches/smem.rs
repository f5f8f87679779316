//! Throughput of scalar loads through the scalar-cache model.
//!
//! `cargo bench -p gpumemsim --bench smem` reports loads per second (target of issue 5: at
//! least 10 million per second on one core):
//! - `unit_*`: [`gpumemsim::smem::execute_into`] alone, `s_load_b32` / `s_load_b128` over a
//!   working set of 8 KiB (hits after the first pass) and of 1 MiB (every line a miss);
//! - `executor_*`: the same loads issued by a program through the executor (with the loop,
//!   the wait and the register landing).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpumemsim::addr::GlobalMemory;
use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::assemble;
use gpumemsim::isa::def::lookup_name;
use gpumemsim::isa::{Field, Instruction};
use gpumemsim::smem::{self, KcacheConfig, ScalarCache};
use gpumemsim::wave::Wave;

const LOADS: u64 = 100_000;

fn unit(c: &mut Criterion) {
    let mut g = c.benchmark_group("smem");
    let mut mem = GlobalMemory::new();
    for i in 0..(1 << 18) {
        mem.write_u32(0x100_0000 + 4 * i, i as u32);
    }
    for (name, span) in [("b32", 8 * 1024u64), ("b32", 1 << 20), ("b128", 8 * 1024)] {
        let op = lookup_name(&format!("s_load_{name}")).expect("known");
        let mut inst = Instruction::new(op);
        inst.set(Field::Sdata, 8);
        inst.set(Field::Soffset, 2); // s2 holds the offset
        let kind = smem::smem_op(op.def()).expect("smem");
        let mut wave = Wave::new(0, 32);
        wave.set_sreg64(0, 0x100_0000);
        g.throughput(Throughput::Elements(LOADS));
        g.bench_function(format!("unit_s_load_{name}_span_{}k", span / 1024), |b| {
            let mut cache = ScalarCache::new(KcacheConfig::default()).expect("cache");
            let mut out = smem::SmemOutcome::default();
            b.iter(|| {
                let mut sum = 0u64;
                for i in 0..LOADS {
                    let now = i;
                    wave.set_sreg(2, ((i * 64) % span) as u32);
                    smem::execute_into(&inst, kind, &wave, &mem, &mut cache, now, &mut out);
                    sum += out.writes()[0].value as u64;
                }
                sum
            })
        });
    }
    g.finish();
}

fn executor(c: &mut Criterion) {
    const ITER: u64 = 5000;
    const PER: u64 = 8;
    let mut s = String::from("s_mov_b32 s3, 0\nloop:\n");
    for k in 0..PER {
        s.push_str(&format!(
            "s_load_b32 s{}, s[0:1], s2 offset:{}\n",
            8 + k,
            4 * k
        ));
    }
    s.push_str(&format!(
        "s_add_u32 s2, s2, 64\ns_and_b32 s2, s2, 0x1fff\ns_add_u32 s3, s3, 1\n\
         s_waitcnt lgkmcnt(0)\ns_cmp_lt_u32 s3, {ITER}\ns_cbranch_scc1 loop\ns_endpgm\n"
    ));
    let prog = assemble(&s);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let cfg = RunConfig::default();
    let mut g = c.benchmark_group("smem");
    g.throughput(Throughput::Elements(ITER * PER));
    g.bench_function("executor_s_load_b32_loop", |b| {
        b.iter(|| {
            let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
            dev.wave_mut(0).set_sreg64(0, 0x100_0000);
            dev.run(&prog.lines, &cfg).expect("runs");
            dev.steps()
        })
    });
    g.finish();
}

criterion_group!(benches, unit, executor);
criterion_main!(benches);
