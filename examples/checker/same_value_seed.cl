// Every work-item clears one shared counter (as SHOC's sort does with its s_seed): a
// write-write race of the same value, which ends the same whatever the order: a note, not a
// finding. Then the work-items with odd values count themselves into it.
__kernel void count_odd(__global const int *in, __global int *out) {
    __local int count;
    count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (in[get_global_id(0)] & 1)
        atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = count;
}
