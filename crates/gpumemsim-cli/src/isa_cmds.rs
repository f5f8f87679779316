//! `asm`, `disasm` and `explain`.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use gpumemsim::isa::asm::{assemble_in, disassemble_in, parse_byte_list, DisasmItem};
use gpumemsim::isa::explain::explain_in;
use gpumemsim::isa::print::print_wave;
use gpumemsim::isa::{Isa, Wave};

use crate::input::read_input;

/// The example `gpumemsim asm` assembles when given no file.
const BUNDLED_EXAMPLE: &str = include_str!("../../../examples/memory-ops.s");
/// The example `gpumemsim asm --arch gfx942` assembles when given no file.
const BUNDLED_EXAMPLE_GFX942: &str = include_str!("../../../examples/gfx942/memory-ops.s");

fn encoding_list(bytes: &[u8]) -> String {
    let mut s = String::from("[");
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "0x{b:02x}");
    }
    s.push(']');
    s
}

fn wave_of(wave64: bool) -> Wave {
    if wave64 {
        Wave::W64
    } else {
        Wave::W32
    }
}

/// `--arch` of `asm`, `disasm` and `explain`: the chip whose instruction set is read.
#[derive(Clone, Copy, Debug, Default, clap::ValueEnum)]
pub enum IsaArch {
    /// RDNA3 (llvm-mc-19 -mcpu=gfx1100).
    #[default]
    Gfx1100,
    /// CDNA3, MI300 (llvm-mc-19 -mcpu=gfx942): SOP*, SMEM, DS, FLAT/GLOBAL/SCRATCH,
    /// MUBUF/MTBUF, VOP1/VOP2/VOPC with their DPP and SDWA forms, VOP3, VOP3P and MFMA.
    Gfx942,
}

impl IsaArch {
    fn isa(self) -> Isa {
        match self {
            IsaArch::Gfx1100 => Isa::Gfx11,
            IsaArch::Gfx942 => Isa::Gfx940,
        }
    }
}

/// `gpumemsim asm [--arch ARCH] [--wave64] [FILE|-]`.
pub fn asm(file: Option<&str>, wave64: bool, arch: IsaArch) -> Result<ExitCode, String> {
    let (name, text) = match file {
        Some(f) => read_input(f)?,
        None => match arch {
            IsaArch::Gfx1100 => (
                "examples/memory-ops.s".to_string(),
                BUNDLED_EXAMPLE.to_string(),
            ),
            IsaArch::Gfx942 => (
                "examples/gfx942/memory-ops.s".to_string(),
                BUNDLED_EXAMPLE_GFX942.to_string(),
            ),
        },
    };
    let prog = assemble_in(arch.isa(), &text, wave_of(wave64));
    let mut out = std::io::stdout().lock();
    // Instructions and directives in source order (a directive prints as llvm-mc-19 prints
    // it, without an encoding).
    let mut data = prog.data.iter().peekable();
    for l in &prog.lines {
        while let Some(d) = data.next_if(|d| d.line < l.line) {
            for t in &d.text {
                let _ = writeln!(out, "\t{t}");
            }
        }
        let text = l.text();
        let pad = if text.len() < 39 { 39 - text.len() } else { 0 };
        let _ = writeln!(
            out,
            "\t{text}{:pad$} ; encoding: {}",
            "",
            encoding_list(&l.inst.encode())
        );
    }
    for d in data {
        for t in &d.text {
            let _ = writeln!(out, "\t{t}");
        }
    }
    for e in &prog.errors {
        eprintln!("{name}:{}:{}: error: {}", e.line, e.col, e.msg);
    }
    Ok(if prog.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `gpumemsim disasm [--arch ARCH] [--wave64] [FILE|-]`: the whole input is one byte stream,
/// as for llvm-mc.
pub fn disasm(file: &str, wave64: bool, arch: IsaArch) -> Result<ExitCode, String> {
    let wave = wave_of(wave64);
    let (name, text) = read_input(file)?;
    let mut bytes = Vec::new();
    let mut origin = Vec::new(); // (line, col) of each byte's line
    let mut bad = false;
    for (i, line) in text.lines().enumerate() {
        match parse_byte_list(line) {
            Ok(b) => {
                origin.extend(std::iter::repeat_n(i + 1, b.len()));
                bytes.extend(b);
            }
            Err((col, msg)) => {
                eprintln!("{name}:{}:{col}: error: {msg}", i + 1);
                bad = true;
            }
        }
    }
    let mut out = std::io::stdout().lock();
    for item in disassemble_in(arch.isa(), &bytes, wave) {
        match item {
            DisasmItem::Inst { inst, .. } => {
                let _ = writeln!(out, "\t{}", print_wave(&inst, wave));
            }
            DisasmItem::Invalid { offset, .. } => {
                let _ = out.flush();
                eprintln!(
                    "{name}:{}: warning: invalid instruction encoding at byte {offset}",
                    origin.get(offset).copied().unwrap_or(0)
                );
            }
        }
    }
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn parse_explain_input(args: &[String]) -> Result<Vec<u8>, String> {
    let joined = args.join(",");
    if args.len() == 1 && !joined.contains(',') {
        let s = joined.trim();
        let hex = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .ok_or_else(|| format!("'{s}' is not a hexadecimal instruction word or byte list"))?;
        let hex: String = hex.chars().filter(|c| *c != '_').collect();
        if hex.len() > 2 {
            if hex.len() > 16 {
                return Err(format!("'{s}' is longer than a 64-bit instruction word"));
            }
            let w = u64::from_str_radix(&hex, 16).map_err(|e| format!("'{s}': {e}"))?;
            let n = if hex.len() > 8 { 8 } else { 4 };
            return Ok(w.to_le_bytes()[..n].to_vec());
        }
    }
    parse_byte_list(&joined).map_err(|(_, msg)| msg)
}

/// One line per field: its bit range in `word`, name, value and bits.
fn field_lines(out: &mut impl Write, fields: &[gpumemsim::isa::explain::FieldValue], word: u64) {
    for f in fields {
        let bitstr: String = (f.lo..=f.hi)
            .rev()
            .map(|b| if word >> b & 1 == 1 { '1' } else { '0' })
            .collect();
        let range = if f.hi == f.lo {
            format!("{}", f.lo)
        } else {
            format!("{}:{}", f.hi, f.lo)
        };
        let _ = writeln!(
            out,
            "  [{range:>5}] {:<10} = {:>6} (0x{:x})  {bitstr}",
            f.name, f.value, f.value
        );
    }
}

/// `gpumemsim explain [--arch ARCH] 0x...`.
pub fn explain(args: &[String], arch: IsaArch) -> Result<ExitCode, String> {
    if args.is_empty() {
        return Err("explain needs an encoding, e.g. `gpumemsim explain 0x10,0x00,0x00,0xd8,0x01,0x02,0x00,0x00`".into());
    }
    let bytes = parse_explain_input(args)?;
    let e = explain_in(arch.isa(), &bytes).map_err(|err| match err {
        gpumemsim::isa::DecodeError::Truncated => format!(
            "{}: too few bytes for this instruction (64-bit formats need 8 bytes, a literal 4 more)",
            encoding_list(&bytes)
        ),
        gpumemsim::isa::DecodeError::Invalid => {
            format!("{}: invalid instruction encoding", encoding_list(&bytes))
        }
    })?;
    let mut out = std::io::stdout().lock();
    let width = e.size * 8;
    let _ = writeln!(out, "{}", e.text);
    let _ = writeln!(
        out,
        "format {}, {} bytes, word 0x{:0w$x}",
        e.format,
        e.size,
        e.word,
        w = e.size * 2
    );
    // Bit ruler: each field's bits drawn under its name.
    let mut bits = String::new();
    for b in (0..width).rev() {
        bits.push(if e.word >> b & 1 == 1 { '1' } else { '0' });
        if b % 8 == 0 && b != 0 {
            bits.push(' ');
        }
    }
    let _ = writeln!(out, "bits  {bits}");
    field_lines(&mut out, &e.fields, e.word);
    if let Some(d) = e.dpp_dword {
        let _ = writeln!(out, "dpp dword 0x{d:08x}");
        field_lines(&mut out, &e.dpp_fields, d as u64);
    }
    if let Some(l) = e.literal {
        let _ = writeln!(out, "  literal            = 0x{l:08x}");
    }
    Ok(ExitCode::SUCCESS)
}
