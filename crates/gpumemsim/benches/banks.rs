//! Throughput of the bank model's batch API.
//!
//! `cargo bench -p gpumemsim --bench banks` prints accesses per second. Target (issue 4 §Deliver
//! 6): at least 50 million wave32 `b32` accesses per second on one core.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gpumemsim::banks::{AccessKind, AccessShape, BankModel, Batch, WaveSize};
use gpumemsim::xorshift::XorShift;

const ACCESSES: usize = 4096;

/// `ACCESSES` waves of `lanes` addresses, each from `f(rng, lane)`.
fn waves(lanes: u32, mut f: impl FnMut(&mut XorShift, u32) -> u32) -> Vec<u32> {
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::with_capacity(ACCESSES * lanes as usize);
    for _ in 0..ACCESSES {
        let base = (rng.next_u64() % 1024) as u32 * 128;
        for t in 0..lanes {
            out.push(base + f(&mut rng, t));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let rdna3 = BankModel::rdna3();
    let b32 = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
    let mut g = c.benchmark_group("banks");
    g.throughput(Throughput::Elements(ACCESSES as u64));
    let patterns: Vec<(&str, Vec<u32>)> = vec![
        ("rdna3_b32_conflict_free", waves(32, |_, t| 4 * t)),
        ("rdna3_b32_broadcast", waves(32, |_, _| 64)),
        ("rdna3_b32_stride8", waves(32, |_, t| 8 * t)),
        // Stride 8 words (lane * 32 bytes): 8-way.
        ("rdna3_b32_stride8_words", waves(32, |_, t| 32 * t)),
        ("rdna3_b32_column_32way", waves(32, |_, t| 128 * t)),
        (
            "rdna3_b32_random",
            waves(32, |r, _| (r.next_u64() % 16384) as u32 * 4),
        ),
        // Random lanes over 8 words: broadcasts and conflicts mixed.
        (
            "rdna3_b32_random_few_words",
            waves(32, |r, _| (r.next_u64() % 8) as u32 * 68),
        ),
    ];
    // A mix: one access of each pattern in turn.
    let mut mixed = Vec::with_capacity(ACCESSES * 32);
    for k in 0..ACCESSES {
        let (_, p) = &patterns[k % patterns.len()];
        mixed.extend_from_slice(&p[k * 32..(k + 1) * 32]);
    }
    for (name, addrs) in patterns
        .iter()
        .chain(std::iter::once(&("rdna3_b32_mixed", mixed)))
    {
        let batch = Batch::new(b32, addrs.as_slice());
        g.bench_function(*name, |b| {
            b.iter(|| rdna3.cost_batch(black_box(&batch)).map(|t| t.cost))
        });
        // The path the Python binding and the executor take: per-access costs into a vector.
        let mut out = Vec::with_capacity(ACCESSES);
        g.bench_function(format!("{name}_into"), |b| {
            b.iter(|| {
                out.clear();
                rdna3
                    .cost_batch_into(black_box(&batch), &mut out)
                    .map(|t| t.cost)
            })
        });
    }
    // Atomics serve lanes on one word one by one: the bank counts alone.
    let random = &patterns[5].1;
    let atomic = Batch::new(
        AccessShape::new(4, AccessKind::Atomic, WaveSize::Wave32),
        random.as_slice(),
    );
    g.bench_function("rdna3_b32_random_atomic", |b| {
        b.iter(|| rdna3.cost_batch(black_box(&atomic)).map(|t| t.cost))
    });
    let sm80 = BankModel::sm80();
    let lds64 = waves(32, |_, t| 8 * t);
    let batch = Batch::new(
        AccessShape::new(8, AccessKind::Load, WaveSize::Wave32),
        &lds64,
    );
    g.bench_function("sm80_lds64_stride8", |b| {
        b.iter(|| sm80.cost_batch(black_box(&batch)).map(|t| t.cost))
    });
    let cdna3 = BankModel::cdna3();
    let w64 = waves(64, |_, t| 16 * t);
    let batch = Batch::new(
        AccessShape::new(4, AccessKind::Load, WaveSize::Wave64),
        &w64,
    );
    g.bench_function("cdna3_wave64_b32_stride16", |b| {
        b.iter(|| cdna3.cost_batch(black_box(&batch)).map(|t| t.cost))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
