// gfx942 keeps scalar stores (RDNA3 removed them): one wave stores a uniform value with
// s_store_dword, writes the scalar cache back (s_dcache_wb) and waits (lgkmcnt), as
// hand-written CDNA code does for a per-dispatch flag; every lane then reads it back.
#include <hip/hip_runtime.h>

__global__ void scalar_flag(int *flag, int *seen, int value) {
    if (threadIdx.x < 64) {
        asm volatile("s_store_dword %0, %1, 0x4\n\t"
                     "s_dcache_wb\n\t"
                     "s_waitcnt lgkmcnt(0)"
                     :
                     : "s"(value), "s"(flag)
                     : "memory");
    }
    __syncthreads();
    seen[threadIdx.x] = __atomic_load_n(&flag[1], __ATOMIC_RELAXED) + threadIdx.x;
}
