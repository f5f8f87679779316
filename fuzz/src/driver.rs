//! A small stable-Rust fuzzer for `cargo test`: mutates seed inputs (bit flips, byte edits,
//! inserts, deletes, splices, interesting values) with a fixed-seed generator and feeds them
//! to a target for a time budget. A panicking input is printed in hex (and written under
//! `target/fuzz-failures/`) before the panic is passed on, so it can be replayed with the
//! cargo-fuzz target of the same name (`cargo fuzz run NAME FILE`).
//!
//! Budget: `GPUMEMSIM_FUZZ_SECS` seconds per target (default 2; `0` runs the seeds only).

#![allow(dead_code)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The time budget of one target.
pub fn budget() -> Duration {
    let secs = std::env::var("GPUMEMSIM_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(2.0);
    Duration::from_secs_f64(secs.max(0.0))
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, seeds: &[Vec<u8>], max_len: usize) {
    for _ in 0..1 + rng.below(4) {
        let len = input.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                input[i] = rng.next() as u8;
            }
            2 => {
                let i = rng.below(len + 1);
                input.insert(i, rng.next() as u8);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(8));
                input.drain(i..i + n);
            }
            4 if !seeds.is_empty() => {
                let other = &seeds[rng.below(seeds.len())];
                if !other.is_empty() {
                    let a = rng.below(other.len());
                    let b = a + rng.below((other.len() - a).min(32)) + 1;
                    let at = rng.below(len + 1);
                    input.splice(at..at, other[a..b].iter().copied());
                }
            }
            5 if len > 0 => {
                const EDGES: [u8; 8] = [0, 1, 0x7f, 0x80, 0xff, b'\n', b',', b'-'];
                let i = rng.below(len);
                input[i] = EDGES[rng.below(EDGES.len())];
            }
            6 if len >= 4 => {
                let i = rng.below(len - 3);
                let v = [0u32, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff][rng.below(5)];
                input[i..i + 4].copy_from_slice(&v.to_le_bytes());
            }
            7 if len > 1 => {
                let i = rng.below(len);
                let j = rng.below(len);
                input.swap(i, j);
            }
            _ => {
                let i = rng.below(len + 1);
                let n = 1 + rng.below(16);
                for _ in 0..n {
                    input.insert(i, rng.next() as u8);
                }
            }
        }
    }
    input.truncate(max_len);
}

fn run_one(name: &str, target: fn(&[u8]), input: &[u8]) {
    if let Err(p) = catch_unwind(AssertUnwindSafe(|| target(input))) {
        let dir = option_env!("CARGO_TARGET_TMPDIR")
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir)
            .join("fuzz-failures");
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join(format!("{name}-{:016x}", fnv(input)));
        let _ = std::fs::write(&file, input);
        let hex: String = input
            .iter()
            .take(4096)
            .map(|b| format!("{b:02x}"))
            .collect();
        eprintln!(
            "fuzz target `{name}` panicked on a {}-byte input, saved as {}\n  hex: {hex}\n  replay: cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run {name} {}",
            input.len(),
            file.display(),
            file.display()
        );
        std::panic::resume_unwind(p);
    }
}

fn fnv(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
        (h ^ x as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Runs `target` on every seed, then on mutations of them until the budget is spent.
/// Returns the number of inputs run.
pub fn fuzz(name: &str, seeds: &[Vec<u8>], max_len: usize, target: fn(&[u8])) -> u64 {
    let start = Instant::now();
    let budget = budget();
    let mut runs = 0u64;
    for s in seeds {
        run_one(name, target, s);
        runs += 1;
    }
    let mut rng = Rng(0x5eed_0000_0000_0001 ^ fnv(name.as_bytes()));
    let mut input = Vec::new();
    while start.elapsed() < budget {
        // Start again from a seed (or from nothing) now and then.
        if runs.is_multiple_of(16) || input.is_empty() {
            input = if seeds.is_empty() || rng.below(8) == 0 {
                Vec::new()
            } else {
                seeds[rng.below(seeds.len())].clone()
            };
        }
        mutate(&mut rng, &mut input, seeds, max_len);
        run_one(name, target, &input);
        runs += 1;
    }
    eprintln!(
        "fuzz `{name}`: {runs} inputs ({} seeds) in {:.1?}",
        seeds.len(),
        start.elapsed()
    );
    runs
}

/// The repository root (two levels above a crate's manifest directory).
pub fn repo_root(manifest_dir: &str) -> PathBuf {
    Path::new(manifest_dir).join("../..")
}

/// Lines of the golden files `tests/golden/NAME` (not comments), each split at tabs.
pub fn golden_rows(root: &Path, name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(root.join("tests/golden").join(name)).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

/// Bytes of an llvm-mc byte list (`0x10,0x00,...`) or a hex string (`1000d8...`).
pub fn parse_bytes(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if s.starts_with("0x") || s.starts_with("[0x") {
        s.trim_matches(['[', ']'])
            .split(',')
            .map(|t| u8::from_str_radix(t.trim().trim_start_matches("0x"), 16).ok())
            .collect()
    } else if s.len().is_multiple_of(2) && !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit())
    {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
            .collect()
    } else {
        None
    }
}

/// Every `step`-th item of `v`, at most `max`.
pub fn sample<T: Clone>(v: &[T], max: usize) -> Vec<T> {
    let step = v.len().div_ceil(max.max(1)).max(1);
    v.iter().step_by(step).take(max).cloned().collect()
}

/// The files of `dir` whose names end with `ext`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| p.to_string_lossy().ends_with(ext));
    out.sort();
    out
}
