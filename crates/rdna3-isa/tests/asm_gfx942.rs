//! The gfx942 assembler against llvm-mc-19 -mcpu=gfx942 (`tests/golden/asm_gfx942.txt`,
//! written by `tools/gen_asm_goldens_gfx942.py`): every line llvm-mc-19 assembles gives the
//! same bytes here and prints back as the same canonical text; every line it refuses is
//! refused here too (the wording of the message is not compared).
//!
//! `ASM_GOLDEN_GFX942=/tmp/a.txt` checks another file of the same form instead (a held-out
//! variant set: `--seed 7 --out /tmp/a.txt`; LLVM's MC tests as written: `--mc DIR --raw
//! --out /tmp/a.txt`).

use std::path::PathBuf;

use rdna3_isa::gfx9::{
    parse::parse_instruction,
    print::{print, print_with},
};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn gfx942_lines_assemble_as_llvm_mc_assembles_them() {
    let path = std::env::var("ASM_GOLDEN_GFX942").map_or_else(
        |_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/asm_gfx942.txt"),
        PathBuf::from,
    );
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (tools/gen_asm_goldens_gfx942.py)", path.display()));
    let mut failures = Vec::new();
    let (mut lines, mut refused) = (0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "golden line: {line}");
        let (source, input, canonical, expect) = (cols[0], cols[1], cols[2], cols[3]);
        lines += 1;
        let ours = parse_instruction(input);
        let problem = match (&ours, canonical) {
            (Err(_), "<error>") => {
                refused += 1;
                continue;
            }
            (Ok(p), "<error>") => format!(
                "accepted as {} ({}); llvm-mc-19: {expect}",
                print(&p.inst),
                hex(&p.inst.encode())
            ),
            (Err(e), _) => format!("refused ({e}); llvm-mc-19: {canonical} {expect}"),
            (Ok(p), _) => {
                let (bytes, text) = (hex(&p.inst.encode()), print_with(&p.inst, p.hints));
                if bytes == expect && text == canonical {
                    continue;
                }
                format!("{text} {bytes}; llvm-mc-19: {canonical} {expect}")
            }
        };
        failures.push(format!("{source}\t{input}\t{problem}"));
    }
    if let Ok(out) = std::env::var("ASM_GFX942_FAILURES") {
        std::fs::write(out, failures.join("\n")).expect("the failures file is writable");
    }
    assert!(lines > 100, "{}: only {lines} lines", path.display());
    assert!(
        failures.is_empty(),
        "{} of {lines} lines ({refused} refused by both) differ from llvm-mc-19:\n{}",
        failures.len(),
        failures
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
