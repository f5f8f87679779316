//! LDS storage and per-workgroup allocation.
//!
//! Each WGP has 128 KB of LDS in 64 DWORD-wide banks, split in two halves of 32 banks, one per
//! CU (pair of SIMD32s) (docs/rules/lds.md#size-and-banks); a workgroup may allocate at most
//! 64 KB, recorded in LDS_BASE/LDS_SIZE registers the shader cannot write, and every access is
//! bounded by that allocation (docs/rules/lds.md#allocation-bounds). Misaligned atomics raise
//! MEMVIOL (docs/rules/lds.md#atomics-must-be-aligned); non-atomic accesses are auto-aligned to
//! their element size in ALIGNMENT_MODE_DWORD and unrestricted in ALIGNMENT_MODE_UNALIGNED
//! (docs/rules/lds.md#alignment-mode).

/// Bytes of LDS in a WGP.
pub const LDS_BYTES: u32 = 128 * 1024;
/// Largest allocation one workgroup may request.
pub const MAX_ALLOCATION: u32 = 64 * 1024;

/// How the workgroup's waves are placed (docs/rules/lds.md#cu-and-wgp-mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LdsMode {
    /// All waves of the workgroup on one CU, using that CU's half of the LDS.
    #[default]
    Cu,
    /// Waves spread over both CUs of the WGP.
    Wgp,
}

/// SH_MEM_CONFIG.ALIGNMENT_MODE (docs/rules/lds.md#alignment-mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AlignMode {
    /// Non-atomic accesses are aligned down to a multiple of their element size.
    #[default]
    Dword,
    /// No alignment requirement for non-atomic accesses.
    Unaligned,
}

/// What a workgroup's LDS holds before anything in the launch writes it. The hardware does not
/// clear LDS between workgroups, so a kernel that reads LDS it did not write reads whatever
/// was there; `Zero` (the default) keeps runs reproducible, `Poison` and `Random` let a test
/// show that a kernel depends on it (`--lds-init`; docs/rules/lds.md#lds-is-not-cleared).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LdsInit {
    /// Every byte 0.
    #[default]
    Zero,
    /// Every byte 0xff (an all-ones dword: -1 as an integer, a NaN as a float).
    Poison,
    /// Pseudo-random bytes from this seed (and the workgroup's index).
    Random(u64),
}

impl std::str::FromStr for LdsInit {
    type Err = String;

    /// `zero`, `poison` or `random:SEED` (SEED a 64-bit integer, decimal or 0x-hex): the
    /// spelling of the CLI's `--lds-init` and Python's `lds_init=`.
    fn from_str(text: &str) -> Result<LdsInit, String> {
        let seed = |t: &str| match t.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => t.parse().ok(),
        };
        match text {
            "zero" => Ok(LdsInit::Zero),
            "poison" => Ok(LdsInit::Poison),
            _ => text
                .strip_prefix("random:")
                .and_then(seed)
                .map(LdsInit::Random)
                .ok_or_else(|| {
                    "expected zero, poison or random:SEED (SEED a 64-bit integer)".to_string()
                }),
        }
    }
}

/// The LDS_BASE/LDS_SIZE of a workgroup: bytes `base .. base + size` of the WGP's LDS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LdsAllocation {
    /// First byte.
    pub base: u32,
    /// Size in bytes.
    pub size: u32,
}

impl LdsAllocation {
    /// The allocation of `size` bytes a workgroup gets in `mode`: the first workgroup of a WGP
    /// starts at byte 0 in either mode (in CU mode, of its CU's half). `size` above 64 KB is an
    /// error, as the hardware cannot grant it.
    pub fn new(size: u32, _mode: LdsMode) -> Result<LdsAllocation, String> {
        if size > MAX_ALLOCATION {
            return Err(format!(
                "an LDS allocation is at most {MAX_ALLOCATION} bytes (64 KB per workgroup), not {size}"
            ));
        }
        Ok(LdsAllocation { base: 0, size })
    }
}

/// Why an access did not happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessFault {
    /// Some byte lies outside the allocation.
    OutOfRange,
}

/// One lane's access to LDS, as the checker ([`crate::exec`]'s `lds_check`) sees it: which
/// lane, which bytes of the allocation, read or write, and the value written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LdsTouch {
    /// Byte offset in the workgroup's allocation.
    pub offset: u32,
    /// The lane.
    pub lane: u8,
    /// Bytes (1..=8).
    pub size: u8,
    /// A write (else a read).
    pub write: bool,
    /// The value written (little-endian, low `size` bytes); the value read for a read.
    pub value: u64,
}

/// The LDS of one WGP.
#[derive(Clone)]
pub struct Lds {
    bytes: Vec<u8>,
    /// Every byte from here on is 0: what [`Lds::initialize`] and [`Lds::fill_words`] reach,
    /// and [`Lds::write`] stays inside the allocation it is given, which the executor's
    /// [`Lds::initialize`] was given too. [`Lds::release`] zeroes only the bytes before it.
    dirty_end: usize,
    /// Wave placement mode.
    pub mode: LdsMode,
    /// Alignment mode.
    pub align: AlignMode,
    /// When `Some`, every in-range lane access made through [`Lds::touch`] is appended here
    /// (the executor turns it on for [`crate::exec::RunConfig::check`] and drains it after
    /// each instruction).
    pub trace: Option<Vec<LdsTouch>>,
    /// While [`Lds::trace`] is on: what each [`Lds::write`] overwrote, as (offset, bytes, the
    /// old value), in order, for the checker to tell a write of the value a byte already
    /// held (drained with the trace).
    pub overwritten: Vec<(u32, u8, u64)>,
}

impl Lds {
    /// A zeroed LDS.
    pub fn new(mode: LdsMode, align: AlignMode) -> Lds {
        Lds {
            bytes: vec![0; LDS_BYTES as usize],
            dirty_end: 0,
            mode,
            align,
            trace: None,
            overwritten: Vec::new(),
        }
    }

    /// An LDS with no storage yet ([`Lds::allocate`] gives it its bytes): the state of a
    /// workgroup that has not started, when a run creates workgroup state as workgroups start
    /// ([`crate::exec::RunConfig::release_finished`]).
    pub fn unallocated(mode: LdsMode, align: AlignMode) -> Lds {
        Lds {
            bytes: Vec::new(),
            dirty_end: 0,
            mode,
            align,
            trace: None,
            overwritten: Vec::new(),
        }
    }

    /// Gives an unallocated LDS zeroed bytes for `alloc` (nothing for one that has them): up to
    /// the allocation's end, not all [`LDS_BYTES`], so that a device of many WGPs holds only
    /// what its resident workgroups allocated (every access is checked against the allocation
    /// before it reaches the bytes; a dump past the end reads 0). `spare`, storage an earlier
    /// [`Lds::release`] returned (all zeros), is taken when it is long enough, else new.
    pub fn allocate(&mut self, spare: Option<Vec<u8>>, alloc: LdsAllocation) {
        if self.bytes.is_empty() {
            let need = ((alloc.base + alloc.size) as usize).max(1);
            self.bytes = spare
                .filter(|b| b.len() >= need)
                .unwrap_or_else(|| vec![0; need]);
            self.dirty_end = 0;
        }
    }

    /// Drops the storage (a finished workgroup's, nothing reading it again): afterwards the LDS
    /// reads as unallocated (`words` gives zeros). Returns the storage, zeroed again, for
    /// another workgroup's [`Lds::allocate`] (empty for an unallocated LDS); only the bytes
    /// that can have been written are cleared, not all [`LDS_BYTES`].
    pub fn release(&mut self) -> Vec<u8> {
        let mut bytes = std::mem::take(&mut self.bytes);
        let end = self.dirty_end.min(bytes.len());
        bytes[..end].fill(0);
        self.dirty_end = 0;
        self.trace = None;
        self.overwritten.clear();
        bytes
    }

    /// Whether the LDS has its storage.
    pub fn is_allocated(&self) -> bool {
        !self.bytes.is_empty()
    }

    /// Sets the bytes of `alloc` to what `init` says the LDS holds before the launch writes
    /// it; `group` (the workgroup's index in the grid) seeds [`LdsInit::Random`], so every
    /// workgroup gets its own bytes and a run is reproducible whichever thread runs which
    /// workgroup. [`LdsInit::Zero`] leaves the (zeroed) storage untouched.
    pub fn initialize(&mut self, alloc: LdsAllocation, init: LdsInit, group: u32) {
        let start = alloc.base as usize;
        let end = (start + alloc.size as usize).min(self.bytes.len());
        self.dirty_end = self.dirty_end.max(end);
        let bytes = &mut self.bytes[start..end];
        match init {
            LdsInit::Zero => {}
            LdsInit::Poison => bytes.fill(0xff),
            LdsInit::Random(seed) => {
                // xorshift64 (Marsaglia's 13/7/17), seeded from the seed and the workgroup
                // by a splitmix64 step (never 0, the fixed point of xorshift).
                let mut z = seed ^ (u64::from(group) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                let mut g = crate::xorshift::XorShift::new((z ^ (z >> 31)) | 1);
                for chunk in bytes.chunks_mut(8) {
                    chunk.copy_from_slice(&g.next_u64().to_le_bytes()[..chunk.len()]);
                }
            }
        }
    }

    /// Notes lane `lane`'s access of `size` bytes at `offset` (a write of `value` when
    /// `write`) in [`Lds::trace`], when tracing is on.
    #[inline]
    pub fn touch(&mut self, lane: u32, offset: u32, size: u32, write: bool, value: u64) {
        if let Some(t) = &mut self.trace {
            t.push(LdsTouch {
                offset,
                lane: lane as u8,
                size: size as u8,
                write,
                value,
            });
        }
    }

    /// The byte index in the LDS array of `offset` within `alloc`, if the `size` bytes there
    /// are inside the allocation.
    ///
    /// Out of range (a choice: the RDNA3 text only says accesses are limited to the
    /// allocation): the whole access is dropped — reads return 0, writes change nothing — as
    /// AMD's GCN-era ISA manuals describe for LDS; the executor reports an event
    /// (docs/rules/lds.md#allocation-bounds).
    #[inline]
    fn index(alloc: LdsAllocation, offset: u32, size: u32) -> Result<usize, AccessFault> {
        let end = offset as u64 + size as u64;
        if end > alloc.size as u64 {
            return Err(AccessFault::OutOfRange);
        }
        Ok((alloc.base + offset) as usize)
    }

    /// The bytes of `alloc` (`None` when the LDS does not hold them all): offset `a` of the
    /// allocation is byte `a` of the slice, and an access past its end is out of range, as
    /// [`Lds::read`] has it.
    #[inline]
    pub fn allocation_bytes(&self, alloc: LdsAllocation) -> Option<&[u8]> {
        let base = alloc.base as usize;
        self.bytes.get(base..base + alloc.size as usize)
    }

    /// Reads `size` (1..=8) bytes little-endian at `offset` in `alloc`.
    #[inline]
    pub fn read(&self, alloc: LdsAllocation, offset: u32, size: u32) -> Result<u64, AccessFault> {
        let i = Self::index(alloc, offset, size)?;
        // Fixed-size copies for the usual sizes (a variable-length copy is a memmove call).
        let b = &self.bytes;
        Ok(match size {
            4 => u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes")) as u64,
            8 => u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes")),
            _ => {
                let n = size.min(8) as usize;
                let mut buf = [0u8; 8];
                buf[..n].copy_from_slice(&b[i..i + n]);
                u64::from_le_bytes(buf)
            }
        })
    }

    /// Writes the low `size` (1..=8) bytes of `v` little-endian at `offset` in `alloc`.
    #[inline]
    pub fn write(
        &mut self,
        alloc: LdsAllocation,
        offset: u32,
        size: u32,
        v: u64,
    ) -> Result<(), AccessFault> {
        let i = Self::index(alloc, offset, size)?;
        if self.trace.is_some() {
            let n = size.min(8) as usize;
            let mut old = [0u8; 8];
            old[..n].copy_from_slice(&self.bytes[i..i + n]);
            self.overwritten
                .push((offset, n as u8, u64::from_le_bytes(old)));
        }
        match size {
            4 => self.bytes[i..i + 4].copy_from_slice(&(v as u32).to_le_bytes()),
            8 => self.bytes[i..i + 8].copy_from_slice(&v.to_le_bytes()),
            _ => {
                let n = size.min(8) as usize;
                self.bytes[i..i + n].copy_from_slice(&v.to_le_bytes()[..n]);
            }
        }
        Ok(())
    }

    /// The address a non-atomic access of `element` bytes really uses: aligned down to the
    /// element size in [`AlignMode::Dword`] (12-byte elements align to 16, the next power of
    /// two, our reading of "multiple of the element size" for b96), unchanged in
    /// [`AlignMode::Unaligned`] (docs/rules/lds.md#alignment-mode).
    #[inline]
    pub fn effective(&self, addr: u32, element: u32) -> u32 {
        match self.align {
            AlignMode::Dword => addr & !(element.next_power_of_two() - 1),
            AlignMode::Unaligned => addr,
        }
    }

    /// [`Lds::effective`] as a mask: `effective(addr, element) == addr & align_mask(element)`
    /// for every address (for a row of addresses at once).
    #[inline]
    pub fn align_mask(&self, element: u32) -> u32 {
        self.effective(u32::MAX, element)
    }

    /// 32-bit words `start..end` (bytes, relative to the LDS array) for dumps; bytes past
    /// the LDS read 0.
    pub fn words(&self, start: u32, end: u32) -> Vec<u32> {
        (start..end)
            .step_by(4)
            .map(|a| {
                let mut v = 0u32;
                for k in (0..4).rev() {
                    v = v << 8 | *self.bytes.get((a + k) as usize).unwrap_or(&0) as u32;
                }
                v
            })
            .collect()
    }

    /// Writes 32-bit words starting at byte `start` of the LDS array (for tests and setup).
    pub fn fill_words(&mut self, start: u32, words: &[u32]) {
        let end = (start as usize + 4 * words.len()).min(self.bytes.len());
        self.dirty_end = self.dirty_end.max(end);
        for (i, w) in words.iter().enumerate() {
            for k in 0..4 {
                if let Some(b) = self.bytes.get_mut(start as usize + 4 * i + k) {
                    *b = (w >> (8 * k)) as u8;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn released_storage_comes_back_zeroed_and_is_reused() {
        let alloc = LdsAllocation::new(1024, LdsMode::Cu).expect("allocation");
        let mut lds = Lds::unallocated(LdsMode::Cu, AlignMode::Dword);
        lds.allocate(None, alloc);
        lds.initialize(alloc, LdsInit::Random(7), 3);
        lds.write(alloc, 1020, 4, 0xdead_beef).expect("in range");
        assert_eq!(lds.write(alloc, 1022, 4, 1), Err(AccessFault::OutOfRange));
        // Storage made as a workgroup starts ends with its allocation: past it, words read 0
        // and a host's words are dropped.
        lds.fill_words(4096, &[0x1234_5678]);
        assert_eq!(lds.words(1020, 1024), vec![0xdead_beef]);
        assert_eq!(lds.words(4096, 4100), vec![0]);
        let storage = lds.release();
        assert!(!lds.is_allocated());
        assert_eq!(lds.words(1020, 1024), vec![0]);
        assert_eq!(storage.len(), (alloc.base + alloc.size) as usize);
        assert!(storage.iter().all(|&b| b == 0));
        let at = storage.as_ptr();
        let mut next = Lds::unallocated(LdsMode::Cu, AlignMode::Dword);
        next.allocate(Some(storage), alloc);
        assert_eq!(next.bytes.as_ptr(), at, "the storage is reused");
        next.initialize(alloc, LdsInit::Zero, 4);
        assert!(next.words(0, LDS_BYTES).iter().all(|&w| w == 0));
        assert_eq!(next.read(alloc, 1024, 4), Err(AccessFault::OutOfRange));
        // An unallocated LDS gives back nothing, and a spare too short is not used.
        assert!(Lds::unallocated(LdsMode::Cu, AlignMode::Dword)
            .release()
            .is_empty());
        let mut fresh = Lds::unallocated(LdsMode::Cu, AlignMode::Dword);
        fresh.allocate(Some(vec![1; 8]), alloc);
        assert_eq!(fresh.bytes.len(), (alloc.base + alloc.size) as usize);
        assert!(fresh.words(0, 8).iter().all(|&w| w == 0));
    }
}
