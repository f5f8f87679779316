//! Helpers shared by the vector-ALU integration tests: assemble a program, set registers,
//! optionally edit the encoded instructions (to set bits the assembler does not write, such
//! as VOP3 `op_sel`), run it.

#![allow(dead_code)]

use gpumemsim::exec::{Device, RunConfig, RunError};
use gpumemsim::isa::asm::{assemble, AsmLine};

/// Runs `src` (one wave) after `setup`, with `edit` applied to the assembled lines.
pub fn run_edit(
    src: &str,
    cfg: &RunConfig,
    setup: impl FnOnce(&mut Device),
    edit: impl FnOnce(&mut [AsmLine]),
) -> (Device, Result<(), RunError>) {
    let mut prog = assemble(src);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    edit(&mut prog.lines);
    let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
    setup(&mut dev);
    let r = dev.run(&prog.lines, cfg);
    (dev, r)
}

/// Runs `src` in wave32 after `setup`; the run must succeed.
pub fn run(src: &str, setup: impl FnOnce(&mut Device)) -> Device {
    let (dev, r) = run_edit(src, &RunConfig::default(), setup, |_| {});
    r.expect("runs");
    dev
}

/// Runs `src` in a wave of `size` lanes.
pub fn run_size(src: &str, size: u32, setup: impl FnOnce(&mut Device)) -> Device {
    let cfg = RunConfig {
        wave_size: size,
        ..RunConfig::default()
    };
    let (dev, r) = run_edit(src, &cfg, setup, |_| {});
    r.expect("runs");
    dev
}

/// Sets VGPRs `regs[i]` of every lane from `f(lane)[i]`.
pub fn set_lanes<const N: usize>(dev: &mut Device, regs: [u32; N], f: impl Fn(u32) -> [u32; N]) {
    let w = dev.wave_mut(0);
    for l in 0..w.size {
        let v = f(l);
        for (r, x) in regs.iter().zip(v) {
            w.set_vgpr(*r, l, x);
        }
    }
}

/// f32 bits.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// f16 bits of an f32 value (nearest even).
pub fn h(x: f32) -> u32 {
    gpumemsim::fp::valu::f32_to_f16(x.to_bits(), gpumemsim::fp::valu::Round::NearestEven) as u32
}

/// The wave's MODE with `f32` and `f64` (also f16) FP_DENORM fields.
pub fn mode(f32_denorm: u32, f64_denorm: u32) -> u32 {
    f32_denorm << 4 | f64_denorm << 6
}
