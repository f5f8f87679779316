//! Edge-case tables and cross-checks for `gpumemsim::fp`, the float atomic rules on raw bits.
//!
//! Tables name every case; the property tests compare the bit-level implementation with an
//! independent model built on host IEEE arithmetic (which is exact RNE with denormals on the
//! platforms we test), plus the flushing and NaN rules of the spec around it.

use gpumemsim::fp::*;
use proptest::prelude::*;

// f32 values
const PZ: u32 = 0x0000_0000;
const NZ: u32 = 0x8000_0000;
const P_MIN_DEN: u32 = 0x0000_0001;
const N_MIN_DEN: u32 = 0x8000_0001;
const P_MAX_DEN: u32 = 0x007f_ffff;
const N_MAX_DEN: u32 = 0x807f_ffff;
const P_MIN_NORM: u32 = 0x0080_0000;
const N_MIN_NORM: u32 = 0x8080_0000;
const P_MAX: u32 = 0x7f7f_ffff;
const N_MAX: u32 = 0xff7f_ffff;
const P_INF: u32 = 0x7f80_0000;
const N_INF: u32 = 0xff80_0000;
const ONE: u32 = 0x3f80_0000;
const N_ONE: u32 = 0xbf80_0000;
const TWO: u32 = 0x4000_0000;
const THREE: u32 = 0x4040_0000;
const FIVE: u32 = 0x40a0_0000;
const QNAN_A: u32 = 0x7fc0_1234;
const QNAN_B: u32 = 0xffc5_6789;
const SNAN_A: u32 = 0x7f80_1234; // quiet: 0x7fc0_1234
const SNAN_B: u32 = 0xff80_0005; // quiet: 0xffc0_0005
const SNAN_MIN: u32 = 0x7f80_0001;
const SNAN_MAX: u32 = 0x7fbf_ffff;

const NONE: DenormCtl = DenormCtl::FLUSH_NONE;
const ALL: DenormCtl = DenormCtl::FLUSH_ALL;
const IN: DenormCtl = DenormCtl {
    flush_input: true,
    flush_output: false,
};
const OUT: DenormCtl = DenormCtl {
    flush_input: false,
    flush_output: true,
};

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[test]
fn denorm_ctl_from_mode() {
    // (2-bit FP_DENORM value, flush_input, flush_output): bit0 allows input, bit1 output.
    let table = [
        (0u32, true, true),
        (1, false, true),
        (2, true, false),
        (3, false, false),
    ];
    for &(sp, sp_in, sp_out) in &table {
        for &(dp, dp_in, dp_out) in &table {
            // FP_ROUND [3:0] and the bits above FP_DENORM set to 1 must not matter.
            let mode = 0xffff_ff00 | (dp << 6) | (sp << 4) | 0xf;
            let want_sp = DenormCtl {
                flush_input: sp_in,
                flush_output: sp_out,
            };
            let want_dp = DenormCtl {
                flush_input: dp_in,
                flush_output: dp_out,
            };
            assert_eq!(DenormCtl::from_mode_f32(mode), want_sp, "mode {mode:#x} sp");
            assert_eq!(DenormCtl::from_mode_f64(mode), want_dp, "mode {mode:#x} dp");
            assert_eq!(
                DenormCtl::from_mode_f32(mode & 0xff),
                want_sp,
                "mode {mode:#x} sp"
            );
            assert_eq!(
                DenormCtl::from_mode_f64(mode & 0xf0),
                want_dp,
                "mode {mode:#x} dp"
            );
        }
    }
    assert_eq!(DenormCtl::from_field(3), DenormCtl::FLUSH_NONE);
    assert_eq!(DenormCtl::from_field(0), DenormCtl::FLUSH_ALL);
    assert_eq!(
        DenormCtl::FLUSH_NONE,
        DenormCtl {
            flush_input: false,
            flush_output: false
        }
    );
    assert_eq!(
        DenormCtl::FLUSH_ALL,
        DenormCtl {
            flush_input: true,
            flush_output: true
        }
    );
}

#[test]
fn f32_classification_and_helpers() {
    // (bits, nan, snan, qnan, denorm, quiet(bits), flush(bits))
    let table: &[(u32, bool, bool, bool, bool, u32, u32)] = &[
        (PZ, false, false, false, false, PZ, PZ),
        (NZ, false, false, false, false, NZ, NZ),
        (P_MIN_DEN, false, false, false, true, P_MIN_DEN, PZ),
        (N_MIN_DEN, false, false, false, true, N_MIN_DEN, NZ),
        (P_MAX_DEN, false, false, false, true, P_MAX_DEN, PZ),
        (N_MAX_DEN, false, false, false, true, N_MAX_DEN, NZ),
        (
            P_MIN_NORM, false, false, false, false, P_MIN_NORM, P_MIN_NORM,
        ),
        (
            N_MIN_NORM, false, false, false, false, N_MIN_NORM, N_MIN_NORM,
        ),
        (P_MAX, false, false, false, false, P_MAX, P_MAX),
        (N_INF, false, false, false, false, N_INF, N_INF),
        (P_INF, false, false, false, false, P_INF, P_INF),
        (QNAN_A, true, false, true, false, QNAN_A, QNAN_A),
        (QNAN_B, true, false, true, false, QNAN_B, QNAN_B),
        (
            0x7fc0_0000,
            true,
            false,
            true,
            false,
            0x7fc0_0000,
            0x7fc0_0000,
        ),
        (SNAN_A, true, true, false, false, 0x7fc0_1234, SNAN_A),
        (SNAN_B, true, true, false, false, 0xffc0_0005, SNAN_B),
        (SNAN_MIN, true, true, false, false, 0x7fc0_0001, SNAN_MIN),
        (SNAN_MAX, true, true, false, false, 0x7fff_ffff, SNAN_MAX),
    ];
    for &(x, nan, snan, qnan, den, q, fl) in table {
        assert_eq!(is_nan_f32(x), nan, "is_nan {x:#010x}");
        assert_eq!(is_snan_f32(x), snan, "is_snan {x:#010x}");
        assert_eq!(is_qnan_f32(x), qnan, "is_qnan {x:#010x}");
        assert_eq!(is_denorm_f32(x), den, "is_denorm {x:#010x}");
        assert_eq!(quiet_f32(x), q, "quiet {x:#010x}");
        assert_eq!(flush_denorm_f32(x), fl, "flush {x:#010x}");
    }
}

#[test]
fn f64_classification_and_helpers() {
    const MIN_NORM: u64 = 0x0010_0000_0000_0000;
    const INF: u64 = 0x7ff0_0000_0000_0000;
    let table: &[(u64, bool, bool, bool, bool, u64, u64)] = &[
        (0, false, false, false, false, 0, 0),
        (1 << 63, false, false, false, false, 1 << 63, 1 << 63),
        (1, false, false, false, true, 1, 0),
        (
            0x800f_ffff_ffff_ffff,
            false,
            false,
            false,
            true,
            0x800f_ffff_ffff_ffff,
            1 << 63,
        ),
        (MIN_NORM, false, false, false, false, MIN_NORM, MIN_NORM),
        (INF, false, false, false, false, INF, INF),
        (
            0x7ff8_0000_0000_0abc,
            true,
            false,
            true,
            false,
            0x7ff8_0000_0000_0abc,
            0x7ff8_0000_0000_0abc,
        ),
        (
            0xfff0_0000_0000_0001,
            true,
            true,
            false,
            false,
            0xfff8_0000_0000_0001,
            0xfff0_0000_0000_0001,
        ),
        (
            0x7ff7_ffff_ffff_ffff,
            true,
            true,
            false,
            false,
            0x7fff_ffff_ffff_ffff,
            0x7ff7_ffff_ffff_ffff,
        ),
        // an f32 signalling-NaN pattern is a small normal f64
        (0x7f80_0001, false, false, false, true, 0x7f80_0001, 0),
        (
            0x3f80_0000_7f80_0001,
            false,
            false,
            false,
            false,
            0x3f80_0000_7f80_0001,
            0x3f80_0000_7f80_0001,
        ),
    ];
    for &(x, nan, snan, qnan, den, q, fl) in table {
        assert_eq!(is_nan_f64(x), nan, "is_nan {x:#018x}");
        assert_eq!(is_snan_f64(x), snan, "is_snan {x:#018x}");
        assert_eq!(is_qnan_f64(x), qnan, "is_qnan {x:#018x}");
        assert_eq!(is_denorm_f64(x), den, "is_denorm {x:#018x}");
        assert_eq!(quiet_f64(x), q, "quiet {x:#018x}");
        assert_eq!(flush_denorm_f64(x), fl, "flush {x:#018x}");
    }
}

/// (what, mem, data, ctl, expected)
const ADD_TABLE: &[(&str, u32, u32, DenormCtl, u32)] = &[
    // zeros: IEEE RNE signs
    ("+0 + +0", PZ, PZ, NONE, PZ),
    ("+0 + -0", PZ, NZ, NONE, PZ),
    ("-0 + +0", NZ, PZ, NONE, PZ),
    ("-0 + -0", NZ, NZ, NONE, NZ),
    ("-0 + -0 flush", NZ, NZ, ALL, NZ),
    ("1 + -1", ONE, N_ONE, NONE, PZ),
    ("-1 + 1", N_ONE, ONE, NONE, PZ),
    ("max + -max", P_MAX, N_MAX, NONE, PZ),
    ("-den + +den", N_MIN_DEN, P_MIN_DEN, NONE, PZ),
    ("1 + -0", ONE, NZ, NONE, ONE),
    ("-0 + -1", NZ, N_ONE, NONE, N_ONE),
    ("+0 + -den", PZ, N_MIN_DEN, NONE, N_MIN_DEN),
    ("-den + -den, flush in", N_MIN_DEN, N_MAX_DEN, IN, NZ),
    ("-den + +0, flush in", N_MAX_DEN, PZ, IN, PZ),
    ("-den + -0, flush in", N_MAX_DEN, NZ, IN, NZ),
    ("+den + -den, flush in", P_MAX_DEN, N_MIN_DEN, IN, PZ),
    // infinities
    ("inf + 1", P_INF, ONE, NONE, P_INF),
    ("1 + -inf", ONE, N_INF, NONE, N_INF),
    ("-inf + max", N_INF, P_MAX, NONE, N_INF),
    ("inf + -0", P_INF, NZ, NONE, P_INF),
    ("-0 + -inf", NZ, N_INF, NONE, N_INF),
    ("-inf + +0", N_INF, PZ, NONE, N_INF),
    ("inf + -den", P_INF, N_MAX_DEN, NONE, P_INF),
    ("inf + inf", P_INF, P_INF, NONE, P_INF),
    ("-inf + -inf", N_INF, N_INF, ALL, N_INF),
    ("-inf + inf", N_INF, P_INF, NONE, ADD_F32_INVALID_NAN),
    ("inf + -inf", P_INF, N_INF, NONE, 0xffc0_0000),
    ("inf + -inf flush", P_INF, N_INF, ALL, 0xffc0_0000),
    // NaN: the NaN operand, made quiet, payload and sign kept; mem (src0) first
    ("snan + 1", SNAN_A, ONE, NONE, 0x7fc0_1234),
    ("1 + snan", ONE, SNAN_B, NONE, 0xffc0_0005),
    ("qnan + 1", QNAN_A, ONE, NONE, QNAN_A),
    ("-0 + qnan", NZ, QNAN_B, NONE, QNAN_B),
    ("snan_min + 0", SNAN_MIN, PZ, NONE, 0x7fc0_0001),
    ("snan_max + 0", SNAN_MAX, PZ, NONE, 0x7fff_ffff),
    ("snan + snan", SNAN_A, SNAN_B, NONE, 0x7fc0_1234),
    ("snan + snan swapped", SNAN_B, SNAN_A, NONE, 0xffc0_0005),
    ("qnan + snan", QNAN_B, SNAN_A, NONE, QNAN_B),
    ("snan + qnan", SNAN_B, QNAN_A, NONE, 0xffc0_0005),
    ("qnan + qnan", QNAN_A, QNAN_B, NONE, QNAN_A),
    ("inf + snan", P_INF, SNAN_B, NONE, 0xffc0_0005),
    ("snan + -inf", SNAN_A, N_INF, NONE, 0x7fc0_1234),
    ("-inf + qnan", N_INF, QNAN_A, NONE, QNAN_A),
    ("den + snan flush", P_MAX_DEN, SNAN_A, ALL, 0x7fc0_1234),
    // rounding: nearest, ties to even
    ("1 + 2^-24 (tie, to even down)", ONE, 0x3380_0000, NONE, ONE),
    (
        "(1+ulp) + 2^-24 (tie, to even up)",
        0x3f80_0001,
        0x3380_0000,
        NONE,
        0x3f80_0002,
    ),
    (
        "1 + (2^-24 + tiny) (above half)",
        ONE,
        0x3380_0001,
        NONE,
        0x3f80_0001,
    ),
    (
        "1 + (2^-24 - tiny) (below half)",
        ONE,
        0x337f_ffff,
        NONE,
        ONE,
    ),
    (
        "1 - 2^-25 (tie across binade, to even)",
        ONE,
        0xb300_0000,
        NONE,
        ONE,
    ),
    ("1 - (2^-25 + tiny)", ONE, 0xb300_0001, NONE, 0x3f7f_ffff),
    ("1 + min den (sticky only)", ONE, P_MIN_DEN, NONE, ONE),
    ("1 - min den (sticky only)", ONE, N_MIN_DEN, NONE, ONE),
    (
        "(1+ulp) - min den",
        0x3f80_0001,
        N_MIN_DEN,
        NONE,
        0x3f80_0001,
    ),
    (
        "2^24 + 1.5 (above half)",
        0x4b80_0000,
        0x3fc0_0000,
        NONE,
        0x4b80_0001,
    ),
    (
        "2^24 + 1 (tie, to even down)",
        0x4b80_0000,
        ONE,
        NONE,
        0x4b80_0000,
    ),
    (
        "(2^24 + 2) + 1 (tie, to even up)",
        0x4b80_0001,
        ONE,
        NONE,
        0x4b80_0002,
    ),
    ("3 + 5", THREE, FIVE, NONE, 0x4100_0000),
    ("1 + 2", ONE, TWO, NONE, THREE),
    ("-1 + 3", N_ONE, THREE, NONE, TWO),
    ("1 - 3", ONE, 0xc040_0000, NONE, 0xc000_0000),
    // overflow
    ("max + max", P_MAX, P_MAX, NONE, P_INF),
    ("-max + -max", N_MAX, N_MAX, NONE, N_INF),
    (
        "max + half ulp (tie, odd: up to inf)",
        P_MAX,
        0x7300_0000,
        NONE,
        P_INF,
    ),
    ("max + below half ulp", P_MAX, 0x72ff_ffff, NONE, P_MAX),
    ("-max - half ulp", N_MAX, 0xf300_0000, NONE, N_INF),
    ("2^127 + 2^127", 0x7f00_0000, 0x7f00_0000, NONE, P_INF),
    // denormal results and inputs
    ("min den + min den", P_MIN_DEN, P_MIN_DEN, NONE, 0x0000_0002),
    (
        "min den + min den, flush out",
        P_MIN_DEN,
        P_MIN_DEN,
        OUT,
        PZ,
    ),
    ("min den + min den, flush in", P_MIN_DEN, P_MIN_DEN, IN, PZ),
    (
        "-min den + -min den, flush out",
        N_MIN_DEN,
        N_MIN_DEN,
        OUT,
        NZ,
    ),
    (
        "max den + min den = min norm",
        P_MAX_DEN,
        P_MIN_DEN,
        NONE,
        P_MIN_NORM,
    ),
    (
        "max den + min den = min norm, flush out",
        P_MAX_DEN,
        P_MIN_DEN,
        OUT,
        P_MIN_NORM,
    ),
    ("max den + min den, flush in", P_MAX_DEN, P_MIN_DEN, IN, PZ),
    ("max den + max den", P_MAX_DEN, P_MAX_DEN, NONE, 0x00ff_fffe),
    (
        "max den + max den, flush all",
        P_MAX_DEN,
        P_MAX_DEN,
        ALL,
        PZ,
    ),
    (
        "min norm + max den",
        P_MIN_NORM,
        P_MAX_DEN,
        NONE,
        0x00ff_ffff,
    ),
    (
        "min norm + max den, flush in",
        P_MIN_NORM,
        P_MAX_DEN,
        IN,
        P_MIN_NORM,
    ),
    (
        "min norm + max den, flush out",
        P_MIN_NORM,
        P_MAX_DEN,
        OUT,
        0x00ff_ffff,
    ),
    ("min norm - min den", P_MIN_NORM, N_MIN_DEN, NONE, P_MAX_DEN),
    (
        "min norm - min den, flush out",
        P_MIN_NORM,
        N_MIN_DEN,
        OUT,
        PZ,
    ),
    (
        "min norm - min den, flush in",
        P_MIN_NORM,
        N_MIN_DEN,
        IN,
        P_MIN_NORM,
    ),
    (
        "-min norm + min den",
        N_MIN_NORM,
        P_MIN_DEN,
        NONE,
        N_MAX_DEN,
    ),
    (
        "-min norm + min den, flush out",
        N_MIN_NORM,
        P_MIN_DEN,
        OUT,
        NZ,
    ),
    (
        "(min norm+ulp) - min norm",
        0x0080_0001,
        N_MIN_NORM,
        NONE,
        P_MIN_DEN,
    ),
    (
        "(min norm+ulp) - min norm, flush all",
        0x0080_0001,
        N_MIN_NORM,
        ALL,
        PZ,
    ),
    (
        "min norm - (min norm+ulp), flush all",
        P_MIN_NORM,
        0x8080_0001,
        ALL,
        NZ,
    ),
    (
        "2 min norm - 1.5 min norm (normal to denormal)",
        0x0100_0000,
        0x80c0_0000,
        NONE,
        0x0040_0000,
    ),
    ("max den + -0, flush out", P_MAX_DEN, NZ, OUT, PZ),
    ("+0 + max den, no flush", PZ, P_MAX_DEN, NONE, P_MAX_DEN),
    ("1 + max den, flush in", ONE, P_MAX_DEN, IN, ONE),
    (
        "2^-101 + min den (far apart)",
        0x0d00_0000,
        P_MIN_DEN,
        NONE,
        0x0d00_0000,
    ),
];

#[test]
fn add_f32_table() {
    let mut failures = Vec::new();
    for &(what, mem, data, ctl, want) in ADD_TABLE {
        let got = add_f32(mem, data, ctl);
        if got != want {
            failures.push(format!(
                "{what}: add_f32({mem:#010x}, {data:#010x}, {ctl:?}) = {got:#010x}, want {want:#010x}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The table's non-NaN, unflushed rows agree with host IEEE addition: a check on the table.
#[test]
fn add_f32_table_agrees_with_host_where_ieee() {
    let mut checked = 0;
    for &(what, mem, data, ctl, want) in ADD_TABLE {
        let host = f(mem) + f(data);
        if ctl == NONE && !host.is_nan() {
            assert_eq!(want, host.to_bits(), "{what}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} rows checked");
}

/// A model of the rules around host IEEE addition: flush in, NaN rules, host RNE sum, flush out.
fn model_add_f32(mem: u32, data: u32, ctl: DenormCtl) -> u32 {
    let flush = |x: u32| {
        if x & 0x7f80_0000 == 0 {
            x & 0x8000_0000
        } else {
            x
        }
    };
    let (a, b) = if ctl.flush_input {
        (flush(mem), flush(data))
    } else {
        (mem, data)
    };
    if f(a).is_nan() {
        return a | 0x0040_0000;
    }
    if f(b).is_nan() {
        return b | 0x0040_0000;
    }
    let sum = f(a) + f(b);
    if sum.is_nan() {
        return 0xffc0_0000;
    }
    if ctl.flush_output {
        flush(sum.to_bits())
    } else {
        sum.to_bits()
    }
}

const SPECIALS: &[u32] = &[
    PZ,
    NZ,
    P_MIN_DEN,
    N_MIN_DEN,
    0x0000_0002,
    0x0040_0000,
    0x8040_0001,
    P_MAX_DEN,
    N_MAX_DEN,
    P_MIN_NORM,
    N_MIN_NORM,
    0x0080_0001,
    0x8080_0001,
    0x0100_0000,
    0x8100_0001,
    ONE,
    N_ONE,
    0x3f80_0001,
    0xbf7f_ffff,
    0x3380_0000,
    0xb300_0000,
    0x4b80_0000,
    0xcb80_0001,
    0x7f00_0000,
    0xff00_0000,
    0x7300_0000,
    P_MAX,
    N_MAX,
    0x7f7f_fffe,
    P_INF,
    N_INF,
    QNAN_A,
    QNAN_B,
    SNAN_A,
    SNAN_B,
    SNAN_MIN,
    SNAN_MAX,
    0x7fc0_0000,
    0xffc0_0000,
];

#[test]
fn add_f32_all_special_pairs_all_modes() {
    let mut n = 0;
    for &a in SPECIALS {
        for &b in SPECIALS {
            for ctl in [NONE, ALL, IN, OUT] {
                let got = add_f32(a, b, ctl);
                let want = model_add_f32(a, b, ctl);
                assert_eq!(got, want, "add_f32({a:#010x}, {b:#010x}, {ctl:?})");
                n += 1;
            }
        }
    }
    assert_eq!(n, SPECIALS.len() * SPECIALS.len() * 4);
}

/// A deterministic brute-force sweep: 2^20 pseudo-random pairs, every mode.
#[test]
fn add_f32_brute_force_matches_model() {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        // xorshift64*
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    for i in 0..(1u32 << 20) {
        let r = next();
        let a = r as u32;
        let mut b = (r >> 32) as u32;
        // A quarter of the pairs are near-cancellations, a quarter have close exponents.
        match i % 4 {
            0 => b = (a ^ 0x8000_0000).wrapping_add(b & 0xff).wrapping_sub(0x80),
            1 => {
                b = (b & 0x807f_ffff)
                    | ((a & 0x7f80_0000).wrapping_add((b >> 8) & 0x0180_0000) & 0x7f80_0000)
            }
            _ => {}
        }
        for ctl in [NONE, ALL, IN, OUT] {
            let got = add_f32(a, b, ctl);
            let want = model_add_f32(a, b, ctl);
            assert_eq!(got, want, "add_f32({a:#010x}, {b:#010x}, {ctl:?})");
        }
    }
}

fn normal_f32() -> impl Strategy<Value = u32> {
    (any::<bool>(), 1u32..=254, 0u32..(1 << 23))
        .prop_map(|(s, e, m)| (s as u32) << 31 | e << 23 | m)
}

/// Any class, weighted toward the edges: zeros, denormals, the extreme exponents, NaNs.
fn any_class_f32() -> impl Strategy<Value = u32> {
    let exp = prop_oneof![
        Just(0u32),
        Just(1u32),
        Just(2u32),
        Just(253u32),
        Just(254u32),
        Just(255u32),
        1u32..=254,
    ];
    let mant = prop_oneof![
        Just(0u32),
        Just(1u32),
        Just((1 << 23) - 1),
        Just(1 << 22),
        0u32..(1 << 23)
    ];
    (any::<bool>(), exp, mant).prop_map(|(s, e, m)| (s as u32) << 31 | e << 23 | m)
}

fn ctl() -> impl Strategy<Value = DenormCtl> {
    (any::<bool>(), any::<bool>()).prop_map(|(i, o)| DenormCtl {
        flush_input: i,
        flush_output: o,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// The brief's property: normal finite inputs whose host sum is normal give the host sum,
    /// in every flush mode (nothing here is denormal).
    #[test]
    fn add_f32_normal_matches_host(a in normal_f32(), b in normal_f32(), c in ctl()) {
        let host = f(a) + f(b);
        prop_assume!(host.is_normal());
        prop_assert_eq!(add_f32(a, b, c), host.to_bits());
    }

    #[test]
    fn add_f32_any_class_matches_model(a in any_class_f32(), b in any_class_f32(), c in ctl()) {
        prop_assert_eq!(add_f32(a, b, c), model_add_f32(a, b, c));
    }

    #[test]
    fn add_f32_any_bits_matches_model(a in any::<u32>(), b in any::<u32>(), c in ctl()) {
        prop_assert_eq!(add_f32(a, b, c), model_add_f32(a, b, c));
    }

    /// Operand order matters only when both are NaN.
    #[test]
    fn add_f32_commutes_unless_two_nans(a in any_class_f32(), b in any_class_f32(), c in ctl()) {
        prop_assume!(!(is_nan_f32(a) && is_nan_f32(b)));
        prop_assert_eq!(add_f32(a, b, c), add_f32(b, a, c));
    }
}

// ---------------------------------------------------------------------------------------------
// min / max

/// (what, mem, data, flush_input, min, max)
const MINMAX_F32: &[(&str, u32, u32, bool, u32, u32)] = &[
    ("+0 -0", PZ, NZ, false, NZ, PZ),
    ("-0 +0", NZ, PZ, false, NZ, PZ),
    ("+0 -0 flush", PZ, NZ, true, NZ, PZ),
    ("1 2", ONE, TWO, false, ONE, TWO),
    ("2 1", TWO, ONE, false, ONE, TWO),
    ("-1 1", N_ONE, ONE, false, N_ONE, ONE),
    ("-inf max", N_INF, P_MAX, false, N_INF, P_MAX),
    ("inf -max", P_INF, N_MAX, false, N_MAX, P_INF),
    ("-inf inf", N_INF, P_INF, false, N_INF, P_INF),
    ("-max -den", N_MAX, N_MIN_DEN, false, N_MAX, N_MIN_DEN),
    // quiet NaN loses in both orders
    ("qnan 1", QNAN_A, ONE, false, ONE, ONE),
    ("1 qnan", ONE, QNAN_B, false, ONE, ONE),
    ("qnan -inf", QNAN_A, N_INF, false, N_INF, N_INF),
    ("+inf qnan", P_INF, QNAN_A, false, P_INF, P_INF),
    ("qnan -0", QNAN_B, NZ, true, NZ, NZ),
    (
        "qnan den flush (unmodified den)",
        QNAN_B,
        P_MAX_DEN,
        true,
        P_MAX_DEN,
        P_MAX_DEN,
    ),
    (
        "qnan qnan (tie: mem)",
        QNAN_A,
        QNAN_B,
        false,
        QNAN_A,
        QNAN_A,
    ),
    ("qnan qnan swapped", QNAN_B, QNAN_A, false, QNAN_B, QNAN_B),
    // signalling NaN wins, quieted; mem (src0) first
    ("snan 1", SNAN_A, ONE, false, 0x7fc0_1234, 0x7fc0_1234),
    ("1 snan", ONE, SNAN_B, false, 0xffc0_0005, 0xffc0_0005),
    ("-inf snan", N_INF, SNAN_A, false, 0x7fc0_1234, 0x7fc0_1234),
    ("snan snan", SNAN_A, SNAN_B, false, 0x7fc0_1234, 0x7fc0_1234),
    (
        "snan snan swapped",
        SNAN_B,
        SNAN_A,
        false,
        0xffc0_0005,
        0xffc0_0005,
    ),
    (
        "qnan snan (snan first)",
        QNAN_A,
        SNAN_B,
        false,
        0xffc0_0005,
        0xffc0_0005,
    ),
    (
        "snan qnan",
        SNAN_MIN,
        QNAN_B,
        true,
        0x7fc0_0001,
        0x7fc0_0001,
    ),
    (
        "snan_max inf",
        SNAN_MAX,
        P_INF,
        false,
        0x7fff_ffff,
        0x7fff_ffff,
    ),
    // denormals without flushing: ordered as numbers
    ("+den +0", P_MIN_DEN, PZ, false, PZ, P_MIN_DEN),
    ("-den -0", N_MIN_DEN, NZ, false, N_MIN_DEN, NZ),
    (
        "-den +den",
        N_MIN_DEN,
        P_MIN_DEN,
        false,
        N_MIN_DEN,
        P_MIN_DEN,
    ),
    (
        "min den max den",
        P_MIN_DEN,
        P_MAX_DEN,
        false,
        P_MIN_DEN,
        P_MAX_DEN,
    ),
    (
        "max den min norm",
        P_MAX_DEN,
        P_MIN_NORM,
        false,
        P_MAX_DEN,
        P_MIN_NORM,
    ),
    // with input flushing: compare as ±0, return the unmodified input; ties keep mem
    (
        "+den +0 flush (tie)",
        P_MIN_DEN,
        PZ,
        true,
        P_MIN_DEN,
        P_MIN_DEN,
    ),
    ("+0 +den flush (tie)", PZ, P_MAX_DEN, true, PZ, PZ),
    (
        "-den -0 flush (tie)",
        N_MAX_DEN,
        NZ,
        true,
        N_MAX_DEN,
        N_MAX_DEN,
    ),
    ("-den +0 flush", N_MAX_DEN, PZ, true, N_MAX_DEN, PZ),
    ("+0 -den flush", PZ, N_MIN_DEN, true, N_MIN_DEN, PZ),
    (
        "+den -den flush",
        P_MAX_DEN,
        N_MAX_DEN,
        true,
        N_MAX_DEN,
        P_MAX_DEN,
    ),
    (
        "min den max den flush (tie)",
        P_MIN_DEN,
        P_MAX_DEN,
        true,
        P_MIN_DEN,
        P_MIN_DEN,
    ),
    (
        "max den min den flush (tie)",
        P_MAX_DEN,
        P_MIN_DEN,
        true,
        P_MAX_DEN,
        P_MAX_DEN,
    ),
    (
        "max den min norm flush",
        P_MAX_DEN,
        P_MIN_NORM,
        true,
        P_MAX_DEN,
        P_MIN_NORM,
    ),
    (
        "-min norm -den flush",
        N_MIN_NORM,
        N_MIN_DEN,
        true,
        N_MIN_NORM,
        N_MIN_DEN,
    ),
];

#[test]
fn min_max_f32_table() {
    let mut failures = Vec::new();
    for &(what, mem, data, flush, want_min, want_max) in MINMAX_F32 {
        let (mn, mx) = (min_f32(mem, data, flush), max_f32(mem, data, flush));
        if mn != want_min || mx != want_max {
            failures.push(format!(
                "{what}: min/max({mem:#010x}, {data:#010x}, flush {flush}) = {mn:#010x}/{mx:#010x}, \
                 want {want_min:#010x}/{want_max:#010x}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const D_PZ: u64 = 0;
const D_NZ: u64 = 1 << 63;
const D_P_DEN: u64 = 0x000f_ffff_ffff_ffff;
const D_N_DEN: u64 = 0x8000_0000_0000_0001;
const D_P_MIN_NORM: u64 = 0x0010_0000_0000_0000;
const D_ONE: u64 = 0x3ff0_0000_0000_0000;
const D_N_ONE: u64 = 0xbff0_0000_0000_0000;
const D_TWO: u64 = 0x4000_0000_0000_0000;
const D_P_INF: u64 = 0x7ff0_0000_0000_0000;
const D_N_INF: u64 = 0xfff0_0000_0000_0000;
const D_QNAN: u64 = 0x7ff8_0000_dead_beef;
const D_QNAN_B: u64 = 0xfff8_0000_0000_0002;
const D_SNAN: u64 = 0xfff0_0000_0000_0abc;
const D_SNAN_Q: u64 = 0xfff8_0000_0000_0abc;

/// (what, mem, data, flush_input, min, max)
const MINMAX_F64: &[(&str, u64, u64, bool, u64, u64)] = &[
    ("+0 -0", D_PZ, D_NZ, false, D_NZ, D_PZ),
    ("-0 +0", D_NZ, D_PZ, false, D_NZ, D_PZ),
    ("1 2", D_ONE, D_TWO, false, D_ONE, D_TWO),
    ("2 -1", D_TWO, D_N_ONE, false, D_N_ONE, D_TWO),
    ("-inf inf", D_N_INF, D_P_INF, false, D_N_INF, D_P_INF),
    ("qnan 1", D_QNAN, D_ONE, false, D_ONE, D_ONE),
    ("-inf qnan", D_N_INF, D_QNAN, false, D_N_INF, D_N_INF),
    ("qnan qnan", D_QNAN_B, D_QNAN, false, D_QNAN_B, D_QNAN_B),
    ("snan 1", D_SNAN, D_ONE, false, D_SNAN_Q, D_SNAN_Q),
    ("1 snan", D_ONE, D_SNAN, false, D_SNAN_Q, D_SNAN_Q),
    ("qnan snan", D_QNAN, D_SNAN, true, D_SNAN_Q, D_SNAN_Q),
    ("+den +0", D_P_DEN, D_PZ, false, D_PZ, D_P_DEN),
    ("+den +0 flush (tie)", D_P_DEN, D_PZ, true, D_P_DEN, D_P_DEN),
    ("+0 +den flush (tie)", D_PZ, D_P_DEN, true, D_PZ, D_PZ),
    ("-den +0 flush", D_N_DEN, D_PZ, true, D_N_DEN, D_PZ),
    ("-den +den flush", D_N_DEN, D_P_DEN, true, D_N_DEN, D_P_DEN),
    (
        "den min norm flush",
        D_P_DEN,
        D_P_MIN_NORM,
        true,
        D_P_DEN,
        D_P_MIN_NORM,
    ),
    ("den1 den2 flush (tie)", 1, 2, true, 1, 1),
    ("den1 den2", 1, 2, false, 1, 2),
];

#[test]
fn min_max_f64_table() {
    let mut failures = Vec::new();
    for &(what, mem, data, flush, want_min, want_max) in MINMAX_F64 {
        let (mn, mx) = (min_f64(mem, data, flush), max_f64(mem, data, flush));
        if mn != want_min || mx != want_max {
            failures.push(format!(
                "{what}: min/max({mem:#018x}, {data:#018x}, flush {flush}) = {mn:#018x}/{mx:#018x}, \
                 want {want_min:#018x}/{want_max:#018x}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Independent min/max model on host comparisons: SNaN rules, QNaN loses, -0 < +0, ties keep
/// mem, flushed values compared but the original returned.
fn model_select_f64(mem: u64, data: u64, flush: bool, larger: bool) -> u64 {
    let fl = |x: u64| {
        if flush && x & 0x7ff0_0000_0000_0000 == 0 {
            x & (1 << 63)
        } else {
            x
        }
    };
    let snan = |x: u64| f64::from_bits(x).is_nan() && x & (1 << 51) == 0;
    if snan(mem) {
        return mem | 1 << 51;
    }
    if snan(data) {
        return data | 1 << 51;
    }
    let (a, b) = (f64::from_bits(fl(mem)), f64::from_bits(fl(data)));
    // two QNaNs tie (mem); one QNaN loses
    if b.is_nan() {
        return mem;
    }
    if a.is_nan() {
        return data;
    }
    let data_wins = if a == b {
        // equal numerically: only ±0 pairs are ordered, by sign
        a.is_sign_positive() != b.is_sign_positive() && (b.is_sign_positive() == larger)
    } else {
        (b > a) == larger
    };
    if data_wins {
        data
    } else {
        mem
    }
}

/// The f32 value widened exactly to f64 bits, on integers (denormals become normals; NaNs keep
/// sign, quiet bit and payload).
fn widen(x: u32) -> u64 {
    let sign = ((x >> 31) as u64) << 63;
    let exp = (x >> 23) & 0xff;
    let mant = (x & 0x7f_ffff) as u64;
    if exp == 0xff {
        return sign | 0x7ff0_0000_0000_0000 | mant << 29;
    }
    if exp == 0 {
        if mant == 0 {
            return sign;
        }
        // value = mant * 2^-149; normalize
        let top = 63 - mant.leading_zeros() as u64; // 0..=22
        let e = top + 1023 - 149;
        return sign | e << 52 | ((mant << (52 - top)) & ((1 << 52) - 1));
    }
    sign | ((exp as u64) + 1023 - 127) << 52 | mant << 29
}

#[test]
fn widen_matches_host() {
    for x in [
        PZ,
        NZ,
        P_MIN_DEN,
        N_MAX_DEN,
        0x0040_0000,
        P_MIN_NORM,
        ONE,
        N_MAX,
        P_INF,
        N_INF,
    ] {
        assert_eq!(widen(x), f64::from(f(x)).to_bits(), "{x:#010x}");
    }
    assert_eq!(widen(SNAN_A), 0x7ff0_0246_8000_0000);
}

fn any_class_f64() -> impl Strategy<Value = u64> {
    let exp = prop_oneof![
        Just(0u64),
        Just(1u64),
        Just(0x7feu64),
        Just(0x7ffu64),
        1u64..=0x7fe
    ];
    let mant = prop_oneof![
        Just(0u64),
        Just(1u64),
        Just((1u64 << 52) - 1),
        Just(1u64 << 51),
        0u64..(1u64 << 52)
    ];
    (any::<bool>(), exp, mant).prop_map(|(s, e, m)| (s as u64) << 63 | e << 52 | m)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn min_max_f64_match_model(a in any_class_f64(), b in any_class_f64(), flush in any::<bool>()) {
        prop_assert_eq!(min_f64(a, b, flush), model_select_f64(a, b, flush, false));
        prop_assert_eq!(max_f64(a, b, flush), model_select_f64(a, b, flush, true));
    }

    /// f32 min/max agree with the f64 model on exactly widened values: flush in f32 first
    /// (widened f32 denormals are f64 normals), then map the model's choice back.
    #[test]
    fn min_max_f32_match_model(a in any_class_f32(), b in any_class_f32(), flush in any::<bool>()) {
        let fl = |x: u32| if flush { flush_denorm_f32(x) } else { x };
        let (wa, wb) = (widen(fl(a)), widen(fl(b)));
        let back = |m: u64| {
            if m == wa { a } else if m == wb { b } else { quiet_f32(if m == wa | 1 << 51 { a } else { b }) }
        };
        prop_assert_eq!(min_f32(a, b, flush), back(model_select_f64(wa, wb, false, false)));
        prop_assert_eq!(max_f32(a, b, flush), back(model_select_f64(wa, wb, false, true)));
    }
}

// ---------------------------------------------------------------------------------------------
// compare-store

/// (what, mem, cmp, src, flush_input, new memory)
const CMPSTORE_F32: &[(&str, u32, u32, u32, bool, u32)] = &[
    ("equal", ONE, ONE, TWO, false, TWO),
    ("not equal", ONE, THREE, TWO, false, ONE),
    ("-1 vs 1", N_ONE, ONE, TWO, false, N_ONE),
    ("+0 == -0", PZ, NZ, FIVE, false, FIVE),
    ("-0 == +0", NZ, PZ, FIVE, false, FIVE),
    ("inf == inf", P_INF, P_INF, FIVE, false, FIVE),
    ("-inf != inf", N_INF, P_INF, FIVE, false, N_INF),
    // NaN never compares equal, even to its own bits; memory is not quieted
    ("qnan == qnan bits", QNAN_A, QNAN_A, FIVE, false, QNAN_A),
    ("snan == snan bits", SNAN_A, SNAN_A, FIVE, false, SNAN_A),
    (
        "snan == snan bits flush",
        SNAN_B,
        SNAN_B,
        FIVE,
        true,
        SNAN_B,
    ),
    ("1 vs qnan", ONE, QNAN_A, FIVE, false, ONE),
    ("1 vs snan", ONE, SNAN_A, FIVE, true, ONE),
    // the stored value is stored as it is
    ("store snan", ONE, ONE, SNAN_A, false, SNAN_A),
    ("store qnan", ONE, ONE, QNAN_B, true, QNAN_B),
    ("store -0", ONE, ONE, NZ, true, NZ),
    // denormals without flushing
    ("den == den", P_MAX_DEN, P_MAX_DEN, FIVE, false, FIVE),
    ("den != +0", P_MIN_DEN, PZ, FIVE, false, P_MIN_DEN),
    ("+0 != den", PZ, P_MIN_DEN, FIVE, false, PZ),
    (
        "den != other den",
        P_MIN_DEN,
        P_MAX_DEN,
        FIVE,
        false,
        P_MIN_DEN,
    ),
    ("store den", ONE, ONE, P_MAX_DEN, false, P_MAX_DEN),
    // with input flushing: denormals compare as zero and the result is flushed
    ("den == +0 flush", P_MIN_DEN, PZ, FIVE, true, FIVE),
    ("+0 == -den flush", PZ, N_MAX_DEN, FIVE, true, FIVE),
    (
        "den == other den flush",
        P_MIN_DEN,
        P_MAX_DEN,
        FIVE,
        true,
        FIVE,
    ),
    ("-den == +den flush", N_MIN_DEN, P_MAX_DEN, FIVE, true, FIVE),
    ("store den flush", ONE, ONE, P_MAX_DEN, true, PZ),
    ("store -den flush", ONE, ONE, N_MIN_DEN, true, NZ),
    (
        "store den after den compare flush",
        P_MIN_DEN,
        NZ,
        N_MAX_DEN,
        true,
        NZ,
    ),
    (
        "no swap: den memory flushed",
        P_MAX_DEN,
        ONE,
        FIVE,
        true,
        PZ,
    ),
    (
        "no swap: -den memory flushed",
        N_MIN_DEN,
        ONE,
        FIVE,
        true,
        NZ,
    ),
    (
        "min norm != den flush",
        P_MIN_NORM,
        P_MIN_DEN,
        FIVE,
        true,
        P_MIN_NORM,
    ),
];

#[test]
fn cmpstore_f32_table() {
    let mut failures = Vec::new();
    for &(what, mem, cmp, src, flush, want) in CMPSTORE_F32 {
        let got = cmpstore_f32(mem, cmp, src, flush);
        if got != want {
            failures.push(format!(
                "{what}: cmpstore_f32({mem:#010x}, {cmp:#010x}, {src:#010x}, flush {flush}) = \
                 {got:#010x}, want {want:#010x}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// (what, mem, cmp, src, flush_input, new memory)
const CMPSTORE_F64: &[(&str, u64, u64, u64, bool, u64)] = &[
    ("equal", D_ONE, D_ONE, D_TWO, false, D_TWO),
    ("not equal", D_ONE, D_TWO, D_N_ONE, false, D_ONE),
    (
        "high word differs",
        D_ONE,
        D_ONE | 1 << 32,
        D_TWO,
        false,
        D_ONE,
    ),
    ("low word differs", D_ONE, D_ONE | 1, D_TWO, false, D_ONE),
    ("+0 == -0", D_PZ, D_NZ, D_TWO, false, D_TWO),
    ("qnan", D_QNAN, D_QNAN, D_TWO, false, D_QNAN),
    ("snan", D_SNAN, D_SNAN, D_TWO, true, D_SNAN),
    ("store snan", D_ONE, D_ONE, D_SNAN, false, D_SNAN),
    ("den != 0", D_P_DEN, D_PZ, D_TWO, false, D_P_DEN),
    ("den == 0 flush", D_P_DEN, D_PZ, D_TWO, true, D_TWO),
    ("store den flush", D_ONE, D_ONE, D_N_DEN, true, D_NZ),
    ("store den", D_ONE, D_ONE, D_N_DEN, false, D_N_DEN),
    (
        "no swap: den memory flushed",
        D_P_DEN,
        D_ONE,
        D_TWO,
        true,
        D_PZ,
    ),
];

#[test]
fn cmpstore_f64_table() {
    let mut failures = Vec::new();
    for &(what, mem, cmp, src, flush, want) in CMPSTORE_F64 {
        let got = cmpstore_f64(mem, cmp, src, flush);
        if got != want {
            failures.push(format!(
                "{what}: cmpstore_f64({mem:#018x}, {cmp:#018x}, {src:#018x}, flush {flush}) = \
                 {got:#018x}, want {want:#018x}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// Host IEEE `==` is the spec's compare: false with a NaN, +0 == -0.
    #[test]
    fn cmpstore_f32_matches_host_compare(
        m in any_class_f32(), c in any_class_f32(), s in any_class_f32(), flush in any::<bool>(),
        same in any::<bool>(),
    ) {
        let c = if same { m } else { c };
        let fl = |x: u32| if flush { flush_denorm_f32(x) } else { x };
        let want = if f(fl(m)) == f(fl(c)) { fl(s) } else { fl(m) };
        prop_assert_eq!(cmpstore_f32(m, c, s, flush), want);
    }

    #[test]
    fn cmpstore_f64_matches_host_compare(
        m in any_class_f64(), c in any_class_f64(), s in any_class_f64(), flush in any::<bool>(),
        same in any::<bool>(),
    ) {
        let c = if same { m } else { c };
        let fl = |x: u64| if flush { flush_denorm_f64(x) } else { x };
        let want = if f64::from_bits(fl(m)) == f64::from_bits(fl(c)) { fl(s) } else { fl(m) };
        prop_assert_eq!(cmpstore_f64(m, c, s, flush), want);
    }
}

/// The vector ALU's min/max share the DS rule's order but follow the VALU pseudocode where
/// it differs: a tie gives S1, and without MODE.IEEE a signalling NaN just loses.
#[test]
fn valu_min_max_follow_the_valu_pseudocode() {
    use gpumemsim::fp::{valu_minmax_f32, valu_minmax_f64};
    let (pz, nz, one) = (0u32, 0x8000_0000u32, 0x3f80_0000u32);
    let (qnan, snan, den) = (0x7fc0_0001u32, 0x7f80_0001u32, 0x0000_0001u32);
    assert_eq!(
        valu_minmax_f32(pz, nz, false, true, false),
        nz,
        "min(+0, -0) = -0"
    );
    assert_eq!(
        valu_minmax_f32(nz, pz, true, true, false),
        pz,
        "max(-0, +0) = +0"
    );
    assert_eq!(
        valu_minmax_f32(qnan, one, false, true, false),
        one,
        "a quiet NaN loses"
    );
    assert_eq!(valu_minmax_f32(one, qnan, true, true, false), one);
    assert_eq!(
        valu_minmax_f32(snan, one, false, true, false),
        0x7fc0_0001,
        "IEEE: sNaN quieted"
    );
    assert_eq!(
        valu_minmax_f32(one, snan, true, false, false),
        one,
        "non-IEEE: any NaN loses"
    );
    assert_eq!(
        valu_minmax_f32(snan, qnan, true, false, false),
        snan,
        "two NaNs: S0"
    );
    // Flushed inputs compare as +0 == +0: a tie, which gives S1 — flushed, as the VALU's
    // result "cannot be a denorm value" when input denormals are disabled (RDNA3.5 ISA notes
    // on V_MIN_F32/V_MAX_F32).
    assert_eq!(
        valu_minmax_f32(pz, den, false, true, true),
        pz,
        "tie: S1, flushed"
    );
    assert_eq!(valu_minmax_f32(den, pz, false, true, true), pz);
    assert_eq!(
        valu_minmax_f32(den, 0x8000_0001, false, true, true),
        0x8000_0000,
        "min(+denormal, -denormal) flushed: -0 < +0, the -0"
    );
    assert_eq!(
        valu_minmax_f32(den, 0x3f80_0000, false, true, true),
        0,
        "min(+denormal, 1) with input flushing is +0"
    );
    assert_eq!(
        valu_minmax_f32(den, 0x3f80_0000, false, true, false),
        den,
        "with denormals allowed the denormal itself"
    );
    assert_eq!(
        valu_minmax_f32(den, pz, false, true, false),
        pz,
        "unflushed: +0 < denormal"
    );
    // The DS rule keeps src0 on a tie.
    assert_eq!(gpumemsim::fp::min_f32(pz, den, true), pz);
    assert_eq!(
        valu_minmax_f64(1.0f64.to_bits(), 2.0f64.to_bits(), true, true, false),
        2.0f64.to_bits()
    );
}

/// `V_MED3_F32` (`valu_med3_f32`): the middle value by the VALU min/max rule, the min of all
/// three with a NaN input, flushed inputs compared as ±0.
#[test]
fn valu_med3_f32_cases() {
    let f = |x: f32| x.to_bits();
    assert_eq!(valu_med3_f32(f(3.0), f(-1.0), f(2.0), true, false), f(2.0));
    assert_eq!(valu_med3_f32(f(2.0), f(2.0), f(1.0), true, false), f(2.0));
    // -0 < +0: the middle of (-0, +0, 1) is +0.
    assert_eq!(valu_med3_f32(NZ, PZ, f(1.0), true, false), PZ);
    // A quiet NaN: the min of the three, where a quiet NaN loses.
    assert_eq!(
        valu_med3_f32(f(2.0), 0x7fc0_0000, f(1.0), true, false),
        f(1.0)
    );
    // Denormals under input flushing are ±0: the middle of (+denorm, -denorm, 1) is +0.
    assert_eq!(valu_med3_f32(1, 0x8000_0001, f(1.0), true, true), PZ);
    assert_eq!(valu_med3_f32(1, 0x8000_0001, f(1.0), true, false), 1);
}
