//! The `gpumemsim` binary's ISA commands, end to end.

mod common;

use common::run;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn asm_prints_canonical_text_and_llvm_encoding() {
    let o = run(
        &["asm", "-"],
        "ds_add_u32 v1, v2 offset:16\nds_read_b32 v1, v2 offset:0\n",
    );
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.contains("ds_add_u32 v1, v2 offset:16"), "{out}");
    assert!(
        out.contains("; encoding: [0x10,0x00,0x00,0xd8,0x01,0x02,0x00,0x00]"),
        "{out}"
    );
    // The alias prints under its canonical name; offset:0 is dropped.
    assert!(
        out.contains("ds_load_b32 v1, v2 ") || out.contains("ds_load_b32 v1, v2\t"),
        "{out}"
    );
}

#[test]
fn asm_reports_bad_lines_with_file_line_col_and_goes_on() {
    let o = run(
        &["asm", "-"],
        "ds_add_u32 v1, v2\n  ds_bogus v1\nds_load_b32 v1, v2 offset:70000\ns_endpgm\n",
    );
    let err = text(&o.stderr);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("<stdin>:2:3: error: invalid instruction"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:3:27: error: expected a 16-bit offset"),
        "{err}"
    );
    assert!(
        out.contains("ds_add_u32 v1, v2") && out.contains("s_endpgm"),
        "{out}"
    );
}

#[test]
fn asm_without_a_file_assembles_the_bundled_example() {
    let o = run(&["asm"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.lines().count() >= 20, "{out}");
    assert!(out.contains("ds_bpermute_b32 v5, v1, v2"), "{out}");
}

#[test]
fn asm_resolves_branch_labels() {
    let o = run(
        &["asm", "-"],
        "top:\n  s_nop 0\n  s_branch top\n  s_cbranch_scc0 end\n  s_nop 1\nend:\n  s_endpgm\n",
    );
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // s_branch at 4 to 0: (0 - 8) / 4 = -2 = 0xfffe; s_cbranch_scc0 at 8 to 16: (16 - 12) / 4 = 1.
    assert!(out.contains("[0xfe,0xff,0xa0,0xbf]"), "{out}");
    assert!(out.contains("[0x01,0x00,0xa1,0xbf]"), "{out}");
    let o = run(&["asm", "-"], "s_branch nowhere\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("<stdin>:1:10: error: undefined label 'nowhere'"));
}

#[test]
fn disasm_prints_llvm_text_and_warns_on_bad_words() {
    let o = run(
        &["disasm", "-"],
        "0x10,0x00,0x00,0xd8,0x01,0x02,0x00,0x00 0x00,0x00,0xb0,0xbf\n0xff,0xff,0xff,0xff\n0x00,0x00,0x80,0xbf\n",
    );
    let out = text(&o.stdout);
    let err = text(&o.stderr);
    assert!(o.status.success());
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert_eq!(
        lines,
        ["ds_add_u32 v1, v2 offset:16", "s_endpgm", "s_nop 0"]
    );
    assert!(
        err.contains("<stdin>:2: warning: invalid instruction encoding"),
        "{err}"
    );
}

#[test]
fn disasm_rejects_tokens_that_are_not_bytes() {
    let o = run(&["disasm", "-"], "0x10,0x100\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("<stdin>:1:6: error: invalid input token '0x100'"));
}

#[test]
fn explain_shows_fields_and_bit_ranges() {
    let o = run(&["explain", "0x10,0x00,0x00,0xd8,0x01,0x02,0x00,0x00"], "");
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.starts_with("ds_add_u32 v1, v2 offset:16"), "{out}");
    assert!(out.contains("format DS"), "{out}");
    assert!(out.contains("[25:18] op"), "{out}");
    assert!(out.contains("[47:40] data0      =      2"), "{out}");
    // The same encoding as one 64-bit word.
    let o2 = run(&["explain", "0x00000201d8000010"], "");
    assert_eq!(text(&o2.stdout), out);
    let bad = run(&["explain", "0xffffffff"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("invalid instruction encoding"));
}

/// A DPP16 form: the VOP1 word, then its DPP dword field by field (bytes from llvm-mc-19,
/// tests/golden/dpp.txt).
#[test]
fn explain_shows_the_dpp_dword() {
    let o = run(&["explain", "0xfa,0x02,0x7e,0x7e,0x0f,0x15,0x01,0xff"], "");
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        out.starts_with("v_mov_b32_dpp v63, v15 row_shr:5 row_mask:0xf bank_mask:0xf"),
        "{out}"
    );
    assert!(out.contains("[  8:0] src0       =    250"), "{out}");
    assert!(out.contains("dpp dword 0xff01150f"), "{out}");
    assert!(out.contains("[ 16:8] dpp_ctrl   =    277 (0x115)"), "{out}");
    assert!(out.contains("[  7:0] dpp_src0   =     15"), "{out}");
    assert!(out.contains("[31:28] row_mask   =     15"), "{out}");
}

#[test]
fn asm_and_disasm_take_wave64_lane_masks() {
    let src = "v_cmp_eq_u32_e64 s[2:3], v1, v2\nv_cndmask_b32_e64 v0, v1, v2, s[4:5]\nv_add_co_u32 v0, vcc, v1, v2\nv_nop\n";
    let o = run(&["asm", "--wave64", "-"], src);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert_eq!(
        lines,
        [
            "v_cmp_eq_u32_e64 s[2:3], v1, v2         ; encoding: [0x02,0x00,0x4a,0xd4,0x01,0x05,0x02,0x00]",
            "v_cndmask_b32_e64 v0, v1, v2, s[4:5]    ; encoding: [0x00,0x00,0x01,0xd5,0x01,0x05,0x12,0x00]",
            "v_add_co_u32 v0, vcc, v1, v2            ; encoding: [0x00,0x6a,0x00,0xd7,0x01,0x05,0x02,0x00]",
            "v_nop                                   ; encoding: [0x00,0x00,0x00,0x7e]",
        ]
    );
    // The wave32 spelling is refused in wave64, and the wave64 one in wave32.
    let o = run(&["asm", "--wave64", "-"], "v_cmp_eq_u32_e64 s2, v1, v2\n");
    assert!(!o.status.success());
    let o = run(&["asm", "-"], "v_cmp_eq_u32_e64 s[2:3], v1, v2\n");
    assert!(!o.status.success());
    let words = "0x02,0x00,0x4a,0xd4,0x01,0x05,0x02,0x00 0x01,0x05,0x94,0x7c 0x00,0x00,0x80,0xd5,0x00,0x00,0x00,0x00\n";
    let o = run(&["disasm", "--wave64", "-"], words);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert_eq!(
        lines,
        [
            "v_cmp_eq_u32_e64 s[2:3], v1, v2",
            "v_cmp_eq_u32_e32 vcc, v1, v2",
            "v_nop"
        ]
    );
    let o = run(&["disasm", "-"], words);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert_eq!(
        lines,
        [
            "v_cmp_eq_u32_e64 s2, v1, v2",
            "v_cmp_eq_u32_e32 vcc_lo, v1, v2",
            "v_nop"
        ]
    );
}
