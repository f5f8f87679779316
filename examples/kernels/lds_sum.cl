// LDS tree: 64 values of a workgroup into LDS, lane 0 sums them.
__kernel void lds_sum(__global const int *in, __global int *out) {
    __local int tile[64];
    int l = __builtin_amdgcn_workitem_id_x();
    int g = __builtin_amdgcn_workgroup_id_x();
    tile[l] = in[g * 64 + l];
    __builtin_amdgcn_s_barrier();
    if (l == 0) {
        int s = 0;
        for (int i = 0; i < 64; i++) s += tile[i];
        out[g] = s;
    }
}
