// Producer/consumer through a GWS semaphore (resource 3). Wave 0 writes 42 to GDS word 0 and
// signals; every other wave waits on the semaphore, then reads the word.
// Run: gpumemsim run examples/gws-semaphore.s --waves 4 --set s1=wave --set m0=0x1000 \
//        --set v1=0 --set v2=42 --set v4=3 --dump v3 --seed 7
    s_cmp_eq_u32 s1, 0
    s_cbranch_scc0 consumer
    ds_store_b32 v1, v2 gds
    s_waitcnt lgkmcnt(0)
    ds_gws_sema_br v4 offset:3 gds     // v4 = consumers to release (set by --set v4=3)
    s_waitcnt lgkmcnt(0)
    s_nop 0                            // a GWS instruction's wait must not precede s_endpgm
    s_endpgm
consumer:
    s_waitcnt lgkmcnt(0)
    ds_gws_sema_p offset:3 gds
    s_waitcnt lgkmcnt(0)
    ds_load_b32 v3, v1 gds
    s_waitcnt lgkmcnt(0)
    s_endpgm
