//! `gpumemsim.assemble` / `gpumemsim.disassemble`: gfx1100 (or gfx942) assembly text (LLVM
//! syntax) to machine code and back, through the instruction tables of `rdna3-isa`, as
//! `gpumemsim asm` and `gpumemsim disasm` do (`target=` is their `--arch`).

use gpumemsim::isa::asm::{assemble_in, disassemble_in, DisasmItem};
use gpumemsim::isa::print::print;
use gpumemsim::isa::{Isa, Wave};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use crate::banks::type_name;
use crate::guard::{error, guard};

/// The instruction set `target=` names ("gfx1100", "gfx942", or "rdna3"/"cdna3").
fn isa_of(target: &str) -> PyResult<Isa> {
    gpumemsim::target::Target::named(target)
        .map(|t| t.isa)
        .ok_or_else(|| {
            error(format!(
                "target: {target:?} is not a chip gpumemsim knows ({})",
                gpumemsim::target::Target::names()
            ))
        })
}

/// Assembles assembly text (LLVM syntax, as `llvm-mc-19 -mcpu=TARGET` takes it; gfx1100 by
/// default) into machine code: every instruction's encoding, concatenated.
///
/// name: what error messages call the text (as the CLI names the file). target: "gfx1100"
/// or "gfx942" (`gpumemsim asm --arch`). Raises gpumemsim.Error listing every error as
/// `gpumemsim asm` prints them, one per line: `NAME:LINE:COL: error: MESSAGE`.
#[pyfunction]
#[pyo3(signature = (text, name="<string>", target="gfx1100"))]
pub fn assemble<'py>(
    py: Python<'py>,
    text: &str,
    name: &str,
    target: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    guard(|| {
        let program = assemble_in(isa_of(target)?, text, Wave::W32);
        if !program.errors.is_empty() {
            let lines: Vec<String> = program
                .errors
                .iter()
                .map(|e| format!("{name}:{}:{}: error: {}", e.line, e.col, e.msg))
                .collect();
            return Err(error(lines.join("\n")));
        }
        Ok(PyBytes::new(py, &program.bytes()))
    })
}

/// Disassembles machine code (gfx1100 by default) into one canonical line per instruction
/// (the text `llvm-mc-19 --disassemble` prints, without its leading tab).
///
/// data: bytes, bytearray or memoryview. target: "gfx1100" or "gfx942" (`gpumemsim disasm
/// --arch`). Raises gpumemsim.Error at the first word that decodes to no instruction:
/// `invalid instruction encoding at byte OFFSET`.
#[pyfunction]
#[pyo3(signature = (data, target="gfx1100"))]
pub fn disassemble(data: &Bound<'_, PyAny>, target: &str) -> PyResult<Vec<String>> {
    guard(|| {
        let isa = isa_of(target)?;
        let bytes: Vec<u8> = if let Ok(b) = data.cast::<PyBytes>() {
            b.as_bytes().to_vec()
        } else if let Ok(b) = data.cast::<PyByteArray>() {
            b.to_vec()
        } else if data.hasattr("tobytes").unwrap_or(false)
            && !data.is_instance_of::<pyo3::types::PyString>()
        {
            data.call_method0("tobytes")
                .and_then(|b| b.cast_into::<PyBytes>().map_err(PyErr::from))
                .map(|b| b.as_bytes().to_vec())
                .map_err(|_| error(format!("data: expected bytes, got {}", type_name(data))))?
        } else {
            return Err(error(format!(
                "data: expected bytes, bytearray or memoryview, got {}",
                type_name(data)
            )));
        };
        disassemble_in(isa, &bytes, Wave::W32)
            .into_iter()
            .map(|item| match item {
                DisasmItem::Inst { inst, .. } => Ok(print(&inst)),
                DisasmItem::Invalid { offset, .. } => Err(error(format!(
                    "invalid instruction encoding at byte {offset}"
                ))),
            })
            .collect()
    })
}
