//! Data and alignment directives among instructions, against llvm-mc-19: the text it prints
//! for tests/golden/directives.s and the bytes of the .text section it assembles
//! (tests/golden/directives.s.txt and .bin, from tools/gen_directive_goldens.sh).

use rdna3_isa::asm::assemble;

fn golden(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../tests/golden/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the golden file")
}

#[test]
fn directives_print_and_assemble_as_llvm_mc_19() {
    let src = String::from_utf8(golden("directives.s")).expect("text");
    let prog = assemble(&src);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    assert_eq!(prog.bytes(), golden("directives.s.bin"));
    // The printed lines (labels and the leading .text, which gpumemsim does not print, left
    // out): instructions as `TEXT ; encoding: [...]`, directives as their text.
    let want: Vec<String> = String::from_utf8(golden("directives.s.txt"))
        .expect("text")
        .lines()
        .filter(|l| l.starts_with('\t') && *l != "\t.text")
        .map(|l| {
            let (text, enc) = l.split_once("; encoding:").unwrap_or((l, ""));
            format!("{}|{}", text.trim(), enc.trim())
        })
        .collect();
    let mut got: Vec<(usize, String)> = prog
        .lines
        .iter()
        .map(|l| {
            let enc: Vec<String> = l
                .inst
                .encode()
                .iter()
                .map(|b| format!("0x{b:02x}"))
                .collect();
            (l.line, format!("{}|[{}]", l.text(), enc.join(",")))
        })
        .collect();
    for d in &prog.data {
        got.extend(d.text.iter().map(|t| (d.line, format!("{t}|"))));
    }
    got.sort_by_key(|g| g.0);
    let got: Vec<String> = got.into_iter().map(|g| g.1).collect();
    assert_eq!(got, want);
    // Run as a program, the data words are instructions at their addresses (the .long
    // 0xbf800000 and the padding are s_nop 0); data that is no instruction before an
    // instruction is an error (line 5's second word, -1).
    let e = prog.executable_lines().expect_err("data in the way");
    assert_eq!(e.line, 5, "{e:?}");
    let ok = assemble("s_nop 1\n.long 0xbf800000\n.p2align 4\ns_endpgm\n.byte 7\n");
    let lines = ok.executable_lines().expect("runs");
    let texts: Vec<(u32, String)> = lines.iter().map(|l| (l.address, l.text())).collect();
    assert_eq!(
        texts,
        [
            (0, "s_nop 1".to_string()),
            (4, "s_nop 0".into()),
            (8, "s_nop 0".into()),
            (12, "s_nop 0".into()),
            (16, "s_endpgm".into())
        ]
    );
}
