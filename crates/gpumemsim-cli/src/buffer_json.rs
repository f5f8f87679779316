//! Kernel arguments in `run`'s report, written from the bytes read back: a buffer's values
//! are produced one at a time as the JSON is written ([`Report`]) or summarised
//! ([`summarise_with`]), never held as one JSON value per element (a 16 MB buffer would
//! take 128 MB that way).

use gpumemsim::launch::ElementType;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{json, Map, Value};

/// serde_json's compact output, with whole-number floats below 2^24 in magnitude written
/// as their digits and `.0`: what serde_json writes for them (`5.0`, `-0.0`; a test compares
/// every such value with serde_json's own writer), and about four times faster than its
/// shortest-digits path. Buffers of floats holding whole numbers (indices, counts) fill most
/// of a large report. Every other float goes to serde_json's own writer.
pub struct WholeFloats;

impl serde_json::ser::Formatter for WholeFloats {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        // False for NaN and the infinities; the cast is exact below 2^24 in magnitude, and
        // no libm `trunc` call is made.
        if v.abs() < 16_777_216.0 && f64::from(v as i32) == v {
            // One write of at most "-16777215.0", its digits put in place from the right.
            let mut text = [b'.'; 12];
            text[11] = b'0';
            let (mut i, mut x) = (10, v.abs() as u32);
            loop {
                i -= 1;
                text[i] = b'0' + (x % 10) as u8;
                x /= 10;
                if x == 0 {
                    break;
                }
            }
            if v.is_sign_negative() {
                i -= 1;
                text[i] = b'-';
            }
            return w.write_all(&text[i..]);
        }
        serde_json::ser::CompactFormatter.write_f64(w, v)
    }
}

/// `value` as compact JSON, floats written by [`WholeFloats`].
pub fn write_compact<W: std::io::Write, T: Serialize + ?Sized>(
    w: W,
    value: &T,
) -> serde_json::Result<()> {
    value.serialize(&mut serde_json::Serializer::with_formatter(w, WholeFloats))
}

/// A value of type `e` read back (its little-endian bytes), as a JSON number; a float that
/// JSON has no number for as the string `"Infinity"` or `"-Infinity"`, or, for a NaN,
/// `{"nan": "0x7fc00001"}` (its bits, in the type's width) — docs/kernels.md.
pub fn json_value(e: ElementType, b: &[u8]) -> Value {
    match plain_number(e, b) {
        Some(Number::Signed(n)) => json!(n),
        Some(Number::Unsigned(n)) => json!(n),
        Some(Number::Float(f)) => json!(f),
        None => not_a_number(e, le_u64(b)),
    }
}

/// A float element with bits `u` that is a NaN (`{"nan": "0x…"}`, in the type's width) or
/// an infinity (`"Infinity"`, `"-Infinity"`).
fn not_a_number(e: ElementType, u: u64) -> Value {
    let (f, digits) = match e {
        ElementType::F64 => (f64::from_bits(u), 16),
        ElementType::F16 => (widen_f16(u), 4),
        _ => (f64::from(f32::from_bits(u as u32)), 8),
    };
    if f.is_nan() {
        json!({"nan": format!("{u:#0w$x}", w = digits + 2)})
    } else {
        json!(if f > 0.0 { "Infinity" } else { "-Infinity" })
    }
}

/// Up to 8 little-endian bytes as a number (the element sizes read as fixed-size arrays,
/// without a copy of unknown length).
#[inline(always)]
fn le_u64(b: &[u8]) -> u64 {
    match *b {
        [a] => u64::from(a),
        [a, b] => u64::from(u16::from_le_bytes([a, b])),
        [a, b, c, d] => u64::from(u32::from_le_bytes([a, b, c, d])),
        [a, b, c, d, e, f, g, h] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => {
            let mut x = [0u8; 8];
            x[..b.len()].copy_from_slice(b);
            u64::from_le_bytes(x)
        }
    }
}

/// The f16 with bits `u` (low 16), widened exactly.
fn widen_f16(u: u64) -> f64 {
    f64::from(f32::from_bits(gpumemsim::fp::valu::f16_to_f32(u as u16)))
}

/// Element `b` of type `e` as the number its JSON value reads as (`Value::as_f64`); `None`
/// for a NaN or an infinity.
#[inline(always)]
fn number_of(e: ElementType, b: &[u8]) -> Option<f64> {
    Some(match plain_number(e, b)? {
        Number::Signed(n) => n as f64,
        Number::Unsigned(n) => n as f64,
        Number::Float(f) => f,
    })
}

/// The positions of the first least and the last greatest of `numbers` (as
/// `Iterator::min_by` and `max_by` with `f64::total_cmp` pick them); `None` when there are
/// none or one is not a number.
pub fn extremes(numbers: impl Iterator<Item = Option<f64>>) -> Option<(usize, usize)> {
    // `f64::total_cmp` compares these keys: the bits as a signed integer, the magnitude bits
    // flipped for negative values. Each value's key is made once.
    let key = |x: f64| {
        let b = x.to_bits() as i64;
        b ^ (((b >> 63) as u64) >> 1) as i64
    };
    let (mut least, mut most) = ((i64::MAX, usize::MAX), (i64::MIN, usize::MAX));
    for (i, x) in numbers.enumerate() {
        let k = key(x?);
        // The first least (a later equal one does not replace it), the last greatest.
        if k < least.0 || least.1 == usize::MAX {
            least = (k, i);
        }
        if k >= most.0 {
            most = (k, i);
        }
    }
    (least.1 != usize::MAX).then_some((least.1, most.1))
}

/// [`extremes`] of 4-byte elements (`raw`, little-endian words), by `key`, which orders the
/// words as their values, with `finite` false for a word that is not a number: two passes
/// the compiler vectorises (the least and greatest key and whether every word is a number;
/// then the first position of the one and the last of the other) instead of one pass of
/// branches over `f64`s. A text report scans every value of buffers of millions.
fn extremes32(
    raw: &[u8],
    key: impl Fn(u32) -> i32 + Copy,
    finite: impl Fn(u32) -> bool + Copy,
) -> Option<(usize, usize)> {
    let words = || {
        raw.chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (mut lo, mut hi, mut numbers) = (i32::MAX, i32::MIN, true);
    for w in words() {
        let k = key(w);
        lo = lo.min(k);
        hi = hi.max(k);
        numbers &= finite(w);
    }
    if !numbers {
        return None;
    }
    let least = words().position(|w| key(w) == lo)?;
    let most = words().rposition(|w| key(w) == hi)?;
    Some((least, most))
}

/// A buffer's values, serialised as a JSON array one element at a time.
pub struct BufferValues<'a> {
    pub elem: ElementType,
    pub raw: &'a [u8],
}

impl BufferValues<'_> {
    /// Elements in the buffer.
    pub fn len(&self) -> usize {
        self.raw.len() / self.elem.bytes()
    }

    /// Element `i` as its JSON value.
    pub fn get(&self, i: usize) -> Value {
        json_value(self.elem, self.element(i))
    }

    /// The [`extremes`] of the values as [`number_of`] reads them: a loop compiled
    /// for each element type (the text report scans every value of a buffer of millions).
    pub fn extremes(&self) -> Option<(usize, usize)> {
        use ElementType as E;
        macro_rules! scan {
            ($e:expr, $bytes:literal) => {
                extremes(self.raw.chunks_exact($bytes).map(|b| number_of($e, b)))
            };
        }
        match self.elem {
            E::U8 => scan!(E::U8, 1),
            E::U16 => scan!(E::U16, 2),
            E::F16 => scan!(E::F16, 2),
            // Keys in an `i32` that order as the values do (a 32-bit value is exact as the
            // f64 `extremes` compares); a float's as `f32::total_cmp` orders it.
            E::U32 => extremes32(self.raw, |w| (w ^ 0x8000_0000) as i32, |_| true),
            E::I32 => extremes32(self.raw, |w| w as i32, |_| true),
            E::F32 => extremes32(
                self.raw,
                |w| {
                    let b = w as i32;
                    b ^ (((b >> 31) as u32) >> 1) as i32
                },
                |w| w & 0x7f80_0000 != 0x7f80_0000,
            ),
            E::U64 => scan!(E::U64, 8),
            E::I64 => scan!(E::I64, 8),
            E::F64 => scan!(E::F64, 8),
        }
    }

    /// Element `i`'s bytes.
    fn element(&self, i: usize) -> &[u8] {
        let n = self.elem.bytes();
        &self.raw[i * n..(i + 1) * n]
    }
}

impl Serialize for BufferValues<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for c in self.raw.chunks(self.elem.bytes()) {
            // A number is written as its `Value` would be, without making the `Value`.
            match plain_number(self.elem, c) {
                Some(Number::Signed(n)) => seq.serialize_element(&n)?,
                Some(Number::Unsigned(n)) => seq.serialize_element(&n)?,
                Some(Number::Float(f)) => seq.serialize_element(&f)?,
                None => seq.serialize_element(&json_value(self.elem, c))?,
            }
        }
        seq.end()
    }
}

/// An element that JSON writes as a number, as serde_json's `Value` holds it (a float
/// widened to f64).
enum Number {
    Signed(i64),
    Unsigned(u64),
    Float(f64),
}

/// Element `b` of type `e` as a JSON number, or `None` for a NaN or an infinity (not JSON
/// numbers: [`json_value`] writes them).
#[inline(always)]
fn plain_number(e: ElementType, b: &[u8]) -> Option<Number> {
    let u = le_u64(b);
    let float = |f: f64| f.is_finite().then_some(Number::Float(f));
    match e {
        ElementType::I32 => Some(Number::Signed(i64::from(u as u32 as i32))),
        ElementType::I64 => Some(Number::Signed(u as i64)),
        ElementType::F32 => float(f64::from(f32::from_bits(u as u32))),
        ElementType::F64 => float(f64::from_bits(u)),
        ElementType::F16 => float(widen_f16(u)),
        _ => Some(Number::Unsigned(u)),
    }
}

/// One entry of `"args"`: a JSON object, and for a buffer its values, written in place of
/// the object's `"values"` entry (a placeholder, so that the object keeps its key order).
pub struct ArgOut<'a> {
    pub fields: Map<String, Value>,
    pub values: Option<BufferValues<'a>>,
}

impl Serialize for ArgOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.fields.len()))?;
        for (k, v) in &self.fields {
            match &self.values {
                Some(values) if k == "values" => m.serialize_entry(k, values)?,
                _ => m.serialize_entry(k, v)?,
            }
        }
        m.end()
    }
}

/// `run --json`'s report: the object `obj`, its `"args"` entry (a placeholder) written from
/// `args`.
pub struct Report<'a> {
    pub obj: &'a Map<String, Value>,
    pub args: &'a [ArgOut<'a>],
}

impl Serialize for Report<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.obj.len()))?;
        for (k, v) in self.obj {
            if k == "args" {
                m.serialize_entry(k, self.args)?;
            } else {
                m.serialize_entry(k, v)?;
            }
        }
        m.end()
    }
}

/// `n` values (the `i`th from `get`) as the text report shows them: all of them (with
/// `full`, or up to 8), else the count, the least and greatest when every value is a number
/// (`extremes`: their positions, as [`extremes`] finds them), and the first four and last
/// two.
pub fn summarise_with(
    n: usize,
    full: bool,
    get: impl Fn(usize) -> Value,
    extremes: impl FnOnce() -> Option<(usize, usize)>,
) -> String {
    let show = |r: std::ops::Range<usize>| {
        r.map(|i| crate::run_text::value_text(&get(i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if full || n <= 8 {
        return format!("[{}]", show(0..n));
    }
    let range = match extremes() {
        Some((l, m)) => format!(
            ", min {}, max {}",
            crate::run_text::value_text(&get(l)),
            crate::run_text::value_text(&get(m))
        ),
        None => String::new(),
    };
    format!(
        "{n} values{range}: [{}, …, {}] (--full for all)",
        show(0..4),
        show(n - 2..n)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_values_serialise_as_a_json_array_of_their_values() {
        let raw: Vec<u8> = [1.5f32, f32::NAN, f32::INFINITY, -0.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let v = BufferValues {
            elem: ElementType::F32,
            raw: &raw,
        };
        let whole: Vec<Value> = (0..v.len()).map(|i| v.get(i)).collect();
        assert_eq!(
            serde_json::to_string(&v).expect("serialises"),
            serde_json::to_string(&whole).expect("serialises")
        );
        assert_eq!(
            serde_json::to_string(&v).expect("serialises"),
            r#"[1.5,{"nan":"0x7fc00000"},"Infinity",-0.0]"#
        );
    }

    #[test]
    fn every_element_type_writes_as_its_json_value_would() {
        let mut rng = gpumemsim::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let specials = [
            0u64,
            0x8000_0000,
            0x7fc0_0001,
            0x7f80_0000,
            0xff80_0000,
            0x7c00,
            0xfe00,
        ];
        for e in ElementType::ALL {
            let mut raw = Vec::new();
            for i in 0..2000 {
                let x = rng.next_u64();
                let v = if i < specials.len() { specials[i] } else { x };
                raw.extend_from_slice(&v.to_le_bytes()[..e.bytes()]);
            }
            let v = BufferValues { elem: e, raw: &raw };
            let whole: Vec<Value> = (0..v.len()).map(|i| v.get(i)).collect();
            assert_eq!(
                serde_json::to_string(&v).expect("serialises"),
                serde_json::to_string(&whole).expect("serialises"),
                "{}",
                e.name()
            );
        }
    }

    /// serde_json's text for `v`, and `WholeFloats`'.
    fn both(v: f64) -> (String, String) {
        let mut fast = Vec::new();
        write_compact(&mut fast, &v).expect("writes");
        let fast = String::from_utf8(fast).expect("UTF-8");
        (serde_json::to_string(&v).expect("serialises"), fast)
    }

    /// Whole numbers below 2^24 (every one below 2^16, random ones above, both signs), the
    /// edges around 2^24, and floats that are not whole: the same text as serde_json's.
    #[test]
    fn whole_floats_are_written_as_serde_json_writes_them() {
        let mut rng = gpumemsim::xorshift::XorShift::new(0x5851_f42d_4c95_7f2d);
        let mut values: Vec<f64> = (0..1 << 16).map(f64::from).collect();
        values.extend((0..200_000).map(|_| rng.below(1 << 24) as f64));
        values.extend([16_777_215.0, 16_777_216.0, 16_777_217.0, 1e15, 1e16, 2.5e30]);
        values.extend([
            0.5,
            0.1,
            1.0 / 3.0,
            16_777_215.5,
            f64::MIN_POSITIVE,
            f64::MAX,
        ]);
        values.extend((0..100_000).map(|_| f64::from(f32::from_bits(rng.next_u64() as u32))));
        for v in values.into_iter().flat_map(|v| [v, -v]) {
            let (json, fast) = both(v);
            assert_eq!(fast, json, "{v:e}");
        }
        assert_eq!(both(-0.0).1, "-0.0");
        assert_eq!(both(f64::NAN).1, "null");
    }

    /// Every whole number the fast path writes (magnitude below 2^24, both signs): the
    /// same text as serde_json's own writer, through reused buffers.
    #[test]
    fn every_whole_float_below_2_24_is_written_as_serde_json_writes_it() {
        let (mut json, mut fast) = (Vec::with_capacity(32), Vec::with_capacity(32));
        for n in 0..1u32 << 24 {
            for v in [f64::from(n), -f64::from(n)] {
                json.clear();
                fast.clear();
                serde_json::to_writer(&mut json, &v).expect("writes");
                write_compact(&mut fast, &v).expect("writes");
                assert_eq!(fast, json, "{v}");
            }
        }
    }

    /// A buffer element's number ([`number_of`]) is what its JSON value reads as.
    #[test]
    fn an_elements_number_is_its_values_as_f64() {
        let mut rng = gpumemsim::xorshift::XorShift::new(0x2545_f491_4f6c_dd1d);
        for e in ElementType::ALL {
            let raw: Vec<u8> = (0..4000).map(|_| rng.next_u64() as u8).collect();
            let v = BufferValues { elem: e, raw: &raw };
            for i in 0..v.len() {
                let number = number_of(e, v.element(i));
                assert_eq!(number, v.get(i).as_f64(), "{} {i}", e.name());
            }
        }
    }

    /// A buffer's extremes, found by the loop compiled for its element type, are those of
    /// its elements' values: on random bytes (NaNs and infinities among the floats' now and
    /// then, which leave none), on small values with ties (the first least, the last
    /// greatest), with signed zeros.
    #[test]
    fn a_buffers_extremes_are_its_values_extremes() {
        let mut rng = gpumemsim::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let (mut found, mut none) = (0, 0);
        for case in 0..400 {
            let e = ElementType::ALL[case % ElementType::ALL.len()];
            let n = e.bytes() * (1 + rng.below(40) as usize);
            let raw: Vec<u8> = match case % 3 {
                0 => (0..n).map(|_| rng.next_u64() as u8).collect(),
                // Few distinct small values, with ties; the floats' sign bytes set now and
                // then (negative values and -0.0).
                _ => (0..n)
                    .map(|k| match k % e.bytes() {
                        0 => rng.below(3) as u8,
                        j if j + 1 == e.bytes() && rng.below(4) == 0 => 0x80,
                        _ => 0,
                    })
                    .collect(),
            };
            let v = BufferValues { elem: e, raw: &raw };
            // Iterator::min_by keeps the first least, max_by the last greatest.
            let values: Option<Vec<(usize, f64)>> = (0..v.len())
                .map(|i| Some((i, v.get(i).as_f64()?)))
                .collect();
            let want = values.and_then(|vals| {
                let least = vals.iter().min_by(|a, b| a.1.total_cmp(&b.1))?.0;
                let most = vals.iter().max_by(|a, b| a.1.total_cmp(&b.1))?.0;
                Some((least, most))
            });
            assert_eq!(v.extremes(), want, "{} case {case}", e.name());
            found += want.is_some() as u32;
            none += want.is_none() as u32;
        }
        assert!(
            found > 200 && none > 5,
            "{found} with extremes, {none} without"
        );
    }

    #[test]
    fn a_report_writes_its_args_in_the_sorted_place_of_the_key() {
        let raw = 7u32.to_le_bytes();
        let mut fields = Map::new();
        fields.insert("kind".into(), json!("buffer"));
        fields.insert("type".into(), json!("u32"));
        fields.insert("address".into(), json!(4096));
        fields.insert("values".into(), Value::Null);
        let args = [ArgOut {
            fields,
            values: Some(BufferValues {
                elem: ElementType::U32,
                raw: &raw,
            }),
        }];
        let obj = json!({"zeta": 1, "alpha": 2, "args": null});
        let r = Report {
            obj: obj.as_object().expect("an object"),
            args: &args,
        };
        assert_eq!(
            serde_json::to_string(&r).expect("serialises"),
            r#"{"alpha":2,"args":[{"address":4096,"kind":"buffer","type":"u32","values":[7]}],"zeta":1}"#
        );
    }

    #[test]
    fn summaries_take_the_first_least_and_last_greatest_value() {
        let vals = [
            json!(3),
            json!(1),
            json!(9),
            json!(1),
            json!(9),
            json!(2),
            json!(5),
            json!(0.5),
            json!(4),
        ];
        let ends = || extremes(vals.iter().map(Value::as_f64));
        let s = summarise_with(vals.len(), false, |i| vals[i].clone(), ends);
        assert_eq!(
            s,
            "9 values, min 0.5, max 9: [3, 1, 9, 1, …, 0.5, 4] (--full for all)"
        );
        let s = summarise_with(3, false, |i| vals[i].clone(), ends);
        assert_eq!(s, "[3, 1, 9]");
    }
}
