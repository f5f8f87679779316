//! Reading the inputs of the commands: a path, or standard input for `-`, with a limit on
//! the bytes read.

use std::io::Read;

/// The most bytes a text input (assembly, a byte list, a JSON report) may have.
pub const MAX_TEXT_INPUT: u64 = 64 << 20;
/// The most bytes a program input of `gpumemsim run` (a code object or assembly) may have.
pub const MAX_PROGRAM_INPUT: u64 = 256 << 20;

/// Reads a named input: a path, or standard input for `-`, at most [`MAX_TEXT_INPUT`] bytes.
/// Returns (display name, text).
pub fn read_input(file: &str) -> Result<(String, String), String> {
    let (name, bytes) = read_input_bytes(file, MAX_TEXT_INPUT)?;
    String::from_utf8(bytes)
        .map(|s| (name.clone(), s))
        .map_err(|_| format!("{name}: stream did not contain valid UTF-8"))
}

/// Reads a named input's bytes: a path, or standard input for `-`; more than `limit` bytes
/// is an error (a device such as /dev/zero never ends). Returns (display name, bytes).
pub fn read_input_bytes(file: &str, limit: u64) -> Result<(String, Vec<u8>), String> {
    let mut b = Vec::new();
    let name = if file == "-" {
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut b)
            .map_err(|e| format!("<stdin>: {e}"))?;
        "<stdin>".to_string()
    } else {
        std::fs::File::open(file)
            .and_then(|f| f.take(limit + 1).read_to_end(&mut b))
            .map_err(|e| format!("{file}: {e}"))?;
        file.to_string()
    };
    if b.len() as u64 > limit {
        return Err(format!(
            "{name}: the input is larger than {} MiB, the most gpumemsim reads",
            limit >> 20
        ));
    }
    Ok((name, b))
}
