// One wave64 multiplies matrix tiles on the matrix cores with the MFMA builtins clang maps to
// gfx942's v_mfma_* instructions, each lane loading the elements that AMD's register layout
// (CDNA3 ISA guide, "Matrix fused-multiply-add") gives it:
// - mfma_f16_16x16x16: D = A·B + C, A 16×16 and B 16×16 f16, C and D 16×16 f32, row-major;
// - mfma_f32_32x32x2: D = A·B + C, A 32×2, B 2×32 f32, C and D 32×32 f32, accumulated over
//   K = 8 (four instructions, the result kept in AGPRs between them).
#include <hip/hip_runtime.h>

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef float floatx16 __attribute__((ext_vector_type(16)));

__global__ void mfma_f16_16x16x16(const _Float16 *A, const _Float16 *B, const float *C,
                                  float *D) {
    int lane = threadIdx.x;
    int rc = lane % 16, k0 = (lane / 16) * 4;
    half4 a, b;
    for (int j = 0; j < 4; j++) {
        a[j] = A[rc * 16 + k0 + j];
        b[j] = B[(k0 + j) * 16 + rc];
    }
    floatx4 c;
    for (int r = 0; r < 4; r++)
        c[r] = C[(4 * (lane / 16) + r) * 16 + rc];
    floatx4 d = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0);
    for (int r = 0; r < 4; r++)
        D[(4 * (lane / 16) + r) * 16 + rc] = d[r];
}

__global__ void mfma_f32_32x32x8(const float *A, const float *B, const float *C, float *D) {
    int lane = threadIdx.x;
    int rc = lane % 32, half = lane / 32;
    floatx16 acc;
    for (int r = 0; r < 16; r++)
        acc[r] = C[((r / 4) * 8 + 4 * half + r % 4) * 32 + rc];
    for (int k = 0; k < 8; k += 2) {
        float a = A[rc * 8 + k + half];
        float b = B[(k + half) * 32 + rc];
        acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, acc, 0, 0, 0);
        // Keep the accumulator in AGPRs between the instructions, as register-hungry GEMM
        // kernels do.
        asm volatile("" : "+a"(acc));
    }
    for (int r = 0; r < 16; r++)
        D[((r / 4) * 8 + 4 * half + r % 4) * 32 + rc] = acc[r];
}
