//! gpumemsim: the machine. Unit models (LDS and DS semantics, GDS, float rules) and the
//! executor build on the instruction set in [`isa`]; see DESIGN.md for the layout this crate
//! grows into. Data flows one way: instructions → [`exec`] → unit models → events and
//! statistics.

// Unsafe code is refused everywhere but in `banks::avx2`, which says why each use is sound.
#![deny(unsafe_code)]

pub use rdna3_isa as isa;

pub mod addr;
pub mod atomic;
pub mod banks;
pub mod check;
pub mod ds;
pub mod event;
pub mod exec;
pub mod expr;
pub mod fp;
pub mod gds;
pub mod gws;
pub mod launch;
pub mod lds;
pub mod loader;
pub mod occupancy;
pub mod report;
pub mod smem;
pub mod timing;
pub mod vmem;
pub mod vmem_format;
pub mod wave;
