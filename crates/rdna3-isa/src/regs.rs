//! Register and constant operands: the scalar operand codes of gfx11 (SGPRs, special
//! registers, inline constants, literal) and VGPRs, to text and back.
//!
//! Codes (AMD RDNA3 ISA reference, "SSRC" operand table; names as llvm-mc-19 prints them):
//! 0-105 `s0`-`s105`, 106/107 `vcc_lo`/`vcc_hi`, 108-123 `ttmp0`-`ttmp15`, 124 `null`, 125 `m0`,
//! 126/127 `exec_lo`/`exec_hi`, 128-192 integers 0..64, 193-208 integers -1..-16,
//! 235-239 `src_shared_base`, `src_shared_limit`, `src_private_base`, `src_private_limit`,
//! `src_pops_exiting_wave_id`, 240-248 the float constants 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0,
//! -4.0, 1/(2*pi), 251 `src_vccz`, 252 `src_execz`, 253 `src_scc`, 255 a literal dword.

/// Scalar code of `vcc_lo`.
pub const VCC_LO: u32 = 106;
/// Scalar code of `null`.
pub const NULL: u32 = 124;
/// Scalar code of `m0`.
pub const M0: u32 = 125;
/// Scalar code of `exec_lo`.
pub const EXEC_LO: u32 = 126;

/// Float inline constants, codes 240..=248, as text and as f32 / f64 bit patterns.
pub const FLOAT_CONSTANTS: [(&str, u32, u64); 9] = [
    ("0.5", 0x3f00_0000, 0x3fe0_0000_0000_0000),
    ("-0.5", 0xbf00_0000, 0xbfe0_0000_0000_0000),
    ("1.0", 0x3f80_0000, 0x3ff0_0000_0000_0000),
    ("-1.0", 0xbf80_0000, 0xbff0_0000_0000_0000),
    ("2.0", 0x4000_0000, 0x4000_0000_0000_0000),
    ("-2.0", 0xc000_0000, 0xc000_0000_0000_0000),
    ("4.0", 0x4080_0000, 0x4010_0000_0000_0000),
    ("-4.0", 0xc080_0000, 0xc010_0000_0000_0000),
    ("0.15915494", 0x3e22_f983, 0x3fc4_5f30_6dc9_c882),
];

/// The float inline constants (codes 240..=248) as f16 bit patterns.
pub const F16_CONSTANTS: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

/// The `src_*` special sources by code (the same on gfx1100 and gfx942; gfx942's printer
/// adds code 254, `src_lds_direct`, where gfx1100's handles it apart).
pub(crate) const SPECIAL_SRC: [(u32, &str); 8] = [
    (235, "src_shared_base"),
    (236, "src_shared_limit"),
    (237, "src_private_base"),
    (238, "src_private_limit"),
    (239, "src_pops_exiting_wave_id"),
    (251, "src_vccz"),
    (252, "src_execz"),
    (253, "src_scc"),
];

/// Text of a scalar register code for an operand of `dwords` dwords (1, 2, 4, 8 or 16), or
/// `None` when the code names no register (constants, literal, invalid).
pub fn sreg_name(code: u32, dwords: u8) -> Option<String> {
    let n = dwords as u32;
    let range = |prefix: &str, first: u32| {
        if n == 1 {
            format!("{prefix}{first}")
        } else {
            format!("{prefix}[{}:{}]", first, first + n - 1)
        }
    };
    Some(match code {
        0..=105 => {
            if code + n > 106 {
                return None;
            }
            range("s", code)
        }
        106 => match n {
            1 => "vcc_lo".into(),
            2 => "vcc".into(),
            _ => return None,
        },
        107 if n == 1 => "vcc_hi".into(),
        108..=123 => {
            if code - 108 + n > 16 {
                return None;
            }
            range("ttmp", code - 108)
        }
        124 => "null".into(),
        125 if n == 1 => "m0".into(),
        126 => match n {
            1 => "exec_lo".into(),
            2 => "exec".into(),
            _ => return None,
        },
        127 if n == 1 => "exec_hi".into(),
        _ => {
            let (_, name) = SPECIAL_SRC.iter().find(|(c, _)| *c == code)?;
            (*name).into()
        }
    })
}

/// The value of an integer inline constant code (128..=208).
pub fn inline_int(code: u32) -> Option<i32> {
    match code {
        128..=192 => Some(code as i32 - 128),
        193..=208 => Some(192 - code as i32),
        _ => None,
    }
}

/// Text of a scalar source code (not the literal) for an operand of `dwords` dwords.
pub fn ssrc_name(code: u32, dwords: u8) -> Option<String> {
    if let Some(i) = inline_int(code) {
        return Some(i.to_string());
    }
    if code == 248 && dwords > 1 {
        // 1/(2*pi) as the f64 constant llvm-mc-19 prints for 64-bit operands.
        return Some("0.15915494309189532".to_string());
    }
    if (240..=248).contains(&code) {
        return Some(FLOAT_CONSTANTS[(code - 240) as usize].0.to_string());
    }
    sreg_name(code, dwords)
}

/// Text of a VGPR range.
pub fn vreg_name(first: u32, dwords: u8) -> String {
    if dwords == 1 {
        format!("v{first}")
    } else {
        format!("v[{}:{}]", first, first + dwords as u32 - 1)
    }
}

/// A register named in assembly text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegRef {
    /// VGPRs `first ..= first + count - 1`.
    V {
        /// First VGPR.
        first: u32,
        /// How many.
        count: u32,
    },
    /// A scalar operand code and how many dwords the name covers.
    S {
        /// First code.
        code: u32,
        /// How many dwords.
        count: u32,
    },
}

/// Parses a register name (`v3`, `v[2:3]`, `s[4:7]`, `ttmp2`, `vcc`, `exec_lo`, `m0`, `null`,
/// `src_scc`, ...). `rest` holds the text after the name when the name uses brackets.
pub fn parse_reg_name(name: &str) -> Option<RegRef> {
    let fixed = match name {
        "vcc_lo" => Some((106, 1)),
        "vcc_hi" => Some((107, 1)),
        "vcc" => Some((106, 2)),
        "null" => Some((124, 1)),
        "m0" => Some((125, 1)),
        "exec_lo" => Some((126, 1)),
        "exec_hi" => Some((127, 1)),
        "exec" => Some((126, 2)),
        "src_shared_base" | "shared_base" => Some((235, 2)),
        "src_shared_limit" | "shared_limit" => Some((236, 2)),
        "src_private_base" | "private_base" => Some((237, 2)),
        "src_private_limit" | "private_limit" => Some((238, 2)),
        "src_pops_exiting_wave_id" | "pops_exiting_wave_id" => Some((239, 1)),
        "src_vccz" => Some((251, 1)),
        "src_execz" => Some((252, 1)),
        "src_scc" => Some((253, 1)),
        _ => None,
    };
    if let Some((code, count)) = fixed {
        return Some(RegRef::S { code, count });
    }
    let (prefix, num) = if let Some(n) = name.strip_prefix("ttmp") {
        ("ttmp", n)
    } else if let Some(n) = name.strip_prefix('s') {
        ("s", n)
    } else if let Some(n) = name.strip_prefix('v') {
        ("v", n)
    } else {
        return None;
    };
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || num.len() > 3 {
        return None;
    }
    let i: u32 = num.parse().ok()?;
    reg_range(prefix, i, 1)
}

/// A register range `prefix[first:last]`, validated against the register file's size.
pub fn reg_range(prefix: &str, first: u32, count: u32) -> Option<RegRef> {
    // (An index near 2^32 is out of range, not a sum that wraps.)
    let end = first.checked_add(count)?;
    match prefix {
        "v" if end <= 256 => Some(RegRef::V { first, count }),
        "s" if end <= 106 => Some(RegRef::S { code: first, count }),
        "ttmp" if end <= 16 => Some(RegRef::S {
            code: 108 + first,
            count,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_near_two_to_the_32_are_out_of_range_not_wrapped() {
        assert_eq!(reg_range("v", u32::MAX, 2), None);
        assert_eq!(reg_range("s", 0, u32::MAX), None);
        assert_eq!(
            reg_range("v", 254, 2),
            Some(RegRef::V {
                first: 254,
                count: 2
            })
        );
        assert!(crate::parse::parse_instruction("v_mov_b32 v0, v[4294967295:4294967296]").is_err());
        // Not cut to 32 bits either (v[2^32] is no v0).
        assert!(crate::parse::parse_instruction("v_mov_b32 v0, v[4294967296:4294967296]").is_err());
        assert!(crate::gfx9::parse::parse_instruction("v_mov_b32 v0, v[4294967296]").is_err());
        assert!(
            crate::gfx9::parse::parse_instruction("v_mov_b32 v0, v[4294967295:4294967296]")
                .is_err()
        );
    }
}
