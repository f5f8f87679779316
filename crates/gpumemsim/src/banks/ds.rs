//! DS instructions as bank accesses: the entry point for the executor, one call per executed
//! DS instruction.

use crate::isa::{Field, Flags, Format, InstrDef};

use super::access::{Access, AccessError, AccessKind, AccessShape, LaneAddress, WaveSize};
use super::counters::AccessCost;
use super::model::BankModel;
use super::report::AccessReport;

/// How a DS instruction touches the LDS banks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DsAccess {
    /// Bytes per lane at each address ([`InstrDef::data_bytes`]).
    pub width: u32,
    /// Load, store, atomic, or their 2addr forms.
    pub kind: AccessKind,
}

/// Classifies a DS instruction from its table entry.
///
/// The rule is docs/rules/banks.md#ds-instructions-as-bank-accesses:
///
/// - `ds_load_*` are loads and `ds_store_*` stores (incl. the `addtid` forms, whose addresses
///   `LDS_BASE + offset + TID*4 + M0` the caller computes, and the `d16` forms);
///   `ds_load_2addr*`, `ds_store_2addr*` and `ds_storexchg_2addr*` are 2addr (two addresses
///   per lane; the caller applies the offsets, scaled for the `stride64` forms); every other
///   DS instruction with a per-lane address is an atomic.
/// - Not bank accesses: GDS-only instructions (GWS, ordered count, GS registers), `ds_nop`,
///   `ds_swizzle_b32`, `ds_permute_b32` and `ds_bpermute_b32` (they use the LDS crossbar, not
///   its memory), `ds_append`/`ds_consume` (one wave-level counter at the M0 address) and
///   `ds_bvh_stack_rtn_b32` (addresses depend on the stack data).
pub fn ds_access(def: &InstrDef) -> Result<DsAccess, AccessError> {
    let not = |reason| AccessError::NotBankAccess {
        instruction: def.name,
        reason,
    };
    if def.format != Format::Ds {
        return Err(not("not a DS instruction"));
    }
    if def.flags.has(Flags::GDS_ONLY) {
        return Err(not("a GDS-only instruction, not an LDS access"));
    }
    let name = def.name;
    if matches!(
        name,
        "ds_swizzle_b32" | "ds_permute_b32" | "ds_bpermute_b32"
    ) {
        return Err(not(
            "moves data between lanes through the LDS crossbar without touching LDS memory",
        ));
    }
    if matches!(name, "ds_append" | "ds_consume") {
        return Err(not(
            "updates one wave-level counter at the M0 address, not a per-lane access",
        ));
    }
    if name.starts_with("ds_bvh_stack") {
        return Err(not(
            "a per-lane stack operation whose addresses depend on the stack data",
        ));
    }
    let addtid = name.contains("_addtid_");
    if def.operand(Field::Addr).is_none() && !addtid {
        return Err(not("has no per-lane address"));
    }
    let width = def.data_bytes();
    if width == 0 {
        return Err(not("has no fixed data width"));
    }
    let kind = if name.contains("_2addr") {
        if name.starts_with("ds_load") {
            AccessKind::Load2Addr
        } else if name.starts_with("ds_store_") {
            AccessKind::Store2Addr
        } else {
            AccessKind::Atomic2Addr
        }
    } else if name.starts_with("ds_load") {
        AccessKind::Load
    } else if name.starts_with("ds_store_") {
        AccessKind::Store
    } else {
        AccessKind::Atomic
    };
    Ok(DsAccess { width, kind })
}

/// The lanes of one executed DS instruction: each lane's LDS byte address (`addrs`; `addrs1`
/// the second address for 2addr instructions), the EXEC mask (`active`; lanes outside it are
/// ignored) and the wave size.
#[derive(Clone, Copy, Debug)]
pub struct DsLanes<'a, A> {
    /// First (or only) addresses, one per lane of the wave.
    pub addrs: &'a [A],
    /// Second addresses (2addr instructions), laid out like `addrs`.
    pub addrs1: Option<&'a [A]>,
    /// The active lanes.
    pub active: u64,
    /// The wave size.
    pub wave: WaveSize,
}

impl<'a, A: LaneAddress> DsLanes<'a, A> {
    /// One address per lane.
    pub fn new(addrs: &'a [A], active: u64, wave: WaveSize) -> DsLanes<'a, A> {
        DsLanes {
            addrs,
            addrs1: None,
            active,
            wave,
        }
    }

    /// Adds the second addresses of a 2addr instruction.
    pub fn with_second_addresses(self, addrs1: &'a [A]) -> DsLanes<'a, A> {
        DsLanes {
            addrs1: Some(addrs1),
            ..self
        }
    }

    /// The bank access these lanes make for DS instruction `def`
    /// (docs/rules/banks.md#ds-instructions-as-bank-accesses).
    pub fn access(&self, def: &InstrDef) -> Result<Access<'a, A>, AccessError> {
        let DsAccess { width, kind } = ds_access(def)?;
        Ok(Access {
            shape: AccessShape {
                width,
                kind,
                active: self.active,
                wave: self.wave,
            },
            addrs: self.addrs,
            addrs1: self.addrs1,
        })
    }
}

/// The bank cost of one executed DS instruction on `lanes`. Build the model once per run
/// ([`BankModel::preset`]) and reuse it; this call allocates nothing. Sub-dword instructions
/// (`ds_load_u8`, `ds_store_b16`, ...) group like `b32`, each lane touching the one word its
/// bytes lie in.
///
/// ```
/// use gpumemsim::banks::{ds_cost, BankModel, DsLanes, WaveSize};
/// let op = gpumemsim::isa::def::lookup_name("ds_load_b32").ok_or("not in the table")?;
/// let addrs: Vec<u32> = (0..32).map(|t| t * 128).collect();
/// let lanes = DsLanes::new(&addrs, u32::MAX as u64, WaveSize::Wave32);
/// let cost = ds_cost(&BankModel::rdna3(), op.def(), &lanes)?;
/// assert_eq!((cost.cost, cost.ideal, cost.conflicts()), (32, 1, 31));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn ds_cost<A: LaneAddress>(
    model: &BankModel,
    def: &InstrDef,
    lanes: &DsLanes<A>,
) -> Result<AccessCost, AccessError> {
    model.cost(&lanes.access(def)?)
}

/// [`ds_cost`] with the per-group breakdown.
pub fn ds_report<A: LaneAddress>(
    model: &BankModel,
    def: &InstrDef,
    lanes: &DsLanes<A>,
) -> Result<AccessReport, AccessError> {
    model.analyze(&lanes.access(def)?)
}
