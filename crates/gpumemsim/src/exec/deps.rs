//! Dependency latency (docs/rules/timing.md#dependencies): a VALU result is ready `valu_latency`
//! cycles after its instruction issues (`trans_latency` for a transcendental, `f64_latency`
//! for a double-precision operation), a SALU result `salu_latency` cycles after for the VALU
//! and at once for the SALU; an instruction that reads a register before it is ready waits
//! (the hardware interlocks). `s_delay_alu` is the compiler's declaration of such a wait: a
//! declared wait lets the SIMD issue other waves' VALU instructions meanwhile, a wait nothing
//! declared holds the SIMD's VALU (docs/rules/timing.md#delay-alu). Either way the model
//! counts whether the declarations agree with its latencies ([`DelayAluStats`]).

use rdna3_isa::def::{Implicit, Kind};
use rdna3_isa::{Field, Format, Instruction};

use crate::timing::TimingParams;
use crate::wave::{EXEC_LO, VCC_LO};

/// What produces an instruction's results, for their latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Producer {
    /// A vector ALU operation.
    Valu,
    /// A transcendental (`v_exp`, `v_log`, `v_rcp`, `v_rsq`, `v_sqrt`, `v_sin`, `v_cos`).
    Trans,
    /// A double-precision operation.
    F64,
    /// A quarter-rate operation ([`is_quarter_rate`]).
    Quarter,
    /// A scalar ALU operation.
    Salu,
    /// Anything else (memory results arrive through the wait counters; program control
    /// writes nothing a later instruction waits for).
    Other,
}

impl Producer {
    fn latency(self, t: &TimingParams) -> u64 {
        match self {
            Producer::Valu => t.valu_latency,
            Producer::Trans => t.trans_latency,
            Producer::F64 => t.f64_latency,
            Producer::Quarter => t.quarter_latency,
            Producer::Salu => t.salu_latency,
            Producer::Other => 0,
        }
    }

    fn is_vector(self) -> bool {
        matches!(
            self,
            Producer::Valu | Producer::Trans | Producer::F64 | Producer::Quarter
        )
    }
}

/// What one instruction of the program reads and writes, for the dependency check; worked
/// out once per instruction.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DepShape {
    /// VGPRs read at issue (bit = register).
    pub vreads: [u64; 4],
    /// VGPRs written at issue.
    pub vwrites: [u64; 4],
    /// SGPRs (operand codes 0..128) read.
    pub sreads: u128,
    /// SGPRs written.
    pub swrites: u128,
    /// What produces its results.
    pub producer: Option<Producer>,
    /// Whether it reads like a VALU (and so waits for SALU results too).
    pub vector_reader: bool,
    /// `vreads`, `vwrites`, `sreads` and `swrites` as lists, walked at each execution
    /// rather than the sets' words (`None`: too many registers for a [`RegList`]: the sets).
    pub lists: Option<ShapeLists>,
}

/// A [`DepShape`]'s registers as lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ShapeLists {
    vreads: RegList,
    vwrites: RegList,
    sreads: RegList,
    swrites: RegList,
}

/// Registers a [`RegList`] holds at most: more than any instruction's operands but the
/// widest (WMMA, image and multi-dword memory forms).
const REG_LIST: usize = 15;

/// A short list of register numbers (below 256), ascending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RegList {
    len: u8,
    regs: [u8; REG_LIST],
}

impl RegList {
    /// The registers of the bit set `words` (64 registers a word), or `None` when there are
    /// more than a list holds.
    fn of(words: &[u64]) -> Option<RegList> {
        let mut l = RegList::default();
        for (w, &word) in words.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let slot = l.regs.get_mut(usize::from(l.len))?;
                *slot = (w * 64) as u8 + word.trailing_zeros() as u8;
                l.len += 1;
                word &= word - 1;
            }
        }
        Some(l)
    }

    /// The registers.
    #[inline]
    fn regs(&self) -> &[u8] {
        &self.regs[..usize::from(self.len).min(REG_LIST)]
    }
}

impl ShapeLists {
    /// The lists of `shape`'s sets, when each fits.
    fn of(shape: &DepShape) -> Option<ShapeLists> {
        let words = |m: u128| [m as u64, (m >> 64) as u64];
        Some(ShapeLists {
            vreads: RegList::of(&shape.vreads)?,
            vwrites: RegList::of(&shape.vwrites)?,
            sreads: RegList::of(&words(shape.sreads))?,
            swrites: RegList::of(&words(shape.swrites))?,
        })
    }
}

impl DepShape {
    /// The shape of `inst`. `vreads`/`vwrites` come from the executor's VGPR walk
    /// (returning memory destinations left out: they land through the wait counters).
    pub(crate) fn of(inst: &Instruction, vreads: [u64; 4], vwrites: [u64; 4]) -> DepShape {
        let d = inst.def();
        let producer = producer_of(inst);
        let vector = d.format.is_valu();
        let mut sreads = super::scalar_mem::scalar_read_mask(inst);
        if vector {
            sreads |= 3 << EXEC_LO;
        }
        DepShape {
            vreads,
            vwrites: if producer.is_vector() {
                vwrites
            } else {
                [0; 4]
            },
            sreads,
            swrites: if producer == Producer::Other {
                0
            } else {
                scalar_write_mask(inst)
            },
            producer: Some(producer),
            vector_reader: vector,
            lists: None,
        }
        .listed()
    }

    /// The shape with its lists made from its sets.
    pub(crate) fn listed(mut self) -> DepShape {
        self.lists = ShapeLists::of(&self);
        self
    }
}

/// The producer class of `inst`.
fn producer_of(inst: &Instruction) -> Producer {
    let d = inst.def();
    match d.format {
        Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk => Producer::Salu,
        f if f.is_valu() => {
            let name = d.name;
            if is_trans(name) {
                Producer::Trans
            } else if is_f64(name) {
                Producer::F64
            } else if is_quarter_rate(name) {
                Producer::Quarter
            } else {
                Producer::Valu
            }
        }
        _ => Producer::Other,
    }
}

/// Whether the VALU operation `name` is a double-precision one (its issue rate and latency are
/// FP64's).
pub(crate) fn is_f64(name: &str) -> bool {
    name.contains("_f64")
}

/// Whether the VALU operation `name` is a single- or half-precision transcendental, run by
/// the SIMD's transcendental unit (`v_exp`, `v_log`, `v_rcp`, `v_rsq`, `v_sqrt`, `v_sin`,
/// `v_cos`, their `_f16` and `v_rcp_iflag` forms; the `_f64` ones are FP64 operations): Mesa
/// ACO's `valu_transcendental32` class, LLVM's `WriteTrans32`.
pub(crate) fn is_trans(name: &str) -> bool {
    [
        "v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_",
    ]
    .iter()
    .any(|p| name.starts_with(p))
        && !name.contains("_f64")
}

/// Whether the VALU operation `name` runs at a quarter of the full rate: the 32-bit integer
/// multiplies and `v_mqsad_u32_u8`, Mesa ACO's `valu_quarter_rate32` class
/// (`aco_opcodes.py`: `v_mul_lo_u32`, `v_mul_hi_u32`, `v_mul_hi_i32`, `v_mqsad_u32_u8`),
/// LLVM's `WriteIntMul`/`WriteQuarterRate32` (`SISchedule.td`, GFX11SpeedModel: 8 cycles).
pub(crate) fn is_quarter_rate(name: &str) -> bool {
    let base = name.strip_suffix("_e64").unwrap_or(name);
    matches!(
        base,
        "v_mul_lo_u32" | "v_mul_hi_u32" | "v_mul_hi_i32" | "v_mqsad_u32_u8"
    )
}

/// The SGPRs (operand codes below 128) `inst` writes: scalar destinations, VOPC's implicit
/// VCC, and the carry-out VCC of the VOP2 carry forms.
fn scalar_write_mask(inst: &Instruction) -> u128 {
    let d = inst.def();
    let mut mask = 0u128;
    let mut reg = |code: u32, n: u32| {
        if code < 128 && code != rdna3_isa::inst::SGPR_NULL {
            for r in code..(code + n).min(128) {
                mask |= 1 << r;
            }
        }
    };
    for (i, o) in d.operands.iter().enumerate() {
        match o.kind {
            Kind::S(n) if !(d.format == Format::Sopk && d.name.starts_with("s_cmpk")) => {
                reg(inst.get(o.field), n as u32)
            }
            Kind::Implicit(Implicit::VccLo) if i == 0 => reg(VCC_LO, 1),
            _ => {}
        }
    }
    if d.format == Format::Vop1 && d.name == "v_readfirstlane_b32" {
        reg(inst.get(Field::Vdst), 1);
    }
    mask
}

/// `s_delay_alu`'s dependency codes (RDNA3 ISA guide, S_DELAY_ALU): 1–4 VALU_DEP_1..4,
/// 5–7 TRANS32_DEP_1..3, 8 FMA_ACCUM_CYCLE_1, 9–11 SALU_CYCLE_1..3.
fn declares(code: u32) -> bool {
    (1..=11).contains(&code)
}

/// How a run's `s_delay_alu` declarations compared with the model's latencies.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DelayAluStats {
    /// Instructions an `s_delay_alu` declared a dependency for.
    pub declared: u64,
    /// Of those, instructions that did wait for a result in the model.
    pub declared_and_waited: u64,
    /// Instructions that waited for a VALU or SALU result with no declaration (the
    /// compiler's latencies are shorter than the model's there, or it placed no
    /// `s_delay_alu`).
    pub undeclared_waits: u64,
    /// The instructions (indices, in program order) that waited undeclared.
    pub undeclared_at: Vec<usize>,
}

impl DelayAluStats {
    /// Counts an undeclared wait of the instruction at `pc`.
    pub(crate) fn note_undeclared(&mut self, pc: usize) {
        if let Err(i) = self.undeclared_at.binary_search(&pc) {
            self.undeclared_at.insert(i, pc);
        }
    }

    /// Adds another part's counts.
    pub(crate) fn absorb(&mut self, o: &DelayAluStats) {
        self.declared += o.declared;
        self.declared_and_waited += o.declared_and_waited;
        self.undeclared_waits += o.undeclared_waits;
        for &pc in &o.undeclared_at {
            self.note_undeclared(pc);
        }
    }
}

/// One wave's register readiness and pending `s_delay_alu` declarations.
///
/// The fields every step reads come first, in one cache line (aligned to 64 bytes, so they
/// are one line in a `Vec` too), the SGPR table last (`repr(C)`; see [`crate::wave::Wave`]
/// for why lines matter here). A test pins the layout.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct Scoreboard {
    /// When each VGPR's last VALU result is ready (`None` until the first VALU write: every
    /// register ready at 0).
    vready: Option<Box<[u64; 256]>>,
    /// SGPRs whose last write came from the VALU (a SALU reader waits for those too).
    s_from_valu: u128,
    /// The instruction after each of these many more instructions (countdown) is declared.
    declared: [Option<u32>; 2],
    /// Whether the instruction about to issue is declared (worked out once per
    /// instruction, however often the wave is held back before it issues).
    current: Option<bool>,
    /// Whether the instruction about to issue has waited for a result.
    pub dep_waited: bool,
    /// When each SGPR's last ALU result is ready for a VALU reader.
    sready: [u64; 128],
}

impl Default for Scoreboard {
    fn default() -> Scoreboard {
        Scoreboard {
            vready: None,
            sready: [0; 128],
            s_from_valu: 0,
            declared: [None; 2],
            current: None,
            dep_waited: false,
        }
    }
}

impl Scoreboard {
    /// Makes this a new wave's scoreboard ([`Scoreboard::default`]), keeping the VGPR
    /// table's allocation (zeroed: every register ready at 0, as with none) for the slot's
    /// next wave.
    pub(crate) fn reset(&mut self) {
        let vready = self.vready.take().map(|mut v| {
            v.fill(0);
            v
        });
        *self = Scoreboard {
            vready,
            ..Scoreboard::default()
        };
    }
}

fn bits(set: [u64; 4]) -> impl Iterator<Item = usize> {
    set.into_iter().enumerate().flat_map(|(w, mut word)| {
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                w * 64 + b
            })
        })
    })
}

/// The SGPRs (operand codes below 128) of the set `s`.
fn sgpr_bits(mut s: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (s != 0).then(|| {
            let r = s.trailing_zeros() as usize;
            s &= s - 1;
            r
        })
    })
}

/// The latest of `ready`'s entries for the registers `regs`.
#[inline]
fn latest<const N: usize>(ready: &[u64; N], regs: &[u8]) -> u64 {
    regs.iter()
        .fold(0, |at, &r| at.max(ready[usize::from(r) % N]))
}

impl Scoreboard {
    /// When every register `shape` reads is ready.
    #[inline]
    pub(crate) fn ready_at(&self, shape: &DepShape) -> u64 {
        let Some(l) = &shape.lists else {
            return self.ready_at_sets(shape);
        };
        let mut at = self
            .vready
            .as_ref()
            .map_or(0, |v| latest(v, l.vreads.regs()));
        if shape.vector_reader {
            at = at.max(latest(&self.sready, l.sreads.regs()));
        } else if shape.sreads & self.s_from_valu != 0 {
            at = at.max(self.sgpr_ready_at(shape.sreads & self.s_from_valu));
        }
        at
    }

    /// [`Scoreboard::ready_at`] by walking `shape`'s sets.
    fn ready_at_sets(&self, shape: &DepShape) -> u64 {
        let at = self
            .vready
            .as_ref()
            .map_or(0, |v| bits(shape.vreads).map(|r| v[r]).max().unwrap_or(0));
        let mut s = shape.sreads;
        if !shape.vector_reader {
            s &= self.s_from_valu;
        }
        at.max(self.sgpr_ready_at(s))
    }

    /// When the SGPRs of the set `s` are ready.
    fn sgpr_ready_at(&self, s: u128) -> u64 {
        sgpr_bits(s).map(|r| self.sready[r]).max().unwrap_or(0)
    }

    /// Records the results of an instruction of `shape` that issued at `issue`.
    #[inline]
    pub(crate) fn write(&mut self, shape: &DepShape, issue: u64, t: &TimingParams) {
        let Some(p) = shape.producer else { return };
        let ready = issue + p.latency(t);
        if p.is_vector() {
            self.s_from_valu |= shape.swrites;
        } else {
            self.s_from_valu &= !shape.swrites;
        }
        let Some(l) = &shape.lists else {
            return self.write_sets(shape, ready);
        };
        let vwrites = l.vwrites.regs();
        if !vwrites.is_empty() {
            let v = self.vready.get_or_insert_with(|| Box::new([0; 256]));
            for &r in vwrites {
                v[usize::from(r)] = ready;
            }
        }
        for &r in l.swrites.regs() {
            self.sready[usize::from(r) % 128] = ready;
        }
    }

    /// [`Scoreboard::write`]'s register updates by walking `shape`'s sets.
    fn write_sets(&mut self, shape: &DepShape, ready: u64) {
        if shape.vwrites != [0; 4] {
            let v = self.vready.get_or_insert_with(|| Box::new([0; 256]));
            for r in bits(shape.vwrites) {
                v[r] = ready;
            }
        }
        for r in sgpr_bits(shape.swrites) {
            self.sready[r] = ready;
        }
    }

    /// Takes in an `s_delay_alu` immediate: its first dependency declares the next
    /// instruction, its second the one `instskip` after that (0, SAME: the same one; 1,
    /// NEXT: the one after it; ...).
    pub(crate) fn delay_alu(&mut self, simm16: u32) {
        let (id0, skip, id1) = (simm16 & 0xf, simm16 >> 4 & 7, simm16 >> 7 & 0xf);
        self.declared = [declares(id0).then_some(0), declares(id1).then_some(skip)];
    }

    /// Whether the instruction about to issue is declared by an `s_delay_alu`.
    pub(crate) fn declared_now(&mut self) -> bool {
        match self.current {
            Some(d) => d,
            None => {
                let d = self.take_declared();
                self.current = Some(d);
                d
            }
        }
    }

    /// The instruction about to issue has issued: the next one's declaration is its own.
    pub(crate) fn issued(&mut self) {
        if self.current.take().is_none() {
            self.take_declared();
        }
    }

    /// Counts the next instruction off the pending declarations; whether it is declared.
    fn take_declared(&mut self) -> bool {
        let mut hit = false;
        for d in &mut self.declared {
            *d = match *d {
                Some(0) => {
                    hit = true;
                    None
                }
                Some(n) => Some(n - 1),
                None => None,
            };
        }
        hit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdna3_isa::asm::assemble;

    /// The fields every step reads end within the first 64 bytes, before the SGPR table, and
    /// a scoreboard starts on a cache line: they share one line.
    #[test]
    fn the_per_step_fields_share_one_cache_line() {
        use std::mem::{align_of, offset_of};
        assert_eq!(align_of::<Scoreboard>(), 64);
        let ends = [
            (
                "vready",
                offset_of!(Scoreboard, vready) + size_of::<Option<Box<[u64; 256]>>>(),
            ),
            ("s_from_valu", offset_of!(Scoreboard, s_from_valu) + 16),
            (
                "declared",
                offset_of!(Scoreboard, declared) + size_of::<[Option<u32>; 2]>(),
            ),
            ("current", offset_of!(Scoreboard, current) + 1),
            ("dep_waited", offset_of!(Scoreboard, dep_waited) + 1),
        ];
        for (name, end) in ends {
            assert!(end <= 64, "{name} ends at byte {end}");
            assert!(
                end <= offset_of!(Scoreboard, sready),
                "{name} after the SGPR table"
            );
        }
    }

    fn shape(text: &str) -> DepShape {
        let p = assemble(text);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        let inst = &p.lines[0].inst;
        let t = super::super::inflight::touched_vgprs(inst);
        DepShape::of(inst, t.reads_bits(), t.writes_bits())
    }

    #[test]
    fn a_dependent_valu_waits_for_the_latency_and_an_independent_one_does_not() {
        let t = TimingParams::default();
        let mut sb = Scoreboard::default();
        let a = shape("v_add_f32 v1, v2, v3");
        sb.write(&a, 10, &t);
        assert_eq!(
            sb.ready_at(&shape("v_add_f32 v4, v1, v3")),
            10 + t.valu_latency
        );
        assert_eq!(sb.ready_at(&shape("v_add_f32 v4, v5, v3")), 0);
        sb.write(&shape("v_exp_f32 v6, v2"), 20, &t);
        assert_eq!(
            sb.ready_at(&shape("v_mov_b32 v7, v6")),
            20 + t.trans_latency
        );
        sb.write(&shape("v_add_f64 v[8:9], v[2:3], v[4:5]"), 30, &t);
        assert_eq!(sb.ready_at(&shape("v_mov_b32 v7, v9")), 30 + t.f64_latency);
    }

    #[test]
    fn salu_results_wait_for_valu_readers_only_and_valu_sgprs_for_everyone() {
        let t = TimingParams::default();
        let mut sb = Scoreboard::default();
        sb.write(&shape("s_add_u32 s4, s5, s6"), 10, &t);
        assert_eq!(
            sb.ready_at(&shape("v_add_nc_u32 v1, s4, v2")),
            10 + t.salu_latency
        );
        assert_eq!(sb.ready_at(&shape("s_add_u32 s7, s4, 1")), 0);
        sb.write(&shape("v_cmp_eq_u32 v1, v2"), 20, &t);
        assert_eq!(sb.ready_at(&shape("s_cbranch_vccz 0")), 20 + t.valu_latency);
        sb.write(&shape("v_readfirstlane_b32 s9, v1"), 30, &t);
        assert_eq!(
            sb.ready_at(&shape("s_add_u32 s7, s9, 1")),
            30 + t.valu_latency
        );
        sb.write(&shape("s_mov_b32 exec_lo, s7"), 40, &t);
        assert_eq!(
            sb.ready_at(&shape("v_mov_b32 v1, 0")),
            40 + t.salu_latency,
            "EXEC"
        );
    }

    /// A random shape: few registers mostly (the lists), many now and then (the sets).
    fn random_shape(next: &mut impl FnMut(u64) -> u64) -> DepShape {
        let many = next(8) == 0;
        let mut set = |regs: u64| {
            let n = if many { 20 } else { next(5) };
            let mut m = [0u64; 4];
            for _ in 0..n {
                let r = next(regs);
                m[(r / 64) as usize] |= 1 << (r % 64);
            }
            m
        };
        let (vreads, vwrites, s, sw) = (set(256), set(256), set(128), set(128));
        let producer = [
            Producer::Valu,
            Producer::Trans,
            Producer::F64,
            Producer::Salu,
            Producer::Other,
        ][next(5) as usize];
        DepShape {
            vreads,
            vwrites,
            sreads: u128::from(s[0]) | u128::from(s[1]) << 64,
            swrites: u128::from(sw[0]) | u128::from(sw[1]) << 64,
            producer: Some(producer),
            vector_reader: next(2) == 0,
            lists: None,
        }
    }

    /// Random writes and reads: a scoreboard given the shapes' register lists answers as one
    /// given only their sets.
    #[test]
    fn the_register_lists_give_what_the_sets_give() {
        let t = TimingParams::default();
        let mut rng = crate::xorshift::XorShift::new(0x853c_49e6_748f_ea9bu64);
        let mut next = move |n: u64| rng.below(n);
        for _ in 0..200 {
            let (mut listed, mut sets) = (Scoreboard::default(), Scoreboard::default());
            for step in 0..50u64 {
                let w = random_shape(&mut next);
                listed.write(&w.listed(), step * 3, &t);
                sets.write(&w, step * 3, &t);
                let r = random_shape(&mut next);
                assert_eq!(listed.ready_at(&r.listed()), sets.ready_at(&r));
                assert_eq!(format!("{listed:?}"), format!("{sets:?}"));
            }
        }
    }

    /// After random writes and an `s_delay_alu`, a reset scoreboard answers every read as a
    /// new one does, declares nothing, and keeps its VGPR table.
    #[test]
    fn a_reset_scoreboard_is_a_new_one() {
        let t = TimingParams::default();
        let mut rng = crate::xorshift::XorShift::new(0x2f1d_9e4b_07c3_a861u64);
        let mut next = move |n: u64| rng.below(n);
        let mut sb = Scoreboard::default();
        sb.write(&shape("v_add_f32 v1, v2, v3"), 7, &t);
        for step in 0..50u64 {
            sb.write(&random_shape(&mut next), 10 + step, &t);
        }
        sb.delay_alu(1 | 1 << 4 | 9 << 7);
        sb.dep_waited = true;
        sb.reset();
        assert!(sb.vready.is_some(), "the table is kept");
        let new = Scoreboard::default();
        for _ in 0..200 {
            let r = random_shape(&mut next);
            assert_eq!(sb.ready_at(&r), new.ready_at(&r));
        }
        assert_eq!(sb.ready_at(&shape("v_mov_b32 v4, v1")), 0);
        assert!(!sb.take_declared() && !sb.dep_waited && sb.s_from_valu == 0);
    }

    #[test]
    fn a_list_holds_fifteen_registers_and_no_more() {
        let regs = |n: u32| {
            let mut m = [0u64; 4];
            for r in 0..n {
                m[(r * 17 % 256 / 64) as usize] |= 1 << (r * 17 % 64);
            }
            m
        };
        assert_eq!(RegList::of(&regs(15)).map(|l| l.len), Some(15));
        assert_eq!(RegList::of(&regs(16)), None);
        let l = RegList::of(&[1 << 3, 0, 1 << 63, 0]).expect("fits");
        assert_eq!(l.regs(), [3, 191]);
    }

    #[test]
    fn delay_alu_declares_the_next_instruction_and_the_skipped_one() {
        let mut sb = Scoreboard::default();
        // instid0(VALU_DEP_1) | instskip(SKIP_1=2) | instid1(VALU_DEP_2)
        sb.delay_alu(1 | 2 << 4 | 2 << 7);
        assert!(sb.take_declared());
        assert!(!sb.take_declared(), "the skipped instruction");
        assert!(sb.take_declared());
        assert!(!sb.take_declared());
        // instskip(NEXT=1): the two instructions in a row.
        sb.delay_alu(1 | 1 << 4 | 9 << 7);
        assert!(sb.take_declared() && sb.take_declared());
        assert!(!sb.take_declared());
    }
}
