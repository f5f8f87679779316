//! Throughput of flat address translation: aperture lookup plus the swizzled scratch layout
//! for every lane of a wave64.
//!
//! `cargo bench -p gpumemsim --bench addr` reports lane addresses per second (target of
//! issue 6: at least 100 million per second on one core).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gpumemsim::addr::{Aperture, Apertures, ScratchLayout, PRIVATE_BASE, SHARED_BASE};

const WAVES: u64 = 10_000;

fn bench(c: &mut Criterion) {
    let ap = Apertures::default();
    let layout = ScratchLayout {
        base: 0x7f00_0000_0000,
        wave_size: 64,
        scratch_size: 4016,
    };
    // A mix of the three apertures, lane by lane.
    let flat: Vec<u64> = (0..64u64)
        .map(|l| match l % 3 {
            0 => PRIVATE_BASE + 4 * l,
            1 => SHARED_BASE + 8 * l,
            _ => 0x1000_0000 + 16 * l,
        })
        .collect();
    let mut g = c.benchmark_group("addr");
    g.throughput(Throughput::Elements(WAVES * 64));
    g.bench_function("flat_translate_wave64_mixed", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for w in 0..WAVES as u32 {
                for (lane, &a) in flat.iter().enumerate() {
                    let (ap_kind, off) = ap.resolve(black_box(a));
                    sum = sum.wrapping_add(match ap_kind {
                        Aperture::Private => layout.lane_address(w, lane as u32, off as u32),
                        _ => off,
                    });
                }
            }
            sum
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
