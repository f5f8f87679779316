//! Source lines from DWARF against llvm-addr2line-19: every instruction of every kernel of
//! the committed `-g` objects has the inline chain (function, file, line, column per frame,
//! innermost first) that llvm-addr2line-19 -f -i -C gives for its address
//! (tests/golden/source_lines.txt at the repository root, written by tools/gen_line_goldens.py).

use std::collections::HashMap;

use gpumemsim::loader::{CodeObject, SourceFrame};

fn chain(frames: Option<&[SourceFrame]>) -> String {
    let Some(frames) = frames else {
        return "@:0:0".into();
    };
    frames
        .iter()
        .map(|f| {
            let (file, line, col) = f
                .location
                .as_ref()
                .map_or(("", 0, 0), |l| (l.file.as_str(), l.line, l.column));
            format!(
                "{}@{file}:{line}:{col}",
                f.function.as_deref().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join(" <- ")
}

#[test]
fn every_instruction_has_llvm_addr2lines_inline_chain() {
    let root = format!("{}/../..", env!("CARGO_MANIFEST_DIR"));
    let golden = std::fs::read_to_string(format!("{root}/tests/golden/source_lines.txt"))
        .expect("the golden file");
    let mut objects: HashMap<&str, CodeObject> = HashMap::new();
    let (mut checked, mut wrong) = (0, Vec::new());
    for line in golden.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let [path, symbol, offset, want] = f[..] else {
            panic!("bad golden line: {line}");
        };
        let obj = objects.entry(path).or_insert_with(|| {
            let bytes = std::fs::read(format!("{root}/{path}")).expect("a committed object");
            CodeObject::parse(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
        });
        let offset = u32::from_str_radix(offset.trim_start_matches("0x"), 16).expect("offset");
        // A kernel's instruction, or one of a function a kernel calls (in the program of
        // every kernel that calls out, at its offset from the kernel's entry).
        let at = obj.kernels.iter().find_map(|k| {
            if k.name == symbol {
                return Some((k, offset));
            }
            let f = k.callees.iter().find(|f| f.name == symbol)?;
            Some((k, f.address.wrapping_add(offset)))
        });
        let Some((k, at)) = at else {
            // llvm-objdump also lists symbols that are neither (a function no kernel calls
            // out to); every kernel must be found.
            assert!(
                !symbol.starts_with("_Z") || want == "@:0:0",
                "{path}: no kernel {symbol}"
            );
            continue;
        };
        let got = chain(k.frames_at(at));
        checked += 1;
        if got != want {
            wrong.push(format!(
                "{path} {symbol} {offset:#x}:\n  want {want}\n  got  {got}"
            ));
        }
    }
    assert!(checked > 24000, "{checked} instructions checked");
    assert!(
        wrong.is_empty(),
        "{} of {checked} differ; first:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(8)].join("\n")
    );
}
