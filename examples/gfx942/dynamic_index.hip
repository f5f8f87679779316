// A dynamic index into a vector held in VGPRs: clang-19 builds the store v[j] for gfx942 with
// GFX9's VGPR index mode (s_set_gpr_idx_on ... gpr_idx(DST) around a v_mov_b32) and the
// per-lane read v[idx[i]] as a chain of compares and selects.
#include <hip/hip_runtime.h>

typedef float float16v __attribute__((ext_vector_type(16)));

__global__ void dynamic_index(const int *idx, const float *x, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float16v v;
#pragma unroll
    for (int k = 0; k < 16; k++)
        v[k] = x[i] + k;
    int j = __builtin_amdgcn_readfirstlane(idx[blockIdx.x]) & 15;
    v[j] = 100.0f;
    out[i] = v[idx[i] & 15] + v[j];
}
