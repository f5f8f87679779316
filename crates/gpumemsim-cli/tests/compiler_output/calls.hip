// Calls as clang emits them: a __device__ table, a non-inlined helper, recursion, calls
// through a function pointer, and a device-side assert.
#include <hip/hip_runtime.h>
#include <cassert>

__device__ int fibs[8] = {1, 1, 2, 3, 5, 8, 13, 21};

__device__ __attribute__((noinline)) int scaled(int x) { return fibs[x & 7] * x + 1; }

__device__ __attribute__((noinline)) int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __attribute__((noinline)) int twice(int x) { return 2 * x; }
__device__ __attribute__((noinline)) int thrice(int x) { return 3 * x; }
typedef int (*unary)(int);

__global__ void calls(int *out, int limit) {
    int i = threadIdx.x;
    unary f = (i & 1) ? twice : thrice;
    int r = scaled(i) + fib(i % 10) + f(i);
    assert(r < limit);
    out[i] = r;
}

__global__ void trapper(int *data) {
    int i = threadIdx.x;
    if (data[i] == 7)
        __builtin_trap();
    data[i] += 1;
}
