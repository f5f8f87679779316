// A 1-D integer convolution with 2·radius+1 taps (radius ≤ 8), zero outside the input:
// out[i] = Σ_k taps[k]·in[i + k − radius]. Each block copies the taps to static __shared__
// memory and stages its blockDim.x inputs plus a halo of `radius` on each side in dynamic LDS
// (extern __shared__, which lies after the static LDS; launch with
// 4·(blockDim.x + 2·radius) bytes).
#include <hip/hip_runtime.h>

__global__ void conv1d_halo_dynamic(const int *in, const int *taps, int *out, int n,
                                    int radius) {
    __shared__ int w[17];
    extern __shared__ int tile[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    if (t <= 2 * radius)
        w[t] = taps[t];
    for (int k = t; k < blockDim.x + 2 * radius; k += blockDim.x) {
        int src = base + k - radius;
        tile[k] = src >= 0 && src < n ? in[src] : 0;
    }
    __syncthreads();
    int i = base + t;
    if (i < n) {
        int acc = 0;
        for (int k = 0; k <= 2 * radius; k++)
            acc += w[k] * tile[t + k];
        out[i] = acc;
    }
}
