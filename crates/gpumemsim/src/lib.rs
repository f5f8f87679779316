//! gpumemsim: a bit-exact, cycle-approximate simulator of GPU on-chip memory systems — AMD
//! RDNA3 (gfx1100) first: LDS and every DS instruction, GDS, GWS and ordered count, scalar
//! memory through the scalar cache, flat apertures, swizzled scratch and buffers — with one
//! parametric bank-conflict model for AMD and NVIDIA.
//!
//! Data flows one way: text or a code object → [`isa`] instructions → [`exec`] (the device
//! and its scheduler) → the unit models ([`ds`], [`lds`], [`gds`], [`gws`], [`smem`],
//! [`addr`], [`vmem`], [`banks`], [`fp`]) → [`event`]s and statistics → [`report`].
//! docs/ARCHITECTURE.md walks through it; docs/rules/ states the rules the units implement.
//!
//! # The instruction set: text, encodings, back
//! ```
//! use gpumemsim::isa::asm::assemble;
//! let prog = assemble("ds_load_b32 v1, v0 offset:16\ns_endpgm");
//! assert!(prog.errors.is_empty());
//! // llvm-mc-19 -mcpu=gfx1100 -show-encoding prints the same bytes.
//! assert_eq!(prog.lines[0].inst.encode(), [0x10, 0x00, 0xd8, 0xd8, 0x00, 0x00, 0x00, 0x01]);
//! assert_eq!(prog.lines[0].text(), "ds_load_b32 v1, v0 offset:16");
//! ```
//!
//! # Running a program on the device
//! Two waves store their work-item ids to LDS, wait, meet at a barrier and read their
//! neighbour's word; the device holds the result, the statistics and the events.
//! ```
//! use gpumemsim::exec::{Device, RunConfig};
//! use gpumemsim::isa::asm::assemble;
//! let prog = assemble(
//!     "v_lshlrev_b32 v1, 2, v0\nds_store_b32 v1, v0\ns_waitcnt lgkmcnt(0)\ns_barrier\n\
//!      v_xor_b32 v2, 4, v1\nds_load_b32 v3, v2\ns_waitcnt lgkmcnt(0)\ns_endpgm",
//! );
//! let cfg = RunConfig { waves: 2, ..RunConfig::default() };
//! let mut dev = Device::new(&cfg, prog.lines.len())?;
//! dev.run(&prog.lines, &cfg)?;
//! assert_eq!(dev.wave(1).vgpr(3, 0), 33, "work-item 32 read its neighbour 33's id");
//! assert!(dev.events().is_empty(), "no race, no missing wait");
//! assert!(dev.cycles() > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Bank conflicts
//! A column read of a 32×32 float tile: every lane on the same bank of RDNA3's 64.
//! ```
//! use gpumemsim::banks::{Access, AccessKind, AccessShape, BankModel, WaveSize};
//! let column: Vec<u32> = (0..32).map(|lane| lane * 32 * 4).collect();
//! let shape = AccessShape::new(4, AccessKind::Load, WaveSize::Wave32);
//! let cost = BankModel::rdna3().cost(&Access::new(shape, &column))?;
//! assert!(cost.cost > cost.ideal, "conflicted: {cost:?}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Float rules on bits
//! The float atomics add in the memory's rules, on raw bits: no host float arithmetic.
//! ```
//! use gpumemsim::fp::{add_f32, DenormCtl};
//! let one = 1.0f32.to_bits();
//! let ctl = DenormCtl { flush_input: false, flush_output: false };
//! assert_eq!(f32::from_bits(add_f32(one, one, ctl)), 2.0);
//! ```
//!
//! # Address spaces
//! Scratch is swizzled: lane `l`'s dword `d` of wave `w` sits at a computed global address.
//! ```
//! use gpumemsim::addr::ScratchLayout;
//! let s = ScratchLayout { base: 0x10_0000, wave_size: 32, scratch_size: 16 };
//! // Consecutive lanes' same dword are adjacent dwords.
//! assert_eq!(s.lane_address(0, 1, 0) - s.lane_address(0, 0, 0), 4);
//! ```
//!
//! # Findings
//! `check::findings` groups a run's events the way `gpumemsim check` prints them.
//! ```
//! use gpumemsim::exec::{Device, RunConfig};
//! use gpumemsim::isa::asm::assemble;
//! // The load's result is used before the wait that covers it.
//! let prog = assemble("ds_load_b32 v1, v0\nv_add_nc_u32 v2, v1, 1\ns_waitcnt lgkmcnt(0)\ns_endpgm");
//! let cfg = RunConfig::default();
//! let mut dev = Device::new(&cfg, prog.lines.len())?;
//! dev.run(&prog.lines, &cfg)?;
//! let f = gpumemsim::check::findings(dev.events());
//! assert!(f.iter().any(|f| f.kind == "missing_wait" && f.pcs == [1, 0]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Unsafe code is refused everywhere but in `banks::avx2` and `fp::host_fma`, which say why
// each use is sound.
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
pub mod preset;
pub mod ranges;
pub mod report;
pub mod smem;
pub mod target;
pub mod timeline;
pub mod timing;
pub mod vcache;
pub mod vmem;
pub mod vmem_format;
pub mod wave;
pub mod xorshift;
