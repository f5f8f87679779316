//! `gpumemsim diff --fail-on-regression[=PERCENT]`: the regressions of a comparison (the JSON
//! of [`crate::diff_cmd::compare`]) that exceed a threshold — the kernel's time, or a source
//! line's bank-conflict cycles (the kernel's, when the reports have no line tables), grown by
//! more than PERCENT of the before value (from zero: any growth) — and an after run that
//! stopped where the before run did not.

use serde_json::Value;

/// Each regression beyond `percent`, as one line of text.
pub fn regressions(diff: &Value, percent: f64) -> Vec<String> {
    let mut out = Vec::new();
    let k = &diff["kernel"];
    if let (None, Some(e)) = (k["before"].get("error"), k["after"].get("error")) {
        // Its figures end where it stopped: no growth could show.
        out.push(format!(
            "the after run stopped: {}",
            e.as_str().unwrap_or("?")
        ));
    }
    if let Some(r) = grown(&k["before"]["cycles"], &k["after"]["cycles"], percent) {
        out.push(format!("kernel time {r} cycles"));
    }
    let no_lines = diff["lines"].as_array().is_none_or(Vec::is_empty);
    if no_lines {
        let (b, a) = (
            &k["before"]["conflict_cycles"],
            &k["after"]["conflict_cycles"],
        );
        if let Some(r) = grown(b, a, percent) {
            out.push(format!(
                "kernel conflict cycles {r} (the reports have no line tables)"
            ));
        }
    }
    for e in diff["lines"].as_array().map_or(&[][..], Vec::as_slice) {
        let (b, a) = (
            &e["before"]["conflict_cycles"],
            &e["after"]["conflict_cycles"],
        );
        if let Some(r) = grown(b, a, percent) {
            let place = format!(
                "{}:{}",
                e["file"]
                    .as_str()
                    .unwrap_or("?")
                    .rsplit('/')
                    .next()
                    .unwrap_or("?"),
                e["line"]
            );
            let text = e["text"].as_str().unwrap_or("");
            out.push(
                format!("{place} conflict cycles {r}  {text}")
                    .trim_end()
                    .to_string(),
            );
        }
    }
    out
}

/// `before → after (+N%)` when `after` exceeds `before` by more than `percent` of it (from 0:
/// any growth); a missing side counts as 0.
fn grown(before: &Value, after: &Value, percent: f64) -> Option<String> {
    let (b, a) = (before.as_i64().unwrap_or(0), after.as_i64().unwrap_or(0));
    if a <= b {
        return None;
    }
    if b == 0 {
        return Some(format!("{b} → {a}"));
    }
    let growth = (a - b) as f64 * 100.0 / b as f64;
    (growth > percent).then(|| format!("{b} → {a} (+{growth:.1}%)"))
}
