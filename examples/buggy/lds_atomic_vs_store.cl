// A counter in LDS that work-item 0 clears while the others already count into it: the
// plain store and the other waves' atomics race (no barrier between the clear and the
// counting). Whichever order the waves run in, `gpumemsim check` reports an lds_race
// between an atomic and the store.
__kernel void count_positive(__global const int *in, __global int *out) {
    __local int count;
    uint l = get_local_id(0);
    if (l == 0)
        count = 0;
    if (in[get_global_id(0)] > 0)
        atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        out[0] = count;
}
