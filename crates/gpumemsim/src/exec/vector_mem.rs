//! GLOBAL loads and stores in the executor: the access itself is [`crate::vmem`]'s; here it
//! gets its wait counter (VMcnt for loads, VScnt for stores) and its completion time.

use rdna3_isa::Instruction;

use super::{Counter, Device, Pending, RunConfig};
use crate::vmem::{self, GlobalOp};

impl Device {
    /// Executes GLOBAL instruction `inst` of wave `wi`; returns its issue cycles, or `None`
    /// when the vector-memory model does not implement it.
    pub(crate) fn global(
        &mut self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        cfg: &RunConfig,
    ) -> Option<u64> {
        let op = vmem::global_op_of(inst.opcode)?;
        vmem::execute(inst, op, &mut self.waves[wi], &mut self.memory);
        let cost = cfg.timing.valu * (self.waves[wi].size as u64).div_ceil(32);
        let latency = cost + cfg.timing.vmem_latency;
        self.stats[pc].latency_cycles += latency;
        self.pending[wi].push(Pending {
            counter: match op {
                GlobalOp::Load { .. } => Counter::Vm,
                GlobalOp::Store { .. } => Counter::Vs,
            },
            done_at: self.clocks[wi] + latency,
            gds: false,
            weight: 1,
        });
        Some(cost)
    }
}
