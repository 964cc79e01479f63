// GPU cross-check of TileScope's Philox (resources/ts_device/philox.cuh) against cuRAND's own
// device API: for many (seed, subsequence, offset) triples, every thread draws with both
// curand_init/curand/curand_uniform/curand_normal(_double) and ts::rng_*, and the bits are
// compared (uint32 and uniform exactly; normal to 4 ulp-ish, both use __sincosf / sincospi).
// Built by bench/h200_lang_dtype.sh with nvcc when the GPU machine has it.
#include <cstdio>
#include <cstring>
#include <curand_kernel.h>
namespace ts {
#define TS_HD __host__ __device__ __forceinline__
#define TS_D __device__ __forceinline__
#include "../../resources/ts_device/philox.cuh"
#undef TS_HD
}

constexpr int kDraws = 40;
__constant__ unsigned long long kSeeds[6] = {0ull, 42ull, 123ull, 0xffffffffull, 1234567890123ull, ~0ull};

__global__ void draw(unsigned* bad, unsigned* badUni, unsigned* badNormal, float* maxNormalErr) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long seed = kSeeds[t % 6];
    const unsigned long long seq = (unsigned long long)(t / 6) * 0x10001ull;
    const unsigned long long off = (unsigned long long)t * 37ull + (t & 3);
    curandStatePhilox4_32_10_t c;
    ts::PhiloxState s;
    curand_init(seed, seq, off, &c);
    ts::rng_init(s, seed, seq, off);
    for (int i = 0; i < kDraws; ++i) {
        if (curand(&c) != ts::rng_next(s)) atomicAdd(bad, 1u);
        if (curand_uniform(&c) != ts::rng_uniform(s)) atomicAdd(badUni, 1u);
        const float a = curand_normal(&c), b = ts::rng_normal(s);
        const double ad = curand_normal_double(&c), bd = ts::rng_normal_double(s);
        const float e = fabsf(a - b);
        if (e > 1e-5f * (1.0f + fabsf(a)) || fabs(ad - bd) > 1e-12 * (1.0 + fabs(ad))) atomicAdd(badNormal, 1u);
        atomicMax(reinterpret_cast<int*>(maxNormalErr), __float_as_int(e));
        if (curand_uniform_double(&c) != ts::rng_uniform_double(s)) atomicAdd(badUni, 1u);
    }
}

int main() {
    unsigned *d;
    cudaMalloc(&d, 16);
    cudaMemset(d, 0, 16);
    draw<<<64, 96>>>(d, d + 1, d + 2, reinterpret_cast<float*>(d + 3));
    unsigned h[4];
    cudaError_t err = cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) { std::printf("CUDA error %s\n", cudaGetErrorString(err)); return 2; }
    float maxErr;
    std::memcpy(&maxErr, &h[3], 4);
    std::printf("threads %d x %d draws: uint32 mismatches %u, uniform mismatches %u, normal out of tolerance %u (max |diff| %g)\n",
                64 * 96, kDraws, h[0], h[1], h[2], maxErr);
    return (h[0] || h[1] || h[2]) ? 1 : 0;
}
