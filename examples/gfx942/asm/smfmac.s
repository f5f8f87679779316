// A sparse matrix product (SMFMAC, gfx942 assembly): each lane holds 4 of the 8 terms of
// its window of A's row (2 of each group of 4), placed by 2-bit indices; abid:1 picks the
// index set in bits 15:8. The expected result is worked out in
// crates/gpumemsim-cli/tests/gfx942.rs.
// gpumemsim run examples/gfx942/asm/smfmac.s --arch gfx942 --dump v20
v_mbcnt_lo_u32_b32 v0, -1, 0
v_mbcnt_hi_u32_b32 v0, -1, v0
// A: the values 1, 2 (group 0) and 3, 4 (group 1), at places 0, 1 and 2, 3.
v_mov_b32 v10, 0x40003c00
v_mov_b32 v11, 0x44004200
v_mov_b32 v16, 0xe400
// B: lane l holds rows 8(l/16) .. 8(l/16)+7 of its column, B[k][j] = k.
v_lshrrev_b32 v1, 4, v0
v_lshlrev_b32 v1, 3, v1
v_cvt_f32_u32 v2, v1
v_add_f32 v3, 1.0, v2
v_add_f32 v4, 2.0, v2
v_add_f32 v5, 1.0, v4
v_add_f32 v6, 4.0, v2
v_add_f32 v7, 1.0, v6
v_add_f32 v8, 2.0, v6
v_add_f32 v9, 1.0, v8
v_cvt_f16_f32 v2, v2
v_cvt_f16_f32 v3, v3
v_cvt_f16_f32 v4, v4
v_cvt_f16_f32 v5, v5
v_cvt_f16_f32 v6, v6
v_cvt_f16_f32 v7, v7
v_cvt_f16_f32 v8, v8
v_cvt_f16_f32 v9, v9
v_pack_b32_f16 v12, v2, v3
v_pack_b32_f16 v13, v4, v5
v_pack_b32_f16 v14, v6, v7
v_pack_b32_f16 v15, v8, v9
// D (= C) starts at 0.5.
v_mov_b32 v20, 0.5
v_mov_b32 v21, 0.5
v_mov_b32 v22, 0.5
v_mov_b32 v23, 0.5
v_smfmac_f32_16x16x32_f16 v[20:23], v[10:11], v[12:15], v16 abid:1
s_nop 15
s_endpgm
