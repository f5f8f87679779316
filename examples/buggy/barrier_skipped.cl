// A barrier in a branch only the first half of the workgroup takes: the waves of the second
// half skip it, write their output and end while the first half waits at the barrier.
// OpenCL requires every work-item of the workgroup to reach the barrier; on gfx11 an ended
// wave no longer counts, so the first half goes on. `gpumemsim check` reports
// barrier_divergence naming the barrier and the last access of the waves that skipped it.
__kernel void staged_first_half(__global const int *in, __global int *out) {
    __local int stage[64];
    uint l = get_local_id(0);
    if (l < 64) {
        stage[l] = in[l];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[l] = stage[63 - l];
    } else {
        out[l] = in[l];
    }
}
