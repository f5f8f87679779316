// Reverses a block of {int, char} records through LDS. Copying a record copies its three
// bytes of padding, which nothing wrote: moved, never used, so not a finding.
typedef struct {
    int key;
    char tag;
} record;

__kernel void reverse_records(__global const int *in, __global record *out) {
    __local record t[128];
    uint l = get_local_id(0);
    t[l].key = in[get_global_id(0)];
    t[l].tag = (char)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[127 - l];
}
