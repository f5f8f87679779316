//! `gpumemsim addr flat`, end to end.

mod common;

use common::run;

fn json(args: &[&str]) -> serde_json::Value {
    let o = run(args, "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("json")
}

#[test]
fn private_addresses_follow_the_spec_experiment() {
    let at = |addr: &str, wave: &str, lane: &str| {
        json(&[
            "addr",
            "flat",
            addr,
            "--wave64",
            "--scratch-size",
            "4016",
            "--wave-id",
            wave,
            "--lane",
            lane,
            "--json",
        ])
    };
    let w0 = at("0x2000000000000", "0", "0");
    let w1 = at("0x2000000000000", "1", "0");
    assert_eq!(w0["aperture"], "private");
    let a = |j: &serde_json::Value| j["address"].as_u64().expect("address");
    assert_eq!(a(&w1) - a(&w0), 0x3ec00);
    let fs = w0["flat_scratch"].as_u64().expect("flat_scratch");
    assert_eq!(a(&w0), fs);
    assert_eq!(a(&at("0x2000000000008", "0", "0")), fs + 8 * 64);
    assert_eq!(a(&at("0x200000000000c", "0", "0")), fs + 12 * 64);
    assert_eq!(a(&at("0x2000000000008", "0", "7")), fs + 8 * 64 + 28);
}

#[test]
fn shared_and_global_addresses() {
    let j = json(&["addr", "flat", "0x1000000000100", "--json"]);
    assert_eq!(j["aperture"], "shared");
    assert_eq!(j["address"], 0x100);
    assert_eq!(j["in_range"], true);
    let j = json(&[
        "addr",
        "flat",
        "0x1000000010000",
        "--lds-size",
        "65536",
        "--json",
    ]);
    assert_eq!(j["in_range"], false);
    let j = json(&["addr", "flat", "0x7fff00001234", "--json"]);
    assert_eq!(j["aperture"], "global");
    assert_eq!(j["address"], 0x7fff_0000_1234u64);
    let o = run(&["addr", "flat", "0x1000000000100"], "");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "shared aperture: LDS offset 0x100"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let o = run(&["addr", "flat", "0xzz"], "");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("`0xzz` is not a 64-bit address"));
    let o = run(&["addr", "flat", "0", "--lane", "32"], "");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--lane 32 is not a lane of a wave32"));
}
