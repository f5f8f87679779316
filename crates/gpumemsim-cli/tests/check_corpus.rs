//! The checker's corpus (examples/checker/corpus.txt) of correct kernels in the shapes that
//! need its rules and kernels with one seeded bug each, built from source by `gpumemsim
//! check` at -O2 for wave32 and wave64 and run with a shaken schedule: every correct kernel
//! is clean, every bug is found with its kind at its source lines. tools/check_accuracy.py
//! measures the whole corpus at -O1/-O2/-O3 and seeds 0-19 (CI runs it).
//!
//! Needs clang-19, lld-19 and the device libraries (Debian: clang-19, lld-19,
//! rocm-device-libs, libamdhip64-dev), as every test that compiles sources does.

mod common;

use common::run;
use serde_json::Value;

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

/// One launch of the manifest: correct (`expect` None) or a bug (kind, source lines).
struct Launch {
    path: String,
    expect: Option<(String, Vec<u64>)>,
    wave64: bool,
    args: Vec<String>,
}

/// The manifest's launches of examples/checker and examples/buggy (the corpora with their
/// own tests are left to them).
fn launches() -> Vec<Launch> {
    let text = std::fs::read_to_string(format!("{}/examples/checker/corpus.txt", root()))
        .expect("examples/checker/corpus.txt");
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, args) = line.split_once(" -- ").expect("HEAD -- ARGS");
        let mut words: Vec<&str> = head.split_whitespace().collect();
        let (what, path) = (words.remove(0), words.remove(0));
        if !path.starts_with("examples/checker/") && !path.starts_with("examples/buggy/") {
            continue;
        }
        let expect = (what == "bug").then(|| {
            let (kind, lines) = words.remove(0).split_once(':').expect("KIND:LINES");
            let lines = lines
                .split(',')
                .map(|l| l.parse().expect("a line"))
                .collect();
            (kind.to_string(), lines)
        });
        let wave64 = !words.contains(&"waves=32");
        words.retain(|w| *w != "waves=32");
        let args = words
            .iter()
            .map(|w| w.to_string())
            .chain(args.split_whitespace().map(str::to_string))
            .collect();
        out.push(Launch {
            path: path.to_string(),
            expect,
            wave64,
            args,
        });
    }
    out
}

/// The source lines of finding `f`'s instructions.
fn lines(f: &Value) -> Vec<u64> {
    f["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .filter_map(|i| i["source"]["line"].as_u64())
        .collect()
}

#[test]
fn correct_kernels_are_clean_and_seeded_bugs_are_found_at_their_lines() {
    let all = launches();
    assert!(all.len() >= 15, "{} launches", all.len());
    let (mut clean, mut bugs) = (0, 0);
    for l in &all {
        for wave64 in [false, true] {
            if wave64 && !l.wave64 {
                continue;
            }
            let path = format!("{}/{}", root(), l.path);
            let mut argv = vec!["check", path.as_str(), "--cflags=-O2", "--seed", "3"];
            if wave64 {
                argv.push("--wave64");
            }
            argv.extend(l.args.iter().map(String::as_str));
            argv.push("--json");
            let o = run(&argv, "");
            let out = String::from_utf8_lossy(&o.stdout);
            let err = String::from_utf8_lossy(&o.stderr);
            let what = format!("{} wave{}", l.path, if wave64 { 64 } else { 32 });
            let j: Value =
                serde_json::from_str(&out).unwrap_or_else(|e| panic!("{what}: {e}: {out}{err}"));
            let findings = j["findings"].as_array().expect("findings");
            match &l.expect {
                None => {
                    assert_eq!(o.status.code(), Some(0), "{what}: {out}{err}");
                    assert!(findings.is_empty(), "{what}: {findings:?}");
                    clean += 1;
                }
                Some((kind, want)) => {
                    assert_eq!(o.status.code(), Some(1), "{what}: {out}{err}");
                    let hit = findings.iter().any(|f| {
                        f["kind"] == kind.as_str() && want.iter().all(|w| lines(f).contains(w))
                    });
                    assert!(hit, "{what}: no {kind} at lines {want:?}: {findings:?}");
                    bugs += 1;
                }
            }
        }
    }
    assert!(clean >= 12 && bugs >= 15, "{clean} clean, {bugs} bugs");
}
