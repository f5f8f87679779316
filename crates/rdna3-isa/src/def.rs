//! What one line of the instruction table says, and lookups over the table.
//!
//! The types of a table entry ([`InstrDef`], [`Operand`], [`Kind`], [`Flags`], ...) live in the
//! crate's `schema` module, which [`crate::table`] is written in; the lookups ([`Opcode`],
//! [`lookup_name`], [`lookup_opcode`], [`lookup_dpp_name`], [`all`]) live in its `lookup`
//! module, which reads the table. This module is where both are public, so that the types and
//! the table never import each other.

pub use crate::lookup::{
    all, all_in, every, known_to_llvm, lookup_dpp_name, lookup_name, lookup_opcode,
    lookup_opcode_in, Opcode,
};
pub use crate::schema::*;
