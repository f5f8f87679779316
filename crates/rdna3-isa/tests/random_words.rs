//! The disassembler against llvm-mc-19 on seeded random words of every encoding format
//! (`tests/golden/random_disasm.txt`, written by `tools/gen_random_goldens.py`): the fixed
//! bits of the format set, every other bit random. Each word must be rejected where
//! llvm-mc-19 rejects it, and otherwise decode to as many bytes and print the same text.
//! The same for gfx942 (`tests/golden/random_disasm_gfx942.txt`, `tools/gen_random_goldens.py
//! --mcpu gfx942`) through its decoder and printer (`rdna3_isa::gfx9`).

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

/// gfx942's answer: `(size, text)`, or `None` when the word is rejected.
fn ours_gfx942(bytes: &[u8]) -> Option<(usize, String)> {
    let (inst, size) = rdna3_isa::gfx9::decode::decode(bytes).ok()?;
    Some((size, rdna3_isa::gfx9::print::print(&inst)))
}

#[test]
fn random_words_of_every_format_disassemble_as_llvm_mc_does() {
    // `RANDOM_GOLDEN=/tmp/r.txt` checks a held-out file instead (`tools/gen_random_goldens.py
    // --seed 7 --words 10000 --out /tmp/r.txt`).
    check("random_disasm", "RANDOM_GOLDEN", ours, 20);
}

#[test]
fn random_gfx942_words_of_every_format_in_its_table_disassemble_as_llvm_mc_does() {
    // `RANDOM_GOLDEN_GFX942=/tmp/r.txt`: a held-out file (`tools/gen_random_goldens.py --mcpu
    // gfx942 --seed 7 --out /tmp/r.txt`).
    check(
        "random_disasm_gfx942",
        "RANDOM_GOLDEN_GFX942",
        ours_gfx942,
        11,
    );
}

#[test]
fn the_encodings_of_llvms_gfx940_mc_tests_disassemble_as_llvm_mc_does() {
    // tests/golden/mc_disasm_gfx942.txt: the byte lines of LLVM's gfx940 disassembler tests
    // and llvm-mc-19's encodings of its gfx9/gfx940 assembler tests' lines
    // (tools/gen_asm_goldens_gfx942.py --mc DIR).
    check(
        "mc_disasm_gfx942",
        "MC_DISASM_GOLDEN_GFX942",
        ours_gfx942,
        1,
    );
}

#[test]
fn clang_built_gfx942_kernels_disassemble_as_llvm_objdump_prints_them() {
    // tests/golden/objdump_gfx942.txt: the project's OpenCL kernels built by clang-19 for
    // gfx942 at -O2 and -O0 (tools/gen_objdump_goldens_gfx942.py), one object per "format".
    check("objdump_gfx942", "OBJDUMP_GOLDEN_GFX942", ours_gfx942, 20);
}

/// Checks golden file `name` (`tests/golden/NAME.txt`, or the file the environment variable
/// `env` names) against `ours`, which must answer for at least `formats` formats.
fn check(name: &str, env: &str, ours: fn(&[u8]) -> Option<(usize, String)>, formats: usize) {
    let path = match std::env::var_os(env) {
        Some(p) => PathBuf::from(p),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/golden/{name}.txt"))
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
        let _ = std::fs::write(format!("{dir}/{name}.fail"), fails.join("\n"));
    }
    assert!(stats.len() >= formats, "formats: {}", stats.len());
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
