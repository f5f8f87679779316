// The address-space document's first experiment (seed spec 003), device code as written there
// except one thing: the document's kernel prints a global pointer `in` it never declares, so
// `in` is its parameter here. It reads the flat apertures and the flat_scratch register with
// inline assembly (`flat_scratch` is an SGPR pair on gfx942, not on gfx1100) and prints them
// with the address of a private variable. The document's output, which gpumemsim gives:
//   private base 0x2000000000000 limit 0x20000ffffffff
//   share base 0x1000000000000 limit 0x10000ffffffff
// and a private variable's address inside the private aperture.
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void test(int *in) {
    long long private_base;
    long long private_size;
    long long share_base;
    long long share_size;
    long long scratch;
    asm volatile("s_mov_b64 %0, src_private_base" : "=rr"(private_base));
    asm volatile("s_mov_b64 %0, src_private_limit" : "=rr"(private_size));
    asm volatile("s_mov_b64 %0, src_shared_base" : "=rr"(share_base));
    asm volatile("s_mov_b64 %0, src_shared_limit" : "=rr"(share_size));
    asm volatile("s_mov_b64 %0, flat_scratch" : "=rr"(scratch));
    if (threadIdx.x == 0) {
        printf("private base 0x%llx limit 0x%llx\nshare base 0x%llx limit 0x%llx\nprivate_var addr %p\nglobal_var addr %p\nflat_scratch_reg 0x%llx\n", private_base, private_size, share_base, share_size, &private_base, in, scratch);
    }
}
