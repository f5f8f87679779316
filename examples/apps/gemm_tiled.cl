// C = A × B for row-major floats, A M×K, B K×N, C M×N (M, N, K multiples of 16), the GEMM
// of PolyBench written the GPU way: each work-item of a 16×16 workgroup computes one element
// of C, and the workgroup walks K one 16×16 tile of A and of B at a time, staged in LDS.
// Launch with a 2-D grid of N/16 × M/16 workgroups of 16×16 work-items.
#define TILE 16

__kernel void gemm_tiled_16x16(__global const float *A, __global const float *B,
                               __global float *C, int M, int N, int K) {
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_group_id(0) * TILE + tx;
    int row = get_group_id(1) * TILE + ty;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = A[row * K + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
