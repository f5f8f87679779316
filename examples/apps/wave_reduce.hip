// Sums an int array with wave shuffles, one element per thread (n ≤ gridDim.x·blockDim.x):
// each wave folds its values with __shfl_down, broadcasts the wave's sum to all its lanes
// with __shfl and writes it to wave_sum[i] for each of its elements; lane 0 stores it in LDS;
// the first wave folds the block's wave sums with a __shfl_xor butterfly, writes
// block_sum[blockIdx.x] and adds it to total[0] (global atomicAdd).
#include <hip/hip_runtime.h>

__global__ void wave_shuffle_sum(const int *in, int *wave_sum, int *block_sum, int *total,
                                 int n) {
    __shared__ int sums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
    int v = i < n ? in[i] : 0;
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    v = __shfl(v, 0);
    if (i < n)
        wave_sum[i] = v;
    if (lane == 0)
        sums[wave] = v;
    __syncthreads();
    if (wave == 0) {
        int waves = (blockDim.x + warpSize - 1) / warpSize;
        v = lane < waves ? sums[lane] : 0;
        for (int mask = warpSize / 2; mask > 0; mask /= 2)
            v += __shfl_xor(v, mask);
        if (lane == 0) {
            block_sum[blockIdx.x] = v;
            atomicAdd(total, v);
        }
    }
}
