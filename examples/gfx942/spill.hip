// A kernel with more live values than its register budget: amdgpu_waves_per_eu(8, 8) leaves
// each wave 64 of the SIMD's 512 unified registers, so clang keeps part of the 96 running
// sums elsewhere — in AGPRs (v_accvgpr_write/read) and, past those, in scratch.
#include <hip/hip_runtime.h>

#define N 96

__global__ void __attribute__((amdgpu_waves_per_eu(8, 8)))
spill_sums(const int *in, int *out, int rounds) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int acc[N];
#pragma unroll
    for (int i = 0; i < N; i++)
        acc[i] = in[(t + i) % 256];
    for (int r = 0; r < rounds; r++) {
#pragma unroll
        for (int i = 0; i < N; i++)
            acc[i] = acc[i] * 3 + acc[(i + 1) % N] + r;
    }
    int s = 0;
#pragma unroll
    for (int i = 0; i < N; i++)
        s ^= acc[i] + i;
    out[t] = s;
}
