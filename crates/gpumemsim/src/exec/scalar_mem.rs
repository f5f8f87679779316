//! SMEM in the executor: issuing loads through the workgroup's scalar cache, landing their
//! data in the SGPRs when it arrives, the hazard of reading an SDST too early, and the clause
//! and group rules.

use rdna3_isa::def::{Implicit, Kind};
use rdna3_isa::inst::SGPR_NULL;
use rdna3_isa::{Field, Format, Instruction};

use super::{Counter, Device, Pending};
use crate::event::Event;
use crate::smem::{self, ClauseClass};
use crate::wave::VCC_LO;

impl Device {
    /// Records an event of `kind` at instruction `pc` of wave `wi`, with no detail (the
    /// executor stamps the cycle): the one way the executor's units report a rule a wave
    /// broke.
    pub(crate) fn wave_event(&mut self, kind: &'static str, wi: usize, pc: usize, message: String) {
        self.events
            .push(Event::new(kind, self.waves[wi].id, pc, message));
    }

    /// Issues SMEM instruction `inst` of wave `wi` at its clock; `None` when the SMEM model
    /// does not know the opcode.
    // Out of line: inlined into `Device::step`, it made the VALU/SALU path save and spill
    // for its registers (docs/benchmarks.md, fifth pass).
    #[inline(never)]
    pub(crate) fn smem(&mut self, wi: usize, pc: usize, inst: &Instruction) -> Option<()> {
        if inst.def().isa != rdna3_isa::Isa::Gfx11 {
            return self.gfx9_scalar_write(wi, pc, inst);
        }
        let op = smem::smem_op_of(inst.opcode)?;
        // The WGP's scalar cache, shared by its workgroups (docs/rules/smem.md#scalar-cache-per-wgp).
        let g = self.placement.as_ref().map_or(0, |p| p.wgp(wi));
        let now = self.clocks[wi];
        let (h0, m0) = (self.kcache[g].stats.hits, self.kcache[g].stats.misses);
        smem::execute_into(
            inst,
            op,
            &self.waves[wi],
            &self.memory,
            &mut self.kcache[g],
            now,
            &mut self.smem_out,
        );
        let out = &self.smem_out;
        let s = &mut self.stats[pc];
        s.cache_hits += self.kcache[g].stats.hits - h0;
        s.cache_misses += self.kcache[g].stats.misses - m0;
        s.latency_cycles += out.done_at - now;
        for (kind, message) in out.breaches.iter().cloned() {
            self.events
                .push(Event::new(kind, self.waves[wi].id, pc, message));
        }
        for w in out.writes() {
            self.sgpr_late[wi] |= 1 << w.reg;
        }
        self.sgpr_returns[wi].extend_from_slice(out.writes());
        self.add_pending(
            wi,
            Pending {
                counter: Counter::Lgkm,
                done_at: out.done_at,
                gds: false,
                weight: out.weight,
            },
        );
        if self.functional {
            // The data is in the SGPRs when the load issues (`exec::functional`).
            self.land_sgprs(wi, u64::MAX);
        }
        Some(())
    }

    /// gfx942's scalar stores (`s_store_dword{,x2,x4}`, which run as they are:
    /// `crate::target::gfx9`) and `s_dcache_wb`; `None` for another instruction.
    ///
    /// A store writes its SGPRs to SGPR\[sbase\] + the offset (an immediate with `imm`, else
    /// the SGPR the offset field names; plus SGPR\[soffset\] with `soe`) at once, and the
    /// workgroup's scalar cache drops its lines so that later scalar loads read the new data.
    /// On the hardware the scalar cache is write-back: the data reaches memory at the
    /// `s_dcache_wb` the program must issue before anything else reads it (AMD's CDNA3 ISA
    /// guide, "Scalar Memory Operations"); here it is there sooner, which a correct program
    /// cannot tell. Both count on LGKMcnt and complete after a scalar-cache hit's latency.
    fn gfx9_scalar_write(&mut self, wi: usize, pc: usize, inst: &Instruction) -> Option<()> {
        let name = inst.def().name;
        let g = self.placement.as_ref().map_or(0, |p| p.wgp(wi));
        let latency = self.kcache[g].config().hit_latency;
        if name.starts_with("s_store_dword") {
            let w = &self.waves[wi];
            let base = w.sreg64(inst.get(Field::Sbase) * 2) & 0xffff_ffff_ffff;
            let offset = match inst.get(Field::SmemImm) {
                1 => inst.get(Field::Offset) as u64,
                _ => w.ssrc32(inst.get(Field::Offset) & 0x7f, None) as u64,
            };
            let soffset = match inst.get(Field::Soe) {
                1 => w.ssrc32(inst.get(Field::Soffset), None) as u64,
                _ => 0,
            };
            let addr = base.wrapping_add(offset).wrapping_add(soffset) & !3;

            let dwords = match inst.def().operand(Field::Sdata).map(|o| o.kind) {
                Some(Kind::S(n)) => n as u32,
                _ => 1,
            };
            let sdata = inst.get(Field::Sdata);
            let words: Vec<u32> = (0..dwords).map(|i| w.sreg(sdata + i)).collect();
            // Logged as every global write is (the checker, and grids run apart, read it).
            self.global_log_begin(false);
            self.memory.write_words(addr, &words);
            self.global_log_end(wi, pc, Counter::Lgkm);
            self.kcache[g].invalidate();
        } else if name != "s_dcache_wb" {
            return None;
        }
        let done_at = self.clocks[wi] + latency;
        self.add_pending(
            wi,
            Pending {
                counter: Counter::Lgkm,
                done_at,
                gds: false,
                weight: 1,
            },
        );
        Some(())
    }

    /// Writes the SMEM data of wave `wi` that has arrived by cycle `now`, oldest first.
    pub(crate) fn land_sgprs(&mut self, wi: usize, now: u64) {
        let returns = &mut self.sgpr_returns[wi];
        if returns.is_empty() || returns.iter().all(|r| r.at > now) {
            return;
        }
        returns.sort_by_key(|r| r.at);
        let n = returns.partition_point(|r| r.at <= now);
        for r in returns.drain(..n) {
            self.waves[wi].set_sreg(r.reg as u32, r.value);
        }
        self.sgpr_late[wi] = returns.iter().fold(0, |m, r| m | 1 << r.reg);
    }

    /// Before wave `wi` runs `inst` at `pc`: lands arrived SMEM data, reports a `hazard`
    /// when `inst` reads an SGPR whose data has not arrived (it reads the old value), and
    /// applies the clause and group rules.
    #[inline(always)]
    pub(crate) fn before_issue(
        &mut self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        class: ClauseClass,
    ) {
        if self.functional {
            // No clause rules and nothing in flight in a functional run (`exec::functional`).
            return;
        }
        if let Some((kind, message)) = self.clauses[wi].observe(class) {
            self.wave_event(kind, wi, pc, message);
        }
        if self.sgpr_returns[wi].is_empty() && self.sgpr_late[wi] == 0 {
            // No SMEM data on its way (the common case, checked without a call).
            return;
        }
        self.smem_in_flight(wi, pc, inst);
    }

    /// [`Device::before_issue`] with SMEM data on its way to wave `wi`.
    #[inline(never)]
    fn smem_in_flight(&mut self, wi: usize, pc: usize, inst: &Instruction) {
        self.land_sgprs(wi, self.clocks[wi]);
        if self.sgpr_late[wi] == 0 {
            return;
        }
        let reads = match self.read_masks[pc] {
            Some(m) => m,
            None => {
                let m = scalar_read_mask(inst);
                self.read_masks[pc] = Some(m);
                m
            }
        };
        let late = reads & self.sgpr_late[wi];
        if late == 0 {
            return;
        }
        let names: Vec<String> = (0..128)
            .filter(|r| late >> r & 1 == 1)
            .map(|r| format!("s{r}"))
            .collect();
        let message = format!(
            "reads {} before its SMEM data arrived (missing s_waitcnt lgkmcnt): the old value is used",
            names.join(", ")
        );
        self.wave_event("hazard", wi, pc, message);
    }
}

/// The clause class of `inst` (`s_clause` with its length).
pub(crate) fn clause_class_of(inst: &Instruction) -> ClauseClass {
    match smem::clause_class(inst.opcode) {
        ClauseClass::Other if inst.def().name == "s_clause" => {
            ClauseClass::Clause(inst.get(Field::Simm16))
        }
        c => c,
    }
}

/// The scalar registers (bit = operand code) that `inst` reads through its operand fields,
/// its implicit VCC source, or a VCC branch condition.
pub(crate) fn scalar_read_mask(inst: &Instruction) -> u128 {
    let d = inst.def();
    let mut mask = 0u128;
    let mut reg = |code: u32, n: u32| {
        if code < 128 && code != SGPR_NULL {
            for r in code..(code + n).min(128) {
                mask |= 1 << r;
            }
        }
    };
    for (i, o) in d.operands.iter().enumerate() {
        let v = inst.get(o.field);
        match o.kind {
            Kind::Ssrc(n) | Kind::SsrcReg(n) | Kind::VSrc(n, _) => reg(v, n as u32),
            Kind::SBase(n) => reg(v * 2, n as u32),
            Kind::Rsrc => reg(v * 4, 4),
            Kind::SmemOffset | Kind::BufSoffset => reg(v, 1),
            Kind::FlatSaddr => reg(v, if d.format == Format::Scratch { 1 } else { 2 }),
            // vcc_lo written first is VOPC's destination; elsewhere it is a source.
            Kind::Implicit(Implicit::VccLo) if i > 0 => reg(VCC_LO, 1),
            Kind::S(n)
                if d.format == Format::Sopk
                    && o.field == Field::Sdst
                    && ["s_addk", "s_mulk", "s_cmovk", "s_cmpk"]
                        .iter()
                        .any(|p| d.name.starts_with(p)) =>
            {
                reg(v, n as u32)
            }
            _ => {}
        }
    }
    if matches!(d.name, "s_cbranch_vccz" | "s_cbranch_vccnz") {
        reg(VCC_LO, 2);
    }
    mask
}
