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

/// [`disasm`] for gfx942: every decoded instruction re-encodes to its own bytes, and its text,
/// where the gfx942 assembler reads it, is a fixed point of assembling and printing.
pub fn disasm_gfx942(data: &[u8]) {
    use rdna3_isa::gfx9::{decode::decode, print::print as print9};
    for item in rdna3_isa::asm::disassemble_in(rdna3_isa::Isa::Gfx940, data, rdna3_isa::Wave::W64) {
        let DisasmItem::Inst { offset, inst } = item else {
            continue;
        };
        let bytes = &data[offset..];
        let (again, n) = decode(bytes).expect("decodes a second time");
        assert_eq!(again, inst, "decoding twice differs");
        assert_eq!(
            inst.encode(),
            bytes[..n].to_vec(),
            "re-encoding `{}` changes its bytes",
            print9(&inst)
        );
        round_trip_text_gfx942(&print9(&inst));
    }
}

/// gfx942's canonical text, parsed and printed, is a fixed point (as [`round_trip_text`]).
fn round_trip_text_gfx942(text: &str) {
    use rdna3_isa::gfx9::{parse::parse_instruction as parse9, print::print_with};
    if text.contains("/*") {
        return;
    }
    let Ok(p) = parse9(text) else {
        return;
    };
    let once = print_with(&p.inst, p.hints);
    if let Ok(p2) = parse9(&once) {
        assert_eq!(
            print_with(&p2.inst, p2.hints),
            once,
            "not a fixed point (from `{text}`)"
        );
        assert_eq!(
            p2.inst.encode(),
            p.inst.encode(),
            "`{once}` assembles to other bytes"
        );
    }
}

/// [`asm`] for gfx942: each assembled line's encoding decodes to the same instruction.
pub fn asm_gfx942(data: &[u8]) {
    use rdna3_isa::gfx9::{decode::decode, print::print as print9};
    let text = String::from_utf8_lossy(data);
    let prog = rdna3_isa::asm::assemble_in(rdna3_isa::Isa::Gfx940, &text, rdna3_isa::Wave::W64);
    let _ = prog.bytes();
    for line in &prog.lines {
        let bytes = line.inst.encode();
        assert_eq!(bytes.len(), line.inst.size(), "`{}`: size", line.text());
        if let Ok((back, n)) = decode(&bytes) {
            assert_eq!(
                n,
                bytes.len(),
                "`{}` decodes to a different size",
                line.text()
            );
            round_trip_text_gfx942(&print9(&back));
        }
    }
}
