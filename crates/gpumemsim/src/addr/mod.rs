//! Address spaces: the global memory the simulated GPU and the host share.
//!
//! The flat apertures, scratch swizzling and buffer addressing of the address-space work
//! build on [`GlobalMemory`] here.

mod memory;

pub use memory::{GlobalMemory, ADDRESS_BITS, PAGE_BYTES};
