// Sorts every aligned run of warpSize ints ascending, in registers: a bitonic network whose
// compare-exchange partners are lanes lane ^ stride, reached with __shfl_xor (the warp-level
// sort used inside GPU sample sorts). One element per thread; the element count must be a
// multiple of warpSize and equal gridDim.x·blockDim.x.
#include <hip/hip_runtime.h>

__global__ void warp_bitonic_sort(int *keys) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    int key = keys[i];
    for (int size = 2; size <= warpSize; size *= 2) {
        for (int stride = size / 2; stride > 0; stride /= 2) {
            int other = __shfl_xor(key, stride);
            bool ascending = (lane & size) == 0;
            bool lower = (lane & stride) == 0;
            int lo = key < other ? key : other;
            int hi = key < other ? other : key;
            key = lower == ascending ? lo : hi;
        }
    }
    keys[i] = key;
}
