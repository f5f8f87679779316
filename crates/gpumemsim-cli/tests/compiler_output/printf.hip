// printf from HIP: clang-19's default, the hostcall buffer the host services while the
// kernel runs.
#include <hip/hip_runtime.h>

__global__ void report(const float *t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        printf("item %2d: %.3f %s (0x%04x, %lld)\n", i, t[i], "ms", i * 37, (long long)i << 33);
}
