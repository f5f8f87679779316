//! printf, the host's half: the printf buffer a kernel writes (OpenCL's printf, lowered by
//! LLVM's printf runtime binding) read back into the strings it prints, formatted as C's
//! printf formats them (docs/rules/addressing.md#printf).
//!
//! The buffer, as the device library's `__printf_alloc` uses it: a u32 byte count of the
//! records written so far, a u32 size of the whole buffer, then the records from byte 8.
//! A record is a u32 format id followed by its arguments, each as many bytes as the
//! format's entry in the code object's metadata (`amdhsa.printf`, entries
//! `ID:N:SIZE1:...:SIZEN:FORMAT`) says; a `%s` argument is the string's bytes (with its
//! NUL) padded to 4 bytes.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One format of the code object's `amdhsa.printf` metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfFormat {
    /// The bytes each argument takes in a record.
    pub sizes: Vec<u32>,
    /// The format string.
    pub text: String,
}

/// The formats of `amdhsa.printf` entries, by id; an entry that does not parse is left out.
pub fn parse_formats(entries: &[String]) -> BTreeMap<u32, PrintfFormat> {
    let mut out = BTreeMap::new();
    for e in entries {
        let mut parts = e.splitn(3, ':');
        let (Some(id), Some(n), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (Ok(id), Ok(n)) = (id.parse::<u32>(), n.parse::<usize>()) else {
            continue;
        };
        let mut fields = rest.splitn(n + 1, ':');
        let sizes: Option<Vec<u32>> = (0..n)
            .map(|_| fields.next().and_then(|s| s.parse().ok()))
            .collect();
        let (Some(sizes), Some(text)) = (sizes, fields.next()) else {
            continue;
        };
        out.insert(
            id,
            PrintfFormat {
                sizes,
                text: unescape(text),
            },
        );
    }
    out
}

/// The metadata's escapes undone: LLVM writes the format with C's escapes (`\n`, `\t`,
/// `\\`, ...) and `:` as `\72` (octal), so that the entry's fields stay apart.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        i += 2;
        let simple = match c {
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'v' => Some(11),
            b'\\' | b'"' | b'\'' | b'?' => Some(c),
            _ => None,
        };
        if let Some(v) = simple {
            out.push(v);
        } else if (b'0'..=b'7').contains(&c) {
            let mut v = u32::from(c - b'0');
            for _ in 0..2 {
                match b.get(i) {
                    Some(d @ b'0'..=b'7') => {
                        v = v * 8 + u32::from(d - b'0');
                        i += 1;
                    }
                    _ => break,
                }
            }
            out.push(v as u8);
        } else if c == b'x' {
            let mut v = 0u32;
            while let Some(d) = b.get(i).and_then(|d| char::from(*d).to_digit(16)) {
                v = (v << 4 | d) & 0xff;
                i += 1;
            }
            out.push(v as u8);
        } else {
            out.extend([b'\\', c]);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The bytes of a NUL-terminated string packed in `words` from word `at`, and the number
/// of words it takes (its bytes with the NUL, padded to a word).
pub fn string_at(words: &[u64], at: usize) -> (String, usize) {
    let mut bytes = Vec::new();
    for (k, w) in words.iter().enumerate().skip(at) {
        for b in w.to_le_bytes() {
            if b == 0 {
                return (String::from_utf8_lossy(&bytes).into_owned(), k + 1 - at);
            }
            bytes.push(b);
        }
    }
    let n = words.len().saturating_sub(at);
    (String::from_utf8_lossy(&bytes).into_owned(), n)
}

/// `format` with arguments as a stream of 64-bit words, as HIP's printf passes them (the
/// hostcall message, the buffered record): each argument one word — integers
/// zero-extended, the length modifier saying how many bits are the value (none, `h`, `hh`:
/// 32; `l`, `ll`, `z`, `j`, `t`: 64), floats as f64 — and a `%s` string inline, its bytes
/// with the NUL padded to a word. Where the words run out, printing stops.
pub fn format_words(format: &str, words: &[u64]) -> String {
    let mut at = 0;
    let mut next = |c: Conversion| -> Option<PrintfArg> {
        if c.conv == 's' {
            if at >= words.len() {
                return None;
            }
            let (text, used) = string_at(words, at);
            at += used;
            return Some(PrintfArg {
                bits: 0,
                size: 8,
                text: Some(text),
            });
        }
        let w = *words.get(at)?;
        at += 1;
        let size = if c.wide || c.is_float() { 8 } else { 4 };
        Some(PrintfArg {
            bits: w,
            size,
            text: None,
        })
    };
    format_with(format, &mut next)
}

/// One argument of a printf: its raw bits (little-endian, `size` bytes) or, for a string
/// argument, its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfArg {
    /// The value's bits.
    pub bits: u64,
    /// Its size in bytes (4 or 8; a float of 4 bytes is an f32).
    pub size: u32,
    /// The string, for an argument passed as one.
    pub text: Option<String>,
}

/// The formats of HIP's buffered printf (`-mprintf-kind=buffered`), by the 64-bit hash its
/// records carry: `amdhsa.printf` entries `0:0:HASH,FORMAT` (HASH in hex).
pub fn hashed_formats(entries: &[String]) -> BTreeMap<u64, String> {
    entries
        .iter()
        .filter_map(|e| {
            let rest = e.strip_prefix("0:0:")?;
            let (hash, text) = rest.split_once(',')?;
            Some((u64::from_str_radix(hash, 16).ok()?, unescape(text)))
        })
        .collect()
}

/// The strings the records of a HIP buffered printf buffer print: each record a u32
/// control word (its size in bytes << 2; bit 1: the format is hashed; bit 0: stderr), the
/// format's u64 hash, then the arguments as 8-byte words (LLVM's AMDGPUEmitPrintf).
pub fn read_hashed_buffer(buffer: &[u8], formats: &BTreeMap<u64, String>) -> Vec<String> {
    let word = |at: usize, n: usize| -> Option<u64> {
        let b = buffer.get(at..at + n)?;
        let mut raw = [0u8; 8];
        raw[..n].copy_from_slice(b);
        Some(u64::from_le_bytes(raw))
    };
    let written = word(0, 4).unwrap_or(0) as usize;
    let end = (8 + written).min(buffer.len());
    let mut out = Vec::new();
    let mut at = 8;
    while at + 12 <= end {
        let (Some(control), Some(hash)) = (word(at, 4), word(at + 4, 8)) else {
            break;
        };
        let size = (control >> 2) as usize;
        let Some(format) = formats
            .get(&hash)
            .filter(|_| size >= 12 && at + size <= end)
        else {
            out.push(format!(
                "<gpumemsim: printf record at buffer byte {at} (format hash {hash:#x}, {size} bytes) does not match the metadata>"
            ));
            break;
        };
        let words: Vec<u64> = (at + 12..at + size)
            .step_by(8)
            .filter_map(|k| word(k, (at + size - k).min(8)))
            .collect();
        out.push(format_words(format, &words));
        at += size;
    }
    out
}

/// The strings the records of a printf buffer print, in the order they were written (the
/// order the device reserved them in); a record whose format id is unknown, or that runs
/// past the written bytes, ends the reading with a line saying so.
pub fn read_buffer(buffer: &[u8], formats: &BTreeMap<u32, PrintfFormat>) -> Vec<String> {
    let u32_at = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(buffer.get(at..at + 4)?.try_into().ok()?))
    };
    let written = u32_at(0).unwrap_or(0) as usize;
    let end = (8 + written).min(buffer.len());
    let mut out = Vec::new();
    let mut at = 8;
    while at + 4 <= end {
        let Some(id) = u32_at(at) else { break };
        let Some(f) = formats.get(&id) else {
            out.push(format!(
                "<gpumemsim: printf record at buffer byte {at} names format {id}, which the metadata does not have>"
            ));
            break;
        };
        at += 4;
        let mut args = Vec::new();
        for (k, &size) in f.sizes.iter().enumerate() {
            let Some(bytes) = buffer
                .get(at..at + size as usize)
                .filter(|_| at + size as usize <= end)
            else {
                out.push(format!(
                    "<gpumemsim: printf record of format {id} ends inside its argument {k}>"
                ));
                return out;
            };
            let mut raw = [0u8; 8];
            let n = bytes.len().min(8);
            raw[..n].copy_from_slice(&bytes[..n]);
            let text = bytes.split(|&c| c == 0).next().unwrap_or(&[]);
            args.push(PrintfArg {
                bits: u64::from_le_bytes(raw),
                size,
                text: Some(String::from_utf8_lossy(text).into_owned()),
            });
            at += size as usize;
        }
        out.push(format_c(&f.text, &args, true));
    }
    out
}

/// `fmt` formatted with `args` as C's printf formats it ([`format_with`]), the arguments
/// taken in order (`*` widths too). With `string_args`, an argument's text is used for `%s`
/// (OpenCL's buffer holds the string itself); else `%s` prints `(null)`.
pub fn format_c(fmt: &str, args: &[PrintfArg], string_args: bool) -> String {
    let mut args = args.iter();
    format_with(fmt, &mut |c: Conversion| {
        let a = args.next()?.clone();
        Some(if c.conv == 's' && !string_args {
            PrintfArg { text: None, ..a }
        } else {
            a
        })
    })
}

/// What a conversion asks of its argument: the conversion character (`*` for a width or
/// precision taken from the arguments) and whether a length modifier made it 64 bits
/// (`l`, `ll`, `j`, `z`, `t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conversion {
    /// The conversion character, or `*`.
    pub conv: char,
    /// A 64-bit length modifier.
    pub wide: bool,
}

impl Conversion {
    /// A floating-point conversion.
    pub fn is_float(&self) -> bool {
        matches!(self.conv, 'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A')
    }
}

/// `fmt` formatted as C's printf formats it: flags `-+ #0`, width and precision (`*` takes
/// an argument), length modifiers, and the conversions `d i u o x X c s f F e E g G a A p %`.
/// `next` gives each conversion's argument; where it has none, printing stops there (as
/// ROCm's printf service does).
pub fn format_with(fmt: &str, next: &mut dyn FnMut(Conversion) -> Option<PrintfArg>) -> String {
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = Spec::default();
        while let Some(&f) = chars.peek() {
            match f {
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '#' => spec.alt = true,
                '0' => spec.zero = true,
                _ => break,
            }
            chars.next();
        }
        let Some(width) = number(&mut chars, next) else {
            return out;
        };
        spec.width = width.map(|(w, negative)| {
            spec.left |= negative;
            w
        });
        if chars.peek() == Some(&'.') {
            chars.next();
            let Some(p) = number(&mut chars, next) else {
                return out;
            };
            // A negative precision from `*` counts as none.
            spec.precision = match p {
                Some((_, true)) => None,
                Some((p, false)) => Some(p),
                None => Some(0),
            };
        }
        let mut wide = false;
        while let Some(&m) = chars.peek() {
            match m {
                'l' | 'j' | 'z' | 't' | 'q' | 'L' => wide = true,
                'h' => {}
                _ => break,
            }
            chars.next();
        }
        let Some(conv) = chars.next() else {
            out.push('%');
            break;
        };
        if conv == '%' {
            out.push('%');
            continue;
        }
        let Some(arg) = next(Conversion { conv, wide }) else {
            return out;
        };
        let body = convert(conv, &spec, &arg);
        pad(&mut out, &spec, conv, body);
    }
    out
}

#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: Option<usize>,
    precision: Option<usize>,
}

/// A width or precision: digits, or `*` (the next argument: its size and whether it was
/// negative); `Some(None)` for none written, `None` when `*` found no argument.
#[allow(clippy::option_option)]
fn number(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    next: &mut dyn FnMut(Conversion) -> Option<PrintfArg>,
) -> Option<Option<(usize, bool)>> {
    if chars.peek() == Some(&'*') {
        chars.next();
        let a = next(Conversion {
            conv: '*',
            wide: false,
        })?;
        let v = a.bits as u32 as i32;
        return Some(Some((v.unsigned_abs() as usize, v < 0)));
    }
    let mut n: Option<usize> = None;
    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
        n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize));
        chars.next();
    }
    Some(n.map(|n| (n, false)))
}

/// The argument's value as a signed integer of its size.
fn signed(a: &PrintfArg) -> i64 {
    if a.size >= 8 {
        a.bits as i64
    } else {
        a.bits as u32 as i32 as i64
    }
}

/// The argument's value as an unsigned integer of its size.
fn unsigned(a: &PrintfArg) -> u64 {
    if a.size >= 8 {
        a.bits
    } else {
        a.bits & 0xffff_ffff
    }
}

/// The argument's value as a float: an f32 of 4 bytes, else an f64.
fn float(a: &PrintfArg) -> f64 {
    if a.size == 4 {
        f64::from(f32::from_bits(a.bits as u32))
    } else {
        f64::from_bits(a.bits)
    }
}

/// The converted text of one argument, before padding: (sign or prefix, digits).
fn convert(conv: char, spec: &Spec, a: &PrintfArg) -> (String, String) {
    let sign = |neg: bool| -> String {
        if neg {
            "-".into()
        } else if spec.plus {
            "+".into()
        } else if spec.space {
            " ".into()
        } else {
            String::new()
        }
    };
    let digits = |mut s: String| -> String {
        if let Some(p) = spec.precision {
            if p == 0 && s == "0" {
                s.clear();
            }
            while s.len() < p {
                s.insert(0, '0');
            }
        }
        s
    };
    match conv {
        'd' | 'i' => {
            let v = signed(a);
            (sign(v < 0), digits(v.unsigned_abs().to_string()))
        }
        'u' => (String::new(), digits(unsigned(a).to_string())),
        'o' => {
            let mut s = digits(format!("{:o}", unsigned(a)));
            if spec.alt && !s.starts_with('0') {
                s.insert(0, '0');
            }
            (String::new(), s)
        }
        'x' | 'X' => {
            let v = unsigned(a);
            let mut s = digits(format!("{v:x}"));
            let mut prefix = if spec.alt && v != 0 { "0x" } else { "" }.to_string();
            if conv == 'X' {
                s = s.to_uppercase();
                prefix = prefix.to_uppercase();
            }
            (prefix, s)
        }
        // glibc's %p: (nil) for a null pointer.
        'p' if a.bits == 0 => (String::new(), "(nil)".into()),
        'p' => (String::new(), format!("0x{:x}", a.bits)),
        'c' => (String::new(), char::from(a.bits as u8).to_string()),
        's' => {
            let text = a.text.clone().unwrap_or_else(|| "(null)".into());
            let text = match spec.precision {
                Some(p) => text.chars().take(p).collect(),
                None => text,
            };
            (String::new(), text)
        }
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
            let v = float(a);
            let s = float_text(conv, spec, v.abs());
            (sign(v.is_sign_negative() && !v.is_nan()), s)
        }
        _ => (String::new(), format!("%{conv}")),
    }
}

/// A non-negative float (or NaN) as `%f`, `%e`, `%g` or `%a` write it.
fn float_text(conv: char, spec: &Spec, v: f64) -> String {
    let upper = conv.is_ascii_uppercase();
    let s = if v.is_nan() {
        "nan".to_string()
    } else if v.is_infinite() {
        "inf".to_string()
    } else {
        let p = spec.precision;
        match conv.to_ascii_lowercase() {
            'f' => {
                let mut s = format!("{v:.*}", p.unwrap_or(6));
                if spec.alt && !s.contains('.') {
                    s.push('.');
                }
                s
            }
            'e' => exp_text(v, p.unwrap_or(6), spec.alt),
            'g' => g_text(v, p.unwrap_or(6), spec.alt),
            _ => hex_float(v, p),
        }
    };
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

/// `%e`: d.ddde±XX, at least two exponent digits.
fn exp_text(v: f64, prec: usize, alt: bool) -> String {
    let s = format!("{v:.prec$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut mant = mant.to_string();
    if alt && !mant.contains('.') {
        mant.push('.');
    }
    format!(
        "{mant}e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    )
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn g_text(v: f64, prec: usize, alt: bool) -> String {
    let p = prec.max(1);
    // The exponent `%e` would show at precision p - 1 (after its rounding).
    let e = format!("{v:.*e}", p - 1);
    let x: i64 = e
        .split_once('e')
        .and_then(|(_, x)| x.parse().ok())
        .unwrap_or(0);
    let mut s = if x < p as i64 && x >= -4 {
        format!("{v:.*}", (p as i64 - 1 - x).max(0) as usize)
    } else {
        exp_text(v, p - 1, alt)
    };
    if !alt {
        let (m, tail) = match s.find('e') {
            Some(k) => (s[..k].to_string(), s[k..].to_string()),
            None => (s.clone(), String::new()),
        };
        let m = if m.contains('.') {
            m.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            m
        };
        s = m + &tail;
    }
    s
}

/// `%a`: 0x1.hhhp±d (0x0p+0 for zero), the hex digits trimmed unless a precision is given.
fn hex_float(v: f64, prec: Option<usize>) -> String {
    if v == 0.0 {
        return match prec {
            Some(p) if p > 0 => format!("0x0.{}p+0", "0".repeat(p)),
            _ => "0x0p+0".into(),
        };
    }
    let bits = v.to_bits();
    let (mut exp, mut mant) = (((bits >> 52) & 0x7ff) as i64, bits & ((1 << 52) - 1));
    let lead = if exp == 0 {
        // A subnormal: 0x0.hhhp-1022.
        exp = -1022;
        0
    } else {
        exp -= 1023;
        1
    };
    let mut digits = format!("{mant:013x}");
    if let Some(p) = prec.filter(|&p| p < 13) {
        // Round to p hex digits, half to even.
        let drop = (13 - p) * 4;
        let rem = mant & ((1u64 << drop) - 1);
        let half = 1u64 << (drop - 1);
        mant >>= drop;
        if rem > half || rem == half && mant & 1 == 1 {
            mant += 1;
        }
        digits = if p == 0 {
            String::new()
        } else {
            format!("{mant:0p$x}")
        };
    } else {
        digits = digits.trim_end_matches('0').to_string();
    }
    let mut s = String::new();
    let _ = write!(s, "0x{lead}");
    if !digits.is_empty() {
        let _ = write!(s, ".{digits}");
    }
    let _ = write!(
        s,
        "p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    );
    s
}

/// Pads `(prefix, body)` to the spec's width: spaces on the left (or right with `-`), or
/// zeros after the sign for a number with `0` (not with a precision on an integer).
fn pad(out: &mut String, spec: &Spec, conv: char, (prefix, body): (String, String)) {
    let len = prefix.chars().count() + body.chars().count();
    let width = spec.width.unwrap_or(0);
    if len >= width {
        out.push_str(&prefix);
        out.push_str(&body);
        return;
    }
    let fill = width - len;
    let numeric = !matches!(conv, 's' | 'c' | 'p');
    let int = matches!(conv, 'd' | 'i' | 'u' | 'o' | 'x' | 'X');
    let finite = !body.contains("inf")
        && !body.contains("nan")
        && !body.contains("INF")
        && !body.contains("NAN");
    if spec.left {
        out.push_str(&prefix);
        out.push_str(&body);
        out.extend(std::iter::repeat_n(' ', fill));
    } else if spec.zero && numeric && finite && !(int && spec.precision.is_some()) {
        out.push_str(&prefix);
        out.extend(std::iter::repeat_n('0', fill));
        out.push_str(&body);
    } else {
        out.extend(std::iter::repeat_n(' ', fill));
        out.push_str(&prefix);
        out.push_str(&body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i64) -> PrintfArg {
        PrintfArg {
            bits: v as u64,
            size: 8,
            text: None,
        }
    }
    fn f64a(v: f64) -> PrintfArg {
        PrintfArg {
            bits: v.to_bits(),
            size: 8,
            text: None,
        }
    }

    /// Each line as glibc's printf prints it (checked with the C library's printf on
    /// the same format and value).
    #[test]
    fn conversions_match_c() {
        let cases: [(&str, PrintfArg, &str); 30] = [
            ("%d", int(-42), "-42"),
            ("%5d|", int(42), "   42|"),
            ("%-5d|", int(42), "42   |"),
            ("%05d", int(-42), "-0042"),
            ("%+d", int(7), "+7"),
            ("% d", int(7), " 7"),
            ("%.3d", int(7), "007"),
            ("%.0d|", int(0), "|"),
            ("%u", int(-1), "18446744073709551615"),
            ("%x", int(255), "ff"),
            ("%#X", int(255), "0XFF"),
            ("%#o", int(8), "010"),
            ("%08.3x", int(255), "     0ff"),
            ("%f", f64a(1.5), "1.500000"),
            ("%.2f", f64a(-2.345), "-2.35"),
            ("%10.3f|", f64a(3.14259), "     3.143|"),
            ("%e", f64a(12345.678), "1.234568e+04"),
            ("%E", f64a(0.000123), "1.230000E-04"),
            ("%g", f64a(100000.0), "100000"),
            ("%g", f64a(1000000.0), "1e+06"),
            ("%g", f64a(0.0001), "0.0001"),
            ("%g", f64a(0.00001), "1e-05"),
            ("%g", f64a(1.5), "1.5"),
            ("%#g", f64a(1.5), "1.50000"),
            ("%.3g", f64a(3.14259), "3.14"),
            ("%a", f64a(1.0), "0x1p+0"),
            ("%a", f64a(-0.1), "-0x1.999999999999ap-4"),
            ("%f", f64a(f64::INFINITY), "inf"),
            ("%05f", f64a(f64::NAN), "  nan"),
            ("%c", int(65), "A"),
        ];
        for (fmt, arg, want) in cases {
            assert_eq!(format_c(fmt, &[arg], true), want, "{fmt}");
        }
        let s = PrintfArg {
            bits: 0,
            size: 4,
            text: Some("lds".into()),
        };
        assert_eq!(
            format_c("[%5s|%-4s|%.2s]", &[s.clone(), s.clone(), s], true),
            "[  lds|lds |ld]"
        );
        let f = PrintfArg {
            bits: u64::from(0.1f32.to_bits()),
            size: 4,
            text: None,
        };
        assert_eq!(format_c("%f %%", &[f], true), "0.100000 %");
        assert_eq!(format_c("%*d", &[int(4), int(9)], true), "   9");
    }

    #[test]
    fn formats_and_records_are_read_as_the_device_wrote_them() {
        let formats = parse_formats(&[
            "1:2:4:8:i=%d x\\72%lx\\n".to_string(),
            "3:0:tab\\there \\\\ \\x41\\101".to_string(),
            "2:1:4:s=%s".to_string(),
            "bad entry".to_string(),
        ]);
        assert_eq!(formats[&1].text, "i=%d x:%lx\n");
        assert_eq!(formats[&1].sizes, [4, 8]);
        assert_eq!(formats[&3].text, "tab\there \\ AA");
        assert_eq!(formats.len(), 3);
        let mut buf = vec![0u8; 8];
        for (id, args) in [
            (
                1u32,
                vec![&(-3i32).to_le_bytes()[..], &0xabcu64.to_le_bytes()],
            ),
            (2, vec![b"ab\0\0"]),
        ] {
            buf.extend(id.to_le_bytes());
            for a in args {
                buf.extend(a);
            }
        }
        let written = (buf.len() - 8) as u32;
        buf[..4].copy_from_slice(&written.to_le_bytes());
        buf.extend([0xff; 16]);
        assert_eq!(read_buffer(&buf, &formats), ["i=-3 x:abc\n", "s=ab"]);
        // Bytes past the written count are not read; an unknown id says so.
        buf[8] = 9;
        assert!(read_buffer(&buf, &formats)[0].contains("names format 9"));
    }

    /// HIP's buffered records, as LLVM 19 writes them for
    /// `printf("lane %d of %s: f=%f\n", i, "grp", f)`: control (size << 2 | 2), the hash,
    /// then 8-byte words, the string inline.
    #[test]
    fn hashed_records_are_read_by_their_hash() {
        let formats = hashed_formats(&["0:0:494406ec4206a058,lane %d of %s: f=%f\\n".into()]);
        assert_eq!(formats[&0x4944_06ec_4206_a058], "lane %d of %s: f=%f\n");
        let mut buf = vec![0u8; 8];
        let record = |i: u64| -> Vec<u8> {
            let mut r = (36u32 << 2 | 2).to_le_bytes().to_vec();
            r.extend(0x4944_06ec_4206_a058u64.to_le_bytes());
            r.extend(i.to_le_bytes());
            r.extend(b"grp\0\0\0\0\0");
            r.extend(2.5f64.to_le_bytes());
            r
        };
        buf.extend(record(1));
        buf.extend(record(2));
        let n = (buf.len() - 8) as u32;
        buf[..4].copy_from_slice(&n.to_le_bytes());
        assert_eq!(
            read_hashed_buffer(&buf, &formats),
            ["lane 1 of grp: f=2.500000\n", "lane 2 of grp: f=2.500000\n"]
        );
    }
}
