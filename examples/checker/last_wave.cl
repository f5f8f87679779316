// A workgroup's last wave to finish sums what the others left in LDS, with no barrier: each
// wave stores its partial sum, makes it visible with a release fence and takes a ticket
// from an LDS counter; the wave that takes the last ticket reads every partial after an
// acquire fence. The fences and the counter's atomics order the stores before the reads:
// correct.
__kernel void last_wave_sum(__global const int *in, __global int *out) {
    __local int partial[16];
    __local atomic_uint tickets;
    uint l = get_local_id(0), lane = get_sub_group_local_id(), wave = get_sub_group_id();
    uint waves = get_num_sub_groups();
    if (l == 0)
        atomic_init(&tickets, 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = sub_group_reduce_add(in[get_global_id(0)]);
    if (lane == 0) {
        partial[wave] = s;
        atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release,
                               memory_scope_work_group);
        uint t = atomic_fetch_add_explicit(&tickets, 1u, memory_order_relaxed,
                                           memory_scope_work_group);
        if (t == waves - 1) {
            atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire,
                                   memory_scope_work_group);
            int total = 0;
            for (uint w = 0; w < waves; w++)
                total += partial[w];
            out[get_group_id(0)] = total;
        }
    }
}
