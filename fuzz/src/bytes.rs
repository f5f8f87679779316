//! A reader that turns fuzz input bytes into choices. It never fails: past the end of the
//! input every read gives 0, so any byte string is a valid input and a short one means "the
//! first choice everywhere".
//!
//! Shared by the cargo-fuzz targets (`fuzz/`) and the stable time-boxed tests
//! (`crates/*/tests/fuzz_*.rs`, which include this file by path).

#![allow(dead_code)]

/// Choices drawn from fuzz input.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    /// Whether the input is used up.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// The next little-endian u16.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// The next little-endian u32.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// The next little-endian u64.
    pub fn u64(&mut self) -> u64 {
        self.u32() as u64 | (self.u32() as u64) << 32
    }

    /// A bit.
    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// A number below `n` (`n` > 0; one byte for `n` <= 256, else two).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 256 {
            self.u8() as usize % n
        } else {
            self.u16() as usize % n
        }
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// The next `n` bytes (fewer at the end).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (a, b) = self.data.split_at(n);
        self.data = b;
        a
    }

    /// Bytes up to (not including) the next `stop` byte, which is consumed; the rest of the
    /// input when there is none.
    pub fn until(&mut self, stop: u8) -> &'a [u8] {
        match self.data.iter().position(|&b| b == stop) {
            Some(k) => {
                let (a, b) = self.data.split_at(k);
                self.data = &b[1..];
                a
            }
            None => self.rest(),
        }
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }

    /// A 32-bit value biased towards edges: small numbers, powers of two and their
    /// neighbours, all-ones, or (one time in four) any value.
    pub fn interesting_u32(&mut self) -> u32 {
        const EDGES: [u32; 24] = [
            0,
            1,
            2,
            3,
            4,
            7,
            8,
            15,
            16,
            31,
            32,
            63,
            64,
            0x7f,
            0x80,
            0xff,
            0x100,
            0xfff,
            0x1000,
            0xffff,
            0x1_0000,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
        ];
        let sel = self.u8();
        match sel & 3 {
            0 => self.u32(),
            1 => EDGES[(sel >> 2) as usize % EDGES.len()].wrapping_add(self.u8() as u32 & 3),
            _ => EDGES[(sel >> 2) as usize % EDGES.len()],
        }
    }
}
