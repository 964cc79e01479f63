// HostTensor numerics: rounding and bit patterns of every dtype against hand-derived encodings
// (IEEE 754 binary16/binary32, bfloat16, OCP OFP8 v1.0 E4M3FN/E5M2), and the byte layout the
// device sees (little-endian, int4 packed low nibble first).
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "compiler/support/HostTensor.h"

using ts::decode;
using ts::encode;
using ts::floatBits;
using ts::floatFromBits;
using ts::HostTensor;
using ts::roundTo;
using ts::ir::DType;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST(HostTensorFloat16, HandDerivedBits) {
    EXPECT_EQ(floatBits(DType::Float16, 1.0), 0x3C00u);
    EXPECT_EQ(floatBits(DType::Float16, -2.0), 0xC000u);
    EXPECT_EQ(floatBits(DType::Float16, 0.1), 0x2E66u);
    EXPECT_EQ(floatBits(DType::Float16, 1.0 / 3.0), 0x3555u);
    EXPECT_EQ(floatBits(DType::Float16, 65504.0), 0x7BFFu);               // max finite
    EXPECT_EQ(floatBits(DType::Float16, std::ldexp(1.0, -14)), 0x0400u);  // min normal
    EXPECT_EQ(floatBits(DType::Float16, std::ldexp(1.0, -24)), 0x0001u);  // min subnormal
    EXPECT_EQ(floatBits(DType::Float16, 0.0), 0x0000u);
    EXPECT_EQ(floatBits(DType::Float16, -0.0), 0x8000u);
    EXPECT_EQ(floatBits(DType::Float16, kInf), 0x7C00u);
    EXPECT_EQ(floatBits(DType::Float16, -kInf), 0xFC00u);
    EXPECT_EQ(floatBits(DType::Float16, kNaN), 0x7E00u);
}

TEST(HostTensorFloat16, TiesToEvenAndOverflow) {
    // 1 + 2^-11 lies halfway between 0x3C00 (even) and 0x3C01: goes down.
    EXPECT_EQ(floatBits(DType::Float16, 1.0 + std::ldexp(1.0, -11)), 0x3C00u);
    // 1 + 3*2^-11 lies halfway between 0x3C01 and 0x3C02 (even): goes up.
    EXPECT_EQ(floatBits(DType::Float16, 1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02u);
    // Just above the tie goes up.
    EXPECT_EQ(floatBits(DType::Float16, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)),
              0x3C01u);
    // 2^-25 is halfway between 0 and the smallest subnormal: ties to 0 (even).
    EXPECT_EQ(floatBits(DType::Float16, std::ldexp(1.0, -25)), 0x0000u);
    EXPECT_EQ(floatBits(DType::Float16, 3 * std::ldexp(1.0, -26)), 0x0001u);
    // 65520 is halfway between 65504 (odd mantissa) and 65536 (not representable): inf.
    EXPECT_EQ(floatBits(DType::Float16, 65519.0), 0x7BFFu);
    EXPECT_EQ(floatBits(DType::Float16, 65520.0), 0x7C00u);
    EXPECT_EQ(roundTo(DType::Float16, -1e6), -kInf);
    EXPECT_EQ(roundTo(DType::Float16, 2049.0), 2048.0);  // spacing 2 above 2048, tie to even
    EXPECT_EQ(roundTo(DType::Float16, 2051.0), 2052.0);
}

#if defined(__FLT16_MAX__)
TEST(HostTensorFloat16, AgreesWithCompilerFloat16) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200000; ++i) {
        const double e = std::ldexp(1.0, static_cast<int>(rng() % 44) - 28);
        const double v = (static_cast<double>(rng() >> 11) * 0x1p-53 * 2 - 1) * e;
        const _Float16 h = static_cast<_Float16>(v);
        ASSERT_EQ(roundTo(DType::Float16, v), static_cast<double>(h)) << v;
    }
}
#endif

TEST(HostTensorFloat32, AgreesWithHardwareCast) {
    EXPECT_EQ(floatBits(DType::Float32, 1.0), 0x3F800000u);
    EXPECT_EQ(floatBits(DType::Float32, 0.1), 0x3DCCCCCDu);
    EXPECT_EQ(floatBits(DType::Float32, std::ldexp(1.0, -149)), 0x00000001u);
    std::mt19937_64 rng(3);
    for (int i = 0; i < 200000; ++i) {
        double v;
        const uint64_t bits = rng();
        std::memcpy(&v, &bits, 8);
        if (!std::isfinite(v) || std::fabs(v) > 3e38) continue;
        ASSERT_EQ(roundTo(DType::Float32, v), static_cast<double>(static_cast<float>(v))) << v;
        float f = static_cast<float>(v);
        uint32_t fb;
        std::memcpy(&fb, &f, 4);
        ASSERT_EQ(floatBits(DType::Float32, v), fb) << v;
    }
}

TEST(HostTensorBFloat16, HandDerivedBits) {
    EXPECT_EQ(floatBits(DType::BFloat16, 1.0), 0x3F80u);
    EXPECT_EQ(floatBits(DType::BFloat16, -2.0), 0xC000u);
    EXPECT_EQ(floatBits(DType::BFloat16, 3.0), 0x4040u);
    EXPECT_EQ(floatBits(DType::BFloat16, 3.14159265358979), 0x4049u);
    EXPECT_EQ(floatBits(DType::BFloat16, 1.0 + std::ldexp(1.0, -8)), 0x3F80u);      // tie, even
    EXPECT_EQ(floatBits(DType::BFloat16, 1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82u);  // tie, even
    EXPECT_EQ(floatBits(DType::BFloat16, std::ldexp(2.0 - std::ldexp(1.0, -7), 127)), 0x7F7Fu);
    EXPECT_EQ(floatBits(DType::BFloat16, std::ldexp(1.0, -133)), 0x0001u);  // min subnormal
    EXPECT_EQ(floatBits(DType::BFloat16, kInf), 0x7F80u);
    EXPECT_EQ(floatBits(DType::BFloat16, kNaN), 0x7FC0u);
    EXPECT_EQ(floatBits(DType::BFloat16, 1e39), 0x7F80u);  // overflow to inf
}

TEST(HostTensorFp8, E4M3HandDerivedBits) {
    EXPECT_EQ(floatBits(DType::Float8E4M3, 1.0), 0x38u);
    EXPECT_EQ(floatBits(DType::Float8E4M3, -1.0), 0xB8u);
    EXPECT_EQ(floatBits(DType::Float8E4M3, 448.0), 0x7Eu);  // max finite S.1111.110
    EXPECT_EQ(floatBits(DType::Float8E4M3, -448.0), 0xFEu);
    EXPECT_EQ(floatBits(DType::Float8E4M3, std::ldexp(1.0, -6)), 0x08u);  // min normal
    EXPECT_EQ(floatBits(DType::Float8E4M3, std::ldexp(1.0, -9)), 0x01u);  // min subnormal
    EXPECT_EQ(floatBits(DType::Float8E4M3, 0.3), 0x2Au);  // 1.2*2^-2 -> 1.25*2^-2: 0.0101.010
    EXPECT_EQ(roundTo(DType::Float8E4M3, 0.3), 0.3125);
    // Saturation (satfinite): overflow and inf become max finite; NaN stays NaN (0x7F).
    EXPECT_EQ(floatBits(DType::Float8E4M3, 464.0), 0x7Eu);  // tie between 448 and 480 -> even
    EXPECT_EQ(floatBits(DType::Float8E4M3, 1000.0), 0x7Eu);
    EXPECT_EQ(floatBits(DType::Float8E4M3, kInf), 0x7Eu);
    EXPECT_EQ(floatBits(DType::Float8E4M3, -kInf), 0xFEu);
    EXPECT_EQ(roundTo(DType::Float8E4M3, -1e9), -448.0);
    EXPECT_EQ(floatBits(DType::Float8E4M3, kNaN), 0x7Fu);
    EXPECT_TRUE(std::isnan(floatFromBits(DType::Float8E4M3, 0x7F)));
    EXPECT_TRUE(std::isnan(floatFromBits(DType::Float8E4M3, 0xFF)));
    EXPECT_EQ(floatFromBits(DType::Float8E4M3, 0x78), 256.0);  // exponent 15 is a normal binade
}

TEST(HostTensorFp8, E5M2HandDerivedBits) {
    EXPECT_EQ(floatBits(DType::Float8E5M2, 1.0), 0x3Cu);
    EXPECT_EQ(floatBits(DType::Float8E5M2, 57344.0), 0x7Bu);  // max finite
    EXPECT_EQ(floatBits(DType::Float8E5M2, std::ldexp(1.0, -16)), 0x01u);
    EXPECT_EQ(floatBits(DType::Float8E5M2, kInf), 0x7Cu);
    EXPECT_EQ(floatBits(DType::Float8E5M2, -kInf), 0xFCu);
    EXPECT_EQ(floatBits(DType::Float8E5M2, 61440.0), 0x7Cu);  // tie above max -> even -> inf
    EXPECT_EQ(floatBits(DType::Float8E5M2, 61439.0), 0x7Bu);
    EXPECT_EQ(floatBits(DType::Float8E5M2, kNaN), 0x7Eu);
    EXPECT_TRUE(std::isnan(floatFromBits(DType::Float8E5M2, 0x7D)));
    EXPECT_EQ(floatFromBits(DType::Float8E5M2, 0x7C), kInf);
}

TEST(HostTensorFloat, EveryPatternRoundTrips) {
    for (DType t : {DType::Float16, DType::BFloat16, DType::Float8E4M3, DType::Float8E5M2}) {
        const uint32_t count = ts::ir::dtypeBits(t) == 16 ? 65536u : 256u;
        for (uint32_t b = 0; b < count; ++b) {
            const double v = floatFromBits(t, b);
            if (std::isnan(v)) continue;
            ASSERT_EQ(roundTo(t, v), v) << ts::ir::dtypeName(t) << " " << b;
            ASSERT_EQ(floatBits(t, v), b) << ts::ir::dtypeName(t) << " " << b;
        }
    }
}

TEST(HostTensorFloat, EveryMidpointTiesToEvenAndItsNeighboursRoundAway) {
    // Between every two adjacent finite codes a < b of each 8/16-bit format (both signs): the
    // midpoint rounds to the code with an even mantissa, one binary64 ulp either side of it to
    // the nearer code -- the normal range by the integer fast path, the subnormal range and the
    // top binade by the general one, which must agree at their seam.
    for (DType t : {DType::Float16, DType::BFloat16, DType::Float8E4M3, DType::Float8E5M2}) {
        const uint32_t count = ts::ir::dtypeBits(t) == 16 ? 32768u : 128u;  // the positive half
        const uint32_t signBit = count;
        for (uint32_t k = 0; k + 1 < count; ++k) {
            const double a = floatFromBits(t, k), b = floatFromBits(t, k + 1);
            if (!std::isfinite(a) || !std::isfinite(b)) continue;
            const double mid = a + (b - a) / 2;
            for (double s : {1.0, -1.0}) {
                const uint32_t sb = s < 0 ? signBit : 0u;
                const uint32_t even = (k % 2 == 0 ? k : k + 1) | sb;
                ASSERT_EQ(floatBits(t, s * mid), even) << ts::ir::dtypeName(t) << " code " << k << " sign " << s;
                ASSERT_EQ(roundTo(t, s * mid), floatFromBits(t, even)) << ts::ir::dtypeName(t) << " code " << k;
                ASSERT_EQ(floatBits(t, s * std::nextafter(mid, 0.0)), k | sb) << ts::ir::dtypeName(t) << " code " << k;
                ASSERT_EQ(floatBits(t, s * std::nextafter(mid, 1e300)), (k + 1) | sb) << ts::ir::dtypeName(t) << " code " << k;
                ASSERT_EQ(roundTo(t, s * std::nextafter(mid, 1e300)), s * b) << ts::ir::dtypeName(t) << " code " << k;
            }
        }
    }
}

TEST(HostTensorInt, CCastSemantics) {
    EXPECT_EQ(roundTo(DType::Int8, 200), -56);
    EXPECT_EQ(roundTo(DType::Int8, -129), 127);
    EXPECT_EQ(roundTo(DType::UInt8, -1), 255);
    EXPECT_EQ(roundTo(DType::Int32, 2.9), 2);
    EXPECT_EQ(roundTo(DType::Int32, -2.9), -2);
    EXPECT_EQ(roundTo(DType::Int32, 4294967296.0 + 5), 5);
    EXPECT_EQ(roundTo(DType::UInt32, -1), 4294967295.0);
    EXPECT_EQ(roundTo(DType::Int64, -5.5), -5);
    EXPECT_EQ(roundTo(DType::Int4, 7), 7);
    EXPECT_EQ(roundTo(DType::Int4, 8), -8);
    EXPECT_EQ(roundTo(DType::Int4, 9), -7);
    EXPECT_EQ(roundTo(DType::UInt4, 16), 0);
    EXPECT_EQ(roundTo(DType::UInt4, -1), 15);
    EXPECT_EQ(roundTo(DType::Int16, kNaN), 0);
    EXPECT_EQ(roundTo(DType::Bool, 0.5), 1);
    EXPECT_EQ(roundTo(DType::Bool, 0.0), 0);
    EXPECT_EQ(roundTo(DType::Float64, 0.1), 0.1);
}

TEST(HostTensorBytes, LittleEndianInts) {
    auto t = ts::makeHostTensor(DType::Int16, {2}, {-2, 258});
    EXPECT_EQ(encode(t), (std::vector<uint8_t>{0xFE, 0xFF, 0x02, 0x01}));
    auto u = ts::makeHostTensor(DType::Int32, {}, {0x01020304});
    EXPECT_EQ(encode(u), (std::vector<uint8_t>{0x04, 0x03, 0x02, 0x01}));
    auto h = ts::makeHostTensor(DType::Float16, {1, 2}, {1.0, -2.0});
    EXPECT_EQ(encode(h), (std::vector<uint8_t>{0x00, 0x3C, 0x00, 0xC0}));
}

TEST(HostTensorBytes, Int4PackedLowNibbleFirst) {
    auto t = ts::makeHostTensor(DType::Int4, {3}, {1, -1, 7});
    EXPECT_EQ(encode(t), (std::vector<uint8_t>{0xF1, 0x07}));
    auto u = ts::makeHostTensor(DType::UInt4, {2}, {3, 12});
    EXPECT_EQ(encode(u), (std::vector<uint8_t>{0xC3}));
    auto back = decode(DType::Int4, {3}, std::vector<uint8_t>{0xF1, 0x07});
    EXPECT_EQ(back.data, (std::vector<double>{1, -1, 7}));
    EXPECT_EQ(ts::encodedSize(DType::Int4, 5), 3u);
}

TEST(HostTensorBytes, RoundTripAllDtypes) {
    const std::vector<double> vals{0, 1, -1, 3, 100, -7, 0.5, 1e5};
    for (int i = 0; i <= static_cast<int>(DType::UInt4); ++i) {
        const auto t = static_cast<DType>(i);
        auto h = ts::makeHostTensor(t, {2, 4}, vals);
        auto bytes = encode(h);
        ASSERT_EQ(bytes.size(), ts::encodedSize(t, 8)) << ts::ir::dtypeName(t);
        auto back = decode(t, {2, 4}, bytes);
        EXPECT_EQ(back.data, h.data) << ts::ir::dtypeName(t);
        EXPECT_EQ(back.shape, h.shape);
    }
}

TEST(HostTensorBytes, Errors) {
    EXPECT_THROW(ts::makeHostTensor(DType::Float32, {2, 2}, {1, 2, 3}), std::invalid_argument);
    EXPECT_THROW(decode(DType::Float32, {2}, std::vector<uint8_t>(7)), std::invalid_argument);
    HostTensor empty{DType::Float32, {4}, {}};
    EXPECT_FALSE(empty.hasData());
    EXPECT_THROW(encode(empty), std::invalid_argument);
    EXPECT_EQ(ts::formatShape(std::vector<int64_t>{4096, 4096}), "(4096, 4096)");
    EXPECT_EQ(ts::formatShape(std::vector<int64_t>{}), "()");
}
