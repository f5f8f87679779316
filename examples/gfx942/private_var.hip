// The address-space document's second experiment (seed spec 003), device code as written
// there: an 8-byte private variable A = 0x12345678deadbeaf, the private aperture and
// flat_scratch printed by lane 0, A's address handed to a non-inlined function that asks
// whether it is private (a flat address in the private aperture: *out = 1). Launched as the
// document does, one wave of 64 lanes. The document's output: "private base 2000000000000
// limit 20000ffffffff", `&A` inside the private aperture, and v = 1.
#include <hip/hip_runtime.h>
#include <stdio.h>

// noinline, so that the call takes a flat address (the document: "to make flat instructions")
__device__ __noinline__ bool isPrivate(const __attribute__((address_space(0))) void *addr) {
    return __builtin_amdgcn_is_private(addr);
}

__global__ void test(int *in, int *out) {
    long long A = 0x12345678deadbeaf;
    long long private_base;
    long long private_size;
    long long scratch;
    asm volatile("s_mov_b64 %0, src_private_base" : "=rr"(private_base));
    asm volatile("s_mov_b64 %0, src_private_limit" : "=rr"(private_size));
    asm volatile("s_mov_b64 %0, flat_scratch" : "=rr"(scratch));
    if (threadIdx.x == 0) {
        printf("private base %llx limit %llx flat scratch %llx\n", private_base, private_size, scratch);
        printf("&A is %p\n", &A);
    }
    *out = isPrivate((const __attribute__((address_space(0))) void *)&A);
}
