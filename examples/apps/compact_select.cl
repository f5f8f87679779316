// Stream compaction (Chai's "select" pattern): copies every positive element of `in` to `out`,
// in no particular order. Each work-item with a positive value takes a slot in its workgroup's
// LDS list with a local atomic_inc and adds the value to a local sum (local atomic_add); the
// first work-item then reserves the workgroup's range of `out` with a global atomic_add on
// counters[0], adds the local sum to counters[1] (global atomic_add) and counts the
// workgroups that found any (global atomic_inc on counters[2]); all copy the list out.
// The local size must be at most 256.
__kernel void compact_select_positive(__global const int *in, uint n, __global int *out,
                                      __global int *counters) {
    __local int list[256];
    __local int count, sum, base;
    uint lid = get_local_id(0), i = get_global_id(0);
    if (lid == 0) {
        count = 0;
        sum = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = i < n ? in[i] : 0;
    if (v > 0) {
        list[atomic_inc(&count)] = v;
        atomic_add(&sum, v);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        base = atomic_add(&counters[0], count);
        atomic_add(&counters[1], sum);
        if (count > 0)
            atomic_inc(&counters[2]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < count)
        out[base + lid] = list[lid];
}
