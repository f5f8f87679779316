//! Reading a run report for `gpumemsim diff`: only what the comparison uses (the kernel's
//! name, time, totals, resources and error; each line's and instruction's place, text and
//! figures), so that a report's memory is a small multiple of its size. The rest — buffer
//! values, events, each instruction's source and inline chain — is skipped as it is read,
//! never held.

use serde::Deserialize;
use serde_json::{Map, Value};

/// The parts of a run report the comparison reads.
#[derive(Deserialize)]
struct Report {
    kernel: Option<Value>,
    cycles: Option<Value>,
    totals: Option<Value>,
    resources: Option<Value>,
    error: Option<Value>,
    sampled: Option<Value>,
    lines: Option<Vec<Record>>,
    instructions: Vec<Record>,
}

/// A line or instruction record: the keys the comparison reads.
#[derive(Deserialize)]
struct Record {
    file: Option<Value>,
    line: Option<Value>,
    text: Option<Value>,
    address: Option<Value>,
    cycles: Option<Value>,
    conflict_cycles: Option<Value>,
    stall_cycles: Option<Value>,
    executions: Option<Value>,
    latency_cycles: Option<Value>,
    instructions: Option<Value>,
}

impl Record {
    fn into_value(self) -> Value {
        let mut o = Map::new();
        let fields = [
            ("file", self.file),
            ("line", self.line),
            ("text", self.text),
            ("address", self.address),
            ("cycles", self.cycles),
            ("conflict_cycles", self.conflict_cycles),
            ("stall_cycles", self.stall_cycles),
            ("executions", self.executions),
            ("latency_cycles", self.latency_cycles),
            ("instructions", self.instructions),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                o.insert(k.into(), v);
            }
        }
        Value::Object(o)
    }
}

/// `text` read as a run report, as the JSON value of the parts the comparison uses; `Err`
/// says whether it is not JSON or not a run report.
pub fn slim_report(text: &str) -> Result<Value, String> {
    let r: Report = serde_json::from_str(text).map_err(|e| {
        use serde_json::error::Category;
        let hint = "write one with `gpumemsim run ... --json > FILE`";
        match e.classify() {
            Category::Data if e.to_string().starts_with("missing field `instructions`") => {
                format!("not a gpumemsim run report (it has no \"instructions\" list); {hint}")
            }
            Category::Data => format!("not a gpumemsim run report ({e}); {hint}"),
            _ => format!("not JSON: {e}"),
        }
    })?;
    let mut o = Map::new();
    let top = [
        ("kernel", r.kernel),
        ("cycles", r.cycles),
        ("totals", r.totals),
        ("resources", r.resources),
        ("error", r.error),
        ("sampled", r.sampled),
    ];
    for (k, v) in top {
        if let Some(v) = v {
            o.insert(k.into(), v);
        }
    }
    if let Some(lines) = r.lines {
        o.insert(
            "lines".into(),
            Value::Array(lines.into_iter().map(Record::into_value).collect()),
        );
    }
    o.insert(
        "instructions".into(),
        Value::Array(r.instructions.into_iter().map(Record::into_value).collect()),
    );
    Ok(Value::Object(o))
}
