//! The kernarg segment as the runtimes build it, from the kernel's metadata
//! ([`KernelMetadata`]): each explicit argument checked against what the host gave and written
//! at its `.offset`; OpenCL `__local` pointer arguments given LDS after the static LDS and the
//! earlier ones, at their `.pointee_align` (their LDS offset is what the kernel reads); the
//! hidden arguments of code object v5 (AMDGPUUsage, "Code Object V5 Metadata") filled by
//! `.value_kind`.

use super::{KernelArg, BUFFER_BASE, BUFFER_GAP};
use crate::addr::{Allocation, Apertures};
use crate::lds::MAX_ALLOCATION;
use crate::loader::{ArgClass, ArgMetadata, KernelMetadata};

/// The largest kernarg segment a launch lays out: far above what compilers emit (HIP and
/// OpenCL kernels take a few KiB at most), so that a malformed metadata note cannot make the
/// host allocate gigabytes.
pub const MAX_KERNARG_BYTES: usize = 1 << 20;

/// What [`lay_out`] places.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The kernarg segment's bytes.
    pub kernarg: Vec<u8>,
    /// Per argument: a buffer's address, a local argument's LDS offset, a value's kernarg
    /// offset.
    pub addresses: Vec<u64>,
    /// Each buffer's allocation (named after its argument).
    pub buffers: Vec<Allocation>,
    /// LDS per workgroup: static, then the local arguments, then the launch's dynamic LDS.
    pub lds_bytes: u32,
    /// Of which dynamic (local arguments and the launch's dynamic size).
    pub dynamic_lds_bytes: u32,
}

/// The `--arg` form that supplies an argument, for messages.
pub fn arg_hint(m: &ArgMetadata) -> String {
    match m.class() {
        ArgClass::Buffer => "buf:TYPE[LEN]=INIT".into(),
        ArgClass::Local => "local:BYTES".into(),
        ArgClass::Other => format!("nothing: `{}` arguments are not supported", m.value_kind),
        ArgClass::Value => format!("{}:VALUE", scalar_type_of(m).unwrap_or("u32")),
    }
}

/// The scalar type (an [`super::ElementType`] name) whose values a by-value argument takes,
/// from its type name where clang recorded one, else from its size.
pub fn scalar_type_of(m: &ArgMetadata) -> Option<&'static str> {
    named_scalar_type(m).or(match m.size {
        1 => Some("u8"),
        2 => Some("u16"),
        4 => Some("u32"),
        8 => Some("u64"),
        _ => None,
    })
}

/// The scalar type of a by-value argument whose type name is a C, OpenCL or HIP scalar type;
/// `None` for other names (a typedef such as PolyBench's `DATA_TYPE`, a struct).
fn named_scalar_type(m: &ArgMetadata) -> Option<&'static str> {
    scalar_type_named(m.type_name.as_deref().unwrap_or(""))
}

/// The [`super::ElementType`] name of C, OpenCL or HIP scalar type `name`.
fn scalar_type_named(name: &str) -> Option<&'static str> {
    match name.trim() {
        "float" => Some("f32"),
        "double" => Some("f64"),
        "half" | "_Float16" | "__half" => Some("f16"),
        "int" | "int32_t" => Some("i32"),
        "uint" | "unsigned int" | "uint32_t" => Some("u32"),
        "long" | "long long" | "int64_t" => Some("i64"),
        "ulong" | "unsigned long" | "unsigned long long" | "size_t" | "uint64_t" => Some("u64"),
        // Narrow integers travel as the unsigned type of their width (same bits).
        "short" | "ushort" | "unsigned short" | "int16_t" | "uint16_t" => Some("u16"),
        "char" | "uchar" | "unsigned char" | "bool" | "int8_t" | "uint8_t" => Some("u8"),
        _ => None,
    }
}

fn what_was_given(a: &KernelArg) -> String {
    match a {
        KernelArg::Scalar(b) => format!("a value of {} bytes", b.len()),
        KernelArg::Buffer(b) => format!("a buffer of {} bytes", b.len()),
        KernelArg::Local(n) => format!("{n} bytes of local memory"),
        KernelArg::Null => "a null pointer".into(),
        KernelArg::SameAs(j) => format!("the buffer of argument {j}"),
    }
}

/// Checks `args` against the kernel's explicit arguments: as many, each of the kind the
/// metadata says (a buffer for a global pointer, local memory for a `__local` pointer, a
/// value of the argument's size for a by-value one). The message names the argument (index,
/// name, type) and what was given.
pub fn check_args(kernel: &str, meta: &KernelMetadata, args: &[KernelArg]) -> Result<(), String> {
    let explicit: Vec<&ArgMetadata> = meta.args.iter().filter(|a| !a.is_hidden()).collect();
    let count = |n: usize| format!("{n} argument{}", if n == 1 { "" } else { "s" });
    let head = format!(
        "kernel `{kernel}` takes {}, {} given",
        count(explicit.len()),
        args.len()
    );
    if args.len() < explicit.len() {
        let missing: Vec<String> = explicit[args.len()..]
            .iter()
            .enumerate()
            .map(|(k, m)| {
                format!(
                    "argument {} {} is missing (--arg {})",
                    args.len() + k,
                    m.describe(),
                    arg_hint(m)
                )
            })
            .collect();
        return Err(format!("{head}: {}", missing.join("; ")));
    }
    if args.len() > explicit.len() {
        return Err(format!(
            "{head}: argument {} ({}) is extra",
            explicit.len(),
            what_was_given(&args[explicit.len()])
        ));
    }
    for (i, (m, a)) in explicit.iter().zip(args).enumerate() {
        if let KernelArg::SameAs(j) = a {
            if *j >= i || !matches!(args[*j], KernelArg::Buffer(_)) {
                return Err(format!(
                    "argument {i} is the buffer of argument {j}, which is no earlier buffer"
                ));
            }
        }
        let fits = match (m.class(), a) {
            (ArgClass::Buffer, KernelArg::Buffer(_) | KernelArg::Null | KernelArg::SameAs(_))
            | (ArgClass::Local, KernelArg::Local(_)) => true,
            (ArgClass::Value, KernelArg::Scalar(b)) => b.len() == m.size as usize,
            _ => false,
        };
        if !fits {
            return Err(format!(
                "argument {i} {} takes --arg {}; given {}",
                m.describe(),
                arg_hint(m),
                what_was_given(a)
            ));
        }
    }
    Ok(())
}

/// The element type a pointer argument's type name points to (`float*`, `const uint *`,
/// `float4*`: f32), where the metadata names a scalar or vector of scalars; `None` for a
/// struct, a typedef or no type name (HIP's metadata has none).
fn pointee_type(m: &ArgMetadata) -> Option<&'static str> {
    let name = m.type_name.as_deref()?.trim().strip_suffix('*')?;
    let base = name
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "restrict" | "__global" | "global"
            )
        })
        .collect::<Vec<_>>()
        .join(" ");
    // A scalar's own name first (`_Float16`, `int32_t`), then OpenCL vectors (`float4`,
    // `uchar16`: the scalar without its count).
    scalar_type_named(&base)
        .or_else(|| scalar_type_named(base.trim_end_matches(|c: char| c.is_ascii_digit())))
}

/// Checks that a buffer of element type `given` suits pointer argument `index` where its
/// metadata names what it points to: the same type, or an integer of the same width (the
/// same bits either way); `u8` is raw bytes and suits any pointer (a deliberate
/// reinterpretation). A `buf:i32` for a `float*` would run with garbage values.
pub fn check_buffer_type(
    index: usize,
    m: &ArgMetadata,
    given: super::ElementType,
) -> Result<(), String> {
    if m.class() != ArgClass::Buffer || given == super::ElementType::U8 {
        return Ok(());
    }
    let Some(want) = pointee_type(m).and_then(super::ElementType::from_name) else {
        return Ok(());
    };
    let same_bits = !want.is_float() && !given.is_float() && want.bytes() == given.bytes();
    if want == given || same_bits {
        return Ok(());
    }
    Err(format!(
        "argument {index} {} points to {} values; given a buffer of {} (pass {} elements, or \
         u8 to reinterpret raw bytes)",
        m.describe(),
        want.name(),
        given.name(),
        want.name()
    ))
}

/// Checks that a by-value argument of scalar type `given` (an [`super::ElementType`] name)
/// suits argument `index`: the same size, and a float for a float argument and an integer for
/// an integer one where the type name is a scalar type (a typedef's name says neither, so any
/// type of the right size suits it).
pub fn check_scalar_type(
    index: usize,
    m: &ArgMetadata,
    given: super::ElementType,
) -> Result<(), String> {
    let float_mismatch =
        named_scalar_type(m).is_some_and(|t| t.starts_with('f') != given.is_float());
    if m.class() == ArgClass::Value && (given.bytes() != m.size as usize || float_mismatch) {
        return Err(format!(
            "argument {index} {} takes --arg {}; given a {} value",
            m.describe(),
            arg_hint(m),
            given.name()
        ));
    }
    Ok(())
}

/// The grid's dimensions as `hidden_grid_dims` and the dispatch packet count them.
pub fn grid_dims(grid: [u32; 3], block: [u32; 3]) -> u16 {
    if grid[2] > 1 || block[2] > 1 {
        3
    } else if grid[1] > 1 || block[1] > 1 {
        2
    } else {
        1
    }
}

/// The value of hidden argument `kind` (`hidden_block_count_x`, ...): the printf and hostcall
/// buffers' addresses ([`super::PRINTF_BASE`], [`super::hostcall::HOSTCALL_BASE`]; the
/// launch places them when the kernel has these arguments); `None` for one the simulator
/// leaves 0 (the heap, the default queue, the completion action, the multigrid sync
/// argument: none of them exists here).
fn hidden_value(
    kind: &str,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_lds: u32,
    ap: &Apertures,
) -> Option<u64> {
    let axis = |s: &str| match s {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some(i) = kind.strip_prefix("hidden_block_count_").and_then(axis) {
        return Some(grid[i] as u64);
    }
    if let Some(i) = kind.strip_prefix("hidden_group_size_").and_then(axis) {
        return Some(block[i] as u64);
    }
    match kind {
        // Every workgroup is whole (the grid counts workgroups): no remainders, no offsets.
        "hidden_grid_dims" => Some(grid_dims(grid, block) as u64),
        "hidden_dynamic_lds_size" => Some(dynamic_lds as u64),
        // The apertures' upper halves (the 32-bit values the ABI passes).
        "hidden_shared_base" => Some(ap.shared_base >> 32),
        "hidden_private_base" => Some(ap.private_base >> 32),
        "hidden_printf_buffer" => Some(super::PRINTF_BASE),
        "hidden_hostcall_buffer" => Some(super::hostcall::HOSTCALL_BASE),
        _ => None,
    }
}

/// Lays out the kernarg segment of `meta`'s kernel for `args` (checked first, see
/// [`check_args`]) on `grid` × `block` with `dynamic_lds` bytes of launch dynamic LDS.
pub fn lay_out(
    kernel: &str,
    meta: &KernelMetadata,
    args: &[KernelArg],
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_lds: u32,
    apertures: &Apertures,
) -> Result<Layout, String> {
    check_args(kernel, meta, args)?;
    let explicit: Vec<&ArgMetadata> = meta.args.iter().filter(|a| !a.is_hidden()).collect();
    let end = meta
        .args
        .iter()
        .map(|a| a.offset as usize + a.size as usize)
        .max()
        .unwrap_or(0);
    let size = end.max(meta.kernarg_segment_size as usize);
    if size > MAX_KERNARG_BYTES {
        return Err(format!(
            "kernel `{kernel}`: its metadata asks for a kernarg segment of {size} bytes; at most {MAX_KERNARG_BYTES} are supported"
        ));
    }
    let mut out = Layout {
        kernarg: vec![0; size],
        ..Layout::default()
    };
    let mut lds = u64::from(meta.group_segment_fixed_size);
    let mut next_buffer = BUFFER_BASE;
    for (i, (m, a)) in explicit.iter().zip(args).enumerate() {
        let at = m.offset as usize;
        let value: Vec<u8> = match a {
            KernelArg::Scalar(b) => {
                out.addresses.push(at as u64);
                b.clone()
            }
            KernelArg::Buffer(b) => {
                out.addresses.push(next_buffer);
                out.buffers.push(Allocation {
                    start: next_buffer,
                    len: b.len() as u64,
                    name: format!("arg {i} {}", m.describe()),
                });
                let v = next_buffer.to_le_bytes()[..m.size.min(8) as usize].to_vec();
                next_buffer =
                    (next_buffer + b.len() as u64).next_multiple_of(BUFFER_GAP) + BUFFER_GAP;
                v
            }
            KernelArg::Local(n) => {
                let align = u64::from(m.pointee_align.unwrap_or(4).max(1));
                let offset = lds.next_multiple_of(align);
                lds = offset + u64::from(*n);
                out.addresses.push(offset);
                (offset as u32).to_le_bytes()[..m.size.min(4) as usize].to_vec()
            }
            KernelArg::Null => {
                out.addresses.push(0);
                Vec::new()
            }
            KernelArg::SameAs(j) => {
                let address = out.addresses.get(*j).copied().unwrap_or(0);
                out.addresses.push(address);
                address.to_le_bytes()[..m.size.min(8) as usize].to_vec()
            }
        };
        out.kernarg[at..at + value.len()].copy_from_slice(&value);
    }
    let dynamic = lds - u64::from(meta.group_segment_fixed_size) + u64::from(dynamic_lds);
    let total = lds + u64::from(dynamic_lds);
    if total > u64::from(MAX_ALLOCATION) {
        return Err(format!(
            "kernel `{kernel}` needs {total} bytes of LDS per workgroup ({} static + {dynamic} dynamic); a workgroup may have at most {MAX_ALLOCATION}",
            meta.group_segment_fixed_size
        ));
    }
    (out.lds_bytes, out.dynamic_lds_bytes) = (total as u32, dynamic as u32);
    for h in meta.args.iter().filter(|a| a.is_hidden()) {
        if let Some(v) = hidden_value(&h.value_kind, grid, block, dynamic as u32, apertures) {
            let n = (h.size as usize).min(8);
            let at = h.offset as usize;
            out.kernarg[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::ElementType;

    fn value(type_name: Option<&str>, size: u32) -> ArgMetadata {
        ArgMetadata {
            type_name: type_name.map(String::from),
            size,
            value_kind: "by_value".into(),
            ..ArgMetadata::default()
        }
    }

    fn pointer(type_name: Option<&str>) -> ArgMetadata {
        ArgMetadata {
            type_name: type_name.map(String::from),
            size: 8,
            value_kind: "global_buffer".into(),
            ..ArgMetadata::default()
        }
    }

    #[test]
    fn buffer_types_follow_the_pointee_and_u8_is_raw_bytes() {
        use ElementType::*;
        let float = pointer(Some("float*"));
        assert!(check_buffer_type(1, &float, F32).is_ok());
        let e = check_buffer_type(1, &float, I32).unwrap_err();
        assert!(
            e.contains("points to f32 values; given a buffer of i32"),
            "{e}"
        );
        assert!(check_buffer_type(1, &float, F64).is_err());
        assert!(check_buffer_type(1, &float, U8).is_ok(), "raw bytes");
        // Integers of one width are the same bits; vectors and qualifiers name their scalar.
        assert!(check_buffer_type(0, &pointer(Some("int*")), U32).is_ok());
        assert!(check_buffer_type(0, &pointer(Some("int*")), U64).is_err());
        assert!(check_buffer_type(0, &pointer(Some("const float4 *")), F32).is_ok());
        assert!(check_buffer_type(0, &pointer(Some("float4*")), I32).is_err());
        assert!(check_buffer_type(0, &pointer(Some("uchar16*")), U16).is_err());
        assert!(check_buffer_type(0, &pointer(Some("_Float16*")), F16).is_ok());
        assert!(check_buffer_type(0, &pointer(Some("_Float16*")), F32).is_err());
        assert!(check_buffer_type(0, &pointer(Some("uint16_t*")), F64).is_err());
        assert!(check_buffer_type(0, &pointer(Some("int8_t*")), U8).is_ok());
        // No type name (HIP), a struct or a typedef: anything goes.
        for name in [None, Some("struct node*"), Some("DATA_TYPE*")] {
            assert!(
                check_buffer_type(0, &pointer(name), F64).is_ok(),
                "{name:?}"
            );
        }
    }

    #[test]
    fn scalar_types_follow_the_type_name_and_a_typedef_takes_any_type_of_its_size() {
        let int = value(Some("int"), 4);
        assert!(check_scalar_type(0, &int, ElementType::I32).is_ok());
        assert!(check_scalar_type(0, &int, ElementType::U32).is_ok());
        assert!(check_scalar_type(0, &int, ElementType::F32).is_err());
        assert!(check_scalar_type(0, &int, ElementType::U64).is_err());
        let float = value(Some("float"), 4);
        assert!(check_scalar_type(0, &float, ElementType::I32).is_err());
        // PolyBench's `typedef float DATA_TYPE`: the name says nothing of floats.
        let typedef = value(Some("DATA_TYPE"), 4);
        assert!(check_scalar_type(0, &typedef, ElementType::F32).is_ok());
        assert!(check_scalar_type(0, &typedef, ElementType::I32).is_ok());
        assert!(check_scalar_type(0, &typedef, ElementType::F64).is_err());
        assert_eq!(scalar_type_of(&typedef), Some("u32"));
        assert_eq!(scalar_type_of(&value(Some("ulong"), 8)), Some("u64"));
    }

    #[test]
    fn hidden_arguments_are_written_at_their_metadata_offsets() {
        let hidden = |kind: &str, offset, size| ArgMetadata {
            value_kind: kind.into(),
            offset,
            size,
            ..ArgMetadata::default()
        };
        let meta = KernelMetadata {
            name: "k".into(),
            args: vec![
                ArgMetadata {
                    offset: 0,
                    ..value(Some("int"), 4)
                },
                hidden("hidden_block_count_y", 8, 4),
                hidden("hidden_group_size_x", 12, 2),
                hidden("hidden_grid_dims", 14, 2),
                hidden("hidden_dynamic_lds_size", 16, 4),
                hidden("hidden_printf_buffer", 24, 8),
                hidden("hidden_hostcall_buffer", 32, 8),
            ],
            kernarg_segment_size: 40,
            group_segment_fixed_size: 20,
            ..KernelMetadata::default()
        };
        let ap = Apertures::default();
        let args = [KernelArg::Scalar(7u32.to_le_bytes().to_vec())];
        let l = lay_out("k", &meta, &args, [4, 5, 1], [64, 2, 1], 100, &ap).expect("lays out");
        let k = &l.kernarg;
        assert_eq!(k.len(), 40);
        assert_eq!(k[0..4], 7u32.to_le_bytes());
        assert_eq!(k[8..12], 5u32.to_le_bytes());
        assert_eq!(k[12..14], 64u16.to_le_bytes());
        assert_eq!(k[14..16], 2u16.to_le_bytes());
        assert_eq!(k[16..20], 100u32.to_le_bytes());
        assert_eq!(
            k[24..32],
            super::super::PRINTF_BASE.to_le_bytes(),
            "the printf buffer"
        );
        assert_eq!(
            k[32..40],
            super::super::hostcall::HOSTCALL_BASE.to_le_bytes(),
            "the hostcall buffer"
        );
        assert_eq!((l.lds_bytes, l.dynamic_lds_bytes), (120, 100));
    }

    #[test]
    fn a_kernarg_segment_past_the_limit_is_refused() {
        let meta = KernelMetadata {
            name: "k".into(),
            kernarg_segment_size: u32::MAX,
            ..KernelMetadata::default()
        };
        let e = lay_out("k", &meta, &[], [1; 3], [1; 3], 0, &Apertures::default())
            .expect_err("4 GiB of kernarg");
        assert!(
            e.contains("a kernarg segment of 4294967295 bytes; at most 1048576"),
            "{e}"
        );
    }
}
