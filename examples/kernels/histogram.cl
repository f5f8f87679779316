// A 256-bin byte histogram: each workgroup counts its slice of the input with LDS atomics
// (ds_add_u32), then adds its bins to the global histogram with global atomics.
__kernel void histogram(__global const uchar *in, __global uint *hist, uint per_group) {
    __local uint bins[256];
    uint l = __builtin_amdgcn_workitem_id_x();
    uint g = __builtin_amdgcn_workgroup_id_x();
    bins[l] = 0;
    __builtin_amdgcn_s_barrier();
    for (uint i = l; i < per_group; i += 256)
        __atomic_fetch_add(&bins[in[g * per_group + i]], 1u, __ATOMIC_RELAXED);
    __builtin_amdgcn_s_barrier();
    __atomic_fetch_add(&hist[l], bins[l], __ATOMIC_RELAXED);
}
