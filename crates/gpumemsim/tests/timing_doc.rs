//! docs/timing.md lists every timing parameter with its source: the parameters table (generated
//! by `tools/gen_timing_doc.py` between its marker comments) must name each of
//! `RunConfig::TIMING_NAMES` on a row that gives a source — a link, a repository path or the
//! word "estimate" (docs/rules/timing.md#assumed-latencies). This test fails when a parameter
//! is added to the model and the table is not regenerated, and when a marker is lost.

use gpumemsim::exec::RunConfig;
use regex::Regex;

const PARAMETERS: &str = "<!-- generated: parameters -->";
const VALIDATION: &str = "<!-- generated: validation -->";
const DELAY_ALU: &str = "<!-- generated: delay-alu -->";
const END: &str = "<!-- end generated -->";

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/timing.md");
    std::fs::read_to_string(path).expect("docs/timing.md exists")
}

/// The text between the `start` marker and the next end marker, or why there is none.
fn section<'a>(text: &'a str, start: &str) -> Result<&'a str, String> {
    let i = text
        .find(start)
        .ok_or_else(|| format!("no {start} marker"))?
        + start.len();
    let j = text[i..]
        .find(END)
        .ok_or_else(|| format!("no {END} after {start}"))?;
    Ok(&text[i..i + j])
}

/// Whether a table row gives a source: a link, a repository path (`owner/repo:path/...`) or
/// the word "estimate".
fn has_source(row: &str) -> bool {
    let repo_path = Regex::new(r"[\w.-]+/[\w.-]+:[\w.-]+/[\w./-]+").expect("a valid regex");
    row.contains("http://")
        || row.contains("https://")
        || repo_path.is_match(row)
        || row.to_lowercase().contains("estimate")
}

/// The rows of the table in `section`, by the parameter name in their first cell.
fn rows(section: &str) -> Vec<(String, &str)> {
    section
        .lines()
        .filter_map(|line| {
            let first = line.strip_prefix('|')?.split('|').next()?.trim();
            let name = first.strip_prefix('`')?.strip_suffix('`')?;
            Some((name.to_string(), line))
        })
        .collect()
}

/// What is wrong with `text`'s parameters table for `names`.
fn problems(text: &str, names: &[&str]) -> Vec<String> {
    let table = match section(text, PARAMETERS) {
        Ok(t) => t,
        Err(e) => return vec![e],
    };
    let rows = rows(table);
    let mut out = Vec::new();
    for name in names {
        let mine: Vec<&str> = rows
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, l)| *l)
            .collect();
        match mine.as_slice() {
            [] => out.push(format!("`{name}` has no row in the parameters table")),
            [row] if !has_source(row) => out.push(format!("`{name}`'s row gives no source")),
            [_] => {}
            _ => out.push(format!("`{name}` has {} rows", mine.len())),
        }
    }
    for (name, _) in &rows {
        if !names.contains(&name.as_str()) {
            out.push(format!(
                "`{name}` is in the table but not a timing parameter"
            ));
        }
    }
    out
}

#[test]
fn every_generated_section_has_its_marker() {
    let text = doc();
    for start in [PARAMETERS, VALIDATION, DELAY_ALU] {
        let body = section(&text, start).unwrap_or_else(|e| panic!("docs/timing.md: {e}"));
        assert!(
            body.contains("\n|"),
            "docs/timing.md: the section after {start} holds no table \
             (run python3 tools/gen_timing_doc.py)"
        );
    }
}

#[test]
fn every_timing_parameter_has_a_row_with_its_source() {
    let names = RunConfig::TIMING_NAMES;
    let found = problems(&doc(), &names);
    assert!(
        found.is_empty(),
        "docs/timing.md (regenerate it with python3 tools/gen_timing_doc.py):\n{}",
        found.join("\n")
    );
}

/// The checks above find what they look for: a missing row, a row without a source, a stale
/// row, a lost marker.
#[test]
fn the_checks_catch_a_bad_table() {
    let good = format!(
        "{PARAMETERS}\n| `a` | 1 | estimate: none public |\n\
         | `b` | 2 | [x](https://example.com) |\n\
         | `c` | 3 | `llvm/llvm-project:llvm/lib/Target/AMDGPU/SISchedule.td:M` |\n{END}\n"
    );
    assert!(problems(&good, &["a", "b", "c"]).is_empty());
    assert_eq!(
        problems(&good, &["a", "b", "c", "d"]).len(),
        1,
        "missing row"
    );
    assert_eq!(problems(&good, &["a", "b"]).len(), 1, "stale row");
    let sourceless = good.replace("estimate: none public", "a guess");
    assert_eq!(
        problems(&sourceless, &["a", "b", "c"]),
        ["`a`'s row gives no source"]
    );
    let outside = good.replace(END, "").replace(PARAMETERS, "") + PARAMETERS + END;
    assert_eq!(
        problems(&outside, &["a", "b", "c"]).len(),
        3,
        "rows outside"
    );
    assert!(section(&good.replace(END, ""), PARAMETERS).is_err());
    assert!(section(&good, VALIDATION).is_err());
}
