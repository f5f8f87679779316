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

#[test]
fn buffer_addresses_and_out_of_range() {
    // Structured (OOB 0): base 0x1000, stride 16, 4 records.
    let desc = "0x1000,0x100000,4,0";
    let j = json(&[
        "addr", "buffer", "--desc", desc, "--index", "3", "--offset", "4", "--json",
    ]);
    assert_eq!(j["address"], 0x1034);
    assert_eq!(j["in_range"], true);
    let j = json(&["addr", "buffer", "--desc", desc, "--index", "4", "--json"]);
    assert_eq!(j["in_range"], false);
    let o = run(
        &[
            "addr", "buffer", "--desc", desc, "--index", "3", "--offset", "16",
        ],
        "",
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "out of range");
    let o = run(
        &[
            "addr",
            "buffer",
            "--desc",
            desc,
            "--index",
            "1",
            "--soffset",
            "0x100",
        ],
        "",
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "0x1110");
    // Swizzled scratch-like V#: element 4, index stride 64, add_tid; lane 5, offset 8.
    let j = json(&[
        "addr",
        "buffer",
        "--desc",
        "0,0x4fb00000,0xffffffff,0x30e00000",
        "--offset",
        "8",
        "--lane",
        "5",
        "--json",
    ]);
    assert_eq!(j["swizzled"], true);
    assert_eq!(j["address"], (8 / 4) * 64 * 4 + 5 * 4);
    let o = run(&["addr", "buffer", "--desc", "1,2,3"], "");
    assert!(String::from_utf8_lossy(&o.stderr).contains("exactly four dwords"));
}
