// Reverses each block's slice of `data` through dynamic shared memory (`extern __shared__`,
// sized by the launch) beside a static __shared__ counter.
#include <hip/hip_runtime.h>

__global__ void reverse_block(int *data, int *count) {
    extern __shared__ int slice[];
    __shared__ int seen;
    if (threadIdx.x == 0) seen = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    slice[threadIdx.x] = data[i];
    atomicAdd(&seen, 1);
    __syncthreads();
    data[i] = slice[blockDim.x - 1 - threadIdx.x];
    if (threadIdx.x == 0) atomicAdd(count, seen);
}
