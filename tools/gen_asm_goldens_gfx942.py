#!/usr/bin/env python3
"""Assembler goldens for gfx942: llvm-mc-19 -mcpu=gfx942 -show-encoding's answer for lines of
text, read by crates/rdna3-isa/tests/asm_gfx942.rs.

  python3 tools/gen_asm_goldens_gfx942.py                 # needs llvm-mc-19 on PATH; ~10 s
  python3 tools/gen_asm_goldens_gfx942.py --mc DIR        # also LLVM's MC tests under DIR
  python3 tools/gen_asm_goldens_gfx942.py --mc DIR --raw --out /tmp/mc.txt   # the tests as written
  python3 tools/gen_asm_goldens_gfx942.py --seed 7 --out /tmp/a.txt   # a held-out variant set

The lines come from four places (the SOURCE column):
  random   every text llvm-mc-19 printed for a valid word of tests/golden/random_disasm_gfx942.txt
           (the random words of every format; texts with an `/*Invalid ...*/` comment left out:
           llvm-mc-19 prints them for operands it cannot assemble);
  objdump  every instruction of tests/golden/objdump_gfx942.txt (clang-19's gfx942 code);
  variant  the random and objdump texts rewritten as people write them (upper case, hex
           numbers, suffixes `_e32`/`_e64` added or dropped, modifiers reordered, default
           modifiers written out, spaces) by seeded rules, plus the hand-written lines of
           EXTRA below (aliases, symbolic operands, and errors);
  mc       with --mc DIR (a copy of the files tools/mc_tests_gfx942.txt lists, at their paths
           and versions): the instruction lines of LLVM's AMDGPU MC tests under DIR (*.s) that
           llvm-mc-19 -mcpu=gfx942 accepts, as the canonical text it prints for them (the
           tests' own spelling is not stored; `--raw --out FILE` writes a file with it, for
           ASM_GOLDEN_GFX942=FILE). --mc also writes tests/golden/mc_disasm_gfx942.txt: the
           tests' encodings (the disassembler tests' byte lines, *.txt, and llvm-mc-19's
           encodings of the assembler tests' lines) as llvm-mc-19 disassembles them.

Each line: SOURCE<TAB>INPUT<TAB>CANONICAL<TAB>BYTES (hex, memory order), or
SOURCE<TAB>INPUT<TAB><error><TAB>MESSAGE when llvm-mc-19 rejects the line.
"""
import argparse, os, random, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mc_batch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

EXTRA = [
    # scalar: aliases, symbolic immediates, special registers
    's_waitcnt vmcnt(0) lgkmcnt(0)', 's_waitcnt vmcnt(0) & lgkmcnt(0)', 's_waitcnt vmcnt(1), expcnt(2)',
    's_waitcnt 0', 's_waitcnt lgkmcnt(3)', 's_waitcnt vmcnt(63)', 's_waitcnt 0xc07f', 's_waitcnt expcnt(0)',
    's_getreg_b32 s0, hwreg(HW_REG_MODE)', 's_getreg_b32 s0, hwreg(HW_REG_MODE, 4, 8)',
    's_getreg_b32 s0, hwreg(1, 0, 32)', 's_getreg_b32 s5, hwreg(HW_REG_HW_ID)', 's_getreg_b32 s5, hwreg(HW_REG_XCC_ID, 0, 16)',
    's_setreg_b32 hwreg(HW_REG_STATUS, 0, 1), s3', 's_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x12345',
    's_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3', 's_getreg_b32 s0, 0x1801', 's_getreg_b32 s1, hwreg(HW_REG_TRAPSTS, 8, 3)',
    's_sendmsg sendmsg(MSG_INTERRUPT)', 's_sendmsg sendmsg(2, 3, 1)', 's_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)',
    's_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)', 's_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_TTRACE_PC)', 's_sendmsg 0x21',
    's_sendmsghalt sendmsg(MSG_INTERRUPT)', 's_sendmsg sendmsg(MSG_GET_DOORBELL)',
    's_mov_b32 s0, 0x3f800000', 's_mov_b32 s0, 1.0', 's_mov_b32 s0, -4.0', 's_mov_b32 s0, 1.5', 's_mov_b32 s0, -17',
    's_mov_b32 s0, 64', 's_mov_b32 s0, 0xffffffff', 's_mov_b64 s[0:1], -1', 's_mov_b64 s[0:1], 0.5',
    's_mov_b64 s[0:1], 0xffffffff', 's_mov_b64 s[0:1], 1.5', 's_mov_b64 s[0:1], 0x3fe00000', 's_mov_b32 m0, s1',
    's_mov_b64 flat_scratch, s[2:3]', 's_mov_b32 flat_scratch_lo, 5', 's_mov_b64 xnack_mask, -1', 's_mov_b32 s0, xnack_mask_hi',
    's_add_u32 s0, s1, 0x12345678', 's_add_u32 s0, 0x12345678, 0x12345678', 's_and_b64 s[0:1], exec, vcc',
    's_mov_b64 s[0:1], src_shared_base', 's_mov_b64 s[0:1], shared_base', 's_mov_b32 s0, src_pops_exiting_wave_id',
    's_mov_b32 s0, src_lds_direct', 's_mov_b32 s0, lds_direct', 's_mov_b32 s0, scc', 's_mov_b32 s0, vccz', 's_mov_b32 s0, execz',
    's_mov_b32 s0, 0.15915494', 's_mov_b64 s[4:5], 0.15915494309189532', 's_movk_i32 s0, 0x1234', 's_movk_i32 s0, -1',
    's_cmpk_eq_u32 s1, 0xffff', 's_addk_i32 s2, -32768', 's_branch 5', 's_cbranch_scc0 -1', 's_nop 3', 's_nop 0x7',
    's_endpgm', 's_barrier', 's_setprio 3', 's_sleep 10', 's_trap 2', 's_icache_inv', 's_dcache_wb', 's_dcache_inv',
    's_set_gpr_idx_on s0, gpr_idx(SRC0,DST)', 's_set_gpr_idx_on s0, 9', 's_set_gpr_idx_on s1, gpr_idx()',
    's_set_gpr_idx_mode gpr_idx(SRC1)', 's_set_gpr_idx_off', 's_setpc_b64 s[4:5]', 's_getpc_b64 s[0:1]',
    's_swappc_b64 s[30:31], s[4:5]', 's_bitset0_b32 s0, 31', 's_lshl_b64 s[0:1], s[2:3], 4', 's_cselect_b64 s[0:1], -1, 0',
    'S_MOV_B32 s0, s1', 's_mov_b32 S0, S1', 's_mov_b32 s0,s1', 's_mov_b32   s0 ,  s1', 's_add_u32 s0, s1, (2+3)*4',
    # SMEM
    's_load_dword s5, s[2:3], 0x10', 's_load_dwordx2 s[4:5], s[2:3], 16', 's_load_dwordx4 s[4:7], s[2:3], s0',
    's_load_dwordx2 s[4:5], s[2:3], s0 offset:0x10', 's_load_dword s5, s[2:3], 0x10 glc', 's_load_dwordx8 s[8:15], s[2:3], -0x100000',
    's_buffer_load_dword s5, s[4:7], 0x1000', 's_buffer_load_dwordx16 s[16:31], s[4:7], s1', 's_store_dword s1, s[4:5], 0',
    's_store_dwordx2 s[2:3], s[4:5], m0', 's_store_dwordx4 s[0:3], s[4:5], 0x40 glc', 's_scratch_load_dword s1, s[4:5], 4',
    's_scratch_store_dword s1, s[4:5], 8', 's_atomic_add s1, s[4:5], 0', 's_atomic_add s1, s[4:5], 0 glc',
    's_memtime s[0:1]', 's_memrealtime s[2:3]', 's_dcache_discard s[2:3], 0x100', 's_atc_probe 7, s[2:3], 0x10',
    's_load_dword s5, s[2:3], 0x100000', 's_load_dword s5, s[2:3], -1',
    # DS
    'ds_read_b32 v1, v2 offset:16', 'ds_read_b32 v1, v2 offset:0', 'ds_write_b64 v1, v[2:3]', 'ds_read2_b32 v[1:2], v3 offset0:1 offset1:2',
    'ds_read2_b32 v[1:2], v3 offset1:2 offset0:1', 'ds_add_u32 v1, v2 offset:0x10', 'ds_add_rtn_u32 v0, v1, v2 offset:65535',
    'ds_read_b128 v[0:3], v4', 'ds_write_b128 v4, v[0:3] offset:256', 'ds_read_b128 a[0:3], v4', 'ds_write_b32 v1, a2',
    'ds_swizzle_b32 v1, v2 offset:swizzle(QUAD_PERM,0,1,2,3)', 'ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)',
    'ds_swizzle_b32 v1, v2 offset:swizzle(REVERSE,8)', 'ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,8,3)',
    'ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM, "01pip")', 'ds_swizzle_b32 v1, v2 offset:0xffff',
    'ds_bpermute_b32 v1, v2, v3 offset:4', 'ds_permute_b32 v1, v2, v3', 'ds_add_f64 v1, v[2:3]', 'ds_cmpst_b32 v1, v2, v3 offset:8',
    'ds_read_addtid_b32 v1 offset:16', 'ds_nop', 'ds_gws_init v1 gds', 'ds_append v1', 'ds_add_u32 v1, v2 gds',
    # FLAT / GLOBAL / SCRATCH
    'global_load_dword v1, v[2:3], off', 'global_load_dword v1, v2, s[2:3] offset:-8', 'flat_load_dword v1, v[2:3] offset:4',
    'flat_load_dword v1, v[2:3] sc0 sc1 nt', 'flat_load_dword v1, v[2:3] nt sc1 sc0', 'global_store_dwordx4 v[0:1], v[2:5], off offset:4095',
    'global_load_dwordx4 a[0:3], v[0:1], off', 'global_atomic_add v1, v[2:3], v4, off sc0', 'global_atomic_add v[2:3], v4, off',
    'global_atomic_add_f64 v[2:3], v[4:5], off', 'global_atomic_cmpswap_x2 v[0:1], v2, v[4:7], s[2:3] sc0',
    'scratch_load_dword v1, off, s3', 'scratch_load_dword v1, v2, off offset:-4096', 'scratch_store_dword off, v1, s2 offset:16',
    'scratch_load_dword v1, v2, s3', 'flat_atomic_add_f64 v[0:1], v[2:3], v[4:5] sc0', 'global_load_lds_dword v[0:1], off',
    'global_load_dword v1, v[2:3], off glc', 'flat_load_ubyte v0, v[0:1] offset:0',
    # MUBUF / MTBUF
    'buffer_load_dword v1, off, s[4:7], 0', 'buffer_load_dword v1, v2, s[4:7], s3 offen offset:4095',
    'buffer_load_dwordx2 v[1:2], v[4:5], s[8:11], s1 idxen offen offset:12 sc0 nt', 'buffer_store_dword v1, off, s[4:7], s3 offset:0',
    'buffer_load_dword v1, off, s[4:7], 0 lds', 'buffer_atomic_add v1, off, s[4:7], 0 sc0', 'buffer_wbl2 sc1', 'buffer_inv sc0 sc1',
    'buffer_atomic_add_f64 v[0:1], off, s[4:7], 0', 'buffer_load_dword a1, off, s[4:7], 0', 'buffer_load_format_xyzw v[0:3], v4, s[8:11], 0 idxen',
    'tbuffer_load_format_x v1, off, s[4:7], s3 format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_FLOAT]',
    'tbuffer_load_format_x v1, off, s[4:7], s3 format:[BUF_NUM_FORMAT_FLOAT]', 'tbuffer_load_format_xy v[1:2], v3, s[4:7], 0 format:[BUF_DATA_FORMAT_16_16] idxen offset:4',
    'tbuffer_store_format_x v1, off, s[4:7], s3 format:[BUF_DATA_FORMAT_8]', 'tbuffer_load_format_x v1, off, s[4:7], 0',
    'tbuffer_load_format_x v1, off, s[4:7], 0 dfmt:4 nfmt:7', 'tbuffer_load_format_x v1, off, s[4:7], 0 format:116',
    # VALU
    'v_mov_b32 v0, v1', 'v_mov_b32_e32 v0, 1.0', 'v_mov_b32_e64 v0, v1', 'v_mov_b32 v0, s1', 'v_mov_b32 v0, 0x12345678',
    'v_add_f32 v0, v1, v2', 'v_add_f32 v0, s1, v2', 'v_add_f32 v0, v1, s2', 'v_add_f32 v0, -v1, v2', 'v_add_f32 v0, |v1|, v2',
    'v_add_f32 v0, v1, v2 clamp', 'v_add_f32_e64 v0, v1, v2 mul:2', 'v_add_f32 v0, 1.5, v2', 'v_add_f32 v0, 0.5, v2',
    'v_add_u32 v0, v1, v2', 'v_add_u32_e64 v0, v1, v2 clamp', 'v_add_co_u32 v0, vcc, v1, v2', 'v_add_co_u32 v0, s[0:1], v1, v2',
    'v_addc_co_u32 v0, vcc, v1, v2, vcc', 'v_addc_co_u32 v0, s[2:3], v1, v2, s[4:5]', 'v_sub_co_u32_e32 v0, vcc, 5, v2',
    'v_cndmask_b32 v0, v1, v2, vcc', 'v_cndmask_b32 v0, v1, v2, s[0:1]', 'v_cndmask_b32_e64 v0, -v1, v2, vcc',
    'v_cmp_eq_u32 vcc, v1, v2', 'v_cmp_eq_u32 s[0:1], v1, v2', 'v_cmp_eq_u32_e64 vcc, v1, s2', 'v_cmpx_lt_f32 vcc, 0, v1',
    'v_cmp_class_f32 vcc, v1, v2', 'v_fma_f32 v0, v1, v2, v3', 'v_fma_f32 v0, -v1, |v2|, 1.0 clamp div:2', 'v_mad_u32_u24 v0, v1, v2, v3',
    'v_lshlrev_b32 v0, 2, v1', 'v_lshl_add_u32 v0, v1, 2, v3', 'v_lshl_add_u64 v[0:1], v[2:3], 3, v[4:5]', 'v_mul_lo_u32 v0, v1, 0x100',
    'v_readlane_b32 s0, v1, 5', 'v_writelane_b32 v0, s1, s2', 'v_readfirstlane_b32 s0, v1', 'v_bfe_u32 v0, v1, 8, 8',
    'v_add_f16 v0, v1, v2', 'v_add_f16 v0, 0x3c00, v2', 'v_cvt_f32_f16 v0, v1', 'v_pack_b32_f16 v0, v1, v2 op_sel:[1,0,0]',
    'v_add_f64 v[0:1], v[2:3], v[4:5]', 'v_add_f64 v[0:1], 1.0, v[4:5]', 'v_mul_f64 v[0:1], s[2:3], -v[4:5]',
    'v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf', 'v_mov_b32_dpp v0, v1 row_shl:1',
    'v_add_f32_dpp v0, v1, v2 row_shr:3 row_mask:0x3 bank_mask:0xa bound_ctrl:0', 'v_add_f32_dpp v0, -v1, |v2| wave_shl:1',
    'v_mov_b32_dpp v0, v1 row_bcast:15 row_mask:0xa', 'v_mov_b32_dpp v0, v1 row_bcast:31', 'v_mov_b32_dpp v0, v1 wave_ror:1',
    'v_mov_b32_dpp v0, v1 row_mirror', 'v_mov_b32_dpp v0, v1 row_half_mirror', 'v_add_u32_dpp v0, v1, v2 row_ror:7 bound_ctrl:1',
    'v_mov_b64_dpp v[0:1], v[2:3] row_newbcast:1', 'v_mov_b32 v0, v1 quad_perm:[0,0,0,0]',
    'v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0', 'v_mov_b32_sdwa v0, v1',
    'v_add_f32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:BYTE_2',
    'v_add_u32_sdwa v0, sext(v1), v2 src0_sel:BYTE_1', 'v_cmp_eq_u32_sdwa vcc, v1, v2 src0_sel:WORD_0 src1_sel:WORD_1',
    'v_cmp_eq_u32_sdwa s[0:1], v1, v2 src0_sel:WORD_0', 'v_add_f16_sdwa v0, -v1, |v2| clamp dst_sel:WORD_1', 'v_add_f32_sdwa v0, s1, v2',
    'v_pk_add_f16 v0, v1, v2', 'v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]', 'v_pk_fma_f16 v0, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,0,1] clamp',
    'v_pk_add_f32 v[0:1], v[2:3], v[4:5]', 'v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7] op_sel_hi:[0,1,1]', 'v_pk_mov_b32 v[0:1], v[2:3], v[4:5] op_sel:[1,0]',
    'v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]', 'v_fma_mix_f32 v0, -v1, |v2|, v3', 'v_dot2_f32_f16 v0, v1, v2, v3',
    'v_accvgpr_write_b32 a0, v1', 'v_accvgpr_write_b32 a1, 5', 'v_accvgpr_read_b32 v0, a1', 'v_accvgpr_mov_b32 a1, a2',
    'v_accvgpr_write a0, v1', 'v_accvgpr_read v0, a1',
    'v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3]', 'v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]',
    'v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], 0', 'v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3] cbsz:1 abid:2 blgp:3',
    'v_mfma_f32_16x16x4f32 a[0:3], v0, v1, a[4:7]', 'v_mfma_i32_16x16x32_i8 v[0:3], v[4:5], v[6:7], v[0:3]',
    'v_mfma_f32_32x32x4bf16_1k a[0:31], v[0:1], v[2:3], a[0:31]', 'v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7] neg:[1,0,0]',
    'v_mfma_f32_16x16x8bf16 a[0:3], v0, v1, a[0:3]', 'v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10 cbsz:1 abid:1',
    'v_nop', 'v_mov_b32 v0, src_lds_direct', 'v_mov_b32 v255, v255', 'v_swap_b32 v0, v1', 'v_movreld_b32 v0, v1',
    'v_lshl_or_b32 v0, v1, 4, v2', 'v_perm_b32 v0, v1, v2, 0x5040100', 'v_cvt_pkrtz_f16_f32 v0, v1, v2', 'v_mad_u64_u32 v[0:1], s[2:3], v4, v5, v[6:7]',
    'v_div_scale_f32 v0, vcc, v1, v2, v3', 'v_div_fmas_f32 v0, v1, v2, v3', 'v_cvt_f32_ubyte0 v0, v1', 'v_exp_f32 v0, v1 clamp',
    # errors
    'ds_add_u32 v1', 'ds_bogus v1, v2', 'ds_read_b32 v1, v2 offset:65536', 'ds_read_b64 v1, v2', 'ds_read2_b32 v[1:2], v3 offset0:256',
    'global_load_dword v1, v[2:3], off offset:4096', 'flat_load_dword v1, v[2:3] offset:-1', 'global_load_dword v1, v2, off',
    's_load_dwordx2 s[1:2], s[2:3], 0', 's_mov_b64 s[1:2], s[4:5]', 's_mov_b32 s0, s1, s2', 's_mov_b32 s0',
    's_waitcnt vmcnt(64)', 's_waitcnt lgkmcnt(16)', 's_getreg_b32 s0, hwreg(HW_REG_BOGUS)', 's_sendmsg sendmsg(MSG_BOGUS)',
    'v_add_f32 v0, v1, v2, v3', 'v_add_f32 v0, s1, s2', 'v_add_f32_e32 v0, v1, s2', 'v_mov_b32 v0, v[1:2]', 'v_add_f64 v[1:2], v[2:3], v[4:5]',
    'v_mfma_f32_16x16x16f16 a[0:2], v[0:1], v[2:3], a[0:3]', 'v_mov_b32_dpp v0, v1 row_shl:0', 'v_mov_b32_dpp v0, s1 row_shl:1',
    'v_mov_b32_sdwa v0, v1 dst_sel:QWORD', 'buffer_load_dword v1, v2, s[4:7], 0', 'buffer_load_dword v1, off, s[4:6], 0',
    'tbuffer_load_format_x v1, off, s[4:7], s3 format:[BUF_DATA_FORMAT_BOGUS]', 'scratch_load_dword v[1:2], off, off',
    's_nop', 'v_add_u32 v0, vcc, v1, v2', 'v_add_co_u32 v0, v1, v2', 'v_cndmask_b32 v0, v1, v2', 'v_readlane_b32 v0, v1, 5',
    's_add_u32 s0, 0x12345678, 0x87654321', 'v_fma_f32 v0, s1, s2, s3', 'v_add_f32 v0, v1, v2 mul:3', 's_waitcnt_vscnt null, 0x3',
    'ds_add_u32_e32 v1, v2', 's_mov_b32_e32 s0, s1', 'global_load_dword v1, v[2:3], off dlc', 'v_mov_b32 v256, v1', 's_mov_b32 s102, s0',
    'v_accvgpr_write_b32 v0, v1', 'ds_read_b32 v1, v2 gds', 's_branch', 'v_add_f32 v0, v1',
    'v_mov_b32 v0, v[4294967295:4294967296]', 's_mov_b64 s[0:4294967295], 0', 'v_mov_b32 v0, a[300]'
]


def golden_texts(name):
    """The valid texts of a disassembly golden (no `/*...*/` comment), in file order."""
    out = []
    with open(os.path.join(ROOT, 'tests', 'golden', name)) as f:
        for line in f:
            if line.startswith('#'):
                continue
            cols = line.rstrip('\n').split('\t')
            text = cols[-1]
            if cols[-2] == '-' or '/*' in text or '<invalid' in text:
                continue
            out.append(text)
    return out


MODIFIER = re.compile(r'^(?:[a-z_0-9]+:\S+|[a-z_0-9]+)$')


def variant(text, rng):
    """`text` written another way llvm-mc-19 should read as the same instruction (or refuse)."""
    head, _, rest = text.partition(' ')
    rule = rng.randrange(8)
    if rule == 0:
        return head.upper() + (' ' + rest if rest else '')
    if rule == 1:
        # decimal numbers (not register indices, not inside names) in hex
        return re.sub(r'(?<![\w\[:.])(\d+)(?![\w\].])', lambda m: hex(int(m.group(1))), text)
    if rule == 2:
        if head.endswith('_e32') or head.endswith('_e64'):
            return head[:-4] + (' ' + rest if rest else '')
        if head.startswith('v_') and '_dpp' not in head and '_sdwa' not in head:
            return head + rng.choice(['_e32', '_e64']) + (' ' + rest if rest else '')
        return text
    if rule == 3:
        # the trailing modifiers in another order
        toks = rest.split(' ')
        k = len(toks)
        while k > 0 and MODIFIER.match(toks[k - 1]) and not toks[k - 1].endswith(','):
            k -= 1
        mods = toks[k:]
        rng.shuffle(mods)
        return ' '.join([head] + toks[:k] + mods)
    if rule == 4:
        return head + ' ' + rest.replace(', ', ',') if rest else text
    if rule == 5:
        if head.startswith(('ds_', 'global_', 'flat_', 'scratch_', 'buffer_')) and 'offset' not in rest:
            return text + ' offset:0'
        return text
    if rule == 6:
        # a register or constant operand written another way
        t = re.sub(r'\bv(\d+)\b', r'v[\1]', text, count=1)
        return re.sub(r'\bs(\d+)\b', r's[\1:\1]', t, count=1)
    return head + '   ' + rest.replace(', ', ' , ') if rest else text


def mc_test_files(d, ext):
    """The files ending in `ext` under `d`, sorted."""
    out = []
    for root, _, names in os.walk(d):
        out += [os.path.join(root, n) for n in names if n.endswith(ext)]
    return sorted(out)


def mc_test_lines(d):
    """The instruction lines of the assembler MC tests under `d` (*.s; comments and
    directives dropped)."""
    out = []
    for path in mc_test_files(d, '.s'):
        with open(path, errors='replace') as f:
            for line in f:
                code = re.split(r'//|;', line, 1)[0].strip()
                # Instructions only: no directive, label or symbol assignment (`x = 1`, which
                # llvm-mc-19 takes silently, so its answers would shift by a line).
                if code and not code.startswith('.') and not code.endswith(':') \
                        and not re.match(r'\w+\s*=', code):
                    out.append(code)
    return list(dict.fromkeys(out))


def mc_test_words(d):
    """The byte lines of the disassembler MC tests under `d` (*.txt)."""
    out = []
    for path in mc_test_files(d, '.txt'):
        with open(path, errors='replace') as f:
            for line in f:
                code = line.split('#', 1)[0].strip()
                if re.fullmatch(r'(0x[0-9a-fA-F]{2}\s*,?\s*)+', code):
                    out.append(tuple(int(x, 16) for x in re.findall(r'0x[0-9a-fA-F]{2}', code)))
    return list(dict.fromkeys(out))


def write_mc_disasm(words, out):
    """tests/golden/mc_disasm_gfx942.txt: llvm-mc-19's disassembly of `words`, in the form
    of the random-word goldens (crates/rdna3-isa/tests/random_words.rs reads it)."""
    res = mc_batch.dis_full(words)
    # The batch's sentinels are `s_nop N` words, so a word that is itself an `s_nop` (or
    # runs into one) is judged alone: one instruction, no warning, these very bytes.
    for i, r in enumerate(res):
        if r is None:
            p = subprocess.run(mc_batch.MC + ['--disassemble', '-show-encoding'],
                               input=mc_batch.hexb(words[i]) + '\n', capture_output=True, text=True)
            got = [m for m in re.finditer(r'\s*(.*?)\s*; encoding: \[(.*)\]', p.stdout)]
            if 'warning' not in p.stderr and len(got) == 1 and \
                    [int(x, 16) for x in got[0].group(2).split(',')] == list(words[i]):
                res[i] = (got[0].group(1), list(words[i]))
    with open(out, 'w') as f:
        f.write('# Generated by tools/gen_asm_goldens_gfx942.py --mc: the encodings of LLVM\'s gfx940 MC tests '
                '(their byte lines, and llvm-mc-19\'s encodings of their assembly lines) disassembled by '
                'llvm-mc-19 -mcpu=gfx942.\n')
        f.write('# FORMAT<TAB>BYTES<TAB>SIZE decoded or -<TAB>TEXT or invalid\n')
        for w, r in zip(words, res):
            b = ''.join('%02x' % x for x in w)
            if r is None:
                f.write('MC\t%s\t-\tinvalid\n' % b)
            else:
                f.write('MC\t%s\t%d\t%s\n' % (b, len(w), r[0]))
    print('%d MC encodings -> %s' % (len(words), out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=20261129)
    ap.add_argument('--variants', type=int, default=6000)
    ap.add_argument('--mc', help='a directory of LLVM AMDGPU MC tests (*.s, and the disassembler\'s *.txt)')
    ap.add_argument('--raw', action='store_true',
                    help='with --mc: keep the tests\' own lines (for a held-out check; not committed)')
    ap.add_argument('--out', default=os.path.join(ROOT, 'tests', 'golden', 'asm_gfx942.txt'))
    a = ap.parse_args()
    mc_batch.use_mcpu('gfx942')
    rng = random.Random(a.seed)
    random_texts = list(dict.fromkeys(golden_texts('random_disasm_gfx942.txt')))
    objdump_texts = [t for t in dict.fromkeys(golden_texts('objdump_gfx942.txt')) if t not in set(random_texts)]
    base = random_texts + objdump_texts
    variants = list(dict.fromkeys(variant(rng.choice(base), rng) for _ in range(a.variants)))
    rows = [('random', t) for t in random_texts] + [('objdump', t) for t in objdump_texts]
    rows += [('variant', t) for t in variants + EXTRA]
    results = mc_batch.asm([t for _, t in rows])
    mc_rows = []
    if a.mc and a.raw:
        # The tests' lines as written, with llvm-mc-19's answer (errors included).
        lines = mc_test_lines(a.mc)
        rows, results = [('mc', t) for t in lines], mc_batch.asm(lines)
        mc_rows = rows
    elif a.mc:
        # The tests' lines are run, and the canonical text of each accepted one is kept.
        lines = mc_test_lines(a.mc)
        assembled = [r for r in mc_batch.asm(lines) if r[0] != 'ERR']
        canon = [t for t in dict.fromkeys(r[1] for r in assembled) if '/*' not in t]
        mc_rows = [('mc', t) for t in canon]
        results += mc_batch.asm(canon)
        rows += mc_rows
        words = mc_test_words(a.mc) + [tuple(r[0]) for r in assembled]
        write_mc_disasm(list(dict.fromkeys(words)), os.path.join(ROOT, 'tests', 'golden', 'mc_disasm_gfx942.txt'))
    with open(a.out, 'w') as f:
        f.write('# Generated by tools/gen_asm_goldens_gfx942.py (seed %d%s) from llvm-mc-19 -mcpu=gfx942 '
                '-show-encoding.\n' % (a.seed, ', --mc' if a.mc else ''))
        f.write('# SOURCE<TAB>INPUT<TAB>CANONICAL<TAB>BYTES, or SOURCE<TAB>INPUT<TAB><error><TAB>MESSAGE\n')
        for (src, t), r in zip(rows, results):
            if r[0] == 'ERR':
                f.write('%s\t%s\t<error>\t%s\n' % (src, t, r[1]))
            else:
                f.write('%s\t%s\t%s\t%s\n' % (src, t, r[1], ''.join('%02x' % b for b in r[0])))
    n_err = sum(1 for r in results if r[0] == 'ERR')
    print('%d lines (%d errors, %d from MC tests) -> %s' % (len(rows), n_err, len(mc_rows), a.out))


if __name__ == '__main__':
    main()
