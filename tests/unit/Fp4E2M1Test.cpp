// float4_e2m1fn (OCP FP4 E2M1): the host conversion every interpreter uses (roundTo, fp4E2M1Bits;
// compiler/support/HostTensor.cpp) against hand-derived bit patterns — round to nearest with
// ties to the even code, saturation at ±6, NaN -> +6, signed zero, as CUDA's
// __nv_cvt_double_to_fp4(x, __NV_E2M1, cudaRoundNearest) — and the packing of tensors (element 2k
// in the low nibble of byte k, as torch.float4_e2m1fn_x2 / TileLang store them).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "compiler/ir/DType.h"
#include "compiler/support/HostTensor.h"

namespace {

using ts::ir::DType;

TEST(Fp4E2M1, DTypeNamesAndWidth) {
    EXPECT_EQ(ts::ir::parseDType("float4_e2m1fn"), DType::Float4E2M1);
    EXPECT_EQ(ts::ir::parseDType("float4_e2m1"), DType::Float4E2M1);
    EXPECT_EQ(ts::ir::dtypeName(DType::Float4E2M1), "float4_e2m1fn");
    EXPECT_EQ(ts::ir::dtypeBits(DType::Float4E2M1), 4);
    EXPECT_TRUE(ts::ir::isFloat(DType::Float4E2M1));
    // TVM's C names that tilelang.quantize passes as source formats.
    EXPECT_EQ(ts::ir::parseDType("uint"), DType::UInt32);
    EXPECT_EQ(ts::ir::parseDType("int"), DType::Int32);
}

TEST(Fp4E2M1, EveryCodeDecodes) {
    const double mag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
    for (unsigned c = 0; c < 16; ++c) {
        const double v = ts::fp4E2M1Value(static_cast<uint8_t>(c));
        EXPECT_EQ(v, c & 8 ? -mag[c & 7] : mag[c & 7]) << c;
        EXPECT_EQ(std::signbit(v), (c & 8) != 0) << c;
        EXPECT_EQ(ts::fp4E2M1Bits(v), c) << c;  // every code round-trips
    }
}

TEST(Fp4E2M1, RoundsToNearestTiesToEvenCode) {
    struct Case { double x; unsigned bits; };
    const Case cases[] = {
        {0.25, 0x0},  {0.2500001, 0x1}, {0.74, 0x1},  {0.75, 0x2},  {1.25, 0x2},  {1.26, 0x3},
        {1.75, 0x4},  {2.5, 0x4},       {2.51, 0x5},  {3.5, 0x6},   {4.9, 0x6},   {5.0, 0x6},
        {5.0001, 0x7}, {6.0, 0x7},      {7.0, 0x7},   {1e30, 0x7},  {0.1, 0x0},   {-0.1, 0x8},
        {-0.75, 0xA}, {-5.5, 0xF},      {-1e30, 0xF},
    };
    for (const Case& c : cases) EXPECT_EQ(ts::fp4E2M1Bits(c.x), c.bits) << c.x;
    EXPECT_EQ(ts::fp4E2M1Bits(std::numeric_limits<double>::infinity()), 0x7u);
    EXPECT_EQ(ts::fp4E2M1Bits(-std::numeric_limits<double>::infinity()), 0xFu);
    EXPECT_EQ(ts::fp4E2M1Bits(std::nan("")), 0x7u);  // NaN -> +MAX_NORM, sign dropped
    EXPECT_EQ(ts::fp4E2M1Bits(-0.0), 0x8u);
    EXPECT_EQ(ts::roundTo(DType::Float4E2M1, 2.9), 3.0);
    EXPECT_EQ(ts::roundTo(DType::Float4E2M1, -100.0), -6.0);
    EXPECT_EQ(ts::floatBits(DType::Float4E2M1, 1.5), 0x3u);
    EXPECT_EQ(ts::floatFromBits(DType::Float4E2M1, 0xD), -3.0);
}

TEST(Fp4E2M1, TensorsPackTwoPerByteLowNibbleFirst) {
    ts::HostTensor t{DType::Float4E2M1, {5}, {0.5, -6.0, 3.0, 1.0, 2.0}};
    auto bytes = ts::encode(t);
    ASSERT_EQ(bytes.size(), 3u);
    EXPECT_EQ(bytes[0], 0xF1);  // element 0 (0.5 = 0x1) low, element 1 (-6 = 0xF) high
    EXPECT_EQ(bytes[1], 0x25);  // 3.0 = 0x5 low, 1.0 = 0x2 high
    EXPECT_EQ(bytes[2], 0x04);  // 2.0 = 0x4, the pad nibble 0
    auto back = ts::decode(DType::Float4E2M1, {5}, bytes);
    EXPECT_EQ(back.data, t.data);
}

}  // namespace
