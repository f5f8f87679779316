// 32x32 tile transpose through LDS in three layouts: naive, padded (+1 column), XOR-swizzled.
#define T 32
__kernel void transpose_naive(__global const float *in, __global float *out) {
    __local float tile[T * T];
    int x = __builtin_amdgcn_workitem_id_x();
    for (int y = 0; y < T; y++) tile[y * T + x] = in[y * T + x];
    __builtin_amdgcn_s_barrier();
    for (int y = 0; y < T; y++) out[y * T + x] = tile[x * T + y];
}
__kernel void transpose_padded(__global const float *in, __global float *out) {
    __local float tile[T * (T + 1)];
    int x = __builtin_amdgcn_workitem_id_x();
    for (int y = 0; y < T; y++) tile[y * (T + 1) + x] = in[y * T + x];
    __builtin_amdgcn_s_barrier();
    for (int y = 0; y < T; y++) out[y * T + x] = tile[x * (T + 1) + y];
}
__kernel void transpose_swizzled(__global const float *in, __global float *out) {
    __local float tile[T * T];
    int x = __builtin_amdgcn_workitem_id_x();
    for (int y = 0; y < T; y++) tile[y * T + (x ^ y)] = in[y * T + x];
    __builtin_amdgcn_s_barrier();
    for (int y = 0; y < T; y++) out[y * T + x] = tile[x * T + (y ^ x)];
}
