// A tile transpose whose LDS index drops a factor: the store meant for tile[ty][tx] writes
// tile[ty][tx / 2], so pairs of lanes of one store write different values to one word and
// half the tile is never written (those words are only copied out: not a use, not reported).
// `gpumemsim check` reports lane_collision at the store.
__kernel void transpose_collide(__global const float *in, __global float *out, uint n) {
    __local float tile[16][17];
    uint tx = get_local_id(0), ty = get_local_id(1);
    uint x = get_group_id(0) * 16 + tx, y = get_group_id(1) * 16 + ty;
    tile[ty][tx / 2] = in[y * n + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint ox = get_group_id(1) * 16 + tx, oy = get_group_id(0) * 16 + ty;
    out[oy * n + ox] = tile[tx][ty];
}
