//! `gpumemsim::occupancy` against clang-19's own account of the same kernels.
//!
//! `tests/golden/resources.txt` (written by `tools/gen_resource_goldens.sh`) holds, for every
//! kernel of `examples/kernels` (-O2, wave32 and wave64) and `examples/apps` (every build of
//! `tools/build_apps.sh`), what clang-19's `-Rpass-analysis=kernel-resource-usage` remarks say:
//! VGPRs, SGPRs, scratch bytes per lane, LDS bytes and waves per SIMD. Each committed object is
//! loaded with `CodeObject::parse` and [`Resources::of_kernel`] and [`occupancy`] must give the
//! same numbers. Then the rule itself, one case per limiting resource, with the arithmetic.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use gpumemsim::loader::CodeObject;
use gpumemsim::occupancy::{
    descriptor_sgprs, descriptor_vgprs, occupancy, DeviceLimits, Limiter, Limits, RegisterCounts,
    Resources, MAX_WAVES_PER_SIMD,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One golden line: object, kernel symbol and clang's numbers by name.
struct Remark {
    line: usize,
    object: String,
    symbol: String,
    values: BTreeMap<String, u32>,
}

impl Remark {
    fn get(&self, key: &str) -> u32 {
        *self.values.get(key).unwrap_or_else(|| {
            panic!(
                "tests/golden/resources.txt:{}: no `{key}=` for `{}`",
                self.line, self.symbol
            )
        })
    }
}

fn golden() -> Vec<Remark> {
    let path = root().join("tests/golden/resources.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run tools/gen_resource_goldens.sh)",
            path.display()
        )
    });
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(object), Some(symbol)) = (words.next(), words.next()) else {
            panic!("tests/golden/resources.txt:{}: `{line}`", i + 1);
        };
        let values = words
            .map(|w| {
                let (k, v) = w.split_once('=').unwrap_or_else(|| {
                    panic!("tests/golden/resources.txt:{}: `{w}` is not KEY=N", i + 1)
                });
                let v = v.parse().unwrap_or_else(|_| {
                    panic!("tests/golden/resources.txt:{}: `{w}` is not KEY=N", i + 1)
                });
                (k.to_string(), v)
            })
            .collect();
        out.push(Remark {
            line: i + 1,
            object: object.to_string(),
            symbol: symbol.to_string(),
            values,
        });
    }
    out
}

fn load(object: &str) -> CodeObject {
    let path = root().join(object);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{object}: {e}"));
    CodeObject::parse(&bytes).unwrap_or_else(|e| panic!("{object}: {}", e.0))
}

#[test]
fn every_kernel_matches_clangs_remarks() {
    let golden = golden();
    assert!(golden.len() >= 40, "only {} golden lines", golden.len());
    let mut objects: BTreeMap<&str, CodeObject> = BTreeMap::new();
    let mut mismatches = Vec::new();
    for g in &golden {
        let code = objects
            .entry(g.object.as_str())
            .or_insert_with(|| load(&g.object));
        let Some(kernel) = code.kernels.iter().find(|k| k.name == g.symbol) else {
            mismatches.push(format!(
                "{} has no kernel `{}` (tests/golden/resources.txt:{})",
                g.object, g.symbol, g.line
            ));
            continue;
        };
        let r = Resources::of_kernel(kernel);
        // The kernel's chip's limits: gfx1100's, or gfx942's for its builds.
        let occ = occupancy(&r, &kernel.chip().limits);
        assert_eq!(r.register_counts, RegisterCounts::Metadata, "{}", g.symbol);
        let ours = [
            ("VGPRs", "vgprs", r.vgprs),
            (
                "AGPRs",
                "agprs",
                if g.values.contains_key("agprs") {
                    r.agprs
                } else {
                    0
                },
            ),
            ("SGPRs", "sgprs", r.sgprs),
            (
                "scratch bytes per lane",
                "scratch",
                r.scratch_bytes_per_lane,
            ),
            ("LDS bytes", "lds", r.lds_bytes()),
            ("waves per SIMD", "occupancy", occ.waves_per_simd),
            (
                "dynamic stack",
                "dynamic_stack",
                kernel.descriptor.uses_dynamic_stack() as u32,
            ),
        ];
        for (what, key, value) in ours {
            let theirs = match key {
                "agprs" => g.values.get(key).copied().unwrap_or(0),
                _ => g.get(key),
            };
            if value != theirs {
                mismatches.push(format!(
                    "{}: kernel `{}` ({}): {what}: ours {value}, clang-19 {theirs} \
                     (tests/golden/resources.txt:{})",
                    g.object,
                    kernel.display_name(),
                    g.symbol,
                    g.line
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} golden lines disagree with clang-19:\n{}",
        mismatches.len(),
        golden.len(),
        mismatches.join("\n")
    );
}

/// The golden covers every kernel of every committed object of the two corpora: a kernel added
/// without regenerating it is named.
#[test]
fn golden_covers_both_corpora() {
    let golden = golden();
    let listed: BTreeSet<(String, String)> = golden
        .iter()
        .map(|g| (g.object.clone(), g.symbol.clone()))
        .collect();
    let mut objects = Vec::new();
    for (dir, exts) in [
        ("examples/kernels", &["o"][..]),
        ("examples/apps/build", &["o", "hsaco"][..]),
        ("examples/gfx942/build", &["o"][..]),
        ("examples/gfx942/build/apps", &["o"][..]),
    ] {
        for e in std::fs::read_dir(root().join(dir)).expect(dir) {
            let p = e.expect("entry").path();
            let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
            if exts.contains(&ext) {
                let name = p.file_name().unwrap().to_str().unwrap().to_string();
                objects.push(format!("{dir}/{name}"));
            }
        }
    }
    objects.sort();
    assert!(objects.len() >= 30, "found only {} objects", objects.len());
    let mut missing = Vec::new();
    for object in &objects {
        for k in &load(object).kernels {
            if !listed.contains(&(object.clone(), k.name.clone())) {
                missing.push(format!("{object} `{}`", k.name));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "kernels with no line in tests/golden/resources.txt \
         (run tools/gen_resource_goldens.sh):\n{}",
        missing.join("\n")
    );
}

/// The two register sources: the descriptor's granulated counts are upper bounds of clang's
/// (`lds_sum`, wave32: 16 VGPRs and 24 SGPRs for clang's 10 and 18), less than one block above
/// them, so the metadata is the source of the counts; the occupancy is the same from either,
/// because the allocation granule (24 or 12 VGPRs) is a multiple of the block (8 or 4).
#[test]
fn descriptor_counts_are_granulated_bounds() {
    let lds_sum = load("examples/kernels/lds_sum.w32.o");
    let d = &lds_sum.kernel("lds_sum").unwrap().descriptor;
    assert_eq!((descriptor_vgprs(d), descriptor_sgprs(d)), (16, 24));
    for g in golden() {
        let code = load(&g.object);
        let kernel = code.kernels.iter().find(|k| k.name == g.symbol).unwrap();
        let limits = kernel.chip().limits;
        let d = &kernel.descriptor;
        let [wave64, wave32] = kernel.chip().vgpr_encoding_granule;
        let block = if d.wave32() { wave32 } else { wave64 };
        // gfx942's descriptor counts the unified file: the VGPRs up to a multiple of 4, then
        // the AGPRs (the remark's `AGPRs`, absent for gfx1100).
        let agprs = g.values.get("agprs").copied().unwrap_or(0);
        let (v, s) = (g.get("vgprs"), g.get("sgprs"));
        let v = if agprs > 0 {
            v.next_multiple_of(4) + agprs
        } else {
            v
        };
        let (dv, ds) = (descriptor_vgprs(d), descriptor_sgprs(d));
        assert!(
            dv >= v.max(1) && dv < v.max(1) + block,
            "{} `{}`: descriptor VGPRs {dv}, clang {v}",
            g.object,
            g.symbol
        );
        assert!(
            ds >= s.max(1) && ds < s.max(1) + 8,
            "{} `{}`: descriptor SGPRs {ds}, clang {s}",
            g.object,
            g.symbol
        );
        let r = Resources::of_kernel(kernel);
        assert_eq!(r.allocated_vgprs, dv);
        // The counts alone (no allocation known), and the descriptor alone (an object without
        // a metadata note), give clang's occupancy too.
        let counts_only = Resources {
            allocated_vgprs: 0,
            ..r
        };
        let descriptor_only = Resources {
            vgprs: dv,
            sgprs: ds,
            register_counts: RegisterCounts::Descriptor,
            ..r
        };
        for r in [counts_only, descriptor_only] {
            assert_eq!(
                occupancy(&r, &limits).waves_per_simd,
                g.get("occupancy"),
                "{} `{}`: {r:?}",
                g.object,
                g.symbol
            );
        }
    }
}

/// A wave32 kernel in WGP mode with workgroups of `items` work-items and no LDS.
fn wave32(vgprs: u32, items: u32) -> Resources {
    Resources {
        vgprs,
        agprs: 0,
        allocated_vgprs: 0,
        sgprs: 18,
        static_lds_bytes: 0,
        dynamic_lds_bytes: 0,
        scratch_bytes_per_lane: 0,
        wave_size: 32,
        workgroup_size: items,
        wgp_mode: true,
        register_counts: RegisterCounts::Metadata,
    }
}

fn occ(r: Resources) -> (u32, Limiter) {
    let o = occupancy(&r, &DeviceLimits::GFX1100);
    (o.waves_per_simd, o.limited_by)
}

// The cases below also match what clang-19 prints for kernels built with those resources
// (`__asm volatile("" ::: "vN")` to pin the VGPR count, `reqd_work_group_size`, `-mcumode`,
// `-mwavefrontsize64`, `__local` arrays), checked when these tests were written.

#[test]
fn vgpr_bound() {
    // Wave32: 1536 VGPRs per lane, granule 24.
    // 96 VGPRs = 4 granules: 1536 / 96 = 16 waves, the wave-slot limit.
    assert_eq!(occ(wave32(96, 256)), (16, Limiter::Waves));
    // 97 rounds up to 120: 1536 / 120 = 12.8 -> 12.
    assert_eq!(occ(wave32(97, 256)), (12, Limiter::Vgprs));
    assert_eq!(occ(wave32(100, 256)), (12, Limiter::Vgprs));
    // 256 (all a wave can address) rounds up to 264: 1536 / 264 = 5.8 -> 5.
    assert_eq!(occ(wave32(256, 256)), (5, Limiter::Vgprs));
    // Wave64: 768 VGPRs per lane, granule 12. 96 -> 768 / 96 = 8; 97 -> 108: 7.1 -> 7;
    // 256 -> 264: 2.9 -> 2.
    let w64 = |v| Resources {
        wave_size: 64,
        ..wave32(v, 256)
    };
    assert_eq!(occ(w64(96)), (8, Limiter::Vgprs));
    assert_eq!(occ(w64(97)), (7, Limiter::Vgprs));
    assert_eq!(occ(w64(256)), (2, Limiter::Vgprs));
    // Fewer VGPRs than one granule: no VGPR limit at all (getNumWavesPerEUWithNumVGPRs).
    assert_eq!(
        occupancy(&wave32(0, 256), &DeviceLimits::GFX1100)
            .limits
            .vgprs,
        16
    );
    // More than a wave can address: it cannot run.
    assert_eq!(occ(wave32(257, 256)), (0, Limiter::Vgprs));
    // The allocation counts, not the use: a wave64 kernel with
    // `__attribute__((amdgpu_waves_per_eu(1, 4)))` uses 32 VGPRs (clang's `VGPRs`, the
    // metadata) but clang pads its allocation to 145, recorded in the descriptor as 37 blocks of
    // 4 = 148: align_up(148, 12) = 156, 768 / 156 = 4.9 -> 4 (clang-19 prints 4).
    let padded = Resources {
        allocated_vgprs: 148,
        ..w64(32)
    };
    assert_eq!(occ(padded), (4, Limiter::Vgprs));
}

#[test]
fn lds_bound_with_a_large_dynamic_lds() {
    // The corpus matrix multiply: 24 VGPRs, 2048 bytes of static LDS, workgroups of up to
    // 256 work-items = 8 wave32 waves, WGP mode. Alone it fills every wave slot: 131072 / 2048
    // = 64 workgroups by LDS, min(16 × 4 / 8, 32) = 8 by wave slots; 8 × 8 / 4 SIMDs = 16.
    let code = load("examples/kernels/matmul.w32.o");
    let matmul = Resources::of_kernel(code.kernel("matmul").unwrap());
    assert_eq!(
        (matmul.vgprs, matmul.static_lds_bytes, matmul.workgroup_size),
        (24, 2048, 256)
    );
    assert!(matmul.wgp_mode);
    assert_eq!(occ(matmul), (16, Limiter::Waves));
    // With 40000 bytes of dynamic LDS a workgroup takes 42048 bytes: 131072 / 42048 = 3
    // workgroups per WGP = 24 waves over 4 SIMDs = 6 per SIMD.
    let big = matmul.with_dynamic_lds(40000);
    assert_eq!(big.lds_bytes(), 42048);
    let o = occupancy(&big, &DeviceLimits::GFX1100);
    assert_eq!((o.waves_per_simd, o.limited_by), (6, Limiter::Lds));
    assert_eq!(
        o.limits,
        Limits {
            waves: 16,
            vgprs: 16,
            sgprs: 16,
            lds: 6,
            workgroup: 16
        }
    );
    // In CU mode the pool is one CU's 64 KiB over its 2 SIMDs: 65536 / 42048 = 1 workgroup,
    // 8 waves / 2 = 4.
    let cu = Resources {
        wgp_mode: false,
        ..big
    };
    assert_eq!(occ(cu), (4, Limiter::Lds));
    // Single-wave workgroups of 20000 bytes: 131072 / 20000 = 6 workgroups = 6 waves over
    // 4 SIMDs, rounded up: 2 (LLVM spreads the waves as evenly as possible).
    let single = Resources {
        static_lds_bytes: 20000,
        ..wave32(8, 32)
    };
    assert_eq!(occ(single), (2, Limiter::Lds));
    // More than the 64 KiB a workgroup may have: it cannot be placed.
    assert_eq!(occ(matmul.with_dynamic_lds(64 * 1024)), (0, Limiter::Lds));
}

#[test]
fn wave_slot_bound() {
    // The corpus LDS reduction: 10 VGPRs (< one granule), 256 bytes of LDS, 256 work-items.
    // LDS allows 131072 / 256 = 512 workgroups, wave slots 8 (64 slots / 8 waves), whose
    // 64 waves fill the 4 SIMDs' 16 slots exactly: the hardware maximum is the limit.
    let code = load("examples/kernels/lds_sum.w32.o");
    let r = Resources::of_kernel(code.kernel("lds_sum").unwrap());
    assert_eq!((r.vgprs, r.sgprs, r.static_lds_bytes), (10, 18, 256));
    assert_eq!(occ(r), (MAX_WAVES_PER_SIMD, Limiter::Waves));
    // A HIP kernel assumes 1024 work-items (32 wave32 waves): 64 / 32 = 2 workgroups, 64
    // waves, 16 per SIMD.
    assert_eq!(occ(wave32(8, 1024)), (16, Limiter::Waves));
}

#[test]
fn workgroup_bound() {
    // 160 work-items = 5 wave32 waves. A WGP's 64 wave slots hold 64 / 5 = 12 whole
    // workgroups = 60 waves: ceil(60 / 4) = 15 per SIMD.
    assert_eq!(occ(wave32(8, 160)), (15, Limiter::Workgroup));
    // 352 = 11 waves: 64 / 11 = 5 workgroups, 55 waves, ceil(55 / 4) = 14.
    assert_eq!(occ(wave32(8, 352)), (14, Limiter::Workgroup));
    // CU mode: 32 slots over 2 SIMDs. 352: 32 / 11 = 2 workgroups, 22 waves, 11 per SIMD;
    // 544 = 17 waves: 1 workgroup, ceil(17 / 2) = 9.
    let cu = |items| Resources {
        wgp_mode: false,
        ..wave32(8, items)
    };
    assert_eq!(occ(cu(352)), (11, Limiter::Workgroup));
    assert_eq!(occ(cu(544)), (9, Limiter::Workgroup));
    // Wave64, WGP mode: 800 work-items = 13 waves; 64 / 13 = 4 workgroups, 52 waves, 13.
    let w64 = Resources {
        wave_size: 64,
        ..wave32(8, 800)
    };
    assert_eq!(occ(w64), (13, Limiter::Workgroup));
    // More than 1024 work-items cannot be launched.
    assert_eq!(occ(wave32(8, 1025)), (0, Limiter::Workgroup));
}

#[test]
fn sgprs_only_bound_what_a_wave_can_address() {
    // gfx10+: every wave gets the same SGPRs, so 106 of them cost no occupancy ...
    assert_eq!(
        occ(Resources {
            sgprs: 106,
            ..wave32(8, 256)
        }),
        (16, Limiter::Waves)
    );
    // ... and 107 cannot run.
    assert_eq!(
        occ(Resources {
            sgprs: 107,
            ..wave32(8, 256)
        }),
        (0, Limiter::Sgprs)
    );
}

#[test]
fn ties_and_names() {
    // VGPRs (120 -> 12) and LDS (131072 / 40000 = 3 workgroups of 8 waves -> 6) both limit;
    // the smaller one is named.
    let both = Resources {
        static_lds_bytes: 40000,
        ..wave32(100, 256)
    };
    let o = occupancy(&both, &DeviceLimits::GFX1100);
    assert_eq!((o.waves_per_simd, o.limited_by), (6, Limiter::Lds));
    assert_eq!((o.limits.vgprs, o.limits.lds), (12, 6));
    // Equal limits: VGPRs are named first. 168 VGPRs -> 1536 / 168 = 9; 544 work-items in
    // CU mode -> 9.
    let tie = Resources {
        wgp_mode: false,
        ..wave32(168, 544)
    };
    assert_eq!(occ(tie), (9, Limiter::Vgprs));
    let names: Vec<String> = [
        Limiter::Waves,
        Limiter::Vgprs,
        Limiter::Sgprs,
        Limiter::Lds,
        Limiter::Workgroup,
    ]
    .iter()
    .map(|l| l.to_string())
    .collect();
    assert_eq!(names, ["waves", "vgprs", "sgprs", "lds", "workgroup"]);
}
