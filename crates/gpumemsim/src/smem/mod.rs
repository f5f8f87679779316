//! Scalar memory (002_3ad2c63d57d82dd5.txt): `s_load_*` and `s_buffer_load_*` through the
//! scalar data cache, the invalidates, and the addressing, alignment and range rules.
//!
//! [`execute`] reads a wave's registers, computes the address, reads each dword through the
//! [`ScalarCache`] and answers *when* each destination register gets its value; the
//! executor writes them at those times (so a program that reads an SDST before its data
//! arrived sees the old value) and keeps LGKMcnt.
//!
//! Rules where the spec is silent or says "undefined", and what this model does:
//! - **SDST alignment** (§对齐和边界检查: even for 2 dwords, a multiple of 4 for more, "may
//!   produce invalid data"): the low bits of SDATA are ignored, so the data lands in the
//!   aligned registers, plus an `smem_alignment` event.
//! - **SDST range**: a destination dword that would land past TTMP15 (code 123) — in `null`,
//!   M0 or EXEC — is dropped, plus an `smem_range` event (none when SDATA is `null`: the
//!   program asked to discard).
//! - **SBASE range** (§对齐和边界检查: "if SBASE is out of range, SGPR0 is used"): a base
//!   pair or V# quad reaching past TTMP15 reads from s0 instead, plus `smem_range`.
//! - **SBASE alignment** of `s_buffer_load` (the field must be even, a V# starts at a
//!   multiple of 4): the low bit is ignored, plus `smem_alignment`.
//! - **Negative offsets**: for `s_load`, a negative immediate offset whose sum with SOFFSET
//!   is negative is "illegal and undefined" (§标量内存寻址): the 48-bit wrapping sum is used,
//!   plus `smem_offset`. For `s_buffer_load`, any negative immediate offset is a MEMVIOL
//!   (§使用缓冲区常量加载): nothing is loaded (the SDST keeps its value), plus `memviol`.
//! - **Buffer range**: a dword is in range when it lies wholly inside the first
//!   `m_size` bytes of the buffer; out-of-range dwords return 0 without a memory access
//!   (and an `smem_range` event).
//! - **`s_gl1_inv`**: the GL1 cache is not modelled separately from memory, so it changes
//!   no data (and does not touch the scalar cache: stale scalar data survives it).
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
        rdna3_isa::table::INSTRUCTIONS
            .iter()
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

/// The three V# fields a scalar buffer load uses (§使用缓冲区常量加载).
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
    /// LGKMcnt increment: 1 for one dword or an invalidate, 2 for more dwords (§依赖性检查).
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

/// Executes SMEM instruction `inst` of `op` for `wave` at cycle `now`: reads memory through
/// `cache` and says which registers get which values when. The wave itself is not changed.
pub fn execute(
    inst: &Instruction,
    op: SmemOp,
    wave: &Wave,
    mem: &GlobalMemory,
    cache: &mut ScalarCache,
    now: u64,
) -> SmemOutcome {
    let mut out = SmemOutcome::default();
    execute_into(inst, op, wave, mem, cache, now, &mut out);
    out
}

/// [`execute`] into a reused outcome (what a hot loop wants: no 300-byte copy per load).
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

    // SBASE: a pair (s_load) or a V# quad (s_buffer_load).
    let mut sbase = inst.get(Field::Sbase) * 2;
    let nbase = if buffer { 4 } else { 2 };
    if buffer && !sbase.is_multiple_of(4) {
        out.breaches.push((
            "smem_alignment",
            format!("s_buffer_load's SBASE s{sbase} is not a multiple of 4; the low bit of the field is ignored"),
        ));
        sbase &= !3;
    }
    if sbase + nbase - 1 > LAST_SMEM_SGPR {
        out.breaches.push((
            "smem_range",
            format!("SBASE register {sbase} is out of range; SGPR0 is used instead"),
        ));
        sbase = 0;
    }

    // SOFFSET: an SGPR, M0, or none.
    let soffset_code = inst.get(Field::Soffset);
    let soffset = match soffset_code {
        SGPR_NULL => 0,
        c if c == M0 => wave.m0(),
        c => wave.sreg(c),
    } as u64;
    let imm = sign_extend_21(inst.get(Field::Offset));

    let (addr, limit) = if buffer {
        let v =
            ScalarBufferConstant::from_words(std::array::from_fn(|i| wave.sreg(sbase + i as u32)));
        if imm < 0 {
            out.breaches.push((
                "memviol",
                format!(
                    "s_buffer_load with negative immediate offset {imm}: MEMVIOL, nothing loaded"
                ),
            ));
            return;
        }
        let offset = (imm as u64 + soffset) & !3;
        ((v.base & !3).wrapping_add(offset), Some((offset, v.size())))
    } else {
        let base = wave.sreg64(sbase);
        if imm < 0 && imm + (soffset as i64) < 0 {
            out.breaches.push((
                "smem_offset",
                format!("negative offset: immediate {imm} + SOFFSET {soffset} < 0 is undefined; the wrapping sum is used"),
            ));
        }
        (
            base.wrapping_add(imm as u64).wrapping_add(soffset) & !3,
            None,
        )
    };

    // SDST alignment and range.
    let sdata = inst.get(Field::Sdata);
    let align = match dwords {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    let mut sdst = sdata;
    if sdata != SGPR_NULL && !sdata.is_multiple_of(align) {
        sdst = sdata & !(align - 1);
        out.breaches.push((
            "smem_alignment",
            format!("SDST s{sdata} of a {dwords}-dword load must be a multiple of {align}; the data goes to s{sdst}"),
        ));
    }

    let mut done = now;
    let mut dropped = 0;
    let mut out_of_range = 0;
    let mut last: Option<(u64, LineHit)> = None;
    for i in 0..dwords {
        let a = addr.wrapping_add(4 * i as u64);
        let in_range = limit.is_none_or(|(offset, size)| offset + 4 * i as u64 + 4 <= size);
        let (value, at) = if in_range {
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
        done = done.max(at);
        let reg = sdst + i;
        if reg > LAST_SMEM_SGPR {
            dropped += 1;
            continue;
        }
        out.writes[out.count] = SgprWrite {
            reg: reg as u8,
            value,
            at,
        };
        out.count += 1;
    }
    out.done_at = done;
    if dropped > 0 && sdata != SGPR_NULL {
        out.breaches.push((
            "smem_range",
            format!("{dropped} destination dword(s) past TTMP15 were dropped"),
        ));
    }
    if out_of_range > 0 {
        let (offset, size) = limit.unwrap_or_default();
        out.breaches.push((
            "smem_range",
            format!("{out_of_range} of {dwords} dword(s) at buffer offset {offset:#x} are outside the buffer's {size} bytes and read 0"),
        ));
    }
}
