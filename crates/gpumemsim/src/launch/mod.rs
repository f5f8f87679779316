//! The host side of running a code-object kernel: kernel arguments and buffers in global
//! memory, the AQL dispatch packet and hidden arguments, the gfx11 initial register state of
//! every wave, the grid run ([`run_grid`]) and the buffers read back.
//!
//! ```no_run
//! use gpumemsim::launch::{launch, KernelArg, Launch};
//! use gpumemsim::loader::CodeObject;
//!
//! let bytes = std::fs::read("examples/kernels/transpose.w32.o").expect("the corpus");
//! let obj = CodeObject::parse(&bytes).expect("a code object");
//! let input: Vec<u8> = (0..1024u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
//! let done = launch(&Launch {
//!     block: [32, 1, 1],
//!     args: vec![KernelArg::Buffer(input), KernelArg::Buffer(vec![0; 4096])],
//!     ..Launch::new(obj.kernel("transpose_naive").expect("the kernel"))
//! })
//! .expect("a valid launch");
//! done.run.result.expect("the kernel ran");
//! let transposed: &[u8] = &done.buffers[1];
//! ```

mod element;
pub mod hostcall;
mod kernarg;
pub mod printf;

pub use element::{ElementType, MAX_BUFFER_ELEMENTS};
pub use kernarg::{
    arg_hint, check_args, check_buffer_type, check_scalar_type, lay_out, scalar_type_of, Layout,
};

use std::sync::Arc;

use crate::addr::{Allocation, Allocations, GlobalMemory};
use crate::exec::{run_grid, GridRun, Memory, RunConfig, RunError, WaveInit};
use crate::isa::asm::AsmLine;
use crate::isa::print::Hints;
use crate::isa::Instruction;
use crate::loader::{demangle, dispatch_packet, DispatchValues, Kernel, KernelDescriptor};
use crate::wave::Wave;

/// Where the kernel arguments are placed in global memory.
pub const KERNARG_BASE: u64 = 0x7e00_0000_0000;
/// Where the AQL dispatch packet is placed (the dispatch pointer's value).
pub const DISPATCH_BASE: u64 = 0x7d00_0000_0000;
/// Where the first buffer argument is placed; each next one starts on a [`BUFFER_GAP`]
/// boundary at least one gap after the end of the one before, so that a short overrun lands
/// in no allocation.
pub const BUFFER_BASE: u64 = 0x1_0000_0000;
/// Where the printf buffer is placed (the `hidden_printf_buffer` argument's value), when the
/// kernel has one.
pub const PRINTF_BASE: u64 = 0x7b00_0000_0000;
/// The printf buffer's size in bytes, its 8-byte header included (the simulator's choice:
/// 1 MiB, about 80,000 records of two arguments).
pub const PRINTF_BUFFER_BYTES: u32 = 1 << 20;
/// The alignment of buffer arguments and the unallocated gap after each.
pub const BUFFER_GAP: u64 = 1 << 16;
/// Work-items a workgroup may have.
pub const MAX_BLOCK: u32 = 1024;

/// One kernel argument, in the kernel's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelArg {
    /// A value passed in the kernarg segment: its little-endian bytes (placed at their
    /// natural alignment: a 4-byte value 4-aligned, an 8-byte one 8-aligned).
    Scalar(Vec<u8>),
    /// A buffer: its initial bytes, placed in global memory, an allocation of its own; the
    /// kernel gets its 64-bit address.
    Buffer(Vec<u8>),
    /// An OpenCL `__local` pointer argument (`dynamic_shared_pointer`): this many bytes of
    /// LDS, placed after the static LDS and the earlier local arguments; the kernel gets the
    /// LDS offset.
    Local(u32),
    /// A null global pointer (`nullptr`, Triton's scratch pointers when it needs none): the
    /// kernel gets address 0, and nothing is allocated.
    Null,
    /// The same buffer as the earlier argument of this index (a host passing one pointer
    /// twice: `add(x, x, out)`): the kernel gets that buffer's address.
    SameAs(usize),
}

/// A dispatch of one kernel.
#[derive(Clone, Debug)]
pub struct Launch<'a> {
    /// The kernel.
    pub kernel: &'a Kernel,
    /// Workgroups per dimension (as HIP launches count them).
    pub grid: [u32; 3],
    /// Work-items per workgroup per dimension.
    pub block: [u32; 3],
    /// The kernel arguments, in order.
    pub args: Vec<KernelArg>,
    /// Dynamic LDS bytes of the launch (HIP's shared-memory size for `extern __shared__`),
    /// placed after the static LDS and the local arguments.
    pub dynamic_lds: u32,
    /// Program-scope variables set before the launch, as `hipMemcpyToSymbol` sets them: a
    /// symbol's name and the bytes written from its first byte (at most its size).
    pub symbols: Vec<(String, Vec<u8>)>,
    /// The device's settings: bank model, timing, scalar cache, float rules, limits, seed,
    /// threads. The launch sets the wave size, waves, workgroups and the LDS and scratch
    /// sizes from the kernel and the grid; every other field is used as given.
    pub config: RunConfig,
    /// Run only this many workgroups, spread evenly over the grid ([`sample_ids`]), and scale
    /// the per-instruction figures to the whole grid (`None`, or at least the grid: all).
    pub sample: Option<u32>,
}

/// The workgroups a sample of `k` out of `total` runs: `i * total / k` for `i` in `0..k`,
/// spread evenly from the first (deterministic, so that a sampled report can be repeated).
pub fn sample_ids(k: u32, total: u64) -> Vec<u32> {
    (0..u64::from(k))
        .map(|i| (i * total / u64::from(k)) as u32)
        .collect()
}

impl<'a> Launch<'a> {
    /// A launch of `kernel`: one workgroup of 64 work-items, no arguments, the default
    /// [`RunConfig`].
    pub fn new(kernel: &'a Kernel) -> Launch<'a> {
        Launch {
            kernel,
            grid: [1, 1, 1],
            block: [64, 1, 1],
            args: Vec::new(),
            dynamic_lds: 0,
            symbols: Vec::new(),
            config: RunConfig::default(),
            sample: None,
        }
    }
}

/// What a launch did.
pub struct Launched {
    /// The kernel's code as it ran (line = instruction number, address = byte offset).
    pub program: Vec<AsmLine>,
    /// The run: the device afterwards, how it ended, how it was scheduled.
    pub run: GridRun,
    /// 32 or 64.
    pub wave_size: u32,
    /// Each argument's address in global memory (buffers), LDS offset (local arguments) or
    /// kernarg offset (scalars).
    pub addresses: Vec<u64>,
    /// LDS bytes per workgroup (static and dynamic).
    pub lds_bytes: u32,
    /// Each argument's final bytes: a buffer's contents after the run, a scalar's value.
    pub buffers: Vec<Vec<u8>>,
    /// Every program-scope variable of the code object and its final bytes, by address.
    pub symbols: Vec<SymbolValue>,
    /// What the kernel printed (printf), one string per printf call, in the order the
    /// device wrote them.
    pub printf: Vec<String>,
    /// For a sampled launch ([`Launch::sample`]): (workgroups run, workgroups in the grid).
    /// The per-instruction figures are scaled to the grid; the kernel time, the waves'
    /// clocks, the events and the buffers are the sample's.
    pub sampled: Option<(u32, u64)>,
}

/// A program-scope variable after the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolValue {
    /// Its symbol name.
    pub name: String,
    /// Its address in global memory.
    pub address: u64,
    /// Its bytes after the run.
    pub bytes: Vec<u8>,
}

/// Checks `--symbol`-style settings against the kernel's image: each name a variable of it,
/// each value at most the variable's size.
fn check_symbols(kernel: &Kernel, symbols: &[(String, Vec<u8>)]) -> Result<(), String> {
    let image = &kernel.image;
    for (name, bytes) in symbols {
        let v = image.find_variable(name)?;
        if bytes.len() as u64 > v.size {
            return Err(format!(
                "symbol `{name}`: {} bytes given for a variable of {} bytes",
                bytes.len(),
                v.size
            ));
        }
    }
    Ok(())
}

/// A run that trapped after the device printed a failed assertion's message (HIP's
/// `__assert_fail` prints it through the host, then traps): the trap event carries the
/// last such message.
fn note_assert_message(run: &mut GridRun, printed: &[String]) {
    if !matches!(run.result, Err(crate::exec::RunError::Trap { .. })) {
        return;
    }
    // HIP's `__assert_fail` message: "FILE:LINE: FUNCTION: Device-side assertion `EXPR'
    // failed." (the HIP headers' format string).
    let Some(msg) = printed
        .iter()
        .rev()
        .find(|p| p.contains("Device-side assertion `"))
    else {
        return;
    };
    if let Some(e) = run
        .device
        .events_mut()
        .iter_mut()
        .rev()
        .find(|e| e.kind == "trap")
    {
        let _ = std::fmt::Write::write_fmt(&mut e.message, format_args!(": {}", msg.trim_end()));
    }
}

/// The strings the kernel's printf records in the printf buffer print
/// ([`printf::read_buffer`]).
fn read_printf(kernel: &Kernel, run: &GridRun) -> Vec<String> {
    let memory = run.device.memory();
    let mut header = [0u8; 4];
    memory.read_into(PRINTF_BASE, &mut header);
    let written = u32::from_le_bytes(header).min(PRINTF_BUFFER_BYTES - 8);
    let mut buffer = vec![0u8; 8 + written as usize];
    memory.read_into(PRINTF_BASE, &mut buffer);
    // HIP's buffered printf keys its records by the format's hash; OpenCL's by an id.
    let hashed = printf::hashed_formats(&kernel.printf_formats);
    if hashed.is_empty() {
        printf::read_buffer(&buffer, &printf::parse_formats(&kernel.printf_formats))
    } else {
        printf::read_hashed_buffer(&buffer, &hashed)
    }
}

/// Every variable of the kernel's image with its bytes after `run`.
fn read_symbols(kernel: &Kernel, run: &GridRun) -> Vec<SymbolValue> {
    let image = &kernel.image;
    image
        .variables
        .iter()
        .map(|v| {
            let address = image.base + v.offset;
            let mut bytes = vec![0; v.size as usize];
            run.device.memory().read_into(address, &mut bytes);
            SymbolValue {
                name: v.name.clone(),
                address,
                bytes,
            }
        })
        .collect()
}

/// The kernel's code as program lines (line = instruction number, address = byte offset
/// from the kernel's entry), followed by the code of the functions it may call
/// ([`Kernel::callees`]) at their offsets from the entry.
pub fn program(k: &Kernel) -> Result<Vec<AsmLine>, String> {
    let mut lines = Vec::new();
    let kernel = format!("kernel `{}`", k.display_name());
    decode_into(&mut lines, k, &kernel, 0, &k.code)?;
    for f in &k.callees {
        let name = demangle(&f.name).unwrap_or_else(|| f.name.clone());
        decode_into(
            &mut lines,
            k,
            &format!("function `{name}`"),
            f.address,
            &f.code,
        )?;
    }
    Ok(lines)
}

/// Appends the instructions of `code` (of `name`, as errors name it), whose first byte is at
/// program address `start`, decoded as the hardware decodes them
/// ([`Instruction::decode_hw`]: unused operand fields ignored). Another chip's instructions
/// are lowered to the gfx1100 ones the executor runs ([`crate::target`]); one that does not
/// run stays as it is, and a wave that reaches it stops there, naming it.
fn decode_into(
    lines: &mut Vec<AsmLine>,
    k: &Kernel,
    name: &str,
    start: u32,
    code: &[u8],
) -> Result<(), String> {
    let chip = k.chip();
    let mut at = 0;
    let mut decoded = Vec::new();
    while at < code.len() {
        let (inst, size) = chip.decode(&code[at..]).map_err(|e| {
            format!(
                "{name}: the word at byte {at:#x} does not decode as {} code ({e:?}): {:02x?}",
                chip.name,
                &code[at..(at + 8).min(code.len())]
            )
        })?;
        decoded.push((at, inst));
        at += size;
    }
    let insts: Vec<Instruction> = decoded.iter().map(|(_, i)| i.clone()).collect();
    let lowered = chip.lower_code(&insts, k.descriptor.rsrc3);
    for ((at, inst), low) in decoded.into_iter().zip(lowered) {
        let (inst, original) = match chip.isa {
            rdna3_isa::Isa::Gfx11 => (inst, None),
            // One that does not lower stays as it is: a wave that reaches it stops there.
            _ => (low.unwrap_or_else(|_| inst.clone()), Some(inst)),
        };
        lines.push(AsmLine {
            line: lines.len() + 1,
            address: start.wrapping_add(at as u32),
            inst,
            // A wave64 kernel's listing spells lane masks as llvm-mc-19 does in wave64
            // (`vcc`, `s[2:3]`).
            hints: Hints {
                wave: if k.descriptor.wave32() {
                    rdna3_isa::Wave::W32
                } else {
                    rdna3_isa::Wave::W64
                },
                ..Hints::default()
            },
            original,
        });
    }
    Ok(())
}

/// The kernel's LDS variables for the checker ([`RunConfig::lds_variables`]), and past them
/// the dynamic LDS (`__local` arguments, `extern __shared__`) up to `lds_bytes`; none when
/// its code object does not place them.
fn lds_variables(kernel: &Kernel, lds_bytes: u32) -> Vec<crate::loader::LdsVariable> {
    let mut vars = kernel.lds_variables.clone();
    let end = kernel.descriptor.group_segment_fixed_size;
    if !vars.is_empty() && lds_bytes > end {
        vars.push(crate::loader::LdsVariable {
            name: "dynamic LDS".to_string(),
            start: end,
            end: lds_bytes,
        });
    }
    vars
}

/// `config` as `kernel`'s chip runs it: the chip's bank model unless the caller chose one
/// ([`RunConfig::banks_chosen`]), the chip's rules ([`RunConfig::chip`]), and its timing
/// parameters where the caller left RDNA3's defaults ([`crate::timing::TimingParams::on_chip`]).
/// What a launch runs with, and what its report gives as its timing.
pub fn on_chip(config: &RunConfig, kernel: &Kernel) -> RunConfig {
    let accum_offset = match kernel.chip().isa {
        rdna3_isa::Isa::Gfx940 => {
            crate::target::gfx9::Kernel::of_rsrc3(kernel.descriptor.rsrc3).accum_offset
        }
        _ => 0,
    };
    RunConfig {
        accum_offset,
        ..for_chip(config, kernel.chip())
    }
}

/// `config` on `chip`: its bank model and timing unless the caller chose them (an assembly
/// program names its chip with `--arch`).
pub fn for_chip(config: &RunConfig, chip: &'static crate::target::Target) -> RunConfig {
    RunConfig {
        banks: if config.banks_chosen {
            config.banks.clone()
        } else {
            chip.banks()
        },
        chip,
        timing: config.timing.on_chip(&chip.timing, &config.timing_chosen),
        ..config.clone()
    }
}

/// Runs `l`: places the arguments, runs the grid, reads the buffers back. `Err` is a launch
/// that cannot start (its message names the problem); a run that starts and then stops
/// (an unimplemented instruction, a deadlock) is `Ok` with the error in `run.result`.
pub fn launch(l: &Launch) -> Result<Launched, String> {
    let kernel = l.kernel;
    let d = kernel.descriptor;
    let wave_size = if d.wave32() { 32 } else { 64 };
    let (grid, block) = (l.grid, l.block);
    let block_size = check_shape(grid, block)?;
    let groups = grid[0] as u64 * grid[1] as u64 * grid[2] as u64;
    let waves = block_size.div_ceil(wave_size);
    if l.sample == Some(0) {
        return Err("sample 0: a sample runs at least one workgroup".into());
    }
    // Workgroup ids are 32 bits, sampled or not.
    let all_groups = u32::try_from(groups).map_err(|_| {
        format!("grid {grid:?}: {groups} workgroups; the simulator runs at most 2^32 − 1 (32-bit workgroup ids)")
    })?;
    // The workgroups to run when sampling: `None` for the whole grid.
    let sample = l
        .sample
        .filter(|&k| u64::from(k) < groups)
        .map(|k| sample_ids(k, groups));
    check_linked(kernel)?;
    check_symbols(kernel, &l.symbols)?;
    let program = program(kernel)?;
    let meta = kernel.metadata.as_ref().ok_or_else(|| {
        format!(
            "kernel `{}` has no entry in an AMDGPU metadata note (NT_AMDGPU_METADATA), which \
             gives its arguments: build it with clang-19 -target amdgcn-amd-amdhsa",
            kernel.name
        )
    })?;
    check_descriptor_lds(
        kernel,
        d.group_segment_fixed_size,
        meta.group_segment_fixed_size,
    )?;
    let layout = lay_out(
        &kernel.display_name(),
        meta,
        &l.args,
        grid,
        block,
        l.dynamic_lds,
        &l.config.apertures,
    )?;
    let printf_arg = meta
        .args
        .iter()
        .find(|a| a.value_kind == "hidden_printf_buffer");
    let hostcall_arg = meta
        .args
        .iter()
        .find(|a| a.value_kind == "hidden_hostcall_buffer");
    let host = hostcall_arg.map(|_| std::sync::Arc::new(hostcall::HostcallHost::default()));
    // Placement follows the kernel: its descriptor's CU or WGP mode, and the occupancy of
    // its registers, LDS and block (docs/rules/timing.md#placement), unless the caller set a limit.
    let occupancy = crate::occupancy::occupancy(
        &crate::occupancy::Resources::of_kernel(kernel)
            .with_dynamic_lds(layout.lds_bytes - d.group_segment_fixed_size)
            .with_workgroup_size(block_size),
        &kernel.chip().limits,
    );
    let cfg = RunConfig {
        wave_size,
        waves,
        workgroups: sample.as_ref().map_or(all_groups, |ids| ids.len() as u32),
        lds_size: layout.lds_bytes.max(4).next_multiple_of(4),
        scratch_size: scratch_per_lane(&d),
        lds_mode: if d.wgp_mode() {
            crate::lds::LdsMode::Wgp
        } else {
            crate::lds::LdsMode::Cu
        },
        waves_per_simd: match l.config.waves_per_simd {
            0 => occupancy.waves_per_simd.max(1),
            n => n,
        },
        // A launch reports global memory: each workgroup's LDS and registers can go when it
        // ends, so memory follows the resident workgroups.
        release_finished: true,
        run_ahead: true,
        code_base: kernel.image.base + kernel.entry,
        lds_variables: lds_variables(kernel, layout.lds_bytes),
        workgroup_ids: sample.as_ref().map(|ids| ids.clone().into()),
        host: host
            .clone()
            .map(|h| h as std::sync::Arc<dyn crate::exec::HostService>),
        ..on_chip(&l.config, kernel)
    };
    let setup = WaveSetup {
        descriptor: d,
        grid,
        block,
        block_size,
        waves,
        wave_size,
        allocated_vgprs: allocated_vgprs(&d, wave_size),
        used_vgprs: used_vgprs(kernel),
        ids: sample.clone(),
    };
    let init: WaveInit = Arc::new(move |g, w| setup.init(g, w));
    let memory = || place_in_memory(l, &layout, printf_arg.is_some(), host.is_some());
    let mut run = run_exactly(&program, &cfg, &memory, &init)?;
    let sampled = sample.map(|ids| (ids.len() as u32, groups));
    if let Some((k, total)) = sampled {
        run.device.scale_stats(total, u64::from(k));
    }
    let buffers = read_back(&l.args, &layout.addresses, &run);
    let symbols = read_symbols(kernel, &run);
    let mut printf = if printf_arg.is_some() {
        read_printf(kernel, &run)
    } else {
        Vec::new()
    };
    if let Some(h) = &host {
        printf.extend(h.printed());
        note_assert_message(&mut run, &printf);
    }
    Ok(Launched {
        symbols,
        printf,
        program,
        run,
        wave_size,
        addresses: layout.addresses,
        lds_bytes: layout.lds_bytes,
        buffers,
        sampled,
    })
}

/// Runs the grid with `cfg` (which lets waves run ahead, [`RunConfig::run_ahead`]), and,
/// when the run ends in an error, again without: waves that ran ahead would stand one step
/// off the exact order, and an error's report shows every wave's state. An interrupted
/// run is not run again (where it stops depends on the user, not the order).
fn run_exactly(
    program: &[AsmLine],
    cfg: &RunConfig,
    memory: &Memory<'_>,
    init: &WaveInit,
) -> Result<GridRun, String> {
    let run = run_grid(program, cfg, memory, init).map_err(|e| e.to_string())?;
    match &run.result {
        Err(e) if cfg.run_ahead && !matches!(e, RunError::Interrupted { .. }) => {
            if let Some(p) = &cfg.progress {
                p.restart(format!(
                    "running again without waves running ahead, for the state at the error: {e}"
                ));
            }
            let exact = RunConfig {
                run_ahead: false,
                ..cfg.clone()
            };
            run_grid(program, &exact, memory, init).map_err(|e| e.to_string())
        }
        _ => Ok(run),
    }
}

/// The private stack a kernel with a dynamic stack (recursion, calls through pointers:
/// `.amdhsa_uses_dynamic_stack`) gets per work-item at least: 1,024 bytes, the simulator's
/// choice — the unit in which `hipDeviceSetLimit(hipLimitStackSize)` sizes the stack
/// (docs/rules/addressing.md#calls-and-the-program-counter).
pub const DYNAMIC_STACK_BYTES: u32 = 1024;

/// The scratch bytes each lane gets: the descriptor's fixed size, raised to
/// [`DYNAMIC_STACK_BYTES`] for a kernel whose stack the compiler could not bound.
fn scratch_per_lane(d: &KernelDescriptor) -> u32 {
    if d.uses_dynamic_stack() {
        d.private_segment_fixed_size.max(DYNAMIC_STACK_BYTES)
    } else {
        d.private_segment_fixed_size
    }
}

/// Checks a launch's grid and block: at least 1 in every dimension, at most [`MAX_BLOCK`]
/// work-items per workgroup; returns the workgroup's size in work-items.
fn check_shape(grid: [u32; 3], block: [u32; 3]) -> Result<u32, String> {
    if grid.contains(&0) || block.contains(&0) {
        return Err(format!(
            "grid {grid:?} and block {block:?} must be at least 1 in every dimension"
        ));
    }
    let block_size = block.iter().try_fold(1u32, |a, &b| a.checked_mul(b));
    let block_size = block_size
        .filter(|&n| n <= MAX_BLOCK)
        .ok_or_else(|| format!("block {block:?}: at most {MAX_BLOCK} work-items per workgroup"))?;
    // The dispatch packet's grid size is 32 bits per dimension (AMDGPUUsage, hsa_kernel_dispatch_packet_t).
    for (i, axis) in ["x", "y", "z"].iter().enumerate() {
        let items = u64::from(grid[i]) * u64::from(block[i]);
        if items > u64::from(u32::MAX) {
            return Err(format!(
                "grid {grid:?} × block {block:?}: {items} work-items in {axis}; a dispatch has at most 2^32 − 1 per dimension"
            ));
        }
    }
    Ok(block_size)
}

/// Global memory as the launch leaves it for the kernel
/// (docs/rules/addressing.md#argument-and-buffer-placement): each buffer argument's bytes at
/// its allocation, the kernarg segment and the AQL dispatch packet, and all three registered
/// as the host's allocations.
fn place_in_memory(l: &Launch, layout: &Layout, printf: bool, hostcall: bool) -> GlobalMemory {
    let d = l.kernel.descriptor;
    let mut memory = GlobalMemory::new();
    for (a, alloc) in l
        .args
        .iter()
        .filter(|a| matches!(a, KernelArg::Buffer(_)))
        .zip(&layout.buffers)
    {
        if let KernelArg::Buffer(b) = a {
            memory.write_bytes(alloc.start, b);
        }
    }
    let kernarg = &layout.kernarg;
    let mut allocations = layout.buffers.clone();
    if hostcall {
        // The hostcall buffer as the runtime lays it out (hostcall::initial_buffer).
        let (bytes, len) = hostcall::initial_buffer();
        memory.write_bytes(hostcall::HOSTCALL_BASE, &bytes);
        allocations.push(Allocation {
            start: hostcall::HOSTCALL_BASE,
            len,
            name: "the hostcall buffer".into(),
        });
        memory.synchronised = Some((hostcall::HOSTCALL_BASE, hostcall::HOSTCALL_BASE + len));
    }
    if printf {
        // The printf buffer's header: nothing written yet, and the buffer's size.
        memory.write_bytes(PRINTF_BASE, &0u32.to_le_bytes());
        memory.write_bytes(PRINTF_BASE + 4, &PRINTF_BUFFER_BYTES.to_le_bytes());
        allocations.push(Allocation {
            start: PRINTF_BASE,
            len: PRINTF_BUFFER_BYTES.into(),
            name: "the printf buffer".into(),
        });
    }
    // The code object's image: its program-scope variables, read and written through
    // PC-relative addresses (docs/rules/addressing.md#code-object-image).
    let image = &l.kernel.image;
    if !image.bytes.is_empty() {
        memory.write_bytes(image.base, &image.bytes);
        allocations.push(Allocation {
            start: image.base,
            len: image.bytes.len() as u64,
            name: "the code object".into(),
        });
        for (name, bytes) in &l.symbols {
            if let Some(v) = image.variable(name) {
                memory.write_bytes(image.base + v.offset, bytes);
            }
        }
    }
    allocations.push(Allocation {
        start: KERNARG_BASE,
        len: kernarg.len() as u64,
        name: "the kernarg segment".into(),
    });
    allocations.push(Allocation {
        start: DISPATCH_BASE,
        len: 64,
        name: "the dispatch packet".into(),
    });
    memory.allocations = Allocations::new(allocations);
    memory.write_bytes(KERNARG_BASE, kernarg);
    let grid_items = [0, 1, 2].map(|i| l.grid[i].saturating_mul(l.block[i]));
    memory.write_bytes(
        DISPATCH_BASE,
        &dispatch_packet(
            l.block,
            grid_items,
            d.private_segment_fixed_size,
            layout.lds_bytes,
            KERNARG_BASE,
        ),
    );
    memory
}

/// The VGPRs the hardware gives each wave: the descriptor's count in its chip's allocation granules
/// (LDS_PARAM_LOAD's destination range, ds/ldsdir.rs).
fn allocated_vgprs(d: &KernelDescriptor, wave_size: u32) -> u32 {
    let limits = &d.chip.limits;
    // The executor's VGPR operands reach v255 (gfx942's AGPRs past it do not run: `target`).
    crate::occupancy::descriptor_vgprs(d)
        .next_multiple_of(limits.vgpr_granule(wave_size))
        .min(limits.max_vgprs_per_wave)
        .min(crate::occupancy::MAX_VGPRS_PER_WAVE)
}

/// The VGPRs (AGPRs included) the kernel's code uses, from its metadata: what a wave's
/// register file makes room for ([`Wave::vgpr_room`]). With granules of 8 or 16 registers
/// the allocation can be half as large again (38 used, 48 allocated), and every resident
/// wave holds its file.
fn used_vgprs(kernel: &Kernel) -> u32 {
    crate::occupancy::Resources::of_kernel(kernel).file_vgprs()
}

/// What every wave of the grid starts from
/// (docs/rules/addressing.md#kernel-descriptor-and-initial-state).
struct WaveSetup {
    descriptor: KernelDescriptor,
    grid: [u32; 3],
    block: [u32; 3],
    block_size: u32,
    waves: u32,
    wave_size: u32,
    allocated_vgprs: u32,
    /// [`used_vgprs`].
    used_vgprs: u32,
    /// A sampled launch's workgroups: the one workgroup `g` of the run stands for.
    ids: Option<Vec<u32>>,
}

impl WaveSetup {
    /// Sets up wave `w` of workgroup `g`: the descriptor's SGPRs, MODE and VGPR allocation,
    /// each lane's work-item id in v0, and EXEC on for the lanes inside the workgroup.
    fn init(&self, g: u32, w: &mut Wave) {
        let (d, grid, block, wave_size) = (&self.descriptor, self.grid, self.block, self.wave_size);
        let wave_in_group = w.id % self.waves;
        let g = self.ids.as_ref().map_or(g, |ids| ids[g as usize]);
        let gid = [g % grid[0], g / grid[0] % grid[1], g / (grid[0] * grid[1])];
        w.set_sreg(0, 0);
        let v = DispatchValues {
            kernarg_ptr: KERNARG_BASE,
            dispatch_ptr: DISPATCH_BASE,
            workgroup_id: gid,
            ..DispatchValues::default()
        };
        for (r, val) in d.initial_sgprs(&v) {
            w.set_sreg(r, val);
        }
        w.mode = d.initial_mode();
        w.vgpr_limit = self.allocated_vgprs;
        w.vgpr_room = self.used_vgprs.min(self.allocated_vgprs);
        if d.chip.isa == rdna3_isa::Isa::Gfx940 {
            // FLAT_SCRATCH is an SGPR pair on GFX9 (codes 102-103, which the lowering keeps:
            // s102-s103 of the executor), set to the wave's scratch base by the hardware
            // (architected flat scratch, gfx940).
            w.set_sreg(102, w.flat_scratch as u32);
            w.set_sreg(103, (w.flat_scratch >> 32) as u32);
        }
        let mut exec = 0u64;
        for lane in 0..wave_size {
            let t = wave_in_group * wave_size + lane;
            let local = [
                t % block[0],
                t / block[0] % block[1],
                t / (block[0] * block[1]),
            ];
            w.set_vgpr(0, lane, d.initial_v0(local));
            if t < self.block_size {
                exec |= 1 << lane;
            }
        }
        w.set_exec(exec);
    }
}

/// Each argument's final bytes: a buffer's contents after the run (read at its address), a
/// scalar's value, nothing for a local argument.
fn read_back(args: &[KernelArg], addresses: &[u64], run: &GridRun) -> Vec<Vec<u8>> {
    args.iter()
        .zip(addresses)
        .map(|(a, &at)| match a {
            KernelArg::Scalar(b) => b.clone(),
            KernelArg::Local(_) | KernelArg::Null | KernelArg::SameAs(_) => Vec::new(),
            KernelArg::Buffer(b) => {
                let mut out = vec![0; b.len()];
                run.device.memory().read_into(at, &mut out);
                out
            }
        })
        .collect()
}

/// Checks the kernel descriptor's static LDS size (`group_segment_fixed_size`): at most a
/// workgroup's [`MAX_ALLOCATION`](crate::lds::MAX_ALLOCATION) bytes, and the size the
/// metadata gives (the launch lays LDS out by the metadata; the hardware allocates by the
/// descriptor). A size near 2^32 would otherwise wrap to a tiny allocation.
fn check_descriptor_lds(kernel: &Kernel, descriptor: u32, metadata: u32) -> Result<(), String> {
    let max = crate::lds::MAX_ALLOCATION;
    if descriptor > max {
        return Err(format!(
            "kernel `{}`: its descriptor's group_segment_fixed_size is {descriptor} ({descriptor:#x}) bytes of LDS; a workgroup may have at most {max}",
            kernel.display_name()
        ));
    }
    if descriptor != metadata {
        return Err(format!(
            "kernel `{}`: its descriptor's group_segment_fixed_size ({descriptor} bytes of LDS) differs from its metadata's .group_segment_fixed_size ({metadata})",
            kernel.display_name()
        ));
    }
    Ok(())
}

/// Checks that `kernel` calls nothing the code object leaves undefined: such a call is a
/// device-library function that was not linked, and the error says how to link it.
fn check_linked(kernel: &Kernel) -> Result<(), String> {
    let Some(first) = kernel.undefined.first() else {
        return Ok(());
    };
    let named = |s: &String| match demangle(s) {
        Some(d) => format!("`{d}` (`{s}`)"),
        None => format!("`{s}`"),
    };
    let all: Vec<String> = kernel.undefined.iter().map(named).collect();
    Err(format!(
        "kernel `{}` calls {}, which the code object does not define: {} a device-library \
         function that was not linked. Give gpumemsim the source (`gpumemsim run FILE.cl` or \
         `FILE.hip` links AMD's device libraries), or link them when you build: clang-19 \
         -nogpulib -Xclang -mlink-builtin-bitcode -Xclang DIR/opencl.bc (hip.bc for HIP) and \
         likewise ockl.bc, ocml.bc and the oclc_*.bc controls (docs/kernels.md)",
        kernel.display_name(),
        all.join(", "),
        if all.len() == 1 && first.starts_with("_Z") {
            "it is"
        } else {
            "each is"
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addr::GlobalMemory;
    use crate::exec::Device;
    use crate::isa::asm::assemble;

    /// Eight waves in two workgroups, two to a SIMD, in a loop of dependent VALU and SALU
    /// work: the waves of a SIMD queue for its VALU at almost every instruction.
    const BUSY_LOOP: &str = "s_mov_b32 s1, 0
loop:
v_add_nc_u32 v1, v1, v0
v_xor_b32 v2, v1, v2
v_mul_lo_u32 v3, v2, v1
v_add_nc_u32 v4, v3, s1
s_add_u32 s1, s1, 1
s_cmp_lt_u32 s1, 40
s_cbranch_scc1 loop
s_endpgm
";

    fn config(max_steps: u64, run_ahead: bool) -> RunConfig {
        RunConfig {
            waves: 4,
            workgroups: 2,
            max_steps,
            run_ahead,
            ..RunConfig::default()
        }
    }

    /// What a run leaves that a report shows of its waves: each wave's pc, steps, clock and
    /// registers v1–v4 and s1, with the run's instruction statistics and result.
    fn state(d: &Device) -> Vec<String> {
        let mut s: Vec<String> = d
            .waves()
            .iter()
            .zip(d.clocks())
            .map(|(w, c)| {
                let v: Vec<u32> = (1..5).map(|r| w.vgpr(r, 5)).collect();
                format!(
                    "{} pc {} steps {} clock {c} {v:?} s1 {}",
                    w.id,
                    w.pc,
                    w.steps,
                    w.sreg(1)
                )
            })
            .collect();
        s.push(format!("{:?}", d.stats()));
        s
    }

    fn run(max_steps: u64, run_ahead: bool, exactly: bool) -> GridRun {
        let prog = assemble(BUSY_LOOP);
        assert!(prog.errors.is_empty(), "{:?}", prog.errors);
        let init: WaveInit = Arc::new(|_, _| {});
        let cfg = config(max_steps, run_ahead);
        if exactly {
            run_exactly(&prog.lines, &cfg, &GlobalMemory::new, &init).expect("config")
        } else {
            run_grid(&prog.lines, &cfg, &GlobalMemory::new, &init).expect("config")
        }
    }

    /// Without an error, waves that run ahead end exactly where the exact order ends them.
    #[test]
    fn running_ahead_gives_the_exact_result() {
        let exact = run(1_000_000, false, false);
        let ahead = run(1_000_000, true, false);
        assert_eq!(exact.result, Ok(()));
        assert_eq!(ahead.result, Ok(()));
        assert_eq!(state(&ahead.device), state(&exact.device));
        assert_eq!(ahead.device.cycles(), exact.device.cycles());
    }

    /// A run that stops at the step limit: with waves running ahead, the others stand off
    /// the exact order (which is why a launch runs again); run exactly, the state is the
    /// exact order's.
    #[test]
    fn an_error_runs_again_without_running_ahead() {
        let limit = 150;
        let exact = run(limit, false, false);
        assert!(matches!(
            exact.result,
            Err(crate::exec::RunError::StepLimit { .. })
        ));
        let ahead = run(limit, true, false);
        assert_eq!(ahead.result, exact.result);
        assert_ne!(
            state(&ahead.device),
            state(&exact.device),
            "the waves that ran ahead stop where the exact order has them: this test no longer tests the rerun"
        );
        let again = run(limit, true, true);
        assert_eq!(again.result, exact.result);
        assert_eq!(state(&again.device), state(&exact.device));
    }
}
