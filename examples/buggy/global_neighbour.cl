// A smoothing step through global memory: each work-item writes its value to the output
// and then reads its right neighbour's, which the next wave of the workgroup writes, with
// no barrier between (a barrier with a global fence would order them). `gpumemsim check`
// reports a global_race between waves of one workgroup.
__kernel void smooth_in_place(__global const int *in, __global int *out) {
    uint g = get_global_id(0), l = get_local_id(0);
    int v = in[g] * 2;
    out[g] = v;
    if (l + 1 < get_local_size(0))
        out[g] = (v + out[g + 1]) / 2;
}
