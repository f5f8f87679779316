// Every workgroup writes its partial result and then a plain store of its id to one shared
// "last writer" slot, meant as a progress marker. Plain stores from different workgroups to
// the same bytes race: which id remains depends on the order the hardware runs the
// workgroups. `gpumemsim check` reports a global_race (an atomic_xchg would not be one).
__kernel void partial_with_marker(__global const float *in, __global float *partial,
                                  __global uint *marker) {
    __local float sum[64];
    uint lid = get_local_id(0), group = get_group_id(0);
    sum[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = 32; stride > 0; stride /= 2) {
        if (lid < stride)
            sum[lid] += sum[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partial[group] = sum[0];
        marker[0] = group;
    }
}
