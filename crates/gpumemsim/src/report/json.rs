//! The JSON of a run report, one copy for the CLI's `--json` and the Python package: the
//! instructions with their statistics and source, the source lines, the events, the totals,
//! the timing parameters, the counters and the resources. docs/kernels.md and the README
//! describe the keys.

use rdna3_isa::asm::AsmLine;
use serde_json::{json, Value};

use crate::exec::{Device, RunConfig};

/// An instruction's `"address"`: the address `llvm-objdump-19 -d` prints for it — `base`, the
/// kernel's address in its code object ([`crate::loader::Kernel::address`]; 0 for an
/// assembly program), plus its byte offset from the kernel's entry (negative for a called
/// function placed before the kernel).
fn address(base: u64, l: &AsmLine) -> u64 {
    base.wrapping_add(i64::from(l.address as i32) as u64)
}

/// The run's events: each with its instruction's address and source line where known, and
/// for an event with a detail ([`crate::event::EventDetail`]) the other instructions it names
/// (`"instructions"`, each with `"address"`, `"text"` and `"source"`), `"waves"`, `"lanes"`
/// and the memory address (`"memory_address"`: `"address"` is the instruction's).
pub fn events(
    program: &[AsmLine],
    base: u64,
    wg: &Device,
    sources: &[Option<super::InstSource>],
) -> Value {
    wg.events()
        .iter()
        .map(|e| {
            let mut r = json!({"kind": e.kind, "wave": e.wave, "pc": e.pc, "cycle": e.cycle, "message": e.message});
            if let Some(l) = program.get(e.pc) {
                r["address"] = json!(address(base, l));
            }
            if let Some(Some(src)) = sources.get(e.pc) {
                r["source"] = location(&src.location);
            }
            if let Some(d) = &e.detail {
                r["instructions"] = instruction_refs(program, base, &d.pcs, sources);
                r["waves"] = json!(d.waves);
                r["lanes"] = json!(d.lanes);
                if let Some(a) = d.address {
                    r["memory_address"] = json!(a);
                }
            }
            r
        })
        .collect()
}

/// Instructions `pcs` of `program` as `gpumemsim check` names them: each one's address
/// (`"address"`), text, and source line (`"source"`: file, line, column) where known.
pub fn instruction_refs(
    program: &[AsmLine],
    base: u64,
    pcs: &[usize],
    sources: &[Option<super::InstSource>],
) -> Value {
    pcs.iter()
        .filter_map(|&pc| {
            let l = program.get(pc)?;
            let mut r = json!({"address": address(base, l), "text": l.text()});
            if let Some(Some(src)) = sources.get(pc) {
                if src.location.line > 0 {
                    r["source"] = location(&src.location);
                }
            }
            Some(r)
        })
        .collect()
}

/// The findings and the notes of `gpumemsim check --json` (`{"findings": [...], "notes":
/// [...]}`; docs/check.md): the run's events grouped by kind and instructions
/// ([`crate::check::findings`], [`crate::check::notes`]), each with `"kind"`, `"count"`,
/// `"instructions"` (its own first; see [`instruction_refs`]), `"waves"`, `"lanes"`,
/// `"message"` and, where one applies, the memory `"address"`.
pub fn findings_and_notes(
    program: &[AsmLine],
    base: u64,
    wg: &Device,
    sources: &[Option<super::InstSource>],
) -> (Value, Value) {
    let events = wg.events();
    (
        groups(&crate::check::findings(events), program, base, sources),
        groups(&crate::check::notes(events), program, base, sources),
    )
}

fn groups(
    found: &[crate::check::Finding],
    program: &[AsmLine],
    base: u64,
    sources: &[Option<super::InstSource>],
) -> Value {
    found
        .iter()
        .map(|f| {
            let mut r = json!({
                "kind": f.kind,
                "count": f.count,
                "instructions": instruction_refs(program, base, &f.pcs, sources),
                "waves": f.waves,
                "lanes": f.lanes,
                "message": f.message,
            });
            if let Some(a) = f.address {
                r["address"] = json!(a);
            }
            r
        })
        .collect()
}

/// Cache lines as JSON: requests, the store/atomic ones, and the lines each level of the
/// device's `family` served (keyed by [`crate::vcache::Level::name`], the same on every
/// device; a level the family lacks is left out).
fn line_counts(c: &crate::vcache::LineCounts, family: crate::vcache::Family) -> Value {
    let served: serde_json::Map<String, Value> = family
        .levels()
        .map(|l| (l.name().to_string(), json!(c.served_by(l))))
        .collect();
    json!({"lines": c.requests, "write_lines": c.writes, "served_by": served})
}

/// [`line_counts`] with the bytes those lines hold and each cache level's hit rate (lines it
/// served over lines looked up there; `null` where none was), for a source line or the run.
fn line_counts_and_rates(t: &crate::vcache::LineCounts, family: crate::vcache::Family) -> Value {
    use crate::vcache::Level;
    let hit_rate: serde_json::Map<String, Value> = family
        .levels()
        .filter(|&l| l != Level::Vram)
        .map(|l| (l.name().to_string(), json!(t.hit_rate(l))))
        .collect();
    let mut v = line_counts(t, family);
    v["bytes"] = json!(t.requests * crate::vcache::LINE_BYTES);
    v["hit_rate"] = Value::Object(hit_rate);
    v
}

/// `--json`'s `"vcache"`, when the device models its vector caches: each level's shape, and
/// the run's cache lines, where they were served and each level's hit rate.
pub fn vcache(wg: &Device) -> Option<Value> {
    use crate::vcache::Level;
    let (c, t) = wg.vcache_totals()?;
    let mut v = line_counts_and_rates(&t, c.family);
    let shapes = [
        (Level::L0, Some(c.l0)),
        (Level::L1, c.l1),
        (Level::L2, Some(c.l2)),
        (Level::Mall, Some(c.mall)),
    ];
    let levels: serde_json::Map<String, Value> = shapes
        .into_iter()
        .filter_map(|(level, shape)| {
            let l = shape?;
            let name = c.family.label(level)?;
            let shape = json!({"name": name, "bytes": l.bytes, "ways": l.ways, "line_bytes": crate::vcache::LINE_BYTES});
            Some((level.name().to_string(), shape))
        })
        .collect();
    v["levels"] = Value::Object(levels);
    Some(v)
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
    base: u64,
    wg: &Device,
    sources: &[Option<super::InstSource>],
) -> Value {
    Value::Array(
        program
            .iter()
            .zip(wg.stats())
            .enumerate()
            .map(|(pc, (l, s))| {
                let mut r = json!({
                    "pc": pc,
                    "address": address(base, l),
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
                if let (true, Some(f)) = (s.lines.requests > 0, wg.vcache_family()) {
                    r["vcache"] = line_counts(&s.lines, f);
                }
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

/// `--json`'s `"calls"`: each call that ran (a call site and the function it reached), in
/// program order: `"from"` and `"to"` as [`instruction_refs`] names instructions, and
/// `"function"`, the called function's name (from the line tables, else its symbol).
pub fn calls(
    program: &[AsmLine],
    base: u64,
    wg: &Device,
    sources: &[Option<super::InstSource>],
    kernel: Option<&crate::loader::Kernel>,
) -> Value {
    wg.calls()
        .iter()
        .map(|&(from, to)| {
            let refs = |pc: usize| {
                instruction_refs(program, base, &[pc], sources)
                    .as_array()
                    .and_then(|a| a.first().cloned())
                    .unwrap_or(Value::Null)
            };
            let function = super::source::function_at(program, sources, kernel, to);
            json!({"from": refs(from), "to": refs(to), "function": function})
        })
        .collect()
}

/// `--json`'s `"lines"`: one record per source line, hottest first.
pub fn lines(
    program: &[AsmLine],
    base: u64,
    wg: &Device,
    sources: &[Option<super::InstSource>],
    texts: &mut super::SourceTexts,
) -> Value {
    super::by_line(sources, wg.stats())
        .iter()
        .map(|r| {
            let mut v = json!({
                "file": r.file,
                "line": r.line,
                "text": texts.line(&r.file, r.line),
                "cycles": r.stats.cycles,
                "conflict_cycles": r.stats.conflict_cycles,
                "stall_cycles": r.stats.stall_cycles,
                "executions": r.stats.executions,
                "instructions": r.instructions.iter().map(|&pc| address(base, &program[pc])).collect::<Vec<_>>(),
            });
            if let (true, Some(f)) = (r.stats.lines.requests > 0, wg.vcache_family()) {
                v["vcache"] = line_counts_and_rates(&r.stats.lines, f);
            }
            v
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

/// The part the run stood for, for `--json`'s `"device"`: its name, product, target, the
/// WGPs the run used, its clock, the kernel time in microseconds there, the figures' source
/// and what the preset does not model (empty when nothing); null for a bare
/// device ([`crate::exec::RunConfig::device`]).
pub fn device(wg: &Device) -> Value {
    let Some(p) = wg.preset() else {
        return Value::Null;
    };
    json!({
        "name": p.name,
        "product": p.product,
        "arch": p.arch,
        "wgps": wg.placement().wgps,
        "clock_mhz": p.clock_mhz,
        "kernel_us": p.micros(wg.cycles()),
        "source": p.source,
        "caveat": p.caveat,
    })
}

/// Where the run placed workgroups and waves, for `--json`'s `"placement"`.
pub fn placement(wg: &Device) -> Value {
    let p = wg.placement();
    json!({
        "wgps": p.wgps,
        "waves_per_simd": p.waves_per_simd,
        "max_resident_waves_per_simd": p.max_resident_waves_per_simd,
        "max_resident_workgroups": p.max_resident_workgroups,
    })
}

/// Each kind of unit's busy cycles, instances and utilisation (busy / (cycles × instances)),
/// for `--json`'s `"units"`.
pub fn units(wg: &Device) -> Value {
    let u = wg.unit_busy();
    let cycles = wg.cycles();
    Value::Object(
        crate::timeline::UnitKind::ALL
            .iter()
            .map(|&k| {
                let (busy, n) = (u.busy(k), u.instances(k));
                let capacity = cycles * u64::from(n);
                let utilisation = if capacity == 0 {
                    0.0
                } else {
                    busy as f64 / capacity as f64
                };
                (
                    k.name().to_string(),
                    json!({"busy_cycles": busy, "instances": n, "utilisation": utilisation}),
                )
            })
            .collect(),
    )
}

/// How the program's `s_delay_alu` declarations compared with the model's latencies, for
/// `--json`'s `"delay_alu"`: counts, and each instruction that waited for an ALU result no
/// `s_delay_alu` declared (its address and text).
pub fn delay_alu(program: &[AsmLine], base: u64, wg: &Device) -> Value {
    let d = wg.delay_alu();
    let at: Vec<Value> = d
        .undeclared_at
        .iter()
        .filter_map(|&pc| program.get(pc))
        .map(|l| json!({"address": address(base, l), "text": l.text()}))
        .collect();
    json!({
        "declared": d.declared,
        "declared_and_waited": d.declared_and_waited,
        "undeclared_waits": d.undeclared_waits,
        "undeclared_at": at,
    })
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
    let mut v = json!({
        "vgprs": r.vgprs,
        "sgprs": r.sgprs,
        "lds_bytes": r.lds_bytes(),
        "static_lds_bytes": r.static_lds_bytes,
        "dynamic_lds_bytes": r.dynamic_lds_bytes,
        "scratch_bytes_per_lane": r.scratch_bytes_per_lane,
        "waves_per_simd": o.waves_per_simd,
        "limited_by": o.limited_by.name(),
    });
    // AGPRs (gfx942) where a kernel has them.
    if r.agprs > 0 {
        v["agprs"] = r.agprs.into();
    }
    v
}

/// The keys of a run report that hold timing: a functional run ([`Device::functional`])
/// has none of them ([`functional_view`]).
const TIMING_KEYS: [&str; 12] = [
    "cycles",
    "cycle",
    "kernel_us",
    "issue_cycles",
    "conflict_cycles",
    "stall_cycles",
    "latency_cycles",
    "timing",
    "units",
    "vcache",
    "delay_alu",
    "counters",
];

/// Whether `key` of a run report holds timing ([`TIMING_KEYS`]).
pub fn is_timing_key(key: &str) -> bool {
    TIMING_KEYS.contains(&key)
}

/// Removes every timing key ([`TIMING_KEYS`]) from `v`, wherever it appears.
pub fn strip_timing(v: &mut Value) {
    match v {
        Value::Object(o) => {
            o.retain(|k, _| !is_timing_key(k));
            o.values_mut().for_each(strip_timing);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_timing),
        _ => {}
    }
}

/// A run report (`--json`) as a functional run gives it: every timing key ([`TIMING_KEYS`]:
/// cycles, latencies, units, caches, counters) removed wherever it appears, and
/// `"functional": true` added. What is left is the run's results, its events, its execution
/// counts and the scalar cache's hits and misses (what the cache holds is a result: a scalar
/// load reads a stale line as it is).
pub fn functional_view(report: &mut Value) {
    strip_timing(report);
    if let Value::Object(o) = report {
        o.insert("functional".into(), Value::Bool(true));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Event, EventDetail};
    use crate::exec::RunConfig;

    /// A device after running `text`, with `extra` events added.
    fn ran(text: &str, extra: Vec<Event>) -> (Vec<AsmLine>, Device) {
        let prog = crate::isa::asm::assemble(text);
        assert!(prog.errors.is_empty(), "{:?}", prog.errors);
        let cfg = RunConfig::default();
        let mut d = Device::new(&cfg, prog.lines.len()).expect("a device");
        d.run(&prog.lines, &cfg).expect("the program runs");
        d.events_mut().extend(extra);
        (prog.lines, d)
    }

    #[test]
    fn events_with_detail_name_the_other_instructions_waves_lanes_and_memory_address() {
        let text = "s_nop 0\ns_nop 1\ns_endpgm\n";
        let race = Event::new("lds_race", 1, 1, "race".into()).with_detail(EventDetail {
            pcs: vec![0],
            waves: vec![0],
            lanes: vec![3, 4],
            address: Some(0x40),
        });
        let plain = Event::new("memviol", 0, 2, "plain".into());
        let (lines, d) = ran(text, vec![race.clone(), plain, race]);
        let sources = crate::report::assembly_sources("k.s", &lines);
        let ev = events(&lines, 0, &d, &sources);
        let e = &ev[0];
        assert_eq!(e["address"], 4, "the event's own instruction");
        assert_eq!(
            e["instructions"],
            json!([{"address": 0, "text": "s_nop 0",
                    "source": {"file": "k.s", "line": 1, "column": 1}}])
        );
        assert_eq!(e["waves"], json!([0]));
        assert_eq!(e["lanes"], json!([3, 4]));
        assert_eq!(e["memory_address"], 0x40);
        // An event without detail keeps the keys it had.
        let keys: Vec<&String> = ev[1].as_object().expect("an object").keys().collect();
        assert_eq!(
            keys,
            ["address", "cycle", "kind", "message", "pc", "source", "wave"]
        );
        // The findings: grouped, the memory address under "address".
        let (f, _) = findings_and_notes(&lines, 0, &d, &sources);
        assert_eq!(f.as_array().map(Vec::len), Some(2));
        assert_eq!(
            f[0],
            json!({"kind": "lds_race", "count": 2, "waves": [0, 1], "lanes": [3, 4],
                   "address": 0x40, "message": "race",
                   "instructions": [
                       {"address": 4, "text": "s_nop 1",
                        "source": {"file": "k.s", "line": 2, "column": 1}},
                       {"address": 0, "text": "s_nop 0",
                        "source": {"file": "k.s", "line": 1, "column": 1}}]})
        );
        assert!(f[1].get("address").is_none());
        assert_eq!(f[1]["lanes"], json!([]));
    }

    /// A functional view has no timing key at any depth, keeps every other key, and says
    /// it is functional.
    #[test]
    fn the_functional_view_drops_every_timing_key_and_keeps_the_rest() {
        let mut report = json!({
            "cycles": 10,
            "steps": 4,
            "totals": {"cycles": 10, "wave_instructions": 4, "stall_cycles": 2},
            "instructions": [{"executions": 2, "cycles": 5, "latency_cycles": 9, "cache_hits": 1}],
            "events": [{"kind": "out_of_bounds", "cycle": 7}],
            "device": {"name": "rx7900xtx", "kernel_us": 0.1},
            "timing": {"valu": 1},
            "units": {}, "vcache": null, "delay_alu": {}, "counters": {},
        });
        functional_view(&mut report);
        assert_eq!(
            report,
            json!({
                "steps": 4,
                "totals": {"wave_instructions": 4},
                "instructions": [{"executions": 2, "cache_hits": 1}],
                "events": [{"kind": "out_of_bounds"}],
                "device": {"name": "rx7900xtx"},
                "functional": true,
            })
        );
    }
}
