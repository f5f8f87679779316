// A compute-bound loop: every work-item runs `iters` rounds of independent FP32 and integer
// recurrences held in registers (four FMA/multiply-add chains, a linear congruential step and
// an xorshift), in the shape of the arithmetic-intensity microbenchmarks of the ROCm/CUDA
// samples and of mixbench. One load-free pass; two stores per work-item at the end, so the
// run is almost all VALU (and the loop's SALU counter and branch).
// Launch with a 1-D grid; out and out_bits hold one element per work-item.
__kernel void valu_loop(__global float *out, __global uint *out_bits, uint iters) {
    uint gid = get_global_id(0);
    float a = (float)gid * 0.001f;
    float b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
    uint h = gid, k = gid ^ 0x9e3779b9u;
    for (uint i = 0; i < iters; i++) {
        a = fma(a, 0.999f, 0.5f);
        b = fma(b, 1.001f, -0.25f);
        c = c * 0.75f + 0.125f;
        d = d * 0.5f - 1.5f;
        h = h * 1664525u + 1013904223u;
        k ^= k << 13;
        k ^= k >> 17;
        k ^= k << 5;
    }
    out[gid] = (a + b) + (c + d);
    out_bits[gid] = h ^ k;
}
