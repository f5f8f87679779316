// One step of a 5-point integer Laplacian on a width×height grid (Rodinia's hotspot and
// PolyBench's jacobi-2d have this shape): out = 4·c − north − south − west − east, with
// coordinates clamped at the borders. Each 16×16 workgroup stages its tile and a one-cell
// halo (18×18) in LDS first. Launch with a 2-D grid of ceil(width/16) × ceil(height/16)
// workgroups of 16×16; work-items past the edge only help load the tile.
#define B 16
#define T (B + 2)

__kernel void laplace5_tiled(__global const int *in, __global int *out, int width, int height) {
    __local int tile[T][T];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x0 = get_group_id(0) * B - 1, y0 = get_group_id(1) * B - 1;
    for (int i = ly * B + lx; i < T * T; i += B * B) {
        int ty = i / T, tx = i % T;
        int sx = clamp(x0 + tx, 0, width - 1);
        int sy = clamp(y0 + ty, 0, height - 1);
        tile[ty][tx] = in[sy * width + sx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int gx = get_global_id(0), gy = get_global_id(1);
    int v = 4 * tile[ly + 1][lx + 1] - tile[ly][lx + 1] - tile[ly + 2][lx + 1]
            - tile[ly + 1][lx] - tile[ly + 1][lx + 2];
    if (gx < width && gy < height)
        out[gy * width + gx] = v;
}
