//! Data-driven tests against goldens generated from llvm-mc-19 by `tools/gen_goldens.py`
//! (committed, so these tests need no LLVM), and against LLVM's own gfx11 assembler tests in
//! `../shared/reference/llvm-mc-gfx11` (skipped, saying so, when that folder is absent).

use std::path::PathBuf;

use rdna3_isa::asm::parse_byte_list;
use rdna3_isa::parse::{parse_instruction, parse_instruction_wave};
use rdna3_isa::print::{print_wave, print_with};
use rdna3_isa::{Instruction, Wave};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn golden(name: &str) -> Vec<Vec<String>> {
    let path = root().join("tests/golden").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn bytes_of(list: &str) -> Vec<u8> {
    parse_byte_list(list).expect("golden byte list")
}

/// What our disassembler prints for the first instruction of `bytes`, if it takes all of them.
fn disasm_text(bytes: &[u8]) -> String {
    disasm_text_wave(bytes, Wave::W32)
}

/// [`disasm_text`] for `wave`.
fn disasm_text_wave(bytes: &[u8], wave: Wave) -> String {
    match Instruction::decode_wave(bytes, wave) {
        Ok((inst, size)) if size == bytes.len() => print_wave(&inst, wave),
        Ok((inst, size)) => format!(
            "<decoded {size} of {} bytes: {}>",
            bytes.len(),
            print_wave(&inst, wave)
        ),
        Err(_) => "<invalid>".into(),
    }
}

fn report(what: &str, total: usize, failures: &[String]) {
    assert!(total > 0, "{what}: no cases");
    if let Ok(dir) = std::env::var("GOLDEN_DUMP_DIR") {
        let _ = std::fs::write(
            format!("{dir}/{}.fail", what.replace(' ', "_")),
            failures.join("\n"),
        );
    }
    if !failures.is_empty() {
        let shown: Vec<&str> = failures.iter().take(40).map(|s| s.as_str()).collect();
        panic!(
            "{what}: {} of {total} cases differ from llvm-mc-19:\n{}",
            failures.len(),
            shown.join("\n")
        );
    }
    eprintln!("{what}: all {total} cases match llvm-mc-19");
}

#[test]
fn disassembly_of_random_valid_words_matches_llvm_mc() {
    let rows = golden("disasm.txt");
    let mut fails = Vec::new();
    for r in &rows {
        let got = disasm_text(&bytes_of(&r[0]));
        if norm(&got) != norm(&r[1]) {
            fails.push(format!("{}\n   llvm: {}\n   ours: {}", r[0], r[1], got));
        }
    }
    report("disasm.txt", rows.len(), &fails);
}

/// An assembler golden (`INPUT<TAB>CANONICAL<TAB>BYTES` or `INPUT<TAB><error><TAB>MESSAGE`):
/// each input must assemble to those bytes and print as CANONICAL, or be refused.
fn asm_golden(name: &str) {
    asm_golden_wave(name, Wave::W32)
}

/// [`asm_golden`] for `wave`.
fn asm_golden_wave(name: &str, wave: Wave) {
    let rows = golden(name);
    let mut fails = Vec::new();
    for r in &rows {
        let parsed = parse_instruction_wave(&r[0], wave);
        match (r[1].as_str(), parsed) {
            ("<error>", Ok(p)) => fails.push(format!(
                "{}\n   llvm: error: {}\n   ours: {}",
                r[0],
                r[2],
                print_with(&p.inst, p.hints)
            )),
            ("<error>", Err(_)) => {}
            (_, Err(e)) => fails.push(format!(
                "{}\n   llvm: {}\n   ours: error at {}: {}",
                r[0], r[1], e.col, e.msg
            )),
            (canon, Ok(p)) => {
                let got_bytes = p.inst.encode();
                let want = bytes_of(&r[2]);
                let text = print_with(&p.inst, p.hints);
                if got_bytes != want || norm(&text) != norm(canon) {
                    fails.push(format!(
                        "{}\n   llvm: {} {:02x?}\n   ours: {} {:02x?}",
                        r[0], canon, want, text, got_bytes
                    ));
                }
            }
        }
    }
    report(name, rows.len(), &fails);
}

#[test]
fn assembly_matches_llvm_mc_bytes_and_text() {
    asm_golden("asm.txt");
}

/// One case of LLVM's gfx11 assembler tests: where, the input, the encoding or an error.
type RefCase = (String, String, Result<Vec<u8>, ()>);

/// Every case of LLVM's gfx11 assembler tests: an input line, then a comment with its
/// encoding or an error.
fn reference_cases() -> Option<Vec<RefCase>> {
    let dir = root().join("../shared/reference/llvm-mc-gfx11");
    if !dir.is_dir() {
        eprintln!(
            "SKIPPED: {} is absent; the reference corpus was not checked",
            dir.display()
        );
        return None;
    }
    let mut cases = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).ok()?;
        let lines: Vec<&str> = text.lines().collect();
        let fname = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        for (i, line) in lines.iter().enumerate() {
            let l = line.trim();
            if l.is_empty() || l.starts_with("//") {
                continue;
            }
            let check = lines.get(i + 1).copied().unwrap_or("");
            let name = format!("{fname}:{}", i + 1);
            if let Some(k) = check.rfind("[0x") {
                let end = check[k..].find(']').map_or(check.len(), |e| k + e);
                cases.push((name, l.to_string(), Ok(bytes_of(&check[k + 1..end]))));
            } else if check.contains("error:") {
                cases.push((name, l.to_string(), Err(())));
            }
        }
    }
    Some(cases)
}

#[test]
fn llvm_reference_corpus_assembles_to_the_same_bytes() {
    let Some(cases) = reference_cases() else {
        return;
    };
    assert_eq!(cases.len(), 3257, "the reference corpus has 3,257 cases");
    let negatives = cases.iter().filter(|c| c.2.is_err()).count();
    assert_eq!(negatives, 242, "242 SMEM lines gfx11 must reject");
    let mut fails = Vec::new();
    for (name, input, want) in &cases {
        let got = parse_instruction(input);
        match (want, got) {
            (Ok(w), Ok(p)) if p.inst.encode() == *w => {}
            (Err(()), Err(_)) => {}
            (want, got) => fails.push(format!(
                "{name}: {input}\n   llvm: {:02x?}\n   ours: {:?}",
                want,
                got.map(|p| p.inst.encode()).map_err(|e| e.msg)
            )),
        }
    }
    report("reference corpus (assemble)", cases.len(), &fails);
}

#[test]
fn llvm_reference_encodings_disassemble_to_llvm_mc_19_text() {
    let rows = golden("reference_disasm.txt");
    let mut fails = Vec::new();
    for r in &rows {
        let got = disasm_text(&bytes_of(&r[0]));
        if norm(&got) != norm(&r[1]) {
            fails.push(format!("{}\n   llvm: {}\n   ours: {}", r[0], r[1], got));
        }
    }
    report("reference encodings (disassemble)", rows.len(), &fails);
}

#[test]
fn vopd_words_disassemble_to_llvm_mc_19_text() {
    // tools/survey_vopd.py --golden: every OPX × OPY pair with varied operands and literals,
    // plus invalid words.
    disasm_golden("vopd.txt");
}

/// A round-trip golden (`BYTES<TAB>TEXT`, every line checked by llvm-mc-19 both ways): each
/// BYTES must decode to exactly TEXT, and TEXT must assemble to exactly BYTES and print back
/// as TEXT.
fn round_trip_golden(name: &str) {
    let rows = golden(name);
    let mut fails = Vec::new();
    for r in &rows {
        let want = bytes_of(&r[0]);
        let got = disasm_text(&want);
        if norm(&got) != norm(&r[1]) {
            fails.push(format!(
                "{}\n   llvm: {}\n   ours: {} (disassembling)",
                r[0], r[1], got
            ));
            continue;
        }
        match parse_instruction(&r[1]) {
            Ok(p) => {
                let bytes = p.inst.encode();
                let text = print_with(&p.inst, p.hints);
                if bytes != want || norm(&text) != norm(&r[1]) {
                    fails.push(format!(
                        "{}\n   llvm: {} {:02x?}\n   ours: {} {:02x?} (assembling)",
                        r[1], r[1], want, text, bytes
                    ));
                }
            }
            Err(e) => fails.push(format!(
                "{}\n   llvm: {:02x?}\n   ours: error at {}: {} (assembling)",
                r[1], want, e.col, e.msg
            )),
        }
    }
    report(name, rows.len(), &fails);
}

#[test]
fn dpp_forms_round_trip_like_llvm_mc() {
    // tools/survey_dpp.py --golden: every DPP16/DPP8 mnemonic of VOP1, VOP2, VOPC, VOP3 and
    // VOP3P, with every dpp_ctrl kind, masks, bound_ctrl, fi and the modifiers each takes.
    round_trip_golden("dpp.txt");
}

#[test]
fn vop3p_forms_round_trip_like_llvm_mc() {
    // tools/survey_dpp.py --golden: all 34 VOP3P opcodes with op_sel, op_sel_hi, neg_lo,
    // neg_hi, clamp, and VGPR/SGPR/constant/literal sources.
    round_trip_golden("vop3p.txt");
}

#[test]
fn vop3_op_sel_forms_round_trip_like_llvm_mc() {
    // tools/survey_dpp.py --golden: the VOP3 op_sel forms of the 16-bit instructions
    // (v_add_nc_u16, v_fma_f16, v_mad_u32_u16, v_dot2_f16_f16, v_permlane16_b32, ...) and the
    // sext() sources (v_ldexp_f32, v_cvt_pk_u8_f32, ...), as the table lists them.
    round_trip_golden("vop3_opsel.txt");
}

#[test]
fn dpp_vop3p_and_op_sel_assembly_matches_llvm_mc() {
    // tools/survey_dpp.py --golden: assembler inputs for DPP controls, masks, suffixes and
    // promotions, VOP3P modifier lists and sources, WMMA, op_sel lists, errors.
    asm_golden("dpp_vop3p_asm.txt");
}

#[test]
fn dpp_vop3p_decoder_only_words_disassemble_to_llvm_mc_19_text() {
    // tools/survey_dpp.py --golden: words whose text llvm-mc-19 prints but will not assemble
    // back, or rejects (WMMA matrices in scalar registers, ranges past v255, DPP words with
    // ignored bits or invalid controls, 16-bit sources in v128+, DPP selectors without their
    // dword, ...).
    disasm_golden("dpp_vop3p_disasm.txt");
}

#[test]
fn div_scale_words_disassemble_to_llvm_mc_19_text() {
    // tools/gen_goldens.py --div-scale: v_div_scale_f32/f64 (VOP3SD: sdst in the abs bits, neg,
    // clamp, omod) with every sdst code, every source kind, literals, and invalid words.
    disasm_golden("div_scale_disasm.txt");
}

#[test]
fn div_scale_assembly_matches_llvm_mc() {
    // tools/gen_goldens.py --div-scale: every text above plus `|x|` (taken, not encoded,
    // echoed), f64 literals under modifiers, wave64 spellings and other errors.
    asm_golden("div_scale_asm.txt");
}

/// A disassembly golden (`BYTES<TAB>TEXT`): each BYTES must print as TEXT. The goldens call a
/// word that is one instruction plus trailing bytes invalid, as llvm-mc-19 does.
fn disasm_golden(name: &str) {
    disasm_golden_wave(name, Wave::W32)
}

/// [`disasm_golden`] for `wave`.
fn disasm_golden_wave(name: &str, wave: Wave) {
    let rows = golden(name);
    let mut fails = Vec::new();
    for r in &rows {
        let mut got = disasm_text_wave(&bytes_of(&r[0]), wave);
        if got.starts_with("<decoded") {
            got = "<invalid>".into();
        }
        if norm(&got) != norm(&r[1]) {
            fails.push(format!("{}\n   llvm: {}\n   ours: {}", r[0], r[1], got));
        }
    }
    report(name, rows.len(), &fails);
}

#[test]
fn nop_and_pipeflush_match_llvm_mc() {
    // tools/gen_lane_goldens.py: v_nop and v_pipeflush, e32 and e64, every field set in turn
    // (printed without suffix; e32 ignores src0), and assembler inputs.
    disasm_golden("nop_disasm.txt");
    asm_golden("nop_asm.txt");
}

#[test]
fn wave64_lane_masks_disassemble_like_llvm_mc() {
    // tools/gen_lane_goldens.py: every instruction with a lane-mask operand, from
    // llvm-mc-19 -mattr=+wavefrontsize64 (masks as SGPR pairs; VOPD invalid).
    disasm_golden_wave("wave64_disasm.txt", Wave::W64);
}

#[test]
fn wave64_lane_masks_assemble_like_llvm_mc() {
    asm_golden_wave("wave64_asm.txt", Wave::W64);
}
