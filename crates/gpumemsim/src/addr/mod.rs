//! Address spaces: the global memory the simulated GPU and the host share, the flat
//! apertures, and the swizzled scratch layout.

mod aperture;
mod memory;
mod scratch;

pub use aperture::{Aperture, Apertures, APERTURE_BYTES, PRIVATE_BASE, SHARED_BASE};
pub use memory::{GlobalMemory, ADDRESS_BITS, PAGE_BYTES};
pub use scratch::{ScratchLayout, ELEMENT_BYTES};
