//! Occupancy: how many waves of a kernel a SIMD holds at once, and which resource stops it from
//! holding more — the numbers clang-19 prints with `-Rpass-analysis=kernel-resource-usage` and
//! Radeon GPU Analyzer shows, computed by one rule that the launch and the timing model share.
//!
//! [`Resources`] is what a kernel asks of the machine (registers, LDS, scratch, wave and
//! workgroup size), read from a [`Kernel`] plus the launch's dynamic LDS; [`DeviceLimits`] is
//! what gfx1100 has; [`occupancy`] is the rule. The rule is LLVM's
//! (`GCNSubtarget::computeOccupancy`, which `AMDGPUAsmPrinter::getSIProgramInfo` calls for the
//! remark): the least of
//!
//! - the wave slots of a SIMD ([`MAX_WAVES_PER_SIMD`]);
//! - the VGPR file: `total / align_up(allocated VGPRs, granule)` waves
//!   ([`VGPRS_PER_SIMD_LANE_WAVE32`], [`VGPR_ALLOC_GRANULE_WAVE32`] and their wave64 twins);
//! - whole workgroups: LDS and the workgroup's own shape decide how many workgroups one CU (CU
//!   mode) or WGP (WGP mode) holds, `min(LDS / lds_bytes, slots / waves_per_group, barriers)`,
//!   and their waves are spread over its SIMDs, rounding up
//!   (`AMDGPUSubtarget::getOccupancyWithLocalMemSize`, `IsaInfo::getMaxWorkGroupsPerCU`).
//!
//! SGPRs never lower it on gfx10 and later (`GCNSubtarget::getOccupancyWithNumSGPRs` returns the
//! wave-slot limit from GFX10 on: each wave gets a fixed SGPR allocation), and scratch never does
//! (LLVM: "FIXME: Need to take scratch memory into account"). The rule is
//! docs/rules/timing.md#occupancy-rule; docs/occupancy.md has it in full, with the arithmetic.
//!
//! **What clang assumes that a launch knows better.** clang sees no launch, so it takes the
//! kernel's largest workgroup (`.max_flat_workgroup_size`: 256 for OpenCL C, 1024 for HIP,
//! or the `reqd_work_group_size`) and no dynamic LDS. [`Resources::of_kernel`] makes the same
//! assumptions, which is why it agrees with clang on every kernel of the corpus
//! (`tests/golden/resources.txt`); a launch sets the real block size and dynamic LDS with
//! [`Resources::with_workgroup_size`] and [`Resources::with_dynamic_lds`]. CU or WGP mode comes
//! from the kernel descriptor (`.amdhsa_workgroup_processor_mode`, clang's default for gfx1100
//! being WGP mode), as LLVM takes it from the `cumode` feature the descriptor records.

use std::fmt;

use crate::loader::{Kernel, KernelDescriptor};

/// Wave slots per SIMD on gfx1100: 16, for wave32 and wave64 alike.
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getMaxWavesPerEU`: 10 before gfx10, 20 on gfx10.1,
/// 16 from gfx10.3 on (`hasGFX10_3Insts`, which gfx11 has). An "EU" in LLVM is a SIMD.
pub const MAX_WAVES_PER_SIMD: u32 = 16;

/// VGPRs per SIMD per lane for wave32 waves: 1536, 1.5× gfx1030's 1024.
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getTotalNumVGPRs`: `Feature1_5xVGPRs ? (wave32 ? 1536 :
/// 768) : (wave32 ? 1024 : 512)`; gfx1100 and gfx1101 carry the feature (`AMDGPU.td`,
/// `FeatureISAVersion11_0_0`, added as `FeatureGFX11FullVGPRs` by D134522), gfx1102 and gfx1103
/// do not. AMD's ROCm GPU specifications table (`docs/reference/gpu-specs.rst`) shows the same
/// 1.5×: a VGPR file of 768 KiB for the gfx1100 and gfx1101 boards, 512 KiB for gfx1102.
/// (1536 VGPRs × 32 lanes × 4 bytes = 192 KiB per SIMD.)
pub const VGPRS_PER_SIMD_LANE_WAVE32: u32 = 1536;

/// VGPRs per SIMD per lane for wave64 waves: 768 (the same file seen 64 lanes wide).
/// Source: as [`VGPRS_PER_SIMD_LANE_WAVE32`].
pub const VGPRS_PER_SIMD_LANE_WAVE64: u32 = 768;

/// The VGPR allocation granule of a wave32 wave: a wave holds a multiple of 24 VGPRs.
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getVGPRAllocGranule`: `Feature1_5xVGPRs ? (wave32 ? 24 :
/// 12)`, against 16/8 on gfx10.3 and 8/4 on gfx10.1 (the granule grew with the file).
pub const VGPR_ALLOC_GRANULE_WAVE32: u32 = 24;

/// The VGPR allocation granule of a wave64 wave: 12. Source: as [`VGPR_ALLOC_GRANULE_WAVE32`].
pub const VGPR_ALLOC_GRANULE_WAVE64: u32 = 12;

/// The granule of the kernel descriptor's VGPR count for wave32 (COMPUTE_PGM_RSRC1
/// GRANULATED_WORKITEM_VGPR_COUNT counts blocks of 8, minus one).
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getVGPREncodingGranule`: `wave32 ? 8 : 4` on gfx10+;
/// AMDGPUUsage, "compute_pgm_rsrc1 for GFX6-GFX12".
pub const VGPR_ENCODING_GRANULE_WAVE32: u32 = 8;

/// The same for wave64: blocks of 4. Source: as [`VGPR_ENCODING_GRANULE_WAVE32`].
pub const VGPR_ENCODING_GRANULE_WAVE64: u32 = 4;

/// VGPRs one wave can address: v0..v255.
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getAddressableNumArchVGPRs` (256); the RDNA3 ISA guide's
/// 8-bit VGPR operand fields.
pub const MAX_VGPRS_PER_WAVE: u32 = 256;

/// SGPRs one wave can use on gfx10+: 106 (s0..s105; VCC is on top of them).
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getAddressableNumSGPRs` (`Version.Major >= 10` → 106).
pub const MAX_SGPRS_PER_WAVE: u32 = 106;

/// The granule of the kernel descriptor's SGPR count (COMPUTE_PGM_RSRC1
/// GRANULATED_WAVEFRONT_SGPR_COUNT counts blocks of 8, minus one).
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getSGPREncodingGranule` (8). gfx10+ hardware ignores the
/// field (every wave gets the same SGPR allocation), but clang-19 still fills it.
pub const SGPR_ENCODING_GRANULE: u32 = 8;

/// LDS bytes of one CU, the pool of a CU-mode workgroup: 64 KiB.
///
/// The RDNA3 ISA guide (docs/rules/timing.md#lds-per-cu-and-wgp): a WGP's 128 KB of LDS is two
/// halves of 32 banks, one per pair of SIMD32s (one CU). LLVM `AMDGPUBaseInfo.cpp`,
/// `IsaInfo::getLocalMemorySize`: `FeatureLocalMemorySize65536` (gfx7 on), per "CU".
pub const LDS_BYTES_PER_CU: u32 = 64 * 1024;

/// LDS bytes of one WGP, the pool of a WGP-mode workgroup: 128 KiB.
///
/// The RDNA3 ISA guide (docs/rules/timing.md#lds-per-cu-and-wgp, [`crate::lds::LDS_BYTES`]). LLVM
/// `AMDGPUBaseInfo.cpp`, `IsaInfo::getLocalMemorySize`: "the effective local memory size is
/// doubled in WGP mode on gfx10" (`isGFX10Plus && !FeatureCuMode` → ×2).
pub const LDS_BYTES_PER_WGP: u32 = crate::lds::LDS_BYTES;

/// LDS bytes one workgroup may allocate: 64 KiB, in either mode.
///
/// The RDNA3 ISA guide (docs/rules/timing.md#lds-per-cu-and-wgp,
/// [`crate::lds::MAX_ALLOCATION`]);
/// LLVM `IsaInfo::getAddressableLocalMemorySize` (65536), above which clang refuses a kernel's
/// static LDS ("local memory limit exceeded").
pub const MAX_LDS_BYTES_PER_WORKGROUP: u32 = crate::lds::MAX_ALLOCATION;

/// SIMDs of one CU, over which a CU-mode workgroup's waves are spread: 2.
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getEUsPerCU`: "For gfx10 in CU mode this is the CU,
/// which contains two SIMDs"; the RDNA3 ISA guide: a CU is a pair of SIMD32s.
pub const SIMDS_PER_CU: u32 = 2;

/// SIMDs of one WGP, over which a WGP-mode workgroup's waves are spread: 4.
///
/// LLVM `IsaInfo::getEUsPerCU`: "For gfx10 in WGP mode the WGP contains two CUs, so a total of
/// four SIMDs".
pub const SIMDS_PER_WGP: u32 = 4;

/// Workgroups of more than one wave a CU holds at once in CU mode: 16 (one barrier each).
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getMaxWorkGroupsPerCU`: `MaxBarriers = 16`, 32 on gfx10+
/// in WGP mode; "Single-wave workgroups don't consume barrier resources".
pub const BARRIERS_PER_CU: u32 = 16;

/// Workgroups of more than one wave a WGP holds at once in WGP mode: 32. Source: as
/// [`BARRIERS_PER_CU`].
pub const BARRIERS_PER_WGP: u32 = 32;

/// Work-items one workgroup may have: 1024.
///
/// LLVM `AMDGPUBaseInfo.cpp`, `IsaInfo::getMaxFlatWorkGroupSize` (1024), which is also the
/// largest workgroup LLVM assumes for a kernel without a size attribute
/// (`AMDGPUSubtarget::getDefaultFlatWorkGroupSize`); [`crate::launch::MAX_BLOCK`].
pub const MAX_WORKGROUP_SIZE: u32 = 1024;

/// What a device has, for [`occupancy`]. [`DeviceLimits::GFX1100`] (the default) holds the
/// constants of this module, each with its source; the fields exist so a study can ask "what
/// if" (a gfx1030-sized VGPR file, CU-mode barriers) without editing the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Wave slots per SIMD ([`MAX_WAVES_PER_SIMD`]).
    pub max_waves_per_simd: u32,
    /// VGPRs per SIMD per lane, wave32 ([`VGPRS_PER_SIMD_LANE_WAVE32`]).
    pub vgprs_per_simd_lane_wave32: u32,
    /// VGPRs per SIMD per lane, wave64 ([`VGPRS_PER_SIMD_LANE_WAVE64`]).
    pub vgprs_per_simd_lane_wave64: u32,
    /// VGPR allocation granule, wave32 ([`VGPR_ALLOC_GRANULE_WAVE32`]).
    pub vgpr_granule_wave32: u32,
    /// VGPR allocation granule, wave64 ([`VGPR_ALLOC_GRANULE_WAVE64`]).
    pub vgpr_granule_wave64: u32,
    /// VGPRs a wave can address ([`MAX_VGPRS_PER_WAVE`]).
    pub max_vgprs_per_wave: u32,
    /// SGPRs a wave can use ([`MAX_SGPRS_PER_WAVE`]).
    pub max_sgprs_per_wave: u32,
    /// LDS bytes of a CU, the pool in CU mode ([`LDS_BYTES_PER_CU`]).
    pub lds_bytes_per_cu: u32,
    /// LDS bytes of a WGP, the pool in WGP mode ([`LDS_BYTES_PER_WGP`]).
    pub lds_bytes_per_wgp: u32,
    /// LDS bytes one workgroup may allocate ([`MAX_LDS_BYTES_PER_WORKGROUP`]).
    pub max_lds_bytes_per_workgroup: u32,
    /// SIMDs of a CU ([`SIMDS_PER_CU`]).
    pub simds_per_cu: u32,
    /// SIMDs of a WGP ([`SIMDS_PER_WGP`]).
    pub simds_per_wgp: u32,
    /// Multi-wave workgroups per CU in CU mode ([`BARRIERS_PER_CU`]).
    pub barriers_per_cu: u32,
    /// Multi-wave workgroups per WGP in WGP mode ([`BARRIERS_PER_WGP`]).
    pub barriers_per_wgp: u32,
    /// Work-items per workgroup ([`MAX_WORKGROUP_SIZE`]).
    pub max_workgroup_size: u32,
}

impl DeviceLimits {
    /// gfx1100 (Navi 31), every field from this module's constants.
    pub const GFX1100: DeviceLimits = DeviceLimits {
        max_waves_per_simd: MAX_WAVES_PER_SIMD,
        vgprs_per_simd_lane_wave32: VGPRS_PER_SIMD_LANE_WAVE32,
        vgprs_per_simd_lane_wave64: VGPRS_PER_SIMD_LANE_WAVE64,
        vgpr_granule_wave32: VGPR_ALLOC_GRANULE_WAVE32,
        vgpr_granule_wave64: VGPR_ALLOC_GRANULE_WAVE64,
        max_vgprs_per_wave: MAX_VGPRS_PER_WAVE,
        max_sgprs_per_wave: MAX_SGPRS_PER_WAVE,
        lds_bytes_per_cu: LDS_BYTES_PER_CU,
        lds_bytes_per_wgp: LDS_BYTES_PER_WGP,
        max_lds_bytes_per_workgroup: MAX_LDS_BYTES_PER_WORKGROUP,
        simds_per_cu: SIMDS_PER_CU,
        simds_per_wgp: SIMDS_PER_WGP,
        barriers_per_cu: BARRIERS_PER_CU,
        barriers_per_wgp: BARRIERS_PER_WGP,
        max_workgroup_size: MAX_WORKGROUP_SIZE,
    };

    /// gfx942 (MI300, CDNA3), each field from LLVM 19's `AMDGPUBaseInfo.cpp` for a subtarget
    /// with `FeatureGFX90AInsts` (gfx90a and gfx940-942) and AMD's CDNA3 ISA guide:
    /// - 8 waves per SIMD (`getMaxWavesPerEU`: "if (hasGFX90AInsts) return 8");
    /// - a unified file of 512 VGPRs per lane, VGPRs and AGPRs together, allocated in blocks
    ///   of 8 (`getTotalNumVGPRs` 512, `getVGPRAllocGranule` 8, `getAddressableNumVGPRs` 512;
    ///   the descriptor's count is the unified one: `Target::vgpr_encoding_granule`);
    /// - 102 addressable SGPRs (`getAddressableNumSGPRs`, gfx8+), and VCC, FLAT_SCRATCH and
    ///   XNACK_MASK, which clang's SGPR count includes, on top: 108;
    /// - 64 KiB of LDS per CU, which one workgroup may take whole (no WGPs: CU mode only);
    /// - 4 SIMDs per CU (`getEUsPerCU`), 16 barriers per CU (`getMaxWorkGroupsPerCU`), 1024
    ///   work-items per workgroup.
    ///
    /// LLVM's SGPR tiers below 8 waves (more than 100 SGPRs: 7 waves on GFX9) are not
    /// modelled: a kernel that many SGPRs is counted at 8.
    pub const GFX942: DeviceLimits = DeviceLimits {
        max_waves_per_simd: 8,
        vgprs_per_simd_lane_wave32: 512,
        vgprs_per_simd_lane_wave64: 512,
        vgpr_granule_wave32: 8,
        vgpr_granule_wave64: 8,
        max_vgprs_per_wave: 512,
        max_sgprs_per_wave: 108,
        lds_bytes_per_cu: 64 * 1024,
        lds_bytes_per_wgp: 64 * 1024,
        max_lds_bytes_per_workgroup: 64 * 1024,
        simds_per_cu: 4,
        simds_per_wgp: 4,
        barriers_per_cu: 16,
        barriers_per_wgp: 16,
        max_workgroup_size: 1024,
    };

    /// VGPRs per SIMD per lane for waves of `wave_size` lanes (64, or else 32).
    pub fn vgprs_per_simd_lane(&self, wave_size: u32) -> u32 {
        if wave_size == 64 {
            self.vgprs_per_simd_lane_wave64
        } else {
            self.vgprs_per_simd_lane_wave32
        }
    }

    /// The VGPR allocation granule for waves of `wave_size` lanes (64, or else 32).
    pub fn vgpr_granule(&self, wave_size: u32) -> u32 {
        if wave_size == 64 {
            self.vgpr_granule_wave64
        } else {
            self.vgpr_granule_wave32
        }
    }
}

impl Default for DeviceLimits {
    fn default() -> DeviceLimits {
        DeviceLimits::GFX1100
    }
}

/// Where [`Resources::vgprs`] and [`Resources::sgprs`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegisterCounts {
    /// The metadata note's `.vgpr_count` and `.sgpr_count`: exact, and what clang's remark
    /// prints.
    Metadata,
    /// The kernel descriptor's granulated counts (an object without a metadata note): rounded
    /// up to blocks of 8 (wave32) or 4 (wave64) VGPRs and 8 SGPRs, upper bounds less than a
    /// block high. The occupancy is the same (see [`Resources::of_kernel`]).
    Descriptor,
}

/// What one kernel asks of the machine, per wave and per workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resources {
    /// Architectural VGPRs per lane the code uses (`VGPRs` in clang's remark). On gfx942,
    /// whose metadata counts the unified file, that count less the AGPRs: the VGPRs up to the
    /// first AGPR, a multiple of 4 when there are AGPRs (clang's remark gives the exact count).
    pub vgprs: u32,
    /// AGPRs per lane (`AGPRs` in clang's remark; gfx942's unified file, 0 on gfx1100).
    pub agprs: u32,
    /// VGPRs per lane the kernel descriptor makes the hardware allocate (its granulated count,
    /// [`descriptor_vgprs`]); 0 when unknown. At least `vgprs`, and more when clang padded the
    /// allocation (an `amdgpu_waves_per_eu` attribute). [`occupancy`] uses the larger of the two.
    pub allocated_vgprs: u32,
    /// SGPRs per wave, VCC included (`SGPRs` in clang's remark).
    pub sgprs: u32,
    /// Static LDS bytes per workgroup (`.group_segment_fixed_size`; `LDS Size` in the remark).
    pub static_lds_bytes: u32,
    /// Dynamic LDS bytes per workgroup: OpenCL `__local` arguments and HIP's `extern
    /// __shared__`, which only the launch knows (0 from [`Resources::of_kernel`]).
    pub dynamic_lds_bytes: u32,
    /// Private (scratch) bytes per lane (`.private_segment_fixed_size`; `ScratchSize`).
    pub scratch_bytes_per_lane: u32,
    /// 32 or 64.
    pub wave_size: u32,
    /// Work-items per workgroup: the launch's block, or the largest the kernel was compiled for
    /// (`.max_flat_workgroup_size`), which is what clang assumes.
    pub workgroup_size: u32,
    /// WGP mode (the workgroup's waves on both CUs of a WGP, sharing its 128 KiB of LDS) or CU
    /// mode (one CU, its 64 KiB): `.amdhsa_workgroup_processor_mode`.
    pub wgp_mode: bool,
    /// Where the register counts came from.
    pub register_counts: RegisterCounts,
}

impl Resources {
    /// The resources of `kernel` as clang-19 accounts for them, with no dynamic LDS and the
    /// largest workgroup it was compiled for.
    ///
    /// The register *counts* come from the metadata note (`.vgpr_count`, `.sgpr_count`) when
    /// the object has one, else from the descriptor's COMPUTE_PGM_RSRC1; the VGPR *allocation*
    /// always comes from the descriptor. Each is the right source for its use, as clang-19's
    /// remarks show:
    ///
    /// - The metadata holds the exact counts the remark prints (`VGPRs`, and `SGPRs` with VCC
    ///   included). The descriptor holds blocks, `ceil(n / 8) - 1` (wave32 VGPRs, and SGPRs) or
    ///   `ceil(n / 4) - 1` (wave64 VGPRs): `lds_sum` (wave32) has 10 VGPRs and 18 SGPRs by clang
    ///   and by the metadata, 16 and 24 by the descriptor.
    /// - The descriptor's VGPR blocks are what the hardware allocates, and what clang's
    ///   occupancy follows (`NumVGPRsForWavesPerEU`). They are the count rounded up to a block
    ///   (which changes no occupancy: the allocation granule, 24 or 12, is a multiple of the
    ///   block, 8 or 4), except when clang pads the allocation to honour
    ///   `__attribute__((amdgpu_waves_per_eu(1, 4)))`: in wave64 such a kernel uses 32 VGPRs
    ///   (remark and metadata) but allocates 148 (descriptor), and clang prints 4 waves per
    ///   SIMD, which only the descriptor's count gives.
    ///
    /// `tests/occupancy.rs` checks both on every corpus kernel. LDS and scratch come from the
    /// descriptor, which always exists and equals the metadata. The workgroup size is
    /// `.max_flat_workgroup_size`, else 1024 ([`MAX_WORKGROUP_SIZE`], LLVM's default for a
    /// kernel without a size attribute).
    pub fn of_kernel(kernel: &Kernel) -> Resources {
        let d = &kernel.descriptor;
        let wave_size = if d.wave32() { 32 } else { 64 };
        let meta = kernel.metadata.as_ref();
        let (vgprs, sgprs, register_counts) = match meta {
            Some(m) if m.vgpr_count > 0 || m.sgpr_count > 0 => (
                m.vgpr_count.saturating_sub(m.agpr_count),
                m.sgpr_count,
                RegisterCounts::Metadata,
            ),
            _ => (
                descriptor_vgprs(d),
                descriptor_sgprs(d),
                RegisterCounts::Descriptor,
            ),
        };
        let workgroup_size = meta
            .map(|m| m.max_flat_workgroup_size)
            .filter(|&n| n > 0)
            .unwrap_or(MAX_WORKGROUP_SIZE);
        Resources {
            vgprs,
            agprs: meta.map_or(0, |m| m.agpr_count),
            allocated_vgprs: descriptor_vgprs(d),
            sgprs,
            static_lds_bytes: d.group_segment_fixed_size,
            dynamic_lds_bytes: 0,
            scratch_bytes_per_lane: d.private_segment_fixed_size,
            wave_size,
            workgroup_size,
            wgp_mode: d.wgp_mode(),
            register_counts,
        }
    }

    /// The registers of the wave's file the code uses: its VGPRs, and on a unified file
    /// (gfx942) the AGPRs after them, from a multiple of 4.
    pub fn file_vgprs(&self) -> u32 {
        match self.agprs {
            0 => self.vgprs,
            a => self.vgprs.next_multiple_of(4) + a,
        }
    }

    /// The same with `bytes` of dynamic LDS per workgroup (the launch's local arguments and
    /// `--dynamic-lds`, padding included).
    pub fn with_dynamic_lds(self, bytes: u32) -> Resources {
        Resources {
            dynamic_lds_bytes: bytes,
            ..self
        }
    }

    /// The same for workgroups of `work_items` work-items (the launch's block).
    pub fn with_workgroup_size(self, work_items: u32) -> Resources {
        Resources {
            workgroup_size: work_items,
            ..self
        }
    }

    /// LDS bytes per workgroup, static and dynamic.
    pub fn lds_bytes(&self) -> u32 {
        self.static_lds_bytes.saturating_add(self.dynamic_lds_bytes)
    }

    /// Waves per workgroup: `ceil(workgroup_size / wave_size)`.
    pub fn waves_per_workgroup(&self) -> u32 {
        self.workgroup_size.max(1).div_ceil(self.wave_size.max(1))
    }
}

/// The VGPRs per lane the descriptor allocates: (GRANULATED_WORKITEM_VGPR_COUNT + 1) blocks of
/// 8 (wave32) or 4 (wave64) — COMPUTE_PGM_RSRC1 bits 5:0, AMDGPUUsage. An upper bound of the
/// exact count, less than one block above it.
pub fn descriptor_vgprs(d: &KernelDescriptor) -> u32 {
    let [wave64, wave32] = d.chip.vgpr_encoding_granule;
    let granule = if d.wave32() { wave32 } else { wave64 };
    ((d.rsrc1 & 0x3f) + 1) * granule
}

/// The SGPRs the descriptor records: (GRANULATED_WAVEFRONT_SGPR_COUNT + 1) blocks of 8 —
/// COMPUTE_PGM_RSRC1 bits 9:6, AMDGPUUsage. gfx10+ hardware ignores the field; clang-19 fills it
/// from the kernel's SGPR count (VCC included), so it is an upper bound of that count.
pub fn descriptor_sgprs(d: &KernelDescriptor) -> u32 {
    ((d.rsrc1 >> 6 & 0xf) + 1) * SGPR_ENCODING_GRANULE
}

/// The resource that limits occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limiter {
    /// The SIMD's wave slots: nothing the kernel asks for lowers occupancy below the hardware
    /// maximum.
    Waves,
    /// The VGPR file.
    Vgprs,
    /// SGPRs: only a kernel that needs more than a wave can address (it cannot run); on gfx10+
    /// SGPRs never lower occupancy otherwise.
    Sgprs,
    /// The CU's or WGP's LDS (static plus dynamic).
    Lds,
    /// Whole workgroups: wave slots that a workgroup's waves cannot fill (a CU/WGP holds whole
    /// workgroups only), the barrier count, or a workgroup larger than the hardware's.
    Workgroup,
}

impl Limiter {
    /// Its name in reports: `waves`, `vgprs`, `sgprs`, `lds`, `workgroup`.
    pub fn name(self) -> &'static str {
        match self {
            Limiter::Waves => "waves",
            Limiter::Vgprs => "vgprs",
            Limiter::Sgprs => "sgprs",
            Limiter::Lds => "lds",
            Limiter::Workgroup => "workgroup",
        }
    }
}

impl fmt::Display for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Waves per SIMD each resource alone would allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The wave slots ([`DeviceLimits::max_waves_per_simd`]).
    pub waves: u32,
    /// The VGPR file.
    pub vgprs: u32,
    /// SGPRs (the wave-slot limit, or 0 for more than a wave can address).
    pub sgprs: u32,
    /// LDS, as whole workgroups per CU/WGP.
    pub lds: u32,
    /// Whole workgroups per CU/WGP by wave slots and barriers.
    pub workgroup: u32,
}

/// A kernel's occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    /// Waves per SIMD (clang's `Occupancy [waves/SIMD]`); 0 when one workgroup cannot be placed
    /// at all (more LDS, VGPRs, SGPRs or work-items than the hardware gives one workgroup).
    pub waves_per_simd: u32,
    /// The resource whose limit that is. When several give the same number, the first of
    /// `vgprs`, `sgprs`, `lds`, `workgroup` is named; `waves` only when none is below the
    /// wave-slot limit.
    pub limited_by: Limiter,
    /// What each resource alone would allow.
    pub limits: Limits,
}

/// Waves per SIMD of a kernel asking `r` on a device with `d`: LLVM's rule (see the module
/// documentation and docs/occupancy.md), with these steps:
///
/// - `vgprs`: with `v = max(vgprs, allocated_vgprs)`, `min(total / align_up(v, granule),
///   max_waves)`, and `max_waves` when `v` is less than one granule
///   (`IsaInfo::getNumWavesPerEUWithNumVGPRs`); 0 above 256.
/// - `sgprs`: `max_waves` (0 above 106).
/// - workgroups: with `W = ceil(workgroup_size / wave_size)` waves per workgroup, `S` SIMDs
///   and `L` LDS bytes per CU (CU mode) or WGP (WGP mode), `lds` allows
///   `G = L / max(lds_bytes, 1)` workgroups and `workgroup` allows `G = min(max_waves × S / W,
///   barriers)` (`max_waves × S` if `W` is 1); each becomes `min(ceil(G × W / S), max_waves)`.
///   A workgroup over 64 KiB of LDS or 1024 work-items allows 0.
pub fn occupancy(r: &Resources, d: &DeviceLimits) -> Occupancy {
    let max = d.max_waves_per_simd;
    let wave_size = if r.wave_size == 64 { 64 } else { 32 };

    let used = r.file_vgprs().max(r.allocated_vgprs);
    let vgprs = if used > d.max_vgprs_per_wave {
        0
    } else {
        let granule = d.vgpr_granule(wave_size).max(1);
        if used < granule {
            max
        } else {
            let rounded = used.next_multiple_of(granule);
            (d.vgprs_per_simd_lane(wave_size) / rounded).clamp(1, max)
        }
    };

    let sgprs = if r.sgprs > d.max_sgprs_per_wave {
        0
    } else {
        max
    };

    let (simds, lds_pool, barriers) = if r.wgp_mode {
        (d.simds_per_wgp, d.lds_bytes_per_wgp, d.barriers_per_wgp)
    } else {
        (d.simds_per_cu, d.lds_bytes_per_cu, d.barriers_per_cu)
    };
    let simds = simds.max(1);
    let waves_per_group = r.waves_per_workgroup();
    let per_simd = |groups: u32| -> u32 {
        (groups as u64 * waves_per_group as u64)
            .div_ceil(simds as u64)
            .min(max as u64) as u32
    };
    let lds_bytes = r.lds_bytes();
    let lds = if lds_bytes > d.max_lds_bytes_per_workgroup {
        0
    } else {
        per_simd(lds_pool / lds_bytes.max(1))
    };
    let slots = max * simds;
    let workgroup = if r.workgroup_size > d.max_workgroup_size {
        0
    } else if waves_per_group == 1 {
        // "Single-wave workgroups don't consume barrier resources."
        per_simd(slots)
    } else {
        per_simd((slots / waves_per_group).min(barriers))
    };

    let limits = Limits {
        waves: max,
        vgprs,
        sgprs,
        lds,
        workgroup,
    };
    let waves_per_simd = max.min(vgprs).min(sgprs).min(lds).min(workgroup);
    let limited_by = [
        (Limiter::Vgprs, vgprs),
        (Limiter::Sgprs, sgprs),
        (Limiter::Lds, lds),
        (Limiter::Workgroup, workgroup),
    ]
    .into_iter()
    .find(|&(_, w)| w == waves_per_simd && w < max)
    .map_or(Limiter::Waves, |(l, _)| l);
    Occupancy {
        waves_per_simd,
        limited_by,
        limits,
    }
}
