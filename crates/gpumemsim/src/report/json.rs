//! The JSON of a run report, one copy for the CLI's `--json` and the Python package: the
//! instructions with their statistics and source, the source lines, the events, the totals,
//! the timing parameters, the counters and the resources. docs/kernels.md and the README
//! describe the keys.

use rdna3_isa::asm::AsmLine;
use serde_json::{json, Value};

use crate::exec::{Device, RunConfig};

/// The run's events: each with its instruction's address and source line where
/// known.
pub fn events(program: &[AsmLine], wg: &Device, sources: &[Option<super::InstSource>]) -> Value {
    wg.events
        .iter()
        .map(|e| {
            let mut r = json!({"kind": e.kind, "wave": e.wave, "pc": e.pc, "cycle": e.cycle, "message": e.message});
            if let Some(l) = program.get(e.pc) {
                r["address"] = json!(l.address);
            }
            if let Some(Some(src)) = sources.get(e.pc) {
                r["source"] = location(&src.location);
            }
            r
        })
        .collect()
}

/// `--json`'s `"counters"`: the run's totals under rocprof's names.
pub fn counters(program: &[AsmLine], wg: &Device) -> Value {
    Value::Object(
        super::amd_counters(program, wg)
            .into_iter()
            .map(|(n, v)| (n.to_string(), json!(v)))
            .collect(),
    )
}

/// A source location as JSON.
fn location(l: &crate::loader::SourceLocation) -> Value {
    json!({"file": l.file, "line": l.line, "column": l.column})
}

/// The per-instruction records of `--json`: statistics, and the source line and inline chain
/// (innermost frame first) where the program has them.
pub fn instructions(
    program: &[AsmLine],
    wg: &Device,
    sources: &[Option<super::InstSource>],
) -> Value {
    Value::Array(
        program
            .iter()
            .zip(&wg.stats)
            .enumerate()
            .map(|(pc, (l, s))| {
                let mut r = json!({
                    "pc": pc,
                    "address": l.address,
                    "line": l.line,
                    "text": l.text(),
                    "executions": s.executions,
                    "cycles": s.cycles,
                    "conflict_cycles": s.conflict_cycles,
                    "stall_cycles": s.stall_cycles,
                    "latency_cycles": s.latency_cycles,
                    "cache_hits": s.cache_hits,
                    "cache_misses": s.cache_misses,
                });
                if let Some(Some(src)) = sources.get(pc) {
                    r["source"] = location(&src.location);
                    if !src.chain.is_empty() {
                        r["inlined"] = src
                            .chain
                            .iter()
                            .map(|f| {
                                json!({
                                    "function": f.function,
                                    "source": f.location.as_ref().map(location),
                                })
                            })
                            .collect();
                    }
                }
                r
            })
            .collect(),
    )
}

/// `--json`'s `"lines"`: one record per source line, hottest first.
pub fn lines(
    program: &[AsmLine],
    wg: &Device,
    sources: &[Option<super::InstSource>],
    texts: &mut super::SourceTexts,
) -> Value {
    super::by_line(sources, &wg.stats)
        .iter()
        .map(|r| {
            json!({
                "file": r.file,
                "line": r.line,
                "text": texts.line(&r.file, r.line),
                "cycles": r.stats.cycles,
                "conflict_cycles": r.stats.conflict_cycles,
                "stall_cycles": r.stats.stall_cycles,
                "executions": r.stats.executions,
                "instructions": r.instructions.iter().map(|&pc| program[pc].address).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// The timing parameters a run used, for `--json`.
pub fn timing(cfg: &RunConfig) -> Value {
    Value::Object(
        cfg.timing_entries()
            .iter()
            .map(|(n, v)| (n.to_string(), json!(v)))
            .collect(),
    )
}

/// Every instruction's statistics added up, for `--json`.
pub fn totals(wg: &Device) -> Value {
    let t = wg.totals();
    json!({
        "cycles": wg.cycles(),
        "wave_instructions": t.executions,
        "issue_cycles": t.cycles,
        "conflict_cycles": t.conflict_cycles,
        "stall_cycles": t.stall_cycles,
        "latency_cycles": t.latency_cycles,
    })
}

/// `--json`'s `"resources"`: registers, LDS and scratch, and the occupancy they allow.
pub fn resources(r: &crate::occupancy::Resources, o: &crate::occupancy::Occupancy) -> Value {
    json!({
        "vgprs": r.vgprs,
        "sgprs": r.sgprs,
        "lds_bytes": r.lds_bytes(),
        "static_lds_bytes": r.static_lds_bytes,
        "dynamic_lds_bytes": r.dynamic_lds_bytes,
        "scratch_bytes_per_lane": r.scratch_bytes_per_lane,
        "waves_per_simd": o.waves_per_simd,
        "limited_by": o.limited_by.name(),
    })
}
