// A private array indexed by a run-time value: clang keeps it in scratch.
__kernel void private_array(__global const int *in, __global int *out, int k) {
    int a[40];
    int l = __builtin_amdgcn_workitem_id_x();
    for (int i = 0; i < 40; i++) a[i] = in[i] * l;
    out[l] = a[(k + l) % 40];
}
