//! Whole-wave and register-indexed instructions end to end: `v_movrel*`, `v_swap*`,
//! `v_permlane64`, and the byte-SAD family (`v_sad_*`, `v_msad_u8`, `v_qsad`/`v_mqsad`,
//! `v_lerp_u8`) with and without `clamp`. Expected values follow the pseudocode by hand.

mod common;

use common::*;

#[test]
fn movrel_indexes_registers_by_m0() {
    // m0 = 3: movreld writes v(5+3), movrels reads v(7+3), movrelsd copies v(7+3) to v(5+3).
    let dev = run(
        "s_mov_b32 m0, 3\nv_movreld_b32 v5, v1\nv_movrels_b32 v20, v7\n\
         v_movrelsd_b32 v30, v7\ns_mov_b32 m0, 0x00020001\nv_movrelsd_2_b32 v40, v7\n\
         v_movreld_b32_e64 v50, 0x1234\ns_endpgm",
        |d| {
            d.wave_mut(0).set_exec(0x0000_00ff);
            set_lanes(d, [1, 8, 10], |l| [100 + l, 200 + l, 300 + l]);
        },
    );
    let w = dev.wave(0);
    for l in 0..32u32 {
        let on = l < 8;
        assert_eq!(
            w.vgpr(8, l),
            if on { 100 + l } else { 200 + l },
            "movreld lane {l}"
        );
        assert_eq!(w.vgpr(20, l), if on { 300 + l } else { 0 }, "movrels");
        assert_eq!(w.vgpr(33, l), if on { 300 + l } else { 0 }, "movrelsd");
        // _2: source offset m0[9:0] = 1 (v8, which movreld wrote), destination offset
        // m0[25:16] = 2 (v42).
        assert_eq!(w.vgpr(42, l), if on { 100 + l } else { 0 }, "movrelsd_2");
        assert_eq!(
            w.vgpr(50, l),
            0,
            "e64 with the m0 of the _2 form: m0 = 0x20001"
        );
    }
    // An index past v255 reads 0 and drops the write.
    let dev = run(
        "s_mov_b32 m0, 250\nv_movrels_b32 v1, v10\nv_movreld_b32 v10, 7\ns_endpgm",
        |d| set_lanes(d, [1], |_| [9]),
    );
    assert_eq!(dev.wave(0).vgpr(1, 0), 0);
}

#[test]
fn swaps_exchange_registers_in_active_lanes() {
    let dev = run(
        "v_swap_b32 v1, v2\ns_mov_b32 m0, 0x00030001\nv_swaprel_b32 v10, v20\ns_endpgm",
        |d| {
            d.wave_mut(0).set_exec(1);
            set_lanes(d, [1, 2, 13, 21], |l| [1 + l, 2 + l, 13, 21]);
        },
    );
    let w = dev.wave(0);
    assert_eq!((w.vgpr(1, 0), w.vgpr(2, 0)), (2, 1));
    assert_eq!(
        (w.vgpr(1, 1), w.vgpr(2, 1)),
        (2, 3),
        "inactive lane untouched"
    );
    // swaprel: v(10 + 3) <-> v(20 + 1).
    assert_eq!((w.vgpr(13, 0), w.vgpr(21, 0)), (21, 13));
}

#[test]
fn permlane64_swaps_wave_halves_and_is_a_nop_in_wave32() {
    let dev = run_size("v_permlane64_b32 v2, v1\ns_endpgm", 64, |d| {
        d.wave_mut(0).set_exec(!0xf);
        set_lanes(d, [1, 2], |l| [l, 1000]);
    });
    for l in 0..64u32 {
        let want = if l < 4 { 1000 } else { l ^ 32 };
        assert_eq!(dev.wave(0).vgpr(2, l), want, "lane {l}");
    }
    let dev = run("v_permlane64_b32 v2, v1\ns_endpgm", |d| {
        set_lanes(d, [1, 2], |l| [l, 1000]);
    });
    assert_eq!(dev.wave(0).vgpr(2, 5), 1000);
}

fn sad8(a: u32, b: u32, masked: bool) -> u32 {
    (0..4)
        .map(|i| {
            let (x, y) = ((a >> (8 * i)) & 0xff, (b >> (8 * i)) & 0xff);
            if masked && y == 0 {
                0
            } else {
                x.abs_diff(y)
            }
        })
        .sum()
}

#[test]
fn sums_of_absolute_differences() {
    let (a, b, c) = (0x10ff_0080u32, 0x2000_0180u32, 0xffff_fff0u32);
    let dev = run(
        "v_sad_u8 v10, v1, v2, v3\nv_sad_hi_u8 v11, v1, v2, v3\nv_sad_u16 v12, v1, v2, v3\n\
         v_sad_u32 v13, v1, v2, v3\nv_msad_u8 v14, v1, v2, v3\nv_sad_u8 v15, v1, v2, v3 clamp\n\
         v_lerp_u8 v16, v1, v2, v4\ns_endpgm",
        |d| set_lanes(d, [1, 2, 3, 4], |_| [a, b, c, 0x0100_0001]),
    );
    let w = dev.wave(0);
    let d16 = |sh: u32| ((a >> sh) & 0xffff).abs_diff((b >> sh) & 0xffff);
    assert_eq!(w.vgpr(10, 0), c.wrapping_add(sad8(a, b, false)), "wraps");
    assert_eq!(w.vgpr(11, 0), c.wrapping_add(sad8(a, b, false) << 16));
    assert_eq!(w.vgpr(12, 0), c.wrapping_add(d16(0) + d16(16)));
    assert_eq!(w.vgpr(13, 0), c.wrapping_add(a.abs_diff(b)));
    // msad skips the bytes where S1 is 0 (byte 2 here).
    assert_eq!(w.vgpr(14, 0), c.wrapping_add(sad8(a, b, true)));
    assert_ne!(sad8(a, b, true), sad8(a, b, false));
    assert_eq!(w.vgpr(15, 0), u32::MAX, "clamp saturates");
    // lerp: (a + b + round bit) >> 1 per byte, round bits 1, 0, 0, 1 (bytes 0..3).
    let lerp = (0..4).fold(0u32, |acc, i| {
        let byte = |x: u32| (x >> (8 * i)) & 0xff;
        let round = (0x0100_0001u32 >> (8 * i)) & 1;
        acc | ((byte(a) + byte(b) + round) >> 1) << (8 * i)
    });
    assert_eq!(w.vgpr(16, 0), lerp);
}

#[test]
fn quad_sads_slide_a_window_over_eight_bytes() {
    let s0: u64 = 0x0807_0605_0403_0201;
    let s1: u32 = 0x0400_0201; // byte 2 is 0: masked by the mqsad forms
    let s2: u64 = 0xffff_0003_0002_0001;
    let dev = run(
        "v_qsad_pk_u16_u8 v[10:11], v[2:3], v1, v[4:5]\n\
         v_mqsad_pk_u16_u8 v[12:13], v[2:3], v1, v[4:5]\n\
         v_qsad_pk_u16_u8 v[14:15], v[2:3], v1, v[4:5] clamp\n\
         v_mqsad_u32_u8 v[20:23], v[2:3], v1, v[24:27]\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3, 4, 5], |_| {
                [
                    s1,
                    s0 as u32,
                    (s0 >> 32) as u32,
                    s2 as u32,
                    (s2 >> 32) as u32,
                ]
            });
            set_lanes(d, [24, 25, 26, 27], |_| [10, 20, 30, u32::MAX]);
        },
    );
    let w = dev.wave(0);
    let get = |r: u32| w.vgpr(r, 0) as u64 | (w.vgpr(r + 1, 0) as u64) << 32;
    let window = |k: u32| (s0 >> (8 * k)) as u32;
    let pack = |masked: bool, sat: bool| {
        (0..4).fold(0u64, |acc, k| {
            let t = sad8(window(k), s1, masked) as u64 + (s2 >> (16 * k) & 0xffff);
            let t = if sat { t.min(0xffff) } else { t & 0xffff };
            acc | t << (16 * k)
        })
    };
    assert_eq!(get(10), pack(false, false), "element 3 wraps at 16 bits");
    assert_eq!(get(12), pack(true, false));
    assert_eq!(get(14), pack(false, true), "clamp saturates each element");
    for (k, acc) in [10u32, 20, 30, u32::MAX].iter().enumerate() {
        let want = acc.wrapping_add(sad8(window(k as u32), s1, true));
        assert_eq!(w.vgpr(20 + k as u32, 0), want, "mqsad_u32 element {k}");
    }
}
