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
/// - `ds_load_*` are loads and `ds_store_*` stores (incl. the `addtid` forms, whose addresses
///   `LDS_BASE + offset + TID*4 + M0` the caller computes, 000_b892342bad162b52.txt
///   §DS_{LOAD,STORE}_ADDTID 寻址, and the `d16` forms); `ds_load_2addr*`, `ds_store_2addr*`
///   and `ds_storexchg_2addr*` are 2addr (§双地址指令: `LDS_Addr0`/`LDS_Addr1`; the caller
///   applies the offsets, scaled for the `stride64` forms); every other DS instruction with a
///   per-lane address is an atomic (§LDS 原子操作).
/// - Not bank accesses: GDS-only instructions (GWS, ordered count, GS registers), `ds_nop`,
///   `ds_swizzle_b32`, `ds_permute_b32` and `ds_bpermute_b32` (they use the LDS crossbar, not
///   its memory: §LDS 通道置换操作), `ds_append`/`ds_consume` (one wave-level counter at the M0
///   address) and `ds_bvh_stack_rtn_b32` (addresses depend on the stack data).
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

/// The bank cost of one executed DS instruction: `addrs` holds each lane's LDS byte address
/// (`addrs1` the second address for 2addr instructions, else `None`), `active` the EXEC mask,
/// `wave` the wave size. Lanes outside `active` are ignored. Build the model once per run
/// ([`BankModel::preset`]) and reuse it; this call allocates nothing. Sub-dword instructions
/// (`ds_load_u8`, `ds_store_b16`, ...) group like `b32`, each lane touching the one word its
/// bytes lie in.
///
/// ```
/// use gpumemsim::banks::{ds_cost, BankModel, WaveSize};
/// let op = gpumemsim::isa::def::lookup_name("ds_load_b32").ok_or("not in the table")?;
/// let addrs: Vec<u32> = (0..32).map(|t| t * 128).collect();
/// let all = u32::MAX as u64;
/// let cost = ds_cost(&BankModel::rdna3(), op.def(), &addrs, None, all, WaveSize::Wave32)?;
/// assert_eq!((cost.cost, cost.ideal, cost.conflicts()), (32, 1, 31));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn ds_cost<A: LaneAddress>(
    model: &BankModel,
    def: &InstrDef,
    addrs: &[A],
    addrs1: Option<&[A]>,
    active: u64,
    wave: WaveSize,
) -> Result<AccessCost, AccessError> {
    model.cost(&ds_access_of(def, addrs, addrs1, active, wave)?)
}

/// [`ds_cost`] with the per-group breakdown.
pub fn ds_report<A: LaneAddress>(
    model: &BankModel,
    def: &InstrDef,
    addrs: &[A],
    addrs1: Option<&[A]>,
    active: u64,
    wave: WaveSize,
) -> Result<AccessReport, AccessError> {
    model.analyze(&ds_access_of(def, addrs, addrs1, active, wave)?)
}

fn ds_access_of<'a, A: LaneAddress>(
    def: &InstrDef,
    addrs: &'a [A],
    addrs1: Option<&'a [A]>,
    active: u64,
    wave: WaveSize,
) -> Result<Access<'a, A>, AccessError> {
    let DsAccess { width, kind } = ds_access(def)?;
    Ok(Access {
        shape: AccessShape {
            width,
            kind,
            active,
            wave,
        },
        addrs,
        addrs1,
    })
}
