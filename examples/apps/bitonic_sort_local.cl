// Sorts each workgroup's slice of 2 × local-size ints ascending with a bitonic network in LDS
// (the in-workgroup stage of a GPU bitonic/merge sort). The local size must be a power of two,
// at most 256; in every step work-item t compare-exchanges one pair (i, i + stride).
__kernel void bitonic_sort_local(__global int *keys) {
    __local int s[512];
    uint t = get_local_id(0), m = get_local_size(0), n = 2 * m;
    __global int *base = keys + get_group_id(0) * n;
    s[t] = base[t];
    s[t + m] = base[t + m];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint size = 2; size <= n; size <<= 1) {
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            uint i = 2 * t - (t & (stride - 1));
            uint j = i + stride;
            bool ascending = (i & size) == 0;
            int a = s[i], b = s[j];
            if ((a > b) == ascending) {
                s[i] = b;
                s[j] = a;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    base[t] = s[t];
    base[t + m] = s[t + m];
}
