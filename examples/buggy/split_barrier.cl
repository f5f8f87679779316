// A producer/consumer split by wave where each side has its own barrier call: the first wave
// of the workgroup fills a staging buffer and waits at one barrier, the second wave waits at
// another and then reads it. On AMD hardware both barriers are the same s_barrier counter,
// so it happens to work, but OpenCL requires every work-item of the group to reach the same
// barrier: `gpumemsim check` reports barrier_divergence with both barriers' lines.
__kernel void split_barrier(__global const int *in, __global int *out) {
    __local int stage[32];
    uint lid = get_local_id(0);
    if (lid < 32) {
        stage[lid] = in[get_group_id(0) * 32 + lid] * 3;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = 0;
    } else {
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = stage[lid - 32] + 1;
    }
}
