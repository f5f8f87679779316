//! The code object's kernel metadata: the `NT_AMDGPU_METADATA` note, a msgpack map read with
//! `rmp-serde`. Keys and value kinds follow LLVM's AMDGPUUsage ("Code Object V3 to V5
//! Metadata"): `amdhsa.kernels` lists each kernel's `.name`, `.symbol`, `.args` (each with
//! `.offset`, `.size`, `.value_kind`, and where clang knows them `.name`, `.type_name`,
//! `.address_space`, `.pointee_align`) and its segment sizes. The launch lays out the
//! kernarg segment from it.

use serde::Deserialize;

use super::LoadError;

/// The metadata map: only the keys the simulator reads (others are ignored).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Metadata {
    /// One entry per kernel.
    #[serde(rename = "amdhsa.kernels", default)]
    pub kernels: Vec<KernelMetadata>,
    /// The printf formats of the object's kernels (`ID:N:SIZE1:...:FORMAT`, written by
    /// LLVM's printf runtime binding; `launch::printf` reads them).
    #[serde(rename = "amdhsa.printf", default)]
    pub printf: Vec<String>,
}

/// One kernel's metadata.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct KernelMetadata {
    /// The kernel's source name (mangled for HIP).
    #[serde(rename = ".name")]
    pub name: String,
    /// Its descriptor symbol (`NAME.kd`).
    #[serde(rename = ".symbol", default)]
    pub symbol: String,
    /// Its arguments, explicit then hidden, in kernarg order.
    #[serde(rename = ".args", default)]
    pub args: Vec<ArgMetadata>,
    /// Bytes of the kernarg segment.
    #[serde(rename = ".kernarg_segment_size", default)]
    pub kernarg_segment_size: u32,
    /// Static LDS bytes.
    #[serde(rename = ".group_segment_fixed_size", default)]
    pub group_segment_fixed_size: u32,
    /// Private bytes per work-item.
    #[serde(rename = ".private_segment_fixed_size", default)]
    pub private_segment_fixed_size: u32,
    /// The source language (`OpenCL C`, `HIP`), when clang records it.
    #[serde(rename = ".language", default)]
    pub language: Option<String>,
    /// SGPRs the kernel uses.
    #[serde(rename = ".sgpr_count", default)]
    pub sgpr_count: u32,
    /// VGPRs the kernel uses (gfx942: of the unified file, its AGPRs included).
    #[serde(rename = ".vgpr_count", default)]
    pub vgpr_count: u32,
    /// AGPRs the kernel uses (gfx942; absent elsewhere).
    #[serde(rename = ".agpr_count", default)]
    pub agpr_count: u32,
    /// Most work-items per workgroup the kernel was compiled for.
    #[serde(rename = ".max_flat_workgroup_size", default)]
    pub max_flat_workgroup_size: u32,
    /// Wave size it was built for.
    #[serde(rename = ".wavefront_size", default)]
    pub wavefront_size: u32,
}

/// One kernel argument's metadata.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ArgMetadata {
    /// Its name in the source (OpenCL with `-cl-kernel-arg-info`).
    #[serde(rename = ".name", default)]
    pub name: Option<String>,
    /// Its type as written (`int*`, `float`).
    #[serde(rename = ".type_name", default)]
    pub type_name: Option<String>,
    /// Bytes in the kernarg segment.
    #[serde(rename = ".size")]
    pub size: u32,
    /// Byte offset in the kernarg segment.
    #[serde(rename = ".offset")]
    pub offset: u32,
    /// `by_value`, `global_buffer`, `dynamic_shared_pointer`, `hidden_*`, ...
    #[serde(rename = ".value_kind")]
    pub value_kind: String,
    /// `global`, `constant`, `local`, ... for pointers.
    #[serde(rename = ".address_space", default)]
    pub address_space: Option<String>,
    /// Alignment of what a pointer points to (dynamic LDS is placed at it).
    #[serde(rename = ".pointee_align", default)]
    pub pointee_align: Option<u32>,
}

/// How the host supplies an explicit argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgClass {
    /// A value in the kernarg segment (`by_value`).
    Value,
    /// A pointer to global memory (`global_buffer`).
    Buffer,
    /// A pointer to dynamically sized LDS (`dynamic_shared_pointer`, OpenCL `__local`).
    Local,
    /// Something the simulator does not supply (images, samplers, pipes, queues).
    Other,
}

impl ArgMetadata {
    /// Whether the runtime fills it (`hidden_*`), not the user.
    pub fn is_hidden(&self) -> bool {
        self.value_kind.starts_with("hidden_")
    }

    /// How the host supplies it.
    pub fn class(&self) -> ArgClass {
        match self.value_kind.as_str() {
            "by_value" => ArgClass::Value,
            "global_buffer" => ArgClass::Buffer,
            "dynamic_shared_pointer" => ArgClass::Local,
            _ => ArgClass::Other,
        }
    }

    /// The argument as a message names it: `` `out` (int*) ``, or `(int*)` without a name.
    pub fn describe(&self) -> String {
        let ty = self.type_name.as_deref().unwrap_or(match self.class() {
            ArgClass::Value => "value",
            ArgClass::Buffer => "global pointer",
            ArgClass::Local => "local pointer",
            ArgClass::Other => self.value_kind.as_str(),
        });
        match &self.name {
            Some(n) if !n.is_empty() => format!("`{n}` ({ty})"),
            _ => format!("({ty})"),
        }
    }
}

impl Metadata {
    /// Reads the msgpack description of an `NT_AMDGPU_METADATA` note.
    pub fn parse(desc: &[u8]) -> Result<Metadata, LoadError> {
        rmp_serde::from_slice(desc)
            .map_err(|e| LoadError(format!("the AMDGPU metadata note does not read: {e}")))
    }
}
