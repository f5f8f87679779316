// A private array handed to non-inlined functions: they reach it through flat addresses in
// the private aperture, the kernel through its stack. Built at -O0 (as a debug build is), where
// clang keeps every value in stack slots and reaches them with FLAT instructions whose unused
// SGPR-address field is 0 on gfx942. The test compiles it (`--cflags -O0`).
#include <hip/hip_runtime.h>
__device__ __noinline__ void fill(int *p, int v) { for (int k = 0; k < 8; k++) p[k] = v * 10 + k; }
__device__ __noinline__ int sum(const int *p) { int s = 0; for (int k = 0; k < 8; k++) s += p[k] * (k + 1); return s; }
__global__ void t(int *out, const int *idx) {
    int a[8];
    fill(a, threadIdx.x);
    a[idx[threadIdx.x] & 7] += 1000;
    out[threadIdx.x] = sum(a) + a[(idx[threadIdx.x] >> 3) & 7];
}
