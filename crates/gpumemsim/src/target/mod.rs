//! The chips gpumemsim runs code for, as data ([`Target`]): what a launch, the loader and the
//! executor need to know that differs between them. The executor itself is one; a chip whose
//! instruction set is not gfx1100's has its instructions lowered to gfx1100's where they mean
//! the same ([`gfx9`] for gfx942), and the few that differ named there.
//!
//! Adding a chip of a known generation (gfx90a, gfx950 next to gfx942) is a [`Target`] here
//! and, where its table differs, lines of its generation's lowering; see docs/targets.md.

pub mod gfx9;

use crate::banks::BankModel;
use rdna3_isa::{Instruction, Isa};

/// One chip.
#[derive(Debug)]
pub struct Target {
    /// Its processor name (`gfx1100`), as clang's `-mcpu` and the reports name it.
    pub name: &'static str,
    /// Its `EF_AMDGPU_MACH` (LLVM's `llvm/BinaryFormat/ELF.h`).
    pub mach: u32,
    /// The instruction table its code decodes with.
    pub isa: Isa,
    /// Lanes of a wave when the code does not choose (clang's default for the chip).
    pub default_wave_size: u32,
    /// The LDS bank model preset ([`BankModel::preset`]) of its LDS.
    pub bank_preset: &'static str,
    /// Whether stores count on VMcnt (GFX9: "decremented when data is returned to VGPRs, or
    /// memory writes have completed"), where gfx10+ counts them on VScnt.
    pub stores_on_vmcnt: bool,
    /// The kernel descriptor's VGPR count unit (COMPUTE_PGM_RSRC1 bits 5:0 count blocks of
    /// this many, minus one) for wave64 and wave32: LLVM `AMDGPUBaseInfo.cpp`,
    /// `IsaInfo::getVGPREncodingGranule` (gfx90a and later: 8 for either wave size).
    pub vgpr_encoding_granule: [u32; 2],
    /// What occupancy is computed against.
    pub limits: crate::occupancy::DeviceLimits,
    /// CUs in the unit placement deals workgroups to (docs/rules/timing.md#placement): 2 in
    /// an RDNA3 WGP, each with its own half of the WGP's LDS (and LDS pipe), vector memory
    /// path and L0; 1 on CDNA3, whose unit is the CU (one LDS, one vL1D).
    pub cus_per_unit: u32,
    /// Its timing parameters ([`crate::timing::TimingParams::on_chip`]).
    pub timing: crate::timing::TimingParams,
    /// The device library that says which ISA version the code is for
    /// (`oclc_isa_version_*.bc`, Debian's rocm-device-libs).
    pub isa_version_library: &'static str,
}

/// RDNA3, Navi 31.
pub static GFX1100: Target = Target {
    name: "gfx1100",
    mach: 0x41,
    isa: Isa::Gfx11,
    default_wave_size: 32,
    bank_preset: "rdna3",
    stores_on_vmcnt: false,
    vgpr_encoding_granule: [
        crate::occupancy::VGPR_ENCODING_GRANULE_WAVE64,
        crate::occupancy::VGPR_ENCODING_GRANULE_WAVE32,
    ],
    limits: crate::occupancy::DeviceLimits::GFX1100,
    cus_per_unit: 2,
    timing: crate::timing::TimingParams::RDNA3,
    // Debian's rocm-device-libs (ROCm 5.2.3) has no gfx1100 ISA-version library; 1036's only
    // sets `__oclc_ISA_version`, which the libraries test for features gfx1100 also has.
    isa_version_library: "oclc_isa_version_1036",
};

/// CDNA3, MI300 (gfx940 instruction set: [`rdna3_isa::table_gfx940`]).
pub static GFX942: Target = Target {
    name: "gfx942",
    mach: 0x4c,
    isa: Isa::Gfx940,
    default_wave_size: 64,
    bank_preset: "cdna3",
    stores_on_vmcnt: true,
    vgpr_encoding_granule: [8, 8],
    limits: crate::occupancy::DeviceLimits::GFX942,
    cus_per_unit: 1,
    timing: crate::timing::TimingParams::CDNA3,
    isa_version_library: "oclc_isa_version_940",
};

/// Every chip gpumemsim runs code for.
pub static TARGETS: [&Target; 2] = [&GFX1100, &GFX942];

impl Target {
    /// The chip called `name` (`gfx1100`, `gfx942`; the bank presets `rdna3` and `cdna3`
    /// name their chips).
    pub fn named(name: &str) -> Option<&'static Target> {
        match name {
            "rdna3" => Some(&GFX1100),
            "cdna3" => Some(&GFX942),
            _ => TARGETS.iter().copied().find(|t| t.name == name),
        }
    }

    /// The chip whose `EF_AMDGPU_MACH` is `mach`.
    pub fn of_mach(mach: u32) -> Option<&'static Target> {
        TARGETS.iter().copied().find(|t| t.mach == mach)
    }

    /// The names of every chip, for messages.
    pub fn names() -> String {
        TARGETS.map(|t| t.name).join(", ")
    }

    /// Its LDS bank model.
    pub fn banks(&self) -> BankModel {
        BankModel::preset(self.bank_preset).expect("a target names a preset")
    }

    /// The instructions the executor runs for a run of this chip's code, in address order
    /// (some lowerings depend on the instructions before: [`gfx9::lower_code`]).
    pub fn lower_code(&self, code: &[Instruction], rsrc3: u32) -> Vec<Result<Instruction, String>> {
        match self.isa {
            Isa::Gfx11 => code.iter().map(|i| Ok(i.clone())).collect(),
            Isa::Gfx940 => gfx9::lower_code(code, &gfx9::Kernel::of_rsrc3(rsrc3)),
        }
    }

    /// Lowers assembled lines of this chip's code in place (gfx1100's run as they are): each
    /// line's instruction becomes the one the executor runs, its original kept for reports. A
    /// line that does not lower stays as it is: a wave that reaches it stops there, saying why.
    /// Assembly has no kernel descriptor: the AGPRs follow the highest VGPR the program names
    /// ([`gfx9::Kernel::for_assembly`]). Returns where the AGPRs start (0 for gfx1100), for
    /// [`crate::exec::RunConfig::accum_offset`].
    pub fn lower_assembly(&self, lines: &mut [rdna3_isa::asm::AsmLine]) -> u32 {
        if self.isa == Isa::Gfx11 {
            return 0;
        }
        let code: Vec<Instruction> = lines.iter().map(|l| l.inst.clone()).collect();
        let k = gfx9::Kernel::for_assembly(&code);
        for (line, low) in lines.iter_mut().zip(gfx9::lower_code(&code, &k)) {
            let original = line.inst.clone();
            if let Ok(inst) = low {
                line.inst = inst;
            }
            line.original = Some(original);
            line.hints.wave = rdna3_isa::Wave::W64;
        }
        k.accum_offset
    }

    /// Decodes one instruction of this chip's code as the hardware does (unused fields
    /// ignored where the table says so).
    pub fn decode(
        &self,
        bytes: &[u8],
    ) -> Result<(Instruction, usize), rdna3_isa::inst::DecodeError> {
        match self.isa {
            Isa::Gfx11 => Instruction::decode_hw(bytes),
            Isa::Gfx940 => rdna3_isa::gfx9::decode::decode(bytes),
        }
    }
}

impl PartialEq for Target {
    fn eq(&self, other: &Target) -> bool {
        self.name == other.name
    }
}
impl Eq for Target {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loader's list of supported chips is this module's.
    #[test]
    fn the_loaders_chips_are_the_targets() {
        assert_eq!(
            crate::loader::SUPPORTED_TARGETS.to_vec(),
            TARGETS.map(|t| t.name).to_vec()
        );
        for t in TARGETS {
            assert_eq!(Target::of_mach(t.mach), Some(t));
            assert_eq!(crate::loader::mach_name(t.mach), Some(t.name));
            assert_eq!(Target::named(t.name), Some(t));
        }
        assert_eq!(Target::named("cdna3"), Some(&GFX942));
    }
}
