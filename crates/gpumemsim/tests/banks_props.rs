//! Properties of the bank model over random accesses.

use gpumemsim::banks::*;
use proptest::prelude::*;

/// Every preset plus variants exercising the other parameter values.
fn models() -> Vec<BankModel> {
    let mut out: Vec<BankModel> = PRESET_NAMES
        .iter()
        .filter_map(|n| BankModel::preset(n))
        .collect();
    let r3 = BankModel::rdna3();
    out.push(
        r3.to_builder()
            .two_addr(TwoAddrRule::CombinedWidth)
            .empty_groups(EmptyGroups::Count)
            .build()
            .expect("the test input is valid"),
    );
    let MergeRule::XorPartners { distances, .. } = BankModel::sm80().merge().clone() else {
        unreachable!()
    };
    out.push(
        BankModel::sm80()
            .to_builder()
            .merge(MergeRule::XorPartners {
                distances,
                scope: MergeScope::Pair,
                merge_stores: true,
            })
            .build()
            .expect("the test input is valid"),
    );
    out.push(
        BankModel::builder("wide", 16, 8)
            .phases(WidthClass::B32, &[0xffff, 0xffff_0000])
            .phases(WidthClass::B128, &[0xff, 0xff00, 0xff_0000, 0xff00_0000])
            .build()
            .expect("the test input is valid"),
    );
    out
}

const KINDS: [AccessKind; 6] = [
    AccessKind::Load,
    AccessKind::Store,
    AccessKind::Atomic,
    AccessKind::Load2Addr,
    AccessKind::Store2Addr,
    AccessKind::Atomic2Addr,
];

/// Addresses from a mix of generators: small (many collisions and broadcasts), strided, far
/// apart (beyond the fast path's row window), and misaligned.
fn address(width: u32) -> impl Strategy<Value = u64> {
    let w = width as u64;
    prop_oneof![
        (0u64..64).prop_map(move |k| k * w),
        (0u64..4096).prop_map(move |k| k * w),
        (0u64..4, 0u64..32).prop_map(move |(hi, k)| (hi << 36) | (k * w)),
        any::<u32>().prop_map(move |a| (a as u64) / w * w),
        0u64..8192, // misaligned too (AMD's unaligned mode; NVIDIA refuses them)
    ]
}

#[derive(Debug, Clone)]
struct Case {
    model: usize,
    width: u32,
    kind: AccessKind,
    wave64: bool,
    active: u64,
    a0: Vec<u64>,
    a1: Vec<u64>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..models().len(),
        prop::sample::select(vec![1u32, 2, 4, 8, 12, 16]),
        0..KINDS.len(),
        any::<bool>(),
        any::<u64>(),
        0u8..4,
    )
        .prop_flat_map(|(model, width, kind, wave64, active, mask_kind)| {
            let active = match mask_kind {
                0 => u64::MAX,
                1 => active,
                2 => active & active.rotate_left(17), // sparse
                _ => 1 << (active % 64),
            };
            (
                Just((model, width, KINDS[kind], wave64, active)),
                prop::collection::vec(address(width), 64),
                prop::collection::vec(address(width), 64),
            )
        })
        .prop_map(|((model, width, kind, wave64, active), a0, a1)| Case {
            model,
            width,
            kind,
            wave64,
            active,
            a0,
            a1,
        })
}

impl Case {
    /// The cost, the breakdown and the active lanes used.
    fn run(&self, model: &BankModel) -> Option<(AccessCost, AccessReport, u64)> {
        let wave = if self.wave64 && model.waves().wave64 || !model.waves().wave32 {
            WaveSize::Wave64
        } else {
            WaveSize::Wave32
        };
        let lanes = wave.lanes() as usize;
        let shape = AccessShape {
            width: self.width,
            kind: self.kind,
            active: self.active & wave.lane_mask(),
            wave,
        };
        let access = Access {
            shape,
            addrs: &self.a0[..lanes],
            addrs1: self.kind.is_two_addr().then_some(&self.a1[..lanes]),
        };
        let cost = model.cost(&access);
        let report = model.analyze(&access);
        assert_eq!(cost.as_ref().err(), report.as_ref().err());
        // A batch of this access twice (the second with the active lanes inverted) costs what
        // the two cost alone.
        let twice0 = [access.addrs, access.addrs].concat();
        let twice1 = access.addrs1.map(|a| [a, a].concat());
        let inverted = !shape.active & wave.lane_mask();
        let mut batch = Batch::new(shape, &twice0).with_masks(&[0, 0]);
        let masks = [shape.active, inverted];
        batch.masks = Some(&masks);
        batch.addrs1 = twice1.as_deref();
        let mut each = Vec::new();
        let batched = model.cost_batch_into(&batch, &mut each);
        let other = model.cost(&Access {
            shape: shape.with_active(inverted),
            ..access
        });
        match (&cost, &other) {
            (Ok(c), Ok(o)) => assert_eq!(each, [*c, *o]),
            _ => assert!(batched.is_err()),
        }
        // And a batch with one mask for all (the planned paths).
        let mut uniform = Batch::new(shape, &twice0);
        uniform.addrs1 = twice1.as_deref();
        let mut each = Vec::new();
        match (model.cost_batch_into(&uniform, &mut each), &cost) {
            (Ok(_), Ok(c)) => assert_eq!(each, [*c, *c]),
            (Err(_), Err(_)) => {}
            (got, want) => panic!("batch {got:?}, single {want:?}"),
        }
        // The same batch with the addresses cut to `u32` (the type the vector kernel of
        // whole-wave one-word batches reads) costs what the breakdown of one such access says.
        let narrow0: Vec<u32> = twice0.iter().map(|&a| a as u32).collect();
        let narrow1: Option<Vec<u32>> = twice1
            .as_ref()
            .map(|a| a.iter().map(|&x| x as u32).collect());
        let single = model.analyze(&Access {
            shape,
            addrs: &narrow0[..lanes],
            addrs1: narrow1.as_deref().map(|a| &a[..lanes]),
        });
        let mut narrow = Batch::new(shape, &narrow0);
        narrow.addrs1 = narrow1.as_deref();
        let mut each = Vec::new();
        match (model.cost_batch_into(&narrow, &mut each), &single) {
            (Ok(_), Ok(r)) => assert_eq!(each, [r.cost, r.cost]),
            (Err(_), Err(_)) => {}
            (got, want) => panic!("u32 batch {got:?}, breakdown {want:?}"),
        }
        Some((cost.ok()?, report.ok()?, shape.active))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The fast path and the independent breakdown agree, and the breakdown is consistent.
    #[test]
    fn fast_cost_matches_breakdown(c in case()) {
        let models = models();
        let model = &models[c.model];
        if let Some((cost, report, active)) = c.run(model) {
            prop_assert_eq!(cost, report.cost);
            prop_assert!(cost.cost >= cost.ideal);
            prop_assert_eq!(report.groups.len() as u32, cost.ideal);
            let mut covered = [0u64; 2];
            for g in &report.groups {
                prop_assert_eq!(g.cost, g.banks.iter().map(|b| b.accesses).max().unwrap_or(1));
                prop_assert!(g.banks.iter().all(|b| b.lanes & !g.lanes == 0 && b.bank < model.banks()));
                let slot = usize::from(g.source == GroupSource::Second);
                prop_assert_eq!(covered[slot] & g.lanes, 0, "groups of one pass overlap");
                covered[slot] |= g.lanes;
            }
            // Every active lane is in a group of every pass.
            prop_assert_eq!(covered[0], active);
            if report.groups.iter().any(|g| g.source == GroupSource::Second) {
                prop_assert_eq!(covered[1], active);
            }
        }
    }
}

/// A pattern where every group is conflict-free: each active lane of a group gets its own
/// slot of `width / 4` banks (in a random order) and a random row, so no bank sees two words.
/// The groups come from a pattern of all-distinct addresses under the same mask; merges (NVIDIA)
/// then depend on the mask alone, so the final pattern has the same groups.
fn conflict_free(model: &BankModel, shape: AccessShape, seed: &[u64]) -> Vec<u64> {
    let words_per_lane = (shape.width.max(4) / 4).next_power_of_two() as u64; // 12 bytes: a 16-byte slot
    let slots = model.banks() as u64 / words_per_lane;
    let lanes = shape.wave.lanes() as u64;
    let distinct: Vec<u64> = (0..lanes).map(|l| l * 4096).collect();
    let groups = model
        .analyze(&Access::new(shape, &distinct))
        .expect("the test input is valid")
        .groups;
    let mut addrs = vec![0u64; lanes as usize];
    for (s, g) in groups.iter().enumerate() {
        let members: Vec<u64> = (0..64).filter(|l| g.lanes >> l & 1 == 1).collect();
        assert!(
            members.len() as u64 <= slots,
            "{} lanes in {g:?}",
            members.len()
        );
        let rotate = seed[s % seed.len()];
        for (i, &lane) in members.iter().enumerate() {
            let slot = (i as u64 + rotate) % slots; // one rotation per group: a bijection
            let row = seed[(s + i) % seed.len()].wrapping_mul(lane + 1) >> 52;
            addrs[lane as usize] = (row * model.banks() as u64 + slot * words_per_lane) * 4;
        }
    }
    addrs
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// A conflict-free pattern stays conflict-free under any permutation of the lanes within
    /// each group (the addresses of a group's active lanes shuffled among them).
    #[test]
    fn conflict_free_survives_permutation_within_groups(
        model in 0..PRESET_NAMES.len(),
        width in prop::sample::select(vec![4u32, 8, 12, 16]),
        store in any::<bool>(),
        active in any::<u64>(),
        all_active in any::<bool>(),
        seed in prop::collection::vec(any::<u64>(), 1..8),
        shuffles in prop::collection::vec(any::<prop::sample::Index>(), 64),
    ) {
        let model = BankModel::preset(PRESET_NAMES[model]).expect("the test input is valid");
        let wave = model.waves().default;
        let kind = if store { AccessKind::Store } else { AccessKind::Load };
        let active = if all_active { wave.lane_mask() } else { active & wave.lane_mask() };
        let shape = AccessShape { width, kind, active, wave };
        let mut addrs = conflict_free(&model, shape, &seed);
        let before = model.analyze(&Access::new(shape, &addrs)).expect("the test input is valid");
        prop_assert_eq!(before.cost.conflicts(), 0);
        // Shuffle each group's active lanes' addresses (Fisher-Yates with the given indices).
        for g in &before.groups {
            let lanes: Vec<usize> = (0..64).filter(|l| g.lanes >> l & 1 == 1).collect();
            for i in (1..lanes.len()).rev() {
                let j = shuffles[i].index(i + 1);
                addrs.swap(lanes[i], lanes[j]);
            }
        }
        let after = model.cost(&Access::new(shape, &addrs)).expect("the test input is valid");
        prop_assert_eq!(after.conflicts(), 0);
        prop_assert_eq!(after.ideal, before.cost.ideal);
    }

    /// A batch costs what its accesses cost one by one.
    #[test]
    fn batch_is_the_sum_of_its_accesses(
        addrs in prop::collection::vec(0u32..8192, 32 * 6),
        masks in prop::collection::vec(any::<u32>(), 6),
    ) {
        let model = BankModel::rdna3();
        let masks: Vec<u64> = masks.iter().map(|&m| m as u64).collect();
        let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
        let mut each = Vec::new();
        let totals = model.cost_batch_into(&Batch::new(shape, &addrs).with_masks(&masks), &mut each).expect("the test input is valid");
        let mut sum = BatchTotals::default();
        for (k, chunk) in addrs.chunks(32).enumerate() {
            let c = model.cost(&Access::new(shape.with_active(masks[k]), chunk)).expect("the test input is valid");
            prop_assert_eq!(c, each[k]);
            sum.add(c);
        }
        prop_assert_eq!(sum, totals);
    }
}

/// Whole-wave patterns the fast paths single out, in elements (lane addresses are these times
/// the width): lanes in arithmetic progression (broadcasts, columns, strides of any sign and
/// size, some wrapping round the address space), random lanes over a few words (broadcasts
/// and conflicts mixed), and random lanes far apart.
fn pattern() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        (
            any::<u32>(),
            prop::sample::select(vec![
                0i64,
                1,
                2,
                3,
                4,
                8,
                16,
                32,
                33,
                64,
                128,
                256,
                1024,
                -1,
                -8,
                -32,
                1 << 22,
                1 << 30
            ])
        )
            .prop_map(|(base, stride)| (0..64)
                .map(|l| (base as u64).wrapping_add((stride * l) as u64))
                .collect()),
        (any::<u64>(), -64i64..64).prop_map(|(base, stride)| (0..64)
            .map(|l| base.wrapping_add((stride * l) as u64))
            .collect()),
        (
            any::<u16>(),
            1u64..12,
            prop::sample::select(vec![1u64, 16, 32, 64, 128]),
            prop::collection::vec(any::<u64>(), 64)
        )
            .prop_map(|(base, few, apart, picks)| picks
                .iter()
                .map(|p| base as u64 + (p % few) * apart)
                .collect()),
        (any::<u16>(), prop::collection::vec(0u64..16384, 64))
            .prop_map(|(base, picks)| picks.iter().map(|p| base as u64 + p).collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// On structured waves too, the fast path, the batches and the breakdown agree.
    #[test]
    fn fast_cost_matches_breakdown_on_patterns(
        model in 0..models().len(),
        width in prop::sample::select(vec![1u32, 2, 4, 8, 16]),
        kind in prop::sample::select(vec![AccessKind::Load, AccessKind::Store, AccessKind::Atomic]),
        wave64 in any::<bool>(),
        full in any::<bool>(),
        active in any::<u64>(),
        elements in pattern(),
    ) {
        let models = models();
        let a0: Vec<u64> = elements.iter().map(|e| e.wrapping_mul(width as u64)).collect();
        let active = if full { u64::MAX } else { active };
        let c = Case { model, width, kind, wave64, active, a0, a1: vec![0; 64] };
        if let Some((cost, report, _)) = c.run(&models[model]) {
            prop_assert_eq!(cost, report.cost);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Whole-wave batches of one word per lane in `u32` (the vector kernel's input, where the
    /// CPU has AVX2): lanes drawn from a few words spread over the whole address space (words
    /// that repeat, rows far apart), from a small window, or anywhere, cost what the breakdown
    /// of each access says.
    #[test]
    fn one_word_u32_batches_match_breakdown(
        model in 0..PRESET_NAMES.len(),
        width in prop::sample::select(vec![1u32, 2, 4]),
        kind in prop::sample::select(vec![AccessKind::Load, AccessKind::Store, AccessKind::Atomic]),
        pool in prop::collection::vec(any::<u32>(), 1..40),
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<u32>()), 32 * 4),
    ) {
        let model = BankModel::preset(PRESET_NAMES[model]).expect("the test input is valid");
        let shape = AccessShape::new(width, kind, WaveSize::Wave32);
        let addrs: Vec<u32> = picks
            .iter()
            .map(|(i, how, any)| {
                let a = match how {
                    0 | 1 => *i.get(&pool),
                    2 => pool[0] % 4096 + any % 512,
                    _ => *any,
                };
                a / width * width
            })
            .collect();
        let mut each = Vec::new();
        match model.cost_batch_into(&Batch::new(shape, &addrs), &mut each) {
            Ok(_) => {
                for (k, wave) in addrs.chunks(32).enumerate() {
                    let report = model.analyze(&Access::new(shape, wave)).expect("the batch was accepted");
                    prop_assert_eq!(each[k], report.cost, "access {}", k);
                }
            }
            Err(e) => prop_assert!(model.analyze(&Access::new(shape, &addrs[..32])).is_err() || addrs.chunks(32).any(|w| model.analyze(&Access::new(shape, w)).is_err()), "{e}"),
        }
    }
}
