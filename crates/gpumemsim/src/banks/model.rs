//! The parametric bank model: every preset is one [`BankModel`] value, and
//! [`BankModelBuilder`] makes custom ones.

use std::borrow::Cow;
use std::fmt;

use super::access::{AccessKind, Direction, WaveSize};

/// Which counters a model's costs are read as (docs/rules/banks.md#counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CostUnits {
    /// AMD: `cycles`, `ideal_cycles`, `conflict_cycles` = cycles − ideal (what
    /// `SQ_LDS_BANK_CONFLICT` counts).
    Cycles,
    /// NVIDIA: `requests`, `wavefronts`, `ideal_wavefronts` (the groups) and `bank_conflicts` =
    /// wavefronts − ideal (Nsight Compute's meaning).
    Wavefronts,
}

/// How a bank serves several lanes of one group that touch the same word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SameWord {
    /// Once for all of them: a broadcast for reads, one surviving write for stores.
    Once,
    /// Once per lane, one after another (atomics' read-modify-writes).
    PerLane,
}

/// [`SameWord`] per access kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SameWordRule {
    /// Loads. Every preset: [`SameWord::Once`]: lanes reading one word get it by broadcast
    /// (docs/rules/banks.md#broadcast-of-loads).
    pub load: SameWord,
    /// Stores. The public record is silent on the cost of several lanes storing to one word;
    /// the presets choose [`SameWord::Once`]: only one lane's value lands, so the bank writes
    /// the word once (docs/rules/banks.md#same-word-stores).
    pub store: SameWord,
    /// Atomics. The public record is silent on the cost of atomics to one address; the presets
    /// choose [`SameWord::PerLane`], because each lane's read-modify-write must complete before
    /// another lane operates on the word, and the hardware serializes indexed and atomic
    /// accesses to one bank (docs/rules/banks.md#atomics-to-one-word).
    pub atomic: SameWord,
}

impl SameWordRule {
    /// The rule the presets use (see the fields).
    pub const PRESETS: SameWordRule = SameWordRule {
        load: SameWord::Once,
        store: SameWord::Once,
        atomic: SameWord::PerLane,
    };

    /// The rule for one kind (2addr kinds follow their one-address kind).
    pub const fn for_kind(self, kind: AccessKind) -> SameWord {
        match kind.single() {
            AccessKind::Load => self.load,
            AccessKind::Store => self.store,
            _ => self.atomic,
        }
    }
}

/// How a 2addr access (two addresses per lane) is grouped. The public record gives no lane
/// phases for 2addr instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TwoAddrRule {
    /// Two passes, one per address, each grouped like a one-address access of the element
    /// width; the costs add. A conflict-free `ds_load_2addr_b32` then takes as long as a
    /// `ds_load_b64` (2 cycles on RDNA3 wave32), as each lane moves 64 bits
    /// (docs/rules/banks.md#two-address-instructions), and the
    /// `stride64` forms, whose two addresses always share a bank, are conflict-free as compilers
    /// assume. The presets' choice.
    SequentialPasses,
    /// One pass grouped like an access of twice the element width, each lane touching the words
    /// of both addresses.
    CombinedWidth,
}

/// Whether the groups of an access may merge (docs/rules/banks.md#nvidia-vectorized-accesses).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MergeRule {
    /// Groups never merge (the AMD presets).
    Never,
    /// NVIDIA's merge of vectorized accesses (docs/rules/banks.md#nvidia-vectorized-accesses):
    /// the phases of a table with more than one phase pair up (0 with 1, 2 with 3, ...), and
    /// every pair merges into one group if, for one of `distances` (1 and 2 in the presets),
    /// every active lane `i` has lane `i ^ d` inactive or at the same address. The merged group
    /// may have bank conflicts; it costs like any group, against one ideal
    /// (docs/rules/banks.md#merged-transactions-can-conflict, measured on an H200). For 64-bit
    /// accesses the pair is the two half-warps; for 128-bit ones, the two quarter-warps of each
    /// half, so the halves never merge.
    XorPartners {
        /// The XOR distances to try (`[1, 2]`).
        distances: Vec<u32>,
        /// Which lanes the condition is checked over.
        scope: MergeScope,
        /// Whether stores merge too. The presets say `false`, as an H200 measures it: merging
        /// is a broadcast of read data, which a store does not have
        /// (docs/rules/banks.md#merging-is-for-loads).
        merge_stores: bool,
    },
}

/// Over which lanes [`MergeRule::XorPartners`] checks its condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MergeScope {
    /// Every active lane of the warp, as the published rule states it: all pairs merge or none
    /// do (docs/rules/banks.md#nvidia-vectorized-accesses). The presets' choice.
    Wave,
    /// Only the lanes of the pair being merged: each pair decides on its own.
    Pair,
}

/// Whether a group with no active lanes costs anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EmptyGroups {
    /// Skipped: it costs nothing and is not counted in the ideal. NVIDIA: a 64-bit access
    /// needs one transaction per half-warp with an active lane. AMD: the public record is
    /// silent; the presets choose the same (docs/rules/banks.md#empty-groups).
    Skip,
    /// It takes one cycle or wavefront, like a conflict-free group.
    Count,
}

/// The most cycles one access may take, whatever its conflicts: the RDNA3 ISA guide gives one
/// cycle (wave32) or two (wave64) at best and 64 at worst for an indexed or atomic LDS
/// instruction (docs/rules/banks.md#at-most-64-cycles). `None`: no bound (NVIDIA, CDNA).
pub type MaxCost = Option<u32>;

/// Whether addresses must be multiples of the access width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alignment {
    /// Any byte address; an access spanning words touches each of them (AMD LDS in unaligned
    /// mode, docs/rules/banks.md#alignment). Faults are the executor's business.
    Any,
    /// Natural alignment: a misaligned address is an error (NVIDIA `LDS`/`STS`;
    /// docs/rules/banks.md#alignment).
    Natural,
}

/// Access widths the phase tables are kept for: index 0 for 1-, 2- and 4-byte accesses, 1 for
/// 8, 2 for 12, 3 for 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WidthClass {
    /// 32-bit (and sub-dword) accesses.
    B32,
    /// 64-bit.
    B64,
    /// 96-bit.
    B96,
    /// 128-bit.
    B128,
}

impl WidthClass {
    /// Every class, in table order.
    pub const ALL: [WidthClass; 4] = [
        WidthClass::B32,
        WidthClass::B64,
        WidthClass::B96,
        WidthClass::B128,
    ];

    /// The class of an access `width` bytes wide, if supported.
    pub const fn of_width(width: u32) -> Option<WidthClass> {
        match width {
            1 | 2 | 4 => Some(WidthClass::B32),
            8 => Some(WidthClass::B64),
            12 => Some(WidthClass::B96),
            16 => Some(WidthClass::B128),
            _ => None,
        }
    }

    /// The index in a table.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The class twice as wide (for [`TwoAddrRule::CombinedWidth`]); `B128` for the widest.
    pub const fn doubled(self) -> WidthClass {
        match self {
            WidthClass::B32 => WidthClass::B64,
            _ => WidthClass::B128,
        }
    }

    /// The bytes per lane of the class (4, 8, 12, 16).
    pub const fn bytes(self) -> u32 {
        match self {
            WidthClass::B32 => 4,
            WidthClass::B64 => 8,
            WidthClass::B96 => 12,
            WidthClass::B128 => 16,
        }
    }
}

/// Which wave sizes a preset runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WaveSupport {
    /// Whether 32-lane waves run.
    pub wave32: bool,
    /// Whether 64-lane waves run.
    pub wave64: bool,
    /// The size used when none is asked for.
    pub default: WaveSize,
}

impl WaveSupport {
    /// Whether `wave` runs.
    pub const fn allows(self, wave: WaveSize) -> bool {
        match wave {
            WaveSize::Wave32 => self.wave32,
            WaveSize::Wave64 => self.wave64,
        }
    }
}

/// The phase tables of a model: for each direction and width class, the lane groups
/// (bit `i` = lane `i`) in the order the hardware serves them.
pub type PhaseTables = [[Vec<u64>; 4]; 2];

/// One bank-conflict model: a preset or a custom one. Within a group of lanes the cost is the
/// largest number of distinct words any one bank must serve; the groups' costs add
/// (docs/rules/banks.md#conflicts-serialize).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankModel {
    pub(crate) name: Cow<'static, str>,
    pub(crate) banks: u32,
    pub(crate) bank_width: u32,
    pub(crate) phase_lanes: u32,
    pub(crate) phases: PhaseTables,
    pub(crate) merge: MergeRule,
    pub(crate) same_word: SameWordRule,
    pub(crate) two_addr: TwoAddrRule,
    pub(crate) empty_groups: EmptyGroups,
    pub(crate) empty_halves: EmptyGroups,
    pub(crate) max_cost: MaxCost,
    pub(crate) alignment: Alignment,
    pub(crate) units: CostUnits,
    pub(crate) waves: WaveSupport,
    /// log2(bank_width): byte address >> bank_shift = word.
    pub(crate) bank_shift: u32,
    /// log2(banks): word >> row_shift = row within a bank.
    pub(crate) row_shift: u32,
}

impl BankModel {
    /// A builder for a custom model of `banks` banks, each `bank_width` bytes wide.
    pub fn builder(
        name: impl Into<Cow<'static, str>>,
        banks: u32,
        bank_width: u32,
    ) -> BankModelBuilder {
        BankModelBuilder {
            model: BankModel {
                name: name.into(),
                banks,
                bank_width,
                phase_lanes: 32,
                phases: Default::default(),
                merge: MergeRule::Never,
                same_word: SameWordRule::PRESETS,
                two_addr: TwoAddrRule::SequentialPasses,
                empty_groups: EmptyGroups::Skip,
                empty_halves: EmptyGroups::Skip,
                max_cost: None,
                alignment: Alignment::Any,
                units: CostUnits::Cycles,
                waves: WaveSupport {
                    wave32: true,
                    wave64: true,
                    default: WaveSize::Wave32,
                },
                bank_shift: 0,
                row_shift: 0,
            },
        }
    }

    /// A builder starting from this model, to change some of its parameters.
    pub fn to_builder(&self) -> BankModelBuilder {
        BankModelBuilder {
            model: self.clone(),
        }
    }

    /// The name (`rdna3`, ...).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Number of banks.
    pub fn banks(&self) -> u32 {
        self.banks
    }
    /// Bytes per bank word.
    pub fn bank_width(&self) -> u32 {
        self.bank_width
    }
    /// Lanes the phase tables describe; a larger wave runs the table again for each further
    /// block of this many lanes, after the first (RDNA3 wave64,
    /// docs/rules/banks.md#wave64-in-two-halves).
    pub fn phase_lanes(&self) -> u32 {
        self.phase_lanes
    }
    /// The lane groups for `direction` and `class`, in order.
    pub fn phase_table(&self, direction: Direction, class: WidthClass) -> &[u64] {
        &self.phases[direction as usize][class.index()]
    }
    /// The merge rule.
    pub fn merge(&self) -> &MergeRule {
        &self.merge
    }
    /// How same-word lanes are served, per kind.
    pub fn same_word(&self) -> SameWordRule {
        self.same_word
    }
    /// How 2addr accesses are grouped.
    pub fn two_addr(&self) -> TwoAddrRule {
        self.two_addr
    }
    /// Whether groups without active lanes cost anything.
    pub fn empty_groups(&self) -> EmptyGroups {
        self.empty_groups
    }
    /// Whether a block of [`BankModel::phase_lanes`] lanes of a larger wave (the second half
    /// of an RDNA wave64) with no active lane still takes its cycle, like a conflict-free
    /// group: [`EmptyGroups::Count`] on RDNA, where a wave64 access takes at least 2 cycles
    /// (docs/rules/banks.md#wave64-in-two-halves).
    pub fn empty_halves(&self) -> EmptyGroups {
        self.empty_halves
    }
    /// The most cycles one access may take (docs/rules/banks.md#at-most-64-cycles).
    pub fn max_cost(&self) -> MaxCost {
        self.max_cost
    }
    /// Whether addresses must be naturally aligned.
    pub fn alignment(&self) -> Alignment {
        self.alignment
    }
    /// Which counters the costs are read as.
    pub fn units(&self) -> CostUnits {
        self.units
    }
    /// Which wave sizes run.
    pub fn waves(&self) -> WaveSupport {
        self.waves
    }
    /// The bank of a byte address.
    pub fn bank_of(&self, address: u64) -> u32 {
        ((address >> self.bank_shift) & (self.banks as u64 - 1)) as u32
    }
}

/// Why a custom model is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError(pub String);

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ModelError {}

/// Builds a [`BankModel`]: start from [`BankModel::builder`] (all parameters at the presets'
/// AMD defaults, no phase tables) or [`BankModel::to_builder`], set what differs, then
/// [`build`](BankModelBuilder::build), which checks the tables.
#[derive(Clone, Debug)]
pub struct BankModelBuilder {
    model: BankModel,
}

impl BankModelBuilder {
    /// Lanes the phase tables describe (32 or 64).
    pub fn phase_lanes(mut self, lanes: u32) -> Self {
        self.model.phase_lanes = lanes;
        self
    }

    /// Sets the lane groups of `class` for both reads and writes.
    pub fn phases(self, class: WidthClass, groups: &[u64]) -> Self {
        self.read_phases(class, groups).write_phases(class, groups)
    }

    /// Sets the lane groups of `class` for reads (loads).
    pub fn read_phases(mut self, class: WidthClass, groups: &[u64]) -> Self {
        self.model.phases[Direction::Read as usize][class.index()] = groups.to_vec();
        self
    }

    /// Sets the lane groups of `class` for writes (stores, atomics).
    pub fn write_phases(mut self, class: WidthClass, groups: &[u64]) -> Self {
        self.model.phases[Direction::Write as usize][class.index()] = groups.to_vec();
        self
    }

    /// Sets the merge rule.
    pub fn merge(mut self, rule: MergeRule) -> Self {
        self.model.merge = rule;
        self
    }

    /// Sets how same-word lanes are served.
    pub fn same_word(mut self, rule: SameWordRule) -> Self {
        self.model.same_word = rule;
        self
    }

    /// Sets how 2addr accesses are grouped.
    pub fn two_addr(mut self, rule: TwoAddrRule) -> Self {
        self.model.two_addr = rule;
        self
    }

    /// Sets whether empty groups cost anything.
    pub fn empty_groups(mut self, rule: EmptyGroups) -> Self {
        self.model.empty_groups = rule;
        self
    }

    /// Sets whether an empty block of `phase_lanes` lanes of a larger wave costs a cycle
    /// ([`BankModel::empty_halves`]).
    pub fn empty_halves(mut self, rule: EmptyGroups) -> Self {
        self.model.empty_halves = rule;
        self
    }

    /// Sets the most cycles one access may take ([`BankModel::max_cost`]).
    pub fn max_cost(mut self, most: MaxCost) -> Self {
        self.model.max_cost = most;
        self
    }

    /// Sets the alignment rule.
    pub fn alignment(mut self, rule: Alignment) -> Self {
        self.model.alignment = rule;
        self
    }

    /// Sets the counters the costs are read as.
    pub fn units(mut self, units: CostUnits) -> Self {
        self.model.units = units;
        self
    }

    /// Sets the wave sizes that run.
    pub fn waves(mut self, waves: WaveSupport) -> Self {
        self.model.waves = waves;
        self
    }

    /// Checks and returns the model. Banks must be a power of two up to 64, the bank width a
    /// power of two from 4 to 16 bytes, the phase lanes 32 or 64, and every phase table a
    /// partition of lanes `0..phase_lanes` into non-empty groups (a table left empty takes the
    /// `B32` table of the same direction; `B96` left empty takes `B128`'s).
    pub fn build(mut self) -> Result<BankModel, ModelError> {
        let m = &mut self.model;
        if !m.banks.is_power_of_two() || m.banks > 64 {
            return Err(ModelError(format!(
                "{}: {} banks: must be a power of two from 1 to 64",
                m.name, m.banks
            )));
        }
        if !m.bank_width.is_power_of_two() || !(4..=16).contains(&m.bank_width) {
            return Err(ModelError(format!(
                "{}: bank width {} bytes: must be 4, 8 or 16",
                m.name, m.bank_width
            )));
        }
        if m.phase_lanes != 32 && m.phase_lanes != 64 {
            return Err(ModelError(format!(
                "{}: phase tables of {} lanes: must be 32 or 64",
                m.name, m.phase_lanes
            )));
        }
        if !m.waves.allows(m.waves.default) {
            return Err(ModelError(format!(
                "{}: the default wave size is not allowed",
                m.name
            )));
        }
        let all_lanes = if m.phase_lanes == 64 {
            u64::MAX
        } else {
            (1u64 << m.phase_lanes) - 1
        };
        for dir in 0..2 {
            if m.phases[dir][WidthClass::B96.index()].is_empty() {
                m.phases[dir][WidthClass::B96.index()] =
                    m.phases[dir][WidthClass::B128.index()].clone();
            }
            for class in 0..4 {
                if m.phases[dir][class].is_empty() {
                    m.phases[dir][class] = m.phases[dir][0].clone();
                }
                let table = &m.phases[dir][class];
                if table.is_empty() {
                    return Err(ModelError(format!("{}: no phase table for b32", m.name)));
                }
                let mut seen = 0u64;
                for &g in table {
                    if g == 0 || g & !all_lanes != 0 || g & seen != 0 {
                        return Err(ModelError(format!(
                            "{}: phase {g:#x} of the {} table is empty, overlaps another or \
                             names lanes beyond {}",
                            m.name,
                            WidthClass::ALL[class].bytes() * 8,
                            m.phase_lanes - 1
                        )));
                    }
                    seen |= g;
                }
                if seen != all_lanes {
                    return Err(ModelError(format!(
                        "{}: the {}-bit phase table leaves lanes {:#x} out",
                        m.name,
                        WidthClass::ALL[class].bytes() * 8,
                        all_lanes & !seen
                    )));
                }
            }
        }
        if m.max_cost == Some(0) {
            return Err(ModelError(format!(
                "{}: the most cycles of an access must be at least 1",
                m.name
            )));
        }
        if let MergeRule::XorPartners { distances, .. } = &m.merge {
            if distances.is_empty() || distances.iter().any(|&d| d == 0 || d >= m.phase_lanes) {
                return Err(ModelError(format!(
                    "{}: merge distances must be between 1 and {}",
                    m.name,
                    m.phase_lanes - 1
                )));
            }
        }
        m.bank_shift = m.bank_width.trailing_zeros();
        m.row_shift = m.banks.trailing_zeros();
        Ok(self.model)
    }
}
