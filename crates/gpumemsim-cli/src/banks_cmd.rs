//! `gpumemsim banks`: the bank cost of one LDS / shared-memory access, why, and how to fix it.

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::builder::PossibleValuesParser;
use clap::Args;
use gpumemsim::banks::query::{lane_values, operation, parse_lanes, Operation};
use gpumemsim::banks::{
    suggest_layouts, Access, AccessReport, AccessShape, BankModel, CostUnits, GroupReport,
    GroupSource, Suggestion, WaveSize, PRESET_NAMES,
};

/// How many layouts `--suggest` prints.
const SUGGESTIONS: usize = 6;

/// How many groups the text output draws.
const PICTURES: usize = 4;

/// Arguments of `gpumemsim banks`.
#[derive(Args, Debug)]
pub struct BanksArgs {
    /// Architecture preset.
    #[arg(long, value_parser = PossibleValuesParser::new(PRESET_NAMES))]
    arch: String,
    /// The access: a DS mnemonic for AMD (`ds_load_b32`, `ds_store_b128`,
    /// `ds_load_2addr_b32`, `ds_add_u32`, ...) or
    /// `lds.32|lds.64|lds.128|sts.32|sts.64|sts.128|atoms.32` for NVIDIA.
    #[arg(long)]
    op: String,
    /// Each lane's byte address: an expression in the lane id `t` (`t*128`, `(t^1)*4 + 64`),
    /// or a comma list with one value per lane. For 2addr instructions, the first address with
    /// its offset applied.
    #[arg(long, allow_hyphen_values = true)]
    addr: String,
    /// The second byte address of 2addr instructions, written like --addr.
    #[arg(long, allow_hyphen_values = true)]
    addr1: Option<String>,
    /// Active lanes: lanes and ranges (`0-15,20`) or a mask (`0xffff`); default all.
    #[arg(long)]
    active: Option<String>,
    /// Wave size (default: the architecture's: 32 for RDNA and NVIDIA, 64 for CDNA).
    #[arg(long, value_parser = PossibleValuesParser::new(["32", "64"]))]
    wave: Option<String>,
    /// Print one JSON object: the counters and a "groups" array.
    #[arg(long)]
    json: bool,
    /// Search padding and XOR-swizzle layouts that lower the cost; print the best few.
    #[arg(long)]
    suggest: bool,
    /// Also write an HTML page to PATH: the bank × phase heat map of the access and, with
    /// --suggest, of each suggested layout side by side.
    #[arg(long, value_name = "PATH")]
    html: Option<String>,
}

/// `gpumemsim banks ...`.
pub fn banks(args: &BanksArgs) -> Result<ExitCode, String> {
    let model = BankModel::preset(&args.arch)
        .ok_or_else(|| format!("unknown architecture `{}`", args.arch))?;
    let op = operation(&model, &args.op)?;
    let wave = wave_size(&model, args.wave.as_deref())?;
    let active = match &args.active {
        Some(text) => parse_lanes(text, wave)?,
        None => wave.lane_mask(),
    };
    let addrs = lane_values("--addr", &args.addr, wave)?;
    let addrs1 = match (&args.addr1, op.kind.is_two_addr()) {
        (Some(text), true) => Some(lane_values("--addr1", text, wave)?),
        (None, true) => {
            return Err(format!(
                "{} takes two addresses per lane: give --addr1 as well",
                op.name
            ))
        }
        (Some(_), false) => {
            return Err(format!(
                "--addr1 is for 2addr instructions; {} has one address per lane",
                op.name
            ))
        }
        (None, false) => None,
    };
    let shape = AccessShape {
        width: op.width,
        kind: op.kind,
        active,
        wave,
    };
    let access = Access {
        shape,
        addrs: &addrs,
        addrs1: addrs1.as_deref(),
    };
    let report = model.analyze(&access).map_err(|e| e.to_string())?;
    let suggestions = if args.suggest {
        Some(suggest_layouts(&model, &access, SUGGESTIONS).map_err(|e| e.to_string())?)
    } else {
        None
    };
    let out = if args.json {
        json(&model, &op, &shape, &report, suggestions.as_deref())
    } else {
        text(
            &model,
            &op,
            &shape,
            &access,
            &report,
            suggestions.as_deref(),
        )
    };
    if let Some(path) = &args.html {
        crate::html_out::write_banks_report(
            path,
            &model,
            &op.name,
            &access,
            suggestions.as_deref(),
        )?;
    }
    out!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn wave_size(model: &BankModel, wave: Option<&str>) -> Result<WaveSize, String> {
    let lanes = match wave {
        Some(text) => Some(
            text.parse()
                .map_err(|_| format!("--wave {text}: must be 32 or 64"))?,
        ),
        None => None,
    };
    gpumemsim::banks::query::wave_size(model, lanes)
}

fn lane_list(mask: u64) -> String {
    let lanes: Vec<String> = (0..64)
        .filter(|l| mask >> l & 1 == 1)
        .map(|l| l.to_string())
        .collect();
    format!("[{}]", lanes.join(","))
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn source_name(source: GroupSource) -> &'static str {
    match source {
        GroupSource::First => "first",
        GroupSource::Second => "second",
        GroupSource::Both => "both",
    }
}

fn json(
    model: &BankModel,
    op: &Operation,
    shape: &AccessShape,
    report: &AccessReport,
    suggestions: Option<&[Suggestion]>,
) -> String {
    let mut o = String::from("{");
    let _ = write!(
        o,
        "\"arch\":{},\"op\":{},\"kind\":\"{}\",\"width\":{},\"wave\":{},\"active\":\"{:#x}\",\
         \"banks\":{},\"bank_width\":{}",
        json_string(model.name()),
        json_string(&op.name),
        shape.kind.name(),
        shape.width,
        shape.wave.lanes(),
        shape.active,
        model.banks(),
        model.bank_width()
    );
    for (name, value) in report.cost.counters(model.units()).entries() {
        let _ = write!(o, ",\"{name}\":{value}");
    }
    let named = report
        .cost
        .counters(model.units())
        .profiler_entries(shape.kind);
    let named: Vec<String> = named.iter().map(|(n, v)| format!("\"{n}\":{v}")).collect();
    let _ = write!(o, ",\"counters\":{{{}}}", named.join(","));
    o.push_str(",\"groups\":[");
    for (i, g) in report.groups.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        group_json(&mut o, g);
    }
    o.push(']');
    if let Some(list) = suggestions {
        o.push_str(",\"suggestions\":[");
        for (i, s) in list.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            let _ = write!(
                o,
                "{{\"layout\":{},\"expression\":{},\"overhead\":{}",
                json_string(&s.layout.to_string()),
                json_string(&s.layout.expression()),
                s.layout.overhead()
            );
            for (name, value) in s.cost.counters(model.units()).entries() {
                let _ = write!(o, ",\"{name}\":{value}");
            }
            o.push('}');
        }
        o.push(']');
    }
    o.push_str("}\n");
    o
}

fn group_json(o: &mut String, g: &GroupReport) {
    let phases: Vec<String> = g.phases.iter().map(|p| p.to_string()).collect();
    let _ = write!(
        o,
        "{{\"addresses\":\"{}\",\"phases\":[{}],\"lanes\":{},\"cost\":{},\"banks\":[",
        source_name(g.source),
        phases.join(","),
        lane_list(g.lanes),
        g.cost
    );
    let bank_json = |b: &gpumemsim::banks::BankUse| {
        let words: Vec<String> = b.words.iter().map(|w| w.to_string()).collect();
        format!(
            "{{\"bank\":{},\"lanes\":{},\"words\":[{}],\"accesses\":{}}}",
            b.bank,
            lane_list(b.lanes),
            words.join(","),
            b.accesses
        )
    };
    let banks: Vec<String> = g.banks.iter().map(bank_json).collect();
    o.push_str(&banks.join(","));
    o.push_str("],\"conflicts\":[");
    let conflicts: Vec<String> = g.conflicts().map(bank_json).collect();
    o.push_str(&conflicts.join(","));
    o.push_str("]}");
}

fn text(
    model: &BankModel,
    op: &Operation,
    shape: &AccessShape,
    access: &Access<u64>,
    report: &AccessReport,
    suggestions: Option<&[Suggestion]>,
) -> String {
    let mut o = String::new();
    let units = model.units();
    let (group_word, wave_word, cost_word) = match units {
        CostUnits::Cycles => ("phases", "wave", "cycles"),
        CostUnits::Wavefronts => ("phases", "warp", "wavefronts"),
    };
    let _ = writeln!(
        o,
        "{}: {} banks of {} B. {} ({}, {} B per lane{}), {}{}, active lanes {}",
        model.name(),
        model.banks(),
        model.bank_width(),
        op.name,
        shape.kind.name(),
        shape.width,
        if shape.kind.is_two_addr() {
            " at each address"
        } else {
            ""
        },
        wave_word,
        shape.wave.lanes(),
        gpumemsim::banks::lane_ranges(shape.active)
    );
    let counters: Vec<String> = report
        .cost
        .counters(units)
        .entries()
        .iter()
        .map(|(n, v)| format!("{n} {v}"))
        .collect();
    let _ = writeln!(o, "{}", counters.join("   "));
    let summed: u32 = report.groups.iter().map(|g| g.cost).sum();
    if let Some(most) = model.max_cost().filter(|_| summed > report.cost.cost) {
        // docs/rules/banks.md#at-most-64-cycles
        let _ = writeln!(
            o,
            "(the groups add up to {summed} {cost_word}; an access takes at most {most})"
        );
    }
    o.push('\n');
    if report.groups.is_empty() {
        let _ = writeln!(o, "no active lanes: nothing to serve");
    } else {
        let two_addr = shape.kind.is_two_addr();
        let address_column = |text: &str| {
            if two_addr {
                format!("{text:<9}")
            } else {
                String::new()
            }
        };
        let _ = writeln!(
            o,
            "{:>5}  {}{:<8}{:<14}{:>10}  conflicts (bank: lanes, passes)",
            "group",
            address_column("address"),
            group_word,
            "lanes",
            cost_word
        );
        for (i, g) in report.groups.iter().enumerate() {
            let phases: Vec<String> = g.phases.iter().map(|p| p.to_string()).collect();
            let conflicts: Vec<String> = g
                .conflicts()
                .map(|b| {
                    format!(
                        "{}: {}, {}",
                        b.bank,
                        gpumemsim::banks::lane_ranges(b.lanes),
                        b.accesses
                    )
                })
                .collect();
            let _ = writeln!(
                o,
                "{i:>5}  {}{:<8}{:<14}{:>10}  {}",
                address_column(source_name(g.source)),
                phases.join("+"),
                gpumemsim::banks::lane_ranges(g.lanes),
                g.cost,
                if conflicts.is_empty() {
                    "-".to_string()
                } else {
                    conflicts.join("; ")
                }
            );
        }
        pictures(&mut o, model, access, report);
    }
    if let Some(list) = suggestions {
        suggestions_text(&mut o, units, report, list);
    }
    o
}

/// Draws groups as a bank × lane grid: each lane's word in a bank is a letter
/// (same letter, same word: a broadcast); rows with more than one letter conflict.
fn pictures(o: &mut String, model: &BankModel, access: &Access<u64>, report: &AccessReport) {
    // The costliest groups; for a conflict-free access, the first one shows the pattern.
    let mut order: Vec<usize> = (0..report.groups.len())
        .filter(|&i| report.groups[i].cost > 1)
        .collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(report.groups[i].cost), i));
    order.truncate(PICTURES);
    order.sort_unstable();
    if order.is_empty() {
        order.push(0);
    }
    const MARKS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for &i in &order {
        let g = &report.groups[i];
        let lanes: Vec<u32> = (0..64).filter(|l| g.lanes >> l & 1 == 1).collect();
        let _ = writeln!(
            o,
            "\ngroup {i}, lanes {}: a letter per word a lane reads or writes in each bank \
             (same letter, same word); `!` marks conflicting banks",
            gpumemsim::banks::lane_ranges(g.lanes)
        );
        let tens: String = lanes
            .iter()
            .map(|l| char::from(b'0' + (l / 10) as u8))
            .collect();
        let ones: String = lanes
            .iter()
            .map(|l| char::from(b'0' + (l % 10) as u8))
            .collect();
        let _ = writeln!(o, "   lane   {tens}");
        let _ = writeln!(o, "          {ones}");
        for b in &g.banks {
            let row: String = lanes
                .iter()
                .map(|&l| {
                    if b.lanes >> l & 1 == 0 {
                        return '.';
                    }
                    let word = lane_word(model, access, g, l, b.bank);
                    match word.and_then(|w| b.words.iter().position(|&x| x == w)) {
                        Some(k) => char::from(*MARKS.get(k).unwrap_or(&b'*')),
                        None => '?',
                    }
                })
                .collect();
            let line = format!(
                "  bank {:>2}{} {row}  {}",
                b.bank,
                if b.conflicts() { '!' } else { ' ' },
                if b.conflicts() {
                    format!("{} passes", b.accesses)
                } else {
                    String::new()
                }
            );
            let _ = writeln!(o, "{}", line.trim_end());
        }
    }
    if report.groups.len() > order.len() {
        let _ = writeln!(
            o,
            "\n({} more groups not drawn; --json lists every one)",
            report.groups.len() - order.len()
        );
    }
}

/// The word `lane` touches in `bank` within group `g` (words are byte address / bank width).
fn lane_word(
    model: &BankModel,
    access: &Access<u64>,
    g: &GroupReport,
    lane: u32,
    bank: u32,
) -> Option<u64> {
    let lane = lane as usize;
    let sources: Vec<u64> = match (g.source, access.addrs1) {
        (GroupSource::Second, Some(a1)) => vec![*a1.get(lane)?],
        (GroupSource::Both, Some(a1)) => vec![*access.addrs.get(lane)?, *a1.get(lane)?],
        _ => vec![*access.addrs.get(lane)?],
    };
    let width = model.bank_width() as u64;
    sources.into_iter().find_map(|start| {
        let end = start.saturating_add(access.shape.width as u64 - 1);
        (start / width..=end / width).find(|w| model.bank_of(w * width) == bank)
    })
}

fn suggestions_text(o: &mut String, units: CostUnits, report: &AccessReport, list: &[Suggestion]) {
    let cost_word = match units {
        CostUnits::Cycles => "cycles",
        CostUnits::Wavefronts => "wavefronts",
    };
    let _ = writeln!(o);
    if report.cost.conflicts() == 0 {
        let _ = writeln!(o, "suggest: the access is already conflict-free");
        return;
    }
    if list.is_empty() {
        let _ = writeln!(
            o,
            "suggest: no padding or XOR swizzle found that lowers the cost"
        );
        return;
    }
    let _ = writeln!(
        o,
        "suggested layouts, cheapest first (apply the map to every address of the array):"
    );
    let _ = writeln!(
        o,
        "{:>10}  {:>9}  {:>8}  layout",
        cost_word, "conflicts", "memory"
    );
    for s in list {
        let _ = writeln!(
            o,
            "{:>10}  {:>9}  {:>7.1}%  {}: {}",
            s.cost.cost,
            s.cost.conflicts(),
            100.0 * s.layout.overhead(),
            s.layout,
            s.layout.expression()
        );
    }
}
