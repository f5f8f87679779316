//! What each DS instruction of the table does, read off its canonical mnemonic once.
//!
//! The instruction table (`rdna3_isa::table`) is the one list of instructions; this module
//! classifies its DS entries by their names (`ds_<op>[_rtn]_<type>`, `ds_load_2addr_stride64_b64`,
//! ...), so the semantics need no second list.

use std::sync::OnceLock;

use rdna3_isa::def::Opcode;
use rdna3_isa::Format;

pub use crate::atomic::AtomicOp;

/// Which half of a 32-bit VGPR a 16-bit load or store uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum D16 {
    /// The whole register (zero/sign-extended load, or the low bits of a store).
    No,
    /// The low 16 bits; the high half is preserved.
    Lo,
    /// The high 16 bits; the low half is preserved.
    Hi,
}

/// The semantics class of a DS instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsKind {
    /// `ds_nop`.
    Nop,
    /// Load of `bytes` (1, 2, 4, 8, 12, 16), sign-extended if `signed`.
    Load {
        /// Element size.
        bytes: u32,
        /// Sign-extend 8/16-bit data.
        signed: bool,
        /// Half-register form.
        d16: D16,
    },
    /// Store of `bytes`; `hi` stores from the high half of the data VGPR.
    Store {
        /// Element size.
        bytes: u32,
        /// `_d16_hi` form.
        hi: bool,
    },
    /// Two loads at offset0 × adj and offset1 × adj.
    Load2 {
        /// 4 or 8.
        elem: u32,
        /// adj × 64.
        stride64: bool,
    },
    /// Two stores.
    Store2 {
        /// 4 or 8.
        elem: u32,
        /// adj × 64.
        stride64: bool,
    },
    /// Two exchanges returning both old values.
    Xchg2 {
        /// 4 or 8.
        elem: u32,
        /// adj × 64.
        stride64: bool,
    },
    /// An atomic of 4 or 8 bytes.
    Atomic {
        /// Operation.
        op: AtomicOp,
        /// 8-byte operand.
        b64: bool,
        /// Signed or float type (for min/max).
        rtn: bool,
    },
    /// `ds_condxchg32_rtn_b64`.
    Condxchg32,
    /// `ds_load_addtid_b32`.
    LoadAddtid,
    /// `ds_store_addtid_b32`.
    StoreAddtid,
    /// `ds_permute_b32`.
    Permute,
    /// `ds_bpermute_b32`.
    Bpermute,
    /// `ds_swizzle_b32`.
    Swizzle,
    /// `ds_append`.
    Append,
    /// `ds_consume`.
    Consume,
    /// `ds_add_gs_reg_rtn` / `ds_sub_gs_reg_rtn`.
    GsReg {
        /// Subtract instead of add.
        sub: bool,
    },
    /// `ds_bvh_stack_rtn_b32`.
    BvhStack,
    /// GWS and ordered count: the GWS unit (issue 9).
    GlobalSync,
}

fn classify(name: &str) -> DsKind {
    let Some(n) = name.strip_prefix("ds_") else {
        return DsKind::Nop;
    };
    let stride64 = n.contains("stride64");
    let elem = if n.ends_with("64") { 8 } else { 4 };
    match n {
        "nop" => return DsKind::Nop,
        "condxchg32_rtn_b64" => return DsKind::Condxchg32,
        "load_addtid_b32" => return DsKind::LoadAddtid,
        "store_addtid_b32" => return DsKind::StoreAddtid,
        "permute_b32" => return DsKind::Permute,
        "bpermute_b32" => return DsKind::Bpermute,
        "swizzle_b32" => return DsKind::Swizzle,
        "append" => return DsKind::Append,
        "consume" => return DsKind::Consume,
        "add_gs_reg_rtn" => return DsKind::GsReg { sub: false },
        "sub_gs_reg_rtn" => return DsKind::GsReg { sub: true },
        "bvh_stack_rtn_b32" => return DsKind::BvhStack,
        _ => {}
    }
    if n.starts_with("gws_") || n == "ordered_count" {
        return DsKind::GlobalSync;
    }
    if n.starts_with("load_2addr") {
        return DsKind::Load2 { elem, stride64 };
    }
    if n.starts_with("store_2addr") {
        return DsKind::Store2 { elem, stride64 };
    }
    if n.starts_with("storexchg_2addr") {
        return DsKind::Xchg2 { elem, stride64 };
    }
    let parts: Vec<&str> = n.split('_').collect();
    let ty = |t: &str| -> (u32, bool) {
        match t {
            "u8" | "b8" => (1, false),
            "i8" => (1, true),
            "u16" | "b16" => (2, false),
            "i16" => (2, true),
            "b64" | "u64" | "i64" | "f64" => (8, false),
            "b96" => (12, false),
            "b128" => (16, false),
            _ => (4, false),
        }
    };
    if parts[0] == "load" {
        let (bytes, signed) = ty(parts[1]);
        let d16 = match parts.get(2..).unwrap_or(&[]) {
            ["d16"] => D16::Lo,
            ["d16", "hi"] => D16::Hi,
            _ => D16::No,
        };
        return DsKind::Load { bytes, signed, d16 };
    }
    if parts[0] == "store" {
        let (bytes, _) = ty(parts[1]);
        return DsKind::Store {
            bytes,
            hi: n.ends_with("d16_hi"),
        };
    }
    let rtn = parts.contains(&"rtn");
    let t = parts.last().copied().unwrap_or("");
    let float = t.starts_with('f');
    let signed = t.starts_with('i');
    let op = match (parts[0], float, signed) {
        // gfx942's packed 16-bit float adds (`ds_pk_add_f16`, `ds_pk_add_rtn_bf16`).
        ("pk", ..) if parts.get(1) == Some(&"add") && t == "f16" => AtomicOp::PkAddF16,
        ("pk", ..) if parts.get(1) == Some(&"add") && t == "bf16" => AtomicOp::PkAddBf16,
        ("add", true, _) => AtomicOp::AddF,
        ("add", false, _) => AtomicOp::Add,
        ("sub", ..) => AtomicOp::Sub,
        ("rsub", ..) => AtomicOp::Rsub,
        ("inc", ..) => AtomicOp::Inc,
        ("dec", ..) => AtomicOp::Dec,
        ("min", true, _) => AtomicOp::MinF,
        ("max", true, _) => AtomicOp::MaxF,
        ("min", _, true) => AtomicOp::MinI,
        ("max", _, true) => AtomicOp::MaxI,
        ("min", ..) => AtomicOp::MinU,
        ("max", ..) => AtomicOp::MaxU,
        ("and", ..) => AtomicOp::And,
        ("or", ..) => AtomicOp::Or,
        ("xor", ..) => AtomicOp::Xor,
        ("mskor", ..) => AtomicOp::Mskor,
        ("storexchg", ..) => AtomicOp::Xchg,
        ("cmpstore", true, _) => AtomicOp::CmpstoreF,
        ("cmpstore", ..) => AtomicOp::Cmpstore,
        ("wrap", ..) => AtomicOp::Wrap,
        _ => return DsKind::Nop,
    };
    DsKind::Atomic {
        op,
        b64: elem == 8,
        rtn,
    }
}

/// The semantics class of the DS instruction `op` (`None` for other formats).
pub fn ds_kind(op: Opcode) -> Option<DsKind> {
    static KINDS: OnceLock<Vec<Option<DsKind>>> = OnceLock::new();
    KINDS.get_or_init(|| {
        // gfx1100's entries, and the other tables' that run as they are: their other DS
        // instructions run as their gfx1100 counterparts (`crate::target::gfx9::lower`).
        rdna3_isa::def::every()
            .map(|(_, d)| {
                let runs =
                    d.isa == rdna3_isa::Isa::Gfx11 || crate::target::gfx9::runs_as_is(d.name);
                (d.format == Format::Ds && runs).then(|| classify(d.name))
            })
            .collect()
    })[op.0 as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdna3_isa::def::{all, lookup_name};

    fn k(name: &str) -> DsKind {
        ds_kind(lookup_name(name).expect("in table")).expect("DS")
    }

    #[test]
    fn every_ds_instruction_is_classified_and_only_ds_nop_is_nop() {
        for (op, d) in all() {
            if d.format == Format::Ds {
                let kind = ds_kind(op).expect("DS kind");
                assert_eq!(kind == DsKind::Nop, d.name == "ds_nop", "{}", d.name);
            } else {
                assert_eq!(ds_kind(op), None);
            }
        }
    }

    #[test]
    fn names_map_to_their_semantics() {
        assert_eq!(
            k("ds_load_i8"),
            DsKind::Load {
                bytes: 1,
                signed: true,
                d16: D16::No
            }
        );
        assert_eq!(
            k("ds_load_u16_d16_hi"),
            DsKind::Load {
                bytes: 2,
                signed: false,
                d16: D16::Hi
            }
        );
        assert_eq!(
            k("ds_load_i8_d16"),
            DsKind::Load {
                bytes: 1,
                signed: true,
                d16: D16::Lo
            }
        );
        assert_eq!(
            k("ds_load_b96"),
            DsKind::Load {
                bytes: 12,
                signed: false,
                d16: D16::No
            }
        );
        assert_eq!(
            k("ds_store_b16_d16_hi"),
            DsKind::Store { bytes: 2, hi: true }
        );
        assert_eq!(
            k("ds_load_2addr_stride64_b64"),
            DsKind::Load2 {
                elem: 8,
                stride64: true
            }
        );
        assert_eq!(
            k("ds_storexchg_2addr_rtn_b32"),
            DsKind::Xchg2 {
                elem: 4,
                stride64: false
            }
        );
        assert_eq!(
            k("ds_max_rtn_i64"),
            DsKind::Atomic {
                op: AtomicOp::MaxI,
                b64: true,
                rtn: true
            }
        );
        assert_eq!(
            k("ds_add_u64"),
            DsKind::Atomic {
                op: AtomicOp::Add,
                b64: true,
                rtn: false
            }
        );
        assert_eq!(
            k("ds_min_f64"),
            DsKind::Atomic {
                op: AtomicOp::MinF,
                b64: true,
                rtn: false
            }
        );
        assert_eq!(
            k("ds_add_rtn_f32"),
            DsKind::Atomic {
                op: AtomicOp::AddF,
                b64: false,
                rtn: true
            }
        );
        assert_eq!(
            k("ds_cmpstore_rtn_f32"),
            DsKind::Atomic {
                op: AtomicOp::CmpstoreF,
                b64: false,
                rtn: true
            }
        );
        assert_eq!(
            k("ds_wrap_rtn_b32"),
            DsKind::Atomic {
                op: AtomicOp::Wrap,
                b64: false,
                rtn: true
            }
        );
        assert_eq!(k("ds_gws_barrier"), DsKind::GlobalSync);
        assert_eq!(k("ds_sub_gs_reg_rtn"), DsKind::GsReg { sub: true });
    }
}
