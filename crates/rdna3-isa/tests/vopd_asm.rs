//! VOPD text (`X :: Y`) against llvm-mc-19: tests/golden/vopd_asm.txt (600 seeded random
//! lines, tools/gen_vopd_asm_goldens.py) holds, for each, llvm-mc-19's canonical text and
//! encoding, or its error's column and message. The assembler gives the same bytes and text,
//! or the same error at the same column.

use rdna3_isa::asm::assemble;

#[test]
fn vopd_lines_assemble_as_llvm_mc_19_assembles_them() {
    let golden = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/vopd_asm.txt"
    ))
    .expect("the golden file");
    let (mut encoded, mut refused, mut wrong) = (0, 0, Vec::new());
    for row in golden.lines() {
        let f: Vec<&str> = row.split('\t').collect();
        let prog = assemble(f[0]);
        if let Some(err) = f[1].strip_prefix("error:") {
            refused += 1;
            let (col, msg) = err.split_once(':').expect("COL:MESSAGE");
            let got = prog
                .errors
                .first()
                .map(|e| (e.col.to_string(), e.msg.as_str()));
            if got != Some((col.to_string(), msg)) {
                wrong.push(format!("{}\n  want {col}: {msg}\n  got  {got:?}", f[0]));
            }
            continue;
        }
        encoded += 1;
        let bytes: Vec<String> = prog.bytes().iter().map(|b| format!("0x{b:02x}")).collect();
        let got = (
            prog.lines.first().map(|l| l.text()),
            format!("[{}]", bytes.join(",")),
        );
        if !prog.errors.is_empty() || got != (Some(f[1].to_string()), f[2].to_string()) {
            wrong.push(format!(
                "{}\n  want {} {}\n  got  {got:?} {:?}",
                f[0], f[1], f[2], prog.errors
            ));
        }
    }
    assert!(
        encoded > 150 && refused > 300,
        "{encoded} encoded, {refused} refused"
    );
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n{}",
        wrong.len(),
        encoded + refused,
        wrong[..wrong.len().min(10)].join("\n")
    );
}
