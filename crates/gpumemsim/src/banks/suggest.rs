//! Searching simple layout fixes for a conflicting access: padding and XOR swizzles.

use std::fmt;

use super::access::{Access, AccessError, LaneAddress};
use super::counters::AccessCost;
use super::model::{Alignment, BankModel};

/// A change of data layout: a bijective map from old byte addresses to new ones that the user
/// applies to every access of the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Insert `add` bytes of padding after every `every` bytes (e.g. one float per row of a
    /// tile): `addr + addr / every * add`.
    Pad {
        /// Row length in bytes (a power of two).
        every: u64,
        /// Padding bytes per row.
        add: u64,
    },
    /// XOR the low `bits` bits of the row number `addr >> row_shift` into the column bits at
    /// `col_shift`: `addr ^ (((addr >> row_shift) & (2^bits - 1)) << col_shift)`. Moves data
    /// only within a row (`col_shift + bits <= row_shift`).
    Xor {
        /// log2 of the row length in bytes.
        row_shift: u32,
        /// log2 of the swizzled unit in bytes (at least the access width).
        col_shift: u32,
        /// Row bits XORed in.
        bits: u32,
    },
}

impl Layout {
    /// The new address of `addr`.
    pub fn apply(&self, addr: u64) -> u64 {
        match *self {
            Layout::Pad { every, add } => addr.wrapping_add(addr / every * add),
            Layout::Xor {
                row_shift,
                col_shift,
                bits,
            } => addr ^ (((addr >> row_shift) & ((1 << bits) - 1)) << col_shift),
        }
    }

    /// The map as a [`crate::expr`] expression in the variable `addr`.
    pub fn expression(&self) -> String {
        match *self {
            Layout::Pad { every, add } => format!("addr + addr / {every} * {add}"),
            Layout::Xor {
                row_shift,
                col_shift,
                bits,
            } => format!(
                "addr ^ (((addr >> {row_shift}) & {}) << {col_shift})",
                (1u64 << bits) - 1
            ),
        }
    }

    /// Extra memory the layout needs, as a fraction of the original (0 for swizzles).
    pub fn overhead(&self) -> f64 {
        match *self {
            Layout::Pad { every, add } => add as f64 / every as f64,
            Layout::Xor { .. } => 0.0,
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Layout::Pad { every, add } => write!(f, "pad {add} B after every {every} B"),
            Layout::Xor {
                row_shift,
                col_shift,
                bits,
            } => write!(
                f,
                "swizzle: XOR row bits {}..{} into address bits {}..{}",
                row_shift,
                row_shift + bits - 1,
                col_shift,
                col_shift + bits - 1
            ),
        }
    }
}

/// A layout and the access's cost under it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Suggestion {
    /// The layout.
    pub layout: Layout,
    /// The access's cost with every address mapped through it.
    pub cost: AccessCost,
}

/// Tries padding (every `N` bytes add `P`, `N` a power of two, `P` a few multiples of the
/// bank width, or of the access width where the model needs natural alignment) and XOR
/// swizzles of row bits into column bits (rows of `2^r` bytes, units of at least the access
/// width), and returns the best `limit` of those that make the access cheaper, with their
/// costs, cheapest first (ties: less memory overhead, then simpler). A layout is left out when an earlier one of its kind is no dearer
/// and needs no more memory, and at most `limit - limit / 2` are of one kind, so both kinds
/// show when both help.
pub fn suggest_layouts<A: LaneAddress>(
    model: &BankModel,
    access: &Access<A>,
    limit: usize,
) -> Result<Vec<Suggestion>, AccessError> {
    let baseline = model.cost(access)?;
    let shape = access.shape;
    let active_addrs = || {
        (0..shape.wave.lanes() as usize)
            .filter(move |&l| shape.active >> l & 1 == 1)
            .flat_map(move |l| {
                std::iter::once(access.addrs[l].byte_address())
                    .chain(access.addrs1.map(|a| a[l].byte_address()))
            })
    };
    let top = active_addrs()
        .max()
        .unwrap_or(0)
        .saturating_add(shape.width as u64);
    let width_unit = if shape.width.is_power_of_two() {
        shape.width
    } else {
        4
    };
    let unit = match model.alignment() {
        Alignment::Natural => width_unit.max(model.bank_width()),
        Alignment::Any => model.bank_width(),
    } as u64;
    let unit_log = unit.trailing_zeros();
    let vector_log = width_unit.max(model.bank_width()).trailing_zeros();
    let bank_span_log = (model.banks() * model.bank_width()).trailing_zeros();
    let mut candidates = Vec::new();
    for row_shift in (unit_log + 1)..=20 {
        let every = 1u64 << row_shift;
        if every >= top {
            break;
        }
        for k in [1, 2, 3, 4, 8] {
            let add = k * unit;
            if add < every {
                candidates.push(Layout::Pad { every, add });
            }
        }
        for col_shift in vector_log..bank_span_log.max(vector_log + 1) {
            for bits in 1..=(row_shift.saturating_sub(col_shift)).min(8) {
                candidates.push(Layout::Xor {
                    row_shift,
                    col_shift,
                    bits,
                });
            }
        }
    }
    let lanes = shape.wave.lanes() as usize;
    let mut a0 = vec![0u64; lanes];
    let mut a1 = vec![0u64; lanes];
    let mut found: Vec<Suggestion> = Vec::new();
    for layout in candidates {
        for l in 0..lanes {
            a0[l] = layout.apply(access.addrs[l].byte_address());
            if let Some(b) = access.addrs1 {
                a1[l] = layout.apply(b[l].byte_address());
            }
        }
        let mapped = Access {
            shape,
            addrs: a0.as_slice(),
            addrs1: access.addrs1.map(|_| a1.as_slice()),
        };
        match model.cost(&mapped) {
            Ok(cost) if cost.cost < baseline.cost => found.push(Suggestion { layout, cost }),
            _ => {}
        }
    }
    found.sort_by(|x, y| {
        x.cost
            .cost
            .cmp(&y.cost.cost)
            .then(x.layout.overhead().total_cmp(&y.layout.overhead()))
            .then(complexity(&x.layout).cmp(&complexity(&y.layout)))
    });
    let per_kind = limit - limit / 2;
    let (mut pads, mut xors) = (0, 0);
    let mut best = Vec::new();
    for s in found {
        if best.len() == limit {
            break;
        }
        let n = match s.layout {
            Layout::Pad { .. } => &mut pads,
            Layout::Xor { .. } => &mut xors,
        };
        // Skip what an earlier pick of the same kind beats: no dearer and no more memory.
        let dominated = best.iter().any(|b: &Suggestion| {
            std::mem::discriminant(&b.layout) == std::mem::discriminant(&s.layout)
                && b.cost.cost <= s.cost.cost
                && b.layout.overhead() <= s.layout.overhead()
        });
        if *n < per_kind && !dominated {
            *n += 1;
            best.push(s);
        }
    }
    Ok(best)
}

/// Simpler first: fewer XORed bits, shorter rows, smaller units.
fn complexity(layout: &Layout) -> (u32, u64, u64) {
    match *layout {
        Layout::Pad { every, add } => (0, every, add),
        Layout::Xor {
            row_shift,
            col_shift,
            bits,
        } => (bits, 1 << row_shift, 1 << col_shift),
    }
}
