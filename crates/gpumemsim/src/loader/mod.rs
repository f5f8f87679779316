//! Code objects: AMDGPU ELF files from clang-19 (`.o` or linked `.hsaco`), their kernels,
//! kernel descriptors and the initial register state of the AMDGPU ABI for gfx11.
//!
//! Field positions follow LLVM's AMDGPUUsage ("Kernel Descriptor", "Initial Kernel Execution
//! State") and `AMDHSAKernelDescriptor.h`: a 64-byte descriptor at symbol `NAME.kd` with
//! `group_segment_fixed_size` (0), `private_segment_fixed_size` (4), `kernarg_size` (8),
//! `kernel_code_entry_byte_offset` (16), `compute_pgm_rsrc3` (44), `compute_pgm_rsrc1` (48),
//! `compute_pgm_rsrc2` (52) and `kernel_code_properties` (56). A test checks every decoded
//! field against the `.amdhsa_*` directives clang-19 prints for the same kernels.
//!
//! Clang offload bundles (HIP's default output) are unpacked to their gfx1100 entry; the
//! `NT_AMDGPU_METADATA` note gives each kernel's arguments ([`KernelMetadata`]).
//!
//! The kernel's code is the bytes of its function symbol `NAME` (in a relocatable `.o` the
//! descriptor's entry offset is still a relocation, so the symbol is what both kinds of
//! file agree on).

mod bundle;
mod dwarf;
mod elf;
mod image;
mod lds_vars;
mod metadata;
pub mod source;

pub use bundle::{entries as bundle_entries, BundleEntry};
pub use dwarf::{SourceFrame, SourceLocation, SourceMap};
pub use elf::{Elf, LoadError, Symbol, NT_AMDGPU_METADATA};
pub use image::{Image, ImageSymbol, MAX_IMAGE_BYTES};
pub use lds_vars::LdsVariable;
pub use metadata::{ArgClass, ArgMetadata, KernelMetadata, Metadata};

use crate::target::Target;

/// Where a launch places a code object's image in global memory (an arbitrary 48-bit global
/// address below the kernel arguments' and the dispatch packet's).
pub const IMAGE_BASE: u64 = 0x7c00_0000_0000;

/// A kernel descriptor, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// LDS bytes per workgroup.
    pub group_segment_fixed_size: u32,
    /// Private (scratch) bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Bytes of kernel arguments.
    pub kernarg_size: u32,
    /// Byte offset from the descriptor to the code (0 until relocated in a `.o`).
    pub kernel_code_entry_byte_offset: i64,
    /// COMPUTE_PGM_RSRC1.
    pub rsrc1: u32,
    /// COMPUTE_PGM_RSRC2.
    pub rsrc2: u32,
    /// COMPUTE_PGM_RSRC3.
    pub rsrc3: u32,
    /// kernel_code_properties.
    pub code_properties: u16,
    /// The chip it is for (its fields' units differ: [`Target::vgpr_encoding_granule`]).
    pub chip: &'static Target,
}

fn bit(v: u32, b: u32) -> bool {
    v >> b & 1 == 1
}

impl KernelDescriptor {
    /// Decodes the 64 descriptor bytes of a gfx1100 kernel.
    pub fn decode(b: &[u8; 64]) -> KernelDescriptor {
        KernelDescriptor::decode_for(b, &crate::target::GFX1100)
    }

    /// Decodes the 64 descriptor bytes of a kernel for `chip`.
    pub fn decode_for(b: &[u8; 64], chip: &'static Target) -> KernelDescriptor {
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        KernelDescriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernarg_size: u32_at(8),
            kernel_code_entry_byte_offset: u32_at(16) as i64 | (u32_at(20) as i64) << 32,
            rsrc3: u32_at(44),
            rsrc1: u32_at(48),
            rsrc2: u32_at(52),
            code_properties: u16::from_le_bytes([b[56], b[57]]),
            chip,
        }
    }

    /// Waves of 32 lanes (`.amdhsa_wavefront_size32`; always 64 lanes on a chip whose
    /// default is 64, where the bit is reserved).
    pub fn wave32(&self) -> bool {
        self.chip.default_wave_size == 32 && bit(self.code_properties as u32, 10)
    }
    /// User SGPRs (`.amdhsa_user_sgpr_count`, RSRC2\[5:1\]).
    pub fn user_sgpr_count(&self) -> u32 {
        self.rsrc2 >> 1 & 0x1f
    }
    /// `.amdhsa_user_sgpr_private_segment_buffer` (4 SGPRs).
    pub fn private_segment_buffer(&self) -> bool {
        bit(self.code_properties as u32, 0)
    }
    /// `.amdhsa_user_sgpr_dispatch_ptr` (2 SGPRs).
    pub fn dispatch_ptr(&self) -> bool {
        bit(self.code_properties as u32, 1)
    }
    /// `.amdhsa_user_sgpr_queue_ptr` (2 SGPRs).
    pub fn queue_ptr(&self) -> bool {
        bit(self.code_properties as u32, 2)
    }
    /// `.amdhsa_user_sgpr_kernarg_segment_ptr` (2 SGPRs).
    pub fn kernarg_segment_ptr(&self) -> bool {
        bit(self.code_properties as u32, 3)
    }
    /// `.amdhsa_user_sgpr_dispatch_id` (2 SGPRs).
    pub fn dispatch_id(&self) -> bool {
        bit(self.code_properties as u32, 4)
    }
    /// `.amdhsa_user_sgpr_flat_scratch_init` (2 SGPRs).
    pub fn flat_scratch_init(&self) -> bool {
        bit(self.code_properties as u32, 5)
    }
    /// `.amdhsa_user_sgpr_private_segment_size` (1 SGPR).
    pub fn private_segment_size(&self) -> bool {
        bit(self.code_properties as u32, 6)
    }
    /// `.amdhsa_uses_dynamic_stack`.
    pub fn uses_dynamic_stack(&self) -> bool {
        bit(self.code_properties as u32, 11)
    }
    /// `.amdhsa_enable_private_segment` (RSRC2\[0\]).
    pub fn enable_private_segment(&self) -> bool {
        bit(self.rsrc2, 0)
    }
    /// `.amdhsa_system_sgpr_workgroup_id_{x,y,z}` (RSRC2[7..=9]).
    pub fn workgroup_id(&self) -> [bool; 3] {
        [bit(self.rsrc2, 7), bit(self.rsrc2, 8), bit(self.rsrc2, 9)]
    }
    /// `.amdhsa_system_sgpr_workgroup_info` (RSRC2\[10\]).
    pub fn workgroup_info(&self) -> bool {
        bit(self.rsrc2, 10)
    }
    /// `.amdhsa_system_vgpr_workitem_id` (RSRC2\[12:11\]): 0 x, 1 x and y, 2 x, y and z.
    pub fn workitem_id(&self) -> u32 {
        self.rsrc2 >> 11 & 3
    }
    /// `.amdhsa_float_round_mode_32`, `_16_64`, `.amdhsa_float_denorm_mode_32`, `_16_64`
    /// (RSRC1\[13:12\], \[15:14\], \[17:16\], \[19:18\]).
    pub fn float_modes(&self) -> [u32; 4] {
        [12, 14, 16, 18].map(|s| self.rsrc1 >> s & 3)
    }
    /// `.amdhsa_dx10_clamp` (RSRC1\[21\]).
    pub fn dx10_clamp(&self) -> bool {
        bit(self.rsrc1, 21)
    }
    /// `.amdhsa_ieee_mode` (RSRC1\[23\]).
    pub fn ieee_mode(&self) -> bool {
        bit(self.rsrc1, 23)
    }
    /// `.amdhsa_workgroup_processor_mode` (RSRC1\[29\]; gfx10+ only: a CDNA chip has no
    /// WGPs).
    pub fn wgp_mode(&self) -> bool {
        self.chip.isa == rdna3_isa::Isa::Gfx11 && bit(self.rsrc1, 29)
    }

    /// The MODE register a wave starts with: FP_ROUND \[3:0\] and FP_DENORM \[7:4\] from the
    /// float modes, DX10_CLAMP \[8\], IEEE \[9\].
    pub fn initial_mode(&self) -> u32 {
        let [r32, r64, d32, d64] = self.float_modes();
        r32 | r64 << 2
            | d32 << 4
            | d64 << 6
            | (self.dx10_clamp() as u32) << 8
            | (self.ieee_mode() as u32) << 9
    }

    /// The initial SGPRs of a wave, as (first register, value) dwords, for the values the
    /// dispatch provides: user SGPRs in ABI order (private segment buffer, dispatch ptr, queue
    /// ptr, kernarg segment ptr, dispatch id, flat scratch init, private segment size), then
    /// from `s[user_sgpr_count]` the system SGPRs (workgroup id x, y, z, workgroup info, the
    /// private segment wave offset).
    pub fn initial_sgprs(&self, d: &DispatchValues) -> Vec<(u32, u32)> {
        // User SGPRs: (enabled, dwords, value) in ABI order.
        let pb = d.private_segment_buffer;
        let user: [(bool, &[u32]); 7] = [
            (self.private_segment_buffer(), &pb),
            (self.dispatch_ptr(), &split(d.dispatch_ptr)),
            (self.queue_ptr(), &split(d.queue_ptr)),
            (self.kernarg_segment_ptr(), &split(d.kernarg_ptr)),
            (self.dispatch_id(), &split(d.dispatch_id)),
            (self.flat_scratch_init(), &split(d.flat_scratch)),
            (
                self.private_segment_size(),
                &[self.private_segment_fixed_size],
            ),
        ];
        let mut out = Vec::new();
        let mut r = 0u32;
        for (on, words) in user {
            if on {
                for w in words {
                    out.push((r, *w));
                    r += 1;
                }
            }
        }
        let mut s = self.user_sgpr_count();
        for (k, on) in self.workgroup_id().into_iter().enumerate() {
            if on {
                out.push((s, d.workgroup_id[k]));
                s += 1;
            }
        }
        if self.workgroup_info() {
            out.push((s, d.workgroup_info));
            s += 1;
        }
        if self.enable_private_segment() {
            out.push((s, d.private_segment_wave_offset));
        }
        out
    }

    /// VGPR v0 of a work-item at `local_id`: gfx11 packs the ids, x in \[9:0\], y in \[19:10\],
    /// z in \[29:20\], as many as `.amdhsa_system_vgpr_workitem_id` enables.
    pub fn initial_v0(&self, local_id: [u32; 3]) -> u32 {
        let n = self.workitem_id();
        let mut v = local_id[0] & 0x3ff;
        if n >= 1 {
            v |= (local_id[1] & 0x3ff) << 10;
        }
        if n >= 2 {
            v |= (local_id[2] & 0x3ff) << 20;
        }
        v
    }
}

fn split(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// The 64-byte AQL kernel dispatch packet (`hsa_kernel_dispatch_packet_t`, AMDGPUUsage and
/// the HSA runtime specification) a kernel reads through its dispatch pointer: clang reads
/// `workgroup_size_*` (`__builtin_amdgcn_workgroup_size_x`) and `grid_size_*` there.
/// `block` counts work-items per workgroup, `grid_items` work-items in all per dimension.
pub fn dispatch_packet(
    block: [u32; 3],
    grid_items: [u32; 3],
    private_segment_size: u32,
    group_segment_size: u32,
    kernarg: u64,
) -> [u8; 64] {
    let mut p = [0u8; 64];
    // header: type KERNEL_DISPATCH (2); setup: dimensions used.
    let dims = if block[2] > 1 || grid_items[2] > 1 {
        3
    } else if block[1] > 1 || grid_items[1] > 1 {
        2
    } else {
        1
    };
    p[0..2].copy_from_slice(&2u16.to_le_bytes());
    p[2..4].copy_from_slice(&(dims as u16).to_le_bytes());
    for i in 0..3 {
        p[4 + 2 * i..6 + 2 * i].copy_from_slice(&(block[i] as u16).to_le_bytes());
        p[12 + 4 * i..16 + 4 * i].copy_from_slice(&grid_items[i].to_le_bytes());
    }
    p[24..28].copy_from_slice(&private_segment_size.to_le_bytes());
    p[28..32].copy_from_slice(&group_segment_size.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg.to_le_bytes());
    p
}

/// What a dispatch hands a wave in its SGPRs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchValues {
    /// The private segment buffer V# (4 dwords).
    pub private_segment_buffer: [u32; 4],
    /// The AQL dispatch packet's address.
    pub dispatch_ptr: u64,
    /// The queue's address.
    pub queue_ptr: u64,
    /// The kernel arguments' address.
    pub kernarg_ptr: u64,
    /// The dispatch id.
    pub dispatch_id: u64,
    /// FLAT_SCRATCH initial value.
    pub flat_scratch: u64,
    /// The workgroup's id in x, y, z.
    pub workgroup_id: [u32; 3],
    /// Workgroup info.
    pub workgroup_info: u32,
    /// The wave's byte offset in the private segment.
    pub private_segment_wave_offset: u32,
}

/// One kernel of a code object.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Its symbol name (mangled for HIP).
    pub name: String,
    /// The chip its code object was built for (`gfx1100`, `gfx942`; [`SUPPORTED_TARGETS`]).
    pub target: &'static str,
    /// Its descriptor.
    pub descriptor: KernelDescriptor,
    /// Its machine code (relocated: the bytes the image holds).
    pub code: Vec<u8>,
    /// The code object's image, shared by its kernels: data, the other functions.
    pub image: std::sync::Arc<Image>,
    /// The byte offset of the kernel's code in the image.
    pub entry: u64,
    /// The address of its code as `llvm-objdump-19 -d` prints it (its symbol's value: an
    /// offset in `.text` in a relocatable object, an address in a linked one).
    pub address: u64,
    /// Its entry of the code object's metadata note, when the object has one.
    pub metadata: Option<KernelMetadata>,
    /// The object's printf formats (`amdhsa.printf` of the metadata note).
    pub printf_formats: Vec<String>,
    /// The object's other functions (not kernels), when the kernel's code can transfer
    /// control out of itself (`s_swappc_b64`, `s_setpc_b64`, `s_call_b64`): what it may call.
    pub callees: Vec<Function>,
    /// Functions its code calls that the object does not define (a device-library call that
    /// was not linked), by symbol name.
    pub undefined: Vec<String>,
    /// The inline chain (innermost frame first) of each instruction, by byte offset in
    /// `code`, from the object's DWARF; empty without `-g`.
    pub source: SourceMap,
    /// Where each of its LDS variables lies in the static allocation, from the object's
    /// DWARF and LLVM's layout ([`lds_vars`]); empty without `-g` or when the layout does
    /// not account for the kernel's static LDS exactly.
    pub lds_variables: Vec<LdsVariable>,
}

impl Kernel {
    /// The chip it runs on.
    pub fn chip(&self) -> &'static Target {
        self.descriptor.chip
    }

    /// The name reports show: the demangled base name of a C++ (HIP) kernel
    /// (`histogram256_block` for `_Z18histogram256_blockPhPji`), else the symbol name.
    pub fn display_name(&self) -> String {
        demangle_base(&self.name).unwrap_or_else(|| self.name.clone())
    }

    /// The inline chain of the instruction at byte `offset`, innermost frame first.
    pub fn frames_at(&self, offset: u32) -> Option<&[SourceFrame]> {
        let i = self.source.binary_search_by_key(&offset, |e| e.0).ok()?;
        Some(&self.source[i].1)
    }

    /// The source line an instruction is attributed to: the outermost frame of its inline
    /// chain that has a line — the line of the kernel's own code that the instruction (or the
    /// inlined call it belongs to) comes from. `None` for code on DWARF's line 0 (code the
    /// compiler made, attributed to no line).
    pub fn source_at(&self, offset: u32) -> Option<&SourceLocation> {
        self.frames_at(offset)?
            .iter()
            .rev()
            .find_map(|f| f.location.as_ref().filter(|l| l.line > 0))
    }

    /// Whether `name` names this kernel: its symbol name, its demangled signature or its
    /// demangled base name.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name
            || demangle(&self.name).is_some_and(|d| d == name)
            || demangle_base(&self.name).is_some_and(|d| d == name)
    }
}

/// A function of a code object other than a kernel, as a kernel's program holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Its symbol name.
    pub name: String,
    /// The byte offset of its code from the kernel's entry, wrapped to 32 bits (a function
    /// placed before the kernel has a negative offset: its two's complement).
    pub address: u32,
    /// Its machine code (relocated).
    pub code: Vec<u8>,
}

/// Whether `code` holds an instruction that transfers control to a computed address (a
/// call or return): `s_swappc_b64`, `s_setpc_b64`, `s_call_b64`.
fn calls_out(chip: &Target, code: &[u8]) -> bool {
    let mut at = 0;
    while at < code.len() {
        let Ok((inst, size)) = chip.decode(&code[at..]) else {
            at += 4;
            continue;
        };
        if matches!(
            inst.def().name,
            "s_swappc_b64" | "s_setpc_b64" | "s_call_b64"
        ) {
            return true;
        }
        at += size;
    }
    false
}

/// The demangled form of a C++ symbol (`get_local_id(unsigned int)`), `None` for a name that
/// is not mangled.
pub fn demangle(symbol: &str) -> Option<String> {
    let s = cpp_demangle::Symbol::new(symbol).ok()?;
    s.demangle().ok()
}

/// The demangled name without its parameter list (`histogram256_block`).
pub fn demangle_base(symbol: &str) -> Option<String> {
    let s = cpp_demangle::Symbol::new(symbol).ok()?;
    s.demangle_with_options(&cpp_demangle::DemangleOptions::new().no_params())
        .ok()
}

/// A loaded code object.
#[derive(Clone, Debug)]
pub struct CodeObject {
    /// Its kernels, in symbol-table order.
    pub kernels: Vec<Kernel>,
    /// `EF_AMDGPU_MACH` of the ELF flags (0x41 = gfx1100).
    pub mach: u32,
}

/// `EF_AMDGPU_MACH` value of gfx1100.
pub const EF_AMDGPU_MACH_GFX1100: u32 = 0x41;

/// The chips gpumemsim runs code objects for ([`crate::target::TARGETS`]).
pub const SUPPORTED_TARGETS: [&str; 2] = ["gfx1100", "gfx942"];

/// The processor an `EF_AMDGPU_MACH` value names (LLVM's `llvm/BinaryFormat/ELF.h`), for the
/// chips a user is likely to hand us; `None` for the others.
pub fn mach_name(mach: u32) -> Option<&'static str> {
    Some(match mach {
        0x2c => "gfx900",
        0x2f => "gfx906",
        0x30 => "gfx908",
        0x3f => "gfx90a",
        0x40 => "gfx940",
        0x4b => "gfx941",
        0x4c => "gfx942",
        0x4f => "gfx950",
        0x33 => "gfx1010",
        0x36 => "gfx1030",
        0x41 => "gfx1100",
        0x46 => "gfx1101",
        0x47 => "gfx1102",
        0x44 => "gfx1103",
        0x43 => "gfx1150",
        0x4a => "gfx1151",
        0x48 => "gfx1200",
        0x4e => "gfx1201",
        _ => return None,
    })
}

/// The chip `flags` (the ELF header's) name, or an error naming it and the chips gpumemsim
/// runs: a code object for another chip holds another instruction set, so decoding it would
/// only mislead.
fn check_target(flags: u32) -> Result<&'static Target, LoadError> {
    let mach = flags & 0xff;
    if let Some(t) = Target::of_mach(mach) {
        return Ok(t);
    }
    let target = match mach_name(mach) {
        Some(name) => name.to_string(),
        None => format!("EF_AMDGPU_MACH {mach:#x}"),
    };
    Err(LoadError(format!(
        "a code object for {target}; gpumemsim runs code objects for {} (build with -mcpu=gfx1100 \
         or -mcpu=gfx942, --offload-arch=gfx1100 or --offload-arch=gfx942)",
        Target::names()
    )))
}

impl CodeObject {
    /// Loads a code object from its bytes: an ELF file (relocatable `.o` or linked `.hsaco`),
    /// or a clang offload bundle, whose gfx1100 (else gfx942) entry is taken.
    pub fn parse(data: &[u8]) -> Result<CodeObject, LoadError> {
        if data.starts_with(bundle::BUNDLE_MAGIC) {
            return CodeObject::parse_elf(bundle::supported_entry(data)?);
        }
        if data.starts_with(bundle::COMPRESSED_BUNDLE_MAGIC) {
            return Err(LoadError(
                "a compressed offload bundle: build without --offload-compress, or unpack it with \
                 `clang-offload-bundler-19 --unbundle --type=o --targets=hipv4-amdgcn-amd-amdhsa--gfx1100`"
                    .into(),
            ));
        }
        CodeObject::parse_elf(data)
    }

    fn parse_elf(data: &[u8]) -> Result<CodeObject, LoadError> {
        let elf = Elf::parse(data)?;
        let chip = check_target(elf.flags)?;
        let image = std::sync::Arc::new(elf.image(IMAGE_BASE)?);
        let metadata = match elf.amdgpu_notes(elf::NT_AMDGPU_METADATA)?.first() {
            Some(desc) => Metadata::parse(desc)?,
            None => Metadata::default(),
        };
        let mut kernels = Vec::new();
        let mut ranges = Vec::new();
        for kd in elf.symbols.iter().filter(|s| s.name.ends_with(".kd")) {
            let name = kd.name.trim_end_matches(".kd").to_string();
            let bytes: &[u8; 64] = elf
                .symbol_bytes(kd, 0, 64)?
                .try_into()
                .map_err(|_| LoadError(format!("kernel descriptor of `{name}` is not 64 bytes")))?;
            let func = elf
                .symbols
                .iter()
                .find(|s| s.name == name && s.size > 0)
                .ok_or_else(|| {
                    LoadError(format!(
                        "kernel `{name}` has a descriptor but no code symbol"
                    ))
                })?;
            let raw = elf.symbol_bytes(func, 0, func.size)?;
            let entry = image
                .functions
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.offset)
                .ok_or_else(|| {
                    LoadError(format!("kernel `{name}` is not a function of the image"))
                })?;
            let code = (entry as usize)
                .checked_add(raw.len())
                .and_then(|end| image.bytes.get(entry as usize..end))
                .ok_or_else(|| LoadError(format!("kernel `{name}` lies outside the image")))?
                .to_vec();
            let meta = metadata
                .kernels
                .iter()
                .find(|m| m.symbol == kd.name || m.name == name)
                .cloned();
            ranges.push((func.value, func.size));
            kernels.push(Kernel {
                target: chip.name,
                image: image.clone(),
                entry,
                address: func.value,
                source: SourceMap::new(),
                lds_variables: Vec::new(),
                callees: Vec::new(),
                undefined: elf.undefined_references(func),
                name,
                descriptor: KernelDescriptor::decode_for(bytes, chip),
                code,
                metadata: meta,
                printf_formats: metadata.printf.clone(),
            });
        }
        // The functions that are not kernels, with their code ranges for the source maps.
        let others: Vec<(&ImageSymbol, u64)> = image
            .functions
            .iter()
            .filter(|f| !kernels.iter().any(|k| k.name == f.name))
            .filter_map(|f| {
                let sym = elf
                    .symbols
                    .iter()
                    .find(|s| s.name == f.name && s.size > 0)?;
                Some((f, sym.value))
            })
            .collect();
        ranges.extend(others.iter().map(|(f, value)| (*value, f.size)));
        let maps = elf.source_maps(&ranges);
        let declared = elf.lds_variables();
        let names: Vec<String> = kernels.iter().map(|k| k.name.clone()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        for k in kernels.iter_mut() {
            let size = k.descriptor.group_segment_fixed_size;
            k.lds_variables = lds_vars::kernel_layout(&declared, &k.name, &names, size);
        }
        let (kernel_maps, other_maps) = maps.split_at(kernels.len());
        for (k, map) in kernels.iter_mut().zip(kernel_maps) {
            k.source = map.clone();
            if !calls_out(chip, &k.code) {
                continue;
            }
            for ((f, _), map) in others.iter().zip(other_maps) {
                let address = f.offset.wrapping_sub(k.entry) as u32;
                let end = f.offset.saturating_add(f.size) as usize;
                let Some(code) = image.bytes.get(f.offset as usize..end) else {
                    continue;
                };
                k.callees.push(Function {
                    name: f.name.clone(),
                    address,
                    code: code.to_vec(),
                });
                k.source.extend(
                    map.iter()
                        .map(|(off, chain)| (address.wrapping_add(*off), chain.clone())),
                );
            }
            k.source.sort_by_key(|e| e.0);
        }
        Ok(CodeObject {
            kernels,
            mach: elf.flags & 0xff,
        })
    }

    /// The kernel `name` names, or with no name the object's only kernel; an error that
    /// lists the kernels (by their reports' names) otherwise.
    pub fn choose(&self, name: Option<&str>) -> Result<&Kernel, LoadError> {
        match (name, &self.kernels[..]) {
            (Some(n), _) => self.kernel(n),
            (None, [k]) => Ok(k),
            (None, []) => Err(LoadError("the code object has no kernel".into())),
            (None, ks) => {
                let names: Vec<String> = ks.iter().map(Kernel::display_name).collect();
                Err(LoadError(format!(
                    "choose a kernel with --kernel ({})",
                    names.join(", ")
                )))
            }
        }
    }

    /// The kernel called `name` (see [`Kernel::answers_to`]): an error listing the kernels
    /// when none or several answer.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, LoadError> {
        let found: Vec<&Kernel> = self.kernels.iter().filter(|k| k.answers_to(name)).collect();
        let list = |ks: &mut dyn Iterator<Item = &Kernel>| -> String {
            ks.map(|k| match k.display_name() {
                d if d == k.name => format!("`{d}`"),
                d => format!("`{d}` ({})", k.name),
            })
            .collect::<Vec<_>>()
            .join(", ")
        };
        match found[..] {
            [k] => Ok(k),
            [] => Err(LoadError(format!(
                "no kernel `{name}` in the code object (it has: {})",
                list(&mut self.kernels.iter())
            ))),
            _ => Err(LoadError(format!(
                "`{name}` names several kernels: {}; give the mangled name",
                list(&mut found.into_iter())
            ))),
        }
    }
}
