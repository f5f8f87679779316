//! The fuzz targets' input-to-action code. `fuzz_targets/*.rs` call these; the stable
//! time-boxed tests (`crates/rdna3-isa/tests/fuzz_isa.rs`, `crates/gpumemsim/tests/fuzz_machine.rs`)
//! include the same files by path, so both run the same actions and checks.

pub mod bytes;
pub mod isa;
pub mod machine;
