// Reverses each 128-element block through LDS. At -O2 clang computes 127 - l as 0 - l with
// the 508 folded into the DS offset, so every lane but 0 wraps past 2^32 to the element it
// wants: the hardware's answer, and correct (a note, not a finding).
__kernel void reverse64(__global const int *in, __global int *out) {
    __local int t[128];
    uint l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[127 - l];
}
