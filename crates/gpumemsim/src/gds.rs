//! GDS: the device-wide data share, and the GS streamout registers of
//! `ds_add_gs_reg_rtn`/`ds_sub_gs_reg_rtn`.
//!
//! One memory all waves of the GPU can reach, through the DS instructions with the `gds`
//! bit; one active lane per instruction (the first in EXEC); M0\[15:0\] holds the SIZE and
//! M0\[31:16\] the BASE (bytes) of the window an access may touch
//! (docs/rules/gds-gws.md#global-data-share).

/// Default GDS size (bytes).
pub const DEFAULT_GDS_BYTES: u32 = 4096;

/// GDS memory and the GS registers.
#[derive(Clone, Debug)]
pub struct Gds {
    bytes: Vec<u8>,
    /// GS_REG[0..16]: 0-7 are 32-bit, 8-15 are 64-bit (docs/rules/gds-gws.md#gs-streamout-registers).
    pub gs_regs: [u64; 16],
}

impl Gds {
    /// A zeroed GDS of `size` bytes.
    pub fn new(size: u32) -> Gds {
        Gds {
            bytes: vec![0; size as usize],
            gs_regs: [0; 16],
        }
    }

    /// Size in bytes.
    pub fn size(&self) -> u32 {
        self.bytes.len() as u32
    }

    /// The absolute byte address of `offset` in the M0 window, if the `size` bytes there lie
    /// inside both the window (M0\[15:0\] bytes from M0\[31:16\]) and the GDS.
    pub fn window(&self, m0: u32, offset: u32, size: u32) -> Option<u32> {
        let win_size = m0 & 0xffff;
        let base = m0 >> 16;
        let end = offset as u64 + size as u64;
        if end > win_size as u64 || base as u64 + end > self.bytes.len() as u64 {
            return None;
        }
        Some(base + offset)
    }

    /// Reads `size` (1..=8) bytes little-endian at absolute address `addr` (in range).
    pub fn read(&self, addr: u32, size: u32) -> u64 {
        let mut v = 0u64;
        for k in (0..size).rev() {
            v = v << 8 | *self.bytes.get((addr + k) as usize).unwrap_or(&0) as u64;
        }
        v
    }

    /// Writes `size` (1..=8) bytes little-endian at absolute address `addr` (in range).
    pub fn write(&mut self, addr: u32, size: u32, v: u64) {
        for k in 0..size {
            if let Some(b) = self.bytes.get_mut((addr + k) as usize) {
                *b = (v >> (8 * k)) as u8;
            }
        }
    }

    /// 32-bit words of bytes `start..end`, for dumps.
    pub fn words(&self, start: u32, end: u32) -> Vec<u32> {
        (start..end)
            .step_by(4)
            .map(|a| {
                if a + 4 <= self.size() {
                    self.read(a, 4) as u32
                } else {
                    0
                }
            })
            .collect()
    }
}
