//! Throughput of the ISA layer: decoding and assembling.
//!
//! `cargo bench -p rdna3-isa` prints instructions (or lines) per second. Targets (issue 2):
//! decode at least 50 million instructions per second, assemble at least 1 million lines per
//! second, on one core.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rdna3_isa::asm::assemble;
use rdna3_isa::def::all;
use rdna3_isa::parse::parse_instruction;
use rdna3_isa::print::print;
use rdna3_isa::Instruction;

/// A program of every table instruction (zero operands where valid), as bytes and as text.
fn corpus() -> (Vec<u8>, Vec<String>) {
    let mut bytes = Vec::new();
    let mut lines = Vec::new();
    for (op, _) in all() {
        let inst = Instruction::new(op);
        let text = print(&inst);
        if let Ok(p) = parse_instruction(&text) {
            p.inst.encode_into(&mut bytes);
            lines.push(text);
        }
    }
    (bytes, lines)
}

fn bench(c: &mut Criterion) {
    let (bytes, lines) = corpus();
    let n = rdna3_isa::asm::disassemble(&bytes).len() as u64;
    let mut g = c.benchmark_group("isa");
    g.throughput(Throughput::Elements(n));
    g.bench_function("decode", |b| {
        b.iter(|| {
            let mut off = 0;
            let mut count = 0u32;
            while off < bytes.len() {
                let (inst, size) = Instruction::decode(black_box(&bytes[off..])).expect("valid");
                count = count.wrapping_add(inst.opcode.0 as u32);
                off += size;
            }
            count
        })
    });
    let text = lines.join("\n");
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.bench_function("assemble", |b| {
        b.iter(|| assemble(black_box(&text)).lines.len())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
