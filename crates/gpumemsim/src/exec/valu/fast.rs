//! The fast path of [`super::execute_decoded`] and [`super::execute_vopd_decoded`], for the
//! instructions every operand of which is 32 or 64 bits ([`Class::plain`]) and that have no
//! DPP, output modifier or `clamp` — nearly all the VALU work compiled code does.
//!
//! It computes what the general path computes, with less work per instruction: the
//! instruction comes decoded once per program counter ([`super::decoded`]: its fields, read
//! at positions worked out once per table entry ([`Fields`]), its sources resolved, its
//! `abs`/`neg` masks); a source VGPR is read in place (its row of `u32`s, two rows for a
//! 64-bit source) rather than gathered into a row of `u64`s; a uniform source (SGPR,
//! constant, literal) or one with `abs`/`neg` is broadcast into a row on the stack only
//! then; the lane loop is compiled for the wave's size and, for the common operations, for
//! the operation itself (no `match` per lane); with EXEC full it runs over every lane
//! without testing bits; the fused multiply-adds run with the host's FMA instructions when
//! the CPU has them ([`with_host_fma`]). Tests compare it with the general path
//! ([`super::general`]) on random instructions and registers.

use rdna3_isa::regs::NULL;
use rdna3_isa::Instruction;

use super::class::Class;
use super::compare::{self, CmpTy, Pred};
use super::decoded::{Component, Fields, Plan, Src};
use super::f32::F32Op;
use super::f64::F64Op;
use super::int::IntOp;
use super::op::Op;
use super::regs::{get_mask, Loc};
use super::shape::{Ctx, MaskIn, ValuError};
use crate::fp::host_fma::with_host_fma;
use crate::wave::Wave;

/// Executes a VOP1/VOP2/VOPC/VOP3 instruction that [`Fields::fast`] accepts, decoded as
/// `p`.
pub(super) fn execute(inst: &Instruction, w: &mut Wave, p: &Plan) -> Result<(), ValuError> {
    let (c, d) = (p.class, &p.fields);
    if c.shape.rounds && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    let loc = |i: usize| p.src[i].loc(w, c.dwords[i]);
    let locs = [loc(0), loc(1), loc(2)];
    let cx = Ctx::new(w.mode, inst.literal.unwrap_or(0), false);
    let mask_in = match c.shape.mask {
        MaskIn::None => 0,
        MaskIn::VccOrSrc2 if c.vop3 => get_mask(w, d.src[2]),
        MaskIn::VccOrSrc2 | MaskIn::Vcc => w.vcc(),
    };
    let (mods, exec) = (p.mods, w.exec());
    let mask_out = match (w.size, c.wide) {
        (32, false) => lanes_of::<32>(w, c, d, locs, mods, exec, mask_in, &cx),
        (_, false) => lanes_of::<64>(w, c, d, locs, mods, exec, mask_in, &cx),
        (32, true) => wide_of::<32>(w, c, d, locs, mods, exec, mask_in, &cx),
        (_, true) => wide_of::<64>(w, c, d, locs, mods, exec, mask_in, &cx),
    };
    super::write_mask(w, c, d.vdst, d.sdst, mask_out);
    Ok(())
}

/// [`execute`] of a plan of the row form ([`Plan::rows`]) in a wave of `N` lanes: each
/// source a row (a VGPR's own, or a uniform value's made on the stack), the operation over
/// every lane in a loop compiled for it ([`by_rows`]), the lanes in EXEC written to VDST.
/// The lanes outside EXEC are computed too and dropped: the operation has no effect but its
/// result, and a loop over every lane vectorises.
pub(super) fn rows<const N: usize>(
    inst: &Instruction,
    w: &mut Wave,
    p: &Plan,
) -> Result<(), ValuError> {
    let c = p.class;
    if c.shape.rounds && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    // MODE's float controls and the literal matter to the float operations alone.
    let cx = match c.op {
        Op::F32(_) => Ctx::new(w.mode, inst.literal.unwrap_or(0), false),
        _ => Ctx::new(0, 0, false),
    };
    let vdst = p.fields.vdst;
    let mut out = [0u32; N];
    {
        let mut bufs = [None, None, None];
        let [b0, b1, b2] = &mut bufs;
        let s0 = source::<N>(w, p.src[0], b0);
        let s1 = source::<N>(w, p.src[1], b1);
        // The e32 accumulating forms read their destination as source 2.
        let s2 = match c.shape.acc {
            true => row::<N>(w, vdst),
            false => source::<N>(w, p.src[2], b2),
        };
        by_rows::<N>(c.op, [s0, s1, s2], &cx, &mut out);
    }
    let exec = w.exec();
    write_row(w, vdst, exec, &out);
    Ok(())
}

/// Every lane's value of the 32-bit source `src` in wave `w`: a VGPR's own row, else a row
/// of its one value made in `buf`.
#[inline(always)]
fn source<'a, const N: usize>(
    w: &'a Wave,
    src: Src,
    buf: &'a mut Option<[u32; N]>,
) -> &'a [u32; N] {
    match src {
        Src::Vgpr(reg) => row::<N>(w, reg),
        Src::None => zeros::<N>(),
        Src::Value(v) => buf.insert([v as u32; N]),
        Src::Scalar(code) => buf.insert([w.ssrc32(code, None); N]),
    }
}

/// Runs operation `op` (one [`Op::by_rows`] takes) over every lane of rows `src` into `out`,
/// in a loop of its own for each operation (the lane's `match` resolved at compile time);
/// the fused multiply-adds with the host's FMA instructions where the CPU has them.
#[inline(always)]
fn by_rows<const N: usize>(op: Op, src: [&[u32; N]; 3], cx: &Ctx, out: &mut [u32; N]) {
    use F32Op as F;
    use IntOp as I;
    macro_rules! go {
        ($op:expr) => {
            for l in 0..N {
                let s = [src[0][l] as u64, src[1][l] as u64, src[2][l] as u64];
                out[l] = $op.eval(s, false, l as u32, cx).0 as u32;
            }
        };
    }
    // The fused multiply-adds as `F32Op::eval` computes them, on rows (the literal K as a
    // row of its own).
    let fma = |a: &[u32; N], b: &[u32; N], c: &[u32; N], out: &mut [u32; N]| {
        with_host_fma(
            #[inline(always)]
            || {
                for l in 0..N {
                    out[l] = crate::fp::arith::fma32(a[l], b[l], c[l], cx.ctl32);
                }
            },
        )
    };
    match op {
        Op::F32(F::Fma | F::Fmac) => fma(src[0], src[1], src[2], out),
        Op::F32(F::Fmaak) => fma(src[0], src[1], &[cx.k; N], out),
        Op::F32(F::Fmamk) => fma(src[0], &[cx.k; N], src[1], out),
        Op::F32(F::Add) => go!(Op::F32(F::Add)),
        Op::F32(F::Sub) => go!(Op::F32(F::Sub)),
        Op::F32(F::Subrev) => go!(Op::F32(F::Subrev)),
        Op::F32(F::Mul) => go!(Op::F32(F::Mul)),
        Op::F32(F::Max) => go!(Op::F32(F::Max)),
        Op::F32(F::Min) => go!(Op::F32(F::Min)),
        Op::Int(I::Mov) => go!(Op::Int(I::Mov)),
        Op::Int(I::Not) => go!(Op::Int(I::Not)),
        Op::Int(I::And) => go!(Op::Int(I::And)),
        Op::Int(I::Or) => go!(Op::Int(I::Or)),
        Op::Int(I::Xor) => go!(Op::Int(I::Xor)),
        Op::Int(I::Lshl) => go!(Op::Int(I::Lshl)),
        Op::Int(I::Lshr) => go!(Op::Int(I::Lshr)),
        Op::Int(I::Ashr) => go!(Op::Int(I::Ashr)),
        Op::Int(I::AddNc) => go!(Op::Int(I::AddNc)),
        Op::Int(I::SubNc) => go!(Op::Int(I::SubNc)),
        Op::Int(I::MulLo) => go!(Op::Int(I::MulLo)),
        Op::Int(I::MulU24) => go!(Op::Int(I::MulU24)),
        Op::Int(I::LshlAdd) => go!(Op::Int(I::LshlAdd)),
        Op::Int(I::Add3) => go!(Op::Int(I::Add3)),
        Op::Int(I::LshlOr) => go!(Op::Int(I::LshlOr)),
        Op::Int(I::AndOr) => go!(Op::Int(I::AndOr)),
        Op::Int(I::BfeU) => go!(Op::Int(I::BfeU)),
        Op::Int(I::MinI) => go!(Op::Int(I::MinI)),
        Op::Int(I::MaxI) => go!(Op::Int(I::MaxI)),
        Op::Int(I::MinU) => go!(Op::Int(I::MinU)),
        Op::Int(I::MaxU) => go!(Op::Int(I::MaxU)),
        op => go!(op),
    }
}

/// The lane work of [`execute`] in a wave of `N` lanes: computes every lane in `exec`,
/// writes the destination VGPR, returns the lane mask the operation set.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn lanes_of<const N: usize>(
    w: &mut Wave,
    c: &Class,
    d: &Fields,
    locs: [Loc; 3],
    mods: [(u64, u64); 3],
    exec: u64,
    mask_in: u64,
    cx: &Ctx,
) -> u64 {
    let mods = mods.map(|(and, xor)| (and as u32, xor as u32));
    let mut out = [0u32; N];
    let mask_out = {
        let mut bufs = [None, None, None];
        let [b0, b1, b2] = &mut bufs;
        let s0 = operand::<N>(w, locs[0], mods[0], b0);
        let s1 = operand::<N>(w, locs[1], mods[1], b1);
        // The e32 accumulating forms read their destination as source 2, unmodified.
        let s2 = if c.shape.acc {
            row::<N>(w, d.vdst)
        } else {
            operand::<N>(w, locs[2], mods[2], b2)
        };
        eval_rows::<N>(c.op, exec, [s0, s1, s2], mask_in, cx, &mut out)
    };
    if c.dst_dwords != 0 {
        write_row(w, d.vdst, exec, &out);
    }
    mask_out
}

/// [`lanes_of`] for an instruction with a 64-bit source or result: a 64-bit source is read
/// from its two rows (or a 64-bit uniform value), a 64-bit result written to two.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn wide_of<const N: usize>(
    w: &mut Wave,
    c: &Class,
    d: &Fields,
    locs: [Loc; 3],
    mods: [(u64, u64); 3],
    exec: u64,
    mask_in: u64,
    cx: &Ctx,
) -> u64 {
    let mut out = [[0u32; N]; 2];
    let mask_out = {
        let mut bufs = [[None, None], [None, None], [None, None]];
        let [b0, b1, b2] = &mut bufs;
        let s0 = operand64::<N>(w, locs[0], c.dwords[0], mods[0], b0);
        let s1 = operand64::<N>(w, locs[1], c.dwords[1], mods[1], b1);
        // The e32 accumulating forms read their destination as source 2, unmodified.
        let s2 = if c.shape.acc {
            [row::<N>(w, d.vdst), zeros::<N>()]
        } else {
            operand64::<N>(w, locs[2], c.dwords[2], mods[2], b2)
        };
        let src = [s0, s1, s2];
        macro_rules! go {
            ($op:expr) => {
                wide_lanes::<N>(
                    exec,
                    src,
                    mask_in,
                    &mut out,
                    #[inline(always)]
                    |s, m, l| $op.eval(s, m, l, cx),
                )
            };
        }
        match c.op {
            Op::F64(F64Op::Fma) => with_host_fma(
                #[inline(always)]
                || go!(Op::F64(F64Op::Fma)),
            ),
            // The carry-out goes to `sdst`: compiled code mostly names `null` there.
            Op::Int(IntOp::MadU64) if d.sdst == NULL => {
                mad_u64_rows::<N>(src, &mut out);
                0
            }
            Op::Int(IntOp::MadU64) => mad_u64_rows_carry::<N>(exec, src, &mut out),
            Op::Int(op @ (IntOp::Lshl64 | IntOp::Lshr64 | IntOp::Ashr64)) => {
                shift64_rows::<N>(op, src, &mut out);
                0
            }
            op => go!(op),
        }
    };
    if c.dst_dwords != 0 {
        write_row(w, d.vdst, exec, &out[0]);
        if c.dst_dwords == 2 {
            write_row(w, d.vdst + 1, exec, &out[1]);
        }
    }
    mask_out
}

/// The low and high dwords of every lane's value of a source of `dwords` (1 or 2) at
/// `loc`, with `and` then `xor` applied (a 32-bit source's high dword is 0).
#[inline(always)]
fn operand64<'a, const N: usize>(
    w: &'a Wave,
    loc: Loc,
    dwords: u8,
    (and, xor): (u64, u64),
    [lo, hi]: &'a mut [Option<[u32; N]>; 2],
) -> [&'a [u32; N]; 2] {
    let high = match loc {
        _ if dwords != 2 => return [operand::<N>(w, loc, (and as u32, xor as u32), lo), zeros()],
        Loc::Vgpr { reg, hi } => Loc::Vgpr { reg: reg + 1, hi },
        Loc::Uniform(v) => Loc::Uniform(v >> 32),
        Loc::None => Loc::None,
    };
    let mods_hi = ((and >> 32) as u32, (xor >> 32) as u32);
    [
        operand::<N>(w, loc, (and as u32, xor as u32), lo),
        operand::<N>(w, high, mods_hi, hi),
    ]
}

/// [`lanes`] on 64-bit values: each source's value is its low row's dword and its high
/// row's, each result's low and high dwords go to `out[0]` and `out[1]`.
#[inline(always)]
fn wide_lanes<const N: usize>(
    exec: u64,
    src: [[&[u32; N]; 2]; 3],
    mask_in: u64,
    out: &mut [[u32; N]; 2],
    f: impl Fn([u64; 3], bool, u32) -> (u64, bool),
) -> u64 {
    let at = |i: usize, l: usize| src[i][0][l] as u64 | (src[i][1][l] as u64) << 32;
    let mut mask_out = 0u64;
    let mut left = exec;
    while left != 0 {
        let l = left.trailing_zeros() as usize % N;
        left &= left - 1;
        let (r, bit) = f(
            [at(0, l), at(1, l), at(2, l)],
            mask_in >> l & 1 == 1,
            l as u32,
        );
        out[0][l] = r as u32;
        out[1][l] = (r >> 32) as u32;
        mask_out |= (bit as u64) << l;
    }
    mask_out
}

/// `v_mad_u64_u32` (without `clamp`, as on the fast path) over every lane at once, in a
/// loop the compiler vectorizes: the 32 × 32-bit product of the sources' low rows plus
/// source 2's 64 bits, wrapping. Lanes outside `exec` are computed and dropped: `write_row`
/// writes only `exec`'s lanes.
#[inline(always)]
fn mad_u64_rows<const N: usize>([a, b, c]: [[&[u32; N]; 2]; 3], out: &mut [[u32; N]; 2]) {
    for l in 0..N {
        let addend = u64::from(c[0][l]) | u64::from(c[1][l]) << 32;
        let r = (u64::from(a[0][l]) * u64::from(b[0][l])).wrapping_add(addend);
        out[0][l] = r as u32;
        out[1][l] = (r >> 32) as u32;
    }
}

/// [`mad_u64_rows`] with the carry-out: returns the lanes in `exec` whose sum carried out
/// of bit 63 (the 128-bit sum's bit 64, as [`IntOp::eval`] gives it).
#[inline(always)]
fn mad_u64_rows_carry<const N: usize>(
    exec: u64,
    [a, b, c]: [[&[u32; N]; 2]; 3],
    out: &mut [[u32; N]; 2],
) -> u64 {
    let mut carries = 0u64;
    for l in 0..N {
        let addend = u64::from(c[0][l]) | u64::from(c[1][l]) << 32;
        let (r, carry) = (u64::from(a[0][l]) * u64::from(b[0][l])).overflowing_add(addend);
        out[0][l] = r as u32;
        out[1][l] = (r >> 32) as u32;
        carries |= u64::from(carry) << l;
    }
    carries & exec
}

/// `v_lshlrev_b64`, `v_lshrrev_b64` and `v_ashrrev_i64` over every lane at once, a loop
/// per operation the compiler vectorizes: source 1's 64 bits shifted by source 0's low six
/// bits, as [`IntOp::eval`] does. Lanes outside `exec` are computed and dropped
/// (`write_row` writes only `exec`'s lanes); they set no bit.
#[inline(always)]
fn shift64_rows<const N: usize>(
    op: IntOp,
    [a, b, _]: [[&[u32; N]; 2]; 3],
    out: &mut [[u32; N]; 2],
) {
    macro_rules! each {
        ($f:expr) => {
            for l in 0..N {
                let x = u64::from(b[0][l]) | u64::from(b[1][l]) << 32;
                let r: u64 = $f(x, a[0][l] & 63);
                out[0][l] = r as u32;
                out[1][l] = (r >> 32) as u32;
            }
        };
    }
    match op {
        IntOp::Lshl64 => each!(|x: u64, n: u32| x << n),
        IntOp::Lshr64 => each!(|x: u64, n: u32| x >> n),
        _ => each!(|x: u64, n: u32| ((x as i64) >> n) as u64),
    }
}

/// 64 lanes of 0, the value of a VGPR never written.
static ZERO: [u32; 64] = [0; 64];

/// `N` lanes of 0.
#[inline(always)]
fn zeros<const N: usize>() -> &'static [u32; N] {
    ZERO[..N].try_into().expect("at most 64 lanes")
}

/// VGPR `reg`'s lanes in a wave of `N` lanes (every lane 0 while it has never been written).
#[inline(always)]
fn row<const N: usize>(w: &Wave, reg: u32) -> &[u32; N] {
    match w.vgpr_row(reg) {
        Some(r) => r.try_into().expect("a VGPR row has the wave's size"),
        None => zeros::<N>(),
    }
}

/// Every lane's value of a 32-bit source at `loc`, with `and` then `xor` applied (`abs`,
/// `neg`): the VGPR's own row when there is nothing to apply, else a row made in `buf`.
#[inline(always)]
fn operand<'a, const N: usize>(
    w: &'a Wave,
    loc: Loc,
    (and, xor): (u32, u32),
    buf: &'a mut Option<[u32; N]>,
) -> &'a [u32; N] {
    let plain = and == !0 && xor == 0;
    match loc {
        Loc::Vgpr { reg, .. } if plain => row::<N>(w, reg),
        Loc::Vgpr { reg, .. } => buf.insert(row::<N>(w, reg).map(|x| (x & and) ^ xor)),
        Loc::Uniform(v) => buf.insert([(v as u32 & and) ^ xor; N]),
        Loc::None if plain => zeros::<N>(),
        // An absent source reads 0.
        Loc::None => buf.insert([xor; N]),
    }
}

/// Writes the lanes in `exec` of `out` to VGPR `reg` (nothing when `exec` is empty, the
/// file then not growing, as in the general path).
#[inline(always)]
fn write_row<const N: usize>(w: &mut Wave, reg: u32, exec: u64, out: &[u32; N]) {
    if exec == 0 {
        return;
    }
    let Some(row) = w.vgpr_row_mut(reg) else {
        return;
    };
    let row: &mut [u32; N] = row.try_into().expect("a VGPR row has the wave's size");
    if exec == full::<N>() {
        *row = *out;
    } else {
        for (l, (x, &v)) in row.iter_mut().zip(out).enumerate() {
            if exec >> l & 1 == 1 {
                *x = v;
            }
        }
    }
}

/// EXEC with every lane of a wave of `N` lanes.
#[inline(always)]
const fn full<const N: usize>() -> u64 {
    u64::MAX >> (64 - N)
}

/// Runs `f(sources, mask bit, lane)` for the lanes in `exec` of rows `src`, into `out`;
/// returns the lanes whose carry or flag bit `f` set. With `exec` full the loop runs over
/// every lane, testing no bits.
#[inline(always)]
fn lanes<const N: usize>(
    exec: u64,
    src: [&[u32; N]; 3],
    mask_in: u64,
    out: &mut [u32; N],
    f: impl Fn([u64; 3], bool, u32) -> (u64, bool),
) -> u64 {
    let mut mask_out = 0u64;
    // One lane's work, written out in both loops (a closure called twice is not always
    // inlined, and then the operation's `match` would not be resolved).
    macro_rules! lane {
        ($l:expr) => {{
            let l: usize = $l;
            let s = [src[0][l] as u64, src[1][l] as u64, src[2][l] as u64];
            let (r, bit) = f(s, mask_in >> l & 1 == 1, l as u32);
            out[l] = r as u32;
            mask_out |= (bit as u64) << l;
        }};
    }
    if exec == full::<N>() {
        for l in 0..N {
            lane!(l);
        }
    } else {
        let mut left = exec;
        while left != 0 {
            let l = left.trailing_zeros() as usize % N;
            left &= left - 1;
            lane!(l);
        }
    }
    mask_out
}

/// Runs operation `op` over the lanes in `exec` of rows `src` into `out`; returns the lanes
/// whose carry or compare bit it set. The operations of the row form ([`Op::by_rows`]) run
/// as [`by_rows`] runs them, over every lane (the lanes outside `exec` are computed and
/// dropped when written; they set no bit); the others with a carry or a mask in or out get a
/// loop of their own, their per-lane `match` resolved at compile time.
#[inline(always)]
pub(super) fn eval_rows<const N: usize>(
    op: Op,
    exec: u64,
    src: [&[u32; N]; 3],
    mask_in: u64,
    cx: &Ctx,
    out: &mut [u32; N],
) -> u64 {
    use IntOp as I;
    if op.by_rows() {
        by_rows::<N>(op, src, cx, out);
        return 0;
    }
    macro_rules! go {
        ($op:expr) => {
            lanes::<N>(
                exec,
                src,
                mask_in,
                out,
                #[inline(always)]
                |s, m, l| $op.eval(s, m, l, cx),
            )
        };
    }
    match op {
        Op::Int(I::AddCo) if !cx.clamp => add_rows::<N>(exec, src, 0, out),
        Op::Int(I::AddCi) if !cx.clamp => add_rows::<N>(exec, src, mask_in, out),
        Op::Int(I::AddCo) => go!(Op::Int(I::AddCo)),
        Op::Int(I::AddCi) => go!(Op::Int(I::AddCi)),
        Op::Int(I::Cndmask) => go!(Op::Int(I::Cndmask)),
        Op::Cmp(p, t @ (CmpTy::U32 | CmpTy::I32 | CmpTy::F32)) if p != Pred::Class => {
            compare_rows::<N>(p, t, exec, src, cx, out)
        }
        op => go!(op),
    }
}

/// `v_add_co_u32` and `v_add_co_ci_u32` without `clamp` over every lane at once: each
/// lane's 32-bit sum of sources 0 and 1 and its bit of `carry_in` (0 for `v_add_co_u32`),
/// as [`IntOp::eval`] adds them; returns the lanes in `exec` that carried out (the others'
/// results are dropped when written).
#[inline(always)]
fn add_rows<const N: usize>(
    exec: u64,
    [a, b, _]: [&[u32; N]; 3],
    carry_in: u64,
    out: &mut [u32; N],
) -> u64 {
    let mut carries = 0u64;
    for l in 0..N {
        let t = u64::from(a[l]) + u64::from(b[l]) + (carry_in >> l & 1);
        out[l] = t as u32;
        carries |= (t >> 32) << l;
    }
    carries & exec
}

/// [`eval_rows`] of a u32, i32 or f32 comparison with predicate `p` (not a class test): the
/// lane mask of the lanes in `exec` where it holds (the lanes' results in `out` are 0). Each lane tests its outcome's bit in the
/// predicate's mask ([`compare::outcomes`]), in a loop compiled for the type.
#[inline(always)]
fn compare_rows<const N: usize>(
    p: Pred,
    t: CmpTy,
    exec: u64,
    src: [&[u32; N]; 3],
    cx: &Ctx,
    out: &mut [u32; N],
) -> u64 {
    let holds = compare::outcomes(p, t == CmpTy::F32);
    macro_rules! go {
        ($t:expr) => {
            lanes::<N>(
                exec,
                src,
                0,
                out,
                #[inline(always)]
                |s, _, _| (0, holds >> compare::order($t, s[0], s[1], cx) & 1 == 1),
            )
        };
    }
    match t {
        CmpTy::U32 => go!(CmpTy::U32),
        CmpTy::I32 => go!(CmpTy::I32),
        _ => go!(CmpTy::F32),
    }
}

/// Executes the two components of a VOPD instruction in a wave of `N` lanes: both read
/// their sources (`src0`, `vsrc1`, and the destination as the accumulator) for every lane
/// in EXEC before either writes; `v_dual_cndmask` reads VCC.
pub(super) fn vopd<const N: usize>(w: &mut Wave, parts: &[Component; 2], cx: &Ctx) {
    let (vcc, exec) = (w.vcc(), w.exec());
    let mut results = [[0u32; N]; 2];
    for (p, out) in parts.iter().zip(results.iter_mut()) {
        let mut buf = None;
        let s0 = operand::<N>(w, p.src0, (!0, 0), &mut buf);
        let s1 = p.vsrc1.map_or(zeros::<N>(), |r| row::<N>(w, r));
        let s2 = row::<N>(w, p.vdst);
        eval_rows::<N>(p.op, exec, [s0, s1, s2], vcc, cx, out);
    }
    for (p, out) in parts.iter().zip(results.iter()) {
        write_row(w, p.vdst, exec, out);
    }
}
