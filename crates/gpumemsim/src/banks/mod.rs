//! Bank-conflict timing for LDS (AMD) and shared memory (NVIDIA): one parametric model.
//!
//! An access ([`Access`]) is each lane's byte address (two for 2addr kinds), a width (4, 8, 12
//! or 16 bytes; 1 and 2 for the sub-dword DS forms), a kind ([`AccessKind`]), the active lanes
//! and the wave size. A model ([`BankModel`]; the presets [`BankModel::rdna3`],
//! [`BankModel::cdna3`], [`BankModel::cdna4`], [`BankModel::rdna4`], [`BankModel::sm70`],
//! [`BankModel::sm80`], [`BankModel::sm90`], or a custom one from [`BankModel::builder`]) says:
//! - the number of banks and their width: word `w = addr / width` lives in bank `w mod banks`
//!   (docs/rules/banks.md#banks-and-words);
//! - how the lanes are grouped into phases for each access width and direction
//!   ([`BankModel::phase_table`]; docs/rules/banks.md#lane-phases);
//! - whether groups merge ([`MergeRule`]; docs/rules/banks.md#nvidia-vectorized-accesses);
//! - how lanes on one word are served ([`SameWordRule`]: broadcast for loads,
//!   docs/rules/banks.md#broadcast-of-loads);
//! - how 2addr accesses are grouped ([`TwoAddrRule`]), whether empty groups cost
//!   ([`EmptyGroups`]), the alignment rule ([`Alignment`]) and the counters ([`CostUnits`]).
//!
//! Within a group the cost is the largest number of distinct words any one bank must serve
//! (same-bank accesses to different words are serialized); the ideal is one per group; the
//! groups' costs add (docs/rules/banks.md#conflicts-serialize). Results read as AMD
//! `cycles`/`ideal_cycles`/`conflict_cycles` or NVIDIA
//! `requests`/`wavefronts`/`ideal_wavefronts`/`bank_conflicts` ([`Counters`];
//! docs/rules/banks.md#counters).
//!
//! - [`BankModel::cost`]: counters only, allocation-free; [`BankModel::cost_batch`] over many
//!   accesses of one shape.
//! - [`BankModel::analyze`]: the per-group breakdown (lanes, banks, words, collisions).
//! - [`ds_cost`] / [`ds_report`]: the same for an executed DS instruction's table entry.
//! - [`suggest_layouts`]: padding and XOR-swizzle fixes for a conflicting pattern.
//! - [`query`]: operation names, wave sizes, lane lists and address expressions as the CLI
//!   and the Python package take them.
//!
//! ```
//! use gpumemsim::banks::{Access, AccessKind, AccessShape, BankModel, WaveSize};
//! // A100: LDS.64 at 8·t is two half-warp wavefronts without conflicts.
//! let addrs: Vec<u32> = (0..32).map(|t| 8 * t).collect();
//! let shape = AccessShape::new(8, AccessKind::Load, WaveSize::Wave32);
//! let cost = BankModel::sm80().cost(&Access::new(shape, &addrs))?;
//! assert_eq!((cost.cost, cost.conflicts()), (2, 0));
//! # Ok::<(), gpumemsim::banks::AccessError>(())
//! ```

mod access;
#[cfg(target_arch = "x86_64")]
mod avx2;
mod cost;
mod counters;
mod ds;
mod groups;
mod kernel;
mod model;
mod presets;
pub mod query;
mod report;
mod suggest;

pub use access::{Access, AccessError, AccessKind, AccessShape, Direction, LaneAddress, WaveSize};
pub use cost::Batch;
pub use counters::{AccessCost, BatchTotals, Counters};
pub use ds::{ds_access, ds_cost, ds_report, DsAccess, DsLanes};
pub use groups::GroupSource;
pub use model::{
    Alignment, BankModel, BankModelBuilder, CostUnits, EmptyGroups, MaxCost, MergeRule, MergeScope,
    ModelError, PhaseTables, SameWord, SameWordRule, TwoAddrRule, WaveSupport, WidthClass,
};
pub use presets::{lanes, PRESET_NAMES};

/// The lanes of a mask as ranges, `0-15,20` (`-` for none).
pub fn lane_ranges(mask: u64) -> String {
    if mask == 0 {
        return "-".into();
    }
    crate::ranges::runs_text((0..64).filter(|l| mask >> l & 1 == 1), ",")
}
pub use report::{AccessReport, BankUse, GroupReport};
pub use suggest::{suggest_layouts, Layout, Suggestion};
