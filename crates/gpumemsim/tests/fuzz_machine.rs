//! Stable, time-boxed variants of the cargo-fuzz targets `loader`, `exec`, `banks` and
//! `launch` (`fuzz/`): the same actions and checks (`fuzz/src/machine.rs`, included here by
//! path) on seeds from the committed code objects and on mutations of them, for
//! `GPUMEMSIM_FUZZ_SECS` seconds per target (default 2). A failing input is printed in hex and
//! saved for `cargo fuzz run`.

#[path = "../../../fuzz/src/bytes.rs"]
mod bytes;
#[path = "../../../fuzz/src/driver.rs"]
mod driver;
#[path = "../../../fuzz/src/machine.rs"]
mod machine;

use std::path::PathBuf;

fn root() -> PathBuf {
    driver::repo_root(env!("CARGO_MANIFEST_DIR"))
}

/// A deterministic pseudo-random byte string (for seeds of the choice-driven targets).
fn noise(seed: u64, len: usize) -> Vec<u8> {
    gpumemsim::xorshift::rand_bytes(seed, len)
}

#[test]
fn every_executor_template_assembles() {
    let mut bad = Vec::new();
    for t in machine::TEMPLATES {
        // Two fillings: all-zero choices and a varied one.
        for data in [vec![0u8; 16], noise(t.len() as u64, 16)] {
            let text = machine::fill(t, &mut bytes::Bytes::new(&data));
            if let Err(e) = gpumemsim::isa::parse::parse_instruction(&text) {
                bad.push(format!("{t:?} -> {text:?}: {e:?}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "templates that do not assemble:\n{}",
        bad.join("\n")
    );
}

#[test]
fn fuzz_loader() {
    // Mutating whole objects is what finds the loader's bugs; the budget goes to few seeds.
    let mut seeds = Vec::new();
    for dir in ["examples/kernels", "examples/apps/build"] {
        for f in driver::files(&root().join(dir), "") {
            let name = f.to_string_lossy();
            if name.ends_with(".o") || name.ends_with(".hsaco") {
                seeds.push(std::fs::read(&f).expect("a committed object"));
            }
        }
    }
    assert!(seeds.len() >= 10, "the committed objects are the seeds");
    let seeds = driver::sample(&seeds, 12);
    driver::fuzz("loader", &seeds, 1 << 20, machine::loader);
}

#[test]
fn fuzz_exec() {
    let seeds: Vec<Vec<u8>> = (0..64)
        .map(|k| noise(k, 16 + 8 * (k as usize % 24)))
        .collect();
    driver::fuzz("exec", &seeds, 512, machine::exec);
}

#[test]
fn fuzz_banks() {
    let mut seeds: Vec<Vec<u8>> = (0..64).map(|k| noise(k + 1000, 64)).collect();
    // Expression addresses, as `gpumemsim banks --addr` takes them.
    for (k, e) in [
        "t*128",
        "(t^1)*4 + 64",
        "t*4 + t/8*4",
        "8*t",
        "16*t",
        "t",
        "0",
    ]
    .iter()
    .enumerate()
    {
        seeds.push([&[k as u8, 0, 0][..], e.as_bytes(), b"\n"].concat());
    }
    driver::fuzz("banks", &seeds, 1024, machine::banks);
}

#[test]
fn fuzz_launch() {
    let mut seeds: Vec<Vec<u8>> = (0..64).map(|k| noise(k + 2000, 48)).collect();
    for v in [
        "1",
        "-1",
        "0x10",
        "3.5",
        "inf",
        "-Infinity",
        "nan",
        "1e40",
        "65504",
        "4294967296",
    ] {
        for ty in 0..9u8 {
            seeds.push([&[0, ty][..], v.as_bytes()].concat());
        }
    }
    driver::fuzz("launch", &seeds, 256, machine::launch_args);
}

/// `GPUMEMSIM_FUZZ_SHOW=FILE cargo test -p gpumemsim --test fuzz_machine show_exec_input --
/// --nocapture` prints the device and program the `exec` target builds from FILE.
#[test]
fn show_exec_input() {
    if let Ok(path) = std::env::var("GPUMEMSIM_FUZZ_SHOW") {
        let data = std::fs::read(&path).expect("the input file");
        println!("{}", machine::describe_exec(&data));
    }
}
