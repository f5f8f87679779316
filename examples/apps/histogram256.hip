// A 256-bin byte histogram (the ROCm/CUDA sample's shape): each block counts a grid-strided
// slice of the bytes into static __shared__ bins with shared-memory atomicAdd, then adds its
// non-empty bins to the global histogram with global atomicAdd.
#include <hip/hip_runtime.h>

__global__ void histogram256_block(const unsigned char *data, int n, unsigned int *hist) {
    __shared__ unsigned int bins[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (bins[b] != 0)
            atomicAdd(&hist[b], bins[b]);
}
