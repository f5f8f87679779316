//! The architecture presets (docs/rules/banks.md states each one's published facts; what the
//! record leaves open is a named parameter of [`BankModel`], documented there).

use super::access::WaveSize;
use super::model::{
    Alignment, BankModel, CostUnits, EmptyGroups, MergeRule, MergeScope, SameWordRule, TwoAddrRule,
    WaveSupport, WidthClass,
};

/// The preset names, as `--arch` takes them.
pub const PRESET_NAMES: [&str; 7] = ["rdna3", "cdna3", "cdna4", "rdna4", "sm70", "sm80", "sm90"];

/// A lane mask from inclusive lane ranges: `lanes(&[(0, 3), (20, 23)])`.
pub const fn lanes(ranges: &[(u32, u32)]) -> u64 {
    let mut mask = 0u64;
    let mut r = 0;
    while r < ranges.len() {
        let mut l = ranges[r].0;
        while l <= ranges[r].1 {
            mask |= 1 << l;
            l += 1;
        }
        r += 1;
    }
    mask
}

/// `n` groups of `size` consecutive lanes.
fn consecutive(n: u32, size: u32) -> Vec<u64> {
    (0..n)
        .map(|i| lanes(&[(i * size, i * size + size - 1)]))
        .collect()
}

const BOTH_WAVES: WaveSupport = WaveSupport {
    wave32: true,
    wave64: true,
    default: WaveSize::Wave32,
};

const WAVE64_ONLY: WaveSupport = WaveSupport {
    wave32: false,
    wave64: true,
    default: WaveSize::Wave64,
};

const WARP32: WaveSupport = WaveSupport {
    wave32: true,
    wave64: false,
    default: WaveSize::Wave32,
};

fn built(builder: super::model::BankModelBuilder) -> BankModel {
    match builder.build() {
        Ok(m) => m,
        // The preset tables are constants checked by the tests; this cannot happen.
        Err(e) => panic!("invalid preset: {e}"),
    }
}

impl BankModel {
    /// The preset called `name` (one of [`PRESET_NAMES`]).
    pub fn preset(name: &str) -> Option<BankModel> {
        Some(match name {
            "rdna3" => BankModel::rdna3(),
            "cdna3" => BankModel::cdna3(),
            "cdna4" => BankModel::cdna4(),
            "rdna4" => BankModel::rdna4(),
            "sm70" => BankModel::sm70(),
            "sm80" => BankModel::sm80(),
            "sm90" => BankModel::sm90(),
            _ => return None,
        })
    }

    /// RDNA3 (gfx1100).
    ///
    /// - 32 banks of 4 bytes as one wave sees them: the WGP's 128 kB LDS has 64 DWORD-wide
    ///   banks in two sets of 32, each set attached to a pair of SIMD32s
    ///   (docs/rules/banks.md#banks-and-words).
    /// - Lane phases measured on RDNA3 (docs/rules/banks.md#lane-phases): `b32` one phase of lanes
    ///   0-31; `b64` two, 0-15 and 16-31; `b128` four, {0-3,20-23}, {4-7,16-19}, {8-11,28-31},
    ///   {12-15,24-27}. `b96` is not published: it takes the `b128` phases (each lane's three
    ///   words fit in the four banks its `b128` slot would use).
    /// - wave64 runs lanes 32-63 the same way after lanes 0-31, so a conflict-free wave32
    ///   access takes 1 cycle and a wave64 one 2, even with one half inactive
    ///   (docs/rules/banks.md#wave64-in-two-halves); conflicts stretch an access to at most 64
    ///   cycles (docs/rules/banks.md#at-most-64-cycles), a wave64 `ds_load_2addr_b64` on one
    ///   bank included.
    /// - Conflicts: same-bank accesses to different words are serialized
    ///   (docs/rules/banks.md#conflicts-serialize), so a phase
    ///   costs the largest number of distinct words one bank serves; `cycles` sums the phases,
    ///   `ideal_cycles` counts them.
    pub fn rdna3() -> BankModel {
        built(
            BankModel::builder("rdna3", 32, 4)
                .phase_lanes(32)
                .empty_halves(EmptyGroups::Count)
                .max_cost(Some(64))
                .phases(WidthClass::B32, &[lanes(&[(0, 31)])])
                .phases(WidthClass::B64, &consecutive(2, 16))
                .phases(WidthClass::B128, &RDNA3_B128)
                .units(CostUnits::Cycles)
                .waves(BOTH_WAVES),
        )
    }

    /// CDNA3 (gfx942, MI300X), wave64 only.
    ///
    /// - 32 banks of 4 bytes (docs/rules/banks.md#banks-and-words).
    /// - Phases (docs/rules/banks.md#lane-phases): `b32` two, lanes 0-31 and 32-63; `b64` four
    ///   of 16 consecutive lanes; `b128` reads eight, {0-3,20-23}, {32-35,52-55}, {4-7,16-19},
    ///   {36-39,48-51},
    ///   {8-11,28-31}, {40-43,60-63}, {12-15,24-27}, {44-47,56-59}; `b128` writes eight of 8
    ///   consecutive lanes. `b96` takes the `b128` phases (not published).
    /// - Cost accounting, fitted to the measured `SQ_LDS_BANK_CONFLICT` per `ds_read_b32` with
    ///   lane × stride addresses (docs/rules/banks.md#cdna3-conflict-accounting: stride 4 B → 0,
    ///   8 B → 2, 16 B → 6): each phase costs the largest number of distinct words one bank
    ///   serves, and the conflict cycles are the
    ///   sum over phases of (that − 1). Stride 8: every phase puts 2 words on each even bank,
    ///   2 + 2 cycles for an ideal of 2, so 2 conflict cycles; stride 16: 4 words on every
    ///   fourth bank, 4 + 4 − 2 = 6. A single 64-lane phase over 64 banks would give 1 and 3:
    ///   32 banks and two phases are what the measurements show.
    pub fn cdna3() -> BankModel {
        built(
            BankModel::builder("cdna3", 32, 4)
                .phase_lanes(64)
                .phases(WidthClass::B32, &consecutive(2, 32))
                .phases(WidthClass::B64, &consecutive(4, 16))
                .read_phases(WidthClass::B128, &CDNA3_B128_READ)
                .write_phases(WidthClass::B128, &consecutive(8, 8))
                .units(CostUnits::Cycles)
                .waves(WAVE64_ONLY),
        )
    }

    /// CDNA4 (gfx950), wave64 only.
    ///
    /// - 64 banks of 4 bytes (docs/rules/banks.md#banks-and-words).
    /// - Phases (docs/rules/banks.md#lane-phases): `b32` one phase of 64 lanes; `b64` lanes 0-31
    ///   and 32-63; `b128` four, {0-3,12-15,20-23,24-27}, {32-35,44-47,52-55,56-59},
    ///   {4-7,8-11,16-19,28-31}, {36-39,40-43,48-51,60-63}. `b96` takes the `b128` phases (not
    ///   published).
    pub fn cdna4() -> BankModel {
        built(
            BankModel::builder("cdna4", 64, 4)
                .phase_lanes(64)
                .phases(WidthClass::B32, &[u64::MAX])
                .phases(WidthClass::B64, &consecutive(2, 32))
                .phases(WidthClass::B128, &CDNA4_B128)
                .units(CostUnits::Cycles)
                .waves(WAVE64_ONLY),
        )
    }

    /// RDNA4 (gfx1200).
    ///
    /// - 32 banks of 4 bytes (docs/rules/banks.md#banks-and-words).
    /// - Phases (docs/rules/banks.md#lane-phases): `b32` lanes 0-31; `b64` 0-15, 16-31; `b128`
    ///   0-7, 8-15, 16-23, 24-31. `b96` takes the `b128` phases (not published). wave64 runs
    ///   lanes 32-63 after 0-31, an inactive half still taking its cycle, and an access takes
    ///   at most 64 cycles, as on RDNA3 (docs/rules/banks.md#wave64-in-two-halves,
    ///   docs/rules/banks.md#at-most-64-cycles).
    pub fn rdna4() -> BankModel {
        built(
            BankModel::builder("rdna4", 32, 4)
                .phase_lanes(32)
                .empty_halves(EmptyGroups::Count)
                .max_cost(Some(64))
                .phases(WidthClass::B32, &[lanes(&[(0, 31)])])
                .phases(WidthClass::B64, &consecutive(2, 16))
                .phases(WidthClass::B128, &consecutive(4, 8))
                .units(CostUnits::Cycles)
                .waves(BOTH_WAVES),
        )
    }

    /// NVIDIA Volta (sm70): the shared-memory model of [`BankModel::sm80`].
    pub fn sm70() -> BankModel {
        nvidia("sm70")
    }

    /// NVIDIA Ampere (sm80).
    ///
    /// - 32 banks of 4 bytes; word `i` lives in bank `i mod 32`; a warp is 32 lanes
    ///   (docs/rules/banks.md#banks-and-words).
    /// - 32-bit accesses: the warp is one group; lanes on one word get a broadcast, lanes on
    ///   different words of one bank split the request into that many transactions
    ///   (docs/rules/banks.md#broadcast-of-loads, docs/rules/banks.md#conflicts-serialize).
    /// - 64-bit: two half-warps, one transaction each, unless they merge; 128-bit: four
    ///   quarter-warps, the two quarters of a half may merge, the halves never do. The merge
    ///   condition: for every active lane `i`, lane `i^1` is inactive or has the same address,
    ///   or for every active lane `i`, lane `i^2` is ([`MergeRule`];
    ///   docs/rules/banks.md#nvidia-vectorized-accesses). A merged transaction may conflict
    ///   (docs/rules/banks.md#merged-transactions-can-conflict): `LDS.64` with only lanes 0
    ///   and 16 active, on different words of one bank, is 2 wavefronts, 1 ideal, 1 conflict.
    ///   Only groups with an active lane count (docs/rules/banks.md#empty-groups).
    /// - Published A100 measurements this reproduces: `LDS.64` at 8·t → 2
    ///   wavefronts, 0 conflicts; `LDS.128` with only lanes 15 and 16 active, both at 64 → 2.
    /// - Counters: `requests` (1 per instruction with an active lane), `wavefronts` (the
    ///   transactions), `ideal_wavefronts` (the groups), `bank_conflicts` (the difference;
    ///   docs/rules/banks.md#counters).
    /// - Stores split the same way but never merge, and lanes storing to one word write it
    ///   once (both measured on an H200).
    /// - Atomics to one word serialize (measured on an H200 for 32-bit `ATOMS.ADD`).
    /// - Choices where the record is silent: addresses must be naturally aligned; `b96` (no
    ///   such instruction) groups like `b128`.
    pub fn sm80() -> BankModel {
        nvidia("sm80")
    }

    /// NVIDIA Hopper (sm90): the shared-memory model of [`BankModel::sm80`]. It gives the
    /// requests, wavefronts and bank conflicts Nsight Compute counts on an H200 for each of
    /// 809 measured one-warp loads, stores and atomics (tests/golden/sm90_shared_measured.tsv;
    /// docs/rules/banks.md#merged-transactions-can-conflict).
    pub fn sm90() -> BankModel {
        nvidia("sm90")
    }
}

fn nvidia(name: &'static str) -> BankModel {
    built(
        BankModel::builder(name, 32, 4)
            .phase_lanes(32)
            .phases(WidthClass::B32, &[lanes(&[(0, 31)])])
            .phases(WidthClass::B64, &consecutive(2, 16))
            .phases(WidthClass::B128, &consecutive(4, 8))
            .merge(MergeRule::XorPartners {
                distances: vec![1, 2],
                scope: MergeScope::Wave,
                merge_stores: false,
            })
            .same_word(SameWordRule::PRESETS)
            .two_addr(TwoAddrRule::SequentialPasses)
            .empty_groups(EmptyGroups::Skip)
            .alignment(Alignment::Natural)
            .units(CostUnits::Wavefronts)
            .waves(WARP32),
    )
}

/// RDNA3 `b128` phases (docs/rules/banks.md#lane-phases).
const RDNA3_B128: [u64; 4] = [
    lanes(&[(0, 3), (20, 23)]),
    lanes(&[(4, 7), (16, 19)]),
    lanes(&[(8, 11), (28, 31)]),
    lanes(&[(12, 15), (24, 27)]),
];

/// CDNA3 `b128` read phases (docs/rules/banks.md#lane-phases).
const CDNA3_B128_READ: [u64; 8] = [
    lanes(&[(0, 3), (20, 23)]),
    lanes(&[(32, 35), (52, 55)]),
    lanes(&[(4, 7), (16, 19)]),
    lanes(&[(36, 39), (48, 51)]),
    lanes(&[(8, 11), (28, 31)]),
    lanes(&[(40, 43), (60, 63)]),
    lanes(&[(12, 15), (24, 27)]),
    lanes(&[(44, 47), (56, 59)]),
];

/// CDNA4 `b128` phases (docs/rules/banks.md#lane-phases).
const CDNA4_B128: [u64; 4] = [
    lanes(&[(0, 3), (12, 15), (20, 23), (24, 27)]),
    lanes(&[(32, 35), (44, 47), (52, 55), (56, 59)]),
    lanes(&[(4, 7), (8, 11), (16, 19), (28, 31)]),
    lanes(&[(36, 39), (40, 43), (48, 51), (60, 63)]),
];
