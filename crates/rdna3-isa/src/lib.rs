//! The gfx1100 (RDNA3) instruction set for gpumemsim.
//!
//! One table ([`table::INSTRUCTIONS`]) describes every instruction of the formats in scope: DS,
//! SMEM, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, LDSDIR, VINTERP, SOP1/SOP2/SOPK/SOPC/SOPP,
//! VOP1/VOP2/VOPC/VOP3/VOP3P/VOPD and the DPP16/DPP8 forms ([`dpp`]). The
//! decoder ([`Instruction::decode`]), encoder ([`Instruction::encode`]), parser
//! ([`parse::parse_instruction`], [`asm::assemble`]) and printer ([`print::print`]) are all driven
//! by it, and agree byte-for-byte and text-for-text with `llvm-mc-19 -mcpu=gfx1100`.
//!
//! This crate knows nothing of what instructions do.
//!
//! ```
//! use rdna3_isa::{asm::assemble, print::print, Instruction};
//! let prog = assemble("ds_add_u32 v1, v2 offset:16");
//! assert_eq!(prog.bytes(), [0x10, 0x00, 0x00, 0xd8, 0x01, 0x02, 0x00, 0x00]);
//! let (inst, size) = Instruction::decode(&prog.bytes()).expect("the example decodes");
//! assert_eq!((print(&inst).as_str(), size), ("ds_add_u32 v1, v2 offset:16", 8));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod aliases;
pub mod asm;
mod decode;
pub mod def;
pub mod directives;
pub mod dpp;
pub mod explain;
pub mod fields;
pub mod format;
pub mod gfx9;
pub mod inst;
pub mod lex;
mod lookup;
pub mod parse;
pub mod print;
pub mod regs;
mod schema;
pub mod special;
pub mod table;
pub mod table_gfx940;
pub mod vgprs;
mod vopd_asm;

pub use def::{Flags, Imm, InstrDef, Isa, Kind, Opcode, Operand, SrcMods, SrcTy, Wave};
pub use dpp::{Dpp, DppControl, DppKind};
pub use fields::Field;
pub use format::Format;
pub use inst::{DecodeError, Instruction};
pub use vgprs::VgprOperand;

/// The chip whose instruction set this crate holds (`llvm-mc-19 -mcpu=gfx1100`).
pub const TARGET: &str = "gfx1100";
