// A GWS barrier across workgroups: every wave marks its GDS word, waits at resource 0, then
// reads the next wave's word, which the barrier guarantees is marked.
// Run (8 waves: 4 workgroups of 2; the barrier is armed with waves - 1 = 7; every workgroup
// must be resident at once, so they allocate no LDS — the default 64 KB each would let only
// two onto the one WGP, and the barrier would wait forever):
//   gpumemsim run examples/gws-barrier.s --workgroups 4 --waves 2 --lds-size 0 --gws-init 0=7 \
//     --set m0=0x1000 --set 'v1=wave*4' --set v2=1 --set 'v3=((wave+1)%8)*4' --set v4=7 \
//     --dump gds:0:32 --dump v5 --seed 3
    ds_store_b32 v1, v2 gds            // GDS[wave] = 1 (one lane: the lowest in EXEC)
    s_waitcnt lgkmcnt(0)
    ds_gws_barrier v4 gds              // M0[21:16] + offset0 = resource 0
    s_waitcnt lgkmcnt(0)
    ds_load_b32 v5, v3 gds             // the next wave's word: 1
    s_waitcnt lgkmcnt(0)
    s_endpgm
