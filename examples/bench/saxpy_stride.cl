// out = a·x + y over n floats with a grid-stride loop: each work-item starts at its global id
// and steps by the whole grid's size, so any grid covers any n and consecutive work-items
// read consecutive floats (the coalesced streaming pattern of the CUDA/HIP "grid-stride loop"
// idiom and of STREAM's triad). Two loads and one store per element, little arithmetic.
__kernel void saxpy_grid_stride(__global float *out, __global const float *x,
                                __global const float *y, float a, uint n) {
    uint stride = get_global_size(0);
    for (uint i = get_global_id(0); i < n; i += stride)
        out[i] = a * x[i] + y[i];
}
