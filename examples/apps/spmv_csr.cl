// y = A·x for a sparse float matrix A in CSR form (row_ptr: rows+1 offsets; col_idx, vals:
// row_ptr[rows] entries), the two classic kernels of the SpMV literature (SHOC, Bell &
// Garland):
// spmv_csr_scalar: one row per work-item; work-items past `rows` do nothing.
// spmv_csr_vector: 32 work-items per row (a workgroup of lsize work-items, a multiple of 32,
// takes lsize/32 rows), each summing every 32nd entry of the row; the 32 partial sums are
// folded in LDS given as a __local argument (launch with local:4*lsize).
__kernel void spmv_csr_scalar(uint rows, __global const int *row_ptr,
                              __global const int *col_idx, __global const float *vals,
                              __global const float *x, __global float *y) {
    uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; k++)
        sum += vals[k] * x[col_idx[k]];
    y[row] = sum;
}

__kernel void spmv_csr_vector(uint rows, __global const int *row_ptr,
                              __global const int *col_idx, __global const float *vals,
                              __global const float *x, __global float *y,
                              __local float *partial) {
    uint lid = get_local_id(0), lane = lid & 31;
    uint row = get_group_id(0) * (get_local_size(0) / 32) + lid / 32;
    float sum = 0.0f;
    if (row < rows)
        for (int k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += 32)
            sum += vals[k] * x[col_idx[k]];
    partial[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = 16; stride > 0; stride /= 2) {
        if (lane < stride)
            partial[lid] += partial[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && row < rows)
        y[row] = partial[lid];
}
