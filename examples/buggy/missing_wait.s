// Hand-written assembly that uses an LDS load's result before waiting for it: the classic
// slip when s_waitcnt lgkmcnt(0) is left out after moving code around. Each lane stores its
// id, loads its neighbour's (lane ^ 1) and adds the two; the add runs before the load's data
// arrives and reads v2's old value. `gpumemsim check` reports missing_wait naming the load,
// the add and the wait that fixes it.
    v_lshlrev_b32 v1, 2, v0            // byte address of word lane
    ds_store_b32 v1, v0
    v_xor_b32 v4, 4, v1                // the neighbour's word
    s_waitcnt lgkmcnt(0)
    ds_load_b32 v2, v4
    v_add_nc_u32 v3, v2, v0            // <- needs s_waitcnt lgkmcnt(0) first
    ds_store_b32 v1, v3 offset:256
    s_waitcnt lgkmcnt(0)
    s_endpgm
