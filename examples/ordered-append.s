// Ordered append: wave w reserves (w+1) dwords of an append buffer in GDS through ordered
// count 0; requests are served in wave creation order whatever order the waves arrive in,
// so the layout is the same for every --seed. Each wave writes its index at its base.
// Run: gpumemsim run examples/ordered-append.s --workgroups 3 --waves 2 --set m0=0x1000 \
//        --set 'v1=(wave+1)*4' --set v3=wave+100 --dump gds:0:88 --dump v2 --seed 11
    s_waitcnt lgkmcnt(0)
    ds_ordered_count v2, v1 offset:256 gds   // offset1 bit 0: wave_release; counter 0
    s_waitcnt lgkmcnt(0)
    ds_store_b32 v2, v3 gds                  // GDS[base] = wave + 100
    s_waitcnt lgkmcnt(0)
    s_endpgm
