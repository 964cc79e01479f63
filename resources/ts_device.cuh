// TileScope device header: the one file that generated CUDA C++ includes (DESIGN.md §2 "Codegen").
// It gives 16- and 8-bit float types, conversions, fast math, async copies, the shared-memory
// swizzle contract, tensor-core (mma.sync/ldmatrix) wrappers, the block-level GEMM that T.gemm
// lowers to, warp/block reductions and atomics, all as thin inline-PTX wrappers in namespace ts.
// It includes nothing: it must compile under NVRTC with no include paths and under nvcc alone.
// Everything is header-only and force-inlined, so fragments stay in registers after inlining.
// Hardware facts cite the PTX ISA (version 8.x) section they come from.
#pragma once

#ifndef TS_DEVICE_CUH
#define TS_DEVICE_CUH

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define TS_HD __host__ __device__ __forceinline__
#define TS_D __device__ __forceinline__
#else
#error "ts_device.cuh is CUDA C++: compile it with nvcc or NVRTC"
#endif

namespace ts {

#include "ts_device/portable.cuh"  // types, cast, max/min, swizzle, reduction ops (inlined when embedded)
#include "ts_device/raster.cuh"    // T.use_swizzle block rasterization (inlined when embedded)
#ifdef TS_RNG
#include "ts_device/philox.cuh"  // T.rng_* Philox4x32-10 (only when a kernel draws random numbers)
#endif

// ============================================================================================
// Math
// ============================================================================================

/// 2^x, ex2.approx.ftz.f32 (PTX ISA §9.7.3.21): max rel. error 2^-22.5, subnormals flushed.
TS_D float exp2f_fast(float x) {
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
/// T.fast_rcp: 1/x, rcp.approx.ftz.f32 (PTX ISA, floating-point `rcp`: rcp.approx.f32 is within
/// 1 ulp, .ftz flushes subnormals; TileLang's tl::fast_rcp); float64 takes the exact division.
TS_D float fast_rcp(float x) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
TS_D double fast_rcp(double x) { return 1.0 / x; }
/// log2(x), lg2.approx.ftz.f32 (PTX ISA §9.7.3.20): max abs. error 2^-22 on (0.5, 2).
TS_D float log2(float x) {
    float r;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
/// e^x as 2^(x·log2 e) via ex2.approx (fast; a few ulp, the error of the product included).
TS_D float exp(float x) { return exp2f_fast(x * 1.4426950408889634f); }
/// 1/sqrt(x), rsqrt.approx.ftz.f32 (PTX ISA §9.7.3.18): max rel. error 2^-22.9.
TS_D float rsqrt(float x) {
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
/// Low-precision overloads compute in float and round once.
template <class T> TS_D detail::LowpOnly<T> exp(T x) { return T(exp(float(x))); }
template <class T> TS_D detail::LowpOnly<T> log2(T x) { return T(log2(float(x))); }
template <class T> TS_D detail::LowpOnly<T> rsqrt(T x) { return T(rsqrt(float(x))); }

// ============================================================================================
// Memory: vector copies and cp.async (PTX ISA §9.7.9.25)
// ============================================================================================

/// 32-bit shared-window address of a generic pointer into shared memory (cvta.to.shared).
TS_D unsigned smem_u32addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
/// Copies 16 bytes as one int4; both pointers 16-byte aligned, any state spaces.
TS_D void copy16(void* dst, const void* src) {
    *reinterpret_cast<int4*>(dst) = *reinterpret_cast<const int4*>(src);
}
/// Async 16-byte global -> shared copy bypassing L1 (cp.async.cg, L2::128B prefetch). When pred
/// is false the source size is 0, so the 16 destination bytes are zero-filled and nothing is
/// read (gmem_src must still be a valid-looking pointer; pass the tensor base). Both 16-aligned.
TS_D void cp_async16(void* smem_dst, const void* gmem_src, bool pred) {
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(
                     smem_u32addr(smem_dst)),
                 "l"(gmem_src), "r"(pred ? 16 : 0)
                 : "memory");
}
/// Async 8-byte copy through L1 (cp.async.ca); zero-fills when !pred. Both 8-byte aligned.
TS_D void cp_async8(void* smem_dst, const void* gmem_src, bool pred) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(smem_u32addr(smem_dst)),
                 "l"(gmem_src), "r"(pred ? 8 : 0)
                 : "memory");
}
/// Async 4-byte copy through L1 (cp.async.ca); zero-fills when !pred. Both 4-byte aligned.
TS_D void cp_async4(void* smem_dst, const void* gmem_src, bool pred) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_u32addr(smem_dst)),
                 "l"(gmem_src), "r"(pred ? 4 : 0)
                 : "memory");
}
/// Closes the current group of this thread's cp.async copies (cp.async.commit_group).
TS_D void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
/// Waits until at most N of this thread's committed groups are pending (cp.async.wait_group N).
/// Other threads' copies are visible only after a following barrier (__syncthreads).
template <int N> TS_D void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
/// This thread's arrival on the mbarrier at `bar`, made once all of its earlier cp.async copies
/// have completed; .noinc: the arrival is one of the barrier's initial count
/// (cp.async.mbarrier.arrive.noinc, PTX ISA §9.7.9.25.3.4; sm_80+; T.cp_async_barrier_noinc).
TS_D void cp_async_arrive_noinc(unsigned long long* bar) {
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];\n" ::"r"(smem_u32addr(bar)) : "memory");
}

// ============================================================================================
// Tensor cores: ldmatrix (PTX ISA §9.7.14.5.15) and mma.sync m16n8k16 (§9.7.14.5.8)
// ============================================================================================

/// Loads four 8x8 b16 matrices; lane l gives the row address of matrix l/8, row l%8 (16 bytes,
/// 16-aligned, shared). d[i] receives matrix i in the mma fragment layout (lane holds row
/// lane/4, cols 2*(lane%4)+{0,1}).
TS_D void ldmatrix_x4(unsigned (&d)[4], unsigned smem_addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(smem_addr));
}
/// As ldmatrix_x4, each matrix transposed (lane holds col lane/4, rows 2*(lane%4)+{0,1}).
TS_D void ldmatrix_x4_trans(unsigned (&d)[4], unsigned smem_addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(smem_addr));
}
/// Two 8x8 b16 matrices; lanes 0-15 give the row addresses (lanes 16-31 ignored but valid).
TS_D void ldmatrix_x2(unsigned (&d)[2], unsigned smem_addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(smem_addr));
}
/// Transposed ldmatrix_x2.
TS_D void ldmatrix_x2_trans(unsigned (&d)[2], unsigned smem_addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(smem_addr));
}

/// D = A·B + D, one warp, m16n8k16, A row-major 16x16, B col-major 16x8, f32 accumulate
/// (mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32, PTX ISA §9.7.14.5.8).
/// T = ts::half or ts::bfloat16. a: 4 regs (2 elems each), b: 2 regs, d: 4 floats; lane layout:
/// a{0,1,2,3} = (row g, k 2t..), (row g+8, k 2t..), (row g, k 8+2t..), (row g+8, k 8+2t..);
/// b{0,1} = (k 2t.., col g), (k 8+2t.., col g); d{e} = (row g + 8*(e/2), col 2t + e%2),
/// with g = lane/4, t = lane%4.
template <class T> TS_D void mma_m16n8k16_f32(float* d, const unsigned* a, const unsigned* b) {
    static_assert(detail::IsSame<T, half>::value || detail::IsSame<T, bfloat16>::value,
                  "ts::mma_m16n8k16_f32: T must be ts::half or ts::bfloat16");
    if constexpr (detail::IsSame<T, half>::value) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
}

// ============================================================================================
// Block-level GEMM from shared memory (T.gemm lowering, sm_80 path)
// ============================================================================================

/// Shapes, warp grid and row bytes of a block GEMM from shared memory (GemmSS, GemmSSAtom):
/// E = operand element bytes, AK = K of one mma atom. Checks what the m16n8 atoms and the
/// swizzle need; kMI x kNI atoms per warp tile, kKI k-steps, kAcc accumulator values per thread.
/// LDA/LDB (elements, 0 = the operand's own row) are the stored row length of the tile the
/// operand is a sub-region of, OFFA/OFFB (elements) the offset of the operand's origin from
/// that tile's base (row0 * LD + col0): a T.gemm of Q_shared[:, 64:128] reads Q_shared in place.
/// The swizzle is that of the parent tile (rows of kPA/kPB bytes, anchored at its base).
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SWZ_A, int SWZ_B, int E, int AK,
          int LDA = 0, int OFFA = 0, int LDB = 0, int OFFB = 0>
struct GemmTiling {
    static_assert(WM > 0 && WN > 0 && M % WM == 0 && N % WN == 0,
                  "ts::gemm_ss: M must divide by WM and N by WN (warp grid)");
    static_assert((M / WM) % 16 == 0, "ts::gemm_ss: warp tile rows M/WM must be a multiple of 16");
    static_assert((N / WN) % 8 == 0, "ts::gemm_ss: warp tile cols N/WN must be a multiple of 8");
    static_assert(K % AK == 0, "ts::gemm_ss: K must be a multiple of the mma atom's K");
    static constexpr int kE = E;
    static constexpr int kRA = (TA ? M : K) * kE, kRB = (TB ? K : N) * kE;  // operand row bytes
    // Stored row bytes (the swizzle's rows, the row stride) and byte offset of the origin.
    static constexpr int kPA = LDA ? LDA * kE : kRA, kPB = LDB ? LDB * kE : kRB;
    static constexpr int kOA = OFFA * kE, kOB = OFFB * kE;
    static_assert(kPA >= kRA && kPB >= kRB && kOA % 16 == 0 && kOB % 16 == 0,
                  "ts::gemm_ss: a sub-tile operand must lie in its parent's rows, 16-byte aligned");
    static_assert(SWZ_A == 0 || kPA % 128 == 0 || 128 % kPA == 0,
                  "ts::gemm_ss: swizzled A rows must be a multiple or a divisor of 128 bytes");
    static_assert(SWZ_B == 0 || kPB % 128 == 0 || 128 % kPB == 0,
                  "ts::gemm_ss: swizzled B rows must be a multiple or a divisor of 128 bytes");
    static constexpr int kWTM = M / WM, kWTN = N / WN;
    static constexpr int kMI = kWTM / 16, kNI = kWTN / 8, kKI = K / AK, kAcc = kMI * kNI * 4;
};

/// Warp-level pieces of the block GEMM C[M,N] += op(A)·op(B) from shared memory (f32 accumulate),
/// exposed separately so that a pipelined main loop can load the fragments of the next k16 step
/// (possibly from the next stage, across the barrier) while the current one issues mma.
/// As: [M][K] row-major if !TA, else [K][M]; Bs: [K][N] if !TB, else [N][K]; each swizzled with
/// swizzle<rowBytes, SWZ> (rowBytes = inner extent * sizeof(T)) relative to its own base, which
/// must be 128-byte aligned. T = ts::half or ts::bfloat16. WM*WN warps, threadIdx.x linear; warp
/// w = (threadIdx.x/32) % (WM*WN) (a T.ws warp role of WM*WN warps from a multiple of them) owns warp tile (wi, wj) = (w/WN, w%WN) of (M/WM) x (N/WN): kMI = (M/WM)/16
/// by kNI = (N/WN)/8 mma atoms; kKI = K/16 k-steps.
/// Accumulator contract (codegen, interpreter and layout views use the same): acc has kAcc =
/// kMI*kNI*4 floats per thread; acc[(mi*kNI + ni)*4 + e] is C row wi*(M/WM) + mi*16 + lane/4 +
/// 8*(e/2), col wj*(N/WN) + ni*8 + 2*(lane%4) + (e%2) (the m16n8k16 C fragment, §9.7.14.5.8).
/// Fragments come from ldmatrix, .trans for an operand that is not K-contiguous (B when !TB, A
/// when TA). Index acc and Frags only with compile-time constants (fully unrolled), so they stay
/// in registers. The fastest main loop measured on H200 (bench/gemm_sm80_probe.cu, "structure
/// B") calls load/mma directly so that step 0 of the next k-tile loads before the last mma of
/// this one; gemm_ss below is the simple per-tile form.
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SWZ_A, int SWZ_B, typename T,
          int LDA = 0, int OFFA = 0, int LDB = 0, int OFFB = 0>
struct GemmSS : GemmTiling<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, int(sizeof(T)), 16, LDA, OFFA, LDB, OFFB> {
    static_assert(detail::IsSame<T, half>::value || detail::IsSame<T, bfloat16>::value,
                  "ts::gemm_ss: T must be ts::half or ts::bfloat16 (fp32 accumulate)");
    using Tiling = GemmTiling<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, int(sizeof(T)), 16, LDA, OFFA, LDB, OFFB>;
    // Addresses use the stored rows kPA/kPB and the origin offsets kOA/kOB (GemmTiling).
    using Tiling::kE, Tiling::kWTM, Tiling::kWTN, Tiling::kMI, Tiling::kNI, Tiling::kKI, Tiling::kOA, Tiling::kOB;
    static constexpr int kRA = Tiling::kPA, kRB = Tiling::kPB;

    /// One k16 step of operand fragments for this warp: a[mi] = A rows mi*16.., b[ni] = B cols
    /// ni*8.. (mma_m16n8k16_f32 register layout).
    struct Frags {
        unsigned a[kMI][4];
        unsigned b[kNI][2];
    };

    /// Loads the fragments of k-step kk (0 <= kk < kKI, compile-time after unrolling) for the
    /// calling warp: kMI ldmatrix.x4 for A, ceil(kNI/2) ldmatrix.x4 (x2 for an odd last) for B.
    static __device__ __forceinline__ void load(const T* As, const T* Bs, int kk, Frags& f) {
        loadA(As, kk, f.a);
        loadB(Bs, kk, f.b);
    }
    /// The A half of load: kMI ldmatrix.x4.
    static __device__ __forceinline__ void loadA(const T* As, int kk, unsigned (&fa)[kMI][4]) {
        const int lane = int(threadIdx.x) & 31, warp = (int(threadIdx.x) >> 5) % (WM * WN);
        const int m0 = (warp / WN) * kWTM;
        const unsigned aBase = smem_u32addr(As);
        const int k = kk * 16;
        // Lane -> stored (row, col) of the ldmatrix row it addresses (matrix q = lane/8; loadB
        // uses the B lines):
        //  !TA x4:       q -> (rows 0-7|8-15) x (k 0-7|8-15): row lane%16, k 8*(lane/16).
        //  TA x4.trans:  stored [k][m]: m 8*(q%2), k lane%8 + 8*(q/2).
        //  !TB x4.trans: stored [k][n]: k lane%8 + 8*(q%2), n 8*(q/2)  -> (ni, ni+1) pairs.
        //  TB x4:        stored [n][k]: n lane%8 + 8*(q/2), k 8*(q%2).
        const int l7 = lane & 7, q0 = (lane >> 3) & 1, q1 = lane >> 4;
        // Register economy: a step of 16 stored rows adds exactly 16*rowBytes to the swizzled
        // offset when rowBytes >= 64 (the XOR key repeats every 8 rows, or every 16 rows of 64
        // B, and 16*rowBytes is a multiple of 128). The row-step direction then becomes an
        // immediate, so only one address register per k-step (!TA, TB), per mi (TA) or per ni
        // pair (!TB) stays live across the main loop instead of one per ldmatrix.
        constexpr bool kAStep = SWZ_A == 0 || kRA >= 64;
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi) {
            const int m = m0 + mi * 16;
            unsigned addr;
            if constexpr (!TA && kAStep) {
                addr = aBase + unsigned(swizzle<kRA, SWZ_A>(kOA + (m0 + (lane & 15)) * kRA + (k + 8 * q1) * kE)) +
                       unsigned(mi * 16 * kRA);
            } else if constexpr (TA && kAStep) {
                addr = aBase + unsigned(swizzle<kRA, SWZ_A>(kOA + (l7 + 8 * q1) * kRA + (m + 8 * q0) * kE)) +
                       unsigned(k * kRA);
            } else {
                const int r = TA ? (k + l7 + 8 * q1) : (m + (lane & 15));
                const int c = TA ? (m + 8 * q0) : (k + 8 * q1);
                addr = aBase + unsigned(swizzle<kRA, SWZ_A>(kOA + r * kRA + c * kE));
            }
            if constexpr (TA) ldmatrix_x4_trans(fa[mi], addr);
            else ldmatrix_x4(fa[mi], addr);
        }
    }
    /// The B half of load: ceil(kNI/2) ldmatrix (gemm_rs uses it alone).
    static __device__ __forceinline__ void loadB(const T* Bs, int kk, unsigned (&fb)[kNI][2]) {
        const int lane = int(threadIdx.x) & 31, warp = (int(threadIdx.x) >> 5) % (WM * WN);
        const int n0 = (warp % WN) * kWTN;
        const unsigned bBase = smem_u32addr(Bs);
        const int k = kk * 16;
        // Lane -> stored (row, col) of each ldmatrix row, and the row-step economy: see loadA.
        const int l7 = lane & 7, q0 = (lane >> 3) & 1, q1 = lane >> 4;
        constexpr bool kBStep = SWZ_B == 0 || kRB >= 64;
#pragma unroll
        for (int ni = 0; ni + 1 < kNI; ni += 2) {
            const int n = n0 + ni * 8;
            unsigned addr;
            if constexpr (!TB && kBStep) {
                addr = bBase + unsigned(swizzle<kRB, SWZ_B>(kOB + (l7 + 8 * q0) * kRB + (n + 8 * q1) * kE)) +
                       unsigned(k * kRB);
            } else if constexpr (TB && kBStep) {
                addr = bBase + unsigned(swizzle<kRB, SWZ_B>(kOB + (n0 + l7 + 8 * q1) * kRB + (k + 8 * q0) * kE)) +
                       unsigned(ni * 8 * kRB);
            } else {
                const int r = TB ? (n + l7 + 8 * q1) : (k + l7 + 8 * q0);
                const int c = TB ? (k + 8 * q0) : (n + 8 * q1);
                addr = bBase + unsigned(swizzle<kRB, SWZ_B>(kOB + r * kRB + c * kE));
            }
            unsigned t[4];  // {b0(ni), b1(ni), b0(ni+1), b1(ni+1)} in both orientations
            if constexpr (TB) ldmatrix_x4(t, addr);
            else ldmatrix_x4_trans(t, addr);
            fb[ni][0] = t[0];
            fb[ni][1] = t[1];
            fb[ni + 1][0] = t[2];
            fb[ni + 1][1] = t[3];
        }
        if constexpr (kNI % 2 == 1) {  // odd last n8 block: x2, lanes 0-15 address k 0-7 | 8-15
            const int n = n0 + (kNI - 1) * 8;
            const int r = TB ? (n + l7) : (k + (lane & 15));
            const int c = TB ? (k + 8 * q0) : n;
            const unsigned addr = bBase + unsigned(swizzle<kRB, SWZ_B>(kOB + r * kRB + c * kE));
            if constexpr (TB) ldmatrix_x2(fb[kNI - 1], addr);
            else ldmatrix_x2_trans(fb[kNI - 1], addr);
        }
    }

    /// acc += the k16 step held in f: kMI*kNI mma.sync, serpentine over ni so that consecutive
    /// mma share an operand register.
    static __device__ __forceinline__ void mma(const Frags& f, float* acc) {
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
            for (int j = 0; j < kNI; ++j) {
                const int ni = (mi & 1) ? (kNI - 1 - j) : j;
                mma_m16n8k16_f32<T>(acc + (mi * kNI + ni) * 4, f.a[mi], f.b[ni]);
            }
        }
    }
};

#include "ts_device/mma_atoms.cuh"  // mma.sync atoms of the other T.gemm dtypes (inlined when embedded)
#include "ts_device/wgmma_ops.cuh"  // sm_90a wgmma wrappers (generated, only with TS_HOPPER)
#include "ts_device/hopper.cuh"     // sm_90a mbarrier/TMA/wgmma gemm (only with TS_HOPPER)

// ============================================================================================
// Reductions (shfl.sync.bfly, PTX ISA §9.7.8.6) and atomics (atom, §9.7.13.5)
// ============================================================================================

/// __shfl_xor_sync over all 32 lanes for float/double/32- and 64-bit integers, the ts float
/// types (bits widened to 32) and narrower integers (widened to int).
template <class T> TS_D T shfl_xor(T v, int laneMask) {
    if constexpr (detail::IsLowp<T>::value) {
        T r;
        r.bits = static_cast<decltype(r.bits)>(
            __shfl_xor_sync(0xffffffffu, static_cast<unsigned>(v.bits), laneMask));
        return r;
    } else if constexpr (sizeof(T) >= 4) {
        return __shfl_xor_sync(0xffffffffu, v, laneMask);
    } else {
        return static_cast<T>(__shfl_xor_sync(0xffffffffu, static_cast<int>(v), laneMask));
    }
}

/// All-reduce over aligned groups of WIDTH lanes (butterfly, log2(WIDTH) shuffles); every lane
/// of the group gets the result. WIDTH is a power of two <= 32; all 32 lanes must call.
template <class Op, int WIDTH, class T> TS_D T warp_allreduce(T v) {
    static_assert(WIDTH >= 1 && WIDTH <= 32 && (WIDTH & (WIDTH - 1)) == 0,
                  "ts::warp_allreduce: WIDTH must be a power of two <= 32");
#pragma unroll
    for (int off = WIDTH / 2; off > 0; off >>= 1) v = Op::apply(v, shfl_xor(v, off));
    return v;
}

/// All-reduce over the whole block of THREADS threads (multiple of 32, <= 1024): warp butterfly,
/// then warp 0 combines the per-warp results. scratch: THREADS/32 T in shared memory. Contains
/// two __syncthreads, so all threads must call it.
template <class Op, int THREADS, class T> TS_D T block_allreduce(T v, T* scratch) {
    static_assert(THREADS % 32 == 0 && THREADS <= 1024, "ts::block_allreduce: THREADS % 32 != 0");
    constexpr int kWarps = THREADS / 32;
    v = warp_allreduce<Op, 32>(v);
    if constexpr (kWarps == 1) {
        return v;
    } else {
        const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5;
        if (lane == 0) scratch[warp] = v;
        __syncthreads();
        T w = lane < kWarps ? scratch[lane] : Op::template identity<T>();
        w = warp_allreduce<Op, 32>(w);  // full width: every lane gets the result
        __syncthreads();  // scratch may be reused right after
        return w;
    }
}

/// *addr += v atomically (relaxed, device scope); returns nothing. float/int: atomicAdd;
/// half: red.add.noftz.f16 (sm_70+); bfloat16: red.add.noftz.bf16 on sm_90+, else a CAS loop
/// on the containing 32-bit word (addr must be 2-byte aligned, global or shared).
TS_D void atomic_add(float* addr, float v) { atomicAdd(addr, v); }
TS_D void atomic_add(int* addr, int v) { atomicAdd(addr, v); }
TS_D void atomic_add(half* addr, half v) {
    asm volatile("red.add.noftz.f16 [%0], %1;\n" ::"l"(addr), "h"(v.bits) : "memory");
}
TS_D void atomic_add(double* addr, double v) { atomicAdd(addr, v); }
/// Ordered atomics, T.atomic_add/max/min(..., memory_order=O): one `atom` with .sem and .gpu scope
/// (PTX ISA 9.7.13.5 `atom`; the release/acquire patterns of the memory consistency model, §8.8,
/// sm_70+), so a counter's release publishes the writes before it (by this thread, and by the
/// block's other threads through a bar.sync before it -- causality order is cumulative, §8.9) and
/// an acquire makes the writes it saw visible to what follows. seq_cst is fence.sc.gpu then
/// atom.acq_rel (the PTX ISA's mapping of a C++ seq_cst read-modify-write). Generic addresses:
/// global or shared. Returns the value *addr held before.
#define TS_ATOM_ORDERED(NAME, OPTY, T, C)                                                                    \
    template <MemoryOrder O>                                                                                 \
    TS_D T NAME(T* addr, T v) {                                                                              \
        T r;                                                                                                 \
        if constexpr (O == MemoryOrder::acquire)                                                             \
            asm volatile("atom.acquire.gpu." OPTY " %0, [%1], %2;\n" : "=" C(r) : "l"(addr), C(v) : "memory"); \
        else if constexpr (O == MemoryOrder::release)                                                        \
            asm volatile("atom.release.gpu." OPTY " %0, [%1], %2;\n" : "=" C(r) : "l"(addr), C(v) : "memory"); \
        else {                                                                                               \
            if constexpr (O == MemoryOrder::seq_cst) asm volatile("fence.sc.gpu;\n" ::: "memory");          \
            asm volatile("atom.acq_rel.gpu." OPTY " %0, [%1], %2;\n" : "=" C(r) : "l"(addr), C(v) : "memory"); \
        }                                                                                                    \
        return r;                                                                                            \
    }
TS_ATOM_ORDERED(atomic_add_ordered, "add.s32", int, "r")
TS_ATOM_ORDERED(atomic_add_ordered, "add.u32", unsigned, "r")
TS_ATOM_ORDERED(atomic_add_ordered, "add.f32", float, "f")
TS_ATOM_ORDERED(atomic_max_ordered, "max.s32", int, "r")
TS_ATOM_ORDERED(atomic_max_ordered, "max.u32", unsigned, "r")
TS_ATOM_ORDERED(atomic_min_ordered, "min.s32", int, "r")
TS_ATOM_ORDERED(atomic_min_ordered, "min.u32", unsigned, "r")
#undef TS_ATOM_ORDERED

/// Programmatic dependent launch (PTX ISA 9.7.13.8 `griddepcontrol`, sm_90): let the next kernel
/// of the stream launch / wait for the kernels before this one (no-ops below sm_90, where kernels
/// of a stream never overlap).
TS_D void pdl_trigger() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}
TS_D void pdl_sync() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
/// addr[0..1] += {a, b} (addr global, 8-byte aligned): one red.global.add.v2.f32 on sm_90+
/// (PTX ISA 9.7.12.7 `red`, vector forms: .global only, PTX 8.1, sm_90), else two atomicAdds.
TS_D void atomic_add_v2(float* addr, float a, float b) {
#if __CUDA_ARCH__ >= 900
    asm volatile("red.global.add.v2.f32 [%0], {%1, %2};\n" ::"l"(addr), "f"(a), "f"(b) : "memory");
#else
    atomicAdd(addr, a);
    atomicAdd(addr + 1, b);
#endif
}
/// addr[0..3] += {a, b, c, d} (addr global, 16-byte aligned): red.global.add.v4.f32 on sm_90+.
TS_D void atomic_add_v4(float* addr, float a, float b, float c, float d) {
#if __CUDA_ARCH__ >= 900
    asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"l"(addr), "f"(a), "f"(b), "f"(c), "f"(d) : "memory");
#else
    atomicAdd(addr, a);
    atomicAdd(addr + 1, b);
    atomicAdd(addr + 2, c);
    atomicAdd(addr + 3, d);
#endif
}

/// Lane-pair v4 reduction (compiler/codegen/VectorAccess.h planPairAtomic). This lane adds
/// {a0, a1} at pa (if ga) and {b0, b1} at pb (if gb); the compiler proved that lane ^ 1 holds
/// the neighbouring pairs: for an even lane its partner's pa is pa + 2 and pa is 16-byte
/// aligned, for an odd lane its partner's pb is pb - 2, 16-byte aligned, and that both lanes'
/// guards agree. With the whole warp here, on sm_90+, the even lane sends its b pair and the
/// odd lane its a pair (one __shfl_xor_sync each way), and each issues one
/// red.global.add.v4.f32: the even lane for the a pairs, the odd lane for the b pairs. Else
/// two v2 reductions (the same elements, the same values); four scalar atomics when the
/// tensor's base is not 16-byte `aligned` (then pa, pb need not be 8-byte aligned either).
TS_D void atomic_add_pair_v4(float* pa, float* pb, bool ga, bool gb, float a0, float a1, float b0, float b1, bool aligned) {
    if (!aligned) {
        if (ga) atomicAdd(pa, a0), atomicAdd(pa + 1, a1);
        if (gb) atomicAdd(pb, b0), atomicAdd(pb + 1, b1);
        return;
    }
#if __CUDA_ARCH__ >= 900
    if (__activemask() == 0xffffffffu) {
        unsigned lane;
        asm("mov.u32 %0, %%laneid;" : "=r"(lane));
        const bool odd = lane & 1u;
        const float s0 = odd ? a0 : b0, s1 = odd ? a1 : b1;
        const float t0 = __shfl_xor_sync(0xffffffffu, s0, 1), t1 = __shfl_xor_sync(0xffffffffu, s1, 1);
        if (odd) {
            if (gb) atomic_add_v4(pb - 2, t0, t1, b0, b1);
        } else if (ga) {
            atomic_add_v4(pa, a0, a1, t0, t1);
        }
        return;
    }
#endif
    if (ga) atomic_add_v2(pa, a0, a1);
    if (gb) atomic_add_v2(pb, b0, b1);
}

#include "ts_device/atomics.cuh"  // CAS helpers, atomic_max/min (inlined when embedded)

TS_D void atomic_add(bfloat16* addr, bfloat16 v) {
#if __CUDA_ARCH__ >= 900
    asm volatile("red.add.noftz.bf16 [%0], %1;\n" ::"l"(addr), "h"(v.bits) : "memory");
#else
    const float x = float(v);
    detail::atomic_update16(addr, [x](float cur) { return cur + x; });
#endif
}

}  // namespace ts

#undef TS_MMA_ACC4
#undef TS_HD
#undef TS_D

#endif  // TS_DEVICE_CUH
