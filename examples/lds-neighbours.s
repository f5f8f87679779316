// Two waves pass values through LDS: each work-item stores its id, then reads the next
// work-item's word (the last one wraps to the first). The read of the last lane of each wave
// needs the other wave's store, and nothing makes it wait for it: an LDS race.
// Run:  gpumemsim check examples/lds-neighbours.s --waves 2
// Fix:  sed 's|// s_barrier|s_barrier|' examples/lds-neighbours.s | gpumemsim check - --waves 2
//
// v0 holds the work-item's id in the workgroup (0-63), as the kernel ABI sets it.
    v_lshlrev_b32 v1, 2, v0              // v1 = 4 × id
    v_add_nc_u32 v2, 1, v0
    v_and_b32 v2, 63, v2
    v_lshlrev_b32 v2, 2, v2              // v2 = 4 × ((id + 1) mod 64)
    ds_store_b32 v1, v0
    s_waitcnt lgkmcnt(0)                 // this wave's store is done ...
    // s_barrier                         // ... and, with the barrier, the other wave's too
    ds_load_b32 v3, v2
    s_waitcnt lgkmcnt(0)
    s_endpgm
