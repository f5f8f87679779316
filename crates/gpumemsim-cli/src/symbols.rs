//! `--symbol NAME=TYPE:V1,V2,...` (or `NAME=file:PATH`, `NAME=zeros`): program-scope
//! variables set before a launch, as `hipMemcpyToSymbol` sets them; and the report's
//! `"symbols"`: every program-scope variable with its final values.

use gpumemsim::launch::{ElementType, SymbolValue};
use gpumemsim::loader::Kernel;
use serde_json::{json, Value};

use crate::buffer_json::json_value;

/// One `--symbol` setting: the variable, the element type its values are given (and
/// reported) in, and the bytes to write from its first byte.
#[derive(Clone, Debug)]
pub struct SymbolSetting {
    pub name: String,
    pub elem: Option<ElementType>,
    pub bytes: Vec<u8>,
}

/// Parses the `--symbol` settings against `kernel`'s image (the variable's size bounds
/// `zeros` and a file's length).
pub fn parse_symbols(list: &[String], kernel: &Kernel) -> Result<Vec<SymbolSetting>, String> {
    list.iter().map(|t| parse_symbol(t, kernel)).collect()
}

fn parse_symbol(text: &str, kernel: &Kernel) -> Result<SymbolSetting, String> {
    let bad = |why: &str| format!("--symbol {text}: {why}");
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| bad("expected NAME=TYPE:V1,V2,..., NAME=file:PATH or NAME=zeros"))?;
    let image = &kernel.image;
    let var = image.find_variable(name).map_err(|e| bad(&e))?;
    let size = var.size as usize;
    if value == "zeros" {
        return Ok(SymbolSetting {
            name: name.into(),
            elem: None,
            bytes: vec![0; size],
        });
    }
    if let Some(path) = value.strip_prefix("file:") {
        let bytes = std::fs::read(path).map_err(|e| bad(&format!("{path}: {e}")))?;
        if bytes.len() > size {
            return Err(bad(&format!(
                "{path} has {} bytes; `{name}` has {size}",
                bytes.len()
            )));
        }
        return Ok(SymbolSetting {
            name: name.into(),
            elem: None,
            bytes,
        });
    }
    let (ty, vals) = value
        .split_once(':')
        .ok_or_else(|| bad("expected TYPE:V1,V2,... (or file:PATH, zeros)"))?;
    let e = ElementType::from_name(ty)
        .ok_or_else(|| bad("types are u8 u16 u32 i32 u64 i64 f16 f32 f64"))?;
    let mut bytes = Vec::new();
    for v in vals.split(',') {
        bytes.extend(
            e.parse_value(v.trim())
                .ok_or_else(|| bad(&format!("`{v}` is not a {ty}")))?,
        );
    }
    if bytes.len() > size {
        return Err(bad(&format!(
            "{} values of {ty} are {} bytes; `{name}` has {size}",
            bytes.len() / e.bytes(),
            bytes.len()
        )));
    }
    Ok(SymbolSetting {
        name: name.into(),
        elem: Some(e),
        bytes,
    })
}

/// The element type a variable is reported in: the type its `--symbol` gave, else u32 for
/// a size that is a multiple of 4 bytes, else u8 (an ELF symbol has no type).
fn elem_of(v: &SymbolValue, settings: &[SymbolSetting]) -> ElementType {
    let given = settings.iter().rev().find(|s| s.name == v.name);
    match given.and_then(|s| s.elem) {
        Some(e) if v.bytes.len().is_multiple_of(e.bytes()) => e,
        _ if v.bytes.len().is_multiple_of(4) => ElementType::U32,
        _ => ElementType::U8,
    }
}

/// `--json`'s `"symbols"`: each program-scope variable's name, address, size, type and final
/// values.
pub fn symbols_json(values: &[SymbolValue], settings: &[SymbolSetting]) -> Value {
    Value::Array(
        values
            .iter()
            .map(|v| {
                let e = elem_of(v, settings);
                let vals: Vec<Value> = v
                    .bytes
                    .chunks_exact(e.bytes())
                    .map(|c| json_value(e, c))
                    .collect();
                json!({
                    "name": v.name,
                    "address": v.address,
                    "size": v.bytes.len(),
                    "type": e.name(),
                    "values": vals,
                })
            })
            .collect(),
    )
}

/// The text report's lines for the variables: `` `w` f32[4] at 0x...: [...] ``.
pub fn symbols_text(values: &[SymbolValue], settings: &[SymbolSetting]) -> String {
    let mut s = String::new();
    for v in values {
        let e = elem_of(v, settings);
        let vals: Vec<String> = v
            .bytes
            .chunks_exact(e.bytes())
            .take(16)
            .map(|c| crate::run_text::value_text(&json_value(e, c)))
            .collect();
        let n = v.bytes.len() / e.bytes();
        let more = if n > 16 { ", …" } else { "" };
        s.push_str(&format!(
            "  `{}` {}[{n}] at {:#x}: [{}{more}]\n",
            v.name,
            e.name(),
            v.address,
            vals.join(", ")
        ));
    }
    s
}
