// A tree reduction over 64 slots of which only the first 48 were filled: the first step
// adds slots 48-63, which nothing wrote. Reading them is not the bug yet (a copy would be
// harmless); adding them is. `gpumemsim check` reports uninitialized_lds_read at the add,
// naming the load.
__kernel void partial_fill_sum(__global const int *in, __global int *out) {
    __local int s[64];
    uint l = get_local_id(0);
    if (l < 48)
        s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 32; k > 0; k /= 2) {
        if (l < k)
            s[l] += s[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = s[0];
}
