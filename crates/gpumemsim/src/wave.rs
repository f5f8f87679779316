//! Wave state: the scalar and vector register files, EXEC, VCC, SCC, M0, MODE, STATUS and the
//! wait counters of one wave32 or wave64.
//!
//! Scalar registers are kept in one array indexed by their operand code (see
//! `rdna3_isa::regs`): 0-105 SGPRs, 106/107 VCC, 108-123 TTMPs, 124 `null` (reads 0, writes are
//! dropped), 125 M0, 126/127 EXEC. So an instruction's scalar field indexes the file directly.

use rdna3_isa::regs::{inline_int, FLOAT_CONSTANTS, M0, NULL};

use crate::addr::Apertures;

/// Number of VGPRs a wave can address.
pub const VGPR_COUNT: usize = 256;
/// The unified register file of a gfx942 wave: VGPRs, then its AGPRs from `accum_offset` on
/// (512 per lane in all, AMD's CDNA3 ISA guide).
pub const UNIFIED_VGPR_COUNT: usize = 512;
/// Scalar code of `exec_lo`.
pub const EXEC_LO: u32 = 126;
/// Scalar code of `vcc_lo`.
pub const VCC_LO: u32 = 106;

/// MODE register fields used by the memory models (AMD RDNA3 ISA reference, MODE):
/// FP_ROUND \[3:0\], FP_DENORM \[7:4\].
pub mod mode {
    /// Default MODE at wave launch: round to nearest even, denormals allowed in and out for
    /// f32 and f64 (FP_DENORM = 0xf), as the AMDGPU ABI sets for compute kernels.
    pub const DEFAULT: u32 = 0xf0;
}

/// Outstanding-operation counters of a wave (AMD RDNA3 ISA reference, "Data dependency
/// resolution"): each counts instructions issued and not yet complete.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// LDS, GDS, constant (SMEM) and message operations.
    pub lgkm: u32,
    /// Exports and LDS parameter/direct loads.
    pub exp: u32,
    /// Vector memory loads.
    pub vm: u32,
    /// Vector memory stores.
    pub vs: u32,
}

/// How many recent VALU instructions a wave remembers: `wait_vdst` is a 4-bit field, so an
/// LDSDIR load can let at most 15 VALU instructions stay outstanding.
pub const RECENT_VALU: usize = 15;

/// The last [`RECENT_VALU`] VALU instructions a wave issued, as their instruction indices
/// in the wave's program, newest last. Indices, not copies of the instructions: the ring is
/// written on every VALU instruction, and 15 indices share one cache line with its cursor
/// where 15 instructions took eight.
#[derive(Clone, Debug, Default)]
pub struct RecentValu {
    ring: [u32; RECENT_VALU],
    /// The slot the next instruction goes to.
    next: u8,
    /// Instructions remembered (at most [`RECENT_VALU`]).
    len: u8,
}

impl RecentValu {
    /// Records the VALU instruction at index `pc` of the program as issued (on every VALU
    /// instruction: no division).
    #[inline]
    pub fn push(&mut self, pc: usize) {
        let i = self.next as usize;
        self.ring[i] = pc as u32;
        self.next = if i + 1 == RECENT_VALU { 0 } else { i as u8 + 1 };
        self.len = (self.len + 1).min(RECENT_VALU as u8);
    }

    /// Forgets every instruction (the outstanding VALU work is known complete).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The program indices of the `n` (at most [`RECENT_VALU`]) most recent VALU
    /// instructions, newest first.
    pub fn latest(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let n = n.min(self.len as usize);
        (0..n).map(move |k| {
            let i = (self.next as usize + 2 * RECENT_VALU - 1 - k) % RECENT_VALU;
            self.ring[i] as usize
        })
    }
}

/// The value of 32-bit source operand `code` when every wave reads it alike: an inline
/// constant (integers, float constants as f32 bits) or, for code 255, `literal`; `None` for
/// a register or a wave's state (SGPRs, VCC, EXEC, M0, SCC, the apertures, ...). Where it
/// is `Some`, [`Wave::ssrc32`] reads it (the one table of inline constants a source reads).
pub fn constant32(code: u32, literal: Option<u32>) -> Option<u32> {
    match code {
        128..=208 => Some(inline_int(code).unwrap_or(0) as u32),
        240..=248 => Some(FLOAT_CONSTANTS[(code - 240) as usize].1),
        255 => Some(literal.unwrap_or(0)),
        _ => None,
    }
}

/// [`constant32`] for a 64-bit source: integers sign-extended, float constants as f64
/// bits, the literal zero-extended, as [`Wave::ssrc64`] reads them.
pub fn constant64(code: u32, literal: Option<u32>) -> Option<u64> {
    match code {
        128..=208 => Some(inline_int(code).unwrap_or(0) as i64 as u64),
        240..=248 => Some(FLOAT_CONSTANTS[(code - 240) as usize].2),
        255 => Some(literal.unwrap_or(0) as u64),
        _ => None,
    }
}

/// One wave.
///
/// The fields are laid out in this order (`repr(C)`): every step reads the ones in the first
/// 64 bytes (the VGPRs' place, pc, step count, id, size, MODE, the flags), so they share a
/// cache line; the VALU's recent instructions and the counters follow, the scalar file
/// (EXEC at its end) comes last. The scheduler steps a different wave nearly every time, and
/// each line of a wave's state it reads is a likely cache miss. Aligned to 64 bytes, so that
/// the first 64 are one line in a `Vec<Wave>` too (unaligned, a wave's 696 bytes put most
/// waves' first fields across two lines). A test pins the layout.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Wave {
    /// VGPRs: `vgprs[reg * size + lane]`, grown as registers are first written (a register
    /// not yet stored reads 0, as every VGPR starts), so a wave takes memory for the
    /// registers its program uses rather than for all 256.
    vgprs: Vec<u32>,
    /// Program counter: index of the next instruction in the program.
    pub pc: usize,
    /// Instructions this wave has executed (the step limit is per wave).
    pub steps: u64,
    /// The wave's number in its grid: its workgroup's index × the waves of a workgroup +
    /// its index in the workgroup (`exec::slots`; 0 for a slot not yet given a wave).
    pub id: u32,
    /// 32 or 64.
    pub size: u32,
    /// MODE register.
    pub mode: u32,
    /// VGPRs allocated to the wave: v0 up to v(`vgpr_limit` − 1). [`VGPR_COUNT`] unless the
    /// launch knows the kernel's allocation; only the LDSDIR loads look at it: one whose
    /// destination VGPR is out of range runs with EXEC forced to zero
    /// (docs/rules/ds.md#lds-parameter-load).
    pub vgpr_limit: u32,
    /// VGPRs the file makes room for at its first growth: the registers the kernel uses when
    /// the launch knows them (its metadata's count, less than the allocation's granules),
    /// else [`Wave::vgpr_limit`]. Room only: a register past it still works.
    pub vgpr_room: u32,
    /// Scalar condition code.
    pub scc: bool,
    /// Whether the wave has ended (`s_endpgm`).
    pub done: bool,
    /// STATUS.LDS_READY: parameter data is in LDS; LDS_PARAM_LOAD and LDS_DIRECT_LOAD stall
    /// until it is set (docs/rules/ds.md#lds-parameter-load). Kept as a flag: the simulator
    /// does not model the rest of STATUS.
    pub lds_ready: bool,
    /// Outstanding operations.
    pub counters: Counters,
    /// The wave's most recent VALU instructions (LDS_PARAM_LOAD's `wait_vdst` rule).
    pub recent_valu: RecentValu,
    /// The apertures `src_shared_base/limit` and `src_private_base/limit` read.
    pub apertures: Apertures,
    /// The wave runs GFX9 code (gfx942): DPP's `wave_shl/rol/shr/ror` and `row_bcast`
    /// controls, which gfx1100 dropped, have their GFX9 meaning, and its register file is the
    /// unified one of [`UNIFIED_VGPR_COUNT`] registers.
    pub gfx9_dpp: bool,
    /// gfx942: the first VGPR of the unified register file that holds the AGPRs (a\[n\] is
    /// v\[accum_offset + n\]), for the instructions that name AGPRs past v255, which run as
    /// they are (`crate::target::gfx9`); 0 elsewhere.
    pub accum_offset: u32,
    /// FLAT_SCRATCH: the start of the wave's scratch region (read with
    /// `s_getreg_b32 hwreg(HW_REG_FLAT_SCR_LO/HI)` on gfx11).
    pub flat_scratch: u64,
    /// Scalar operand file, indexed by operand code 0..=127.
    sregs: [u32; 128],
}

impl Wave {
    /// A wave with every register 0, EXEC all ones, MODE at its default.
    pub fn new(id: u32, size: u32) -> Wave {
        let mut w = Wave {
            id,
            size,
            sregs: [0; 128],
            vgprs: Vec::new(),
            scc: false,
            mode: mode::DEFAULT,
            lds_ready: true,
            vgpr_limit: VGPR_COUNT as u32,
            vgpr_room: VGPR_COUNT as u32,
            recent_valu: RecentValu::default(),
            pc: 0,
            counters: Counters::default(),
            done: false,
            apertures: Apertures::default(),
            gfx9_dpp: false,
            accum_offset: 0,
            flat_scratch: 0,
            steps: 0,
        };
        w.set_exec(u64::MAX);
        w
    }

    /// Mask of the lanes that exist (32 or 64 ones).
    #[inline]
    pub fn lane_mask(&self) -> u64 {
        if self.size == 64 {
            u64::MAX
        } else {
            0xffff_ffff
        }
    }

    /// Reads a scalar register by operand code (`null` and codes above 127 read 0).
    #[inline]
    pub fn sreg(&self, code: u32) -> u32 {
        if code == NULL || code >= 128 {
            0
        } else {
            self.sregs[code as usize]
        }
    }

    /// Writes a scalar register by operand code (`null` is dropped).
    #[inline]
    pub fn set_sreg(&mut self, code: u32, v: u32) {
        if code != NULL && code < 128 {
            self.sregs[code as usize] = v;
        }
    }

    /// Reads a 64-bit scalar register pair starting at `code`.
    pub fn sreg64(&self, code: u32) -> u64 {
        self.sreg(code) as u64 | (self.sreg(code + 1) as u64) << 32
    }

    /// Writes a 64-bit scalar register pair starting at `code`.
    pub fn set_sreg64(&mut self, code: u32, v: u64) {
        if code == NULL {
            return;
        }
        self.set_sreg(code, v as u32);
        self.set_sreg(code + 1, (v >> 32) as u32);
    }

    /// The value of a scalar source operand of 32 bits: a register, an inline constant, or
    /// `literal` for code 255. Float constants give their f32 bits; the aperture registers
    /// (235-238) their low dword, as a 32-bit read of a 64-bit register.
    pub fn ssrc32(&self, code: u32, literal: Option<u32>) -> u32 {
        if let Some(v) = constant32(code, literal) {
            return v;
        }
        match code {
            0..=127 => self.sreg(code),
            235..=238 => self.apertures.source(code).unwrap_or(0) as u32,
            253 => self.scc as u32,
            251 => (self.vcc() & self.lane_mask() == 0) as u32,
            252 => (self.exec() == 0) as u32,
            _ => 0,
        }
    }

    /// The value of a 64-bit scalar source: register pairs, inline constants (integers
    /// sign-extended, floats as f64 bits), a literal zero-extended (as llvm-mc-19 encodes
    /// 64-bit integer literals).
    pub fn ssrc64(&self, code: u32, literal: Option<u32>) -> u64 {
        if let Some(v) = constant64(code, literal) {
            return v;
        }
        match code {
            0..=127 => self.sreg64(code),
            235..=238 => self.apertures.source(code).unwrap_or(0),
            _ => self.ssrc32(code, literal) as u64,
        }
    }

    /// EXEC, masked to the wave's lanes.
    #[inline]
    pub fn exec(&self) -> u64 {
        self.sreg64(EXEC_LO) & self.lane_mask()
    }

    /// Sets EXEC (bits past the wave's lanes are cleared).
    pub fn set_exec(&mut self, v: u64) {
        let v = v & self.lane_mask();
        self.sregs[EXEC_LO as usize] = v as u32;
        self.sregs[EXEC_LO as usize + 1] = (v >> 32) as u32;
    }

    /// VCC.
    pub fn vcc(&self) -> u64 {
        self.sreg64(VCC_LO)
    }

    /// M0.
    #[inline]
    pub fn m0(&self) -> u32 {
        self.sregs[M0 as usize]
    }

    /// Sets M0.
    pub fn set_m0(&mut self, v: u32) {
        self.sregs[M0 as usize] = v;
    }

    /// VGPR `reg` of `lane` (registers never written, past the file, and lanes past the
    /// wave's size read 0).
    #[inline]
    pub fn vgpr(&self, reg: u32, lane: u32) -> u32 {
        if lane >= self.size {
            return 0;
        }
        self.vgprs
            .get(reg as usize * self.size as usize + lane as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Drops the VGPR file (a finished wave's, nothing reading it again): afterwards every
    /// VGPR reads 0.
    pub fn release_vgprs(&mut self) {
        self.vgprs = Vec::new();
    }

    /// How many VGPRs the wave's register file holds: [`VGPR_COUNT`], or
    /// [`UNIFIED_VGPR_COUNT`] for a wave of GFX9 code with its AGPRs.
    #[inline]
    fn vgpr_file(&self) -> usize {
        if self.gfx9_dpp {
            UNIFIED_VGPR_COUNT
        } else {
            VGPR_COUNT
        }
    }

    /// Writes VGPR `reg` of `lane` (registers past the file ([`VGPR_COUNT`]; gfx942:
    /// [`UNIFIED_VGPR_COUNT`]) and lanes past the wave's size are dropped).
    #[inline]
    pub fn set_vgpr(&mut self, reg: u32, lane: u32, v: u32) {
        if lane >= self.size || reg as usize >= self.vgpr_file() {
            return;
        }
        let i = reg as usize * self.size as usize + lane as usize;
        if i >= self.vgprs.len() {
            self.grow_vgprs((reg as usize + 1) * self.size as usize);
        }
        self.vgprs[i] = v;
    }

    /// Grows the VGPR file to `end` entries (rows of the wave's size). When the launch knows
    /// the kernel's registers ([`Wave::vgpr_room`] below the file), the first growth takes
    /// room for all of them at once, and no more: doubling would hold up to twice the
    /// kernel's registers for every resident wave.
    #[cold]
    fn grow_vgprs(&mut self, end: usize) {
        let room = self.vgpr_room as usize;
        if end > self.vgprs.capacity() && room < self.vgpr_file() {
            let all = (room * self.size as usize).max(end);
            self.vgprs.reserve_exact(all - self.vgprs.len());
        }
        self.vgprs.resize(end, 0);
    }

    /// VGPR `reg`'s lanes (the wave's size of them), or `None` while it has never been
    /// written (every lane 0) or past v255.
    #[inline]
    pub fn vgpr_row(&self, reg: u32) -> Option<&[u32]> {
        let n = self.size as usize;
        self.vgprs.get(reg as usize * n..(reg as usize + 1) * n)
    }

    /// Empties the VGPR file as [`Wave::release_vgprs`] does (every VGPR reads 0 after), but
    /// keeps its allocation for a wave that will take this one's place
    /// ([`Wave::take_vgprs`]).
    pub(crate) fn clear_vgprs(&mut self) {
        self.vgprs.clear();
    }

    /// Takes the wave's VGPR storage for a wave that replaces this one, which empties it
    /// ([`Wave::reuse_vgprs`]).
    pub(crate) fn take_vgprs(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.vgprs)
    }

    /// Gives a new wave (no VGPR written yet) `buf`'s allocation for its VGPRs: the file
    /// stays empty (every VGPR reads 0), it just grows without reallocating.
    pub(crate) fn reuse_vgprs(&mut self, mut buf: Vec<u32>) {
        if self.vgprs.is_empty() {
            buf.clear();
            self.vgprs = buf;
        }
    }

    /// VGPR `reg`'s lanes to write (`None` past the file).
    #[inline]
    pub fn vgpr_row_mut(&mut self, reg: u32) -> Option<&mut [u32]> {
        if reg as usize >= self.vgpr_file() {
            return None;
        }
        let n = self.size as usize;
        let end = (reg as usize + 1) * n;
        if end > self.vgprs.len() {
            self.grow_vgprs(end);
        }
        Some(&mut self.vgprs[end - n..end])
    }

    /// VGPRs `reg` and `reg + 1`'s lanes to write, each `None` past the file.
    pub fn vgpr_row_pair_mut(&mut self, reg: u32) -> (Option<&mut [u32]>, Option<&mut [u32]>) {
        if reg as usize + 1 >= self.vgpr_file() {
            return (self.vgpr_row_mut(reg), None);
        }
        self.vgpr_row_mut(reg + 1);
        let n = self.size as usize;
        let start = reg as usize * n;
        let (a, b) = self.vgprs[start..start + 2 * n].split_at_mut(n);
        (Some(a), Some(b))
    }

    /// Every lane of VGPR `reg`, for the wave's size.
    pub fn vgpr_lanes(&self, reg: u32) -> Vec<u32> {
        (0..self.size).map(|l| self.vgpr(reg, l)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{constant32, constant64, RecentValu, Wave, RECENT_VALU};

    /// The fields every step reads end within the first 64 bytes, and a wave starts on a
    /// cache line: they share one line (the layout [`Wave`]'s comment describes).
    #[test]
    fn the_fields_every_step_reads_share_one_cache_line() {
        use std::mem::{align_of, offset_of};
        assert_eq!(align_of::<Wave>(), 64);
        let ends = [
            ("vgprs", offset_of!(Wave, vgprs) + size_of::<Vec<u32>>()),
            ("pc", offset_of!(Wave, pc) + size_of::<usize>()),
            ("steps", offset_of!(Wave, steps) + 8),
            ("id", offset_of!(Wave, id) + 4),
            ("size", offset_of!(Wave, size) + 4),
            ("mode", offset_of!(Wave, mode) + 4),
            ("scc", offset_of!(Wave, scc) + 1),
            ("done", offset_of!(Wave, done) + 1),
            ("lds_ready", offset_of!(Wave, lds_ready) + 1),
        ];
        for (name, end) in ends {
            assert!(end <= 64, "{name} ends at byte {end}");
        }
    }

    /// The file makes room for the kernel's registers at its first growth, at once and no
    /// more (not for the allocation's granules, nor twice what it needs).
    #[test]
    fn the_kernels_registers_are_reserved_once_and_exactly() {
        let mut w = Wave::new(0, 32);
        (w.vgpr_limit, w.vgpr_room) = (16, 8);
        w.set_vgpr(0, 0, 1);
        assert_eq!(w.vgprs.capacity(), 8 * 32, "the kernel's 8 VGPRs, at once");
        w.vgpr_row_mut(7).expect("v7")[31] = 2;
        assert_eq!(
            (w.vgprs.capacity(), w.vgpr(7, 31), w.vgpr(0, 0)),
            (8 * 32, 2, 1)
        );
        // A write past the allocation still lands (the file is the hardware's).
        w.set_vgpr(9, 1, 3);
        assert_eq!(w.vgpr(9, 1), 3);
    }

    #[test]
    fn reused_vgpr_storage_reads_as_new() {
        let mut old = Wave::new(1, 32);
        old.set_vgpr(40, 3, 7);
        old.clear_vgprs();
        assert_eq!((old.vgpr(40, 3), old.vgpr_row(0)), (0, None));
        let buf = old.take_vgprs();
        let kept = buf.capacity();
        assert!(kept >= 41 * 32);
        let mut w = Wave::new(2, 32);
        w.reuse_vgprs(buf);
        assert_eq!(
            (w.vgpr(40, 3), w.vgpr_row(40), w.vgpr_row(0)),
            (0, None, None)
        );
        w.set_vgpr(40, 0, 5);
        assert_eq!((w.vgpr(40, 0), w.vgpr(40, 3), w.vgpr(39, 0)), (5, 0, 0));
        assert_eq!(w.vgprs.capacity(), kept);
        // Storage taken from a wave whose file still holds values: the new wave reads 0.
        let mut y = Wave::new(4, 32);
        y.set_vgpr(3, 0, 9);
        let mut z = Wave::new(5, 32);
        z.reuse_vgprs(y.take_vgprs());
        assert_eq!((z.vgpr(3, 0), z.vgpr_row(3)), (0, None));
        // A wave that has written a VGPR keeps its own file.
        let mut x = Wave::new(3, 32);
        x.set_vgpr(1, 1, 9);
        x.reuse_vgprs(vec![4; 8]);
        assert_eq!((x.vgpr(1, 1), x.vgpr(0, 0)), (9, 0));
    }

    /// The ring keeps the last 15 instruction indices, newest first, across wrap-arounds
    /// and clears.
    #[test]
    fn recent_valu_keeps_the_latest_newest_first() {
        let mut r = RecentValu::default();
        let pcs = |r: &RecentValu, n| -> Vec<usize> { r.latest(n).collect() };
        assert!(pcs(&r, 4).is_empty());
        for k in 0..40 {
            r.push(k);
            let want: Vec<usize> = (0..=k).rev().take(RECENT_VALU.min(6)).collect();
            assert_eq!(pcs(&r, 6), want);
        }
        let all: Vec<usize> = (25..40).rev().collect();
        assert_eq!(pcs(&r, 99), all);
        r.clear();
        assert!(pcs(&r, 15).is_empty());
        r.push(7);
        r.push(8);
        assert_eq!(pcs(&r, 15), [8, 7]);
    }

    /// [`constant32`] and [`constant64`] are what [`Wave::ssrc32`] and [`Wave::ssrc64`] read
    /// in waves whose registers, SCC and apertures all differ, wherever they are `Some`,
    /// and they are `Some` for every inline constant and the literal.
    #[test]
    fn constants_read_alike_in_every_wave() {
        let mut waves = [Wave::new(0, 32), Wave::new(1, 64)];
        for (k, w) in waves.iter_mut().enumerate() {
            for s in 0..128 {
                w.set_sreg(s, (s + 1).wrapping_mul(0x9e37_79b9) ^ k as u32);
            }
            w.scc = k == 1;
            w.apertures.shared_base = 0x1_0000_0000 << k;
            w.apertures.private_limit = 0x2_0000_0000 << k;
        }
        let mut fixed = 0;
        for code in 0..512 {
            for literal in [None, Some(0x8000_0001), Some(0x3f80_0000)] {
                let c32 = constant32(code, literal);
                let c64 = constant64(code, literal);
                for w in &waves {
                    if let Some(v) = c32 {
                        assert_eq!(v, w.ssrc32(code, literal), "code {code}");
                    }
                    if let Some(v) = c64 {
                        assert_eq!(v, w.ssrc64(code, literal), "code {code}");
                    }
                }
                assert_eq!(c32.is_some(), c64.is_some(), "code {code}");
                fixed += c32.is_some() as u32;
            }
        }
        // 81 integers, 9 floats, the literal; three literals each.
        assert_eq!(fixed, 91 * 3);
    }
}
