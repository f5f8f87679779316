// Reverses each 64-element block through LDS, the ordinary way. clang-19 -O2 computes the
// LDS address of t[63 - l] as (0 - 4l) with 252 folded into the DS instruction's offset:
// `v_sub_nc_u32 v2, 0, v1` + `ds_load_b32 v0, v2 offset:252`. For l > 0 the VGPR holds a
// "negative" address and VGPR + offset passes 2^32 and wraps to 252 - 4l, the element
// wanted: the hardware's 32-bit adder gives the right answer, and LLVM relies on it.
__kernel void reverse64(__global const int *in, __global int *out) {
    __local int t[64];
    int l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[63 - l];
}
