// LDS-heavy kernels in the shape of MI300 code:
// - bins_64k: a 64 KiB dynamic `extern __shared__` float table (the whole LDS of a
//   workgroup on gfx942) that every thread adds into with float atomics (ds_add_f32), the
//   workgroup's bins then added to global ones (global_atomic_add_f32) and the largest
//   partial bin (×4, as an integer) kept with a global atomicMax; launched with
//   --dynamic-lds 65536;
// - reverse_float4: a block of float4s written to LDS and read back in reverse
//   (ds_write_b128 / ds_read_b128);
// - f64_sums: double atomics in LDS and memory (below).
#include <hip/hip_runtime.h>

#define BINS 16384

extern __shared__ float table[];

__global__ void bins_64k(const float *in, float *bins, int *top, int n) {
    for (int i = threadIdx.x; i < BINS; i += blockDim.x)
        table[i] = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        atomicAdd(&table[(i * 37) % BINS], v);
        atomicAdd(&table[BINS - 1 - threadIdx.x % 8], v);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        float v = table[b];
        if (v != 0.0f) {
            atomicAdd(&bins[b], v);
            atomicMax(top, (int)(v * 4.0f));
        }
    }
}

__global__ void reverse_float4(const float4 *in, float4 *out) {
    __shared__ float4 tile[256];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    tile[t] = in[base + t];
    __syncthreads();
    float4 v = tile[blockDim.x - 1 - t];
    out[base + t] = make_float4(v.w, v.z, v.y, v.x);
}

// f64_sums: double atomics, which CDNA3 has in LDS and memory (ds_add_rtn_f64,
// global_atomic_add_f64; atomicMin/atomicMax on doubles are compare-and-swap loops).
__global__ void f64_sums(const double *x, double *sum, double *lo, double *hi, int n) {
    __shared__ double block_sum;
    if (threadIdx.x == 0)
        block_sum = 0.0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&block_sum, x[i]);
        atomicMin(lo, x[i]);
        atomicMax(hi, x[i]);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(sum, block_sum);
}
