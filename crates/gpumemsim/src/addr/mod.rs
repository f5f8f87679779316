//! Address spaces: the global memory the simulated GPU and the host share, the flat
//! apertures, the swizzled scratch layout and buffer (V#) addressing.

mod allocations;
mod aperture;
mod buffer;
mod memory;
mod scratch;

pub use allocations::{Allocation, Allocations};
pub use aperture::{Aperture, Apertures, APERTURE_BYTES, PRIVATE_BASE, SHARED_BASE};
pub use buffer::BufferDescriptor;
pub use memory::{
    AccessLog, FastMap, GlobalMemory, PageHasher, PlainDwords, ADDRESS_BITS, PAGE_BYTES,
};
pub use scratch::{ScratchLayout, ELEMENT_BYTES};
