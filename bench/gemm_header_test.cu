// Compile-coverage and self-test kernels for resources/ts_device.cuh. Built three ways:
// nvcc --cubin (sm_80, sm_90a), NVRTC with no include paths (bench/gemm_nvrtc_check.cpp) and
// inside bench/gemm_sm80_probe.cu, which runs ts_selftest on the GPU against host conversions.
#include "ts_device.cuh"

/// Converts n floats to each ts type and back on the device: out[4*i + t] holds the raw bits of
/// type t (0 half, 1 bfloat16, 2 fp8_e4m3, 3 fp8_e5m2) of in[i].
extern "C" __global__ void ts_selftest_convert(const float* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    out[4 * i + 0] = ts::half(x).bits;
    out[4 * i + 1] = ts::bfloat16(x).bits;
    out[4 * i + 2] = ts::fp8_e4m3(x).bits;
    out[4 * i + 3] = ts::fp8_e5m2(x).bits;
}

/// Decodes every 16-bit code (half, bf16) and 8-bit code (e4m3, e5m2) to float bits: out[4*c+t].
extern "C" __global__ void ts_selftest_decode(unsigned* out) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= 65536) return;
    out[4 * c + 0] = __float_as_uint(float(ts::half::fromBits((unsigned short)c)));
    out[4 * c + 1] = __float_as_uint(float(ts::bfloat16::fromBits((unsigned short)c)));
    out[4 * c + 2] = __float_as_uint(float(ts::fp8_e4m3::fromBits((unsigned char)(c & 0xff))));
    out[4 * c + 3] = __float_as_uint(float(ts::fp8_e5m2::fromBits((unsigned char)(c & 0xff))));
}

/// One block of 256: reductions, atomics, math. res[0..]: see the host checker in the probe.
extern "C" __global__ void ts_selftest_misc(float* res, ts::half* hacc, ts::bfloat16* bacc, int* iacc) {
    __shared__ float scratch[8];
    const int t = threadIdx.x;
    float v = float(t % 37) - 11.0f;
    float s = ts::warp_allreduce<ts::SumOp, 32>(v);
    float mx = ts::warp_allreduce<ts::MaxOp, 8>(v);
    float amx = ts::warp_allreduce<ts::AbsMaxOp, 32>(v);
    float asum = ts::warp_allreduce<ts::AbsSumOp, 16>(v);
    ts::half hs = ts::warp_allreduce<ts::SumOp, 32>(ts::cast<ts::half>(v));
    ts::bfloat16 bm = ts::warp_allreduce<ts::MinOp, 32>(ts::cast<ts::bfloat16>(v));
    int im = ts::warp_allreduce<ts::MaxOp, 4>(t);
    float bs = ts::block_allreduce<ts::SumOp, 256>(v, scratch);
    ts::atomic_add(hacc, ts::half(0.5f));
    ts::atomic_add(bacc, ts::bfloat16(0.25f));
    ts::atomic_add(iacc, 1);
    ts::atomic_add(res + 31, 1.0f);
    if (t == 0 || t == 77) {
        float* r = res + (t == 0 ? 0 : 10);
        r[0] = s; r[1] = mx; r[2] = amx; r[3] = asum; r[4] = float(hs); r[5] = float(bm);
        r[6] = float(im); r[7] = bs;
    }
    if (t == 0) {
        res[20] = ts::exp2f_fast(3.5f);
        res[21] = ts::exp(1.0f);
        res[22] = ts::log2(10.0f);
        res[23] = ts::rsqrt(16.0f);
        res[24] = float(ts::exp(ts::half(2.0f)));
        res[25] = ts::max(ts::ninfinity<float>(), -3.0f);
        res[26] = float(ts::min(ts::infinity<ts::bfloat16>(), ts::bfloat16(7.0f)));
        res[27] = float(ts::abs(-ts::half(1.5f)) * ts::half(2.0f) + ts::half(1.0f));
        res[28] = float(ts::cast<int>(ts::cast<ts::fp8_e4m3>(1000.0)));  // saturates: 448
        res[29] = float(ts::ninfinity<int>() == -2147483647 - 1) + float(ts::infinity<short>() == 32767);
        res[30] = ts::cast<float>(ts::cast<ts::fp8_e5m2>(ts::cast<ts::bfloat16>(3)));
    }
}

// gemm_ss checks: every operand orientation, odd NI, every swizzle mode, both types. A is
// logical [M][K], B logical [K][N] (row-major, global); the kernel stores them into shared memory
// in the orientation TA/TB asks for, swizzled, runs gemm_ss and writes C [M][N] through the
// documented accumulator layout. Launch with WM*WN*32 threads and gemmCaseSmem bytes.
template <int M, int N, int K, int SZ> __host__ __device__ constexpr int gemmCaseSmem() {
    return ((M * K * SZ + 127) / 128) * 128 + K * N * SZ;
}
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SA, int SB, class T>
__device__ void gemmCase(const T* A, const T* B, float* C) {
    extern __shared__ __align__(128) unsigned char smem[];
    constexpr int kE = int(sizeof(T)), kRA = (TA ? M : K) * kE, kRB = (TB ? K : N) * kE;
    T* As = reinterpret_cast<T*>(smem);
    T* Bs = reinterpret_cast<T*>(smem + ((M * K * kE + 127) / 128) * 128);
    for (int i = threadIdx.x; i < M * K; i += blockDim.x) {
        const int m = i / K, k = i % K;
        As[ts::swizzle_elem<kRA, SA, kE>(TA ? k * M + m : m * K + k)] = A[i];
    }
    for (int i = threadIdx.x; i < K * N; i += blockDim.x) {
        const int k = i / N, n = i % N;
        Bs[ts::swizzle_elem<kRB, SB, kE>(TB ? n * K + k : k * N + n)] = B[i];
    }
    __syncthreads();
    constexpr int kMI = M / WM / 16, kNI = N / WN / 8;
    float acc[kMI * kNI * 4];
#pragma unroll
    for (int i = 0; i < kMI * kNI * 4; ++i) acc[i] = 0.f;
    ts::gemm_ss<M, N, K, WM, WN, TA, TB, SA, SB, T>(As, Bs, acc);
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32, wi = w / WN, wj = w % WN;
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int row = wi * (M / WM) + mi * 16 + lane / 4 + 8 * (e / 2);
                const int col = wj * (N / WN) + ni * 8 + 2 * (lane % 4) + (e % 2);
                C[row * N + col] = acc[(mi * kNI + ni) * 4 + e];
            }
}
#define TS_GEMM_CASE(name, M, N, K, WM, WN, TA, TB, SA, SB, T)                              \
    extern "C" __global__ void name(const T* A, const T* B, float* C) {                      \
        gemmCase<M, N, K, WM, WN, TA, TB, SA, SB, T>(A, B, C);                               \
    }
TS_GEMM_CASE(ts_cov_gemm_nn, 64, 64, 32, 2, 2, false, false, 64, 128, ts::half)
TS_GEMM_CASE(ts_cov_gemm_nt, 64, 64, 32, 2, 2, false, true, 128, 64, ts::bfloat16)
TS_GEMM_CASE(ts_cov_gemm_tn, 64, 64, 32, 2, 2, true, false, 128, 128, ts::half)
TS_GEMM_CASE(ts_cov_gemm_tt, 32, 48, 64, 1, 2, true, true, 32, 0, ts::bfloat16)
TS_GEMM_CASE(ts_cov_gemm_small, 32, 16, 16, 2, 1, false, true, 32, 32, ts::half)
TS_GEMM_CASE(ts_cov_gemm_wide, 16, 256, 64, 1, 4, false, false, 128, 128, ts::bfloat16)

extern "C" __global__ void ts_cov_copy(const ts::half* g, float* o) {
    __shared__ __align__(128) ts::half s[256];
    ts::cp_async16(s + 8 * (threadIdx.x % 32), g + 8 * threadIdx.x, threadIdx.x < 16);
    ts::cp_async8(s + 4 * (threadIdx.x % 32) + 128, g, true);
    ts::cp_async4(s + 2 * (threadIdx.x % 32) + 192, g, false);
    ts::cp_async_commit();
    ts::cp_async_wait<0>();
    __syncthreads();
    int4 tmp;
    ts::copy16(&tmp, s + 8 * (threadIdx.x % 32));
    o[threadIdx.x] = float(tmp.x) + float(s[ts::swizzle_elem<64, 64, 2>(threadIdx.x)]);
}
