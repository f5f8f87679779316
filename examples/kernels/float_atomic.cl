// Float atomic accumulation: every work-item adds its input to one of `bins` sums, first in
// LDS (ds_add_f32), then each workgroup's sums into global memory (global_atomic_add_f32).
__kernel void float_atomic(__global const float *in, __global float *sums, uint bins) {
    __local float acc[64];
    uint l = __builtin_amdgcn_workitem_id_x();
    uint g = __builtin_amdgcn_workgroup_id_x();
    uint block = __builtin_amdgcn_workgroup_size_x();
    if (l < bins) acc[l] = 0.0f;
    __builtin_amdgcn_s_barrier();
    __atomic_fetch_add(&acc[l % bins], in[g * block + l], __ATOMIC_RELAXED);
    __builtin_amdgcn_s_barrier();
    if (l < bins) __atomic_fetch_add(&sums[l], acc[l], __ATOMIC_RELAXED);
}
