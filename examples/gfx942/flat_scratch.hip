// The address-space document's third experiment (seed spec 003), device code as written
// there: ten waves (a block of 640) with a 1000-int private array each lane, a non-inlined
// call that prints, and each wave's flat_scratch printed by its lane 0. The document: the
// waves' flat_scratch values are 64 × the kernel's scratch bytes per lane apart (0x3ec00 for
// its 4,016 bytes; clang-19 gives this kernel 4,176 bytes, so 0x41400 apart here).
#include <hip/hip_runtime.h>
#include <stdio.h>

__device__ __noinline__ void foo(void *x) {
    int y = *(int *)x;
    printf("y is %d\n", y);
}

__global__ void test(int *in, int *out) {
    foo(in);
    int buf[1000];
    for (int i = 0; i < 1000; i++)
        buf[i] = in[i] * in[i] + out[i];
    for (int i = 0; i < 10; i++)
        out[i] = buf[i] + buf[i];
    long long flat_scratch;
    asm volatile("s_mov_b64 %0, flat_scratch" : "=rr"(flat_scratch));
    if (__lane_id() == 0) {
        printf("wave %d flat_scrach is 0x%llx\n", threadIdx.x / 64, flat_scratch);
    }
}
