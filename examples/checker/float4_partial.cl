// Writes three components of a float4 in LDS; the compiler makes it a 16-byte load and a
// 16-byte store, so the never-written w is read and written back unchanged: copied, never
// used, so not a finding.
__kernel void xyz_sum(__global const float4 *in, __global float *out) {
    __local float4 t[128];
    uint l = get_local_id(0);
    float4 v = in[get_global_id(0)];
    t[l].xyz = v.xyz * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 u = t[127 - l];
    out[get_global_id(0)] = u.x + u.y + u.z;
}
