//! The apertures and flat_scratch as a running program reads them.

use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::isa::asm::assemble;

#[test]
fn aperture_registers_and_flat_scratch_are_readable() {
    let prog = assemble(
        "s_mov_b64 s[0:1], src_shared_base\ns_mov_b64 s[2:3], src_private_limit\n\
         s_mov_b32 s4, src_private_base\n\
         s_getreg_b32 s5, hwreg(HW_REG_FLAT_SCR_LO)\ns_getreg_b32 s6, hwreg(HW_REG_FLAT_SCR_HI)\n\
         s_endpgm",
    );
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let cfg = RunConfig {
        wave_size: 64,
        waves: 2,
        scratch_base: 0x1234_0000_0000,
        scratch_size: 4016,
        ..RunConfig::default()
    };
    let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
    dev.run(&prog.lines, &cfg).expect("runs");
    for (i, w) in dev.waves.iter().enumerate() {
        assert_eq!(w.sreg64(0), 0x1_0000_0000_0000);
        assert_eq!(w.sreg64(2), 0x2_0000_ffff_ffff);
        assert_eq!(w.sreg(4), 0, "a 32-bit read gives the low dword");
        let fs = w.sreg(5) as u64 | (w.sreg(6) as u64) << 32;
        assert_eq!(fs, 0x1234_0000_0000 + i as u64 * 0x3ec00, "wave {i}");
    }
}
