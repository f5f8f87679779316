//! The interpreter and scheduler: runs a program on the waves of one workgroup, which share
//! one LDS allocation, dispatches memory instructions to the unit models, and keeps time,
//! per-instruction statistics and events.

mod salu;
mod vinterp;

use std::collections::HashMap;

use rdna3_isa::asm::AsmLine;
use rdna3_isa::{Field, Format, Instruction};

use crate::ds::{self, DsEnv, DsError};
use crate::event::Event;
use crate::gds::{Gds, DEFAULT_GDS_BYTES};
use crate::lds::{AlignMode, Lds, LdsAllocation, LdsMode};
use crate::timing::TimingParams;
use crate::wave::Wave;

/// How to run a program.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// 32 or 64.
    pub wave_size: u32,
    /// Waves in the workgroup.
    pub waves: u32,
    /// LDS allocation of the workgroup (bytes).
    pub lds_size: u32,
    /// CU or WGP mode.
    pub lds_mode: LdsMode,
    /// SH_MEM_CONFIG alignment mode.
    pub align: AlignMode,
    /// GDS size (bytes).
    pub gds_size: u32,
    /// Instructions executed (all waves together) before the run is stopped.
    pub max_steps: u64,
    /// Timing parameters.
    pub timing: TimingParams,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            wave_size: 32,
            waves: 1,
            lds_size: 65536,
            lds_mode: LdsMode::Cu,
            align: AlignMode::Dword,
            gds_size: DEFAULT_GDS_BYTES,
            max_steps: 10_000_000,
            timing: TimingParams::default(),
        }
    }
}

/// Statistics of one instruction of the program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InstStats {
    /// Times executed (all waves).
    pub executions: u64,
    /// Cycles spent issuing it (all waves).
    pub cycles: u64,
    /// Of those, cycles lost to LDS bank conflicts.
    pub conflict_cycles: u64,
    /// Cycles its waves stalled on it (`s_waitcnt`, `s_barrier`).
    pub stall_cycles: u64,
}

/// Why a run stopped before every wave ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The executor does not implement an instruction.
    Unimplemented {
        /// Mnemonic.
        name: &'static str,
        /// Instruction index.
        pc: usize,
        /// Source line.
        line: usize,
    },
    /// More than `max_steps` instructions ran.
    StepLimit {
        /// The limit.
        steps: u64,
    },
    /// A branch left the program.
    BadBranch {
        /// Instruction index of the branch.
        pc: usize,
        /// Source line.
        line: usize,
    },
    /// The configuration cannot be run.
    Config(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Unimplemented { name, pc, line } => write!(
                f,
                "line {line} (pc {pc}): instruction `{name}` is not implemented by the executor"
            ),
            RunError::StepLimit { steps } => write!(
                f,
                "stopped after {steps} instructions: the program may loop forever (raise the limit with --max-steps)"
            ),
            RunError::BadBranch { pc, line } => {
                write!(f, "line {line} (pc {pc}): branch target is outside the program")
            }
            RunError::Config(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RunError {}

/// An outstanding memory operation of a wave.
#[derive(Clone, Copy, Debug)]
struct Pending {
    counter: Counter,
    done_at: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counter {
    Lgkm,
    Exp,
}

/// A workgroup: its waves, LDS, the device GDS, and what the run observed.
pub struct Workgroup {
    /// Waves in creation order.
    pub waves: Vec<Wave>,
    /// The WGP's LDS.
    pub lds: Lds,
    /// The workgroup's allocation.
    pub alloc: LdsAllocation,
    /// The device GDS.
    pub gds: Gds,
    /// Events in the order they happened.
    pub events: Vec<Event>,
    /// Per-instruction statistics, indexed like the program.
    pub stats: Vec<InstStats>,
    /// Each wave's clock (cycles).
    pub clocks: Vec<u64>,
    /// Instructions executed.
    pub steps: u64,
    pending: Vec<Vec<Pending>>,
    /// For each wave waiting at `s_barrier`: the barrier's instruction index.
    at_barrier: Vec<Option<usize>>,
    lds_free_at: u64,
}

impl Workgroup {
    /// A workgroup for `cfg`, waves initialised as the issue's `run` command defines
    /// (v0 = work-item id = lane + wave × wave size; everything else 0, EXEC all ones).
    pub fn new(cfg: &RunConfig, program_len: usize) -> Result<Workgroup, RunError> {
        if cfg.wave_size != 32 && cfg.wave_size != 64 {
            return Err(RunError::Config(format!(
                "wave size must be 32 or 64, not {}",
                cfg.wave_size
            )));
        }
        if cfg.waves == 0 || cfg.waves > 32 {
            return Err(RunError::Config(format!(
                "a workgroup has 1 to 32 waves, not {}",
                cfg.waves
            )));
        }
        let alloc = LdsAllocation::new(cfg.lds_size, cfg.lds_mode).map_err(RunError::Config)?;
        let waves: Vec<Wave> = (0..cfg.waves)
            .map(|id| {
                let mut w = Wave::new(id, cfg.wave_size);
                for l in 0..cfg.wave_size {
                    w.set_vgpr(0, l, l + id * cfg.wave_size);
                }
                w
            })
            .collect();
        let n = waves.len();
        Ok(Workgroup {
            waves,
            lds: Lds::new(cfg.lds_mode, cfg.align),
            alloc,
            gds: Gds::new(cfg.gds_size),
            events: Vec::new(),
            stats: vec![InstStats::default(); program_len],
            clocks: vec![0; n],
            steps: 0,
            pending: vec![Vec::new(); n],
            at_barrier: vec![None; n],
            lds_free_at: 0,
        })
    }

    /// Total cycles: the latest wave clock.
    pub fn cycles(&self) -> u64 {
        self.clocks.iter().copied().max().unwrap_or(0)
    }

    /// Runs `program` until every wave ends.
    pub fn run(&mut self, program: &[AsmLine], cfg: &RunConfig) -> Result<(), RunError> {
        let by_address: HashMap<u32, usize> = program
            .iter()
            .enumerate()
            .map(|(i, l)| (l.address, i))
            .collect();
        loop {
            // The runnable wave with the earliest clock (ties: lowest id).
            let next = (0..self.waves.len())
                .filter(|&i| !self.waves[i].done && self.at_barrier[i].is_none())
                .min_by_key(|&i| (self.clocks[i], i));
            let Some(wi) = next else {
                if self.waves.iter().all(|w| w.done) {
                    return Ok(());
                }
                // Every live wave is at the barrier: release it.
                self.release_barrier();
                continue;
            };
            if self.steps >= cfg.max_steps {
                return Err(RunError::StepLimit {
                    steps: cfg.max_steps,
                });
            }
            self.steps += 1;
            let pc = self.waves[wi].pc;
            let Some(line) = program.get(pc) else {
                // Running off the end of the program ends the wave.
                self.waves[wi].done = true;
                continue;
            };
            self.step(wi, pc, line, cfg, &by_address)?;
        }
    }

    fn release_barrier(&mut self) {
        let t = (0..self.waves.len())
            .filter(|&i| self.at_barrier[i].is_some())
            .map(|i| self.clocks[i])
            .max()
            .unwrap_or(0);
        for i in 0..self.waves.len() {
            if let Some(pc) = self.at_barrier[i].take() {
                self.stats[pc].stall_cycles += t - self.clocks[i];
                self.clocks[i] = t;
            }
        }
    }

    /// Advances wave `wi`'s clock until at most `n` operations of `counter` are outstanding.
    fn wait_for(&mut self, wi: usize, counter: Counter, n: u32) {
        let mut times: Vec<u64> = self.pending[wi]
            .iter()
            .filter(|p| p.counter == counter && p.done_at > self.clocks[wi])
            .map(|p| p.done_at)
            .collect();
        if times.len() > n as usize {
            times.sort_unstable();
            let until = times[times.len() - 1 - n as usize];
            self.clocks[wi] = self.clocks[wi].max(until);
        }
        let now = self.clocks[wi];
        self.pending[wi].retain(|p| p.done_at > now);
        self.update_counters(wi);
    }

    fn update_counters(&mut self, wi: usize) {
        if self.pending[wi].is_empty() {
            self.waves[wi].counters.lgkm = 0;
            self.waves[wi].counters.exp = 0;
            return;
        }
        let now = self.clocks[wi];
        self.pending[wi].retain(|p| p.done_at > now);
        let (mut lgkm, mut exp) = (0, 0);
        for p in &self.pending[wi] {
            if p.done_at > now {
                match p.counter {
                    Counter::Lgkm => lgkm += 1,
                    Counter::Exp => exp += 1,
                }
            }
        }
        let c = &mut self.waves[wi].counters;
        c.lgkm = lgkm;
        c.exp = exp;
    }

    fn step(
        &mut self,
        wi: usize,
        pc: usize,
        line: &AsmLine,
        cfg: &RunConfig,
        by_address: &HashMap<u32, usize>,
    ) -> Result<(), RunError> {
        let inst = &line.inst;
        let d = inst.def();
        let t = cfg.timing;
        let start = self.clocks[wi];
        let unimplemented = || RunError::Unimplemented {
            name: d.name,
            pc,
            line: line.line,
        };
        let mut next_pc = pc + 1;
        let mut cost = t.salu;
        let mut conflict = 0;
        let mut lds_begin = None;
        match d.format {
            Format::Sopp => match d.name {
                "s_endpgm" | "s_endpgm_saved" | "s_code_end" => self.waves[wi].done = true,
                "s_nop"
                | "s_sleep"
                | "s_clause"
                | "s_delay_alu"
                | "s_waitcnt_depctr"
                | "s_set_inst_prefetch_distance"
                | "s_setprio"
                | "s_icache_inv"
                | "s_wait_idle"
                | "s_wakeup"
                | "s_ttracedata"
                | "s_ttracedata_imm"
                | "s_incperflevel"
                | "s_decperflevel" => {}
                "s_waitcnt" => {
                    let v = inst.get(Field::Simm16);
                    let exp = v & 7;
                    let lgkm = (v >> 4) & 63;
                    self.wait_for(wi, Counter::Lgkm, lgkm);
                    self.wait_for(wi, Counter::Exp, exp);
                }
                "s_barrier" => {
                    self.at_barrier[wi] = Some(pc);
                }
                "s_branch" | "s_cbranch_scc0" | "s_cbranch_scc1" | "s_cbranch_vccz"
                | "s_cbranch_vccnz" | "s_cbranch_execz" | "s_cbranch_execnz" => {
                    let w = &self.waves[wi];
                    let vccz = w.vcc() & w.lane_mask() == 0;
                    let taken = match d.name {
                        "s_branch" => true,
                        "s_cbranch_scc0" => !w.scc,
                        "s_cbranch_scc1" => w.scc,
                        "s_cbranch_vccz" => vccz,
                        "s_cbranch_vccnz" => !vccz,
                        "s_cbranch_execz" => w.exec() == 0,
                        _ => w.exec() != 0,
                    };
                    if taken {
                        let off = inst.get(Field::Simm16) as u16 as i16 as i64;
                        let target = line.address as i64 + 4 + off * 4;
                        next_pc = u32::try_from(target)
                            .ok()
                            .and_then(|a| by_address.get(&a).copied())
                            .ok_or(RunError::BadBranch {
                                pc,
                                line: line.line,
                            })?;
                    }
                }
                _ => return Err(unimplemented()),
            },
            Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk => {
                if d.name.starts_with("s_waitcnt_") {
                    let n = inst.get(Field::Simm16);
                    match d.name {
                        "s_waitcnt_lgkmcnt" => self.wait_for(wi, Counter::Lgkm, n),
                        "s_waitcnt_expcnt" => self.wait_for(wi, Counter::Exp, n),
                        _ => {}
                    }
                } else if !salu::execute(inst, &mut self.waves[wi]) {
                    return Err(unimplemented());
                }
            }
            Format::Ds => {
                let lanes_per_pass = 32u64;
                let passes = (self.waves[wi].size as u64).div_ceil(lanes_per_pass);
                let mut env = DsEnv {
                    lds: &mut self.lds,
                    alloc: self.alloc,
                    gds: &mut self.gds,
                    events: &mut self.events,
                    pc,
                };
                let outcome =
                    ds::execute(inst, &mut self.waves[wi], &mut env).map_err(|e| match e {
                        DsError::Unimplemented(_) => unimplemented(),
                    })?;
                let ideal = t.lds_issue * passes;
                let busy = self.bank_cycles(inst, &outcome, ideal);
                conflict = busy - ideal;
                let begin = self.clocks[wi].max(self.lds_free_at);
                self.lds_free_at = begin + busy;
                lds_begin = Some(begin);
                cost = busy;
                self.pending[wi].push(Pending {
                    counter: Counter::Lgkm,
                    done_at: begin + busy + t.lds_latency,
                });
            }
            Format::Vinterp => {
                // Built-in `s_waitcnt expcnt(wait_exp)` (000 §VALU 参数插值).
                self.wait_for(wi, Counter::Exp, inst.get(Field::WaitExp));
                vinterp::execute(inst, &mut self.waves[wi]);
                cost = t.valu * (self.waves[wi].size as u64).div_ceil(32);
            }
            Format::Ldsdir => {
                let mut env = DsEnv {
                    lds: &mut self.lds,
                    alloc: self.alloc,
                    gds: &mut self.gds,
                    events: &mut self.events,
                    pc,
                };
                ds::ldsdir::execute(inst, &mut self.waves[wi], &mut env);
                let begin = self.clocks[wi].max(self.lds_free_at);
                let busy = t.lds_issue;
                self.lds_free_at = begin + busy;
                lds_begin = Some(begin);
                cost = busy;
                self.pending[wi].push(Pending {
                    counter: Counter::Exp,
                    done_at: begin + busy + t.lds_latency,
                });
            }
            _ => return Err(unimplemented()),
        }
        // Waits (s_waitcnt) moved the clock; an LDS instruction may also wait for the LDS.
        let issue_at = lds_begin.unwrap_or(self.clocks[wi]);
        let stalled = issue_at - start;
        self.clocks[wi] = issue_at + cost;
        self.update_counters(wi);
        let s = &mut self.stats[pc];
        s.executions += 1;
        s.cycles += cost;
        s.conflict_cycles += conflict;
        s.stall_cycles += stalled;
        self.waves[wi].pc = next_pc;
        Ok(())
    }

    /// LDS cycles of one DS instruction: the ideal cycles until the bank model is wired in.
    fn bank_cycles(&self, _inst: &Instruction, _outcome: &ds::DsOutcome, ideal: u64) -> u64 {
        ideal
    }
}
