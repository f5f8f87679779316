//! `gpumemsim.assemble` / `gpumemsim.disassemble`: gfx1100 assembly text (LLVM syntax) to
//! machine code and back, through the one instruction table of `rdna3-isa`, as
//! `gpumemsim asm` and `gpumemsim disasm` do.

use gpumemsim::isa::asm::DisasmItem;
use gpumemsim::isa::asm::{assemble as assemble_text, disassemble as disassemble_bytes};
use gpumemsim::isa::print::print;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use crate::banks::type_name;
use crate::guard::{error, guard};

/// Assembles gfx1100 assembly text (LLVM syntax, as `llvm-mc-19 -mcpu=gfx1100` takes it)
/// into machine code: every instruction's encoding, concatenated.
///
/// name: what error messages call the text (as the CLI names the file). Raises
/// gpumemsim.Error listing every error as `gpumemsim asm` prints them, one per line:
/// `NAME:LINE:COL: error: MESSAGE`.
#[pyfunction]
#[pyo3(signature = (text, name="<string>"))]
pub fn assemble<'py>(py: Python<'py>, text: &str, name: &str) -> PyResult<Bound<'py, PyBytes>> {
    guard(|| {
        let program = assemble_text(text);
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

/// Disassembles gfx1100 machine code into one canonical line per instruction (the text
/// `llvm-mc-19 --disassemble` prints, without its leading tab).
///
/// data: bytes, bytearray or memoryview. Raises gpumemsim.Error at the first word that
/// decodes to no instruction: `invalid instruction encoding at byte OFFSET`.
#[pyfunction]
pub fn disassemble(data: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    guard(|| {
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
        disassemble_bytes(&bytes)
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
