// Uses all three work-item and workgroup ids.
__kernel void grid3d(__global int *out) {
    int x = __builtin_amdgcn_workitem_id_x();
    int y = __builtin_amdgcn_workitem_id_y();
    int z = __builtin_amdgcn_workitem_id_z();
    int gx = __builtin_amdgcn_workgroup_id_x();
    int gy = __builtin_amdgcn_workgroup_id_y();
    int gz = __builtin_amdgcn_workgroup_id_z();
    out[x + 4 * y + 16 * z] = gx + 100 * gy + 10000 * gz;
}
