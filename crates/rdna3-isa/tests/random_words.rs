//! The disassembler against llvm-mc-19 on seeded random words of every encoding format
//! (`tests/golden/random_disasm.txt`, written by `tools/gen_random_goldens.py`): the fixed
//! bits of the format set, every other bit random. Each word must be rejected where
//! llvm-mc-19 rejects it, and otherwise decode to as many bytes and print the same text.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rdna3_isa::print::print;
use rdna3_isa::Instruction;

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex byte"))
        .collect()
}

/// Our answer in the golden's terms: `(size, text)`, or `None` when the word is rejected.
fn ours(bytes: &[u8]) -> Option<(usize, String)> {
    let (inst, size) = Instruction::decode(bytes).ok()?;
    Some((size, print(&inst)))
}

#[test]
fn random_words_of_every_format_disassemble_as_llvm_mc_does() {
    // `RANDOM_GOLDEN=/tmp/r.txt` checks a held-out file instead (`tools/gen_random_goldens.py
    // --seed 7 --words 10000 --out /tmp/r.txt`).
    let path = match std::env::var_os("RANDOM_GOLDEN") {
        Some(p) => PathBuf::from(p),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/random_disasm.txt")
        }
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Per format: words, words llvm-mc-19 accepts, agreeing words, agreeing accepted words.
    let mut stats: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    let mut fails = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "golden line: {line}");
        let bytes = hex_bytes(cols[1]);
        let want = match cols[2] {
            "-" => None,
            n => Some((n.parse::<usize>().expect("size"), cols[3].to_string())),
        };
        let got = ours(&bytes);
        let s = stats.entry(cols[0]).or_default();
        s[0] += 1;
        s[1] += want.is_some() as usize;
        if got == want {
            s[2] += 1;
            s[3] += want.is_some() as usize;
        } else {
            let show = |r: &Option<(usize, String)>| match r {
                None => "invalid".to_string(),
                Some((n, t)) => format!("{t}  ({n} bytes)"),
            };
            fails.push(format!(
                "{} {}\n   llvm: {}\n   ours: {}",
                cols[0],
                cols[1],
                show(&want),
                show(&got)
            ));
        }
    }
    let mut summary = String::new();
    for (f, [n, valid, agree, agree_valid]) in &stats {
        summary.push_str(&format!(
            "{f:8} {agree:5} of {n:5} words agree ({:.1}%); accepted by llvm-mc-19: {agree_valid} of {valid}\n",
            100.0 * *agree as f64 / *n as f64
        ));
    }
    eprint!("{summary}");
    if let Ok(dir) = std::env::var("GOLDEN_DUMP_DIR") {
        let _ = std::fs::write(format!("{dir}/random_disasm.fail"), fails.join("\n"));
    }
    assert!(stats.len() >= 20, "formats: {}", stats.len());
    assert!(
        fails.is_empty(),
        "{} random words differ from llvm-mc-19:\n{summary}{}",
        fails.len(),
        fails
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
