//! Scalar memory (docs/rules/smem.md#scalar-memory-loads): `s_load_*` and `s_buffer_load_*`
//! through the scalar data cache, the invalidates, and the addressing, alignment and range
//! rules.
//!
//! [`execute_into`] reads a wave's registers, computes the address, reads each dword through
//! the [`ScalarCache`] and answers *when* each destination register gets its value; the
//! executor writes them at those times (so a program that reads an SDST before its data
//! arrived sees the old value) and keeps LGKMcnt.
//!
//! Rules where the hardware's answer is undefined, and what this model does:
//! - **SDST alignment** (docs/rules/smem.md#sdst-alignment: even for 2 dwords, a multiple of
//!   4 for more, else the data may be invalid): the low bits of SDATA are ignored, so the
//!   data lands in the aligned registers, plus an `smem_alignment` event.
//! - **SDST range** (docs/rules/smem.md#sdst-range): a destination dword that would land past
//!   TTMP15 (code 123) — in `null`, M0 or EXEC — is dropped, plus an `smem_range` event (none
//!   when SDATA is `null`: the program asked to discard).
//! - **SBASE range** (docs/rules/smem.md#sbase-alignment-and-range: an out-of-range SBASE
//!   reads SGPR0): a base pair or V# quad reaching past TTMP15 reads from s0 instead, plus
//!   `smem_range`.
//! - **SBASE alignment** of `s_buffer_load` (the field must be even, a V# starts at a
//!   multiple of 4): the low bit is ignored, plus `smem_alignment`.
//! - **Negative offsets**: for `s_load`, a negative immediate offset whose sum with SOFFSET
//!   is negative is illegal and undefined (docs/rules/smem.md#scalar-memory-addressing): the
//!   wrapping sum is used, plus `smem_offset`. For `s_buffer_load`, any negative immediate
//!   offset is a MEMVIOL (docs/rules/smem.md#loads-using-a-buffer-constant): nothing is loaded
//!   (the SDST keeps its value), plus `memviol`.
//! - **Buffer range** (docs/rules/smem.md#buffer-range): a dword is in range when it lies
//!   wholly inside the first `m_size` bytes of the buffer; out-of-range dwords return 0
//!   without a memory access (and an `smem_range` event).
//! - **`s_gl1_inv`** (docs/rules/smem.md#invalidates): the GL1 cache is not modelled
//!   separately from memory, so it changes no data (and does not touch the scalar cache:
//!   stale scalar data survives it).
//! - **`s_atc_probe`, `s_atc_probe_buffer`**: the address-translation cache is not
//!   modelled (every translation is present); they return nothing and count 1 on LGKMcnt
//!   like an invalidate.

mod clause;
mod kcache;

pub use clause::{Breach, ClauseClass, ClauseTracker};
pub use kcache::{KcacheConfig, KcacheStats, LineHit, ScalarCache};

use std::sync::OnceLock;

use rdna3_isa::def::{InstrDef, Opcode};
use rdna3_isa::inst::SGPR_NULL;
use rdna3_isa::regs::M0;
use rdna3_isa::{Field, Format, Instruction};

use crate::addr::GlobalMemory;
use crate::wave::Wave;

/// Highest scalar register code an SMEM base or destination may use (TTMP15).
pub const LAST_SMEM_SGPR: u32 = 123;

/// What an SMEM instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmemOp {
    /// `s_load_bN` (`buffer: false`) or `s_buffer_load_bN`: `dwords` dwords.
    Load {
        /// Dwords loaded (1, 2, 4, 8, 16).
        dwords: u32,
        /// Through a V# (`s_buffer_load`).
        buffer: bool,
    },
    /// `s_dcache_inv`.
    DcacheInv,
    /// `s_gl1_inv`.
    Gl1Inv,
    /// `s_atc_probe` / `s_atc_probe_buffer`.
    AtcProbe,
}

/// Classifies an SMEM table entry by its mnemonic; `None` for one this model lacks.
pub fn smem_op(d: &InstrDef) -> Option<SmemOp> {
    Some(match d.name {
        "s_dcache_inv" => SmemOp::DcacheInv,
        "s_gl1_inv" => SmemOp::Gl1Inv,
        "s_atc_probe" | "s_atc_probe_buffer" => SmemOp::AtcProbe,
        n => {
            let buffer = n.starts_with("s_buffer_load_");
            if !buffer && !n.starts_with("s_load_") {
                return None;
            }
            SmemOp::Load {
                dwords: d.data_bytes() / 4,
                buffer,
            }
        }
    })
}

/// [`smem_op`] of a table entry, classified once per process (the classification matches
/// on names, too slow to repeat per executed instruction).
pub fn smem_op_of(op: Opcode) -> Option<SmemOp> {
    static CACHE: OnceLock<Vec<Option<SmemOp>>> = OnceLock::new();
    CACHE.get_or_init(|| {
        rdna3_isa::def::every()
            .map(|(_, d)| d)
            .map(|d| {
                if d.format == Format::Smem {
                    smem_op(d)
                } else {
                    None
                }
            })
            .collect()
    })[op.0 as usize]
}

/// The clause class of an instruction (see [`ClauseTracker`]).
pub fn clause_class(op: Opcode) -> ClauseClass {
    match smem_op_of(op) {
        Some(SmemOp::DcacheInv | SmemOp::Gl1Inv) => ClauseClass::Invalidate,
        Some(_) => ClauseClass::Smem,
        None => ClauseClass::Other,
    }
}

/// The three V# fields a scalar buffer load uses
/// (docs/rules/smem.md#loads-using-a-buffer-constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScalarBufferConstant {
    /// `m_base = { SGPR[1][15:0], SGPR[0] }` (48 bits).
    pub base: u64,
    /// `m_stride = SGPR[1][31:16]` (the spec's 16 bits, used only for the range check).
    pub stride: u32,
    /// `m_num_records = SGPR[2]`.
    pub num_records: u32,
}

impl ScalarBufferConstant {
    /// From the four V# dwords.
    pub fn from_words(w: [u32; 4]) -> ScalarBufferConstant {
        ScalarBufferConstant {
            base: (w[1] as u64 & 0xffff) << 32 | w[0] as u64,
            stride: w[1] >> 16,
            num_records: w[2],
        }
    }

    /// `m_size = (m_stride == 0 ? 1 : m_stride) × m_num_records`, in bytes.
    pub fn size(&self) -> u64 {
        self.stride.max(1) as u64 * self.num_records as u64
    }
}

/// One destination register's value and when it arrives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgprWrite {
    /// Scalar register code.
    pub reg: u8,
    /// Value.
    pub value: u32,
    /// Cycle it arrives.
    pub at: u64,
}

/// What one SMEM instruction produced.
#[derive(Clone, Debug, Default)]
pub struct SmemOutcome {
    /// Register writes, in dword order (only the first `count` are meaningful).
    pub writes: [SgprWrite; 16],
    /// Number of writes.
    pub count: usize,
    /// When the whole instruction completes (LGKMcnt drops by `weight`).
    pub done_at: u64,
    /// LGKMcnt increment: 1 for one dword or an invalidate, 2 for more dwords
    /// (docs/rules/smem.md#dependency-checking).
    pub weight: u32,
    /// Rules the instruction broke: (event kind, message).
    pub breaches: Vec<(&'static str, String)>,
}

impl SmemOutcome {
    /// The writes.
    #[inline]
    pub fn writes(&self) -> &[SgprWrite] {
        &self.writes[..self.count]
    }
}

fn sign_extend_21(v: u32) -> i64 {
    ((v << 11) as i32 >> 11) as i64
}

/// Where a load reads: the first dword's byte address and, for `s_buffer_load`, the buffer
/// offset and size the range check uses.
#[derive(Clone, Copy, Debug)]
struct LoadAddress {
    /// Byte address of the first dword (4-aligned).
    addr: u64,
    /// `(buffer offset, buffer size)` in bytes; `None` for `s_load` (no range check).
    limit: Option<(u64, u64)>,
}

/// Executes SMEM instruction `inst` of `op` for `wave` at cycle `now` into `out` (reused
/// between calls: a hot loop makes no 300-byte copy per load; start from
/// `SmemOutcome::default()`): reads memory through `cache` and says which registers get
/// which values when. The wave itself is not changed.
pub fn execute_into(
    inst: &Instruction,
    op: SmemOp,
    wave: &Wave,
    mem: &GlobalMemory,
    cache: &mut ScalarCache,
    now: u64,
    out: &mut SmemOutcome,
) {
    out.count = 0;
    out.breaches.clear();
    out.weight = 1;
    out.done_at = now + cache.config().hit_latency;
    let (dwords, buffer) = match op {
        SmemOp::Load { dwords, buffer } => (dwords, buffer),
        SmemOp::DcacheInv => {
            cache.invalidate();
            return;
        }
        SmemOp::Gl1Inv | SmemOp::AtcProbe => return,
    };
    out.weight = if dwords > 1 { 2 } else { 1 };
    let sbase = base_register(inst, buffer, &mut out.breaches);
    let Some(at) = load_address(inst, wave, sbase, buffer, &mut out.breaches) else {
        return;
    };
    let sdata = inst.get(Field::Sdata);
    let sdst = destination_register(sdata, dwords, &mut out.breaches);
    let out_of_range = read_dwords(mem, cache, now, at, sdst, dwords, out);
    let dropped = dwords as usize - out.count;
    if dropped > 0 && sdata != SGPR_NULL {
        out.breaches.push((
            "smem_range",
            format!("{dropped} destination dword(s) past TTMP15 were dropped"),
        ));
    }
    if out_of_range > 0 {
        let (offset, size) = at.limit.unwrap_or_default();
        out.breaches.push((
            "smem_range",
            format!("{out_of_range} of {dwords} dword(s) at buffer offset {offset:#x} are outside the buffer's {size} bytes and read 0"),
        ));
    }
}

/// The first SGPR of the base: a pair (`s_load`) or a V# quad (`s_buffer_load`), with the
/// alignment and range rules applied (docs/rules/smem.md#sbase-alignment-and-range).
fn base_register(inst: &Instruction, buffer: bool, breaches: &mut Vec<Breach>) -> u32 {
    let mut sbase = inst.get(Field::Sbase) * 2;
    let nbase = if buffer { 4 } else { 2 };
    if buffer && !sbase.is_multiple_of(4) {
        breaches.push((
            "smem_alignment",
            format!("s_buffer_load's SBASE s{sbase} is not a multiple of 4; the low bit of the field is ignored"),
        ));
        sbase &= !3;
    }
    if sbase + nbase - 1 > LAST_SMEM_SGPR {
        breaches.push((
            "smem_range",
            format!("SBASE register {sbase} is out of range; SGPR0 is used instead"),
        ));
        sbase = 0;
    }
    sbase
}

/// The load's address from the base at `sbase`, the immediate offset and SOFFSET (an SGPR,
/// M0, or none); `None` when a negative offset of `s_buffer_load` makes it a MEMVIOL
/// (docs/rules/smem.md#scalar-memory-addressing,
/// docs/rules/smem.md#loads-using-a-buffer-constant).
fn load_address(
    inst: &Instruction,
    wave: &Wave,
    sbase: u32,
    buffer: bool,
    breaches: &mut Vec<Breach>,
) -> Option<LoadAddress> {
    let soffset = match inst.get(Field::Soffset) {
        SGPR_NULL => 0,
        c if c == M0 => wave.m0(),
        c => wave.sreg(c),
    } as u64;
    let imm = sign_extend_21(inst.get(Field::Offset));
    if buffer {
        let v =
            ScalarBufferConstant::from_words(std::array::from_fn(|i| wave.sreg(sbase + i as u32)));
        if imm < 0 {
            breaches.push((
                "memviol",
                format!(
                    "s_buffer_load with negative immediate offset {imm}: MEMVIOL, nothing loaded"
                ),
            ));
            return None;
        }
        let offset = (imm as u64 + soffset) & !3;
        return Some(LoadAddress {
            addr: (v.base & !3).wrapping_add(offset),
            limit: Some((offset, v.size())),
        });
    }
    if imm < 0 && imm + (soffset as i64) < 0 {
        breaches.push((
            "smem_offset",
            format!("negative offset: immediate {imm} + SOFFSET {soffset} < 0 is undefined; the wrapping sum is used"),
        ));
    }
    Some(LoadAddress {
        addr: wave
            .sreg64(sbase)
            .wrapping_add(imm as u64)
            .wrapping_add(soffset)
            & !3,
        limit: None,
    })
}

/// The first destination SGPR for SDATA `sdata` of a `dwords`-dword load: the low bits of a
/// misaligned SDATA are ignored (docs/rules/smem.md#sdst-alignment).
fn destination_register(sdata: u32, dwords: u32, breaches: &mut Vec<Breach>) -> u32 {
    let align = match dwords {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    if sdata == SGPR_NULL || sdata.is_multiple_of(align) {
        return sdata;
    }
    let sdst = sdata & !(align - 1);
    breaches.push((
        "smem_alignment",
        format!("SDST s{sdata} of a {dwords}-dword load must be a multiple of {align}; the data goes to s{sdst}"),
    ));
    sdst
}

/// Reads the `dwords` dwords at `at` through `cache` into `out`'s writes to SGPRs from
/// `sdst` on: dwords outside the buffer read 0 (docs/rules/smem.md#buffer-range), dwords
/// past TTMP15 are left out (docs/rules/smem.md#sdst-range). Sets `out.done_at`; returns
/// the number of dwords outside the buffer.
fn read_dwords(
    mem: &GlobalMemory,
    cache: &mut ScalarCache,
    now: u64,
    at: LoadAddress,
    sdst: u32,
    dwords: u32,
    out: &mut SmemOutcome,
) -> u32 {
    let mut done = now;
    let mut out_of_range = 0;
    let mut last: Option<(u64, LineHit)> = None;
    for i in 0..dwords {
        let a = at.addr.wrapping_add(4 * i as u64);
        let in_range = at
            .limit
            .is_none_or(|(offset, size)| offset + 4 * i as u64 + 4 <= size);
        let (value, ready) = if in_range {
            let line = cache.line_of(a);
            let h = match last {
                Some((l, h)) if l == line => h,
                _ => {
                    let h = cache.lookup(mem, line, now);
                    last = Some((line, h));
                    h
                }
            };
            (cache.dword(&h, a), h.ready_at)
        } else {
            out_of_range += 1;
            (0, now + cache.config().hit_latency)
        };
        done = done.max(ready);
        let reg = sdst + i;
        if reg > LAST_SMEM_SGPR {
            continue;
        }
        out.writes[out.count] = SgprWrite {
            reg: reg as u8,
            value,
            at: ready,
        };
        out.count += 1;
    }
    out.done_at = done;
    out_of_range
}
