//! `gpumemsim run`'s report of an assembly program, and the pieces the kernel report shares:
//! `--dump` values, the `--baseline` comparison and the `--counters` table.

use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::AsmLine;
use gpumemsim::report::{InstSource, SourceTexts};
use serde_json::{json, Map, Value};

use crate::launch_args::{parse_target, parse_u64, Target};
use crate::output::RunArgs;

fn parse_range(what: &str, rest: &str) -> Result<(u64, u64), String> {
    let parse = parse_u64;
    let bad = || format!("--dump {what}: expected START:END in bytes, e.g. lds:0:64");
    let (a, b) = rest.split_once(':').ok_or_else(bad)?;
    let (a, b) = (parse(a).ok_or_else(bad)?, parse(b).ok_or_else(bad)?);
    if b < a {
        return Err(format!("--dump {what}: END is before START"));
    }
    if (b - a) > 16 * 1024 * 1024 {
        return Err(format!("--dump {what}: range too large"));
    }
    if (b - a) % 4 != 0 {
        return Err(format!(
            "--dump {what}: the dump shows 32-bit words, so END - START ({}) must be a multiple of 4",
            b - a
        ));
    }
    Ok((a, b))
}

fn parse_range32(what: &str, rest: &str) -> Result<(u32, u32), String> {
    let (a, b) = parse_range(what, rest)?;
    match (u32::try_from(a), u32::try_from(b)) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        _ => Err(format!("--dump {what}: offsets must fit in 32 bits")),
    }
}

/// `--dump lds:`/`gds:`: END must lie inside the allocation (`size` bytes, `name`).
fn check_inside(what: &str, end: u32, size: u32, name: &str) -> Result<(), String> {
    if end > size {
        return Err(format!(
            "--dump {what}: END {end} is past the end of {name}, which has {size} bytes"
        ));
    }
    Ok(())
}

/// `--dump WHAT`: the value to show (checked before the run, so that a typo costs no run).
pub fn dump_value(what: &str, wg: &Device) -> Result<Value, String> {
    if let Some(rest) = what.strip_prefix("lds:") {
        let (a, b) = parse_range32(what, rest)?;
        check_inside(
            what,
            b,
            wg.alloc().size,
            "the workgroup's LDS allocation (--lds-size)",
        )?;
        return Ok(json!(wg
            .lds(0)
            .words(wg.alloc().base + a, wg.alloc().base + b)));
    }
    if let Some(rest) = what.strip_prefix("gds:") {
        let (a, b) = parse_range32(what, rest)?;
        check_inside(what, b, wg.gds().size(), "GDS (--gds-size)")?;
        return Ok(json!(wg.gds().words(a, b)));
    }
    if let Some(rest) = what.strip_prefix("mem:") {
        let (a, b) = parse_range(what, rest)?;
        let limit = 1u64 << gpumemsim::addr::ADDRESS_BITS;
        if b > limit {
            return Err(format!(
                "--dump {what}: END {b:#x} is past the 48-bit address space (the limit is {limit:#x})"
            ));
        }
        return Ok(json!(wg.memory().words(a, b)));
    }
    let per_wave = |f: &dyn Fn(&gpumemsim::wave::Wave) -> u64| -> Value {
        json!(wg.waves().iter().map(f).collect::<Vec<u64>>())
    };
    Ok(match what {
        "m0" => per_wave(&|w| w.m0() as u64),
        "exec" => per_wave(&|w| w.exec()),
        "vcc" => per_wave(&|w| w.vcc()),
        "scc" => per_wave(&|w| w.scc as u64),
        "mode" => per_wave(&|w| w.mode as u64),
        _ => match parse_target(what)? {
            Target::Vgpr(r) => json!(wg
                .waves()
                .iter()
                .map(|w| w.vgpr_lanes(r))
                .collect::<Vec<_>>()),
            Target::Sgpr(r) => per_wave(&|w| w.sreg(r) as u64),
            _ => unreachable_target(what)?,
        },
    })
}

fn unreachable_target(what: &str) -> Result<Value, String> {
    Err(format!("--dump {what}: not something to dump"))
}

/// `--baseline BEFORE.json`: compares the report `obj` with it. With `--json` the comparison
/// goes into `obj` under `"diff"` (and the text is empty); otherwise the text to end the
/// report with. Without `--baseline`, nothing.
pub fn baseline_diff(args: &RunArgs, obj: &mut Value) -> Result<String, String> {
    let Some(path) = &args.baseline else {
        return Ok(String::new());
    };
    let before = crate::diff_cmd::read_report(path)?;
    let diff =
        crate::diff_cmd::compare(&before, obj).map_err(|e| format!("--baseline {path}: {e}"))?;
    if args.json {
        obj["diff"] = diff;
        return Ok(String::new());
    }
    Ok(format!(
        "\nCompared with {path} (--baseline):\n{}",
        crate::diff_cmd::render_text(&diff, 10)
    ))
}

/// `--counters`: the counters as a table, each with its definition.
pub fn counters_text(program: &[AsmLine], wg: &Device) -> String {
    let mut s = String::from("\ncounters (rocprof's names; docs/counters.md):\n");
    for (name, v) in gpumemsim::report::amd_counters(program, wg) {
        let what = gpumemsim::report::counter_definition(name).unwrap_or("");
        s.push_str(&format!("  {name:<28} {v:>12}  {what}\n"));
    }
    s
}

/// An assembly program that has run, for `run`'s report.
pub struct AssemblyReport<'a> {
    /// The device settings.
    pub config: &'a RunConfig,
    /// The program's display name.
    pub name: &'a str,
    /// The program.
    pub program: &'a [AsmLine],
    /// The device after the run.
    pub device: &'a Device,
    /// Each instruction's source line, where known.
    pub sources: &'a [Option<InstSource>],
}

/// `run`'s report of an assembly program: one JSON object (`--json`) or the text report.
pub fn report_assembly(
    args: &RunArgs,
    ran: &AssemblyReport,
    texts: &mut SourceTexts,
    dumps: Map<String, Value>,
    error: Option<&str>,
) -> Result<(), String> {
    let (cfg, name, program, wg, sources) =
        (ran.config, ran.name, ran.program, ran.device, ran.sources);
    let kc = wg.kcache_stats();
    let mut obj = json!({
        "dump": Value::Object(dumps.clone()),
        "events": gpumemsim::report::json::events(program, 0, wg, sources),
        "instructions": gpumemsim::report::json::instructions(program, 0, wg, sources),
        "lines": gpumemsim::report::json::lines(program, 0, wg, sources, texts),
        "counters": gpumemsim::report::json::counters(program, wg),
        "cycles": wg.cycles(),
        "totals": gpumemsim::report::json::totals(wg),
        "timing": gpumemsim::report::json::timing(cfg),
        "device": gpumemsim::report::json::device(wg),
        "placement": gpumemsim::report::json::placement(wg),
        "units": gpumemsim::report::json::units(wg),
        "vcache": gpumemsim::report::json::vcache(wg),
        "delay_alu": gpumemsim::report::json::delay_alu(program, 0, wg),
        "steps": wg.steps(),
        "waves": cfg.waves,
        "workgroups": cfg.workgroups,
        "wave_size": cfg.wave_size,
        "target": cfg.chip.name,
        "kcache": {
            "hits": kc.hits,
            "misses": kc.misses,
            "invalidations": kc.invalidations,
        },
    });
    if let Some(e) = error {
        obj["error"] = json!(e);
    }
    if wg.functional() {
        gpumemsim::report::json::functional_view(&mut obj);
    }
    let baseline = baseline_diff(args, &mut obj)?;
    if args.json {
        outln!("{obj}");
    } else {
        let view = crate::run_text::TextView {
            title: name.to_string(),
            program,
            sources,
            base: 0,
            device: wg,
            top: args.top,
            by: args.by,
        };
        let mut text = crate::run_text::render(&view, texts, &dumps);
        if args.counters {
            text.push_str(&counters_text(program, wg));
        }
        text.push_str(&baseline);
        out!("{text}");
    }
    Ok(())
}
