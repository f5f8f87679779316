// Inclusive prefix sum of a workgroup (up to 1024 work-items). Each 32-lane group scans its
// values with ds_bpermute_b32 (Hillis-Steele, 5 steps); the group totals go through LDS and
// each group adds the totals of the groups before it. 32-lane groups, not waves: in wave64,
// ds_bpermute_b32 permutes within each 32-lane half (spec 000, LDS lane permutes), so a lane
// index only reaches lanes of its own half.
__kernel void scan(__global const int *in, __global int *out) {
    __local int totals[32];
    int l = __builtin_amdgcn_workitem_id_x();
    int g = __builtin_amdgcn_workgroup_id_x();
    int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0));
    int lane32 = lane & 31;
    int block = __builtin_amdgcn_workgroup_size_x();
    int x = in[g * block + l];
    for (int off = 1; off < 32; off *= 2) {
        int y = __builtin_amdgcn_ds_bpermute((lane - off) * 4, x);
        if (lane32 >= off) x += y;
    }
    if (lane32 == 31) totals[l / 32] = x;
    __builtin_amdgcn_s_barrier();
    for (int i = 0; i < l / 32; i++) x += totals[i];
    out[g * block + l] = x;
}
