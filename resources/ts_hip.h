// TileScope HIP device header: the one file that generated HIP C++ includes (target hip:gfx90a,
// DESIGN.md §2 "Codegen"). It gives the generated code the same `ts::` vocabulary as
// resources/ts_device.cuh (float types, cast, math, copies, the block GEMM T.gemm lowers to,
// wave reductions, atomics) implemented for AMD CDNA2: 64-lane wavefronts, LDS, MFMA.
// The portable part (types, cast, max/min, swizzle, reduction operators) is shared with the CUDA
// header (resources/ts_device/portable.cuh, inlined when embedded).
//
// It compiles under hiprtc (no include paths), under hipcc (an exported project), and as plain
// host C++ (no HIP compiler): then only the portable part and the MFMA register-layout functions
// exist, which tests/unit/HipHeaderTest.cpp compares with compiler/analysis/HwLayouts.h
// (makeMfma16Layout), so the header and the layout tables cannot drift apart.
//
// Fallbacks (CDNA2 has no equivalent): cp.async -> a synchronous copy (commit/wait are no-ops;
// the barriers the lowering emits stay), ldmatrix -> per-lane LDS reads in the MFMA operand
// layout. Hardware facts: "AMD Instinct MI200" Instruction Set Architecture Reference Guide
// (CDNA2, Feb 2022) §7 "Matrix Arithmetic Instructions"; register layouts as printed by the AMD
// Matrix Instruction Calculator (ROCm/amd_matrix_instruction_calculator, cdna2).
// Not run on an AMD GPU: compiled with hiprtc/hipcc for gfx90a in CI only.
#pragma once

#ifndef TS_HIP_H
#define TS_HIP_H

#if defined(__HIPCC_RTC__) || defined(__HIPCC__) || defined(__HIP__)
#define TS_HIP_DEVICE_CODE 1
#if !defined(__HIPCC_RTC__)
#include <hip/hip_runtime.h>
#endif
#define TS_HD __host__ __device__ inline __attribute__((always_inline))
#define TS_D __device__ inline __attribute__((always_inline))
#else
// Host C++ (layout tests): the portable part and the MFMA index functions only.
#include <math.h>
#define TS_HD inline
#define TS_D inline
#endif

namespace ts {

#include "ts_device/portable.cuh"  // types, cast, max/min, swizzle, reduction ops (inlined when embedded)
#include "ts_device/raster.cuh"    // T.use_swizzle block rasterization (inlined when embedded)
#ifdef TS_RNG
#include "ts_device/philox.cuh"  // T.rng_* Philox4x32-10 (only when a kernel draws random numbers)
#endif

/// Lanes of a CDNA wavefront (gfx90a runs wave64 only).
constexpr int kWaveSize = 64;

// ============================================================================================
// MFMA register layouts: THE contract with compiler/analysis/HwLayouts.h (makeMfma16Layout)
// ============================================================================================

/// v_mfma_f32_16x16x16f16 and v_mfma_f32_16x16x16bf16_1k (CDNA2 ISA §7.1, same layouts): each
/// of the 64 lanes holds 4 elements ("items") of every 16x16 operand. In-atom coordinates of item
/// `item` (0..3) of lane `lane` (0..63):
///   A (row i, col k):  i = lane % 16,          k = 4*(lane/16) + item
///   B (row k, col j):  k = 4*(lane/16) + item, j = lane % 16
///   C/D (row i, col j, f32): i = 4*(lane/16) + item, j = lane % 16
namespace mfma16 {
TS_HD constexpr int aRow(int lane, int item) { return lane % 16 + 0 * item; }
TS_HD constexpr int aCol(int lane, int item) { return 4 * (lane / 16) + item; }
TS_HD constexpr int bRow(int lane, int item) { return 4 * (lane / 16) + item; }
TS_HD constexpr int bCol(int lane, int item) { return lane % 16 + 0 * item; }
TS_HD constexpr int cRow(int lane, int item) { return 4 * (lane / 16) + item; }
TS_HD constexpr int cCol(int lane, int item) { return lane % 16 + 0 * item; }
}  // namespace mfma16

/// A block GEMM C[M,N] (+)= A[M,K]·B[K,N] on a WM x WN grid of waves: wave w = threadIdx.x/64 at
/// (w/WN, w%WN) owns the (M/WM) x (N/WN) tile of C, as kMI x kNI 16x16 MFMA atoms, over kKI
/// k-steps of 16. Where each thread's registers sit (the same maps as makeMfma16Layout):
///   acc[v], atom (mi, ni) = (v/4/kNI, v/4%kNI)   -> C(accRow, accCol)
///   A slot v of a k-step list, atom (kk, mi) = (v/4/kMI, v/4%kMI) -> A(aRow, aCol)
///   B slot v, atom (kk, ni) = (v/4/kNI, v/4%kNI) -> B(bRow, bCol)
template <int M, int N, int K, int WM, int WN>
struct MfmaTiling {
    static_assert(WM > 0 && WN > 0 && M % (16 * WM) == 0 && N % (16 * WN) == 0,
                  "ts::gemm_ss (HIP): M/WM and N/WN must be multiples of 16 (MFMA 16x16 atoms)");
    static_assert(K % 16 == 0, "ts::gemm_ss (HIP): K must be a multiple of 16");
    static constexpr int kWTM = M / WM, kWTN = N / WN;
    static constexpr int kMI = kWTM / 16, kNI = kWTN / 16, kKI = K / 16, kAcc = kMI * kNI * 4;

    static TS_HD constexpr int accRow(int t, int v) {
        return (t / 64 / WN) * kWTM + (v / 4 / kNI) * 16 + mfma16::cRow(t % 64, v % 4);
    }
    static TS_HD constexpr int accCol(int t, int v) {
        return (t / 64 % WN) * kWTN + (v / 4 % kNI) * 16 + mfma16::cCol(t % 64, v % 4);
    }
    static TS_HD constexpr int aRow(int t, int v) {
        return (t / 64 / WN) * kWTM + (v / 4 % kMI) * 16 + mfma16::aRow(t % 64, v % 4);
    }
    static TS_HD constexpr int aCol(int t, int v) {
        return (v / 4 / kMI) * 16 + mfma16::aCol(t % 64, v % 4);
    }
    static TS_HD constexpr int bRow(int t, int v) {
        return (v / 4 / kNI) * 16 + mfma16::bRow(t % 64, v % 4);
    }
    static TS_HD constexpr int bCol(int t, int v) {
        return (t / 64 % WN) * kWTN + (v / 4 % kNI) * 16 + mfma16::bCol(t % 64, v % 4);
    }
};

#if defined(TS_HIP_DEVICE_CODE)

// ============================================================================================
// Math (device): the libm functions of the HIP device library (ocml), IEEE-accurate variants
// ============================================================================================

TS_D float exp(float x) { return ::expf(x); }
/// T.exp2 (the CUDA header's ex2.approx.ftz name, which the shared math table prints): exp2f,
/// one v_exp_f32 on gfx90a.
TS_D float exp2f_fast(float x) { return ::exp2f(x); }
TS_D float log2(float x) { return ::log2f(x); }
/// T.fast_rcp (rcp.approx on CUDA): the division, IEEE-rounded.
TS_D float fast_rcp(float x) { return 1.0f / x; }
TS_D double fast_rcp(double x) { return 1.0 / x; }
TS_D float rsqrt(float x) { return ::rsqrtf(x); }
template <class T> TS_D detail::LowpOnly<T> exp(T x) { return T(exp(float(x))); }
template <class T> TS_D detail::LowpOnly<T> log2(T x) { return T(log2(float(x))); }
template <class T> TS_D detail::LowpOnly<T> rsqrt(T x) { return T(rsqrt(float(x))); }

// ============================================================================================
// Memory: vector copies. CDNA2 has no cp.async: Target::copyEngine picks plain copies for every
// pipelined global -> shared copy on gfx90a, and the printer writes the schedule's commit/wait
// points as comments (CudaCodegen.cpp, HIP dialect). A tl.cp_async in IR given to the HIP
// printer (e.g. parsed IR text) prints as copy_or_zero*: the same copy, synchronous.
// ============================================================================================

/// 16 bytes as one int4; both pointers 16-byte aligned.
TS_D void copy16(void* dst, const void* src) {
    *reinterpret_cast<int4*>(dst) = *reinterpret_cast<const int4*>(src);
}
/// Synchronous global -> LDS copy of 16 bytes when pred, else 16 zero bytes at dst (the
/// contract of cp.async with src-size 0); returns when dst is written. Pointers 16-byte aligned.
TS_D void copy_or_zero16(void* dst, const void* src, bool pred) {
    *reinterpret_cast<int4*>(dst) = pred ? *reinterpret_cast<const int4*>(src) : int4{0, 0, 0, 0};
}
/// As copy_or_zero16, 8 bytes.
TS_D void copy_or_zero8(void* dst, const void* src, bool pred) {
    *reinterpret_cast<int2*>(dst) = pred ? *reinterpret_cast<const int2*>(src) : int2{0, 0};
}
/// As copy_or_zero16, 4 bytes.
TS_D void copy_or_zero4(void* dst, const void* src, bool pred) {
    *reinterpret_cast<int*>(dst) = pred ? *reinterpret_cast<const int*>(src) : 0;
}

// ============================================================================================
// MFMA atoms (CDNA2 ISA §7.1; clang builtins of the gfx90a target)
// ============================================================================================

typedef _Float16 f16x4 __attribute__((ext_vector_type(4)));
typedef short bf16x4 __attribute__((ext_vector_type(4)));
typedef float f32x4 __attribute__((ext_vector_type(4)));

/// d = a·b + d, one wave, 16x16x16, f32 accumulate. T = ts::half (v_mfma_f32_16x16x16f16) or
/// ts::bfloat16 (v_mfma_f32_16x16x16bf16_1k, gfx90a+). a/b: this lane's 4 items of A and B in
/// the mfma16 layout; d: its 4 items of C.
template <class T> TS_D void mfma_16x16x16_f32(float* d, const T* a, const T* b) {
    static_assert(detail::IsSame<T, half>::value || detail::IsSame<T, bfloat16>::value,
                  "ts::mfma_16x16x16_f32: T must be ts::half or ts::bfloat16");
    f32x4 acc = {d[0], d[1], d[2], d[3]};
    if constexpr (detail::IsSame<T, half>::value) {
        f16x4 va, vb;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            va[i] = __builtin_bit_cast(_Float16, a[i].bits);
            vb[i] = __builtin_bit_cast(_Float16, b[i].bits);
        }
        acc = __builtin_amdgcn_mfma_f32_16x16x16f16(va, vb, acc, 0, 0, 0);
    } else {
        bf16x4 va, vb;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            va[i] = static_cast<short>(a[i].bits);
            vb[i] = static_cast<short>(b[i].bits);
        }
        acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(va, vb, acc, 0, 0, 0);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) d[i] = acc[i];
}

// ============================================================================================
// Block-level GEMM from LDS (T.gemm lowering, gfx90a path)
// ============================================================================================

/// C[M,N] += op(A)·op(B) from LDS, f32 accumulate, WM*WN waves (threadIdx.x linear). As: [M][K]
/// row-major if !TA, else [K][M]; Bs: [K][N] if !TB, else [N][K]; each swizzled with
/// swizzle<rowBytes, SWZ> relative to its own base (the same contract as the CUDA header).
/// Operands are read element by element into the mfma16 layout (no ldmatrix on CDNA2).
/// acc: kAcc floats per thread in the MfmaTiling accumulator order.
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SWZ_A, int SWZ_B, typename T>
struct GemmSS : MfmaTiling<M, N, K, WM, WN> {
    using Tiling = MfmaTiling<M, N, K, WM, WN>;
    using Tiling::kMI, Tiling::kNI, Tiling::kKI, Tiling::kWTM, Tiling::kWTN;
    static constexpr int kE = int(sizeof(T));
    static constexpr int kRA = (TA ? M : K) * kE, kRB = (TB ? K : N) * kE;  // row bytes

    /// A(row, col) of the logical M x K operand.
    static TS_D T loadA(const T* As, int row, int col) {
        const int r = TA ? col : row, c = TA ? row : col;
        return As[swizzle_elem<kRA, SWZ_A, kE>(r * (kRA / kE) + c)];
    }
    /// B(row, col) of the logical K x N operand.
    static TS_D T loadB(const T* Bs, int row, int col) {
        const int r = TB ? col : row, c = TB ? row : col;
        return Bs[swizzle_elem<kRB, SWZ_B, kE>(r * (kRB / kE) + c)];
    }
    /// One k16 step: kMI x kNI MFMA atoms.
    static TS_D void step(const T* As, const T* Bs, int kk, float* acc) {
        const int t = int(threadIdx.x), lane = t % 64, w = t / 64;
        const int m0 = (w / WN) * kWTM, n0 = (w % WN) * kWTN;
        T a[kMI][4], b[kNI][4];
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
            for (int i = 0; i < 4; ++i)
                a[mi][i] = loadA(As, m0 + mi * 16 + mfma16::aRow(lane, i), kk * 16 + mfma16::aCol(lane, i));
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni)
#pragma unroll
            for (int i = 0; i < 4; ++i)
                b[ni][i] = loadB(Bs, kk * 16 + mfma16::bRow(lane, i), n0 + ni * 16 + mfma16::bCol(lane, i));
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
            for (int ni = 0; ni < kNI; ++ni) mfma_16x16x16_f32<T>(acc + (mi * kNI + ni) * 4, a[mi], b[ni]);
    }
};

/// T.gemm (shared x shared) for the gfx90a path: acc += A·B over all K. Call with all WM*WN*64
/// threads; T = ts::half or ts::bfloat16 with a float accumulator.
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SWZ_A, int SWZ_B, class T, class TC>
TS_D void gemm_ss(const T* As, const T* Bs, TC* acc) {
    static_assert(detail::IsSame<TC, float>::value,
                  "ts::gemm_ss (HIP): only float accumulators (MFMA f32) are implemented");
    using G = GemmSS<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, T>;
#pragma unroll
    for (int kk = 0; kk < G::kKI; ++kk) G::step(As, Bs, kk, acc);
}

// ============================================================================================
// Wave reductions (ds_swizzle/DPP through __shfl_xor) and atomics
// ============================================================================================

/// __shfl_xor within the wave (HIP: width 64) for 32/64-bit types, the ts float types (bits
/// widened to int) and narrower integers (widened to int).
template <class T> TS_D T shfl_xor(T v, int laneMask) {
    if constexpr (detail::IsLowp<T>::value) {
        T r;
        r.bits = static_cast<decltype(r.bits)>(__shfl_xor(static_cast<int>(v.bits), laneMask, 64));
        return r;
    } else if constexpr (sizeof(T) >= 4) {
        return __shfl_xor(v, laneMask, 64);
    } else {
        return static_cast<T>(__shfl_xor(static_cast<int>(v), laneMask, 64));
    }
}

/// All-reduce over aligned groups of WIDTH lanes (butterfly); WIDTH a power of two <= 64.
template <class Op, int WIDTH, class T> TS_D T warp_allreduce(T v) {
    static_assert(WIDTH >= 1 && WIDTH <= 64 && (WIDTH & (WIDTH - 1)) == 0,
                  "ts::warp_allreduce (HIP): WIDTH must be a power of two <= 64");
#pragma unroll
    for (int off = WIDTH / 2; off > 0; off >>= 1) v = Op::apply(v, shfl_xor(v, off));
    return v;
}

/// All-reduce over the block of THREADS threads (multiple of 64, <= 1024): wave butterfly, then
/// every lane combines the per-wave results. scratch: THREADS/64 T in LDS. Two __syncthreads.
template <class Op, int THREADS, class T> TS_D T block_allreduce(T v, T* scratch) {
    static_assert(THREADS % 64 == 0 && THREADS <= 1024, "ts::block_allreduce (HIP): THREADS % 64 != 0");
    constexpr int kWaves = THREADS / 64;
    v = warp_allreduce<Op, 64>(v);
    if constexpr (kWaves == 1) {
        return v;
    } else {
        const int lane = int(threadIdx.x) & 63, wave = int(threadIdx.x) >> 6;
        if (lane == 0) scratch[wave] = v;
        __syncthreads();
        T w = lane < kWaves ? scratch[lane] : Op::template identity<T>();
        w = warp_allreduce<Op, 64>(w);
        __syncthreads();
        return w;
    }
}

#include "ts_device/atomics.cuh"  // CAS helpers, atomic_max/min (inlined when embedded)

/// *addr += v atomically. float/int/double: atomicAdd; half and bfloat16: a CAS loop on the
/// containing 32-bit word (CDNA2 has packed-f16 global atomics, but not for LDS or a lone half).
TS_D void atomic_add(float* addr, float v) { atomicAdd(addr, v); }
TS_D void atomic_add(int* addr, int v) { atomicAdd(addr, v); }
TS_D void atomic_add(double* addr, double v) { atomicAdd(addr, v); }
/// Vector forms the CUDA code generator emits for contiguous fragment pairs/quads (ts_device.cuh):
/// CDNA has no vector float atomic, so one atomicAdd per element.
TS_D void atomic_add_v2(float* addr, float a, float b) { atomicAdd(addr, a); atomicAdd(addr + 1, b); }
TS_D void atomic_add_v4(float* addr, float a, float b, float c, float d) {
    atomicAdd(addr, a); atomicAdd(addr + 1, b); atomicAdd(addr + 2, c); atomicAdd(addr + 3, d);
}
TS_D void atomic_add(half* addr, half v) {
    const float x = float(v);
    detail::atomic_update16(addr, [x](float cur) { return cur + x; });
}
TS_D void atomic_add(bfloat16* addr, bfloat16 v) {
    const float x = float(v);
    detail::atomic_update16(addr, [x](float cur) { return cur + x; });
}

/// Ordered atomics, T.atomic_add/max/min(..., memory_order=O) (ts_device.cuh's contract): clang's
/// HIP atomic builtins at agent (device) scope, which take the C++ order. T comes from the address
/// alone (the value converts, as to CUDA's overloads): `(unsigned*, 1)` deduced T twice.
template <MemoryOrder O> constexpr int hip_memory_order() {
    return O == MemoryOrder::acquire   ? __ATOMIC_ACQUIRE
           : O == MemoryOrder::release ? __ATOMIC_RELEASE
           : O == MemoryOrder::acq_rel ? __ATOMIC_ACQ_REL
                                       : __ATOMIC_SEQ_CST;
}
template <MemoryOrder O, class T> TS_D T atomic_add_ordered(T* addr, typename detail::EnableIf<true, T>::type v) {
    return __hip_atomic_fetch_add(addr, v, hip_memory_order<O>(), __HIP_MEMORY_SCOPE_AGENT);
}
template <MemoryOrder O, class T> TS_D T atomic_max_ordered(T* addr, typename detail::EnableIf<true, T>::type v) {
    return __hip_atomic_fetch_max(addr, v, hip_memory_order<O>(), __HIP_MEMORY_SCOPE_AGENT);
}
template <MemoryOrder O, class T> TS_D T atomic_min_ordered(T* addr, typename detail::EnableIf<true, T>::type v) {
    return __hip_atomic_fetch_min(addr, v, hip_memory_order<O>(), __HIP_MEMORY_SCOPE_AGENT);
}

#endif  // TS_HIP_DEVICE_CODE

/// Programmatic dependent launch is CUDA's (sm_90 griddepcontrol): kernels of a HIP stream run
/// one after another, so T.pdl_trigger / T.pdl_sync have nothing to do.
TS_D void pdl_trigger() {}
TS_D void pdl_sync() {}
}  // namespace ts

#undef TS_HD
#undef TS_D

#endif  // TS_HIP_H
