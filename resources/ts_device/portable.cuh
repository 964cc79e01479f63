// Portable part of the TileScope device headers: the 16- and 8-bit float types and their
// conversions, cast, max/min/abs/infinity, the shared-memory swizzle contract and the reduction
// operators. Included inside `namespace ts` by resources/ts_device.cuh (CUDA) and
// resources/ts_hip.h (HIP), which define TS_HD/TS_D first; EmbedResources.cmake inlines it, so
// each embedded/exported header stays one file. Device-specific fast paths are guarded by
// __CUDA_ARCH__ (inline PTX); elsewhere (HIP, host) the exact software paths are used.

// ============================================================================================
// Type traits (no <type_traits> under NVRTC without include paths)
// ============================================================================================

/// The memory_order of T.atomic_add/max/min(..., memory_order=...) other than relaxed (a relaxed
/// atomic is the plain one). "consume" arrives as acquire (the compiler maps it).
enum class MemoryOrder { acquire, release, acq_rel, seq_cst };

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

/// Round-to-odd to float: the value truncated toward zero, its last bit set when that dropped
/// anything. float keeps 13+ more significand bits than half, bfloat16 and fp8, so rounding this
/// once more to one of them (RNE) equals rounding the exact value once (Boldo and Melquiond,
/// "When double rounding is odd", 2005); a plain float(d) first would round twice (a double just
/// above a bfloat16 tie lands on the tie, which then goes to even). Used for the sources float
/// cannot hold exactly: double and 32/64-bit integers. Not a hot path (no kernel's inner loop
/// converts double to half), so one portable form serves host and device.
TS_HD float roundOddFloat(double d) {
    const float f = static_cast<float>(d);
    if (static_cast<double>(f) == d || d != d) return f;  // exact (incl. +-inf), or NaN
    unsigned u = floatBits(f);
    // Round-to-nearest went away from zero (up to inf past float's range): one step back.
    if (d > 0.0 ? static_cast<double>(f) > d : static_cast<double>(f) < d) u -= 1u;
    return bitsFloat(u | 1u);
}
/// The same for 64-bit integers, whose double would already be rounded past 2^53: the 24 top
/// significant bits, the last one ORed with every bit shifted out (exact scaling by 2^shift).
TS_HD float roundOddFloat(unsigned long long u) {
    int shift = 0;
    while ((u >> shift) >= (1ull << 24)) ++shift;
    unsigned long long m = u >> shift;
    if (shift != 0 && (u & ((1ull << shift) - 1ull)) != 0) m |= 1ull;
    return static_cast<float>(static_cast<unsigned>(m)) * bitsFloat(unsigned(127 + shift) << 23);
}
TS_HD float roundOddFloat(long long x) {
    return x < 0 ? -roundOddFloat(0ull - static_cast<unsigned long long>(x)) : roundOddFloat(static_cast<unsigned long long>(x));
}
TS_HD float roundOddFloat(int x) { return roundOddFloat(static_cast<double>(x)); }
TS_HD float roundOddFloat(unsigned x) { return roundOddFloat(static_cast<double>(x)); }
/// Sources whose conversion to a 16/8/4-bit float goes through roundOddFloat (float cannot hold
/// all their values); narrower integers and float itself convert to float exactly.
template <class T> struct NeedsOddRound { static constexpr bool value = false; };
template <> struct NeedsOddRound<double> { static constexpr bool value = true; };
template <> struct NeedsOddRound<int> { static constexpr bool value = true; };
template <> struct NeedsOddRound<unsigned> { static constexpr bool value = true; };
template <> struct NeedsOddRound<long long> { static constexpr bool value = true; };
template <> struct NeedsOddRound<unsigned long long> { static constexpr bool value = true; };
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
    TS_HD explicit half(double d) : half(detail::roundOddFloat(d)) {}
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
    TS_HD explicit bfloat16(double d) : bfloat16(detail::roundOddFloat(d)) {}
    TS_HD explicit bfloat16(int i) : bfloat16(detail::roundOddFloat(i)) {}
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
    TS_HD explicit fp8_e4m3(double d) : fp8_e4m3(detail::roundOddFloat(d)) {}
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

/// OCP FP8 E5M2 (bias 15, max 57344, IEEE inf/NaN). Conversion from float is RNE without
/// saturation, like binary16 (LANGUAGE.md: "e5m2 keeps infinities"; the interpreters' encoding,
/// compiler/support/HostTensor.cpp): ±inf stays ±inf and |x| >= 61440 (the midpoint between 57344
/// and the next binade, which rounds to even = up) becomes ±inf. PTX has cvt to e5m2 only with
/// .satfinite (PTX ISA §9.7.9.21), so on sm_89+ the hardware result is fixed up for those inputs.
struct fp8_e5m2 {
    unsigned char bits;
    fp8_e5m2() = default;
    TS_HD explicit fp8_e5m2(float f) : bits(fromFloat(f)) {}
    TS_HD explicit fp8_e5m2(double d) : fp8_e5m2(detail::roundOddFloat(d)) {}
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
        if (fabsf(f) >= 61440.0f) return f < 0.0f ? 0xfcu : 0x7cu;  // ±inf (NaN compares false)
        unsigned short r;
        asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f));
        return (unsigned char)(r & 0xffu);
#else
        return (unsigned char)detail::encodeSmallFloat<5, 2, false, 0x7bu, 0x7fu>(f);
#endif
    }
};

/// OCP FP4 E2M1 ("float4_e2m1fn": bias 1, ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}, no inf/NaN), one value
/// per byte in registers (the nibble in the low 4 bits); packed two per byte in global and shared
/// memory (load_packed4 / store_packed4 below). From float: round to nearest, ties to the even
/// code, saturating at ±6, NaN -> +6 (cuda_fp4.hpp's __nv_cvt_float_to_fp4, cudaRoundNearest;
/// the interpreters' fp4E2M1Bits, compiler/support/HostTensor.cpp). Software on every target.
struct fp4_e2m1 {
    unsigned char bits;
    fp4_e2m1() = default;
    TS_HD explicit fp4_e2m1(float f) : bits(fromFloat(f)) {}
    TS_HD explicit fp4_e2m1(double d) : fp4_e2m1(detail::roundOddFloat(d)) {}
    TS_HD explicit fp4_e2m1(int i) : fp4_e2m1(float(i)) {}
    TS_HD operator float() const {
        const unsigned m = bits & 7u, e = m >> 1, mant = m & 1u;
        const float mag = e == 0 ? 0.5f * float(mant) : (1.0f + 0.5f * float(mant)) * float(1u << (e - 1));
        return (bits & 8u) ? -mag : mag;
    }
    static TS_HD fp4_e2m1 fromBits(unsigned char b) { fp4_e2m1 h; h.bits = (unsigned char)(b & 0xfu); return h; }
    static TS_HD unsigned char fromFloat(float f) {
        if (f != f) return 0x7u;
        const unsigned char sign = (unsigned char)((detail::floatBits(f) >> 31) << 3);
        const float a = fabsf(f);
        const unsigned char m = a <= 0.25f ? 0 : a < 0.75f ? 1 : a <= 1.25f ? 2 : a < 1.75f ? 3
                              : a <= 2.5f ? 4 : a < 3.5f ? 5 : a <= 5.0f ? 6 : 7;
        return (unsigned char)(sign | m);
    }
};

namespace detail {
template <class T> struct IsLowp { static constexpr bool value = false; };
template <> struct IsLowp<fp4_e2m1> { static constexpr bool value = true; };
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
/// targets round once (RNE; e4m3 saturating, e5m2 overflowing to inf): from float directly, from
/// double and 32/64-bit integers through a round-to-odd float (detail::roundOddFloat), which keeps
/// the one rounding the interpreters do. Low-precision sources convert exactly to float, then
/// static_cast.
template <class To, class From> TS_HD To cast(From x) {
    if constexpr (detail::IsSame<To, From>::value) {
        return x;
    } else if constexpr (detail::IsLowp<To>::value && detail::NeedsOddRound<From>::value) {
        return To(detail::roundOddFloat(x));
    } else if constexpr (detail::IsLowp<To>::value) {
        return To(static_cast<float>(x));
    } else if constexpr (detail::IsLowp<From>::value) {
        return static_cast<To>(static_cast<float>(x));
    } else {
        return static_cast<To>(x);
    }
}

/// Two float32 values to a pair of half / bfloat16 (`d0 = cast(a)`, `d1 = cast(b)`), the
/// conversion of a register accumulator for the next gemm (FlashAttention's P = S): one
/// cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 (PTX ISA §9.7.9.21, sm_80+) instead of two, with the same
/// round-to-nearest-even result as cast() element by element.
template <class To> TS_HD void cast_pair(To& d0, To& d1, float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (detail::IsSame<To, half>::value || detail::IsSame<To, bfloat16>::value) {
        unsigned u;
        // The first source goes to the upper half (PTX ISA: "d = {cvt(a), cvt(b)}" upper, lower).
        if constexpr (detail::IsSame<To, half>::value)
            asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(u) : "f"(b), "f"(a));
        else
            asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(u) : "f"(b), "f"(a));
        d0 = To::fromBits((unsigned short)(u & 0xffffu));
        d1 = To::fromBits((unsigned short)(u >> 16));
        return;
    }
#endif
    d0 = cast<To>(a);
    d1 = cast<To>(b);
}

// ============================================================================================
// 4-bit elements in memory (int4, uint4, float4_e2m1fn): two per byte, element 2k in the low
// nibble of byte k (the host's packing, compiler/support/HostTensor.cpp encode). Registers hold
// one element per byte; global and shared accesses go through these.
// ============================================================================================

namespace detail {
template <class T> TS_HD T fromNibble(unsigned n) {
    if constexpr (IsSame<T, fp4_e2m1>::value) return fp4_e2m1::fromBits((unsigned char)n);
    else if constexpr (T(-1) < T(0)) return T(int(n << 28) >> 28);  // int4: sign-extend
    else return T(n);
}
template <class T> TS_HD unsigned toNibble(T v) {
    if constexpr (IsSame<T, fp4_e2m1>::value) return v.bits & 0xfu;
    else return unsigned(v) & 0xfu;
}
}  // namespace detail

/// Element i of the packed 4-bit array at p.
template <class T> TS_HD T load_packed4(const T* p, long long i) {
    const unsigned char b = reinterpret_cast<const unsigned char*>(p)[i >> 1];
    return detail::fromNibble<T>((i & 1) ? (b >> 4) : (b & 0xfu));
}


/// T.reinterpret(x, dtype): the bits of x read as To (a bit cast; both types have the same
/// width, which elaboration checks). A byte copy is the portable spelling: NVRTC has neither
/// std::bit_cast nor memcpy without include paths, and a union cannot hold the ts float types;
/// copying through unsigned char is legal aliasing and compiles to a register move.
template <class To, class From> TS_HD To bit_cast(From x) {
    static_assert(sizeof(To) == sizeof(From), "T.reinterpret keeps the width");
    To r;
    const unsigned char* src = reinterpret_cast<const unsigned char*>(&x);
    unsigned char* dst = reinterpret_cast<unsigned char*>(&r);
    for (int i = 0; i < int(sizeof(To)); ++i) dst[i] = src[i];
    return r;
}

// ============================================================================================
// Comparisons and limits
// ============================================================================================

/// max/min: if either is NaN the other is returned for float (fmaxf semantics); by comparison
/// for other types. abs: sign-bit clear for floats (exact).
template <class T> TS_HD T max(T a, T b) { return a < b ? b : a; }
template <class T> TS_HD T min(T a, T b) { return b < a ? b : a; }
template <> TS_HD float max<float>(float a, float b) { return fmaxf(a, b); }
template <> TS_HD float min<float>(float a, float b) { return fminf(a, b); }
template <class T> TS_HD T abs(T a) {
    if constexpr (detail::IsLowp<T>::value) {
        T r = a;
        r.bits &= (sizeof(T) == 2 ? 0x7fff : detail::IsSame<T, fp4_e2m1>::value ? 0x7 : 0x7f);
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
    else if constexpr (detail::IsSame<T, fp4_e2m1>::value) return fp4_e2m1::fromBits(0x7);
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
// Reduction operators (warp/block reductions of both headers combine with these)
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
/// T.reduce_max/min(..., nan_propagate=True): a NaN operand wins (TileLang's MaxOpNan/MinOpNan);
/// x != x in float32 (16-bit floats widen exactly; CUDA's __hne would be false for NaN).
template <class T> TS_HD bool is_nan_value(T x) {
    const float f = static_cast<float>(x);
    return f != f;
}
template <> TS_HD bool is_nan_value<double>(double x) { return x != x; }
struct MaxNanOp {
    template <class T> static TS_HD T apply(T a, T b) { return is_nan_value(a) ? a : is_nan_value(b) ? b : ts::max(a, b); }
    template <class T> static TS_HD T identity() { return ninfinity<T>(); }
};
struct MinNanOp {
    template <class T> static TS_HD T apply(T a, T b) { return is_nan_value(a) ? a : is_nan_value(b) ? b : ts::min(a, b); }
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
