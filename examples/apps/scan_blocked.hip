// Inclusive prefix sum of n ints in two launches (the blocked scan of GPU Gems 3, ch. 39):
// Pass 1 (scan_block_inclusive): each block scans its blockDim.x elements in dynamic LDS
// (extern __shared__; launch with 4·blockDim.x bytes) by Hillis–Steele doubling, writes them
// to out and the block's total to block_sums[blockIdx.x].
// Pass 2 (scan_add_block_offsets), on pass 1's out and block_sums with the same grid and
// block: thread 0 of each block adds up the totals of the blocks before it (into a static
// __shared__ word) and every thread adds that to its element.
#include <hip/hip_runtime.h>

__global__ void scan_block_inclusive(const int *in, int *out, int *block_sums, int n) {
    extern __shared__ int buf[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        int add = t >= offset ? buf[t - offset] : 0;
        __syncthreads();
        buf[t] += add;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[t];
    if (t == blockDim.x - 1)
        block_sums[blockIdx.x] = buf[t];
}

__global__ void scan_add_block_offsets(int *data, const int *block_sums, int n) {
    __shared__ int offset;
    if (threadIdx.x == 0) {
        int s = 0;
        for (int b = 0; b < blockIdx.x; b++)
            s += block_sums[b];
        offset = s;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += offset;
}
