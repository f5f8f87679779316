//! The bank model: the published numbers (issue 4) and cases derived from the rules.

use gpumemsim::banks::*;
use gpumemsim::isa::def::lookup_name;

const ALL32: u64 = 0xffff_ffff;

fn addrs(lanes: u32, f: impl Fn(u32) -> u32) -> Vec<u32> {
    (0..lanes).map(f).collect()
}

/// Cost of a one-address access of every lane in `active`.
fn cost(
    model: &BankModel,
    width: u32,
    kind: AccessKind,
    wave: WaveSize,
    active: u64,
    f: impl Fn(u32) -> u32,
) -> AccessCost {
    let a = addrs(wave.lanes(), f);
    let shape = AccessShape::new(width, kind, wave).with_active(active);
    let c = model.cost(&Access::new(shape, &a)).expect("valid access");
    let r = model
        .analyze(&Access::new(shape, &a))
        .expect("valid access");
    assert_eq!(c, r.cost, "fast path and report disagree");
    c
}

fn nv(width: u32, active: u64, f: impl Fn(u32) -> u32) -> AccessCost {
    cost(
        &BankModel::sm80(),
        width,
        AccessKind::Load,
        WaveSize::Wave32,
        active,
        f,
    )
}

fn ds(
    model: &BankModel,
    op: &str,
    wave: WaveSize,
    active: u64,
    f: impl Fn(u32) -> u32,
) -> AccessCost {
    let def = lookup_name(op).expect("known op").def();
    let a = addrs(wave.lanes(), f);
    let lanes = DsLanes::new(&a, active, wave);
    let c = ds_cost(model, def, &lanes).expect("valid access");
    assert_eq!(c, ds_report(model, def, &lanes).expect("valid").cost);
    c
}

fn ds2(
    model: &BankModel,
    op: &str,
    f0: impl Fn(u32) -> u32,
    f1: impl Fn(u32) -> u32,
) -> AccessCost {
    let def = lookup_name(op).expect("known op").def();
    let (a0, a1) = (addrs(32, f0), addrs(32, f1));
    let lanes = DsLanes::new(&a0, ALL32, WaveSize::Wave32).with_second_addresses(&a1);
    let c = ds_cost(model, def, &lanes).expect("valid access");
    assert_eq!(c, ds_report(model, def, &lanes).expect("valid").cost);
    c
}

/// (cost, ideal, conflicts)
fn triple(c: AccessCost) -> (u32, u32, u32) {
    (c.cost, c.ideal, c.conflicts())
}

// ---- Published numbers -------------------------------------------------------------------

#[test]
fn published_sm80_lds64_stride8_is_two_wavefronts_without_conflicts() {
    let c = nv(8, ALL32, |t| 8 * t);
    assert_eq!(
        c.counters(CostUnits::Wavefronts).entries(),
        vec![
            ("requests", 1),
            ("wavefronts", 2),
            ("ideal_wavefronts", 2),
            ("bank_conflicts", 0)
        ]
    );
}

#[test]
fn published_sm80_lds128_lanes_15_and_16_at_64_is_two_wavefronts() {
    let c = nv(16, 1 << 15 | 1 << 16, |_| 64);
    assert_eq!(c.cost, 2);
    assert_eq!(c.conflicts(), 0);
}

#[test]
fn published_cdna3_ds_read_b32_stride_conflict_cycles() {
    let m = BankModel::cdna3();
    for (stride, conflict_cycles) in [(4, 0), (8, 2), (16, 6)] {
        let c = ds(&m, "ds_read_b32", WaveSize::Wave64, u64::MAX, |t| {
            stride * t
        });
        assert_eq!(c.conflicts(), conflict_cycles, "stride {stride}");
        assert_eq!(c.ideal, 2);
        let Counters::Cycles {
            conflict_cycles: counted,
            ..
        } = c.counters(m.units())
        else {
            panic!("cdna3 counts cycles")
        };
        assert_eq!(counted, conflict_cycles as u64);
    }
}

#[test]
fn published_rdna3_conflict_free_wave32_one_cycle_wave64_two() {
    let m = BankModel::rdna3();
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, ALL32, |t| 4 * t)),
        (1, 1, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave64, u64::MAX, |t| 4 * t)),
        (2, 2, 0)
    );
}

// ---- Spec findings (issue 21) ------------------------------------------------------------

/// A wave64 2addr access of `op` with every active lane's two addresses from `f0`, `f1`, costed
/// one access at a time, through the batch path, and through the breakdown, which must agree.
fn ds2_wave64(
    model: &BankModel,
    op: &str,
    active: u64,
    f0: impl Fn(u32) -> u32,
    f1: impl Fn(u32) -> u32,
) -> AccessCost {
    let def = lookup_name(op).expect("known op").def();
    let (a0, a1) = (addrs(64, f0), addrs(64, f1));
    let lanes = DsLanes::new(&a0, active, WaveSize::Wave64).with_second_addresses(&a1);
    let c = ds_cost(model, def, &lanes).expect("valid access");
    assert_eq!(c, ds_report(model, def, &lanes).expect("valid").cost);
    let access = lanes.access(def).expect("a bank access");
    let batch = Batch::new(access.shape, &a0).with_second_addresses(&a1);
    let totals = model.cost_batch(&batch).expect("valid batch");
    assert_eq!((totals.cost, totals.ideal), (c.cost as u64, c.ideal as u64));
    c
}

/// docs/rules/banks.md#at-most-64-cycles: the RDNA3 guide gives 64 cycles as the most an
/// indexed or atomic LDS instruction takes. Before issue 21 a wave64 `ds_*2addr_b64` with every
/// lane on banks 0-1 added its passes up to 128 cycles (and `ds_load_2addr_b32` too).
#[test]
fn rdna_wave64_two_addr_takes_at_most_64_cycles() {
    let column = |t: u32| 256 * t; // every lane's words on banks 0 and 1
    let column_hi = |t: u32| 256 * t + 128; // the second address, on the same banks
    for m in [BankModel::rdna3(), BankModel::rdna4()] {
        assert_eq!(m.max_cost(), Some(64));
        for op in ["ds_load_2addr_b64", "ds_store_2addr_b64"] {
            assert_eq!(
                triple(ds2_wave64(&m, op, u64::MAX, column, column_hi)),
                (64, 8, 56),
                "{} {op}",
                m.name()
            );
        }
        assert_eq!(
            triple(ds2_wave64(
                &m,
                "ds_load_2addr_b32",
                u64::MAX,
                column,
                column_hi
            )),
            (64, 4, 60)
        );
        // Conflict-free, it keeps its ideal: 2 passes × 2 phases × 2 halves.
        assert_eq!(
            triple(ds2_wave64(
                &m,
                "ds_load_2addr_b64",
                u64::MAX,
                |t| 8 * t,
                |t| 8 * t + 512
            )),
            (8, 8, 0)
        );
    }
    // The breakdown keeps each group's own cost; only the total is bounded.
    let def = lookup_name("ds_load_2addr_b64").expect("known op").def();
    let (a0, a1) = (addrs(64, column), addrs(64, column_hi));
    let lanes = DsLanes::new(&a0, u64::MAX, WaveSize::Wave64).with_second_addresses(&a1);
    let r = ds_report(&BankModel::rdna3(), def, &lanes).expect("valid");
    assert_eq!(r.groups.iter().map(|g| g.cost).sum::<u32>(), 128);
    assert_eq!(r.cost.cost, 64);
    // wave32 reaches the bound without passing it; CDNA has no bound from this document.
    assert_eq!(
        triple(ds2(
            &BankModel::rdna3(),
            "ds_load_2addr_b64",
            column,
            column_hi
        )),
        (64, 4, 60)
    );
    assert_eq!(BankModel::cdna3().max_cost(), None);
}

/// docs/rules/banks.md#wave64-in-two-halves: the RDNA3 guide gives 2 cycles as the least a
/// wave64 access takes; the inactive half still takes its cycle. Before issue 21 a wave64
/// access with one half inactive cost 1 cycle.
#[test]
fn rdna_wave64_with_one_half_inactive_takes_two_cycles() {
    let upper = !u64::from(u32::MAX);
    for m in [BankModel::rdna3(), BankModel::rdna4()] {
        for active in [ALL32, upper, 1, 1 << 40] {
            assert_eq!(
                triple(ds(&m, "ds_load_b32", WaveSize::Wave64, active, |t| 4 * t)),
                (2, 2, 0),
                "{} active {active:#x}",
                m.name()
            );
        }
        // The conflicts of the active half are as before; the empty half adds 1 and 1.
        assert_eq!(
            triple(ds(&m, "ds_load_b32", WaveSize::Wave64, ALL32, |t| 128 * t)),
            (33, 2, 31)
        );
        // b64: the active half's two phases, then the empty half's cycle.
        assert_eq!(
            triple(ds(&m, "ds_load_b64", WaveSize::Wave64, upper, |t| 8 * t)),
            (3, 3, 0)
        );
        // Once per access, not per pass of a 2addr instruction: 2 passes of half 0 + 1.
        assert_eq!(
            triple(ds2_wave64(
                &m,
                "ds_load_2addr_b32",
                ALL32,
                |t| 4 * t,
                |t| 4 * t + 128
            )),
            (3, 3, 0)
        );
        // No active lane: no access at all.
        assert_eq!(
            ds(&m, "ds_load_b32", WaveSize::Wave64, 0, |t| 4 * t),
            AccessCost::default()
        );
    }
    // The breakdown shows the empty half as a group without lanes, at the half's first phase.
    let a = addrs(64, |t| 8 * t);
    let shape = AccessShape::new(8, AccessKind::Load, WaveSize::Wave64).with_active(ALL32);
    let r = BankModel::rdna3()
        .analyze(&Access::new(shape, &a))
        .expect("valid access");
    let seen: Vec<(Vec<u32>, u64, u32)> = r
        .groups
        .iter()
        .map(|g| (g.phases.clone(), g.lanes, g.cost))
        .collect();
    assert_eq!(
        seen,
        [
            (vec![0], 0xffff, 1),
            (vec![1], 0xffff_0000, 1),
            (vec![2], 0, 1)
        ]
    );
    // Batches with per-access masks agree with single accesses.
    let m = BankModel::rdna3();
    let a: Vec<u32> = (0..3 * 64).map(|i| 128 * (i % 64)).collect();
    let masks = [ALL32, upper, u64::MAX];
    let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave64);
    let mut each = Vec::new();
    let totals = m
        .cost_batch_into(&Batch::new(shape, &a).with_masks(&masks), &mut each)
        .expect("valid batch");
    let single: Vec<(u32, u32, u32)> = masks
        .iter()
        .map(|&mask| triple(ds(&m, "ds_load_b32", WaveSize::Wave64, mask, |t| 128 * t)))
        .collect();
    assert_eq!(each.iter().map(|&c| triple(c)).collect::<Vec<_>>(), single);
    assert_eq!(single, [(33, 2, 31), (33, 2, 31), (64, 2, 62)]);
    assert_eq!(totals.cost, 130);
    // CDNA (wave64 tables of 64 lanes) is unchanged: its empty phases are skipped.
    assert_eq!(
        triple(ds(
            &BankModel::cdna3(),
            "ds_read_b32",
            WaveSize::Wave64,
            ALL32,
            |t| 4 * t
        )),
        (1, 1, 0)
    );
}

/// docs/rules/banks.md#merged-transactions-can-conflict: when the partner test passes, the
/// groups merge whether or not the merged transaction has a bank conflict, and its conflicts
/// are counted against one ideal wavefront. Issue 21 had made merging wait for a
/// conflict-free transaction (2 wavefronts, 2 ideal, 0 conflicts for the first case below);
/// Nsight Compute on an H200 counts 2, 1 and 1 (row `lds64_l0_l16_bank0` of
/// tests/golden/sm90_shared_measured.tsv; each case names its row).
#[test]
fn sm80_lds64_lanes_0_and_16_on_one_bank_merge_and_conflict() {
    let lanes_0_16 = 1 | 1 << 16;
    let c = nv(8, lanes_0_16, |t| 128 * t);
    assert_eq!(
        c.counters(CostUnits::Wavefronts).entries(),
        vec![
            ("requests", 1),
            ("wavefronts", 2),
            ("ideal_wavefronts", 1),
            ("bank_conflicts", 1)
        ]
    );
    let a = addrs(32, |t| 128 * t);
    let shape = AccessShape::new(8, AccessKind::Load, WaveSize::Wave32).with_active(lanes_0_16);
    let r = BankModel::sm80()
        .analyze(&Access::new(shape, &a))
        .expect("valid access");
    assert_eq!(r.groups.len(), 1);
    assert!(r.groups[0].merged() && r.groups[0].conflicts().next().is_some());
    // Conflict-free merges are as before: one address, or different banks.
    assert_eq!(triple(nv(8, lanes_0_16, |_| 64)), (1, 1, 0));
    assert_eq!(triple(nv(8, lanes_0_16, |t| 8 * (t / 16))), (1, 1, 0));
    // Merging can save wavefronts: even lanes at 0, odd at 128 pass the i^2 test, and the
    // merged warp reads two words of bank 0: 2 wavefronts, where two half-warps apart would
    // take 4 (`lds64_bank0_2words`; 128-bit: `lds128_bank0_2words`, 4 against 8).
    assert_eq!(triple(nv(8, ALL32, |t| 128 * (t % 2))), (2, 1, 1));
    assert_eq!(triple(nv(16, ALL32, |t| 128 * (t % 2))), (4, 2, 2));
    // 128-bit: quarter-warps 0 and 1 (lanes 0 and 8) on one bank merge into one conflicting
    // transaction (`lds128_bank0_m1010101` has lanes 16 and 24 too: 4, 2, 2).
    assert_eq!(triple(nv(16, 1 | 1 << 8, |t| 128 * t)), (2, 1, 1));
    assert_eq!(triple(nv(16, 0x0101_0101, |t| 128 * t)), (4, 2, 2));
    assert_eq!(triple(nv(16, 1 | 1 << 8, |t| 16 * (t / 8))), (1, 1, 0));
    // The published A100 cases are unchanged.
    assert_eq!(triple(nv(8, ALL32, |t| 8 * t)), (2, 2, 0));
    assert_eq!(triple(nv(16, 1 << 15 | 1 << 16, |_| 64)), (2, 2, 0));
}

// ---- AMD strides, broadcasts, masks ------------------------------------------------------

#[test]
fn rdna3_b32_strides() {
    let m = BankModel::rdna3();
    let w32 = |stride: u32| {
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, ALL32, |t| {
            stride * t
        }))
    };
    assert_eq!(w32(8), (2, 1, 1));
    assert_eq!(w32(12), (1, 1, 0)); // 3 is odd: a permutation of the banks
    assert_eq!(w32(16), (4, 1, 3));
    assert_eq!(w32(128), (32, 1, 31)); // a column of a 32×32 float tile
    assert_eq!(w32(132), (1, 1, 0)); // ... padded by one float per row

    // The worst case the guide names: as many as 64 cycles for wave64
    // (docs/rules/timing.md#lds-issue-cycles).
    let c = ds(&m, "ds_load_b32", WaveSize::Wave64, u64::MAX, |t| 128 * t);
    assert_eq!(triple(c), (64, 2, 62));
}

#[test]
fn rdna3_broadcasts_cost_nothing_for_loads_and_stores() {
    let m = BankModel::rdna3();
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, ALL32, |_| 256)),
        (1, 1, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, ALL32, |t| 4 * (t / 2))),
        (1, 1, 0)
    );
    // Half the lanes on one word, half on another word of the same bank: 2.
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, ALL32, |t| 128
            * (t % 2))),
        (2, 1, 1)
    );
    assert_eq!(
        triple(ds(&m, "ds_store_b32", WaveSize::Wave32, ALL32, |_| 64)),
        (1, 1, 0)
    );
}

#[test]
fn rdna3_atomics_to_one_address_serialize() {
    let m = BankModel::rdna3();
    assert_eq!(
        triple(ds(&m, "ds_add_u32", WaveSize::Wave32, ALL32, |_| 0)),
        (32, 1, 31)
    );
    assert_eq!(
        triple(ds(&m, "ds_add_rtn_u32", WaveSize::Wave32, 0xff, |_| 0)),
        (8, 1, 7)
    );
    assert_eq!(
        triple(ds(&m, "ds_add_u32", WaveSize::Wave32, ALL32, |t| 4 * t)),
        (1, 1, 0)
    );
    // Two lanes per word on 16 banks: 2 each.
    assert_eq!(
        triple(ds(&m, "ds_max_u32", WaveSize::Wave32, ALL32, |t| 4 * (t / 2))),
        (2, 1, 1)
    );
    // A preset variant that broadcasts atomics.
    let rule = SameWordRule {
        atomic: SameWord::Once,
        ..SameWordRule::PRESETS
    };
    let m2 = m
        .to_builder()
        .same_word(rule)
        .build()
        .expect("the test input is valid");
    assert_eq!(
        triple(ds(&m2, "ds_add_u32", WaveSize::Wave32, ALL32, |_| 0)),
        (1, 1, 0)
    );
}

#[test]
fn partial_masks_count_only_active_lanes() {
    let m = BankModel::rdna3();
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, 0xf, |t| 128 * t)),
        (4, 1, 3)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, 0x1, |t| 128 * t)),
        (1, 1, 0)
    );
    assert_eq!(
        ds(&m, "ds_load_b32", WaveSize::Wave32, 0, |t| 128 * t),
        AccessCost::default()
    );
    // Every other lane of stride 8: odd lanes off, so 16 distinct even banks.
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, 0x5555_5555, |t| 8 * t)),
        (2, 1, 1)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, 0x0000_ffff, |t| 8 * t)),
        (1, 1, 0)
    );
    // wave64 with only the first half active: the empty second half still takes its cycle
    // (docs/rules/banks.md#wave64-in-two-halves). This pinned (1, 1, 0) before issue 21, which
    // the RDNA3 guide contradicts: a wave64 access takes at least 2 cycles.
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave64, ALL32, |t| 4 * t)),
        (2, 2, 0)
    );
    let counting = m
        .to_builder()
        .empty_groups(EmptyGroups::Count)
        .build()
        .expect("the test input is valid");
    assert_eq!(
        triple(ds(&counting, "ds_load_b32", WaveSize::Wave64, ALL32, |t| 4 * t)),
        (2, 2, 0)
    );
}

#[test]
fn rdna3_b64_and_b128_phases() {
    let m = BankModel::rdna3();
    assert_eq!(
        triple(ds(&m, "ds_load_b64", WaveSize::Wave32, ALL32, |t| 8 * t)),
        (2, 2, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_b64", WaveSize::Wave32, ALL32, |t| 16 * t)),
        (4, 2, 2)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_b128", WaveSize::Wave32, ALL32, |t| 16 * t)),
        (4, 4, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_store_b128", WaveSize::Wave64, u64::MAX, |t| 16 * t)),
        (8, 8, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_b96", WaveSize::Wave32, ALL32, |t| 16 * t)),
        (4, 4, 0)
    );
    // The interleaved RDNA3 b128 phases tell it apart from RDNA4's consecutive ones: lanes
    // 0-3, 4-7, 8-11, 12-15 use slots 0-3, lanes 16-31 slots 4-7, every lane its own row.
    let slots = |t: u32| 16 * (t % 4 + 4 * u32::from(t >= 16)) + 128 * t;
    assert_eq!(
        triple(ds(&m, "ds_load_b128", WaveSize::Wave32, ALL32, slots)),
        (4, 4, 0)
    );
    let r4 = BankModel::rdna4();
    assert_eq!(
        triple(ds(&r4, "ds_load_b128", WaveSize::Wave32, ALL32, slots)),
        (8, 4, 4)
    );
    // and the other way round: quads of lanes on slot halves A B A B B A A B are
    // conflict-free in RDNA4's consecutive pairs of quads, not in RDNA3's (q0,q5), (q1,q4).
    let halves = [0, 1, 0, 1, 1, 0, 0, 1];
    let quads = |t: u32| 16 * (t % 4 + 4 * halves[t as usize / 4]) + 128 * t;
    assert_eq!(
        triple(ds(&r4, "ds_load_b128", WaveSize::Wave32, ALL32, quads)),
        (4, 4, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_b128", WaveSize::Wave32, ALL32, quads)),
        (6, 4, 2)
    );
}

#[test]
fn cdna3_b64_b128_and_write_phases() {
    let m = BankModel::cdna3();
    let w64 = WaveSize::Wave64;
    assert_eq!(
        triple(ds(&m, "ds_read_b64", w64, u64::MAX, |t| 8 * t)),
        (4, 4, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_read_b128", w64, u64::MAX, |t| 16 * t)),
        (8, 8, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_write_b128", w64, u64::MAX, |t| 16 * t)),
        (8, 8, 0)
    );
    // Reads pair lanes 0-3 with 20-23; writes take 8 consecutive lanes. Give lanes t and t+4
    // (within each 8) the same slot: consecutive writes conflict, interleaved reads do not.
    let pattern = |t: u32| 16 * (t % 4 + 4 * ((t / 16) % 2)) + 128 * t;
    assert_eq!(
        ds(&m, "ds_write_b128", w64, u64::MAX, pattern).conflicts(),
        8
    );
    assert_eq!(
        ds(&m, "ds_read_b128", w64, u64::MAX, pattern).conflicts(),
        0
    );
    // CDNA runs wave64 only.
    let def = lookup_name("ds_read_b32")
        .expect("the test input is valid")
        .def();
    let a = addrs(32, |t| t * 4);
    let err = ds_cost(&m, def, &DsLanes::new(&a, ALL32, WaveSize::Wave32)).unwrap_err();
    assert!(
        matches!(err, AccessError::UnsupportedWave { lanes: 32, .. }),
        "{err}"
    );
}

#[test]
fn cdna4_has_64_banks() {
    let m = BankModel::cdna4();
    let w64 = WaveSize::Wave64;
    assert_eq!(
        triple(ds(&m, "ds_read_b32", w64, u64::MAX, |t| 4 * t)),
        (1, 1, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_read_b32", w64, u64::MAX, |t| 8 * t)),
        (2, 1, 1)
    );
    assert_eq!(
        triple(ds(&m, "ds_read_b64", w64, u64::MAX, |t| 8 * t)),
        (2, 2, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_read_b128", w64, u64::MAX, |t| 16 * t)),
        (4, 4, 0)
    );
    // 256 bytes apart is the same bank of 64.
    assert_eq!(
        triple(ds(&m, "ds_read_b32", w64, 0b11, |t| 256 * t)),
        (2, 1, 1)
    );
}

#[test]
fn sub_dword_and_unaligned_amd_accesses() {
    let m = BankModel::rdna3();
    // Bytes and halves of one dword share it.
    assert_eq!(
        triple(ds(&m, "ds_load_u8", WaveSize::Wave32, ALL32, |t| t)),
        (1, 1, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_u16", WaveSize::Wave32, ALL32, |t| 2 * t)),
        (1, 1, 0)
    );
    assert_eq!(
        triple(ds(&m, "ds_load_u16", WaveSize::Wave32, ALL32, |t| 128 * t + 2)),
        (32, 1, 31)
    );
    // A misaligned dword spans two words; lane 31 wraps onto bank 0's next row.
    assert_eq!(
        triple(ds(&m, "ds_load_b32", WaveSize::Wave32, ALL32, |t| 4 * t + 2)),
        (2, 1, 1)
    );
}

// ---- 2addr -------------------------------------------------------------------------------

#[test]
fn two_addr_sequential_passes() {
    let m = BankModel::rdna3();
    assert_eq!(
        triple(ds2(&m, "ds_load_2addr_b32", |t| 4 * t, |t| 4 * t + 128)),
        (2, 2, 0)
    );
    // The stride64 form: both addresses in the same bank, still conflict-free.
    assert_eq!(
        triple(ds2(&m, "ds_read2st64_b32", |t| 4 * t, |t| 4 * t + 256)),
        (2, 2, 0)
    );
    assert_eq!(
        triple(ds2(&m, "ds_store_2addr_b64", |t| 8 * t, |t| 8 * t + 256)),
        (4, 4, 0)
    );
    // Conflicts of each pass add.
    assert_eq!(
        triple(ds2(&m, "ds_load_2addr_b32", |t| 8 * t, |t| 128 * t)),
        (34, 2, 32)
    );
    // Exchanges with both addresses on one word serialize like atomics.
    assert_eq!(
        triple(ds2(&m, "ds_storexchg_2addr_rtn_b32", |_| 0, |_| 4)),
        (64, 2, 62)
    );
}

#[test]
fn two_addr_combined_width_variant() {
    let m = BankModel::rdna3()
        .to_builder()
        .two_addr(TwoAddrRule::CombinedWidth)
        .build()
        .expect("the test input is valid");
    // Grouped like b64 (lanes 0-15, 16-31); words t and t+32 share bank t.
    assert_eq!(
        triple(ds2(&m, "ds_load_2addr_b32", |t| 4 * t, |t| 4 * t + 128)),
        (4, 2, 2)
    );
    // Adjacent dwords behave like one b64.
    assert_eq!(
        triple(ds2(&m, "ds_load_2addr_b32", |t| 8 * t, |t| 8 * t + 4)),
        (2, 2, 0)
    );
}

#[test]
fn two_addr_breakdown_names_the_pass() {
    let m = BankModel::rdna3();
    let (a0, a1) = (addrs(32, |t| 4 * t), addrs(32, |t| 4 * t + 128));
    let shape = AccessShape::new(4, AccessKind::Load2Addr, WaveSize::Wave32);
    let r = m
        .analyze(&Access::two_addr(shape, &a0, &a1))
        .expect("the test input is valid");
    let sources: Vec<_> = r.groups.iter().map(|g| g.source).collect();
    assert_eq!(sources, [GroupSource::First, GroupSource::Second]);
    assert_eq!(r.groups[1].banks[0].words, [32]);
    // A 2addr kind needs its second addresses, and a one-address kind refuses them.
    assert_eq!(
        m.cost(&Access::new(shape, &a0)),
        Err(AccessError::MissingSecondAddresses)
    );
    let load = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
    assert_eq!(
        m.cost(&Access::two_addr(load, &a0, &a1)),
        Err(AccessError::UnexpectedSecondAddresses)
    );
}

// ---- NVIDIA merges -----------------------------------------------------------------------

#[test]
fn sm80_lds32_broadcast_and_conflicts() {
    assert_eq!(triple(nv(4, ALL32, |t| 4 * t)), (1, 1, 0));
    assert_eq!(triple(nv(4, ALL32, |_| 12)), (1, 1, 0));
    assert_eq!(triple(nv(4, ALL32, |t| 8 * t)), (2, 1, 1));
    assert_eq!(triple(nv(4, ALL32, |t| 128 * t)), (32, 1, 31));
    assert_eq!(nv(4, 0, |t| 4 * t).requests, 0);
}

#[test]
fn sm80_lds64_merges_on_xor1_or_xor2() {
    // i^1 agree: pairs share an address; 16 distinct 8-byte words fill the banks once.
    assert_eq!(triple(nv(8, ALL32, |t| 8 * (t / 2))), (1, 1, 0));
    // i^2 agree: t and t^2 share an address.
    assert_eq!(
        triple(nv(8, ALL32, |t| 8 * ((t / 4) * 2 + t % 2))),
        (1, 1, 0)
    );
    // Every lane on one address: merged, broadcast.
    assert_eq!(triple(nv(8, ALL32, |_| 0)), (1, 1, 0));
    // One lane breaks both conditions: no merge, two half-warps.
    assert_eq!(
        triple(nv(8, ALL32, |t| if t == 31 { 800 } else { 8 * (t / 2) })),
        (2, 2, 0)
    );
    // i^1 holds in one half and i^2 in the other: neither holds for the whole warp.
    assert_eq!(
        triple(nv(8, ALL32, |t| if t < 16 {
            8 * (t / 2)
        } else {
            8 * ((t / 4) * 2 + t % 2)
        })),
        (2, 2, 0)
    );
    // Only one half active: one group.
    assert_eq!(triple(nv(8, 0xffff, |t| 8 * t)), (1, 1, 0));
    // Odd partners inactive: the partner test passes, and the merged transaction puts lanes 0
    // and 16 on banks 0-1 twice: 2 wavefronts against 1 ideal, as an H200 counts it
    // (`lds64_linear_m55555555`; docs/rules/banks.md#merged-transactions-can-conflict).
    assert_eq!(triple(nv(8, 0x5555_5555, |t| 8 * t)), (2, 1, 1));
}

#[test]
fn sm80_lds128_quarters_merge_within_halves_only() {
    assert_eq!(triple(nv(16, ALL32, |t| 16 * t)), (4, 4, 0));
    assert_eq!(triple(nv(16, ALL32, |t| 16 * (t / 2))), (2, 2, 0));
    // One address for all: quarters merge in pairs, halves never.
    assert_eq!(triple(nv(16, ALL32, |_| 0)), (2, 2, 0));
    // Merge fails (lane 3 differs from lanes 2 and 1; it uses a free slot): four quarter-warps.
    assert_eq!(
        triple(nv(16, ALL32, |t| if t == 3 { 64 } else { 16 * (t / 2) })),
        (4, 4, 0)
    );
    // Breakdown of a merged group.
    let a = addrs(32, |t| 16 * (t / 2));
    let shape = AccessShape::new(16, AccessKind::Load, WaveSize::Wave32);
    let r = BankModel::sm80()
        .analyze(&Access::new(shape, &a))
        .expect("the test input is valid");
    assert_eq!(r.groups.len(), 2);
    assert_eq!(r.groups[0].phases, [0, 1]);
    assert_eq!(r.groups[1].phases, [2, 3]);
    assert_eq!(r.groups[0].lanes, 0xffff);
    assert!(r
        .groups
        .iter()
        .all(|g| g.merged() && g.conflicts().next().is_none()));
}

#[test]
fn sm80_merge_scope_pair_variant() {
    let MergeRule::XorPartners {
        distances,
        merge_stores,
        ..
    } = BankModel::sm80().merge().clone()
    else {
        panic!("sm80 merges")
    };
    let pair = BankModel::sm80()
        .to_builder()
        .merge(MergeRule::XorPartners {
            distances,
            scope: MergeScope::Pair,
            merge_stores,
        })
        .build()
        .expect("the test input is valid");
    // Half 0 pairs share addresses, half 1 does not.
    let f = |t: u32| if t < 16 { 16 * (t / 2) } else { 16 * t };
    assert_eq!(triple(nv(16, ALL32, f)), (4, 4, 0));
    let a = addrs(32, f);
    let shape = AccessShape::new(16, AccessKind::Load, WaveSize::Wave32);
    assert_eq!(
        triple(
            pair.cost(&Access::new(shape, &a))
                .expect("the test input is valid")
        ),
        (3, 3, 0)
    );
}

#[test]
fn sm80_stores_split_and_never_merge() {
    let m = BankModel::sm80();
    let a = addrs(32, |t| 8 * (t / 2));
    let store = AccessShape::new(8, AccessKind::Store, WaveSize::Wave32);
    assert_eq!(
        triple(
            m.cost(&Access::new(store, &a))
                .expect("the test input is valid")
        ),
        (2, 2, 0)
    );
    let merging = match m.merge().clone() {
        MergeRule::XorPartners {
            distances, scope, ..
        } => MergeRule::XorPartners {
            distances,
            scope,
            merge_stores: true,
        },
        MergeRule::Never => unreachable!(),
    };
    let m2 = m
        .to_builder()
        .merge(merging)
        .build()
        .expect("the test input is valid");
    assert_eq!(
        triple(
            m2.cost(&Access::new(store, &a))
                .expect("the test input is valid")
        ),
        (1, 1, 0)
    );
}

#[test]
fn sm80_refuses_misaligned_and_wave64() {
    let m = BankModel::sm80();
    let a = addrs(32, |t| 8 * t + 4);
    let shape = AccessShape::new(8, AccessKind::Load, WaveSize::Wave32);
    assert_eq!(
        m.cost(&Access::new(shape, &a)),
        Err(AccessError::Misaligned {
            lane: 0,
            address: 4,
            width: 8
        })
    );
    // Inactive lanes' addresses do not matter.
    assert!(m.cost(&Access::new(shape.with_active(0), &a)).is_ok());
    let a64 = addrs(64, |t| 4 * t);
    let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave64);
    assert!(matches!(
        m.cost(&Access::new(shape, &a64)),
        Err(AccessError::UnsupportedWave { lanes: 64, .. })
    ));
}

// ---- Breakdown, batches, validation ------------------------------------------------------

#[test]
fn column_read_breakdown_names_the_colliding_lanes() {
    let a = addrs(32, |t| 128 * t);
    let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
    let r = BankModel::rdna3()
        .analyze(&Access::new(shape, &a))
        .expect("the test input is valid");
    assert_eq!(r.units, CostUnits::Cycles);
    assert_eq!(r.groups.len(), 1);
    let g = &r.groups[0];
    assert_eq!(
        (g.lanes, g.cost, g.phases.as_slice()),
        (ALL32, 32, &[0][..])
    );
    let conflicts: Vec<_> = g.conflicts().collect();
    assert_eq!(conflicts.len(), 1);
    assert_eq!(
        (conflicts[0].bank, conflicts[0].lanes, conflicts[0].accesses),
        (0, ALL32, 32)
    );
    assert_eq!(
        conflicts[0].words,
        (0..32).map(|t| 32 * t).collect::<Vec<u64>>()
    );
}

#[test]
fn batch_sums_single_accesses_and_takes_masks() {
    let m = BankModel::rdna3();
    let mut flat = Vec::new();
    for stride in [4u32, 8, 16, 128] {
        flat.extend((0..32).map(|t| stride * t));
    }
    let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
    let mut each = Vec::new();
    let totals = m
        .cost_batch_into(&Batch::new(shape, &flat), &mut each)
        .expect("the test input is valid");
    let costs: Vec<u32> = each.iter().map(|c| c.cost).collect();
    assert_eq!(costs, [1, 2, 4, 32]);
    assert_eq!(
        (
            totals.accesses,
            totals.cost,
            totals.ideal,
            totals.conflicts()
        ),
        (4, 39, 4, 35)
    );
    let masks = [ALL32, 0, 0xffff, 0x3];
    let t = m
        .cost_batch(&Batch::new(shape, &flat).with_masks(&masks))
        .expect("the test input is valid");
    assert_eq!(
        (t.accesses, t.requests, t.cost, t.ideal),
        (4, 3, 1 + 2 + 2, 3)
    );
    assert_eq!(
        m.cost_batch(&Batch::new(shape, &flat[..40])),
        Err(AccessError::AddressCount {
            expected: 64,
            got: 40
        })
    );
    assert_eq!(
        m.cost_batch(&Batch::new(shape, &flat).with_masks(&masks[..2])),
        Err(AccessError::MaskCount {
            expected: 4,
            got: 2
        })
    );
}

#[test]
fn u64_addresses_and_far_apart_rows() {
    let m = BankModel::rdna3();
    let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
    // Rows spread far beyond the 64-row window: the sorting path counts them.
    let a: Vec<u64> = (0..32)
        .map(|t| (t % 4) * (1 << 40) + 128 * (t / 4))
        .collect();
    let c = m
        .cost(&Access::new(shape, &a))
        .expect("the test input is valid");
    assert_eq!(
        c,
        m.analyze(&Access::new(shape, &a))
            .expect("the test input is valid")
            .cost
    );
    assert_eq!(c.cost, 32);
    let dup: Vec<u64> = (0..32).map(|t| (t % 2) * (1 << 40)).collect();
    assert_eq!(
        m.cost(&Access::new(shape, &dup))
            .expect("the test input is valid")
            .cost,
        2
    );
}

#[test]
fn access_validation() {
    let m = BankModel::rdna3();
    let a = addrs(32, |t| 4 * t);
    let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
    assert_eq!(
        m.cost(&Access::new(AccessShape { width: 6, ..shape }, &a)),
        Err(AccessError::UnsupportedWidth(6))
    );
    assert_eq!(
        m.cost(&Access::new(shape.with_active(1 << 40), &a)),
        Err(AccessError::ActiveOutsideWave(1 << 40))
    );
    assert_eq!(
        m.cost(&Access::new(shape, &a[..31])),
        Err(AccessError::AddressCount {
            expected: 32,
            got: 31
        })
    );
}

#[test]
fn builder_checks_tables_and_makes_custom_models() {
    let overlap = BankModel::builder("x", 32, 4)
        .phases(WidthClass::B32, &[0xffff, 0xffff_fff0])
        .build();
    assert!(overlap.is_err());
    let missing = BankModel::builder("x", 32, 4)
        .phases(WidthClass::B32, &[0xffff])
        .build();
    assert!(missing.unwrap_err().0.contains("leaves lanes"));
    assert!(BankModel::builder("x", 48, 4)
        .phases(WidthClass::B32, &[ALL32])
        .build()
        .is_err());
    assert!(BankModel::builder("x", 32, 2)
        .phases(WidthClass::B32, &[ALL32])
        .build()
        .is_err());
    assert!(BankModel::builder("x", 32, 4).build().is_err());
    // A 16-bank toy with 8-byte banks and 8-lane phases.
    let toy = BankModel::builder("toy", 16, 8)
        .phases(WidthClass::B32, &[0xff, 0xff00, 0xff_0000, 0xff00_0000])
        .build()
        .expect("the test input is valid");
    assert_eq!(toy.bank_of(8 * 17), 1);
    let a = addrs(32, |t| 8 * t);
    let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
    assert_eq!(
        triple(
            toy.cost(&Access::new(shape, &a))
                .expect("the test input is valid")
        ),
        (4, 4, 0)
    );
    let a = addrs(32, |t| 4 * t); // two lanes per 8-byte word: broadcast
    assert_eq!(
        triple(
            toy.cost(&Access::new(shape, &a))
                .expect("the test input is valid")
        ),
        (4, 4, 0)
    );
    // Every preset builds, and PRESET_NAMES names them.
    for name in PRESET_NAMES {
        assert_eq!(
            BankModel::preset(name)
                .expect("the test input is valid")
                .name(),
            name
        );
    }
    assert!(BankModel::preset("gfx9").is_none());
}

#[test]
fn ds_classification() {
    let class = |op: &str| {
        ds_access(lookup_name(op).expect("the test input is valid").def())
            .map(|d| (d.width, d.kind))
    };
    assert_eq!(class("ds_load_b32"), Ok((4, AccessKind::Load)));
    assert_eq!(class("ds_read_b128"), Ok((16, AccessKind::Load)));
    assert_eq!(class("ds_store_b96"), Ok((12, AccessKind::Store)));
    assert_eq!(class("ds_load_u8_d16_hi"), Ok((1, AccessKind::Load)));
    assert_eq!(class("ds_store_b16"), Ok((2, AccessKind::Store)));
    assert_eq!(class("ds_add_u32"), Ok((4, AccessKind::Atomic)));
    assert_eq!(class("ds_cmpstore_rtn_b64"), Ok((8, AccessKind::Atomic)));
    assert_eq!(class("ds_storexchg_rtn_b32"), Ok((4, AccessKind::Atomic)));
    assert_eq!(
        class("ds_load_2addr_stride64_b64"),
        Ok((8, AccessKind::Load2Addr))
    );
    assert_eq!(class("ds_write2_b32"), Ok((4, AccessKind::Store2Addr)));
    assert_eq!(
        class("ds_storexchg_2addr_rtn_b32"),
        Ok((4, AccessKind::Atomic2Addr))
    );
    assert_eq!(class("ds_load_addtid_b32"), Ok((4, AccessKind::Load)));
    for op in [
        "ds_swizzle_b32",
        "ds_bpermute_b32",
        "ds_gws_init",
        "ds_append",
        "ds_nop",
        "ds_bvh_stack_rtn_b32",
        "ds_ordered_count",
        "s_load_b32",
        "buffer_load_b32",
    ] {
        let err = class(op).unwrap_err();
        assert!(
            matches!(err, AccessError::NotBankAccess { .. }),
            "{op}: {err}"
        );
        assert!(err.to_string().starts_with(op), "{err}");
    }
}
