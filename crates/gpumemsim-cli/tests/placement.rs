//! `run --json`'s `"placement"` and `"units"` for a code object: the occupancy limit the run
//! used is the one the resources report computes, the device fills its SIMDs to it, more WGPs
//! hold more workgroups at once and finish sooner.

mod common;

use common::run;
use serde_json::Value;

/// The tiled matmul of examples/apps at n = 64: 16 workgroups of 8 waves.
fn gemm(wgps: &str) -> Value {
    let obj = format!(
        "{}/../../examples/apps/build/gemm_tiled.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = run(
        &[
            "run",
            &obj,
            "--kernel",
            "gemm_tiled_16x16",
            "--grid",
            "4,4",
            "--block",
            "16,16",
            "--arg",
            "buf:f32[4096]=rand:1",
            "--arg",
            "buf:f32[4096]=rand:2",
            "--arg",
            "buf:f32[4096]=zeros",
            "--arg",
            "i32:64",
            "--arg",
            "i32:64",
            "--arg",
            "i32:64",
            "--wgps",
            wgps,
            "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("json")
}

#[test]
fn the_run_fills_each_simd_to_the_occupancy_the_resources_report_gives() {
    let one = gemm("1");
    let p = &one["placement"];
    let limit = one["resources"]["waves_per_simd"]
        .as_u64()
        .expect("occupancy");
    assert_eq!(p["waves_per_simd"].as_u64(), Some(limit));
    assert_eq!(p["max_resident_waves_per_simd"].as_u64(), Some(limit));
    // 16 waves per SIMD × 4 SIMDs = 64 waves: 8 workgroups of 8 waves at once.
    assert_eq!(p["wgps"], 1);
    assert_eq!(
        p["max_resident_workgroups"].as_u64(),
        Some(4 * limit / 8),
        "{p}"
    );
    // Two WGPs hold twice as many and finish sooner.
    let two = gemm("2");
    assert_eq!(two["placement"]["wgps"], 2);
    assert_eq!(
        two["placement"]["max_resident_workgroups"].as_u64(),
        Some(2 * 4 * limit / 8)
    );
    assert!(two["cycles"].as_u64() < one["cycles"].as_u64());
    // The same work on either: the same busy cycles of every unit, on twice the instances.
    for unit in ["lds", "valu", "salu", "vmem", "smem", "gds"] {
        let (a, b) = (&one["units"][unit], &two["units"][unit]);
        assert_eq!(a["busy_cycles"], b["busy_cycles"], "{unit}");
        let n = |u: &Value| u["instances"].as_u64().expect("instances");
        if unit != "gds" {
            assert_eq!(n(b), 2 * n(a), "{unit}");
        }
    }
    assert!(one["units"]["lds"]["busy_cycles"].as_u64() > Some(0));
    let u = one["units"]["valu"]["utilisation"]
        .as_f64()
        .expect("utilisation");
    assert!(u > 0.0 && u <= 1.0, "{u}");
}
