// AGPRs past v255 of the unified register file: v200 puts the AGPRs at v204 (the first
// multiple of 4 above the highest VGPR), so a100 is v304 and a[60:63] are v264-v267.
// gpumemsim run examples/gfx942/asm/agprs_past_v255.s --arch gfx942 --dump v2 --dump v6
v_mov_b32 v200, 0
v_mov_b32 v1, 5
v_accvgpr_write_b32 a100, v1
v_accvgpr_write_b32 a101, 7
v_accvgpr_mov_b32 a102, a100
v_accvgpr_read_b32 v2, a102
v_accvgpr_read_b32 v3, a101
v_mov_b32 v4, 1.0
v_mov_b32 v5, 2.0
v_accvgpr_write_b32 a60, 0
v_accvgpr_write_b32 a61, 0
v_accvgpr_write_b32 a62, 0
v_accvgpr_write_b32 a63, 0
v_mfma_f32_16x16x4_f32 a[60:63], v4, v5, a[60:63]
v_mfma_f32_16x16x4_f32 a[60:63], v4, v5, a[60:63]
s_nop 15
v_accvgpr_read_b32 v6, a60
v_accvgpr_read_b32 v7, a63
s_endpgm
