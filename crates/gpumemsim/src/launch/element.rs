//! The element types of buffer arguments (`gpumemsim run --arg buf:TYPE[LEN]=INIT`, and the
//! NumPy dtypes the Python package takes): one list for the CLI and the Python package.

/// The most elements a buffer argument may have.
pub const MAX_BUFFER_ELEMENTS: usize = 1 << 26;

/// An element type of buffer arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    U8,
    U16,
    U32,
    I32,
    U64,
    I64,
    F16,
    F32,
    F64,
}

impl ElementType {
    /// Every element type, in the order error messages list them.
    pub const ALL: [ElementType; 9] = [
        ElementType::U8,
        ElementType::U16,
        ElementType::U32,
        ElementType::I32,
        ElementType::U64,
        ElementType::I64,
        ElementType::F16,
        ElementType::F32,
        ElementType::F64,
    ];

    /// The type named `name` (`u8`, `f32`, ...).
    pub fn from_name(name: &str) -> Option<ElementType> {
        ElementType::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The type's name, as the CLI and the reports write it.
    pub fn name(self) -> &'static str {
        match self {
            ElementType::U8 => "u8",
            ElementType::U16 => "u16",
            ElementType::U32 => "u32",
            ElementType::I32 => "i32",
            ElementType::U64 => "u64",
            ElementType::I64 => "i64",
            ElementType::F16 => "f16",
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
        }
    }

    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            ElementType::U8 => 1,
            ElementType::U16 | ElementType::F16 => 2,
            ElementType::U32 | ElementType::I32 | ElementType::F32 => 4,
            ElementType::U64 | ElementType::I64 | ElementType::F64 => 8,
        }
    }

    /// Whether it is a float type.
    pub fn is_float(self) -> bool {
        matches!(self, ElementType::F16 | ElementType::F32 | ElementType::F64)
    }

    /// The little-endian bytes of a value written in text (decimal or `0x` hex for the
    /// integer types, which must hold it; a decimal float for the float types, `f16` rounded
    /// to nearest even); `None` if the text is not such a value.
    ///
    /// A finite float literal too large for the type (`f32:1e40`, `f16:70000`) is `None`,
    /// not infinity; `inf`, `infinity` and `nan` (as Rust spells them) are taken as written.
    pub fn parse_value(self, text: &str) -> Option<Vec<u8>> {
        let t = text.trim();
        let n = self.bytes();
        let infinity_written = || {
            let l = t.trim_start_matches(['+', '-']).to_ascii_lowercase();
            l == "inf" || l == "infinity"
        };
        let fits = |inf: bool| !inf || infinity_written();
        Some(match self {
            ElementType::F32 => {
                let f = t.parse::<f32>().ok().filter(|f| fits(f.is_infinite()))?;
                f.to_bits().to_le_bytes().to_vec()
            }
            ElementType::F64 => {
                let f = t.parse::<f64>().ok().filter(|f| fits(f.is_infinite()))?;
                f.to_bits().to_le_bytes().to_vec()
            }
            ElementType::F16 => {
                let f = t.parse::<f32>().ok()?.to_bits();
                let h = crate::fp::valu::f32_to_f16(f, crate::fp::valu::Round::NearestEven);
                if !fits(h & 0x7fff == 0x7c00) {
                    return None;
                }
                h.to_le_bytes().to_vec()
            }
            _ => {
                let v: i128 = match t.strip_prefix("0x") {
                    Some(h) => i128::from_str_radix(h, 16).ok()?,
                    None => t.parse().ok()?,
                };
                let (lo, hi) = match self {
                    ElementType::I32 => (i32::MIN as i128, i32::MAX as i128),
                    ElementType::I64 => (i64::MIN as i128, i64::MAX as i128),
                    _ => (0, (1i128 << (8 * n)) - 1),
                };
                if v < lo || v > hi {
                    return None;
                }
                (v as i64 as u64).to_le_bytes()[..n].to_vec()
            }
        })
    }

    /// Appends the bytes of the value `i` (an `iota` buffer's element `i`) to `out`, as
    /// [`ElementType::parse_value`] reads `i` written in decimal, without the text; `None`
    /// when the type cannot hold it (a `u8` past 255, an `f16` past 65519).
    pub fn push_index(self, i: u64, out: &mut Vec<u8>) -> Option<()> {
        let n = self.bytes();
        match self {
            // Decimal text of an integer parses to the nearest float, ties to even: as the cast.
            ElementType::F32 => out.extend_from_slice(&(i as f32).to_bits().to_le_bytes()),
            ElementType::F64 => out.extend_from_slice(&(i as f64).to_bits().to_le_bytes()),
            ElementType::F16 => {
                let h = crate::fp::valu::f32_to_f16(
                    (i as f32).to_bits(),
                    crate::fp::valu::Round::NearestEven,
                );
                if h & 0x7fff == 0x7c00 {
                    return None;
                }
                out.extend_from_slice(&h.to_le_bytes());
            }
            _ => {
                let hi = match self {
                    ElementType::I32 => i32::MAX as u64,
                    ElementType::I64 => i64::MAX as u64,
                    _ => u64::MAX >> (64 - 8 * n),
                };
                if i > hi {
                    return None;
                }
                out.extend_from_slice(&i.to_le_bytes()[..n]);
            }
        }
        Some(())
    }

    /// An `iota` buffer of `len` elements, element `i` being [`ElementType::push_index`] of
    /// `i`; `None` when the type cannot hold the last. One loop for the whole buffer (a
    /// buffer may have millions of elements): each type's values grow with the index, so
    /// when the last fits, every one does.
    pub fn iota(self, len: usize) -> Option<Vec<u8>> {
        if let Some(last) = len.checked_sub(1) {
            self.push_index(last as u64, &mut Vec::new())?;
        }
        let n = len as u64;
        let mut out = Vec::with_capacity(len * self.bytes());
        match self {
            ElementType::F32 => out.extend((0..n).flat_map(|i| (i as f32).to_bits().to_le_bytes())),
            ElementType::F64 => out.extend((0..n).flat_map(|i| (i as f64).to_bits().to_le_bytes())),
            ElementType::U32 | ElementType::I32 => {
                out.extend((0..n).flat_map(|i| (i as u32).to_le_bytes()))
            }
            _ => {
                for i in 0..n {
                    self.push_index(i, &mut out)?;
                }
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An `iota` buffer is its elements' index values one after another, and `None` exactly
    /// when one of them does not fit.
    #[test]
    fn an_iota_buffer_is_its_index_values() {
        for e in ElementType::ALL {
            for len in [0usize, 1, 2, 255, 256, 257, 1000, 65519, 65520, 65537] {
                let mut each = Some(Vec::new());
                for i in 0..len as u64 {
                    each = each.and_then(|mut v| e.push_index(i, &mut v).map(|()| v));
                }
                assert_eq!(e.iota(len), each, "{} {len}", e.name());
            }
        }
    }

    #[test]
    fn index_values_are_the_decimal_text_parsed() {
        let mut edges: Vec<u64> = (0..300).collect();
        for b in [8u32, 11, 16, 24, 31, 32, 53, 63] {
            let p = 1u64 << b;
            edges.extend([p - 2, p - 1, p, p + 1, p + 2, p + 3]);
        }
        edges.extend([65504, 65519, 65520, 65535, 16_777_217, 16_777_219, u64::MAX]);
        for e in ElementType::ALL {
            for &i in &edges {
                let mut out = Vec::new();
                let direct = e.push_index(i, &mut out).map(|()| out);
                assert_eq!(direct, e.parse_value(&i.to_string()), "{} {i}", e.name());
            }
        }
    }

    #[test]
    fn a_float_too_large_for_its_type_is_not_a_value() {
        assert_eq!(ElementType::F32.parse_value("1e40"), None);
        assert_eq!(ElementType::F32.parse_value("-1e40"), None);
        assert_eq!(ElementType::F64.parse_value("1e400"), None);
        assert_eq!(ElementType::F16.parse_value("70000"), None);
        assert_eq!(
            ElementType::F16.parse_value("65504").map(|b| b.len()),
            Some(2)
        );
        let inf = f32::INFINITY.to_bits().to_le_bytes().to_vec();
        assert_eq!(ElementType::F32.parse_value("inf"), Some(inf.clone()));
        assert_eq!(ElementType::F32.parse_value("+Infinity"), Some(inf));
        assert_eq!(
            ElementType::F16.parse_value("-inf"),
            Some(0xfc00u16.to_le_bytes().to_vec())
        );
    }

    #[test]
    fn names_round_trip_and_sizes() {
        for e in ElementType::ALL {
            assert_eq!(ElementType::from_name(e.name()), Some(e));
        }
        assert_eq!(ElementType::from_name("f128"), None);
        let sizes: Vec<usize> = ElementType::ALL.iter().map(|e| e.bytes()).collect();
        assert_eq!(sizes, [1, 2, 4, 4, 8, 8, 2, 4, 8]);
    }

    #[test]
    fn values_parse_to_little_endian_bytes_within_range() {
        assert_eq!(
            ElementType::U16.parse_value("0x1234"),
            Some(vec![0x34, 0x12])
        );
        assert_eq!(ElementType::U8.parse_value("256"), None);
        assert_eq!(ElementType::U32.parse_value("-1"), None);
        assert_eq!(ElementType::I32.parse_value("-1"), Some(vec![0xff; 4]));
        assert_eq!(ElementType::I32.parse_value("2147483648"), None);
        assert_eq!(
            ElementType::I64.parse_value("-2"),
            Some(vec![0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
        );
        assert_eq!(ElementType::I64.parse_value("9223372036854775808"), None);
        assert_eq!(
            ElementType::U64.parse_value("18446744073709551615"),
            Some(vec![0xff; 8])
        );
        assert_eq!(
            ElementType::F32.parse_value(" 1.5 "),
            Some(1.5f32.to_le_bytes().to_vec())
        );
        // f16: 1/3 rounds to nearest even, 0x3555.
        assert_eq!(
            ElementType::F16.parse_value("0.33333334"),
            Some(vec![0x55, 0x35])
        );
        assert_eq!(ElementType::F64.parse_value("x"), None);
    }
}
