// Read a constant buffer through s_buffer_load, with the V# bounds check.
// Run: gpumemsim run examples/constant-buffer.s --mem 0x10000=10,11,12,13,14,15,16,17 --dump s20 --dump s25 --dump s26 --dump s8
//
// s[4:7] is a V# (buffer resource): base 0x10000, stride 0, num_records 24 bytes, so
// m_size = 24 (docs/rules/smem.md#loads-using-a-buffer-constant). The eight-dword load reads
// bytes 0-31: dwords 0-5 are in range, dwords 6 and 7 lie past m_size and read 0 (an
// `smem_range` event says so). The second load uses SOFFSET to pick dword 2.
    s_mov_b32 s4, 0x10000           // V# word 0: base[31:0]
    s_mov_b32 s5, 0                 // V# word 1: base[47:32] | stride << 16
    s_mov_b32 s6, 24                // V# word 2: num_records
    s_mov_b32 s7, 0                 // V# word 3: not used by scalar loads
    s_mov_b32 s3, 8
    s_clause 0x1                    // the next two loads issue as one clause
    s_buffer_load_b256 s[20:27], s[4:7], 0x0
    s_buffer_load_b32 s8, s[4:7], s3
    s_waitcnt lgkmcnt(0)
    s_endpgm
