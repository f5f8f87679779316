//! Statistics by source line, as kernel authors read them (Nsight Compute's Source view):
//! each instruction attributed to a line of the kernel's own code, and the lines ranked by
//! what they cost.
//!
//! An instruction of a code object built with `-g` is attributed to the outermost frame of its
//! inline chain that has a line ([`Kernel::source_at`]): the line of the kernel's own file
//! that the instruction, or the inlined call it came from, belongs to. An instruction of an
//! assembly program is attributed to its line of the program. Instructions with no line (no
//! DWARF, or DWARF's line 0 for code the compiler made) are left out of the line table and
//! kept in the instruction table.

use std::collections::HashMap;

use rdna3_isa::asm::AsmLine;

use crate::exec::InstStats;
use crate::loader::{Kernel, SourceFrame, SourceLocation};

/// Where one instruction comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstSource {
    /// The line it is attributed to.
    pub location: SourceLocation,
    /// Its inline chain, innermost frame first (empty for assembly).
    pub chain: Vec<SourceFrame>,
}

/// The message of a kernel's run that stopped with `e`: each instruction it names by the
/// address `llvm-objdump-19 -d` prints for it (the kernel's address plus its offset) and
/// its source `file:line:col` where the line tables have one — not by its index in the
/// program, which no other tool shows.
pub fn kernel_error(
    e: &crate::exec::RunError,
    kernel: &Kernel,
    program: &[AsmLine],
    sources: &[Option<InstSource>],
) -> String {
    e.describe(&|pc| {
        let Some(l) = program.get(pc) else {
            return format!("instruction {pc}");
        };
        let address = kernel
            .address
            .wrapping_add(i64::from(l.address as i32) as u64);
        match sources.get(pc) {
            Some(Some(s)) if s.location.line > 0 => {
                let loc = &s.location;
                let file = loc.file.rsplit('/').next().unwrap_or(&loc.file);
                format!("{address:#x} ({file}:{}:{})", loc.line, loc.column)
            }
            _ => format!("{address:#x}"),
        }
    })
}

/// The source of each instruction of `program`, a kernel's code.
pub fn kernel_sources(kernel: &Kernel, program: &[AsmLine]) -> Vec<Option<InstSource>> {
    program
        .iter()
        .map(|l| {
            let location = kernel.source_at(l.address)?.clone();
            let chain = kernel.frames_at(l.address).unwrap_or_default().to_vec();
            Some(InstSource { location, chain })
        })
        .collect()
}

/// The source of each instruction of an assembly program read from `file`: its own line.
pub fn assembly_sources(file: &str, program: &[AsmLine]) -> Vec<Option<InstSource>> {
    program
        .iter()
        .map(|l| {
            Some(InstSource {
                location: SourceLocation {
                    file: file.to_string(),
                    line: l.line as u32,
                    column: 1,
                },
                chain: Vec::new(),
            })
        })
        .collect()
}

/// One row of a by-line or by-function table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceRow {
    /// The file, for a line (empty for a function).
    pub file: String,
    /// The line (0 for a function).
    pub line: u32,
    /// The function, for a by-function row.
    pub function: Option<String>,
    /// Its instructions' statistics added up.
    pub stats: InstStats,
    /// Its instructions (indices into the program), in program order.
    pub instructions: Vec<usize>,
}

impl SourceRow {
    /// The share of its issue cycles lost to LDS bank conflicts, in percent.
    pub fn conflict_rate(&self) -> f64 {
        super::percent(self.stats.conflict_cycles, self.stats.cycles)
    }
}

/// Ranks rows hottest first: issue cycles, then conflict cycles, then stall cycles, then
/// their first instruction.
fn rank(rows: &mut [SourceRow]) {
    rows.sort_by(|a, b| {
        let key = |r: &SourceRow| {
            (
                std::cmp::Reverse(r.stats.cycles),
                std::cmp::Reverse(r.stats.conflict_cycles),
                std::cmp::Reverse(r.stats.stall_cycles),
                r.instructions.first().copied(),
            )
        };
        key(a).cmp(&key(b))
    });
}

fn group(
    sources: &[Option<InstSource>],
    stats: &[InstStats],
    key: impl Fn(&InstSource) -> Option<(String, u32, Option<String>)>,
) -> Vec<SourceRow> {
    let mut rows: Vec<SourceRow> = Vec::new();
    let mut index: HashMap<(String, u32, Option<String>), usize> = HashMap::new();
    for (pc, (src, st)) in sources.iter().zip(stats).enumerate() {
        let Some(k) = src.as_ref().and_then(&key) else {
            continue;
        };
        let i = *index.entry(k.clone()).or_insert_with(|| {
            rows.push(SourceRow {
                file: k.0.clone(),
                line: k.1,
                function: k.2.clone(),
                stats: InstStats::default(),
                instructions: Vec::new(),
            });
            rows.len() - 1
        });
        rows[i].stats.add(st);
        rows[i].instructions.push(pc);
    }
    rank(&mut rows);
    rows
}

/// The source lines, hottest first (instructions without a line are left out).
pub fn by_line(sources: &[Option<InstSource>], stats: &[InstStats]) -> Vec<SourceRow> {
    group(sources, stats, |s| {
        (s.location.line > 0).then(|| (s.location.file.clone(), s.location.line, None))
    })
}

/// The functions, hottest first: each instruction counts for the innermost function of its
/// inline chain (the device-library or header function it was inlined from, or the kernel).
pub fn by_function(sources: &[Option<InstSource>], stats: &[InstStats]) -> Vec<SourceRow> {
    group(sources, stats, |s| {
        let f = s.chain.iter().find_map(|f| f.function.clone())?;
        Some((String::new(), 0, Some(f)))
    })
}

/// Source files read on demand, for the text of a line (a file that cannot be read has no
/// text; a report never fails for it). A relative path (the corpus names its sources
/// relative to the repository root) is looked up as given, then under each search directory.
#[derive(Debug, Default)]
pub struct SourceTexts {
    files: HashMap<String, Option<Vec<String>>>,
    search: Vec<std::path::PathBuf>,
}

impl SourceTexts {
    /// No file read yet; relative paths are looked up from the working directory only.
    pub fn new() -> SourceTexts {
        SourceTexts::default()
    }

    /// Looks relative paths up from the working directory, then from `object`'s directory and
    /// each directory above it (a code object's sources are usually beside it or above it).
    pub fn near(object: &std::path::Path) -> SourceTexts {
        let dir = std::fs::canonicalize(object)
            .ok()
            .and_then(|p| p.parent().map(std::path::Path::to_path_buf));
        SourceTexts {
            files: HashMap::new(),
            search: dir.map_or_else(Vec::new, |d| {
                d.ancestors().map(std::path::Path::to_path_buf).collect()
            }),
        }
    }

    /// Gives `file` the text `text` (a source the program carries, such as the bundled
    /// kernel's, or standard input).
    pub fn insert(&mut self, file: &str, text: &str) {
        let lines = text.lines().map(|l| l.trim().to_string()).collect();
        self.files.insert(file.to_string(), Some(lines));
    }

    /// Line `line` (1-based) of `file`, trimmed, if the file can be read.
    pub fn line(&mut self, file: &str, line: u32) -> Option<&str> {
        let search = &self.search;
        let lines = self.files.entry(file.to_string()).or_insert_with(|| {
            let path = std::path::Path::new(file);
            let under = search
                .iter()
                .filter(|_| path.is_relative())
                .map(|d| d.join(path));
            std::iter::once(path.to_path_buf())
                .chain(under)
                .find_map(|p| std::fs::read_to_string(p).ok())
                .map(|t| t.lines().map(|l| l.trim().to_string()).collect())
        });
        lines
            .as_ref()?
            .get((line as usize).checked_sub(1)?)
            .map(String::as_str)
    }
}

/// The name of the function whose code starts at instruction `pc` of `program`: the line
/// tables' name for it, else its symbol's (demangled) among `kernel`'s callees.
pub fn function_at(
    program: &[AsmLine],
    sources: &[Option<InstSource>],
    kernel: Option<&Kernel>,
    pc: usize,
) -> Option<String> {
    let from_lines = sources
        .get(pc)
        .and_then(|s| s.as_ref())
        .and_then(|s| s.chain.last())
        .and_then(|f| f.function.clone());
    from_lines.or_else(|| {
        let at = program.get(pc)?.address;
        let f = kernel?.callees.iter().find(|f| f.address == at)?;
        Some(crate::loader::demangle(&f.name).unwrap_or_else(|| f.name.clone()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(file: &str, line: u32, function: &str) -> Option<InstSource> {
        Some(InstSource {
            location: SourceLocation {
                file: file.into(),
                line,
                column: 3,
            },
            chain: vec![SourceFrame {
                function: Some(function.into()),
                location: None,
            }],
        })
    }

    fn cost(cycles: u64, conflict: u64) -> InstStats {
        InstStats {
            executions: 1,
            cycles,
            conflict_cycles: conflict,
            ..InstStats::default()
        }
    }

    #[test]
    fn lines_add_their_instructions_and_rank_hottest_first() {
        let sources = [
            src("a.cl", 3, "k"),
            src("a.cl", 5, "f"),
            src("a.cl", 3, "k"),
            None,
            src("a.cl", 0, "k"),
        ];
        let stats = [
            cost(4, 0),
            cost(10, 8),
            cost(4, 2),
            cost(100, 0),
            cost(50, 0),
        ];
        let rows = by_line(&sources, &stats);
        let got: Vec<(u32, u64, u64, Vec<usize>)> = rows
            .iter()
            .map(|r| {
                (
                    r.line,
                    r.stats.cycles,
                    r.stats.conflict_cycles,
                    r.instructions.clone(),
                )
            })
            .collect();
        assert_eq!(got, [(5, 10, 8, vec![1]), (3, 8, 2, vec![0, 2])]);
        assert_eq!(rows[0].conflict_rate(), 80.0);
        let f = by_function(&sources, &stats);
        assert_eq!(f[0].function.as_deref(), Some("k"));
        assert_eq!((f[0].stats.cycles, f[0].instructions.len()), (58, 3));
    }
}
