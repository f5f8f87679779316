// Tree reduction of 64 dwords in LDS by one wave32, then a permute.
// Run: gpumemsim run examples/lds-reduction.s --set v1=lane*4 --set v2=lane+1 --dump lds:0:8 --dump v5
//
// Each lane stores lane+1 at lane*4 and at 128+lane*4; then halving steps add pairs with
// ds_load_2addr (two loads in one instruction) until word 0 holds the sum.
    ds_store_b32 v1, v2
    ds_store_b32 v1, v2 offset:128
    s_waitcnt lgkmcnt(0)
    ds_load_2addr_b32 v[3:4], v1 offset1:32     // words lane and lane+32
    s_waitcnt lgkmcnt(0)
    ds_store_b32 v1, v3
    ds_add_u32 v1, v4                            // word[lane] = word[lane] + word[lane+32]
    s_waitcnt lgkmcnt(0)
    s_mov_b32 exec_lo, 0xffff                    // 16, 8, 4, 2, 1 lanes
    ds_load_b32 v4, v1 offset:64
    s_waitcnt lgkmcnt(0)
    ds_add_u32 v1, v4
    s_waitcnt lgkmcnt(0)
    s_mov_b32 exec_lo, 0xff
    ds_load_b32 v4, v1 offset:32
    s_waitcnt lgkmcnt(0)
    ds_add_u32 v1, v4
    s_waitcnt lgkmcnt(0)
    s_mov_b32 exec_lo, 0xf
    ds_load_b32 v4, v1 offset:16
    s_waitcnt lgkmcnt(0)
    ds_add_u32 v1, v4
    s_waitcnt lgkmcnt(0)
    s_mov_b32 exec_lo, 0x3
    ds_load_b32 v4, v1 offset:8
    s_waitcnt lgkmcnt(0)
    ds_add_u32 v1, v4
    s_waitcnt lgkmcnt(0)
    s_mov_b32 exec_lo, 0x1
    ds_load_b32 v4, v1 offset:4
    s_waitcnt lgkmcnt(0)
    ds_add_u32 v1, v4
    s_waitcnt lgkmcnt(0)
    s_mov_b32 exec_lo, -1
    ds_bpermute_b32 v5, v1, v2                   // v5[lane] = v2[lane]: identity through LDS hardware
    s_waitcnt lgkmcnt(0)
    s_endpgm
