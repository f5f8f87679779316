//! Fuzz actions on the instruction set (`rdna3-isa`): the disassembler on arbitrary bytes and
//! the assembler on arbitrary text. Each checks the crate's documented round trips besides
//! "does not panic", with the same exemptions as `crates/rdna3-isa/tests/properties.rs`.
//!
//! Shared by `fuzz/fuzz_targets/{disasm,asm}.rs` and `crates/rdna3-isa/tests/fuzz_isa.rs`
//! (included by path; it names the crate `rdna3_isa`).

#![allow(dead_code)]

use rdna3_isa::asm::{assemble, disassemble, parse_byte_list, DisasmItem};
use rdna3_isa::parse::parse_instruction;
use rdna3_isa::print::print;
use rdna3_isa::Instruction;

/// Disassembles `data`; every decoded instruction must re-encode to its own bytes, and its
/// text, where it parses back, must print the same.
pub fn disasm(data: &[u8]) {
    for item in disassemble(data) {
        let DisasmItem::Inst { offset, inst } = item else {
            continue;
        };
        let size = inst.size();
        let text = print(&inst);
        let bytes = &data[offset..];
        // Decoding is deterministic and gives the size it consumed.
        let (again, n) = Instruction::decode(bytes).expect("decodes a second time");
        assert_eq!(again, inst, "decoding twice differs");
        assert!(n == size && n <= bytes.len(), "size {n} vs {size}");
        // Documented: every word that decodes re-encodes to the same bytes.
        assert_eq!(
            inst.encode(),
            bytes[..n].to_vec(),
            "re-encoding `{text}` changes its bytes"
        );
        round_trip_text(&text);
    }
    // The byte-list reader of `gpumemsim disasm`, on the same bytes as text.
    if let Ok(s) = std::str::from_utf8(data) {
        for line in s.lines() {
            if let Ok(b) = parse_byte_list(line) {
                let _ = rdna3_isa::asm::disassemble_text(&b);
            }
        }
    }
}

/// Canonical text, once parsed and printed again, is a fixed point: its text parses back to
/// an instruction that prints the same. (The first print need not survive: text llvm-mc marks
/// invalid, `/*Invalid ...*/`, and non-canonical encodings such as an f64 literal `0x4`, which
/// is the high half of a double but reads back as the inline integer 4, print differently
/// once reassembled, as they do with llvm-mc. Text that does not parse is allowed, as in the
/// property tests.)
fn round_trip_text(text: &str) {
    if text.contains("/*Invalid") {
        return;
    }
    let Ok(p) = parse_instruction(text) else {
        return;
    };
    let once = print(&p.inst);
    if let Ok(p2) = parse_instruction(&once) {
        assert_eq!(
            print(&p2.inst),
            once,
            "canonical text is not a fixed point (from `{text}`)"
        );
    }
}

/// Assembles `data` as text (lossy UTF-8); each assembled line's encoding must decode, and
/// its canonical text must assemble again to the same bytes.
pub fn asm(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let prog = assemble(&text);
    let _ = prog.bytes();
    for line in &prog.lines {
        let canon = line.text();
        let bytes = line.inst.encode();
        assert_eq!(bytes.len(), line.inst.size(), "`{canon}`: size");
        // The encoding of what the assembler produced decodes to an instruction printing the
        // same text as the decoder would print it.
        if let Ok((back, n)) = Instruction::decode(&bytes) {
            assert_eq!(n, bytes.len(), "`{canon}` decodes to a different size");
            let printed = print(&back);
            round_trip_text(&printed);
        }
        let _ = print(&line.inst);
        let _ = rdna3_isa::explain::explain(&bytes);
    }
    // The printer and parser on every line of the input on its own.
    for l in text.lines().take(64) {
        if let Ok(p) = parse_instruction(l) {
            let _ = print(&p.inst);
        }
    }
}
