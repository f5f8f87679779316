// A 32×32-tile transpose through LDS whose tile rows are padded by PAD floats (PAD = 0: the
// naive layout, every column read on one bank; PAD = 1: the classic fix). Built with
// -DPAD=N; run with a 2-D grid of (width/32) × (height/32) workgroups of 32 × ROWS work-items.
#ifndef PAD
#define PAD 0
#endif
#define T 32
__kernel void transpose_pad(__global float *out, __global const float *in, int width,
                            int height) {
    __local float tile[T * (T + PAD)];
    int tx = get_local_id(0), ty = get_local_id(1), rows = get_local_size(1);
    int x = get_group_id(0) * T + tx, y = get_group_id(1) * T + ty;
    for (int j = 0; j < T; j += rows)
        tile[(ty + j) * (T + PAD) + tx] = in[(y + j) * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * T + tx;
    y = get_group_id(0) * T + ty;
    for (int j = 0; j < T; j += rows)
        out[(y + j) * height + x] = tile[tx * (T + PAD) + ty + j];
}
