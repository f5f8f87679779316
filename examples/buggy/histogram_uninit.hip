// A shared-memory histogram whose bins are never cleared: each block counts its bytes into
// 64 LDS bins with atomicAdd and adds them to the global histogram, but nothing set the bins
// to zero first. The hardware does not clear LDS, so the counts start from whatever an
// earlier workgroup left there. `gpumemsim check` reports uninitialized_lds_read at the
// first atomic; `--lds-init poison` shows the wrong counts in `run`.
#include <hip/hip_runtime.h>

extern "C" __global__ void histogram64_uninit(const unsigned char *data, unsigned n,
                                              unsigned *bins) {
    __shared__ unsigned local_bins[64];
    // for (unsigned b = threadIdx.x; b < 64; b += blockDim.x) local_bins[b] = 0;  <- forgotten
    // __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        atomicAdd(&local_bins[data[i] >> 2], 1u);
    __syncthreads();
    for (unsigned b = threadIdx.x; b < 64; b += blockDim.x)
        atomicAdd(&bins[b], local_bins[b]);
}
