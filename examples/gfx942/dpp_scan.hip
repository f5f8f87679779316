// An inclusive prefix sum over each wave64 with DPP, the sequence GCN and CDNA compilers use
// for wave scans: row_shr by 1, 2, 4 and 8 within each row of 16 lanes, then row_bcast:15
// (row mask 0xa: each odd row adds the last lane of the row before it) and row_bcast:31
// (row mask 0xc: the upper half adds lane 31) — GFX9 controls that RDNA dropped.
#include <hip/hip_runtime.h>

// Lanes with no source, or in a masked-off row, read 0 (the `old` operand).
#define shifted(v, ctrl, row_mask) __builtin_amdgcn_update_dpp(0, v, ctrl, row_mask, 0xf, false)

__global__ void wave_scan(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    v += shifted(v, 0x111, 0xf); // row_shr:1
    v += shifted(v, 0x112, 0xf); // row_shr:2
    v += shifted(v, 0x114, 0xf); // row_shr:4
    v += shifted(v, 0x118, 0xf); // row_shr:8
    v += shifted(v, 0x142, 0xa); // row_bcast:15
    v += shifted(v, 0x143, 0xc); // row_bcast:31
    out[i] = v;
}
