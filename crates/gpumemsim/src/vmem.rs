//! Vector memory through the FLAT encoding: the `flat_`, `global_` and `scratch_` loads and
//! stores of every width (incl. `d16`/`d16_hi`) over a wave under EXEC (AMD's RDNA3
//! pseudocode, FLAT/GLOBAL/SCRATCH 16-86), and the MUBUF `buffer_load_*`/`buffer_store_*`/
//! `buffer_atomic_*` of the same widths. The typed (`_format_`) forms are not implemented yet: [`global_op`] returns `None` for them and the executor stops with their
//! name.
//!
//! Addressing (docs/rules/addressing.md#global-addressing,
//! docs/rules/addressing.md#scratch-addressing, docs/rules/addressing.md#flat-routing-per-lane,
//! docs/rules/addressing.md#buffer-addressing):
//! - GLOBAL: with SADDR, the lane address is the SGPR pair plus the lane's 32-bit VGPR offset
//!   (zero-extended); with SADDR = `off`, the lane's VGPR pair holds a 64-bit address. The
//!   13-bit immediate offset is signed on gfx11. The `addtid` forms use SADDR + offset + lane
//!   id × 4 and no VGPR.
//! - SCRATCH: the private offset is SADDR (one SGPR) + VADDR (when SVE) + offset, placed by
//!   the swizzled layout of [`ScratchLayout`].
//! - FLAT: the lane's 64-bit address is routed by its own aperture — LDS, scratch or global —
//!   so one instruction may touch all three.
//! - MUBUF: through the V# in four SGPRs ([`BufferDescriptor`]): index from VADDR with
//!   `idxen`, offset from VADDR (the next VGPR when both) with `offen` plus the 12-bit
//!   immediate, SOFFSET added outside the range check; out-of-range dwords read 0 and are
//!   not written.
//!
//! Atomics (every `*_atomic_*` of these encodings) run lane by lane in lane order, through
//! [`crate::atomic`], with the memory float rules of [`MemoryFloatRules`]; the pre-op value
//! returns when `glc` is set. A buffer atomic is range-checked all or nothing.
//!
//! Loads compute their data when they issue; the executor holds it back until they complete
//! (VMcnt) and only then writes the VGPRs, as it does for LDS loads (docs/timing.md, "Data in
//! flight"). Stores write memory directly: the scalar cache does not
//! see them (see [`crate::smem::ScalarCache`]).

use std::sync::OnceLock;

use rdna3_isa::def::{InstrDef, Opcode};
use rdna3_isa::inst::SGPR_NULL;
use rdna3_isa::{Field, Format, Instruction};

use crate::addr::{Aperture, Apertures, BufferDescriptor, GlobalMemory, ScratchLayout};
use crate::atomic::{atomic64, memory_atomic32, AtomicOp, MemoryFloatRules};
use crate::lds::{Lds, LdsAllocation};
use crate::vmem_format::BufferFormat;
use crate::wave::Wave;

mod runs;
#[cfg(test)]
mod tests_runs;

/// What a GLOBAL instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalOp {
    /// A load of `bytes` (1, 2, 4, 8, 12, 16).
    Load {
        /// Bytes per lane.
        bytes: u32,
        /// Sign-extend a 1- or 2-byte value.
        signed: bool,
        /// Into one half of the VGPR (`d16`): `Some(false)` the low half, `Some(true)` the
        /// high half; the other half is kept.
        d16: Option<bool>,
    },
    /// A store of `bytes`; `hi` stores the high 16 bits' low bytes (`d16_hi`).
    Store {
        /// Bytes per lane.
        bytes: u32,
        /// Take the data from bits \[31:16\].
        hi: bool,
    },
    /// A typed (format) load or store of `components` (1-4, x to xyzw) through a buffer
    /// format ([`crate::vmem_format`]): the instruction's `format` field (`tbuffer`) or the
    /// V#'s (`buffer_*_format_*`).
    Format {
        /// A store.
        store: bool,
        /// Components moved.
        components: u32,
        /// 16 bits per component (`d16`): `Some(false)` packed from the low half of the
        /// first VGPR, `Some(true)` into the high half (`d16_hi`, x only).
        d16: Option<bool>,
    },
    /// `buffer_load_lds_*`: a load of `bytes` (1, 2 or 4; `format` for the typed x form)
    /// written as one dword per lane to LDS instead of VGPRs, at M0\[15:0\] + the instruction
    /// offset + lane × 4 in the workgroup's allocation (the "buffer load to LDS" addressing of
    /// AMD's GCN3/Vega ISA manuals, `LDS_ADDR = LDS_base + LDS_offset + inst_offset + TID×4`;
    /// the RDNA3 pseudocode has no entry for these opcodes;
    /// docs/rules/addressing.md#buffer-loads-to-lds).
    LoadLds {
        /// Bytes per lane read from memory.
        bytes: u32,
        /// Sign-extend a 1- or 2-byte value.
        signed: bool,
        /// Convert through the V#'s format (`buffer_load_lds_format_x`).
        format: bool,
    },
    /// An atomic read-modify-write of `bytes` (4 or 8); the pre-op value returns with `glc`.
    Atomic {
        /// The operation.
        op: AtomicOp,
        /// 4 or 8.
        bytes: u32,
    },
}

impl GlobalOp {
    /// Whether it only reads global memory (a load, typed or into LDS): it waits on VMcnt
    /// and looks its lines up from the vector L0; stores and atomics write.
    pub fn is_load(self) -> bool {
        matches!(
            self,
            GlobalOp::Load { .. }
                | GlobalOp::LoadLds { .. }
                | GlobalOp::Format { store: false, .. }
        )
    }
}

/// The atomic of a mnemonic's `<op>_<type>` part (`add_u32`, `cmpswap_f32`, ...).
fn atomic_of(rest: &str) -> Option<GlobalOp> {
    let (op, ty) = rest.rsplit_once('_')?;
    let float = ty.starts_with('f');
    let signed = ty.starts_with('i');
    let bytes = if ty.ends_with("64") { 8 } else { 4 };
    let op = match op {
        // gfx942's packed 16-bit float adds (`global_atomic_pk_add_f16`, ...).
        "pk_add" if ty == "f16" => AtomicOp::PkAddF16,
        "pk_add" if ty == "bf16" => AtomicOp::PkAddBf16,
        "swap" => AtomicOp::Xchg,
        "cmpswap" if float => AtomicOp::CmpstoreF,
        "cmpswap" => AtomicOp::Cmpstore,
        "add" if float => AtomicOp::AddF,
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "csub" => AtomicOp::Csub,
        "min" if float => AtomicOp::MinF,
        "min" if signed => AtomicOp::MinI,
        "min" => AtomicOp::MinU,
        "max" if float => AtomicOp::MaxF,
        "max" if signed => AtomicOp::MaxI,
        "max" => AtomicOp::MaxU,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        "inc" => AtomicOp::Inc,
        "dec" => AtomicOp::Dec,
        _ => return None,
    };
    Some(GlobalOp::Atomic { op, bytes })
}

/// Classifies a FLAT, GLOBAL, SCRATCH, MUBUF or MTBUF table entry by its mnemonic (`None`
/// for any other, and for the cache invalidates `buffer_gl0_inv`/`buffer_gl1_inv`).
pub fn global_op(d: &InstrDef) -> Option<GlobalOp> {
    if !matches!(
        d.format,
        Format::Flat | Format::Global | Format::Scratch | Format::Mubuf | Format::Mtbuf
    ) {
        return None;
    }
    if let Some(ty) = d.name.strip_prefix("buffer_load_lds_") {
        let (bytes, signed, format) = match ty {
            "u8" => (1, false, false),
            "i8" => (1, true, false),
            "u16" => (2, false, false),
            "i16" => (2, true, false),
            "b32" => (4, false, false),
            "format_x" => (4, false, true),
            _ => return None,
        };
        return Some(GlobalOp::LoadLds {
            bytes,
            signed,
            format,
        });
    }
    if let Some((head, comps)) = d.name.rsplit_once("_format_") {
        let components = match comps {
            "x" => 1,
            "xy" => 2,
            "xyz" => 3,
            "xyzw" => 4,
            _ => return None,
        };
        let d16 = if head.ends_with("_d16_hi") {
            Some(true)
        } else if head.ends_with("_d16") {
            Some(false)
        } else {
            None
        };
        return Some(GlobalOp::Format {
            store: head.contains("_store"),
            components,
            d16,
        });
    }
    let n = d
        .name
        .strip_prefix("global_")
        .or_else(|| d.name.strip_prefix("flat_"))
        .or_else(|| d.name.strip_prefix("scratch_"))
        .or_else(|| d.name.strip_prefix("buffer_"))?;
    if let Some(rest) = n.strip_prefix("atomic_") {
        return atomic_of(rest);
    }
    if let Some(rest) = n.strip_prefix("store_") {
        let hi = rest.starts_with("d16_hi_");
        let bytes = match rest
            .trim_start_matches("d16_hi_")
            .trim_start_matches("addtid_")
        {
            "b8" => 1,
            "b16" => 2,
            "b32" => 4,
            "b64" => 8,
            "b96" => 12,
            "b128" => 16,
            _ => return None,
        };
        return Some(GlobalOp::Store { bytes, hi });
    }
    let rest = n.strip_prefix("load_")?;
    let (d16, ty) = if let Some(t) = rest.strip_prefix("d16_hi_") {
        (Some(true), t)
    } else if let Some(t) = rest.strip_prefix("d16_") {
        (Some(false), t)
    } else {
        (None, rest.trim_start_matches("addtid_"))
    };
    let (bytes, signed) = match ty {
        "u8" => (1, false),
        "i8" => (1, true),
        "u16" | "b16" => (2, false),
        "i16" => (2, true),
        "b32" => (4, false),
        "b64" => (8, false),
        "b96" => (12, false),
        "b128" => (16, false),
        _ => return None,
    };
    Some(GlobalOp::Load { bytes, signed, d16 })
}

/// [`global_op`] of a table entry, classified once per process.
pub fn global_op_of(op: Opcode) -> Option<GlobalOp> {
    static CACHE: OnceLock<Vec<Option<GlobalOp>>> = OnceLock::new();
    CACHE.get_or_init(|| {
        rdna3_isa::def::every()
            .map(|(_, d)| d)
            .map(global_op)
            .collect()
    })[op.0 as usize]
}

/// Whether `op` is a `*_addtid_*` instruction (looked up once per process, not per lane).
fn is_addtid(op: Opcode) -> bool {
    static ADDTID: OnceLock<Vec<bool>> = OnceLock::new();
    ADDTID.get_or_init(|| {
        rdna3_isa::def::every()
            .map(|(_, d)| d)
            .map(|d| d.name.contains("addtid"))
            .collect()
    })[op.0 as usize]
}

/// The byte address lane `lane` of `wave` gives a GLOBAL or FLAT instruction (for FLAT, a
/// flat address still to route through the apertures).
pub fn global_address(inst: &Instruction, wave: &Wave, lane: u32) -> u64 {
    let offset = sext13(inst.get(Field::Offset));
    let saddr = inst.get(Field::Saddr);
    let addtid = is_addtid(inst.opcode);
    let base = if addtid {
        let b = if saddr == SGPR_NULL {
            0
        } else {
            wave.sreg64(saddr)
        };
        b.wrapping_add(4 * lane as u64)
    } else if saddr == SGPR_NULL {
        let v = inst.get(Field::Addr);
        wave.vgpr(v, lane) as u64 | (wave.vgpr(v + 1, lane) as u64) << 32
    } else {
        wave.sreg64(saddr)
            .wrapping_add(wave.vgpr(inst.get(Field::Addr), lane) as u64)
    };
    base.wrapping_add(offset)
}

fn sext13(v: u32) -> u64 {
    ((v << 19) as i32 >> 19) as i64 as u64
}

/// The private offset lane `lane` of `wave` gives a SCRATCH instruction: SADDR (one SGPR, if
/// not `off`) + VADDR (if SVE) + the signed immediate offset, wrapping at 32 bits.
pub fn scratch_offset(inst: &Instruction, wave: &Wave, lane: u32) -> u32 {
    let saddr = inst.get(Field::Saddr);
    let s = if saddr == SGPR_NULL {
        0
    } else {
        wave.sreg(saddr)
    };
    let v = if inst.get(Field::Sve) == 1 {
        wave.vgpr(inst.get(Field::Addr), lane)
    } else {
        0
    };
    s.wrapping_add(v)
        .wrapping_add(sext13(inst.get(Field::Offset)) as u32)
}

/// Where one lane's access goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Global memory at this address (bytes consecutive).
    Global(u64),
    /// The workgroup's LDS at this offset of its allocation.
    Lds(u32),
    /// The lane's private memory at this offset (bytes placed by the swizzled layout).
    Scratch(u32),
    /// A buffer record `index`, byte `offset`, plus `soffset`, through the instruction's V#.
    Buffer {
        /// Record index (lane id included when the V# adds it).
        index: u32,
        /// Byte offset in the record (VGPR offset + instruction offset).
        offset: u32,
        /// SGPR offset.
        soffset: u32,
    },
}

/// What a vector memory instruction may touch besides the wave.
pub struct VmemEnv<'a> {
    /// Global memory.
    pub mem: &'a mut GlobalMemory,
    /// The workgroup's LDS (flat accesses to the shared aperture).
    pub lds: &'a mut Lds,
    /// Its allocation.
    pub alloc: LdsAllocation,
    /// The wave's scratch layout.
    pub scratch: ScratchLayout,
    /// The flat apertures.
    pub apertures: Apertures,
    /// The denormal rules of float atomics to memory.
    pub float_rules: MemoryFloatRules,
    /// The instruction set the program came from: its V# layout ([`BufferDescriptor`]).
    pub isa: rdna3_isa::Isa,
}

/// The V# a MUBUF instruction names (four SGPRs from `srsrc` × 4), in the layout of `isa`.
pub fn buffer_descriptor(inst: &Instruction, wave: &Wave, isa: rdna3_isa::Isa) -> BufferDescriptor {
    let r = inst.get(Field::Srsrc) * 4;
    let words = std::array::from_fn(|i| wave.sreg(r + i as u32));
    match isa {
        rdna3_isa::Isa::Gfx11 => BufferDescriptor::from_words(words),
        rdna3_isa::Isa::Gfx940 => BufferDescriptor::from_words_gfx9(words),
    }
}

/// Lanes whose access fell outside what they may touch (the access was dropped: loads read
/// 0, stores wrote nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VmemOutcome {
    /// Lanes that accessed memory.
    pub lanes: u32,
    /// Flat accesses to the shared aperture outside the LDS allocation.
    pub lds_out_of_range: u32,
    /// Private accesses past the lane's `scratch_size`.
    pub scratch_out_of_range: u32,
    /// Buffer accesses with a component outside the V#'s range.
    pub buffer_out_of_range: u32,
    /// Lanes (a mask) whose global access fell outside every host allocation
    /// ([`crate::addr::Allocations`]).
    pub out_of_bounds: u64,
    /// The first such lane's address.
    pub out_of_bounds_at: u64,
    /// A typed access met a buffer format [`BufferFormat`] does not implement (the value).
    pub unsupported_format: Option<u32>,
    /// Lanes (a mask) whose global address lies outside the 48-bit virtual address space
    /// ([`in_virtual_range`]): the access was dropped.
    pub beyond_va: u64,
    /// The first such lane's address.
    pub beyond_va_at: u64,
    /// Lanes (a mask) whose private access reached past their wave's scratch region into the
    /// next wave's ([`ScratchLayout::spills_past_wave`]): the access happened there.
    pub scratch_overlap: u64,
    /// The first such lane's global address.
    pub scratch_overlap_at: u64,
}

/// Whether a 64-bit global address is inside the 48-bit virtual address space the GPU shares
/// with the host: 48 bits, as on the CPU; the flat apertures sit above it so they cannot
/// overlap it (docs/rules/addressing.md#addresses-outside-the-virtual-space).
///
/// Inside: bits \[63:48\] zero (the space [`GlobalMemory`] holds), or the sign extension of
/// bit 47 (the canonical upper half, which the 48-bit address bits name the same way). Any
/// other address — one a flat address outside both apertures or a global address can reach
/// with stray high bits — is not a virtual address: the hardware faults (a memory
/// violation), so the access is dropped (loads read 0, stores and atomics do nothing) and
/// reported as `flat_address_range`, where before it wrapped modulo 2^48 into global memory.
#[inline]
pub fn in_virtual_range(addr: u64) -> bool {
    let high = addr >> crate::addr::ADDRESS_BITS;
    high == 0 || (high == 0xffff && addr >> 47 & 1 == 1)
}

/// The route of lane `lane`: GLOBAL goes to global memory, SCRATCH to the private offset,
/// FLAT by the aperture its address falls in (each lane on its own).
pub fn route(
    inst: &Instruction,
    wave: &Wave,
    lane: u32,
    apertures: &Apertures,
    isa: rdna3_isa::Isa,
) -> Route {
    match inst.def().format {
        Format::Scratch => Route::Scratch(scratch_offset(inst, wave, lane)),
        Format::Mubuf | Format::Mtbuf => {
            let (idxen, offen) = (inst.get(Field::Idxen) == 1, inst.get(Field::Offen) == 1);
            let v = inst.get(Field::Vaddr);
            let vindex = if idxen { wave.vgpr(v, lane) } else { 0 };
            let voffset = match (idxen, offen) {
                (true, true) => wave.vgpr(v + 1, lane),
                (false, true) => wave.vgpr(v, lane),
                _ => 0,
            };
            let d = buffer_descriptor(inst, wave, isa);
            Route::Buffer {
                index: d.index(vindex, lane),
                offset: voffset.wrapping_add(inst.get(Field::Offset)),
                soffset: wave.ssrc32(inst.get(Field::Soffset), None),
            }
        }
        Format::Flat => {
            let a = global_address(inst, wave, lane);
            match apertures.resolve(a) {
                (Aperture::Shared, off) => Route::Lds(off as u32),
                (Aperture::Private, off) => Route::Scratch(off as u32),
                (Aperture::Global, a) => Route::Global(a),
            }
        }
        _ => Route::Global(global_address(inst, wave, lane)),
    }
}

/// One lane's access: its lane, where it goes, and the V# of a buffer instruction.
#[derive(Clone, Copy)]
struct LaneAccess<'d> {
    desc: Option<&'d BufferDescriptor>,
    lane: u32,
    route: Route,
}

/// Reads or writes `buf` (the access's bytes) at the lane's route; `false` when the access
/// is out of range and was dropped (a dropped read leaves `buf` zero).
///
/// Out-of-range private accesses (a choice, documented as the hardware's buffer rule: the
/// private segment is a swizzled buffer whose records are the lanes' `scratch_size` bytes, and
/// out-of-range buffer loads return 0 and stores are dropped): any byte at or past
/// `scratch_size` drops the whole access (docs/rules/addressing.md#private-accesses-out-of-range). Flat accesses to LDS follow the DS model's
/// allocation bound (the whole access is dropped). Buffer accesses are checked per dword
/// ([`BufferDescriptor::in_range`]). Global accesses must lie inside one host allocation
/// when any is registered ([`crate::addr::Allocations`]); one that does not is dropped whole
/// (docs/rules/addressing.md#host-allocations).
fn transfer(env: &mut VmemEnv, a: LaneAccess, wave_id: u32, buf: &mut [u8], store: bool) -> bool {
    let LaneAccess { desc, lane, route } = a;
    let n = buf.len() as u32;
    match route {
        Route::Buffer {
            index,
            offset,
            soffset,
        } => {
            let Some(d) = desc else { return false };
            let mut all_in = true;
            for (k, chunk) in buf.chunks_mut(4).enumerate() {
                // A component past offset 0xffff_ffff does not wrap to offset 0: it is out
                // of range (BufferDescriptor::span_in_range).
                let off = offset.checked_add(4 * k as u32);
                let Some(off) = off.filter(|&o| d.span_in_range(index, o, 1)) else {
                    all_in = false;
                    if !store {
                        chunk.fill(0);
                    }
                    continue;
                };
                let a = d.address(index, off, soffset);
                for (j, b) in chunk.iter_mut().enumerate() {
                    if store {
                        env.mem.write_u8(a.wrapping_add(j as u64), *b);
                    } else {
                        *b = env.mem.read_u8(a.wrapping_add(j as u64));
                    }
                }
            }
            all_in
        }
        Route::Global(a) => {
            if !in_virtual_range(a) || !env.mem.allocations.contains(a, n as u64) {
                buf.fill(0);
                return false;
            }
            if store {
                env.mem.write_bytes(a, buf);
            } else {
                env.mem.read_into(a, buf);
            }
            true
        }
        Route::Scratch(x) => {
            if !env.scratch.in_range(x, n) {
                return false;
            }
            for (k, b) in buf.iter_mut().enumerate() {
                let a = env.scratch.lane_address(wave_id, lane, x + k as u32);
                if store {
                    env.mem.write_u8(a, *b);
                } else {
                    *b = env.mem.read_u8(a);
                }
            }
            true
        }
        Route::Lds(off) => {
            for (k, chunk) in buf.chunks_mut(4).enumerate() {
                let o = off.wrapping_add(4 * k as u32);
                let len = chunk.len() as u32;
                if store {
                    let mut v = [0u8; 8];
                    v[..chunk.len()].copy_from_slice(chunk);
                    let v = u64::from_le_bytes(v);
                    if env.lds.write(env.alloc, o, len, v).is_err() {
                        return false;
                    }
                    env.lds.touch(lane, o, len, true, v);
                } else {
                    match env.lds.read(env.alloc, o, len) {
                        Ok(v) => {
                            env.lds.touch(lane, o, len, false, v);
                            chunk.copy_from_slice(&v.to_le_bytes()[..chunk.len()])
                        }
                        Err(_) => {
                            buf.fill(0);
                            return false;
                        }
                    }
                }
            }
            true
        }
    }
}

/// What a typed instruction moves: `components` components of format `format`, stored or
/// loaded, 16 bits per component when `d16` (see [`GlobalOp::Format`]).
#[derive(Clone, Copy)]
struct TypedAccess {
    format: BufferFormat,
    store: bool,
    components: u32,
    d16: Option<bool>,
}

/// One lane of a typed access at `route` (a buffer record), range-checked all or nothing;
/// returns whether it was in range.
fn typed(
    inst: &Instruction,
    wave: &mut Wave,
    env: &mut VmemEnv,
    a: LaneAccess,
    access: TypedAccess,
) -> bool {
    let TypedAccess {
        format: f,
        store,
        components,
        d16,
    } = access;
    let lane = a.lane;
    let Route::Buffer { index, offset, .. } = a.route else {
        return false;
    };
    let Some(d) = a.desc else { return false };
    let cb = f.component_bytes();
    let present = components.min(f.components);
    let bytes = present * cb;
    let in_range = d.span_in_range(index, offset, bytes);
    let vdata = inst.get(Field::Vdata);
    // The 32-bit (or, for d16, 16-bit) value of component c in the VGPRs.
    let reg_of = |c: u32| match d16 {
        None => (vdata + c, 0),
        Some(false) => (vdata + c / 2, 16 * (c % 2)),
        Some(true) => (vdata, 16),
    };
    let mut buf = [0u8; 16];
    let b = &mut buf[..bytes as usize];
    if store {
        if !in_range {
            return false;
        }
        for c in 0..present {
            let (r, shift) = reg_of(c);
            let v = wave.vgpr(r, lane) >> shift;
            let raw = if d16.is_some() {
                v & 0xffff
            } else {
                f.store(v)
            };
            let k = (c * cb) as usize;
            b[k..k + cb as usize].copy_from_slice(&raw.to_le_bytes()[..cb as usize]);
        }
        return transfer(env, a, wave.id, b, true);
    }
    if in_range {
        transfer(env, a, wave.id, b, false);
    }
    for c in 0..components {
        let raw = if c < present {
            let k = (c * cb) as usize;
            let mut x = [0u8; 4];
            x[..cb as usize].copy_from_slice(&b[k..k + cb as usize]);
            u32::from_le_bytes(x)
        } else {
            0
        };
        let v = if in_range || c >= present {
            f.load(c, raw)
        } else {
            0
        };
        let (r, shift) = reg_of(c);
        if d16.is_some() {
            let v16 = if f.bits == 32 {
                v & 0xffff
            } else {
                raw & 0xffff
            };
            let v16 = if c >= present { v & 0xffff } else { v16 };
            let old = wave.vgpr(r, lane);
            let mask = 0xffffu32 << shift;
            wave.set_vgpr(r, lane, old & !mask | v16 << shift);
        } else {
            wave.set_vgpr(r, lane, v);
        }
    }
    in_range
}

/// Bytes one lane of `op` moves, for the loads, stores and atomics that may go to scratch.
fn op_bytes(op: GlobalOp) -> Option<u32> {
    match op {
        GlobalOp::Load { bytes, .. }
        | GlobalOp::Store { bytes, .. }
        | GlobalOp::Atomic { bytes, .. } => Some(bytes),
        _ => None,
    }
}

/// `n` (1 or 2) consecutive VGPRs from `reg` of `lane` as one value.
fn read_n(wave: &Wave, reg: u32, lane: u32, n: u32) -> u64 {
    let lo = wave.vgpr(reg, lane) as u64;
    if n == 2 {
        lo | (wave.vgpr(reg + 1, lane) as u64) << 32
    } else {
        lo
    }
}

/// The data register field: MUBUF keeps loads' and stores' data in `vdata`, the FLAT
/// encoding in `vdst` (loads) and `data0` (stores).
/// Whether an atomic returns the pre-op value: gfx1100's `glc`, gfx942's `sc0` (a gfx942
/// atomic that runs as it is: `crate::target::gfx9`).
pub fn returns_data(inst: &Instruction) -> bool {
    let bit = match inst.def().isa {
        rdna3_isa::Isa::Gfx11 => Field::Glc,
        rdna3_isa::Isa::Gfx940 => Field::Sc0,
    };
    inst.get(bit) == 1
}

fn data_field(inst: &Instruction, flat_field: Field) -> Field {
    if inst.def().format == Format::Mubuf {
        Field::Vdata
    } else {
        flat_field
    }
}

/// Executes a FLAT, GLOBAL, SCRATCH, MUBUF or MTBUF access of `op` for every lane in EXEC.
pub fn execute(
    inst: &Instruction,
    op: GlobalOp,
    wave: &mut Wave,
    env: &mut VmemEnv,
) -> VmemOutcome {
    // A vector-memory instruction waits for earlier VALU work (LDSDIR's `wait_vdst` window,
    // ds/ldsdir.rs).
    wave.recent_valu.clear();
    if let Some(out) = runs::execute(inst, op, wave, env) {
        return out;
    }
    lane_by_lane(inst, op, wave, env, |_, _| {})
}

/// [`execute`], lane after lane, pushing after each lane in EXEC the lane and
/// [`GlobalMemory::traced_len`] onto `marks`: with the memory tracing lines, the lines each
/// lane touched (the coalescing picture's, `crate::exec::VmemSample`). The results are
/// [`execute`]'s: the lane-by-lane path is the one the run path is tested against.
pub fn execute_marking_lanes(
    inst: &Instruction,
    op: GlobalOp,
    wave: &mut Wave,
    env: &mut VmemEnv,
    marks: &mut Vec<(u32, usize)>,
) -> VmemOutcome {
    wave.recent_valu.clear();
    lane_by_lane(inst, op, wave, env, |lane, mem| {
        marks.push((lane, mem.traced_len()))
    })
}

/// [`execute`] one lane after another, in lane order: every access, and the reference the
/// run path ([`runs`]) is tested against; `after_lane` sees each lane in EXEC once its
/// access is done.
fn lane_by_lane(
    inst: &Instruction,
    op: GlobalOp,
    wave: &mut Wave,
    env: &mut VmemEnv,
    mut after_lane: impl FnMut(u32, &GlobalMemory),
) -> VmemOutcome {
    let exec = wave.exec();
    let mut out = VmemOutcome::default();
    let desc = matches!(inst.def().format, Format::Mubuf | Format::Mtbuf)
        .then(|| buffer_descriptor(inst, wave, env.isa));
    let format = typed_format(inst, op, desc.as_ref());
    for lane in 0..wave.size {
        if exec >> lane & 1 == 0 {
            continue;
        }
        out.lanes += 1;
        let route = route(inst, wave, lane, &env.apertures, env.isa);
        note_scratch_overlap(&mut out, env, op, wave.id, lane, route);
        let fmt = match format {
            Ok(fmt) => fmt,
            Err(fv) => {
                out.unsupported_format = Some(fv);
                return out;
            }
        };
        let a = LaneAccess {
            desc: desc.as_ref(),
            lane,
            route,
        };
        let ok = match op {
            GlobalOp::Load { bytes, signed, d16 } => {
                load_lane(inst, wave, env, a, bytes, signed, d16)
            }
            GlobalOp::Store { bytes, hi } => store_lane(inst, wave, env, a, bytes, hi),
            GlobalOp::Atomic { op, bytes } => atomic_lane(inst, wave, env, a, op, bytes),
            GlobalOp::Format {
                store,
                components,
                d16,
            } => fmt.is_some_and(|format| {
                let access = TypedAccess {
                    format,
                    store,
                    components,
                    d16,
                };
                typed(inst, wave, env, a, access)
            }),
            GlobalOp::LoadLds { bytes, signed, .. } => {
                let (ok, in_lds) = load_lds_lane(inst, wave, env, a, bytes, signed, fmt);
                if !in_lds {
                    out.lds_out_of_range += 1;
                }
                ok
            }
        };
        if !ok {
            note_dropped(&mut out, lane, route);
        }
        after_lane(lane, env.mem);
    }
    out
}

/// The buffer format a typed access (`Format`, or `buffer_load_lds_format_x`) converts
/// through: the instruction's `format` field (MTBUF) or the V#'s; `Ok(None)` for the untyped
/// accesses, `Err` with the format's value when [`BufferFormat`] does not implement it.
fn typed_format(
    inst: &Instruction,
    op: GlobalOp,
    desc: Option<&BufferDescriptor>,
) -> Result<Option<BufferFormat>, u32> {
    let fv = match op {
        GlobalOp::Format { .. } if inst.def().format == Format::Mtbuf => inst.get(Field::Fmt),
        GlobalOp::Format { .. } | GlobalOp::LoadLds { format: true, .. } => {
            desc.map_or(0, |d| d.format)
        }
        _ => return Ok(None),
    };
    BufferFormat::decode(fv).map(Some).ok_or(fv)
}

/// Notes in `out` a private access of lane `lane` that reaches past its wave's scratch region
/// into the next wave's ([`ScratchLayout::spills_past_wave`]).
fn note_scratch_overlap(
    out: &mut VmemOutcome,
    env: &VmemEnv,
    op: GlobalOp,
    wave_id: u32,
    lane: u32,
    route: Route,
) {
    let (Route::Scratch(x), Some(n)) = (route, op_bytes(op)) else {
        return;
    };
    if env.scratch.in_range(x, n) && env.scratch.spills_past_wave(lane, x, n) {
        if out.scratch_overlap == 0 {
            out.scratch_overlap_at = env.scratch.lane_address(wave_id, lane, x + n - 1);
        }
        out.scratch_overlap |= 1 << lane;
    }
}

/// Notes in `out` that lane `lane`'s access at `route` was dropped, under the rule that
/// dropped it.
fn note_dropped(out: &mut VmemOutcome, lane: u32, route: Route) {
    match route {
        Route::Lds(_) => out.lds_out_of_range += 1,
        Route::Buffer { .. } => out.buffer_out_of_range += 1,
        Route::Global(a) if !in_virtual_range(a) => {
            if out.beyond_va == 0 {
                out.beyond_va_at = a;
            }
            out.beyond_va |= 1 << lane;
        }
        Route::Global(a) => {
            if out.out_of_bounds == 0 {
                out.out_of_bounds_at = a;
            }
            out.out_of_bounds |= 1 << lane;
        }
        Route::Scratch(_) => out.scratch_out_of_range += 1,
    }
}

/// One lane of a load of `bytes`: whole dwords into consecutive VGPRs, a byte or a short
/// zero- or sign-extended into the VGPR or (`d16`) one half of it. Returns whether the access
/// was in range.
fn load_lane(
    inst: &Instruction,
    wave: &mut Wave,
    env: &mut VmemEnv,
    a: LaneAccess,
    bytes: u32,
    signed: bool,
    d16: Option<bool>,
) -> bool {
    let lane = a.lane;
    let mut buf = [0u8; 16];
    let ok = transfer(env, a, wave.id, &mut buf[..bytes as usize], false);
    let vdst = inst.get(data_field(inst, Field::Vdst));
    if bytes >= 4 {
        for i in 0..bytes / 4 {
            let k = 4 * i as usize;
            let v = u32::from_le_bytes([buf[k], buf[k + 1], buf[k + 2], buf[k + 3]]);
            wave.set_vgpr(vdst + i, lane, v);
        }
        return ok;
    }
    let raw = u16::from_le_bytes([buf[0], buf[1]]) as u32 & ((1 << (8 * bytes)) - 1);
    let bits = 8 * bytes;
    let v = if signed {
        ((raw << (32 - bits)) as i32 >> (32 - bits)) as u32
    } else {
        raw
    };
    let old = wave.vgpr(vdst, lane);
    let new = match d16 {
        None => v,
        Some(false) => old & 0xffff_0000 | v & 0xffff,
        Some(true) => old & 0xffff | v << 16,
    };
    wave.set_vgpr(vdst, lane, new);
    ok
}

/// One lane of a store of `bytes` from the data VGPRs (`hi`: each register's bits \[31:16\]).
/// Returns whether the access was in range.
fn store_lane(
    inst: &Instruction,
    wave: &Wave,
    env: &mut VmemEnv,
    a: LaneAccess,
    bytes: u32,
    hi: bool,
) -> bool {
    let data = inst.get(data_field(inst, Field::Data0));
    let mut buf = [0u8; 16];
    for i in 0..bytes.div_ceil(4) {
        let v = wave.vgpr(data + i, a.lane) >> if hi { 16 } else { 0 };
        let k = 4 * i as usize;
        let len = (bytes as usize - k).min(4);
        buf[k..k + len].copy_from_slice(&v.to_le_bytes()[..len]);
    }
    transfer(env, a, wave.id, &mut buf[..bytes as usize], true)
}

/// One lane of an atomic of `bytes` (docs/rules/addressing.md#vector-memory-atomics): read,
/// operate, write back when in range; with `glc` the pre-op value (0 when dropped) returns
/// to the VGPRs. Returns whether the access was in range.
fn atomic_lane(
    inst: &Instruction,
    wave: &mut Wave,
    env: &mut VmemEnv,
    a: LaneAccess,
    op: AtomicOp,
    bytes: u32,
) -> bool {
    let lane = a.lane;
    // The data: FLAT encodings in data0, MUBUF in vdata (which also receives the return);
    // cmpswap's compare value follows the source in the next register(s).
    let data = inst.get(data_field(inst, Field::Data0));
    let n = bytes / 4;
    let d0 = read_n(wave, data, lane, n);
    let d1 = read_n(wave, data + n, lane, n);
    let mut buf = [0u8; 8];
    let b = &mut buf[..bytes as usize];
    let ok = transfer(env, a, wave.id, b, false);
    let old = u64::from_le_bytes(buf);
    if ok {
        let new = if bytes == 8 {
            atomic64(op, old, d0, d1, wave.mode)
        } else {
            memory_atomic32(
                op,
                old as u32,
                d0 as u32,
                d1 as u32,
                wave.mode,
                env.float_rules,
            ) as u64
        };
        let b = &mut buf[..bytes as usize];
        b.copy_from_slice(&new.to_le_bytes()[..bytes as usize]);
        transfer(env, a, wave.id, b, true);
    }
    if returns_data(inst) {
        let dst = inst.get(data_field(inst, Field::Vdst));
        let ret = if ok { old } else { 0 };
        wave.set_vgpr(dst, lane, ret as u32);
        if bytes == 8 {
            wave.set_vgpr(dst + 1, lane, (ret >> 32) as u32);
        }
    }
    ok
}

/// One lane of `buffer_load_lds_*` (docs/rules/addressing.md#buffer-loads-to-lds): `bytes`
/// (or one component of `fmt`) read from memory, extended or converted to a dword and written
/// to LDS at M0\[15:0\] + offset + lane × 4. Returns whether the read was in range and whether
/// the LDS write was.
fn load_lds_lane(
    inst: &Instruction,
    wave: &Wave,
    env: &mut VmemEnv,
    a: LaneAccess,
    bytes: u32,
    signed: bool,
    fmt: Option<BufferFormat>,
) -> (bool, bool) {
    let lane = a.lane;
    let n = fmt.map_or(bytes, |f| f.component_bytes());
    let mut x = [0u8; 4];
    let ok = transfer(env, a, wave.id, &mut x[..n as usize], false);
    let raw = u32::from_le_bytes(x);
    let v = match fmt {
        Some(f) if ok => f.load(0, raw),
        Some(_) => 0,
        None if signed => {
            let sh = 32 - 8 * n;
            ((raw << sh) as i32 >> sh) as u32
        }
        None => raw,
    };
    let lds_addr = (wave.m0() & 0xffff)
        .wrapping_add(inst.get(Field::Offset))
        .wrapping_add(4 * lane);
    if env.lds.write(env.alloc, lds_addr, 4, v as u64).is_err() {
        return (ok, false);
    }
    env.lds.touch(lane, lds_addr, 4, true, v as u64);
    (ok, true)
}
