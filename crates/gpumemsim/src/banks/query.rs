//! A bank query as people write it: an operation name, a wave size, active lanes and
//! per-lane address expressions, resolved against a [`BankModel`]. The `gpumemsim banks`
//! command and the Python package share these, so they accept the same names and fail with
//! the same messages (which name the command's flags: `--arch`, `--wave`, `--active`).

use super::access::{AccessKind, WaveSize};
use super::ds::ds_access;
use super::model::{BankModel, CostUnits};
use crate::expr::Expr;
use crate::isa::def::lookup_name;

/// What an operation name means on an architecture: a DS mnemonic (AMD) or an NVIDIA
/// shared-memory access (`lds.32` ... `sts.128`, `atoms.32`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The name to print: canonical for DS mnemonics (`ds_read_b32` is `ds_load_b32`),
    /// lower-case for NVIDIA accesses.
    pub name: String,
    /// Bytes per lane at each address.
    pub width: u32,
    /// Load, store, atomic, or a 2addr form.
    pub kind: AccessKind,
}

/// Resolves an operation name for `model`: NVIDIA models take `lds.32|lds.64|lds.128|
/// sts.32|sts.64|sts.128|atoms.32`, AMD models a DS mnemonic (any case, aliases allowed).
pub fn operation(model: &BankModel, op: &str) -> Result<Operation, String> {
    let lower = op.to_ascii_lowercase();
    let nvidia_op = nvidia_operation(&lower);
    match model.units() {
        CostUnits::Wavefronts => nvidia_op.ok_or_else(|| {
            format!(
                "`{op}` is not an NVIDIA shared-memory access: --arch {} takes \
                 lds.32, lds.64, lds.128, sts.32, sts.64, sts.128 or atoms.32",
                model.name()
            )
        }),
        CostUnits::Cycles => {
            if nvidia_op.is_some() {
                return Err(format!(
                    "`{op}` is an NVIDIA access: --arch {} takes a DS mnemonic such as \
                     ds_load_b32",
                    model.name()
                ));
            }
            let def = lookup_name(&lower)
                .ok_or_else(|| format!("unknown instruction `{op}`"))?
                .def();
            let access = ds_access(def).map_err(|e| e.to_string())?;
            Ok(Operation {
                name: def.name.to_string(),
                width: access.width,
                kind: access.kind,
            })
        }
    }
}

fn nvidia_operation(op: &str) -> Option<Operation> {
    let (kind, bits) = op.split_once('.')?;
    let kind = match (kind, bits) {
        ("lds", _) => AccessKind::Load,
        ("sts", _) => AccessKind::Store,
        // A 32-bit shared atomic (`ATOMS`), the width measured on an H200
        // (docs/rules/banks.md#atomics-to-one-word).
        ("atoms", "32") => AccessKind::Atomic,
        _ => return None,
    };
    let width = match bits {
        "32" => 4,
        "64" => 8,
        "128" => 16,
        _ => return None,
    };
    Some(Operation {
        name: op.to_string(),
        width,
        kind,
    })
}

/// The wave size for `model`: `lanes` (32 or 64, and one the model runs), or the model's
/// default (32 for RDNA and NVIDIA, 64 for CDNA) when `None`.
pub fn wave_size(model: &BankModel, lanes: Option<u32>) -> Result<WaveSize, String> {
    let waves = model.waves();
    let Some(lanes) = lanes else {
        return Ok(waves.default);
    };
    let wave =
        WaveSize::from_lanes(lanes).ok_or_else(|| format!("--wave {lanes}: must be 32 or 64"))?;
    if waves.allows(wave) {
        Ok(wave)
    } else {
        Err(format!(
            "{} runs waves of {} lanes only, not {}",
            model.name(),
            waves.default.lanes(),
            wave.lanes()
        ))
    }
}

/// Parses active lanes: lanes and inclusive ranges (`0-15,20`), or a hexadecimal mask
/// (`0xffff`). Every lane must lie inside the wave.
pub fn parse_lanes(text: &str, wave: WaveSize) -> Result<u64, String> {
    let lanes = wave.lanes();
    let bad = |why: String| format!("--active `{text}`: {why}");
    if let Some(hex) = text.trim().strip_prefix("0x") {
        let mask =
            u64::from_str_radix(hex, 16).map_err(|_| bad("not a hexadecimal mask".into()))?;
        if mask & !wave.lane_mask() != 0 {
            return Err(bad(format!("names lanes beyond {}", lanes - 1)));
        }
        return Ok(mask);
    }
    let lane = |s: &str| -> Result<u32, String> {
        let n: u32 = s
            .trim()
            .parse()
            .map_err(|_| bad(format!("`{}` is not a lane number", s.trim())))?;
        if n >= lanes {
            return Err(bad(format!("lane {n} is outside the wave of {lanes}")));
        }
        Ok(n)
    };
    let mut mask = 0u64;
    for part in text.split(',') {
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (lane(a)?, lane(b)?),
            None => {
                let n = lane(part)?;
                (n, n)
            }
        };
        if lo > hi {
            return Err(bad(format!("range {lo}-{hi} runs backwards")));
        }
        for l in lo..=hi {
            mask |= 1 << l;
        }
    }
    Ok(mask)
}

/// Evaluates per-lane byte addresses: an expression in the lane id `t` (or `lane`), or a
/// comma list of one expression per lane. `flag` names the argument in messages (`--addr`);
/// errors point at the column within `text`.
pub fn lane_values(flag: &str, text: &str, wave: WaveSize) -> Result<Vec<u64>, String> {
    let lanes = wave.lanes() as usize;
    let items: Vec<(usize, &str)> = if text.contains(',') {
        let mut offset = 0;
        text.split(',')
            .map(|item| {
                let start = offset;
                offset += item.chars().count() + 1;
                (start, item)
            })
            .collect()
    } else {
        vec![(0, text)]
    };
    if items.len() > 1 && items.len() != lanes {
        return Err(format!(
            "{flag} lists {} values; the wave has {lanes} lanes (give one per lane, or an \
             expression in the lane id t)",
            items.len()
        ));
    }
    let point = |col: usize, msg: &str| {
        format!(
            "{flag} `{text}`: column {col}: {msg}\n  {text}\n  {}^",
            " ".repeat(col.saturating_sub(1))
        )
    };
    let exprs = items
        .iter()
        .map(|&(start, item)| {
            Expr::parse(item, &["t", "lane"])
                .map(|e| (start, e))
                .map_err(|e| point(start + e.col, &e.msg))
        })
        .collect::<Result<Vec<_>, String>>()?;
    (0..lanes)
        .map(|lane| {
            let (start, expr) = &exprs[if exprs.len() == 1 { 0 } else { lane }];
            let vars = |name: &str| matches!(name, "t" | "lane").then_some(lane as i64);
            let value = expr.eval(&vars).map_err(|e| {
                let msg = if e.msg.starts_with("unknown variable") {
                    format!("{} (the lane id is `t`)", e.msg)
                } else {
                    format!("{} (lane {lane})", e.msg)
                };
                point(start + e.col, &msg)
            })?;
            u64::try_from(value)
                .map_err(|_| format!("{flag}: lane {lane}: address {value} is negative"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_resolve_per_architecture() {
        let rdna3 = BankModel::rdna3();
        let op = operation(&rdna3, "DS_READ_B64");
        assert_eq!(
            op,
            Ok(Operation {
                name: "ds_load_b64".into(),
                width: 8,
                kind: AccessKind::Load
            })
        );
        assert_eq!(
            operation(&rdna3, "lds.32"),
            Err(
                "`lds.32` is an NVIDIA access: --arch rdna3 takes a DS mnemonic such as \
                 ds_load_b32"
                    .into()
            )
        );
        assert_eq!(
            operation(&rdna3, "ds_frob"),
            Err("unknown instruction `ds_frob`".into())
        );
        let sm80 = BankModel::sm80();
        let op = operation(&sm80, "STS.128").map(|o| (o.name, o.width, o.kind));
        assert_eq!(op, Ok(("sts.128".into(), 16, AccessKind::Store)));
        let op = operation(&sm80, "ATOMS.32").map(|o| (o.name, o.width, o.kind));
        assert_eq!(op, Ok(("atoms.32".into(), 4, AccessKind::Atomic)));
        assert!(operation(&sm80, "atoms.64").is_err_and(|e| e.contains("or atoms.32")));
        assert!(operation(&sm80, "ds_load_b32").is_err_and(|e| e.contains("lds.32, lds.64")));
    }

    #[test]
    fn wave_sizes_default_and_check() {
        assert_eq!(wave_size(&BankModel::cdna3(), None), Ok(WaveSize::Wave64));
        assert_eq!(
            wave_size(&BankModel::rdna3(), Some(64)),
            Ok(WaveSize::Wave64)
        );
        assert_eq!(
            wave_size(&BankModel::rdna3(), Some(48)),
            Err("--wave 48: must be 32 or 64".into())
        );
        assert_eq!(
            wave_size(&BankModel::sm80(), Some(64)),
            Err("sm80 runs waves of 32 lanes only, not 64".into())
        );
    }

    #[test]
    fn lanes_parse_as_ranges_or_masks() {
        assert_eq!(parse_lanes("0-3,20", WaveSize::Wave32), Ok(0x10_000f));
        assert_eq!(parse_lanes("0xff", WaveSize::Wave32), Ok(0xff));
        assert_eq!(
            parse_lanes("0x1ffffffff", WaveSize::Wave32),
            Err("--active `0x1ffffffff`: names lanes beyond 31".into())
        );
        assert_eq!(
            parse_lanes("5-2", WaveSize::Wave64),
            Err("--active `5-2`: range 5-2 runs backwards".into())
        );
    }

    #[test]
    fn addresses_from_expressions_and_lists() {
        let v = lane_values("--addr", "(t^1)*4", WaveSize::Wave32);
        assert_eq!(v.as_ref().map(|v| (v[0], v[1], v[31])), Ok((4, 0, 120)));
        let list: Vec<String> = (0..32).map(|t| (t * 3).to_string()).collect();
        let v = lane_values("--addr", &list.join(","), WaveSize::Wave32);
        assert_eq!(v.as_ref().map(|v| v[31]), Ok(93));
        assert_eq!(
            lane_values("--addr", "1,2", WaveSize::Wave32),
            Err(
                "--addr lists 2 values; the wave has 32 lanes (give one per lane, or an \
                 expression in the lane id t)"
                    .into()
            )
        );
        assert_eq!(
            lane_values("--addr", "t-1", WaveSize::Wave32),
            Err("--addr: lane 0: address -1 is negative".into())
        );
        let e = lane_values("--addr", "x*4", WaveSize::Wave32)
            .err()
            .unwrap_or_default();
        assert!(
            e.starts_with("--addr `x*4`: column 1: unknown variable"),
            "{e}"
        );
    }
}
