//! Where each `__local`/`__shared__` variable of a kernel lies in its LDS allocation, for the
//! checker's per-variable bounds (`lds_out_of_bounds`).
//!
//! clang-19's code objects do not record it: LLVM's LDS lowering (`amdgpu-lower-module-lds`)
//! packs a kernel's variables into one struct, and the DWARF locations of the variables name
//! symbols that pass removed. What the DWARF does give is each variable's name, type (so its
//! size and alignment) and the function it belongs to; the layout is then LLVM's, redone
//! here:
//! - every variable's alignment is raised by its size (`superAlignLDSGlobals`): more than 8
//!   bytes to 16, more than 4 to 8, more than 2 to 4, more than 1 to 2;
//! - the variables, in the order of their names, are placed by LLVM's
//!   `performOptimizedStructLayout`: by decreasing alignment, then decreasing size, then
//!   that order; where that leaves a gap, the next field is the one needing the least
//!   padding, then the most aligned, then the largest, then the earliest.
//!
//! A layout is only used when it accounts for the kernel's static LDS exactly
//! (`group_segment_fixed_size`): anything else — variables of device functions shared by
//! several kernels, LDS the compiler made itself, a name this reading orders otherwise —
//! leaves the kernel without per-variable bounds, never with wrong ones. Names only decide
//! the order of variables of equal alignment and size, which does not move any boundary.

use gimli::{AttributeValue, DebuggingInformationEntry, Operation, Reader as _, Unit, UnitOffset};

use super::dwarf::Reader;

/// One LDS variable of a kernel: its bytes `[start, end)` in the workgroup's allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LdsVariable {
    /// The name the source gives it.
    pub name: String,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

/// A variable as the DWARF declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Declared {
    pub(super) name: String,
    /// The key LLVM orders variables by (their IR names): the linkage name where the DWARF
    /// has one, else `function.name` (OpenCL's `kernel.var`).
    pub(super) key: String,
    pub(super) size: u64,
    pub(super) align: u64,
}

/// The LDS variables the DWARF declares, by the function (its linkage name, else its name)
/// whose scope declares them.
pub(super) fn declared(dwarf: &gimli::Dwarf<Reader>) -> Vec<(String, Declared)> {
    let mut out = Vec::new();
    let mut units = dwarf.units();
    while let Ok(Some(header)) = units.next() {
        let Ok(unit) = dwarf.unit(header) else {
            continue;
        };
        let mut function: Vec<(isize, String)> = Vec::new();
        let mut depth = 0isize;
        let mut entries = unit.entries();
        while let Ok(Some((delta, e))) = entries.next_dfs() {
            depth += delta;
            while function.last().is_some_and(|(d, _)| *d >= depth) {
                function.pop();
            }
            match e.tag() {
                gimli::DW_TAG_subprogram => {
                    let name = linkage_or_name(dwarf, &unit, e).unwrap_or_default();
                    function.push((depth, name));
                }
                gimli::DW_TAG_variable if is_lds(e) => {
                    let Some(f) = function.last().map(|(_, f)| f.clone()) else {
                        continue;
                    };
                    let Some(name) = attr_string(dwarf, &unit, e, gimli::DW_AT_name) else {
                        continue;
                    };
                    let Some((size, align)) = e
                        .attr_value(gimli::DW_AT_type)
                        .ok()
                        .flatten()
                        .and_then(|t| type_size_align(&unit, t, 0))
                    else {
                        continue;
                    };
                    let key = attr_string(dwarf, &unit, e, gimli::DW_AT_linkage_name)
                        .unwrap_or_else(|| format!("{f}.{name}"));
                    out.push((
                        f,
                        Declared {
                            name,
                            key,
                            size,
                            align,
                        },
                    ));
                }
                _ => {}
            }
        }
    }
    out
}

/// Whether a variable lives in LDS: its location ends `DW_OP_lit2, DW_OP_swap,
/// DW_OP_xderef` (address space 2 of LLVM's AMDGPU DWARF, the local one).
fn is_lds(e: &DebuggingInformationEntry<Reader>) -> bool {
    let Ok(Some(AttributeValue::Exprloc(expr))) = e.attr_value(gimli::DW_AT_location) else {
        return false;
    };
    let mut ops = expr.operations(gimli::Encoding {
        format: gimli::Format::Dwarf32,
        version: 5,
        address_size: 8,
    });
    let mut last = Vec::new();
    while let Ok(Some(op)) = ops.next() {
        last.push(op);
    }
    matches!(
        last.as_slice(),
        [
            ..,
            Operation::UnsignedConstant { value: 2 },
            Operation::Swap,
            Operation::Deref { space: true, .. }
        ]
    )
}

fn attr_string(
    dwarf: &gimli::Dwarf<Reader>,
    unit: &Unit<Reader>,
    e: &DebuggingInformationEntry<Reader>,
    at: gimli::DwAt,
) -> Option<String> {
    let v = e.attr_value(at).ok()??;
    let s = dwarf.attr_string(unit, v).ok()?;
    Some(s.to_string_lossy().ok()?.into_owned())
}

fn linkage_or_name(
    dwarf: &gimli::Dwarf<Reader>,
    unit: &Unit<Reader>,
    e: &DebuggingInformationEntry<Reader>,
) -> Option<String> {
    attr_string(dwarf, unit, e, gimli::DW_AT_linkage_name)
        .or_else(|| attr_string(dwarf, unit, e, gimli::DW_AT_name))
}

/// The size and ABI alignment of the type at `t` (following typedefs and qualifiers;
/// arrays by their element and counts, structures by their members), `None` when the DWARF
/// does not say.
fn type_size_align(
    unit: &Unit<Reader>,
    t: AttributeValue<Reader>,
    depth: u32,
) -> Option<(u64, u64)> {
    let AttributeValue::UnitRef(off) = t else {
        return None;
    };
    if depth > 32 {
        return None;
    }
    let e = unit.entry(off).ok()?;
    let byte_size = || {
        e.attr_value(gimli::DW_AT_byte_size)
            .ok()?
            .and_then(|v| v.udata_value())
    };
    let explicit = e
        .attr_value(gimli::DW_AT_alignment)
        .ok()
        .flatten()
        .and_then(|v| v.udata_value());
    let inner = || type_size_align(unit, e.attr_value(gimli::DW_AT_type).ok()??, depth + 1);
    let (size, align) = match e.tag() {
        gimli::DW_TAG_base_type | gimli::DW_TAG_pointer_type | gimli::DW_TAG_enumeration_type => {
            let s = byte_size()?;
            (s, s.next_power_of_two().min(16))
        }
        gimli::DW_TAG_typedef
        | gimli::DW_TAG_const_type
        | gimli::DW_TAG_volatile_type
        | gimli::DW_TAG_restrict_type
        | gimli::DW_TAG_atomic_type => inner()?,
        gimli::DW_TAG_array_type => {
            let (elem, align) = inner()?;
            let n = array_count(unit, off)?;
            // A vector (ext_vector_type: float4) is aligned to its size.
            let vector = e
                .attr_value(gimli::DW_AT_GNU_vector)
                .ok()
                .flatten()
                .is_some();
            let size = byte_size().unwrap_or(elem * n);
            (
                size,
                if vector {
                    size.next_power_of_two()
                } else {
                    align
                },
            )
        }
        gimli::DW_TAG_structure_type | gimli::DW_TAG_union_type | gimli::DW_TAG_class_type => {
            (byte_size()?, members_align(unit, off, depth)?)
        }
        _ => return None,
    };
    Some((size, explicit.unwrap_or(align).max(align)))
}

/// The product of the array's subrange counts.
fn array_count(unit: &Unit<Reader>, off: UnitOffset) -> Option<u64> {
    let mut tree = unit.entries_tree(Some(off)).ok()?;
    let root = tree.root().ok()?;
    let mut children = root.children();
    let mut n = 1u64;
    while let Ok(Some(child)) = children.next() {
        let c = child.entry();
        if c.tag() != gimli::DW_TAG_subrange_type {
            continue;
        }
        let count = match c.attr_value(gimli::DW_AT_count).ok().flatten() {
            Some(v) => v.udata_value()?,
            None => {
                c.attr_value(gimli::DW_AT_upper_bound)
                    .ok()
                    .flatten()?
                    .udata_value()?
                    + 1
            }
        };
        n = n.checked_mul(count)?;
    }
    Some(n)
}

/// The largest alignment of a structure's members (1 for none).
fn members_align(unit: &Unit<Reader>, off: UnitOffset, depth: u32) -> Option<u64> {
    let mut tree = unit.entries_tree(Some(off)).ok()?;
    let root = tree.root().ok()?;
    let mut children = root.children();
    let mut align = 1;
    while let Ok(Some(child)) = children.next() {
        let c = child.entry();
        if c.tag() != gimli::DW_TAG_member {
            continue;
        }
        let t = c.attr_value(gimli::DW_AT_type).ok().flatten()?;
        align = align.max(type_size_align(unit, t, depth + 1)?.1);
    }
    Some(align)
}

/// The alignment LLVM gives an LDS variable of `size` bytes and alignment `align`
/// (`superAlignLDSGlobals`).
fn super_align(size: u64, align: u64) -> u64 {
    let min = match size {
        0..=1 => 1,
        2 => 2,
        3..=4 => 4,
        5..=8 => 8,
        _ => 16,
    };
    align.max(min)
}

/// LLVM's layout of `vars` (see the module text): each variable's bytes, and the static LDS
/// size the kernel descriptor then gives (the last byte's end, rounded up to a dword: 68 for
/// one `int[17]`, 260 for `float[64]` and a `bool`, as clang-19 builds them).
pub(super) fn lay_out(vars: &[Declared]) -> (Vec<LdsVariable>, u64) {
    let mut order: Vec<&Declared> = vars.iter().collect();
    order.sort_by(|a, b| a.key.cmp(&b.key));
    let mut fields: Vec<(u64, u64, usize)> = order
        .iter()
        .enumerate()
        .map(|(i, v)| (v.size, super_align(v.size, v.align), i))
        .collect();
    fields.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)).then(a.2.cmp(&b.2)));
    let mut placed = Vec::new();
    let mut end = 0u64;
    while !fields.is_empty() {
        // The least padding after `end`, then the most aligned, then the largest, then the
        // earliest: `fields` is already in the order of the last three.
        let best = (0..fields.len())
            .min_by_key(|&i| end.next_multiple_of(fields[i].1) - end)
            .expect("fields remain");
        let (size, align, i) = fields.remove(best);
        let start = end.next_multiple_of(align);
        placed.push(LdsVariable {
            name: order[i].name.clone(),
            start: start as u32,
            end: (start + size) as u32,
        });
        end = start + size;
    }
    placed.sort_by_key(|v| v.start);
    (placed, end.next_multiple_of(4))
}

/// The layout of the variables of kernel `kernel` (its symbol name) among `declared`, when
/// it accounts for `static_lds` bytes exactly: the kernel's own variables, or those and the
/// variables of the functions that are not kernels (`kernels`: every kernel's name), which
/// the kernel may have inlined. Empty otherwise.
pub(super) fn kernel_layout(
    declared: &[(String, Declared)],
    kernel: &str,
    kernels: &[&str],
    static_lds: u32,
) -> Vec<LdsVariable> {
    let own: Vec<Declared> = declared
        .iter()
        .filter(|(f, _)| f == kernel)
        .map(|(_, v)| v.clone())
        .collect();
    let shared: Vec<Declared> = declared
        .iter()
        .filter(|(f, _)| !kernels.contains(&f.as_str()))
        .map(|(_, v)| v.clone())
        .collect();
    let mut with_shared = own.clone();
    with_shared.extend(shared.iter().cloned());
    for vars in [own, with_shared] {
        if vars.is_empty() {
            continue;
        }
        let (layout, size) = lay_out(&vars);
        if size == u64::from(static_lds) {
            return layout;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(key: &str, size: u64, align: u64) -> Declared {
        Declared {
            name: key.to_string(),
            key: key.to_string(),
            size,
            align,
        }
    }

    fn starts(vars: &[Declared]) -> (Vec<(String, u32, u32)>, u64) {
        let (l, size) = lay_out(vars);
        (
            l.into_iter().map(|v| (v.name, v.start, v.end)).collect(),
            size,
        )
    }

    #[test]
    fn variables_go_by_alignment_then_size_then_name() {
        // Two 256-byte arrays and a 128-byte one: all aligned to 16; the larger first, the
        // equal ones by name.
        let (l, size) = starts(&[var("k.b", 256, 4), var("k.c", 128, 4), var("k.a", 256, 4)]);
        assert_eq!(
            l,
            [
                ("k.a".into(), 0, 256),
                ("k.b".into(), 256, 512),
                ("k.c".into(), 512, 640)
            ]
        );
        assert_eq!(size, 640);
        // A 1-byte flag after a 16-aligned array; the size rounds to a dword.
        let (l, size) = starts(&[var("k.flag", 1, 1), var("k.t", 64, 4)]);
        assert_eq!(l, [("k.t".into(), 0, 64), ("k.flag".into(), 64, 65)]);
        assert_eq!(size, 68);
    }

    #[test]
    fn a_gap_takes_the_field_that_needs_the_least_padding() {
        // 20 bytes aligned to 16 leave LastEnd at 20: the 8-aligned field would need 4
        // bytes of padding, the 4-aligned one none, so it goes first.
        let (l, _) = starts(&[var("a", 20, 16), var("b", 8, 8), var("c", 4, 4)]);
        assert_eq!(
            l,
            [
                ("a".into(), 0, 20),
                ("c".into(), 20, 24),
                ("b".into(), 24, 32)
            ]
        );
    }
}
