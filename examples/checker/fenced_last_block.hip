// CUDA's threadFenceReduction: each block writes its partial sum, makes it visible with
// __threadfence(), and takes a ticket; the block that takes the last ticket sums the
// partials. The fence before the ticket orders the partial sums before the last block's
// reads: correct.
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

extern "C" __global__ void fenced_sum(const float *in, float *partial, unsigned *tickets,
                                      float *total) {
    __shared__ bool last;
    float sum = block_sum(in);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
        __threadfence();
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
