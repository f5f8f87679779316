// HeCBench-style HIP in a .cu file: a __constant__ lookup table, a __device__ counter the
// host sets (hipMemcpyToSymbol; --symbol here), a non-inlined helper, and a printf.
#include <hip/hip_runtime.h>

__constant__ int lut[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};
__device__ unsigned int counter;

__device__ __noinline__ int square_plus(int x, int k) { return lut[x & 15] + k; }

__global__ void apply(const int *in, int *out, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = square_plus(in[i], k);
        atomicAdd(&counter, 1u);
    }
    if (i == 0)
        printf("n=%d k=%d lut[3]=%d\n", n, k, lut[3]);
}
