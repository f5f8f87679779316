//! The gfx942 (CDNA3) instruction set: GFX9's encodings as gfx940 changed them. Its table
//! ([`crate::table_gfx940`]) is written in the same schema as gfx1100's; what differs lives
//! here: the layouts of the formats ([`format`]), the decoder's rules ([`decode`]), the
//! printer's ([`print`]) and the assembler's ([`parse`], with its modifiers and symbolic
//! immediates), each checked against `llvm-mc-19 -mcpu=gfx942`.

pub mod decode;
pub mod format;
mod modifiers;
pub mod parse;
pub mod print;
mod special;
