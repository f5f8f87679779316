//! The cycle-approximate timing model's parameters, in one place.
//!
//! Each wave has its own clock (docs/rules/timing.md#per-wave-clocks). An instruction costs
//! its issue cycles; an LDS instruction also occupies the LDS for its bank cycles and completes
//! `lds_latency` cycles after that (docs/rules/timing.md#one-lds-instruction-at-a-time); a
//! GLOBAL access completes `vmem_latency` cycles after issue (the scalar cache's latencies are
//! in [`crate::smem::KcacheConfig`]); `s_waitcnt` advances the wave's clock to the completion
//! it waits for (docs/rules/timing.md#wait-counters); `s_barrier` advances every wave of the
//! workgroup to the latest arrival (docs/rules/timing.md#barriers). The numbers are
//! assumptions of this simulator (AMD publishes no cycle tables for RDNA3), chosen to be
//! plausible and kept here so they can be calibrated (docs/rules/timing.md#assumed-latencies).
//! `docs/timing.md` describes the whole model; the CLI sets every parameter with
//! `--timing NAME=CYCLES,...` and reports them under `"timing"`.

/// Timing parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimingParams {
    /// Issue cycles of a scalar ALU or program-control instruction.
    pub salu: u64,
    /// Issue cycles of a vector ALU instruction per 32 lanes.
    pub valu: u64,
    /// Cycles from an LDS instruction's last bank cycle to its data in VGPRs.
    pub lds_latency: u64,
    /// Issue cycles of an LDS instruction per 32 lanes when it has no bank conflict: 1 cycle
    /// for wave32, 2 for wave64 (docs/rules/timing.md#lds-issue-cycles).
    pub lds_issue: u64,
    /// Cycles from a vector memory (GLOBAL) instruction's issue to its completion, on a
    /// device whose vector caches are not modelled.
    pub vmem_latency: u64,
    /// Cycles from a vector memory instruction's issue until a line its CU's L0 holds is
    /// back (a device whose vector caches are modelled: [`crate::vcache`]).
    pub l0_latency: u64,
    /// The same for a line the L1 serves.
    pub l1_latency: u64,
    /// The same for a line the L2 serves.
    pub l2_latency: u64,
    /// The same for a line the Infinity Cache serves.
    pub mall_latency: u64,
    /// The same for a line from VRAM.
    pub vram_latency: u64,
    /// Issue cycles of a double-precision VALU operation per pass (the SIMD does one FP64
    /// lane-operation per cycle).
    pub f64_issue: u64,
    /// Cycles from a VALU instruction's issue until a dependent instruction can use its
    /// result.
    pub valu_latency: u64,
    /// The same for a transcendental (`v_exp`, `v_log`, `v_rcp`, `v_rsq`, `v_sqrt`, `v_sin`,
    /// `v_cos`).
    pub trans_latency: u64,
    /// The same for a double-precision operation.
    pub f64_latency: u64,
    /// Issue cycles of a quarter-rate VALU operation per pass of 32 lanes (32-bit integer
    /// multiplies: `v_mul_lo_u32`, `v_mul_hi_u32`, `v_mul_hi_i32`, `v_mqsad_u32_u8`).
    pub quarter_issue: u64,
    /// Cycles from a quarter-rate operation's issue until a dependent instruction can use its
    /// result.
    pub quarter_latency: u64,
    /// Cycles a transcendental occupies its SIMD's transcendental unit per pass of 32 lanes
    /// (the wave itself issues it in `valu` cycles per pass and goes on).
    pub trans_issue: u64,
    /// Cycles from a SALU instruction's issue until a VALU instruction can use its result.
    pub salu_latency: u64,
    /// Cycles a vector memory instruction occupies its CU's request path per 32 lanes.
    pub vmem_issue: u64,
    /// Cycles a GDS or GWS instruction occupies the device's GDS unit.
    pub gds_issue: u64,
    /// Cycles from a GDS instruction's issue to its completion.
    pub gds_latency: u64,
    /// Cycles from a GWS instruction's issue to its completion.
    pub gws_latency: u64,
}

impl TimingParams {
    /// RDNA3's (gfx1100's) parameters: the defaults.
    pub const RDNA3: TimingParams = TimingParams {
        salu: 1,
        valu: 1,
        lds_latency: 20,
        lds_issue: 1,
        vmem_latency: 320,
        l0_latency: 120,
        l1_latency: 190,
        l2_latency: 280,
        mall_latency: 376,
        vram_latency: 586,
        f64_issue: 32,
        valu_latency: 5,
        trans_latency: 10,
        f64_latency: 38,
        quarter_issue: 4,
        quarter_latency: 8,
        trans_issue: 4,
        salu_latency: 2,
        vmem_issue: 1,
        gds_issue: 1,
        gds_latency: 100,
        gws_latency: 150,
    };

    /// CDNA3's (gfx942's): RDNA3's, but for the VALU's width. A CDNA3 CU has four SIMDs of
    /// 16 lanes, which run a wave64 instruction in 4 cycles (AMD's CDNA3 ISA guide and
    /// white paper): 2 cycles per 32 lanes. Its FP64 vector rate is its FP32 one unpacked
    /// (AMD's MI300X specifications: 81.7 TFLOPS FP64 vector, 163.4 FP32 vector with packed
    /// FP32): `f64_issue` 2 as well. The quarter-rate operations and the transcendentals
    /// keep their quarter of the VALU's rate on the narrower SIMD: 8 cycles per 32 lanes (16
    /// per wave64, as on GCN, whose SIMD16 CDNA keeps). The vector caches' latencies are
    /// MI300X's measured pointer chases (docs/timing.md#cdna3-gfx942 gives the sources): a
    /// vL1D hit 115 cycles, an L2 hit 210, the Infinity Cache 384, HBM 850 (`l1_latency`
    /// goes unused: CDNA3 has no such level). The other latencies are RDNA3's estimates.
    pub const CDNA3: TimingParams = TimingParams {
        valu: 2,
        f64_issue: 2,
        quarter_issue: 8,
        trans_issue: 8,
        l0_latency: 115,
        l2_latency: 210,
        mall_latency: 384,
        vram_latency: 850,
        ..TimingParams::RDNA3
    };

    /// The parameters `chip` runs with: `chip`'s, except where `self` (a caller's) differs
    /// from RDNA3's defaults or is named in `chosen` — a parameter the caller set stays set.
    pub fn on_chip(self, chip: &TimingParams, chosen: &[&str]) -> TimingParams {
        let d = TimingParams::RDNA3;
        macro_rules! pick {
            ($($f:ident),*) => {
                TimingParams { $($f: if self.$f != d.$f || chosen.contains(&stringify!($f)) {
                    self.$f
                } else {
                    chip.$f
                }),* }
            };
        }
        pick!(
            salu,
            valu,
            lds_latency,
            lds_issue,
            vmem_latency,
            l0_latency,
            l1_latency,
            l2_latency,
            mall_latency,
            vram_latency,
            f64_issue,
            valu_latency,
            trans_latency,
            f64_latency,
            quarter_issue,
            quarter_latency,
            trans_issue,
            salu_latency,
            vmem_issue,
            gds_issue,
            gds_latency,
            gws_latency
        )
    }
}

impl Default for TimingParams {
    fn default() -> TimingParams {
        TimingParams::RDNA3
    }
}

#[cfg(test)]
mod on_chip_tests {
    use super::TimingParams;

    /// A chip's parameters replace the defaults a caller left alone; what the caller changed,
    /// or named, stays.
    #[test]
    fn the_callers_parameters_stay_and_the_rest_follow_the_chip() {
        let cdna3 = TimingParams::CDNA3;
        assert_eq!(TimingParams::RDNA3.on_chip(&cdna3, &[]), cdna3);
        assert_eq!(
            TimingParams::RDNA3.on_chip(&TimingParams::RDNA3, &[]),
            TimingParams::RDNA3
        );
        let mine = TimingParams {
            vmem_latency: 500,
            ..TimingParams::RDNA3
        };
        let t = mine.on_chip(&cdna3, &[]);
        assert_eq!((t.vmem_latency, t.valu, t.f64_issue), (500, 2, 2));
        // valu=1 set by name keeps RDNA3's value on CDNA3.
        let t = TimingParams::RDNA3.on_chip(&cdna3, &["valu"]);
        assert_eq!((t.valu, t.f64_issue), (1, 2));
    }
}
