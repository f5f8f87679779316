//! `gpumemsim`: the command-line tool.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `print!` that does not panic when standard output is closed (`gpumemsim ... | head`):
/// the rest of the output is dropped.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

/// `println!` that does not panic when standard output is closed (see [`out!`]).
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

mod addr_cmd;
mod banks_cmd;
mod buffer_json;
mod check_cmd;
mod check_text;
mod diff_cmd;
mod diff_gate;
mod diff_read;
mod html_out;
mod input;
mod isa_cmds;
mod kernel_cmd;
mod launch;
mod launch_args;
mod output;
mod progress;
mod run_cmd;
mod run_report;
mod run_text;
mod symbols;

/// A bit-exact simulator of GPU on-chip memory systems (AMD RDNA3 / gfx1100).
#[derive(Parser)]
#[command(name = "gpumemsim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble LLVM-syntax assembly (gfx1100, or gfx942 with `--arch gfx942`); print each
    /// instruction's canonical text and encoding as `llvm-mc-19 -triple=amdgcn -mcpu=ARCH
    /// -show-encoding` does. Without FILE, assembles a bundled example.
    Asm {
        /// Assembly file, or `-` for standard input.
        file: Option<String>,
        /// Wave64 syntax (`-mattr=+wavefrontsize64`): lane masks are SGPR pairs (`vcc`,
        /// `s[2:3]`) instead of one SGPR (`vcc_lo`, `s2`).
        #[arg(long)]
        wave64: bool,
        /// The chip whose instruction set is assembled (`llvm-mc-19 -mcpu=ARCH`).
        #[arg(long, value_enum, default_value_t = isa_cmds::IsaArch::Gfx1100)]
        arch: isa_cmds::IsaArch,
    },
    /// Disassemble byte lists in llvm-mc's input form (`0x00,0x00,0x00,0xd8,...`), printing one
    /// canonical line per instruction as `llvm-mc-19 --disassemble` does.
    Disasm {
        /// Input file, or `-` for standard input (the default).
        file: Option<String>,
        /// Decode and print as for wave64 (`-mattr=+wavefrontsize64`): lane masks as SGPR
        /// pairs; VOPD words are invalid.
        #[arg(long)]
        wave64: bool,
        /// The chip whose instruction set is read (`llvm-mc-19 -mcpu=ARCH`).
        #[arg(long, value_enum, default_value_t = isa_cmds::IsaArch::Gfx1100)]
        arch: isa_cmds::IsaArch,
    },
    /// Run an assembly program, a code object's kernel or an OpenCL/HIP source, and report
    /// what the memory system did.
    Run(Box<output::RunArgs>),
    /// Run as `run` does and report only what the program did wrong: LDS races, missing
    /// waits, barrier divergence, uninitialised LDS reads, out-of-bounds accesses, broken
    /// rules. Exit status 0 when clean, 1 when something was found.
    ///
    /// The program and the launch options are `run`'s. The events are grouped into findings
    /// by kind and instructions, each with its count, instructions (llvm-objdump-19's address,
    /// text, source line), waves, lanes and memory address, then a one-line summary. A run that
    /// stops early prints the findings it got and the error, exit status 1; bad input exits
    /// 2. docs/check.md describes every kind and the JSON keys.
    Check(Box<check_cmd::CheckArgs>),
    /// Show an encoding's fields with their bit ranges and values.
    Explain {
        /// The encoding: bytes (`0x10,0x00,0x00,0xd8,0x01,0x02,0x00,0x00`) or one hexadecimal
        /// instruction word (`0xd8000010`, `0x00000201d8000010`).
        bytes: Vec<String>,
        /// The chip whose instruction set is read (`llvm-mc-19 -mcpu=ARCH`).
        #[arg(long, value_enum, default_value_t = isa_cmds::IsaArch::Gfx1100)]
        arch: isa_cmds::IsaArch,
    },
    /// The bank-conflict cost of one LDS / shared-memory access: counters, the per-group
    /// breakdown, a bank × lane picture, and (--suggest) layout fixes.
    Banks(banks_cmd::BanksArgs),
    /// Address translation: `addr flat ADDR` resolves a flat address through the apertures
    /// and the swizzled scratch layout; `addr buffer --desc W0,W1,W2,W3` a buffer access.
    Addr(addr_cmd::AddrArgs),
    /// Compare two reports of `gpumemsim run ... --json` (before and after a change): kernel
    /// time, conflict and stall cycles, occupancy, and each source line (or instruction),
    /// improvements and regressions largest first.
    Diff(diff_cmd::DiffArgs),
}

/// The process allocates through mimalloc, not the C library's malloc. A run touches tens of
/// megabytes once (argument buffers, global memory's pages, the caches' tags, the checker's
/// shadow): glibc took a page fault per 4 KiB of them and grew its thread arenas a page at a
/// time, which cost saxpy's process a quarter of its time; mimalloc reserves its arena at
/// once, where the kernel can back it with huge pages. Whole processes, least of 5
/// (docs/benchmarks.md, sixth session): saxpy 221–238 → 176 ms, transpose 1,688–1,826 →
/// 1,467–1,477 ms, gemm 676–684 → 599–607 ms, the VALU loop 56–59 → 51–52 ms.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Asm { file, wave64, arch } => isa_cmds::asm(file.as_deref(), wave64, arch),
        Command::Disasm { file, wave64, arch } => {
            isa_cmds::disasm(file.as_deref().unwrap_or("-"), wave64, arch)
        }
        Command::Explain { bytes, arch } => isa_cmds::explain(&bytes, arch),
        Command::Run(args) => run_cmd::run(&args),
        Command::Check(args) => check_cmd::check(&args),
        Command::Banks(args) => banks_cmd::banks(&args),
        Command::Addr(args) => addr_cmd::addr(&args),
        Command::Diff(args) => diff_cmd::diff(&args),
    };
    let _ = std::io::stdout().flush();
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
