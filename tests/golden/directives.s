// Data and alignment directives among instructions (tools/gen_directive_goldens.sh).
.text
start:
  s_mov_b32 s1, 5
  .long 0xbf800000, -1
  .p2align 4
  v_mov_b32 v1, 0x12345678
loop:
  .short 0x1234, 7
  .byte 1, 255
  .p2align 3, 0xff
  .quad 0x0123456789abcdef
  .4byte 42
  .p2align 2
  v_dual_add_f32 v1, v2, v3 :: v_dual_mul_f32 v4, v5, v6
  s_endpgm
