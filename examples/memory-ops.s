// A tour of the memory instructions gpumemsim models (gfx1100, LLVM syntax).
// `gpumemsim asm` with no file assembles this example.
kernel:
    s_load_b64 s[0:1], s[4:5], 0x10          // kernel argument: a buffer pointer
    s_buffer_load_b32 s2, s[8:11], s3 offset:0x40 glc
    s_waitcnt lgkmcnt(0)
    v_interp_p10_f32 v4, v1, v2, v3 wait_exp:7
    lds_param_load v1, attr0.x wait_vdst:15
    ds_store_b32 v0, v1 offset:16
    ds_load_2addr_b32 v[2:3], v0 offset0:4 offset1:8
    ds_add_rtn_u32 v4, v0, v1 offset:64
    ds_bpermute_b32 v5, v1, v2
    ds_swizzle_b32 v6, v1 offset:swizzle(BITMASK_PERM,"01pip")
    ds_cmpstore_rtn_b32 v7, v0, v1, v2
    ds_gws_barrier v1 offset:4 gds
    global_load_b32 v8, v0, s[0:1] offset:-64
    global_atomic_add_f32 v9, v[10:11], v1, off glc
    scratch_store_b64 off, v[2:3], s4 offset:8
    buffer_load_b32 v12, v0, s[8:11], 0 offen offset:4 glc
    tbuffer_store_format_x v1, off, s[8:11], s3 format:[BUF_FMT_32_FLOAT]
    s_barrier
    s_cbranch_scc1 kernel
    s_endpgm
