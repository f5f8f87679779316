// CUDA's threadFenceReduction with its __threadfence() forgotten: nothing makes a block's
// partial sum complete before it takes its ticket, so the block that takes the last ticket
// may read a partial sum not yet written. `gpumemsim check` reports a global_race between
// the last block's read and the store, with both source lines.
#include <hip/hip_runtime.h>

__device__ float block_sum(const float *in) {
    __shared__ float s[64];
    unsigned l = threadIdx.x;
    s[l] = in[blockIdx.x * blockDim.x + l];
    __syncthreads();
    for (unsigned k = 32; k > 0; k /= 2) {
        if (l < k)
            s[l] += s[l + k];
        __syncthreads();
    }
    return s[0];
}

extern "C" __global__ void unfenced_sum(const float *in, float *partial, unsigned *tickets,
                                        float *total) {
    __shared__ bool last;
    float sum = block_sum(in);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
        // __threadfence();  <- forgotten
        unsigned ticket = atomicAdd(tickets, 1u);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        float t = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += partial[b];
        *total = t;
        *tickets = 0;
    }
}
