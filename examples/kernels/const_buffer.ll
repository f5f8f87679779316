; A constant buffer read through s_buffer_load. The kernel builds a buffer descriptor (V#)
; over its first argument (base, stride 0, num_records = 4 × ncoef bytes) and reads four
; uniform coefficients: two at immediate offsets, one at an offset in an SGPR (chosen by the
; workgroup id), and one past num_records, which the range check returns as 0.
;   out[i] = in[i] × c[0] + c[1] + c[2 + (group & 3)] + c[16]     (c[16] is out of range: 0)
; LLVM IR: OpenCL has no builtin that makes clang emit s_buffer_load.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32>, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

define amdgpu_kernel void @const_buffer(ptr addrspace(1) %coef, i32 %ncoef, ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %p = ptrtoint ptr addrspace(1) %coef to i64
  %lo = trunc i64 %p to i32
  %hi64 = lshr i64 %p, 32
  %hi = trunc i64 %hi64 to i32
  %base_hi = and i32 %hi, 65535
  %bytes = shl i32 %ncoef, 2
  %d0 = insertelement <4 x i32> poison, i32 %lo, i32 0
  %d1 = insertelement <4 x i32> %d0, i32 %base_hi, i32 1
  %d2 = insertelement <4 x i32> %d1, i32 %bytes, i32 2
  %desc = insertelement <4 x i32> %d2, i32 0, i32 3
  %c0 = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %desc, i32 0, i32 0)
  %c1 = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %desc, i32 4, i32 0)
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %sel = and i32 %gid, 3
  %idx = add i32 %sel, 2
  %off = shl i32 %idx, 2
  %c2 = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %desc, i32 %off, i32 0)
  %c3 = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %desc, i32 64, i32 0)
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %g64 = shl i32 %gid, 6
  %i = add i32 %g64, %tid
  %i64 = zext i32 %i to i64
  %src = getelementptr i32, ptr addrspace(1) %in, i64 %i64
  %x = load i32, ptr addrspace(1) %src, align 4
  %m = mul i32 %x, %c0
  %s1 = add i32 %m, %c1
  %s2 = add i32 %s1, %c2
  %s3 = add i32 %s2, %c3
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %i64
  store i32 %s3, ptr addrspace(1) %dst, align 4
  ret void
}
