// The workgroup reduction of a classic sum kernel with its first barrier forgotten: every
// work-item stores its value to LDS and the tree reduction starts reading its neighbours'
// slots at once. In a workgroup of more than one wave, the first step reads slots another
// wave stores (launch: --block 64 in wave32). `gpumemsim check` reports an lds_race between
// the store and the read, with both source lines.
__kernel void reduce_sum_no_barrier(__global const int *in, __global int *out) {
    __local int partial[64];
    uint lid = get_local_id(0);
    partial[lid] = in[get_global_id(0)];
    // barrier(CLK_LOCAL_MEM_FENCE);  <- forgotten
    for (uint stride = 32; stride > 0; stride /= 2) {
        if (lid < stride)
            partial[lid] += partial[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = partial[0];
}
