//! Instructions that read or write the program counter as an address — `s_getpc_b64`,
//! `s_setpc_b64`, `s_swappc_b64`, `s_call_b64` — and `s_trap`
//! (docs/rules/addressing.md#calls-and-the-program-counter).
//!
//! The executor's pc is an instruction index; the program's byte addresses
//! ([`AsmLine::address`]) are offsets from [`RunConfig::code_base`](super::RunConfig), two's
//! complement for code placed before it (a called function before the kernel). A wave's
//! calls are followed on a shadow stack of call sites, so a trap inside a called function is
//! reported at the kernel's own line that led there.

use std::collections::HashMap;
use std::sync::OnceLock;

use rdna3_isa::asm::AsmLine;
use rdna3_isa::{Field, Opcode};

use super::{Device, RunError};
use crate::event::{Event, EventDetail};

/// What a PC-writing scalar instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Jump {
    /// `s_getpc_b64`: D = address of the next instruction.
    GetPc,
    /// `s_setpc_b64`: PC = S0.
    SetPc,
    /// `s_swappc_b64`: D = address of the next instruction; PC = S0.
    SwapPc,
    /// `s_call_b64` (SOPK): D = address of the next instruction; PC += 4 + 4 × SIMM16.
    Call,
}

/// The [`Jump`] of each table entry, looked up once per process.
pub(crate) fn jump_of(op: Opcode) -> Option<Jump> {
    static TABLE: OnceLock<Vec<Option<Jump>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        rdna3_isa::def::every()
            .map(|(_, d)| d)
            .map(|d| match d.name {
                "s_getpc_b64" => Some(Jump::GetPc),
                "s_setpc_b64" => Some(Jump::SetPc),
                "s_swappc_b64" => Some(Jump::SwapPc),
                "s_call_b64" => Some(Jump::Call),
                _ => None,
            })
            .collect()
    })[op.0 as usize]
}

/// The program's instructions by address, built once per run.
pub(crate) struct CodeMap {
    /// Where each SOPP branch goes ([`super::step::branch_targets`]).
    pub targets: Vec<Option<usize>>,
    by_address: HashMap<u32, usize>,
    base: u64,
}

impl CodeMap {
    /// The map of `program` placed at `base`.
    pub fn new(program: &[AsmLine], base: u64) -> CodeMap {
        CodeMap {
            targets: super::step::branch_targets(program),
            by_address: program
                .iter()
                .enumerate()
                .map(|(i, l)| (l.address, i))
                .collect(),
            base,
        }
    }

    /// The memory address of byte address `a` of the program.
    pub fn address(&self, a: u32) -> u64 {
        self.base.wrapping_add(a as i32 as i64 as u64)
    }

    /// The instruction at memory address `target`, if the program has one there.
    pub fn index_at(&self, target: u64) -> Option<usize> {
        let off = i32::try_from(target.wrapping_sub(self.base) as i64).ok()?;
        self.by_address.get(&(off as u32)).copied()
    }
}

impl Device {
    /// Runs the PC-writing instruction `line` (at index `pc`) of wave `wi`; returns the index
    /// of the instruction to run next when it jumps.
    pub(crate) fn jump(
        &mut self,
        wi: usize,
        pc: usize,
        line: &AsmLine,
        jump: Jump,
        code: &CodeMap,
    ) -> Result<Option<usize>, RunError> {
        let inst = &line.inst;
        // Every form is one 4-byte word: the next instruction is 4 bytes on.
        let next = code.address(line.address.wrapping_add(4));
        let w = &mut self.waves[wi];
        let target = match jump {
            Jump::GetPc => {
                w.set_sreg64(inst.get(Field::Sdst), next);
                return Ok(None);
            }
            Jump::SetPc => w.ssrc64(inst.get(Field::Ssrc0), inst.literal),
            Jump::SwapPc => {
                let to = w.ssrc64(inst.get(Field::Ssrc0), inst.literal);
                w.set_sreg64(inst.get(Field::Sdst), next);
                to
            }
            Jump::Call => {
                w.set_sreg64(inst.get(Field::Sdst), next);
                let off = inst.get(Field::Simm16) as u16 as i16 as i64;
                next.wrapping_add((off * 4) as u64)
            }
        };
        let to = code.index_at(target).ok_or(RunError::BadJump {
            pc,
            line: line.line,
            target,
        })?;
        self.follow_call(wi, pc, jump, target, next);
        if matches!(jump, Jump::SwapPc | Jump::Call) {
            self.calls.insert((pc, to));
        }
        Ok(Some(to))
    }

    /// Keeps wave `wi`'s shadow stack of call sites: a call pushes its site, a jump to the
    /// return address of the innermost call pops it.
    fn follow_call(&mut self, wi: usize, pc: usize, jump: Jump, target: u64, next: u64) {
        if self.call_stacks.len() <= wi {
            self.call_stacks.resize_with(wi + 1, Vec::new);
        }
        let stack = &mut self.call_stacks[wi];
        match jump {
            Jump::SwapPc | Jump::Call => stack.push((pc, next)),
            Jump::SetPc => {
                if stack.last().is_some_and(|&(_, ret)| ret == target) {
                    stack.pop();
                }
            }
            Jump::GetPc => {}
        }
    }

    /// Wave `wi` executed `s_trap` at `pc`: a `trap` event at the kernel's own instruction
    /// that led there (the outermost call site, or the `s_trap` itself), naming the lanes,
    /// the trap and the calls between, and the run stops.
    pub(crate) fn trap(&mut self, wi: usize, pc: usize, line: &AsmLine) -> RunError {
        let id = line.inst.get(Field::Simm16) & 0xff;
        let exec = self.waves[wi].exec();
        let lanes: Vec<u32> = (0..64).filter(|l| exec >> l & 1 == 1).collect();
        let calls: Vec<usize> = self
            .call_stacks
            .get(wi)
            .map(|s| s.iter().map(|&(site, _)| site).collect())
            .unwrap_or_default();
        let (at, mut pcs) = match calls.split_first() {
            Some((&first, rest)) => (first, rest.to_vec()),
            None => (pc, Vec::new()),
        };
        let via = if calls.is_empty() {
            String::new()
        } else {
            pcs.push(pc);
            format!(
                " in a called function (pc {pc}, through {} call(s))",
                calls.len()
            )
        };
        let wave = self.waves[wi].id;
        let workgroup = self.grid_workgroup(wi);
        self.events.push(
            Event::new(
                "trap",
                wave,
                at,
                format!(
                    "wave {wave} (workgroup {workgroup}) trapped: s_trap {id:#x}{via} with {} lane(s) active",
                    lanes.len()
                ),
            )
            .with_detail(EventDetail {
                pcs,
                lanes,
                ..EventDetail::default()
            }),
        );
        RunError::Trap {
            pc,
            line: line.line,
            wave,
            workgroup,
            id,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::exec::{Device, RunConfig, RunError};
    use rdna3_isa::asm::assemble;

    const BASE: u64 = 0x1234_5678_0000;

    /// Runs `text` as one wave of 32 lanes whose program starts at [`BASE`].
    fn run(text: &str) -> (Device, Result<(), RunError>) {
        let prog = assemble(text);
        assert!(prog.errors.is_empty(), "{:?}", prog.errors);
        let cfg = RunConfig {
            code_base: BASE,
            ..RunConfig::default()
        };
        let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
        let r = dev.run(&prog.lines, &cfg);
        (dev, r)
    }

    #[test]
    fn getpc_reads_the_next_instructions_address() {
        let (dev, r) = run("s_nop 0\ns_getpc_b64 s[0:1]\ns_endpgm\n");
        r.expect("runs");
        assert_eq!(dev.wave(0).sreg64(0), BASE + 8);
    }

    /// getpc + offset + swappc calls a function; its setpc of the return address comes back
    /// to the instruction after the call.
    #[test]
    fn swappc_calls_and_setpc_returns() {
        let (dev, r) = run("s_getpc_b64 s[2:3]\n\
             s_add_u32 s2, s2, 20\n\
             s_addc_u32 s3, s3, 0\n\
             s_swappc_b64 s[30:31], s[2:3]\n\
             s_mov_b32 s5, 7\n\
             s_endpgm\n\
             s_mov_b32 s4, 42\n\
             s_setpc_b64 s[30:31]\n");
        r.expect("runs");
        let w = dev.wave(0);
        assert_eq!((w.sreg(4), w.sreg(5)), (42, 7));
        assert_eq!(w.sreg64(30), BASE + 16, "the return address");
    }

    /// `s_call_b64` jumps to its own address + 4 + 4 × SIMM16 and leaves the next address.
    #[test]
    fn call_jumps_by_its_immediate() {
        let (dev, r) = run("s_call_b64 s[30:31], 2\n\
             s_mov_b32 s5, 7\n\
             s_endpgm\n\
             s_mov_b32 s4, 42\n\
             s_setpc_b64 s[30:31]\n");
        r.expect("runs");
        let w = dev.wave(0);
        assert_eq!((w.sreg(4), w.sreg(5)), (42, 7));
        assert_eq!(w.sreg64(30), BASE + 4);
    }

    /// A jump to an address with no instruction (here 0, and the middle of a literal) stops
    /// the run with the address.
    #[test]
    fn a_jump_to_no_instruction_stops_the_run() {
        let (_, r) = run("s_mov_b64 s[2:3], 0\ns_setpc_b64 s[2:3]\ns_endpgm\n");
        assert_eq!(
            r,
            Err(RunError::BadJump {
                pc: 1,
                line: 2,
                target: 0
            })
        );
        let (dev, r) = run("s_getpc_b64 s[2:3]\n\
             s_add_u32 s2, s2, 12\n\
             s_setpc_b64 s[2:3]\n\
             s_endpgm\n\
             s_mov_b32 s4, 1\n\
             s_endpgm\n");
        r.expect("a jump to an instruction runs on there");
        assert_eq!(dev.wave(0).sreg(4), 1, "the jump skipped the s_endpgm");
        let (_, r) = run("s_getpc_b64 s[2:3]\ns_add_u32 s2, s2, 2\ns_setpc_b64 s[2:3]\ns_endpgm\n");
        assert!(matches!(r, Err(RunError::BadJump { target, .. }) if target == BASE + 6));
    }

    /// `s_trap` stops the run with its id; the event names the active lanes, and a trap in
    /// a called function is reported at the call site.
    #[test]
    fn a_trap_stops_the_run_at_the_kernels_own_instruction() {
        let (dev, r) = run("s_mov_b32 exec_lo, 0x90\ns_trap 2\ns_endpgm\n");
        assert!(
            matches!(r, Err(RunError::Trap { pc: 1, id: 2, .. })),
            "{r:?}"
        );
        let e = &dev.events()[0];
        assert_eq!((e.kind, e.pc), ("trap", 1));
        assert_eq!(e.detail.as_ref().expect("detail").lanes, [4, 7]);
        let (dev, r) = run("s_call_b64 s[30:31], 1\n\
             s_endpgm\n\
             s_trap 3\n\
             s_setpc_b64 s[30:31]\n");
        assert!(
            matches!(r, Err(RunError::Trap { pc: 2, id: 3, .. })),
            "{r:?}"
        );
        let e = &dev.events()[0];
        assert_eq!(e.pc, 0, "the call site");
        assert_eq!(e.detail.as_ref().expect("detail").pcs, [2], "the s_trap");
    }
}
