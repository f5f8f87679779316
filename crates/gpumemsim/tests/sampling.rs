//! A sampled launch ([`Launch::sample`]): the workgroups it runs stand for workgroups spread
//! over the grid, which messages name; its figures are scaled to the grid.

use gpumemsim::launch::{launch, sample_ids, KernelArg, Launch};
use gpumemsim::loader::CodeObject;

#[test]
fn a_sample_runs_spread_workgroups_and_names_them_as_the_grid_does() {
    assert_eq!(sample_ids(4, 16), [0, 4, 8, 12]);
    assert_eq!(sample_ids(3, 10), [0, 3, 6]);
    let path = format!(
        "{}/../../examples/kernels/lds_sum.w32.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let obj = CodeObject::parse(&std::fs::read(path).expect("object")).expect("parses");
    let data: Vec<u8> = (0..512i32).flat_map(|v| v.to_le_bytes()).collect();
    let run = |sample| {
        launch(&Launch {
            grid: [8, 1, 1],
            block: [64, 1, 1],
            args: vec![
                KernelArg::Buffer(data.clone()),
                KernelArg::Buffer(vec![0; 32]),
            ],
            sample,
            ..Launch::new(&obj.kernels[0])
        })
        .expect("launches")
    };
    let full = run(None);
    let done = run(Some(2));
    assert_eq!((full.sampled, done.sampled), (None, Some((2, 8))));
    // Workgroups 0 and 4 ran: their sums, and nothing else.
    let sums: Vec<i32> = done.buffers[1]
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let sum = |g: i32| (64 * g..64 * g + 64).sum::<i32>();
    assert_eq!(sums, [sum(0), 0, 0, 0, sum(4), 0, 0, 0]);
    let dev = &done.run.device;
    let mut named: Vec<u32> = (0..dev.waves().len())
        .map(|w| dev.grid_workgroup(w))
        .collect();
    named.dedup();
    assert_eq!(named, [0, 4]);
    // Every workgroup of lds_sum does the same work: scaled, its instructions' executions,
    // issue and conflict cycles are the full run's (stalls, latencies and the scalar cache
    // depend on how many workgroups share the device).
    let (s, f) = (dev.totals(), full.run.device.totals());
    assert_eq!(
        (s.executions, s.cycles, s.conflict_cycles),
        (f.executions, f.cycles, f.conflict_cycles)
    );
}
