// out = inᵀ for a row-major float matrix of height rows × width columns, through a 32×33 LDS
// tile (one column of padding, so reading the tile by column hits 32 different banks), as in
// the CUDA/HIP sample transposes. A 2-D grid of ceil(width/32) × ceil(height/32) blocks of
// 32×8 threads: each thread moves 32/blockDim.y elements; edges are guarded.
#include <hip/hip_runtime.h>

#define TILE 32

__global__ void transpose_tiled_padded(float *out, const float *in, int width, int height) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
