#include "compiler/support/HostTensor.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

namespace ts {
static_assert(std::endian::native == std::endian::little, "device byte order is little-endian");

using ir::DType;

namespace {

/// A binary floating-point format: `mant` stored mantissa bits, `expBits` exponent bits, IEEE
/// bias. `hasInf` false means the OCP "FN" convention (all-ones exponent is a normal binade except
/// the all-ones mantissa, which is NaN) with saturating conversion.
struct FloatFormat {
    int mant;
    int expBits;
    int bias;
    bool hasInf;
    uint32_t canonicalNaN;

    int emin() const { return 1 - bias; }
    int emax() const { return (hasInf ? (1 << expBits) - 2 : (1 << expBits) - 1) - bias; }
    /// Largest finite value: IEEE (2 - 2^-mant) * 2^emax; FN formats lose the all-ones mantissa
    /// (NaN) in the top binade, so (2 - 2^(1-mant)) * 2^emax (448 for e4m3).
    double maxFinite() const {
        const double frac = hasInf ? 2.0 - std::ldexp(1.0, -mant) : 2.0 - std::ldexp(1.0, 1 - mant);
        return std::ldexp(frac, emax());
    }
};

// IEEE 754 binary16/binary32, bfloat16 (truncated binary32), OCP OFP8 spec v1.0 (E4M3FN, E5M2).
constexpr FloatFormat kF16{10, 5, 15, true, 0x7E00};
constexpr FloatFormat kBF16{7, 8, 127, true, 0x7FC0};
constexpr FloatFormat kF32{23, 8, 127, true, 0x7FC00000};
constexpr FloatFormat kE4M3{3, 4, 7, false, 0x7F};
constexpr FloatFormat kE5M2{2, 5, 15, true, 0x7E};

const FloatFormat* formatOf(DType t) {
    switch (t) {
        case DType::Float16:
            return &kF16;
        case DType::BFloat16:
            return &kBF16;
        case DType::Float32:
            return &kF32;
        case DType::Float8E4M3:
            return &kE4M3;
        case DType::Float8E5M2:
            return &kE5M2;
        default:
            return nullptr;
    }
}

/// Round-half-to-even of a non-negative double below 2^53 (independent of the FP rounding mode).
double rne(double y) {
    const double f = std::floor(y);
    const double d = y - f;
    if (d > 0.5) return f + 1;
    if (d < 0.5) return f;
    return std::fmod(f, 2.0) == 0.0 ? f : f + 1;
}

/// Exponent e with 2^e <= a < 2^(e+1), for finite a > 0.
int binade(double a) {
    int ex = 0;
    std::frexp(a, &ex);
    return ex - 1;
}

/// Rounds finite `v` whose result is a normal number of `f` (no subnormal, no overflow) by
/// integer arithmetic on its binary64 bits: round-half-to-even at the format's last mantissa
/// bit (a carry out of the mantissa moves into the exponent, as it should). nullopt when the
/// value or its rounding leaves the normal range, where roundFloat's general path decides.
/// Inputs of millions of elements (a 128 x 8192 x 512 KV cache) spent ~100 ns per element in
/// the general path's frexp/ldexp/fmod; this is a few ns.
std::optional<uint64_t> roundNormalBits(const FloatFormat& f, double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    const int ex = int((bits >> 52) & 0x7FF) - 1023;
    if (ex < f.emin() || ex > f.emax()) return std::nullopt;  // subnormal, overflow, inf, NaN, 0
    const int shift = 52 - f.mant;
    const uint64_t lsb = (bits >> shift) & 1u;
    bits += (uint64_t(1) << (shift - 1)) - 1 + lsb;
    bits &= ~((uint64_t(1) << shift) - 1);
    const int exr = int((bits >> 52) & 0x7FF) - 1023;
    if (exr > f.emax()) return std::nullopt;
    if (!f.hasInf && exr == f.emax() && ((bits >> shift) & ((uint64_t(1) << f.mant) - 1)) == (uint64_t(1) << f.mant) - 1)
        return std::nullopt;  // the FN formats' all-ones top code is NaN, not a value
    return bits;
}

double roundFloat(const FloatFormat& f, double v) {
    if (auto b = roundNormalBits(f, v)) {
        double r;
        std::memcpy(&r, &*b, 8);
        return r;
    }
    if (std::isnan(v)) return v;
    if (std::isinf(v)) return f.hasInf ? v : std::copysign(f.maxFinite(), v);
    if (v == 0.0) return v;
    const double a = std::fabs(v);
    const int e = std::max(binade(a), f.emin());  // below emin: subnormal spacing
    const int quantumExp = e - f.mant;
    // Scaling by a power of two is exact, so the only rounding is rne().
    const double r = std::ldexp(rne(std::ldexp(a, -quantumExp)), quantumExp);
    if (r > f.maxFinite())
        return std::copysign(f.hasInf ? std::numeric_limits<double>::infinity() : f.maxFinite(), v);
    return std::copysign(r, v);
}

uint32_t encodeFloat(const FloatFormat& f, double v) {
    if (auto b = roundNormalBits(f, v)) {  // normal result: the fields straight from the bits
        const uint32_t sign = uint32_t(*b >> 63) << (f.mant + f.expBits);
        const auto expField = uint32_t(int((*b >> 52) & 0x7FF) - 1023 + f.bias);
        const auto m = uint32_t((*b >> (52 - f.mant)) & ((uint64_t(1) << f.mant) - 1));
        return sign | (expField << f.mant) | m;
    }
    v = roundFloat(f, v);
    const uint32_t sign = std::signbit(v) ? 1u << (f.mant + f.expBits) : 0u;
    const uint32_t expAllOnes = (1u << f.expBits) - 1;
    if (std::isnan(v)) return f.canonicalNaN;
    if (std::isinf(v)) return sign | (expAllOnes << f.mant);
    const double a = std::fabs(v);
    if (a == 0.0) return sign;
    const int e = binade(a);
    if (e < f.emin()) {  // subnormal: exponent field 0, value = m * 2^(emin - mant)
        const auto m = static_cast<uint32_t>(std::ldexp(a, f.mant - f.emin()));
        return sign | m;
    }
    const auto expField = static_cast<uint32_t>(e + f.bias);
    const auto m = static_cast<uint32_t>(std::ldexp(a, f.mant - e) - std::ldexp(1.0, f.mant));
    return sign | (expField << f.mant) | m;
}

double decodeFloat(const FloatFormat& f, uint32_t bits) {
    const uint32_t mantMask = (1u << f.mant) - 1;
    const uint32_t expAllOnes = (1u << f.expBits) - 1;
    const bool neg = (bits >> (f.mant + f.expBits)) & 1u;
    const uint32_t expField = (bits >> f.mant) & expAllOnes;
    const uint32_t m = bits & mantMask;
    if (expField != 0 && expField != expAllOnes) {  // normal: the binary64 fields directly
        const uint64_t d = (uint64_t(neg) << 63) | (uint64_t(int(expField) - f.bias + 1023) << 52) |
                           (uint64_t(m) << (52 - f.mant));
        double r;
        std::memcpy(&r, &d, 8);
        return r;
    }
    double a;
    if (f.hasInf && expField == expAllOnes) {
        a = m == 0 ? std::numeric_limits<double>::infinity()
                   : std::numeric_limits<double>::quiet_NaN();
    } else if (!f.hasInf && expField == expAllOnes && m == mantMask) {
        a = std::numeric_limits<double>::quiet_NaN();
    } else if (expField == 0) {
        a = std::ldexp(static_cast<double>(m), f.emin() - f.mant);
    } else {
        a = std::ldexp(static_cast<double>((1u << f.mant) | m),
                       static_cast<int>(expField) - f.bias - f.mant);
    }
    return neg ? -a : a;
}

/// C-cast semantics for an n-bit integer: truncate, then reduce modulo 2^n (fmod is exact).
double wrapInt(double v, int bits, bool isSignedType) {
    if (!std::isfinite(v)) return 0.0;
    // int64's largest values (2^63 - 512 .. 2^63 - 1) are the double 2^63: keep it (it reads back as
    // INT64_MAX), not its wrap INT64_MIN -- T.reduce_min's identity 9223372036854775807 stored that
    // way won every row in the lowered interpreter (helper-115).
    if (isSignedType && bits == 64 && v == 9223372036854775808.0) return v;
    const double modulus = std::ldexp(1.0, bits);
    double m = std::fmod(std::trunc(v), modulus);  // in (-2^bits, 2^bits)
    if (isSignedType) {
        // Shift into [-2^(bits-1), 2^(bits-1)); exact, as m is a multiple of its own ulp.
        const double half = std::ldexp(1.0, bits - 1);
        if (m >= half)
            m -= modulus;
        else if (m < -half)
            m += modulus;
    } else if (m < 0) {
        m += modulus;
        // Only for uint64: 2^64 - k (small k) is not a double; stay below 2^64.
        if (m >= modulus) m = std::nextafter(modulus, 0.0);
    }
    return m + 0.0;  // turns -0.0 into +0.0
}

/// Two's-complement bit pattern (low `bits` bits) of an integer value produced by wrapInt.
uint64_t intPattern(double v, bool isSignedType) {
    if (isSignedType)  // 2^63: INT64_MAX as a double (wrapInt keeps it); the cast would be undefined
        return v >= 9223372036854775808.0 ? static_cast<uint64_t>(INT64_MAX) : static_cast<uint64_t>(static_cast<int64_t>(v));
    return static_cast<uint64_t>(v);
}

double intFromPattern(uint64_t p, int bits, bool isSignedType) {
    if (bits < 64) p &= (uint64_t{1} << bits) - 1;
    if (isSignedType) {
        if (bits < 64 && (p >> (bits - 1)) & 1u) p |= ~uint64_t{0} << bits;  // sign-extend
        return static_cast<double>(static_cast<int64_t>(p));
    }
    return static_cast<double>(p);
}

}  // namespace

int64_t numelOf(std::span<const int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

int64_t HostTensor::numel() const { return numelOf(shape); }

HostTensor makeHostTensor(DType dtype, std::vector<int64_t> shape, std::vector<double> values) {
    if (static_cast<int64_t>(values.size()) != numelOf(shape))
        throw std::invalid_argument("makeHostTensor: " + std::to_string(values.size()) +
                                    " values for shape " + formatShape(shape));
    for (double& v : values) v = roundTo(dtype, v);
    return HostTensor{dtype, std::move(shape), std::move(values)};
}

std::string formatShape(std::span<const int64_t> shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + ")";
}

uint8_t fp4E2M1Bits(double v) {
    if (std::isnan(v)) return 0x7;  // cuda_fp4.hpp: NaN -> +MAX_NORM (satfinite)
    const uint8_t sign = std::signbit(v) ? 0x8 : 0x0;
    const double a = std::fabs(v);
    // Round to nearest, ties to the even code, saturating at 6: the midpoints between the
    // magnitudes {0, .5, 1, 1.5, 2, 3, 4, 6} are .25 .75 1.25 1.75 2.5 3.5 5.
    uint8_t m = a <= 0.25 ? 0 : a < 0.75 ? 1 : a <= 1.25 ? 2 : a < 1.75 ? 3
              : a <= 2.5 ? 4 : a < 3.5 ? 5 : a <= 5.0 ? 6 : 7;
    return static_cast<uint8_t>(sign | m);
}

double fp4E2M1Value(uint8_t bits) {
    const unsigned m = bits & 7u, e = m >> 1, mant = m & 1u;
    const double mag = e == 0 ? 0.5 * mant : (1.0 + 0.5 * mant) * std::ldexp(1.0, int(e) - 1);
    return (bits & 8u) ? -mag : mag;
}

double roundTo(DType t, double v) {
    if (t == DType::Float4E2M1) return fp4E2M1Value(fp4E2M1Bits(v));
    if (const FloatFormat* f = formatOf(t)) return roundFloat(*f, v);
    if (t == DType::Float64) return v;
    if (t == DType::Bool) return v == 0.0 ? 0.0 : 1.0;
    return wrapInt(v, ir::dtypeBits(t), ir::isSigned(t));
}

size_t encodedSize(DType t, int64_t numel) {
    const auto n = static_cast<size_t>(numel);
    if (ir::dtypeBits(t) == 4) return (n + 1) / 2;
    return n * static_cast<size_t>(ir::dtypeBytes(t));
}

uint32_t floatBits(DType t, double v) {
    if (t == DType::Float4E2M1) return fp4E2M1Bits(v);
    const FloatFormat* f = formatOf(t);
    if (!f) throw std::invalid_argument("floatBits: not a 8/16/32-bit float dtype");
    return encodeFloat(*f, v);
}

double floatFromBits(DType t, uint32_t bits) {
    if (t == DType::Float4E2M1) return fp4E2M1Value(static_cast<uint8_t>(bits & 0xF));
    const FloatFormat* f = formatOf(t);
    if (!f) throw std::invalid_argument("floatFromBits: not a 8/16/32-bit float dtype");
    return decodeFloat(*f, bits);
}

std::vector<uint8_t> encode(const HostTensor& t) {
    if (!t.hasData())
        throw std::invalid_argument("encode: tensor of shape " + formatShape(t.shape) + " has " +
                                    std::to_string(t.data.size()) + " values");
    const int bits = ir::dtypeBits(t.dtype);
    std::vector<uint8_t> out(encodedSize(t.dtype, t.numel()), 0);
    if (bits == 4) {
        const bool sgn = ir::isSigned(t.dtype);
        for (size_t i = 0; i < t.data.size(); ++i) {
            const auto nib = t.dtype == DType::Float4E2M1
                                 ? fp4E2M1Bits(t.data[i])
                                 : static_cast<uint8_t>(intPattern(roundTo(t.dtype, t.data[i]), sgn) & 0xF);
            out[i / 2] |= static_cast<uint8_t>(i % 2 ? nib << 4 : nib);
        }
        return out;
    }
    const size_t nb = static_cast<size_t>(ir::dtypeBytes(t.dtype));
    const FloatFormat* f = formatOf(t.dtype);
    for (size_t i = 0; i < t.data.size(); ++i) {
        uint64_t p;
        if (f) {
            p = encodeFloat(*f, t.data[i]);
        } else if (t.dtype == DType::Float64) {
            std::memcpy(&p, &t.data[i], 8);
        } else {
            p = intPattern(roundTo(t.dtype, t.data[i]), ir::isSigned(t.dtype));
        }
        for (size_t b = 0; b < nb; ++b) out[i * nb + b] = static_cast<uint8_t>(p >> (8 * b));
    }
    return out;
}

HostTensor decode(DType dtype, std::vector<int64_t> shape, std::span<const uint8_t> bytes) {
    const int64_t n = numelOf(shape);
    if (bytes.size() != encodedSize(dtype, n))
        throw std::invalid_argument("decode: " + std::to_string(bytes.size()) + " bytes for " +
                                    std::string(ir::dtypeName(dtype)) + " tensor of shape " +
                                    formatShape(shape) + " (expected " +
                                    std::to_string(encodedSize(dtype, n)) + ")");
    HostTensor t{dtype, std::move(shape), std::vector<double>(static_cast<size_t>(n))};
    const int bits = ir::dtypeBits(dtype);
    const bool sgn = ir::isSigned(dtype);
    if (bits == 4) {
        for (size_t i = 0; i < t.data.size(); ++i)
            t.data[i] = dtype == DType::Float4E2M1
                            ? fp4E2M1Value((bytes[i / 2] >> (i % 2 ? 4 : 0)) & 0xF)
                            : intFromPattern((bytes[i / 2] >> (i % 2 ? 4 : 0)) & 0xF, 4, sgn);
        return t;
    }
    const size_t nb = static_cast<size_t>(ir::dtypeBytes(dtype));
    const FloatFormat* f = formatOf(dtype);
    for (size_t i = 0; i < t.data.size(); ++i) {
        uint64_t p = 0;
        for (size_t b = 0; b < nb; ++b) p |= static_cast<uint64_t>(bytes[i * nb + b]) << (8 * b);
        if (f) {
            t.data[i] = decodeFloat(*f, static_cast<uint32_t>(p));
        } else if (dtype == DType::Float64) {
            std::memcpy(&t.data[i], &p, 8);
        } else if (dtype == DType::Bool) {
            t.data[i] = p != 0 ? 1.0 : 0.0;
        } else {
            t.data[i] = intFromPattern(p, bits, sgn);
        }
    }
    return t;
}

namespace {
uint64_t lowBitsMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
}  // namespace

namespace {
// A NaN of a narrower float keeps its bits in the interpreters' doubles: elementValue returns a
// quiet double NaN tagged with bit 50, the format's width at bits 32..37 and the element's bits
// below, and elementBits gives those bits back for the same width. The GPU moves a NaN's bytes
// unchanged through views (a half NaN 0xFFBE read as int16 is -66; PTX ISA 5.2); without the
// tag every NaN came back as the format's canonical one. Arithmetic may carry a tagged NaN on
// (x86 propagates payloads) where the GPU's result would be canonical: only bit-level reads of
// computed NaNs can tell.
constexpr uint64_t kNanTag = 0x7FFC000000000000ull;

double taggedNan(int bits, uint64_t u) {
    const uint64_t x = kNanTag | (uint64_t(bits) << 32) | (u & 0xFFFFFFFFull);
    double d;
    std::memcpy(&d, &x, sizeof d);
    return d;
}

std::optional<uint64_t> nanTagBits(int bits, double v) {
    if (!std::isnan(v)) return std::nullopt;
    uint64_t x;
    std::memcpy(&x, &v, sizeof x);
    if ((x & kNanTag) != kNanTag || int((x >> 32) & 0x3F) != bits) return std::nullopt;
    return x & lowBitsMask(bits);
}
}  // namespace

uint64_t elementBits(ir::DType t, double v) {
    const int bits = ir::dtypeBits(t);
    if (t == ir::DType::Float64) {
        uint64_t u;
        std::memcpy(&u, &v, sizeof u);
        return u;
    }
    if (ir::isFloat(t)) {
        if (auto tagged = nanTagBits(bits, v)) return *tagged;
        return floatBits(t, v) & lowBitsMask(bits);
    }
    if (t == ir::DType::Bool) return v != 0 ? 1 : 0;
    // The interpreters poison integer memory with 0, never NaN; a NaN here is a float value
    // stored into an integer name, which the device would have converted: 0 as well.
    if (!std::isfinite(v)) return 0;
    if (!ir::isSigned(t) && v >= 9223372036854775808.0) return static_cast<uint64_t>(v) & lowBitsMask(bits);
    return static_cast<uint64_t>(static_cast<int64_t>(v)) & lowBitsMask(bits);
}

double elementValue(ir::DType t, uint64_t u) {
    const int bits = ir::dtypeBits(t);
    u &= lowBitsMask(bits);
    if (t == ir::DType::Float64) {
        double d;
        std::memcpy(&d, &u, sizeof d);
        return d;
    }
    if (ir::isFloat(t)) {
        const double d = floatFromBits(t, static_cast<uint32_t>(u));
        return std::isnan(d) ? taggedNan(bits, u) : d;
    }
    if (t == ir::DType::Bool) return u != 0 ? 1.0 : 0.0;
    if (ir::isSigned(t) && bits < 64 && (u >> (bits - 1)) & 1) u |= ~lowBitsMask(bits);
    return ir::isSigned(t) ? static_cast<double>(static_cast<int64_t>(u)) : static_cast<double>(u);
}


}  // namespace ts
