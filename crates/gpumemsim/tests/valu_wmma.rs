//! WMMA in wave32 end to end. A is a scaled identity (lane i holds row i, lanes 16-31 the
//! same), B[k][c] = a small number made of k and c (lane c holds column c), so every
//! expected D[r][c] is worked out by hand: `s × B[r][c] + C[r][c]`, read back through the
//! accumulator layout "element v of lane l is row 2v + l / 16, column l % 16".

mod common;

use common::*;

fn bf(x: f32) -> u32 {
    x.to_bits() >> 16
}

/// Packs 16-bit elements K = 2v (low), 2v + 1 (high) of a lane's row or column.
fn pack16(f: impl Fn(u32) -> u32, v: u32) -> u32 {
    f(2 * v) & 0xffff | (f(2 * v + 1) & 0xffff) << 16
}

/// Sets A (v10-v17), B (v20-v27), C (v30-v37) and D (v40-v47) for 16-bit inputs.
fn setup16(
    d: &mut gpumemsim::exec::Device,
    a: impl Fn(u32, u32) -> u32,
    b: impl Fn(u32, u32) -> u32,
    c: impl Fn(u32, u32) -> u32,
    old_d: u32,
) {
    let w = d.wave_mut(0);
    for l in 0..32 {
        let i = l % 16;
        for v in 0..8 {
            w.set_vgpr(10 + v, l, pack16(|k| a(i, k), v));
            w.set_vgpr(20 + v, l, pack16(|k| b(k, i), v));
            w.set_vgpr(30 + v, l, c(2 * v + l / 16, i));
            w.set_vgpr(40 + v, l, old_d);
        }
    }
}

/// D[r][c] for every (lane, element).
fn each(dev: &gpumemsim::exec::Device, mut check: impl FnMut(u32, u32, u32)) {
    let w = dev.wave(0);
    for l in 0..32 {
        for v in 0..8 {
            check(2 * v + l / 16, l % 16, w.vgpr(40 + v, l));
        }
    }
}

#[test]
fn wmma_f32_f16_and_bf16_use_the_documented_lane_layout() {
    // A = 2I, B[k][c] = 16k + c, C[r][c] = 1000r → D = 2(16r + c) + 1000r.
    let dev = run(
        "v_wmma_f32_16x16x16_f16 v[40:47], v[10:17], v[20:27], v[30:37]\ns_endpgm",
        |d| {
            setup16(
                d,
                |i, k| if i == k { h(2.0) } else { 0 },
                |k, c| h((16 * k + c) as f32),
                |r, _| f(1000.0 * r as f32),
                0,
            )
        },
    );
    each(&dev, |r, c, x| {
        assert_eq!(x, f((2 * (16 * r + c) + 1000 * r) as f32), "D[{r}][{c}]")
    });
    // bf16: A = I, B[k][c] = k + c, C = the inline 1.0 → D = r + c + 1.
    let dev = run(
        "v_wmma_f32_16x16x16_bf16 v[40:47], v[10:17], v[20:27], 1.0\ns_endpgm",
        |d| {
            setup16(
                d,
                |i, k| if i == k { bf(1.0) } else { 0 },
                |k, c| bf((k + c) as f32),
                |_, _| 0,
                0,
            )
        },
    );
    each(&dev, |r, c, x| {
        assert_eq!(x, f((r + c + 1) as f32), "D[{r}][{c}]")
    });
}

#[test]
fn wmma_f16_and_bf16_results_write_the_op_sel_half() {
    // op_sel:[0,0,1]: C from the high halves, D into the high halves (low halves kept).
    // A = 2I, B[k][c] = k + c, C[r][c].hi = 8r → D.hi = 2(r + c) + 8r.
    let dev = run(
        "v_wmma_f16_16x16x16_f16 v[40:47], v[10:17], v[20:27], v[30:37] op_sel:[0,0,1]\ns_endpgm",
        |d| {
            setup16(
                d,
                |i, k| if i == k { h(2.0) } else { 0 },
                |k, c| h((k + c) as f32),
                |r, _| h(8.0 * r as f32) << 16 | 0x1234,
                0x5678,
            )
        },
    );
    each(&dev, |r, c, x| {
        assert_eq!(
            x,
            h((2 * (r + c) + 8 * r) as f32) << 16 | 0x5678,
            "D[{r}][{c}]"
        )
    });
    // bf16, low halves: A = I, B[k][c] = k × c, C.lo = 0.5 → D.lo = r·c + 0.5 (exact below
    // 128: 8 significant bits); high halves keep 0xabcd.
    let dev = run(
        "v_wmma_bf16_16x16x16_bf16 v[40:47], v[10:17], v[20:27], v[30:37]\ns_endpgm",
        |d| {
            setup16(
                d,
                |i, k| if i == k { bf(1.0) } else { 0 },
                |k, c| bf((k * c) as f32),
                |_, _| bf(0.5),
                0xabcd_0000,
            )
        },
    );
    each(&dev, |r, c, x| {
        let want = (r * c) as f32 + 0.5;
        // From 128 up bf16 steps by 1: x + 0.5 is a tie, rounded to the even integer of x and
        // x + 1 (135.5 → 136, 130.5 → 130).
        let want = if want >= 128.0 {
            (want / 2.0).round() * 2.0
        } else {
            want
        };
        assert_eq!(x, 0xabcd_0000 | bf(want), "D[{r}][{c}]")
    });
}

#[test]
fn wmma_integer_forms_take_signedness_from_neg_lo_and_saturate_with_clamp() {
    // iu8: A = -1 (0xff) on the diagonal; B[k][c] = k + c; C = 5.
    let setup8 = |d: &mut gpumemsim::exec::Device| {
        let w = d.wave_mut(0);
        for l in 0..32 {
            let i = l % 16;
            for v in 0..4 {
                let pa = (0..4).fold(0u32, |acc, j| {
                    acc | ((4 * v + j == i) as u32 * 0xff) << (8 * j)
                });
                let pb = (0..4).fold(0u32, |acc, j| acc | (4 * v + j + i) << (8 * j));
                w.set_vgpr(10 + v, l, pa);
                w.set_vgpr(20 + v, l, pb);
            }
        }
    };
    let dev = run(
        "v_wmma_i32_16x16x16_iu8 v[40:47], v[10:13], v[20:23], 5 neg_lo:[1,0,0]\ns_endpgm",
        setup8,
    );
    each(&dev, |r, c, x| {
        assert_eq!(x as i32, 5 - (r + c) as i32, "signed A: D[{r}][{c}]")
    });
    let dev = run(
        "v_wmma_i32_16x16x16_iu8 v[40:47], v[10:13], v[20:23], 5\ns_endpgm",
        setup8,
    );
    each(&dev, |r, c, x| {
        assert_eq!(x, 5 + 255 * (r + c), "unsigned: D[{r}][{c}]")
    });
    // iu4: A = 7 on the diagonal, B[k][c] = 0xf (-1 signed); C = v30.. = i32::MAX - 3.
    // Unsigned B: 7×15 added to MAX - 3 saturates with clamp; signed B: MAX - 3 - 7.
    let setup4 = |d: &mut gpumemsim::exec::Device| {
        let w = d.wave_mut(0);
        for l in 0..32 {
            let i = l % 16;
            for v in 0..2 {
                let pa = (0..8).fold(0u32, |acc, j| {
                    acc | ((8 * v + j == i) as u32 * 7) << (4 * j)
                });
                w.set_vgpr(10 + v, l, pa);
                w.set_vgpr(20 + v, l, 0xffff_ffff);
            }
            for v in 0..8 {
                w.set_vgpr(30 + v, l, i32::MAX as u32 - 3);
            }
        }
    };
    let src = "v_wmma_i32_16x16x16_iu4 v[40:47], v[10:11], v[20:21], v[30:37] clamp\n\
               v_wmma_i32_16x16x16_iu4 v[48:55], v[10:11], v[20:21], v[30:37] neg_lo:[0,1,0]\n\
               v_wmma_i32_16x16x16_iu4 v[56:63], v[10:11], v[20:21], v[30:37]\ns_endpgm";
    let dev = run(src, setup4);
    let w = dev.wave(0);
    for l in 0..32 {
        for v in 0..8 {
            assert_eq!(w.vgpr(40 + v, l), i32::MAX as u32, "clamped");
            assert_eq!(w.vgpr(48 + v, l), i32::MAX as u32 - 10, "signed B");
            assert_eq!(
                w.vgpr(56 + v, l),
                (i32::MAX as u32 - 3).wrapping_add(105),
                "wraps"
            );
        }
    }
}
