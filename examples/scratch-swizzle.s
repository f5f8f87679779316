// The hardware scratch measurement (docs/rules/addressing.md#scratch-swizzle): an 8-byte private variable at private offset 8, wave64.
// Run: gpumemsim run examples/scratch-swizzle.s --wave64 --waves 2 --scratch-size 4016 --scratch-base 0x100000 --dump s4 --dump mem:0x100200:0x100208 --dump mem:0x100300:0x100308
//
// Each lane stores 0x12345678_deadbeaf at private offset 8 through a flat address in the
// private aperture. Scratch is swizzled (docs/rules/addressing.md#scratch-swizzle): dword element e of lane
// l lies at flat_scratch + (e × 64 + l) × 4, so lane 0's low dword is at flat_scratch + 8×64
// (0x100200 for wave 0) and its high dword at flat_scratch + 12×64 (0x100300). Wave 1's
// region starts 64 × 4016 = 0x3ec00 bytes later; s4 shows each wave's flat_scratch low dword.
    s_mov_b64 s[0:1], src_private_base   // the private aperture
    v_mov_b32 v1, 8                      // private offset 8
    v_mov_b32 v2, s1                     // flat address = aperture base + 8
    v_mov_b32 v3, 0xdeadbeaf             // low dword
    v_mov_b32 v4, 0x12345678             // high dword
    v_mov_b32 v5, v1
    v_mov_b32 v6, v2
    flat_store_b64 v[5:6], v[3:4]
    s_waitcnt_vscnt null, 0x0
    scratch_load_b64 v[7:8], off, off offset:8   // the same bytes through SCRATCH
    s_getreg_b32 s4, hwreg(HW_REG_FLAT_SCR_LO)
    s_waitcnt vmcnt(0)
    s_endpgm
