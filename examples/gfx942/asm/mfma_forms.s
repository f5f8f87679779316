// Matrix instructions beyond the single-block forms clang emits most (gfx942 assembly):
// a 16-block f16 product, block broadcast (cbsz/abid), f64 with neg, fp8. The expected
// results are worked out in crates/gpumemsim-cli/tests/gfx942.rs.
// gpumemsim run examples/gfx942/asm/mfma_forms.s --arch gfx942 --dump v20
v_mbcnt_lo_u32_b32 v0, -1, 0
v_mbcnt_hi_u32_b32 v0, -1, v0
// 4x4x4_16b f16: A element e of lane l = l%4 + e; B element e = (l>>2)%4 + e.
v_and_b32 v1, 3, v0
v_bfe_u32 v2, v0, 2, 2
v_cvt_f32_u32 v3, v1
v_add_f32 v4, 1.0, v3
v_add_f32 v5, 2.0, v3
v_add_f32 v6, 1.0, v5
v_cvt_f16_f32 v3, v3
v_cvt_f16_f32 v4, v4
v_cvt_f16_f32 v5, v5
v_cvt_f16_f32 v6, v6
v_pack_b32_f16 v10, v3, v4
v_pack_b32_f16 v11, v5, v6
v_cvt_f32_u32 v3, v2
v_add_f32 v4, 1.0, v3
v_add_f32 v5, 2.0, v3
v_add_f32 v6, 1.0, v5
v_cvt_f16_f32 v3, v3
v_cvt_f16_f32 v4, v4
v_cvt_f16_f32 v5, v5
v_cvt_f16_f32 v6, v6
v_pack_b32_f16 v12, v3, v4
v_pack_b32_f16 v13, v5, v6
v_mfma_f32_4x4x4_16b_f16 v[20:23], v[10:11], v[12:13], 0
// 16x16x4_4b f16, cbsz:2 abid:1: A element e of lane l = l/16 + e, B = 1.0.
v_lshrrev_b32 v1, 4, v0
v_cvt_f32_u32 v3, v1
v_add_f32 v4, 1.0, v3
v_add_f32 v5, 2.0, v3
v_add_f32 v6, 1.0, v5
v_cvt_f16_f32 v3, v3
v_cvt_f16_f32 v4, v4
v_cvt_f16_f32 v5, v5
v_cvt_f16_f32 v6, v6
v_pack_b32_f16 v10, v3, v4
v_pack_b32_f16 v11, v5, v6
v_mov_b32 v12, 0x3c003c00
v_mov_b32 v13, 0x3c003c00
v_mfma_f32_16x16x4_4b_f16 v[32:47], v[10:11], v[12:13], 0 cbsz:2 abid:1
// f64 16x16x4: A = B = lane, A negated, C = 1.0.
v_cvt_f64_u32 v[14:15], v0
v_mfma_f64_16x16x4_f64 v[48:55], v[14:15], v[14:15], 1.0 neg:[1,0,0]
// fp8 16x16x32: A bytes 1.0 (0x40) in lanes 0-31, 2.0 (0x48) above; B bytes 2.0.
v_mov_b32 v16, 0x40404040
v_mov_b32 v17, 0x48484848
v_cmp_gt_u32 vcc, 32, v0
v_cndmask_b32 v18, v17, v16, vcc
v_mov_b32 v19, v18
v_mfma_f32_16x16x32_fp8_fp8 v[56:59], v[18:19], v[16:17], 0
s_nop 15
s_endpgm
