// The scalar cache is not coherent with vector stores: a stale read until s_dcache_inv.
// Run: gpumemsim run examples/stale-kcache.s --mem 0x20000=1 --set s0=0x20000 --dump s10 --dump s11 --dump s12 --dump mem:0x20000:0x20004
//
// s10 loads the dword at 0x20000 (1) and the line stays in the scalar cache. A vector
// store writes 42 there. s11 loads again: a hit on the cached line, still 1. After
// s_dcache_inv the line is gone and s12 reads memory: 42.
    s_load_b32 s10, s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v1, 0                 // offset from the SGPR base
    v_mov_b32 v2, 42
    s_mov_b32 exec_lo, 1            // one lane stores
    global_store_b32 v1, v2, s[0:1]
    s_waitcnt_vscnt null, 0x0       // the store has reached memory
    s_load_b32 s11, s[0:1], 0x0     // stale: the cached copy
    s_waitcnt lgkmcnt(0)
    s_dcache_inv                    // alone in its group, outside any clause
    s_waitcnt lgkmcnt(0)
    s_load_b32 s12, s[0:1], 0x0     // misses, reads memory
    s_waitcnt lgkmcnt(0)
    s_endpgm
