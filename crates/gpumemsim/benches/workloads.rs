//! The simulator's speed on seven workloads (issue 22, item 6; issue 44, item 4;
//! docs/benchmarks.md) through the library: [`launch`] of a clang-19 code object on the
//! default device (one WGP) on one host thread, each kernel with its checks (`NAME`),
//! without (`NAME/no-check`, `RunConfig::check` off: the race and uninitialised-read
//! observers) and functionally (`NAME/functional`, `RunConfig::functional`: no timing model
//! and no checks), or, for the bank model, [`BankModel::cost_batch`].
//!
//! `cargo bench -p gpumemsim --bench workloads` prints, for each, criterion's time per run
//! and lane-instructions per second (`thrpt`, in elements/s: wave-instructions executed × 32,
//! the report's `"totals": {"wave_instructions"}` × 32), and, before the measurement, one
//! line on stderr with the wave-instructions of a run and the peak heap the run allocated
//! beyond what the bench held before it (a counting allocator):
//! - `valu_loop`: examples/bench/valu_loop.cl, 64 workgroups of 256, 64 rounds of register
//!   arithmetic per work-item;
//! - `gemm_tiled_256`: examples/apps gemm_tiled_16x16, n = 256 (16×16 workgroups of 16×16);
//! - `lds_reduce_4096wg`: examples/apps reduce_sum_count_partial, 4,096 workgroups of 256
//!   over 2^20 floats (one each), the LDS tree of two `__local` arrays;
//! - `transpose_padded_4096wg`: examples/apps transpose_tiled_padded, 2048×2048 floats,
//!   64×64 workgroups of 32×8 (each workgroup its own tile: the grid runs apart);
//! - `transpose_together_4096wg`: examples/kernels transpose_padded, one 32×32 tile read and
//!   written by each of 4,096 workgroups of 32 (all write the same output: the grid runs
//!   together, the form whose checks issue 41 measured);
//! - `saxpy_grid_stride`: examples/bench/saxpy_stride.cl, 2^20 floats by 256 workgroups of
//!   256 (16 elements per work-item);
//! - `bank_batch`: the RDNA3 bank model costing 2^18 wave32 `ds_load_b32` accesses in one
//!   batch (five address patterns in turn); its elements are lanes costed (accesses × 32).
//!
//! Each run takes up to seconds, so every group takes 10 samples of one run each
//! (`SamplingMode::Flat`) and a measurement time sized from a first run.
//! `tools/bench_workloads.sh` runs the five kernels as whole `gpumemsim run` processes.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode, Throughput,
};
use gpumemsim::banks::{AccessKind, AccessShape, BankModel, Batch, WaveSize};
use gpumemsim::launch::{launch, KernelArg, Launch};
use gpumemsim::loader::CodeObject;
use gpumemsim::xorshift::{rand_bytes, XorShift};

/// The system allocator, counting the bytes held now and the most held since [`reset_peak`].
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = HELD.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call forwards to `System` with the caller's arguments; the counters only
// observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                HELD.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Starts a peak measurement: returns the bytes held now.
fn reset_peak() -> usize {
    let now = HELD.load(Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// The most bytes held since [`reset_peak`] returned `base`, beyond `base`, in MiB.
fn peak_mib(base: usize) -> f64 {
    PEAK.load(Ordering::Relaxed).saturating_sub(base) as f64 / (1 << 20) as f64
}

/// Sizes `g` from the duration of a first run: 10 samples of one run each, and a margin.
fn configure(g: &mut BenchmarkGroup<criterion::measurement::WallTime>, first: Duration) {
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    g.warm_up_time(Duration::from_millis(1));
    g.measurement_time((first * 12).max(Duration::from_millis(100)));
}

/// A code object of the repository, parsed.
fn object(path: &str) -> CodeObject {
    let full = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    CodeObject::parse(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `n` little-endian f32s.
fn floats(n: usize, f: impl Fn(usize) -> f32) -> Vec<u8> {
    (0..n).flat_map(|i| f(i).to_le_bytes()).collect()
}

fn scalar(v: u32) -> KernelArg {
    KernelArg::Scalar(v.to_le_bytes().to_vec())
}

/// The f32 at element `i` of a buffer's bytes.
fn f32_at(b: &[u8], i: usize) -> f32 {
    f32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().expect("4 bytes"))
}

/// One kernel workload: [`bench_launch`] of `l` as `name`, of `l` without its checks as
/// `name/no-check`, and of `l` run functionally (`RunConfig::functional`: no timing model,
/// no checks) as `name/functional`.
fn bench_kernel(c: &mut Criterion, name: &str, l: &Launch, check: impl Fn(&[Vec<u8>])) {
    bench_launch(c, name, l, &check);
    let mut unchecked = l.clone();
    unchecked.config.check = false;
    bench_launch(c, &format!("{name}/no-check"), &unchecked, &check);
    let mut functional = l.clone();
    functional.config.functional = true;
    bench_launch(c, &format!("{name}/functional"), &functional, &check);
}

/// Runs `l` once (checking its output with `check`), reports its wave-instructions and peak
/// heap, then benchmarks it as `name`.
fn bench_launch(c: &mut Criterion, name: &str, l: &Launch, check: &impl Fn(&[Vec<u8>])) {
    let base = reset_peak();
    let start = Instant::now();
    let first = launch(l).expect("the launch starts");
    let took = start.elapsed();
    if let Err(e) = &first.run.result {
        panic!("{name}: the kernel stopped: {e}");
    }
    let peak = peak_mib(base);
    check(&first.buffers);
    let waves = first.run.device.totals().executions;
    let lanes = waves * 32;
    eprintln!(
        "{name}: {waves} wave-instructions ({lanes} lane-instructions), {} cycles, \
         peak heap {peak:.1} MiB, first run {:.2} s",
        first.run.device.cycles(),
        took.as_secs_f64()
    );
    drop(first);
    let mut g = c.benchmark_group("workloads");
    configure(&mut g, took);
    g.throughput(Throughput::Elements(lanes));
    g.bench_function(name, |b| {
        b.iter(|| {
            let done = launch(black_box(l)).expect("the launch starts");
            assert_eq!(done.run.device.totals().executions, waves);
            done
        })
    });
    g.finish();
}

fn valu_loop(c: &mut Criterion) {
    let obj = object("examples/bench/build/valu_loop.o");
    let (groups, block, iters) = (64, 256, 64);
    let n = (groups * block) as usize;
    let mut l = Launch {
        grid: [groups, 1, 1],
        block: [block, 1, 1],
        args: vec![
            KernelArg::Buffer(vec![0; n * 4]),
            KernelArg::Buffer(vec![0; n * 4]),
            scalar(iters),
        ],
        ..Launch::new(obj.kernel("valu_loop").expect("valu_loop"))
    };
    l.config.threads = 1;
    bench_kernel(c, "valu_loop", &l, |out| {
        // Work-item 0's xorshift and LCG after `iters` rounds.
        let (mut h, mut k) = (0u32, 0x9e37_79b9u32);
        for _ in 0..iters {
            h = h.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            k ^= k << 13;
            k ^= k >> 17;
            k ^= k << 5;
        }
        assert_eq!(&out[1][..4], &(h ^ k).to_le_bytes());
    });
}

fn gemm_tiled(c: &mut Criterion) {
    let obj = object("examples/apps/build/gemm_tiled.o");
    const N: u32 = 256;
    let len = (N * N * 4) as usize;
    let mut l = Launch {
        grid: [N / 16, N / 16, 1],
        block: [16, 16, 1],
        args: vec![
            KernelArg::Buffer(rand_bytes(1, len)),
            KernelArg::Buffer(rand_bytes(2, len)),
            KernelArg::Buffer(vec![0; len]),
            scalar(N),
            scalar(N),
            scalar(N),
        ],
        ..Launch::new(obj.kernel("gemm_tiled_16x16").expect("gemm_tiled_16x16"))
    };
    l.config.threads = 1;
    bench_kernel(c, "gemm_tiled_256", &l, |out| {
        assert!(out[2].iter().any(|&b| b != 0), "C was written");
    });
}

fn lds_reduce(c: &mut Criterion) {
    let obj = object("examples/apps/build/reduce_two_pass.o");
    let (groups, block) = (4096u32, 256u32);
    let n = (groups * block) as usize;
    // Element i is i % 8 − 3: each workgroup's 256 sum to 128 and have 128 positives.
    let mut l = Launch {
        grid: [groups, 1, 1],
        block: [block, 1, 1],
        args: vec![
            KernelArg::Buffer(floats(n, |i| (i % 8) as f32 - 3.0)),
            scalar(n as u32),
            KernelArg::Buffer(vec![0; groups as usize * 4]),
            KernelArg::Buffer(vec![0; groups as usize * 4]),
            KernelArg::Local(block * 4),
            KernelArg::Local(block * 4),
        ],
        ..Launch::new(
            obj.kernel("reduce_sum_count_partial")
                .expect("reduce_sum_count_partial"),
        )
    };
    l.config.threads = 1;
    bench_kernel(c, "lds_reduce_4096wg", &l, |out| {
        for g in [0, 4095] {
            assert_eq!(f32_at(&out[2], g), 128.0);
            assert_eq!(&out[3][g * 4..g * 4 + 4], &128i32.to_le_bytes());
        }
    });
}

fn transpose_padded(c: &mut Criterion) {
    let obj = object("examples/apps/build/transpose_padded.o");
    const W: u32 = 2048;
    let n = (W * W) as usize;
    let mut l = Launch {
        grid: [W / 32, W / 32, 1],
        block: [32, 8, 1],
        args: vec![
            KernelArg::Buffer(vec![0; n * 4]),
            KernelArg::Buffer(floats(n, |i| i as f32)),
            scalar(W),
            scalar(W),
        ],
        ..Launch::new(
            obj.choose(Some("transpose_tiled_padded"))
                .expect("transpose_tiled_padded"),
        )
    };
    l.config.threads = 1;
    bench_kernel(c, "transpose_padded_4096wg", &l, |out| {
        let w = W as usize;
        for (r, col) in [(0, 1), (5, 2047), (2047, 3)] {
            assert_eq!(f32_at(&out[0], r * w + col), (col * w + r) as f32);
        }
    });
}

fn transpose_together(c: &mut Criterion) {
    let obj = object("examples/kernels/transpose.w32.o");
    let mut l = Launch {
        grid: [4096, 1, 1],
        block: [32, 1, 1],
        args: vec![
            KernelArg::Buffer(floats(1024, |i| i as f32)),
            KernelArg::Buffer(vec![0; 1024 * 4]),
        ],
        ..Launch::new(obj.kernel("transpose_padded").expect("transpose_padded"))
    };
    l.config.threads = 1;
    bench_kernel(c, "transpose_together_4096wg", &l, |out| {
        for (r, col) in [(0, 1), (5, 31), (31, 3)] {
            assert_eq!(f32_at(&out[1], r * 32 + col), (col * 32 + r) as f32);
        }
    });
}

fn saxpy(c: &mut Criterion) {
    let obj = object("examples/bench/build/saxpy_stride.o");
    let n = 1usize << 20;
    let a = 2.5f32;
    let mut l = Launch {
        grid: [256, 1, 1],
        block: [256, 1, 1],
        args: vec![
            KernelArg::Buffer(vec![0; n * 4]),
            KernelArg::Buffer(floats(n, |i| i as f32)),
            KernelArg::Buffer(floats(n, |i| (i % 100) as f32)),
            KernelArg::Scalar(a.to_le_bytes().to_vec()),
            scalar(n as u32),
        ],
        ..Launch::new(obj.kernel("saxpy_grid_stride").expect("saxpy_grid_stride"))
    };
    l.config.threads = 1;
    bench_kernel(c, "saxpy_grid_stride", &l, |out| {
        for i in [0, 1, 65536, n - 1] {
            assert_eq!(f32_at(&out[0], i), a * i as f32 + (i % 100) as f32);
        }
    });
}

fn bank_batch(c: &mut Criterion) {
    const ACCESSES: usize = 1 << 18;
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    // Byte address of lane t in the pattern k % 5: a row (conflict-free), a column of a
    // 32-float-wide tile (32-way), of a padded 33-wide one (conflict-free), a broadcast, and
    // random words of 64 KiB.
    let mut addrs = Vec::with_capacity(ACCESSES * 32);
    for k in 0..ACCESSES {
        let base = (k % 64) as u32 * 128;
        for t in 0..32u32 {
            addrs.push(match k % 5 {
                0 => base + 4 * t,
                1 => base + 128 * t,
                2 => base + 132 * t,
                3 => base,
                _ => (rng.next_u64() % 16384) as u32 * 4,
            });
        }
    }
    let model = BankModel::rdna3();
    let batch = Batch::new(
        AccessShape::new(4, AccessKind::Load, WaveSize::Wave32),
        addrs.as_slice(),
    );
    let base = reset_peak();
    let start = Instant::now();
    let totals = model.cost_batch(&batch).expect("the batch costs");
    let took = start.elapsed();
    let lanes = ACCESSES as u64 * 32;
    eprintln!(
        "bank_batch: {} accesses ({lanes} lanes), cost {} (ideal {}), peak heap {:.1} MiB \
         beyond the {:.1} MiB of addresses, first run {:.3} s",
        totals.accesses,
        totals.cost,
        totals.ideal,
        peak_mib(base),
        (addrs.len() * 4) as f64 / (1 << 20) as f64,
        took.as_secs_f64()
    );
    let mut g = c.benchmark_group("workloads");
    configure(&mut g, took);
    g.throughput(Throughput::Elements(lanes));
    g.bench_function("bank_batch", |b| {
        b.iter(|| model.cost_batch(black_box(&batch)).map(|t| t.cost))
    });
    g.finish();
}

criterion_group!(
    benches,
    valu_loop,
    gemm_tiled,
    lds_reduce,
    transpose_padded,
    transpose_together,
    saxpy,
    bank_batch
);
criterion_main!(benches);
