//! DPP16 and DPP8 end to end: every lane-selection control, `bound_ctrl`, `fi`, the row and
//! bank masks, modifiers, compares and VOP3 DPP forms, in wave32 and wave64. v1 holds
//! `100 + lane`, the destination starts at `1000 + lane`; every expected row below is written
//! out by hand from the control's definition (AMD RDNA3 ISA guide, "Data Parallel
//! Processing"): rows of 16 lanes, the same in wave32 and wave64.

mod common;

use common::*;

/// A row-0 pattern entry: read lane `S(i)` of the row, keep the destination, or read 0.
#[derive(Clone, Copy)]
enum E {
    S(u32),
    K,
    Z,
}
use E::*;

/// Runs `v_mov_b32 v5, v1 <dpp>` with EXEC `exec`; returns v5 of every lane.
fn mov(dpp: &str, size: u32, exec: u64) -> Vec<u32> {
    let dev = run_size(&format!("v_mov_b32 v5, v1 {dpp}\ns_endpgm"), size, |d| {
        d.wave_mut(0).set_exec(exec);
        set_lanes(d, [1, 5], |l| [100 + l, 1000 + l]);
    });
    (0..size).map(|l| dev.wave(0).vgpr(5, l)).collect()
}

/// The expected v5 when every row repeats the 16-entry pattern `p` (source lanes relative to
/// the row's first lane).
fn rows(p: [E; 16], size: u32) -> Vec<u32> {
    (0..size)
        .map(|l| match p[(l & 15) as usize] {
            S(i) => 100 + (l & !15) + i,
            K => 1000 + l,
            Z => 0,
        })
        .collect()
}

fn s(v: [u32; 16]) -> [E; 16] {
    v.map(S)
}

/// Runs every `(control, row pattern)` case in wave32 and wave64 with all lanes on.
fn check_row_controls(cases: &[(&str, [E; 16])]) {
    for size in [32, 64] {
        let all = u64::MAX >> (64 - size);
        for (ctrl, p) in cases {
            assert_eq!(mov(ctrl, size, all), rows(*p, size), "{ctrl} wave{size}");
        }
    }
}

#[test]
fn row_permutes_select_lanes_within_rows_of_16_in_both_wave_sizes() {
    let cases: Vec<(&str, [E; 16])> = vec![
        (
            "quad_perm:[3,2,1,0]",
            s([3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12]),
        ),
        (
            "quad_perm:[1,1,0,2]",
            s([1, 1, 0, 2, 5, 5, 4, 6, 9, 9, 8, 10, 13, 13, 12, 14]),
        ),
        (
            "row_ror:4",
            s([12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
        ),
        (
            "row_mirror",
            s([15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
        ),
        (
            "row_half_mirror",
            s([7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8]),
        ),
        ("row_share:5", s([5; 16])),
        (
            "row_xmask:1",
            s([1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14]),
        ),
        (
            "row_xmask:12",
            s([12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3]),
        ),
    ];
    check_row_controls(&cases);
}

#[test]
fn row_shifts_select_lanes_within_rows_of_16_in_both_wave_sizes() {
    let cases: Vec<(&str, [E; 16])> = vec![
        (
            "row_shl:1",
            [
                S(1),
                S(2),
                S(3),
                S(4),
                S(5),
                S(6),
                S(7),
                S(8),
                S(9),
                S(10),
                S(11),
                S(12),
                S(13),
                S(14),
                S(15),
                K,
            ],
        ),
        (
            "row_shl:1 bound_ctrl:1",
            [
                S(1),
                S(2),
                S(3),
                S(4),
                S(5),
                S(6),
                S(7),
                S(8),
                S(9),
                S(10),
                S(11),
                S(12),
                S(13),
                S(14),
                S(15),
                Z,
            ],
        ),
        (
            "row_shr:3",
            [
                K,
                K,
                K,
                S(0),
                S(1),
                S(2),
                S(3),
                S(4),
                S(5),
                S(6),
                S(7),
                S(8),
                S(9),
                S(10),
                S(11),
                S(12),
            ],
        ),
        (
            "row_shr:3 bound_ctrl:1",
            [
                Z,
                Z,
                Z,
                S(0),
                S(1),
                S(2),
                S(3),
                S(4),
                S(5),
                S(6),
                S(7),
                S(8),
                S(9),
                S(10),
                S(11),
                S(12),
            ],
        ),
        (
            "row_shr:15 bound_ctrl:1",
            [Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, S(0)],
        ),
        (
            "row_shl:1 bank_mask:0x6",
            [
                K,
                K,
                K,
                K,
                S(5),
                S(6),
                S(7),
                S(8),
                S(9),
                S(10),
                S(11),
                S(12),
                K,
                K,
                K,
                K,
            ],
        ),
    ];
    check_row_controls(&cases);
}

#[test]
fn dpp8_selects_within_groups_of_8() {
    for size in [32, 64] {
        let got = mov("dpp8:[7,6,5,4,3,2,1,0]", size, u64::MAX >> (64 - size));
        let want: Vec<u32> = (0..size).map(|l| 100 + (l ^ 7)).collect();
        assert_eq!(got, want, "wave{size}");
        let got = mov("dpp8:[1,1,1,1,5,5,5,5]", size, u64::MAX >> (64 - size));
        let want: Vec<u32> = (0..size)
            .map(|l| 100 + (l & !7) + if l & 7 < 4 { 1 } else { 5 })
            .collect();
        assert_eq!(got, want, "interp-style select, wave{size}");
    }
}

#[test]
fn row_mask_disables_whole_rows() {
    // row_mask:0x5: rows 0 and 2 written, rows 1 and 3 keep (wave32 has rows 0 and 1).
    for size in [32, 64] {
        let got = mov(
            "quad_perm:[1,0,3,2] row_mask:0x5",
            size,
            u64::MAX >> (64 - size),
        );
        for (l, &v) in got.iter().enumerate() {
            let l = l as u32;
            let want = if (l >> 4).is_multiple_of(2) {
                100 + (l ^ 1)
            } else {
                1000 + l
            };
            assert_eq!(v, want, "lane {l} wave{size}");
        }
    }
}

#[test]
fn inactive_source_lanes_are_invalid_unless_fi() {
    // Lanes 1 and 17 inactive (wave32). row_shl:1: lane 0 reads lane 1, lane 16 reads 17.
    let exec = !(1u64 << 1 | 1 << 17) & 0xffff_ffff;
    let got = mov("row_shl:1", 32, exec);
    assert_eq!(got[0], 1000, "bound_ctrl:0, invalid source: lane keeps v5");
    assert_eq!(got[16], 1016);
    assert_eq!(got[1], 1001, "inactive lane not written");
    assert_eq!(got[2], 103);
    let got = mov("row_shl:1 bound_ctrl:1", 32, exec);
    assert_eq!(
        (got[0], got[16], got[1]),
        (0, 0, 1001),
        "bound_ctrl:1 reads 0"
    );
    let got = mov("row_shl:1 fi:1", 32, exec);
    assert_eq!(
        (got[0], got[16], got[1]),
        (101, 117, 1001),
        "fi:1 fetches inactive lanes"
    );
    // DPP8 has no bound_ctrl: fi:0 leaves the lane unwritten, fi:1 reads the value.
    let exec = !(1u64 << 6) & 0xffff_ffff;
    let got = mov("dpp8:[7,6,5,4,3,2,1,0]", 32, exec);
    assert_eq!((got[1], got[0], got[6]), (1001, 107, 1006));
    let got = mov("dpp8:[7,6,5,4,3,2,1,0] fi:1", 32, exec);
    assert_eq!((got[1], got[0], got[6]), (106, 107, 1006));
}

#[test]
fn vop2_modifiers_vopc_and_vop3_dpp_forms() {
    // v_add_f32_dpp v5, -v1, |v2| row_mirror: lane l = -(v1[15 - l]) + |v2[l]|.
    // v_cmp_lt_f32 vcc_lo, v1, v2 row_shr:1 bound_ctrl:1: lane l compares v1[l-1] (0 for
    // row starts) < v2[l]. v_fma_f32_e64_dpp v6, v1, v2, v3 quad_perm:[0,0,0,0] row_mask:0x1
    // clamp: row 1 keeps v6.
    let src = "v_add_f32_dpp v5, -v1, |v2| row_mirror row_mask:0xf bank_mask:0xf\n\
               v_cmp_lt_f32 vcc_lo, v1, v2 row_shr:1 bound_ctrl:1\n\
               v_fma_f32_e64_dpp v6, v1, v2, v3 clamp quad_perm:[0,0,0,0] row_mask:0x1\n\
               s_endpgm";
    let x = |l: u32| l as f32 * 0.25;
    let y = |l: u32| if l.is_multiple_of(3) { -1.0 } else { 2.0 };
    let dev = run(src, |d| {
        set_lanes(d, [1, 2, 3, 5, 6], |l| [f(x(l)), f(y(l)), f(-0.5), 0, 7]);
    });
    let w = dev.wave(0);
    let mut vcc = 0u32;
    for l in 0..32u32 {
        let m = (l & !15) + 15 - (l & 15);
        assert_eq!(w.vgpr(5, l), f(-x(m) + y(l).abs()), "add lane {l}");
        let a = if l & 15 == 0 { 0.0 } else { x(l - 1) };
        vcc |= ((a < y(l)) as u32) << l;
        let q = l & !3;
        let want = if l < 16 {
            f((x(q) * y(l) - 0.5).clamp(0.0, 1.0))
        } else {
            7
        };
        assert_eq!(w.vgpr(6, l), want, "fma lane {l}");
    }
    assert_eq!(w.sreg(106), vcc);
}

#[test]
fn undefined_dpp_controls_stop_the_run() {
    use gpumemsim::exec::RunConfig;
    use gpumemsim::isa::Field;
    // row_shl:1 assembled, then dpp_ctrl set to 0x130 (gfx9 wave_shl) and 0x100 (invalid).
    for ctrl in [0x130, 0x100] {
        let (_, r) = run_edit(
            "v_mov_b32 v5, v1 row_shl:1\ns_endpgm",
            &RunConfig::default(),
            |_| {},
            |lines| {
                lines[0].inst.set(Field::DppCtrl, ctrl);
            },
        );
        assert!(r.is_err(), "ctrl {ctrl:#x} stops");
    }
}
