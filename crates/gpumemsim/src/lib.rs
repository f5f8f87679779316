//! gpumemsim: the machine. The unit models (LDS and DS semantics, GDS/GWS, scalar memory,
//! address spaces, bank conflicts) and the executor build on the instruction set in
//! [`isa`]; see DESIGN.md for the layout this crate grows into.

#![forbid(unsafe_code)]

pub use rdna3_isa as isa;

pub mod banks;
pub mod lane_expr;
