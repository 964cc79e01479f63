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

// ============================================================================================
// Type traits (no <type_traits> under NVRTC without include paths)
// ============================================================================================

namespace detail {
template <class A, class B> struct IsSame { static constexpr bool value = false; };
template <class A> struct IsSame<A, A> { static constexpr bool value = true; };
template <bool B, class X, class Y> struct Conditional { using type = X; };
template <class X, class Y> struct Conditional<false, X, Y> { using type = Y; };
template <bool C, class T = void> struct EnableIf {};
template <class T> struct EnableIf<true, T> { using type = T; };

/// Reinterprets the bits of a float as unsigned (host and device).
TS_HD unsigned floatBits(float f) {
#ifdef __CUDA_ARCH__
    return __float_as_uint(f);
#else
    union { float f; unsigned u; } c{f};
    return c.u;
#endif
}
/// Reinterprets unsigned bits as a float (host and device).
TS_HD float bitsFloat(unsigned u) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    union { unsigned u; float f; } c{u};
    return c.f;
#endif
}

/// Software float -> small float, round-to-nearest-even (host, and devices without cvt).
/// EB/MB: exponent/mantissa bits, bias 2^(EB-1)-1. IEEE: overflow -> inf, NaN -> quiet NaN.
/// SAT (fp8 .satfinite semantics, PTX ISA §9.7.9.21 cvt): |x| beyond MAX_NORM, and ±inf, give
/// ±MAX_NORM; NaN gives NANCODE. Returns the code in the low EB+MB+1 bits.
template <int EB, int MB, bool SAT, unsigned MAXCODE, unsigned NANCODE>
TS_HD unsigned encodeSmallFloat(float x) {
    constexpr int kBias = (1 << (EB - 1)) - 1;
    constexpr int kEmin = 1 - kBias;  // unbiased exponent of the smallest normal
    constexpr unsigned kSign = 1u << (EB + MB);
    unsigned u = floatBits(x);
    unsigned sign = (u >> 31) ? kSign : 0u;
    u &= 0x7fffffffu;
    if (u > 0x7f800000u) return sign | NANCODE;
    if (u == 0x7f800000u) return sign | (SAT ? MAXCODE : (((1u << EB) - 1u) << MB));
    int e = int(u >> 23) - 127;
    if ((u >> 23) == 0) return sign;  // float subnormals are far below every target's range
    unsigned mant = (u & 0x7fffffu) | 0x800000u;  // 24 significant bits
    int shift = 23 - MB + (e < kEmin ? kEmin - e : 0);
    if (shift > 25) return sign;  // below half the smallest subnormal
    unsigned q = mant >> shift;
    unsigned rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) ++q;
    // q carries the hidden bit, so adding it to (biased exponent - 1) << MB carries correctly.
    unsigned code = e < kEmin ? q : ((unsigned(e + kBias - 1) << MB) + q);
    if (code > MAXCODE) code = SAT ? MAXCODE : (((1u << EB) - 1u) << MB);
    return sign | code;
}

/// Software small float -> float (exact). IEEE_INF: all-ones exponent means inf/NaN (f16, e5m2);
/// otherwise only code NANCODE (mod sign) is NaN (e4m3, which has no infinity).
template <int EB, int MB, bool IEEE_INF, unsigned NANCODE>
TS_HD float decodeSmallFloat(unsigned c) {
    constexpr int kBias = (1 << (EB - 1)) - 1;
    unsigned sign = (c >> (EB + MB)) & 1u;
    unsigned e = (c >> MB) & ((1u << EB) - 1u), m = c & ((1u << MB) - 1u);
    unsigned out;
    if (IEEE_INF && e == (1u << EB) - 1u) {
        out = 0x7f800000u | (m ? 0x400000u : 0u);
    } else if (!IEEE_INF && (c & ~(1u << (EB + MB))) == NANCODE) {
        out = 0x7fc00000u;
    } else if (e == 0) {  // subnormal: m * 2^(1 - bias - MB), exact in float
        float v = float(m) * bitsFloat(unsigned(127 + 1 - kBias - MB) << 23);
        return sign ? -v : v;
    } else {
        out = (unsigned(int(e) - kBias + 127) << 23) | (m << (23 - MB));
    }
    return bitsFloat(out | (sign << 31));
}
}  // namespace detail

// ============================================================================================
// 16- and 8-bit float types. Storage is the raw bits; arithmetic goes through float.
// Constructors are explicit so that mixed expressions (h + 1.0f) resolve to float arithmetic.
// ============================================================================================

/// IEEE binary16. Device conversion: cvt.rn.f16.f32 / cvt.f32.f16 (PTX ISA §9.7.9.21).
struct half {
    unsigned short bits;
    half() = default;
    TS_HD explicit half(float f) : bits(fromFloat(f)) {}
    TS_HD explicit half(double d) : half(float(d)) {}
    TS_HD explicit half(int i) : half(float(i)) {}
    TS_HD operator float() const {
#ifdef __CUDA_ARCH__
        float r;
        asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(bits));
        return r;
#else
        return detail::decodeSmallFloat<5, 10, true, 0x7e00u>(bits);
#endif
    }
    /// Builds a value from raw bits (no conversion).
    static TS_HD half fromBits(unsigned short b) { half h; h.bits = b; return h; }
    static TS_HD unsigned short fromFloat(float f) {
#ifdef __CUDA_ARCH__
        unsigned short r;
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f));
        return r;
#else
        return (unsigned short)detail::encodeSmallFloat<5, 10, false, 0x7bffu, 0x7e00u>(f);
#endif
    }
};

/// bfloat16 (float's upper 16 bits). Device: cvt.rn.bf16.f32 on sm_80+ (PTX ISA §9.7.9.21);
/// to float is a 16-bit shift (exact).
struct bfloat16 {
    unsigned short bits;
    bfloat16() = default;
    TS_HD explicit bfloat16(float f) : bits(fromFloat(f)) {}
    TS_HD explicit bfloat16(double d) : bfloat16(float(d)) {}
    TS_HD explicit bfloat16(int i) : bfloat16(float(i)) {}
    TS_HD operator float() const { return detail::bitsFloat(unsigned(bits) << 16); }
    static TS_HD bfloat16 fromBits(unsigned short b) { bfloat16 h; h.bits = b; return h; }
    static TS_HD unsigned short fromFloat(float f) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        unsigned short r;
        asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f));
        return r;
#else
        unsigned u = detail::floatBits(f);
        if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
        return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
#endif
    }
};

/// OCP FP8 E4M3 ("e4m3fn": bias 7, max 448, no inf, NaN = 0x7f). Conversion from float is
/// RNE with saturation to ±448 (cvt.rn.satfinite.e4m3x2.f32, sm_89+; software elsewhere).
struct fp8_e4m3 {
    unsigned char bits;
    fp8_e4m3() = default;
    TS_HD explicit fp8_e4m3(float f) : bits(fromFloat(f)) {}
    TS_HD explicit fp8_e4m3(double d) : fp8_e4m3(float(d)) {}
    TS_HD explicit fp8_e4m3(int i) : fp8_e4m3(float(i)) {}
    TS_HD operator float() const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
        unsigned h2;
        asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(h2) : "h"((unsigned short)bits));
        float r;
        asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"((unsigned short)(h2 & 0xffffu)));
        return r;
#else
        return detail::decodeSmallFloat<4, 3, false, 0x7fu>(bits);
#endif
    }
    static TS_HD fp8_e4m3 fromBits(unsigned char b) { fp8_e4m3 h; h.bits = b; return h; }
    static TS_HD unsigned char fromFloat(float f) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
        unsigned short r;  // a -> upper byte, b -> lower byte
        asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f));
        return (unsigned char)(r & 0xffu);
#else
        return (unsigned char)detail::encodeSmallFloat<4, 3, true, 0x7eu, 0x7fu>(f);
#endif
    }
};

/// OCP FP8 E5M2 (bias 15, max 57344, IEEE inf/NaN). Conversion from float is RNE with
/// saturation to ±57344 (cvt.rn.satfinite.e5m2x2.f32, sm_89+; software elsewhere).
struct fp8_e5m2 {
    unsigned char bits;
    fp8_e5m2() = default;
    TS_HD explicit fp8_e5m2(float f) : bits(fromFloat(f)) {}
    TS_HD explicit fp8_e5m2(double d) : fp8_e5m2(float(d)) {}
    TS_HD explicit fp8_e5m2(int i) : fp8_e5m2(float(i)) {}
    TS_HD operator float() const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
        unsigned h2;
        asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(h2) : "h"((unsigned short)bits));
        float r;
        asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"((unsigned short)(h2 & 0xffffu)));
        return r;
#else
        return detail::decodeSmallFloat<5, 2, true, 0x7fu>(bits);
#endif
    }
    static TS_HD fp8_e5m2 fromBits(unsigned char b) { fp8_e5m2 h; h.bits = b; return h; }
    static TS_HD unsigned char fromFloat(float f) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
        unsigned short r;
        asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f));
        return (unsigned char)(r & 0xffu);
#else
        return (unsigned char)detail::encodeSmallFloat<5, 2, true, 0x7bu, 0x7fu>(f);
#endif
    }
};

namespace detail {
template <class T> struct IsLowp { static constexpr bool value = false; };
template <> struct IsLowp<half> { static constexpr bool value = true; };
template <> struct IsLowp<bfloat16> { static constexpr bool value = true; };
template <> struct IsLowp<fp8_e4m3> { static constexpr bool value = true; };
template <> struct IsLowp<fp8_e5m2> { static constexpr bool value = true; };
template <class T> using LowpOnly = typename EnableIf<IsLowp<T>::value, T>::type;
}  // namespace detail

// Arithmetic and comparison of two low-precision values of one type: computed in float, the
// result rounded once to the type (so e.g. half+half may differ from native add.f16 by double
// rounding in rare cases). Mixed with float, the low-precision operand converts to float.
#define TS_LOWP_BINOP(op)                                                             \
    template <class T> TS_HD detail::LowpOnly<T> operator op(T a, T b) {              \
        return T(float(a) op float(b));                                               \
    }                                                                                 \
    template <class T> TS_HD detail::LowpOnly<T>& operator op##=(T & a, T b) {        \
        a = T(float(a) op float(b));                                                  \
        return a;                                                                     \
    }
TS_LOWP_BINOP(+)
TS_LOWP_BINOP(-)
TS_LOWP_BINOP(*)
TS_LOWP_BINOP(/)
#undef TS_LOWP_BINOP
#define TS_LOWP_CMP(op)                                                               \
    template <class T, class = detail::LowpOnly<T>> TS_HD bool operator op(T a, T b) { \
        return float(a) op float(b);                                                  \
    }
TS_LOWP_CMP(==)
TS_LOWP_CMP(!=)
TS_LOWP_CMP(<)
TS_LOWP_CMP(<=)
TS_LOWP_CMP(>)
TS_LOWP_CMP(>=)
#undef TS_LOWP_CMP
template <class T> TS_HD detail::LowpOnly<T> operator-(T a) {
    T r = a;
    r.bits ^= (sizeof(T) == 2 ? 0x8000 : 0x80);  // sign flip is exact, NaN stays NaN
    return r;
}

// ============================================================================================
// Conversions
// ============================================================================================

/// Converts between float, double, all integer types, bool and the ts float types. Low-precision
/// targets round once from float (RNE; fp8 saturating): double and 64-bit integers go through
/// float first. Low-precision sources convert exactly to float, then static_cast.
template <class To, class From> TS_HD To cast(From x) {
    if constexpr (detail::IsSame<To, From>::value) {
        return x;
    } else if constexpr (detail::IsLowp<To>::value) {
        return To(static_cast<float>(x));
    } else if constexpr (detail::IsLowp<From>::value) {
        return static_cast<To>(static_cast<float>(x));
    } else {
        return static_cast<To>(x);
    }
}

// ============================================================================================
// Math
// ============================================================================================

/// 2^x, ex2.approx.ftz.f32 (PTX ISA §9.7.3.21): max rel. error 2^-22.5, subnormals flushed.
TS_D float exp2f_fast(float x) {
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
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

/// max/min: if either is NaN the other is returned for float (fmaxf semantics); by comparison
/// for other types. abs: sign-bit clear for floats (exact).
template <class T> TS_HD T max(T a, T b) { return a < b ? b : a; }
template <class T> TS_HD T min(T a, T b) { return b < a ? b : a; }
template <> TS_HD float max<float>(float a, float b) { return fmaxf(a, b); }
template <> TS_HD float min<float>(float a, float b) { return fminf(a, b); }
template <class T> TS_HD T abs(T a) {
    if constexpr (detail::IsLowp<T>::value) {
        T r = a;
        r.bits &= (sizeof(T) == 2 ? 0x7fff : 0x7f);
        return r;
    } else if constexpr (detail::IsSame<T, float>::value) {
        return fabsf(a);
    } else if constexpr (detail::IsSame<T, double>::value) {
        return fabs(a);
    } else {
        return a < T(0) ? T(-a) : a;
    }
}

/// +infinity of T. fp8_e4m3 has no infinity: ±448 (MAX_NORM). Integers: the largest value.
template <class T> TS_HD T infinity() {
    if constexpr (detail::IsSame<T, float>::value) return detail::bitsFloat(0x7f800000u);
    else if constexpr (detail::IsSame<T, double>::value) return double(detail::bitsFloat(0x7f800000u));
    else if constexpr (detail::IsSame<T, half>::value) return half::fromBits(0x7c00);
    else if constexpr (detail::IsSame<T, bfloat16>::value) return bfloat16::fromBits(0x7f80);
    else if constexpr (detail::IsSame<T, fp8_e4m3>::value) return fp8_e4m3::fromBits(0x7e);
    else if constexpr (detail::IsSame<T, fp8_e5m2>::value) return fp8_e5m2::fromBits(0x7c);
    else if constexpr (T(-1) > T(0)) return T(~0ull);  // unsigned: all ones
    else return T(~0ull >> (65 - int(sizeof(T)) * 8));  // signed: 0x7f..f
}
/// -infinity of T (fp8_e4m3: -448; integers: the smallest value).
template <class T> TS_HD T ninfinity() {
    if constexpr (detail::IsLowp<T>::value) return -infinity<T>();
    else if constexpr (detail::IsSame<T, float>::value || detail::IsSame<T, double>::value)
        return -infinity<T>();
    else if constexpr (T(-1) > T(0)) return T(0);
    else return T(-infinity<T>() - T(1));
}

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

// ============================================================================================
// Shared-memory swizzle: THE contract with compiler/analysis (codegen, interpreter, bank model)
// ============================================================================================

/// Physical byte offset of logical byte offset o in a 2-D shared tile whose rows are R bytes.
///   key  = (R >= 128 ? o / R : o / 128) % 8;  mask = MODE/16 - 1;  phys = o ^ ((key & mask) << 4)
/// MODE in {0 (identity), 32, 64, 128} bytes. It XORs the 16-byte chunk index inside each
/// 128-byte line, so it is a bijection on every 128-byte line and 16-byte chunks stay contiguous
/// (ldmatrix rows and cp.async 16 B stay valid). By bank analysis (not a counter reading),
/// ldmatrix of 8 consecutive rows at one 16-byte column is conflict-free for R % 128 == 0 with
/// MODE 128, and for R == 64 with MODE >= 64.
template <int R, int MODE> TS_HD int swizzle(int o) {
    static_assert(MODE == 0 || MODE == 32 || MODE == 64 || MODE == 128,
                  "ts::swizzle: MODE must be 0, 32, 64 or 128 (bytes)");
    static_assert(MODE == 0 || (R > 0 && R % 16 == 0),
                  "ts::swizzle: swizzled rows R must be a multiple of 16 bytes");
    if constexpr (MODE == 0) {
        return o;
    } else {
        constexpr unsigned kMask = MODE / 16 - 1;
        const unsigned uo = static_cast<unsigned>(o);
        const unsigned key = (R >= 128 ? uo / unsigned(R) : uo / 128u) % 8u;
        return static_cast<int>(uo ^ ((key & kMask) << 4));
    }
}
/// Element-index form of swizzle: elemOffset in elements of ELT_BYTES bytes, R in bytes.
template <int R, int MODE, int ELT_BYTES> TS_HD int swizzle_elem(int elemOffset) {
    static_assert(ELT_BYTES == 1 || ELT_BYTES == 2 || ELT_BYTES == 4 || ELT_BYTES == 8 ||
                      ELT_BYTES == 16,
                  "ts::swizzle_elem: ELT_BYTES must divide 16");
    return swizzle<R, MODE>(elemOffset * ELT_BYTES) / ELT_BYTES;
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
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SWZ_A, int SWZ_B, int E, int AK>
struct GemmTiling {
    static_assert(WM > 0 && WN > 0 && M % WM == 0 && N % WN == 0,
                  "ts::gemm_ss: M must divide by WM and N by WN (warp grid)");
    static_assert((M / WM) % 16 == 0, "ts::gemm_ss: warp tile rows M/WM must be a multiple of 16");
    static_assert((N / WN) % 8 == 0, "ts::gemm_ss: warp tile cols N/WN must be a multiple of 8");
    static_assert(K % AK == 0, "ts::gemm_ss: K must be a multiple of the mma atom's K");
    static constexpr int kE = E;
    static constexpr int kRA = (TA ? M : K) * kE, kRB = (TB ? K : N) * kE;  // row bytes
    static_assert(SWZ_A == 0 || kRA % 128 == 0 || 128 % kRA == 0,
                  "ts::gemm_ss: swizzled A rows must be a multiple or a divisor of 128 bytes");
    static_assert(SWZ_B == 0 || kRB % 128 == 0 || 128 % kRB == 0,
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
/// w = threadIdx.x/32 owns warp tile (wi, wj) = (w/WN, w%WN) of (M/WM) x (N/WN): kMI = (M/WM)/16
/// by kNI = (N/WN)/8 mma atoms; kKI = K/16 k-steps.
/// Accumulator contract (codegen, interpreter and layout views use the same): acc has kAcc =
/// kMI*kNI*4 floats per thread; acc[(mi*kNI + ni)*4 + e] is C row wi*(M/WM) + mi*16 + lane/4 +
/// 8*(e/2), col wj*(N/WN) + ni*8 + 2*(lane%4) + (e%2) (the m16n8k16 C fragment, §9.7.14.5.8).
/// Fragments come from ldmatrix, .trans for an operand that is not K-contiguous (B when !TB, A
/// when TA). Index acc and Frags only with compile-time constants (fully unrolled), so they stay
/// in registers. The fastest main loop measured on H200 (bench/gemm_sm80_probe.cu, "structure
/// B") calls load/mma directly so that step 0 of the next k-tile loads before the last mma of
/// this one; gemm_ss below is the simple per-tile form.
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, int SWZ_A, int SWZ_B, typename T>
struct GemmSS : GemmTiling<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, int(sizeof(T)), 16> {
    static_assert(detail::IsSame<T, half>::value || detail::IsSame<T, bfloat16>::value,
                  "ts::gemm_ss: T must be ts::half or ts::bfloat16 (fp32 accumulate)");
    using Tiling = GemmTiling<M, N, K, WM, WN, TA, TB, SWZ_A, SWZ_B, int(sizeof(T)), 16>;
    using Tiling::kE, Tiling::kRA, Tiling::kRB, Tiling::kWTM, Tiling::kWTN, Tiling::kMI,
        Tiling::kNI, Tiling::kKI;

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
        const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5;
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
                addr = aBase + unsigned(swizzle<kRA, SWZ_A>((m0 + (lane & 15)) * kRA + (k + 8 * q1) * kE)) +
                       unsigned(mi * 16 * kRA);
            } else if constexpr (TA && kAStep) {
                addr = aBase + unsigned(swizzle<kRA, SWZ_A>((l7 + 8 * q1) * kRA + (m + 8 * q0) * kE)) +
                       unsigned(k * kRA);
            } else {
                const int r = TA ? (k + l7 + 8 * q1) : (m + (lane & 15));
                const int c = TA ? (m + 8 * q0) : (k + 8 * q1);
                addr = aBase + unsigned(swizzle<kRA, SWZ_A>(r * kRA + c * kE));
            }
            if constexpr (TA) ldmatrix_x4_trans(fa[mi], addr);
            else ldmatrix_x4(fa[mi], addr);
        }
    }
    /// The B half of load: ceil(kNI/2) ldmatrix (gemm_rs uses it alone).
    static __device__ __forceinline__ void loadB(const T* Bs, int kk, unsigned (&fb)[kNI][2]) {
        const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5;
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
                addr = bBase + unsigned(swizzle<kRB, SWZ_B>((l7 + 8 * q0) * kRB + (n + 8 * q1) * kE)) +
                       unsigned(k * kRB);
            } else if constexpr (TB && kBStep) {
                addr = bBase + unsigned(swizzle<kRB, SWZ_B>((n0 + l7 + 8 * q1) * kRB + (k + 8 * q0) * kE)) +
                       unsigned(ni * 8 * kRB);
            } else {
                const int r = TB ? (n + l7 + 8 * q1) : (k + l7 + 8 * q0);
                const int c = TB ? (k + 8 * q0) : (n + 8 * q1);
                addr = bBase + unsigned(swizzle<kRB, SWZ_B>(r * kRB + c * kE));
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
            const unsigned addr = bBase + unsigned(swizzle<kRB, SWZ_B>(r * kRB + c * kE));
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

// ============================================================================================
// Reductions (shfl.sync.bfly, PTX ISA §9.7.8.6) and atomics (atom, §9.7.13.5)
// ============================================================================================

/// Reduction operators: apply(a, b) combines, identity<T>() is the neutral start value.
struct SumOp {
    template <class T> static TS_HD T apply(T a, T b) { return a + b; }
    template <class T> static TS_HD T identity() { return cast<T>(0); }
};
struct MaxOp {
    template <class T> static TS_HD T apply(T a, T b) { return ts::max(a, b); }
    template <class T> static TS_HD T identity() { return ninfinity<T>(); }
};
struct MinOp {
    template <class T> static TS_HD T apply(T a, T b) { return ts::min(a, b); }
    template <class T> static TS_HD T identity() { return infinity<T>(); }
};
/// max(|a|, |b|); partial results are non-negative, so it composes in any tree.
struct AbsMaxOp {
    template <class T> static TS_HD T apply(T a, T b) { return ts::max(ts::abs(a), ts::abs(b)); }
    template <class T> static TS_HD T identity() { return cast<T>(0); }
};
/// |a| + |b|; partial results are non-negative, so it composes in any tree.
struct AbsSumOp {
    template <class T> static TS_HD T apply(T a, T b) { return ts::abs(a) + ts::abs(b); }
    template <class T> static TS_HD T identity() { return cast<T>(0); }
};

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

namespace detail {
/// *addr = f(*addr) for a 16-bit float type through a CAS loop on the containing 32-bit word
/// (addr 2-byte aligned, global or shared). `f` maps the current value (as float) to the new one.
template <class T, class F>
TS_D void atomic_update16(T* addr, F f) {
    const unsigned long long a = reinterpret_cast<unsigned long long>(addr);
    unsigned* word = reinterpret_cast<unsigned*>(a & ~3ull);
    const unsigned shift = (a & 2ull) ? 16u : 0u;
    unsigned old = *word, assumed;
    do {
        assumed = old;
        const T cur = T::fromBits((unsigned short)(assumed >> shift));
        const unsigned upd = T(f(float(cur))).bits;
        const unsigned next = (assumed & ~(0xffffu << shift)) | (upd << shift);
        old = atomicCAS(word, assumed, next);
    } while (old != assumed);
}
/// *addr = f(*addr) for float through a CAS loop on its bit pattern.
template <class F>
TS_D void atomic_update32(float* addr, F f) {
    unsigned* word = reinterpret_cast<unsigned*>(addr);
    unsigned old = *word, assumed;
    do {
        assumed = old;
        old = atomicCAS(word, assumed, __float_as_uint(f(__uint_as_float(assumed))));
    } while (old != assumed);
}
}  // namespace detail

TS_D void atomic_add(bfloat16* addr, bfloat16 v) {
#if __CUDA_ARCH__ >= 900
    asm volatile("red.add.noftz.bf16 [%0], %1;\n" ::"l"(addr), "h"(v.bits) : "memory");
#else
    const float x = float(v);
    detail::atomic_update16(addr, [x](float cur) { return cur + x; });
#endif
}

/// *addr = max(*addr, v) / min(*addr, v) atomically (T.atomic_max / T.atomic_min; NaN operands
/// lose, as fmaxf/fminf). Integers: atomicMax/atomicMin; float, half, bfloat16: CAS loops.
TS_D void atomic_max(int* addr, int v) { atomicMax(addr, v); }
TS_D void atomic_min(int* addr, int v) { atomicMin(addr, v); }
TS_D void atomic_max(unsigned* addr, unsigned v) { atomicMax(addr, v); }
TS_D void atomic_min(unsigned* addr, unsigned v) { atomicMin(addr, v); }
TS_D void atomic_max(float* addr, float v) {
    detail::atomic_update32(addr, [v](float cur) { return fmaxf(cur, v); });
}
TS_D void atomic_min(float* addr, float v) {
    detail::atomic_update32(addr, [v](float cur) { return fminf(cur, v); });
}
template <class T>
TS_D void atomic_max(T* addr, T v) {
    const float x = float(v);
    detail::atomic_update16(addr, [x](float cur) { return fmaxf(cur, x); });
}
template <class T>
TS_D void atomic_min(T* addr, T v) {
    const float x = float(v);
    detail::atomic_update16(addr, [x](float cur) { return fminf(cur, x); });
}

}  // namespace ts

#undef TS_MMA_ACC4
#undef TS_HD
#undef TS_D

#endif  // TS_DEVICE_CUH
