// C = A × B for n×n row-major floats (n a multiple of 16), 16×16 tiles staged through LDS.
// Launch with --grid n/16,n/16 --block 16,16.
#define TS 16
__kernel void matmul(__global const float *a, __global const float *b, __global float *c, int n) {
    __local float as[TS][TS];
    __local float bs[TS][TS];
    int tx = __builtin_amdgcn_workitem_id_x();
    int ty = __builtin_amdgcn_workitem_id_y();
    int row = __builtin_amdgcn_workgroup_id_y() * TS + ty;
    int col = __builtin_amdgcn_workgroup_id_x() * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TS) {
        as[ty][tx] = a[row * n + t + tx];
        bs[ty][tx] = b[(t + ty) * n + col];
        __builtin_amdgcn_s_barrier();
        for (int k = 0; k < TS; k++) acc = __builtin_fmaf(as[ty][k], bs[k][tx], acc);
        __builtin_amdgcn_s_barrier();
    }
    c[row * n + col] = acc;
}
