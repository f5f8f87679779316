// The last-block reduction with OpenCL 2.0's fences: a release fence before the ticket, an
// acquire fence after it in the block that took the last one. Correct.
__kernel void fenced_total(__global const int *in, __global int *partial,
                           __global atomic_uint *tickets, __global int *total) {
    __local int s[64];
    __local int last;
    uint l = get_local_id(0);
    s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 32; k > 0; k /= 2) {
        if (l < k)
            s[l] += s[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        partial[get_group_id(0)] = s[0];
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
        uint ticket = atomic_fetch_add_explicit(tickets, 1u, memory_order_relaxed,
                                                memory_scope_device);
        last = ticket == get_num_groups(0) - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (last && l == 0) {
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
        int t = 0;
        for (uint b = 0; b < get_num_groups(0); b++)
            t += partial[b];
        *total = t;
    }
}
