//! Stable, time-boxed variants of the cargo-fuzz targets `disasm` and `asm` (`fuzz/`): the
//! same actions and checks (`fuzz/src/isa.rs`, included here by path) on the golden files'
//! encodings and texts and on mutations of them, for `GPUMEMSIM_FUZZ_SECS` seconds per target
//! (default 2). A failing input is printed in hex and saved for `cargo fuzz run`.

#[path = "../../../fuzz/src/driver.rs"]
mod driver;
#[path = "../../../fuzz/src/isa.rs"]
mod isa;

use std::path::PathBuf;

const GOLDENS: [&str; 12] = [
    "asm.txt",
    "disasm.txt",
    "div_scale_asm.txt",
    "div_scale_disasm.txt",
    "dpp.txt",
    "dpp_vop3p_asm.txt",
    "dpp_vop3p_disasm.txt",
    "random_disasm.txt",
    "reference_disasm.txt",
    "vop3_opsel.txt",
    "vop3p.txt",
    "vopd.txt",
];

fn root() -> PathBuf {
    driver::repo_root(env!("CARGO_MANIFEST_DIR"))
}

/// Encodings (`bytes`) and instruction texts (`text`) of the goldens, a few from each file.
fn golden_seeds() -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let (mut bytes, mut text) = (Vec::new(), Vec::new());
    for g in GOLDENS {
        let (mut b, mut t) = (Vec::new(), Vec::new());
        for row in driver::golden_rows(&root(), g) {
            for col in &row {
                match driver::parse_bytes(col) {
                    Some(v) => b.push(v),
                    None if col.contains(' ') && !col.starts_with('<') => {
                        t.push(col.as_bytes().to_vec())
                    }
                    None => {}
                }
            }
        }
        bytes.extend(driver::sample(&b, 40));
        text.extend(driver::sample(&t, 40));
    }
    (bytes, text)
}

#[test]
fn fuzz_disasm() {
    let (mut seeds, _) = golden_seeds();
    assert!(seeds.len() > 100, "the goldens give encodings");
    // A few whole-program streams: consecutive encodings.
    let joined: Vec<Vec<u8>> = seeds.chunks(8).map(|c| c.concat()).collect();
    seeds.extend(joined);
    driver::fuzz("disasm", &seeds, 64, isa::disasm);
}

#[test]
fn fuzz_asm() {
    let (_, mut seeds) = golden_seeds();
    assert!(seeds.len() > 100, "the goldens give texts");
    let joined: Vec<Vec<u8>> = seeds.chunks(6).map(|c| c.join(&b'\n')).collect();
    seeds.extend(joined);
    for f in driver::files(&root().join("examples"), ".s") {
        seeds.push(std::fs::read(&f).expect("an example"));
    }
    driver::fuzz("asm", &seeds, 512, isa::asm);
}

/// The gfx942 goldens' encodings and texts (a few from each file).
fn golden_seeds_gfx942() -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let (mut bytes, mut text) = (Vec::new(), Vec::new());
    for g in [
        "random_disasm_gfx942.txt",
        "objdump_gfx942.txt",
        "mc_disasm_gfx942.txt",
        "asm_gfx942.txt",
    ] {
        let (mut b, mut t) = (Vec::new(), Vec::new());
        for row in driver::golden_rows(&root(), g) {
            for col in &row {
                let hex = col.len() >= 8
                    && col.len() % 2 == 0
                    && col.bytes().all(|c| c.is_ascii_hexdigit());
                if hex {
                    b.push(
                        (0..col.len())
                            .step_by(2)
                            .map(|i| u8::from_str_radix(&col[i..i + 2], 16).unwrap_or(0))
                            .collect(),
                    );
                } else if col.contains(' ') && !col.starts_with('<') {
                    t.push(col.as_bytes().to_vec());
                }
            }
        }
        bytes.extend(driver::sample(&b, 60));
        text.extend(driver::sample(&t, 60));
    }
    (bytes, text)
}

#[test]
fn fuzz_disasm_gfx942() {
    let (seeds, _) = golden_seeds_gfx942();
    assert!(seeds.len() > 100, "the gfx942 goldens give encodings");
    driver::fuzz("disasm_gfx942", &seeds, 64, isa::disasm_gfx942);
}

#[test]
fn fuzz_asm_gfx942() {
    let (_, mut seeds) = golden_seeds_gfx942();
    assert!(seeds.len() > 100, "the gfx942 goldens give texts");
    for f in driver::files(&root().join("examples/gfx942"), ".s") {
        seeds.push(std::fs::read(&f).expect("an example"));
    }
    driver::fuzz("asm_gfx942", &seeds, 512, isa::asm_gfx942);
}
