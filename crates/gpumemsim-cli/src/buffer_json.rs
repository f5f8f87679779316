//! Kernel arguments in `run`'s report, written from the bytes read back: a buffer's values
//! are produced one at a time as the JSON is written ([`Report`]) or summarised
//! ([`summarise_buffer`]), never held as one JSON value per element (a 16 MB buffer would
//! take 128 MB that way).

use gpumemsim::launch::ElementType;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{json, Map, Value};

/// A value of type `e` read back (its little-endian bytes), as a JSON number; a float that
/// JSON has no number for as the string `"Infinity"` or `"-Infinity"`, or, for a NaN,
/// `{"nan": "0x7fc00001"}` (its bits, in the type's width) — docs/kernels.md.
pub fn json_value(e: ElementType, b: &[u8]) -> Value {
    let mut x = [0u8; 8];
    x[..b.len()].copy_from_slice(b);
    let u = u64::from_le_bytes(x);
    let float = |f: f64, digits: usize| -> Value {
        if f.is_nan() {
            json!({"nan": format!("{u:#0w$x}", w = digits + 2)})
        } else if f.is_infinite() {
            json!(if f > 0.0 { "Infinity" } else { "-Infinity" })
        } else {
            json!(f)
        }
    };
    match e {
        ElementType::I32 => json!(u as u32 as i32),
        ElementType::I64 => json!(u as i64),
        ElementType::F32 => match float(f32::from_bits(u as u32) as f64, 8) {
            Value::Number(_) => json!(f32::from_bits(u as u32)),
            v => v,
        },
        ElementType::F64 => float(f64::from_bits(u), 16),
        ElementType::F16 => {
            let f = f32::from_bits(gpumemsim::fp::valu::f16_to_f32(u as u16));
            match float(f as f64, 4) {
                Value::Number(_) => json!(f),
                v => v,
            }
        }
        _ => json!(u),
    }
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
        let n = self.elem.bytes();
        json_value(self.elem, &self.raw[i * n..(i + 1) * n])
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

/// A value [`json_value`] writes as a JSON number, as serde_json's `Value` holds it (a
/// float widened to f64).
enum Number {
    Signed(i64),
    Unsigned(u64),
    Float(f64),
}

/// Element `b` of type `e` as the number [`json_value`] makes of it, or `None` for a NaN or
/// an infinity (not JSON numbers).
fn plain_number(e: ElementType, b: &[u8]) -> Option<Number> {
    let mut x = [0u8; 8];
    x[..b.len()].copy_from_slice(b);
    let u = u64::from_le_bytes(x);
    let float = |f: f64| f.is_finite().then_some(Number::Float(f));
    match e {
        ElementType::I32 => Some(Number::Signed(i64::from(u as u32 as i32))),
        ElementType::I64 => Some(Number::Signed(u as i64)),
        ElementType::F32 => float(f64::from(f32::from_bits(u as u32))),
        ElementType::F64 => float(f64::from_bits(u)),
        ElementType::F16 => float(f64::from(f32::from_bits(gpumemsim::fp::valu::f16_to_f32(
            u as u16,
        )))),
        _ => Some(Number::Unsigned(u)),
    }
}

/// One entry of `"args"`: a JSON object, and for a buffer its values (the object's
/// `"values"` key, written in its sorted place).
pub struct ArgOut<'a> {
    pub fields: Map<String, Value>,
    pub values: Option<BufferValues<'a>>,
}

impl Serialize for ArgOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Some(values) = &self.values else {
            return self.fields.serialize(s);
        };
        // The keys in the order a `serde_json::Map` (sorted) gives them.
        let mut keys: Vec<&str> = self.fields.keys().map(String::as_str).collect();
        keys.push("values");
        keys.sort_unstable();
        let mut m = s.serialize_map(Some(keys.len()))?;
        for k in keys {
            match self.fields.get(k) {
                Some(v) => m.serialize_entry(k, v)?,
                None => m.serialize_entry(k, values)?,
            }
        }
        m.end()
    }
}

/// `run --json`'s report: the object `obj` with `"args"` written from `args`.
pub struct Report<'a> {
    pub obj: &'a Map<String, Value>,
    pub args: &'a [ArgOut<'a>],
}

impl Serialize for Report<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut keys: Vec<&str> = self.obj.keys().map(String::as_str).collect();
        if !self.obj.contains_key("args") {
            keys.push("args");
            keys.sort_unstable();
        }
        let mut m = s.serialize_map(Some(keys.len()))?;
        for k in keys {
            if k == "args" {
                m.serialize_entry(k, self.args)?;
            } else {
                m.serialize_entry(k, &self.obj[k])?;
            }
        }
        m.end()
    }
}

/// `n` values (the `i`th from `get`) as the text report shows them: all of them (with
/// `full`, or up to 8), else the count, the least and greatest when every value is a number,
/// and the first four and last two.
pub fn summarise_with(n: usize, full: bool, get: impl Fn(usize) -> Value) -> String {
    let show = |r: std::ops::Range<usize>| {
        r.map(|i| crate::run_text::value_text(&get(i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if full || n <= 8 {
        return format!("[{}]", show(0..n));
    }
    // The first least value and the last greatest (Iterator::min_by and max_by).
    let mut least: Option<(f64, usize)> = None;
    let mut most: Option<(f64, usize)> = None;
    let mut all_numbers = true;
    for i in 0..n {
        let Some(x) = get(i).as_f64() else {
            all_numbers = false;
            break;
        };
        if least.is_none_or(|(l, _)| x.total_cmp(&l).is_lt()) {
            least = Some((x, i));
        }
        if most.is_none_or(|(m, _)| x.total_cmp(&m).is_ge()) {
            most = Some((x, i));
        }
    }
    let range = match (all_numbers, least, most) {
        (true, Some((_, l)), Some((_, m))) => format!(
            ", min {}, max {}",
            crate::run_text::value_text(&get(l)),
            crate::run_text::value_text(&get(m))
        ),
        _ => String::new(),
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

    #[test]
    fn a_report_writes_its_args_in_the_sorted_place_of_the_key() {
        let raw = 7u32.to_le_bytes();
        let mut fields = Map::new();
        fields.insert("kind".into(), json!("buffer"));
        fields.insert("type".into(), json!("u32"));
        fields.insert("address".into(), json!(4096));
        let args = [ArgOut {
            fields,
            values: Some(BufferValues {
                elem: ElementType::U32,
                raw: &raw,
            }),
        }];
        let obj = json!({"zeta": 1, "alpha": 2});
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
        let s = summarise_with(vals.len(), false, |i| vals[i].clone());
        assert_eq!(
            s,
            "9 values, min 0.5, max 9: [3, 1, 9, 1, …, 0.5, 4] (--full for all)"
        );
        let s = summarise_with(3, false, |i| vals[i].clone());
        assert_eq!(s, "[3, 1, 9]");
    }
}
