// A 64-bin histogram of bytes (bin = byte >> 2), privatised per workgroup: the bins live in
// LDS passed as a __local argument (64 uints: launch with local:256), filled with local
// atomic_inc over a grid-strided slice of the input; then each workgroup adds its bins to the
// global histogram (global atomic_add), finds its fullest bin with a local atomic_max on a
// static __local word, and folds that into max_bin[0] (global atomic_max).
#define BINS 64

__kernel void histogram_local_bins(__global const uchar *data, uint n, __global uint *hist,
                                   __global uint *max_bin, __local uint *bins) {
    __local uint group_max;
    uint lid = get_local_id(0), lsize = get_local_size(0);
    for (uint b = lid; b < BINS; b += lsize)
        bins[b] = 0;
    if (lid == 0)
        group_max = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[data[i] >> 2]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < BINS; b += lsize) {
        uint count = bins[b];
        atomic_add(&hist[b], count);
        atomic_max(&group_max, count);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        atomic_max(max_bin, group_max);
}
