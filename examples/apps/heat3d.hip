// One explicit step of the 3-D heat equation (PolyBench's heat-3d, coefficient 1/8) on an
// nx×ny×nz float grid, x fastest: interior points get
//   c + 1/8·(e − 2c + w) + 1/8·(n − 2c + s) + 1/8·(u − 2c + d),
// boundary points are copied. A 3-D grid of 3-D blocks, one thread per point, edges guarded.
#include <hip/hip_runtime.h>

__global__ void heat3d_7point(const float *in, float *out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    int sy = nx, sz = nx * ny, i = z * sz + y * sy + x;
    float c = in[i];
    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
        out[i] = c;
        return;
    }
    out[i] = c + 0.125f * (in[i + 1] - 2.0f * c + in[i - 1])
               + 0.125f * (in[i + sy] - 2.0f * c + in[i - sy])
               + 0.125f * (in[i + sz] - 2.0f * c + in[i - sz]);
}
