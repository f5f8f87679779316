// A two-pass reduction of a float array to its sum and its count of positive elements.
// Pass 1 (reduce_sum_count_partial): each workgroup folds a grid-strided slice into one sum
// and one count, through two LDS arrays given as __local arguments of different element types
// (launch with local:4*lsize twice; lsize a power of two), and writes them to
// part_sum[group] / part_count[group].
// Pass 2 (reduce_sum_count_final): one workgroup of 64 work-items folds the `parts` partials
// of pass 1 into out_sum[0] / out_count[0] (static LDS).
__kernel void reduce_sum_count_partial(__global const float *in, uint n,
                                       __global float *part_sum, __global int *part_count,
                                       __local float *ssum, __local int *scount) {
    uint lid = get_local_id(0), lsize = get_local_size(0), group = get_group_id(0);
    float s = 0.0f;
    int c = 0;
    for (uint i = group * lsize + lid; i < n; i += get_num_groups(0) * lsize) {
        float x = in[i];
        s += x;
        c += x > 0.0f;
    }
    ssum[lid] = s;
    scount[lid] = c;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = lsize / 2; stride > 0; stride /= 2) {
        if (lid < stride) {
            ssum[lid] += ssum[lid + stride];
            scount[lid] += scount[lid + stride];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        part_sum[group] = ssum[0];
        part_count[group] = scount[0];
    }
}

__kernel void reduce_sum_count_final(__global const float *part_sum,
                                     __global const int *part_count, uint parts,
                                     __global float *out_sum, __global int *out_count) {
    __local float ssum[64];
    __local int scount[64];
    uint lid = get_local_id(0);
    float s = 0.0f;
    int c = 0;
    for (uint i = lid; i < parts; i += 64) {
        s += part_sum[i];
        c += part_count[i];
    }
    ssum[lid] = s;
    scount[lid] = c;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = 32; stride > 0; stride /= 2) {
        if (lid < stride) {
            ssum[lid] += ssum[lid + stride];
            scount[lid] += scount[lid + stride];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        out_sum[0] = ssum[0];
        out_count[0] = scount[0];
    }
}
