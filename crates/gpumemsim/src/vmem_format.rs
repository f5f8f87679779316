//! Typed buffer data: the `buffer_*_format_*` and `tbuffer_*` conversions between a buffer
//! format (gfx11's unified `BUF_FMT_*` values, read off the instruction table's format names)
//! and 32-bit VGPR values, per AMD's pseudocode (`ConvertFromFormat`, `ConvertToFormat`,
//! MUBUF 0-15 and MTBUF 0-15).
//!
//! Implemented: formats whose components all have one width of 8, 16 or 32 bits and one of
//! the numeric types UINT, SINT or FLOAT (16- and 32-bit float; `8_8_8_8_UINT`,
//! `16_16_FLOAT`, `32_32_32_32_SINT`, ...). Others (UNORM/SNORM/SCALED, the packed 10/11/2
//! layouts, INVALID) are not: [`BufferFormat::decode`] gives `None` and the instruction stops
//! the run as unimplemented.
//!
//! Our readings where the pseudocode is terse:
//! - a component the format lacks reads as 0, and `w` as 1 (1.0 for float formats), the
//!   usual default of typed loads; stores of components the format lacks write nothing;
//! - loads convert UINT by zero- and SINT by sign-extension, 16-bit FLOAT to f32 exactly;
//!   stores keep the low bits of integers (no saturation) and round f32 to f16 to nearest
//!   even;
//! - `d16` forms move 16 bits per component: for 16-bit (and 8-bit) formats the component
//!   itself, for 32-bit formats the low 16 bits of the converted value (the pseudocode's
//!   `16'B(..)` cast, read literally), and stores the reverse (`32'B(VDATA[15:0])`).

use rdna3_isa::special::BUF_FORMATS;

use crate::fp::valu::{f16_to_f32, f32_to_f16, Round};

/// Numeric type of a format's components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumFormat {
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// IEEE float (16 or 32 bits).
    Float,
}

/// A decoded buffer format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferFormat {
    /// Bits per component: 8, 16 or 32.
    pub bits: u32,
    /// Components in memory (1-4).
    pub components: u32,
    /// Their numeric type.
    pub num: NumFormat,
}

impl BufferFormat {
    /// The format of unified format value `v`, if implemented.
    pub fn decode(v: u32) -> Option<BufferFormat> {
        let name = BUF_FORMATS.get(v as usize)?;
        let (sizes, num) = name.rsplit_once('_')?;
        let num = match num {
            "UINT" => NumFormat::Uint,
            "SINT" => NumFormat::Sint,
            "FLOAT" => NumFormat::Float,
            _ => return None,
        };
        let widths: Vec<u32> = sizes
            .split('_')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        let bits = *widths.first()?;
        if widths.iter().any(|&w| w != bits) || !matches!(bits, 8 | 16 | 32) {
            return None;
        }
        if num == NumFormat::Float && bits == 8 {
            return None;
        }
        Some(BufferFormat {
            bits,
            components: widths.len() as u32,
            num,
        })
    }

    /// Bytes per component.
    pub fn component_bytes(&self) -> u32 {
        self.bits / 8
    }

    /// The 32-bit value of component `c` (0-3) loaded from raw memory bits `raw`, or the
    /// default when the format has no such component.
    pub fn load(&self, c: u32, raw: u32) -> u32 {
        if c >= self.components {
            return match (c, self.num) {
                (3, NumFormat::Float) => 0x3f80_0000,
                (3, _) => 1,
                _ => 0,
            };
        }
        match (self.num, self.bits) {
            (NumFormat::Float, 16) => f16_to_f32(raw as u16),
            (NumFormat::Sint, b) if b < 32 => ((raw << (32 - b)) as i32 >> (32 - b)) as u32,
            _ => raw,
        }
    }

    /// The raw memory bits of a 32-bit VGPR value stored as one component.
    pub fn store(&self, v: u32) -> u32 {
        match (self.num, self.bits) {
            (NumFormat::Float, 16) => f32_to_f16(v, Round::NearestEven) as u32,
            (_, 32) => v,
            (_, b) => v & ((1 << b) - 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(name: &str) -> Option<BufferFormat> {
        let v = BUF_FORMATS.iter().position(|n| *n == name)? as u32;
        BufferFormat::decode(v)
    }

    #[test]
    fn formats_decode_from_their_names() {
        let f = fmt("16_16_FLOAT").expect("implemented");
        assert_eq!((f.bits, f.components, f.num), (16, 2, NumFormat::Float));
        let f = fmt("32_32_32_32_SINT").expect("implemented");
        assert_eq!((f.bits, f.components), (32, 4));
        assert_eq!(fmt("8_8_8_8_UINT").map(|f| f.bits), Some(8));
        for name in [
            "8_UNORM",
            "10_11_11_FLOAT",
            "2_10_10_10_UINT",
            "INVALID",
            "16_16_SNORM",
        ] {
            assert_eq!(fmt(name), None, "{name}");
        }
    }

    #[test]
    fn conversions_and_defaults() {
        let h = fmt("16_FLOAT").expect("implemented");
        assert_eq!(h.load(0, 0x3c00), 0x3f80_0000);
        assert_eq!(h.store(0x3f80_0000), 0x3c00);
        assert_eq!(h.store(0x3f80_1000), 0x3c00, "rounds to nearest even");
        assert_eq!(h.load(3, 0), 0x3f80_0000, "w defaults to 1.0");
        assert_eq!(h.load(1, 0xffff), 0, "y defaults to 0");
        let s = fmt("16_SINT").expect("implemented");
        assert_eq!(s.load(0, 0x8001), 0xffff_8001);
        assert_eq!(s.load(3, 0), 1);
        assert_eq!(s.store(0x1234_5678), 0x5678);
    }
}
