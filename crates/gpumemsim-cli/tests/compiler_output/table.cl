// A program-scope lookup table: clang reads `w` PC-relative (s_getpc_b64 + rel32 fix-ups).
__constant float w[4] = {0.25f, 0.5f, 1.5f, -2.0f};
__global int hits = 0;

__kernel void weigh(__global float *out, __global const float *in) {
    int i = get_global_id(0);
    out[i] = in[i] * w[i & 3];
    if (i == 0)
        atomic_add(&hits, 1);
}
