// Per-workgroup sums through two __local pointer arguments (dynamic LDS the host sizes) beside
// a static __local array. The kernel also reports where its local memory landed: a __local
// pointer's value is its LDS offset, so the test can check the runtime's placement rule.
__kernel void block_sum(__global const int *in, __global int *out, __local int *partial,
                        __local double *scaled, int n) {
    __local int where[3];
    int l = get_local_id(0), g = get_group_id(0), size = get_local_size(0);
    int i = get_global_id(0);
    partial[l] = i < n ? in[i] : 0;
    scaled[l] = 0.5 * partial[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = size / 2; s > 0; s >>= 1) {
        if (l < s) {
            partial[l] += partial[l + s];
            scaled[l] += scaled[l + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        where[0] = (int)(size_t)where;
        where[1] = (int)(size_t)partial;
        where[2] = (int)(size_t)scaled;
        out[4 * g] = partial[0];
        out[4 * g + 1] = (int)(2.0 * scaled[0]);
        out[4 * g + 2] = where[1];
        out[4 * g + 3] = where[2] - where[0];
    }
}
