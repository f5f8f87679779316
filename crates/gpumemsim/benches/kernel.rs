//! Throughput of a real kernel: the 16×16-tiled matrix multiply of examples/kernels
//! (`matmul.w32.o`, clang-19 -O2, wave32) at 256×256: 256 workgroups of 8 waves, 2.34 million
//! wave-instructions.
//!
//! `cargo bench -p gpumemsim --bench kernel` reports lane-instructions per second
//! (wave-instructions × 32 lanes; target of issue 7: at least 50 million per second on one
//! core, and both cores used when workgroups are independent):
//! - `matmul256_one_wgp`: the default device, one WGP holding every workgroup in one
//!   clock-ordered schedule (one thread);
//! - `matmul256_wgps2_threads_1`: two WGPs, each a block of workgroups, on one thread;
//! - `matmul256_wgps2_threads_2`: the same on two threads (docs/rules/timing.md#placement).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpumemsim::launch::{launch, KernelArg, Launch};
use gpumemsim::loader::CodeObject;

const N: u32 = 256;

fn matrix(salt: u32) -> Vec<u8> {
    (0..N * N)
        .flat_map(|i| (((i * 7 + salt) % 17) as f32 - 8.0).to_le_bytes())
        .collect()
}

fn matmul(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/kernels/matmul.w32.o"
    );
    let bytes = std::fs::read(path).expect("examples/kernels/matmul.w32.o");
    let obj = CodeObject::parse(&bytes).expect("a code object");
    let kernel = obj.kernel("matmul").expect("the matmul kernel");
    let base = Launch {
        grid: [N / 16, N / 16, 1],
        block: [16, 16, 1],
        args: vec![
            KernelArg::Buffer(matrix(1)),
            KernelArg::Buffer(matrix(4)),
            KernelArg::Buffer(vec![0; (N * N * 4) as usize]),
            KernelArg::Scalar(N.to_le_bytes().to_vec()),
        ],
        ..Launch::new(kernel)
    };
    let first = launch(&base).expect("launch");
    first.run.result.as_ref().expect("the kernel runs");
    let lane_instructions = first.run.device.steps() * 32;
    let mut g = c.benchmark_group("kernel");
    g.sample_size(10);
    g.throughput(Throughput::Elements(lane_instructions));
    for (name, wgps, threads) in [
        ("matmul256_one_wgp", 1, 1),
        ("matmul256_wgps2_threads_1", 2, 1),
        ("matmul256_wgps2_threads_2", 2, 2),
    ] {
        let mut l = base.clone();
        l.config.wgps = wgps;
        l.config.threads = threads;
        g.bench_function(name, |b| {
            b.iter(|| {
                let done = launch(&l).expect("launch");
                assert_eq!(done.run.device.steps() * 32, lane_instructions);
                done.buffers[2][0]
            })
        });
    }
    g.finish();
}

criterion_group!(benches, matmul);
criterion_main!(benches);
