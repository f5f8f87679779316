// A tour of gfx942 (CDNA3, MI300) memory instructions in LLVM syntax.
// `gpumemsim asm --arch gfx942` with no file assembles this example.
kernel:
    s_load_dwordx2 s[0:1], s[4:5], 0x10        // kernel argument: a buffer pointer
    s_buffer_load_dword s2, s[8:11], s3 offset:0x40 glc
    s_waitcnt lgkmcnt(0)
    ds_write_b32 v0, v1 offset:16
    ds_read2_b32 v[2:3], v0 offset0:4 offset1:8
    ds_read_b128 v[4:7], v0 offset:256
    ds_add_rtn_u32 v8, v0, v1 offset:64
    ds_add_f64 v0, v[2:3]
    ds_bpermute_b32 v9, v1, v2
    ds_swizzle_b32 v10, v1 offset:swizzle(BITMASK_PERM,"01pip")
    global_load_dword v11, v0, s[0:1] offset:-64
    global_atomic_add_f32 v12, v[2:3], v1, off sc0
    global_load_dwordx4 a[0:3], v[2:3], off sc1 nt
    scratch_store_dwordx2 off, v[2:3], s4 offset:8
    buffer_load_dword v13, v0, s[8:11], 0 offen offset:4 sc0
    tbuffer_store_format_x v1, off, s[8:11], s3 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]
    s_store_dword s2, s[0:1], 0x8 glc             // CDNA keeps scalar stores
    s_dcache_wb
    v_mov_b32_dpp v14, v1 row_bcast:15 row_mask:0xa
    v_add_u32_sdwa v15, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0
    v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[4:5], a[0:3]
    s_barrier
    s_cbranch_scc1 kernel
    s_endpgm
