// Shared-memory bank probe: runs each pattern of a patterns file (tools/nvidia_banks/patterns.py)
// as one warp's single LDS/STS instruction, so that Nsight Compute's per-launch counters
// (shared-memory wavefronts, bank conflicts) belong to exactly that access.
//   probe PATTERNS [OP]   one launch per pattern (of operation OP only, if given); run it under
//                         ncu. Prints "launch N NAME" per launch, in order.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,               \
                    cudaGetErrorString(e_));                                            \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

constexpr int kSharedBytes = 32768;

// One shared-memory instruction of width W bytes at shared address s: a load, a store or
// (ATOM, 32 bits) an atomic add that returns the old value.
template <int W, bool STORE, bool ATOM = false>
__device__ __forceinline__ void access(unsigned s, unsigned& r0, unsigned& r1, unsigned& r2,
                                       unsigned& r3) {
    if (ATOM) {
        asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(r0) : "r"(s), "r"(r1) : "memory");
    } else if (STORE) {
        if (W == 4) asm volatile("st.shared.u32 [%0], %1;" ::"r"(s), "r"(r0) : "memory");
        if (W == 8)
            asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(s), "r"(r0), "r"(r1)
                         : "memory");
        if (W == 16)
            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(s), "r"(r0), "r"(r1),
                         "r"(r2), "r"(r3)
                         : "memory");
    } else {
        if (W == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(s) : "memory");
        if (W == 8)
            asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(s)
                         : "memory");
        if (W == 16)
            asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                         : "r"(s)
                         : "memory");
    }
}

// One warp, one instruction: lane i at byte addr[i] when bit i of mask is set.
template <int W, bool STORE, bool ATOM = false>
__global__ void once(const unsigned* addr, unsigned mask, unsigned* out) {
    __shared__ __align__(16) unsigned char smem[kSharedBytes];
    unsigned lane = threadIdx.x;
    unsigned s = (unsigned)__cvta_generic_to_shared(smem) + addr[lane];
    unsigned r0 = lane, r1 = lane + 1, r2 = lane + 2, r3 = lane + 3;
    if ((mask >> lane) & 1) access<W, STORE, ATOM>(s, r0, r1, r2, r3);
    out[lane] = r0 ^ r1 ^ r2 ^ r3;
}

struct Pattern {
    std::string name, op;
    unsigned mask;
    unsigned addr[32];
};

static std::vector<Pattern> read_patterns(const char* path) {
    std::ifstream in(path);
    if (!in) {
        fprintf(stderr, "%s: cannot open\n", path);
        exit(1);
    }
    std::vector<Pattern> out;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        n++;
        std::istringstream ls(line);
        Pattern p;
        std::string mask, addrs;
        if (!(ls >> p.name >> p.op >> mask >> addrs)) {
            fprintf(stderr, "%s:%d: expected NAME OP MASK ADDRS\n", path, n);
            exit(1);
        }
        p.mask = (unsigned)strtoul(mask.c_str(), nullptr, 16);
        std::istringstream as(addrs);
        std::string a;
        for (int i = 0; i < 32; i++) {
            if (!std::getline(as, a, ',')) {
                fprintf(stderr, "%s:%d: fewer than 32 addresses\n", path, n);
                exit(1);
            }
            p.addr[i] = (unsigned)strtoul(a.c_str(), nullptr, 10);
        }
        out.push_back(p);
    }
    return out;
}

typedef void (*OnceKernel)(const unsigned*, unsigned, unsigned*);

static OnceKernel kernel_for(const std::string& op) {
#define OP(NAME, W, ST) \
    if (op == NAME) return once<W, ST>;
    OP("lds.32", 4, false) OP("lds.64", 8, false) OP("lds.128", 16, false)
    OP("sts.32", 4, true) OP("sts.64", 8, true) OP("sts.128", 16, true)
#undef OP
    if (op == "atoms.32") return once<4, false, true>;
    return nullptr;
}

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s PATTERNS [OP]\n", argv[0]);
        return 2;
    }
    std::vector<Pattern> patterns = read_patterns(argv[1]);
    unsigned *d_addr, *d_out;
    CHECK(cudaMalloc(&d_addr, 32 * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_out, 32 * sizeof(unsigned)));
    int launch = 0;
    for (const Pattern& p : patterns) {
        if (argc > 2 && p.op != argv[2]) continue;
        OnceKernel kernel = kernel_for(p.op);
        if (!kernel) {
            fprintf(stderr, "%s: unknown op %s\n", p.name.c_str(), p.op.c_str());
            return 1;
        }
        CHECK(cudaMemcpy(d_addr, p.addr, sizeof p.addr, cudaMemcpyHostToDevice));
        kernel<<<1, 32>>>(d_addr, p.mask, d_out);
        CHECK(cudaDeviceSynchronize());
        printf("launch %d %s\n", launch++, p.name.c_str());
    }
    fflush(stdout);
    return 0;
}
