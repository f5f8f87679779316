//! The rules the code implements are written up in docs/rules/ (one file per unit, each rule
//! under a heading whose anchor is its address), and the code cites them as
//! `docs/rules/FILE.md#anchor`. This test fails when a cited rule file or anchor does not
//! exist, and when anything in the repository still cites the source documents the rules
//! were first read from (hash-named files a reader of the repository cannot open).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir` (recursively) whose name ends with one of `exts`, skipping build
/// outputs.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if !matches!(name, "target" | "build" | ".git" | "node_modules") {
                files(&p, exts, out);
            }
        } else if exts.iter().any(|x| name.ends_with(x)) {
            out.push(p);
        }
    }
}

/// The text files a citation may be in: sources, tests, docs, tools, examples.
fn citing_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in ["crates", "docs", "tools", "examples", "fuzz"] {
        files(
            &root().join(d),
            &[".rs", ".md", ".py", ".sh", ".s", ".cl", ".hip", ".pyi"],
            &mut out,
        );
    }
    out.push(root().join("README.md"));
    out.retain(|p| !p.ends_with("tests/rules_citations.rs"));
    out
}

/// GitHub's anchor of a Markdown heading: lower case, spaces to hyphens, punctuation other
/// than hyphens and underscores dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Each rule file's anchors (its headings' slugs).
fn anchors() -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    let mut mds = Vec::new();
    files(&root().join("docs/rules"), &[".md"], &mut mds);
    for p in mds {
        let text = std::fs::read_to_string(&p).expect("read a rule file");
        let set = text
            .lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| slug(l.trim_start_matches('#')))
            .collect();
        let name = p
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        out.insert(name, set);
    }
    out
}

#[test]
fn every_cited_rule_exists() {
    let anchors = anchors();
    assert!(
        anchors.len() >= 8,
        "docs/rules/ has a file per unit: {:?}",
        anchors.keys()
    );
    let cite = Regex::new(r"docs/rules/([a-z0-9-]+\.md)#([a-z0-9_-]+)").expect("a valid regex");
    let mut cited = 0;
    let mut missing = Vec::new();
    for p in citing_files() {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for c in cite.captures_iter(line) {
                cited += 1;
                let ok = anchors.get(&c[1]).is_some_and(|a| a.contains(&c[2]));
                if !ok {
                    missing.push(format!("{}:{}: {}", p.display(), n + 1, &c[0]));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited rules that do not exist:\n{}",
        missing.join("\n")
    );
    assert!(cited >= 100, "only {cited} citations of docs/rules found");
}

#[test]
fn nothing_cites_the_hash_named_source_documents() {
    // `000_b892342bad162b52.txt §...`, `000 §...`, `(003)`, `(000: ...)`: the names the
    // rules had before docs/rules/.
    let old = Regex::new(r"\b\d{3}_[0-9a-f]{16}\.txt|\b00[0-4] ?§|\(00[0-4][):]|\b00[0-4]: ")
        .expect("a valid regex");
    let mut found = Vec::new();
    for p in citing_files() {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if old.is_match(line) {
                found.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} lines still cite the source documents:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_rules_are_quoted_in_english() {
    // Quotations from the Chinese source documents give way to the rules in our words.
    let cjk = Regex::new(r"[\p{Han}]").expect("a valid regex");
    let mut found = Vec::new();
    for p in citing_files() {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if cjk.is_match(line) {
                found.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} lines quote the source documents in Chinese:\n{}",
        found.len(),
        found.join("\n")
    );
}
