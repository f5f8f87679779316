// LDS float atomics and their edge cases (docs/rules/float-atomics.md: rounding, NaN, ±0).
// Run:
//   gpumemsim run examples/float-atomics.s --set v1=0 --set v2=0x3f800000 \
//     --set 'v3=(127+lane)<<23' --set v4=0x80000000 --set v5=0x40000000 --set v6=0 \
//     --set v7=0xff800000 --set v8=0x7f800000 --dump lds:0:16
// Word 0: every lane adds 1.0 → 32.0 (0x42000000). Word 1: max over 2^lane → 2^31
// (0x4f000000). Word 2: holds -0.0, compare-store with +0.0 matches → 2.0 (0x40000000).
// Word 3: -inf + +inf → the NaN the float rules define.
    ds_store_2addr_b32 v1, v6, v6 offset1:1   // LDS is not cleared: words 0 and 1 start at 0
    ds_add_f32 v1, v2
    ds_max_f32 v1, v3 offset:4
    ds_store_b32 v1, v4 offset:8
    ds_store_b32 v1, v7 offset:12
    s_waitcnt lgkmcnt(0)
    ds_cmpstore_f32 v1, v5, v6 offset:8
    s_mov_b32 exec_lo, 1
    ds_add_f32 v1, v8 offset:12
    s_waitcnt lgkmcnt(0)
    s_endpgm
