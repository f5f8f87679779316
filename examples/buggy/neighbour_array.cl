// A smoothing step over a tile in LDS whose right neighbour's index is not clamped: the
// last work-item reads one element past the end of `tile`, which is the first element of
// the next __local array, `weights` (inside the allocation, so no hardware fault and no
// out-of-range access). `gpumemsim check` reports lds_out_of_bounds naming both variables.
__kernel void smooth_tile(__global const float *in, __global const float *w,
                          __global float *out) {
    __local float tile[128];
    __local float weights[4];
    uint l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    if (l < 4)
        weights[l] = w[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = weights[0] * tile[l] + weights[1] * tile[l + 1];
}
