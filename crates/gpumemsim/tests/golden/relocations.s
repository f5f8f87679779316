// Every relocation kind the loader applies, against one variable (tools/gen_relocation_objects.sh).
.text
.globl f
.type f,@function
f:
  s_getpc_b64 s[0:1]
  s_add_u32 s0, s0, var@rel32@lo+4
  s_addc_u32 s1, s1, var@rel32@hi+12
  s_getpc_b64 s[2:3]
  s_add_u32 s2, s2, var@gotpcrel32@lo+4
  s_addc_u32 s3, s3, var@gotpcrel32@hi+12
  s_getpc_b64 s[6:7]
  s_add_u32 s6, s6, var@gotpcrel32@lo+4
  s_addc_u32 s7, s7, var@gotpcrel32@hi+12
  s_mov_b32 s4, var@abs32@lo
  s_mov_b32 s5, var@abs32@hi
  s_setpc_b64 s[30:31]
.size f, .-f
.data
.p2align 3
.globl var
.type var,@object
var:
  .long 7
.size var, 4
.section .rodata
.p2align 3
.globl ptrs
.type ptrs,@object
ptrs:
  .quad var
  .quad var - .
  .long var
  .long var - .
.size ptrs, 24
