// Element semantics where the generated CUDA and the interpreters once disagreed (helper-112's
// differential test): tests/e2e/programs/int_width_semantics.py builds its values from the thread
// index. The interpreters match the float64 reference (they held uint32 y - 1 as -1 and uint64
// values >= 2^63 as negative); the CUDA does uint32 // and % as C's unsigned operators, T.abs of
// a uint32 as the value itself, float64 max/abs/pow/floor in double (NVRTC compiles it through
// the observer; bench/gpu_check_2026_12_06e.sh runs it on the GPU against the interpreter).
#include <gtest/gtest.h>

#include <array>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

TEST(IntWidth, UnsignedAndFloat64ValuesMatchOnBothInterpretersAndTheCudaUsesTheirTypes) {
    ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/int_width_semantics.py", {}, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const size_t kernel = r.cuda.find("__global__");  // not the prelude's helpers
    auto has = [&](const std::string& s) { return r.cuda.find(s, kernel) != std::string::npos; };
    EXPECT_TRUE(has("(((static_cast<unsigned int>(tx) * 33554432) + 7) / 3)")) << r.cuda;
    EXPECT_TRUE(has("(((static_cast<unsigned int>(tx) * 33554432) + 7) % 1000)")) << r.cuda;
    EXPECT_FALSE(has("abs((static_cast<unsigned int>")) << r.cuda;
    EXPECT_TRUE(has("fmax((static_cast<double>(tx)")) << r.cuda;
    EXPECT_TRUE(has("fabs((-(static_cast<double>(tx)")) << r.cuda;
    EXPECT_TRUE(has("pow((static_cast<double>(tx) * 1e+100), 2.0)")) << r.cuda;
    EXPECT_TRUE(has("floor((static_cast<double>(tx)")) << r.cuda;
    EXPECT_FALSE(has("fmaxf(") || has("fabsf(") || has("powf(") || has("floorf(")) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "int_width_semantics");
}

// tests/e2e/programs/float_to_int.py: values the H100 gave (bench/results/h100-2026-12-06e/
// gpu-check-2.txt, f2i dumps), which both interpreters now give: row i casts f = (i - 64) * 3.7
// to int8 / uint8 and g = (i - 64) * 1e8 to int32 / int16.
TEST(IntWidth, FloatToIntOutOfRangeSaturatesAt32BitsThenKeepsTheLowBitsAsTheGpu) {
    ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/float_to_int.py");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto ci = ts::e2e::makeCheckedInputs(r);
    const std::vector<std::pair<int, std::array<double, 4>>> gpu = {
        {0, {20, 0, -2147483648.0, 0}},      {1, {23, 0, -2147483648.0, 0}}, {20, {94, 0, -2147483648.0, 0}},
        {60, {-14, 0, -400000000, 31744}}, {64, {0, 0, 0, 0}},              {65, {3, 3, 100000000, -7936}},
        {100, {-123, 133, 2147483647, -1}}, {127, {-23, 233, 2147483647, -1}},
    };
    for (bool lowered : {false, true}) {
        std::string error;
        auto outs = ts::e2e::runOutputs(r, ci, lowered, &error);
        ASSERT_EQ(outs.size(), 1u) << error;
        for (auto& [row, want] : gpu)
            for (int k = 0; k < 4; ++k)
                EXPECT_EQ(outs[0].data[size_t(row * 4 + k)], want[size_t(k)]) << (lowered ? "lowered" : "tile") << " row " << row << " col " << k;
    }
}

// tests/e2e/programs/int_promotions.py, values derived by hand from C's rules (the GPU's, checked
// against the interpreter by bench/gpu_check_2026_12_06g.sh).
TEST(IntWidth, NarrowIntsComputeInIntAndInt64ToFloat32RoundsOnce) {
    ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/int_promotions.py");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto ci = ts::e2e::makeCheckedInputs(r);
    auto wrap32 = [](int64_t v) { return double(int32_t(uint32_t(uint64_t(v)))); };
    for (bool lowered : {false, true}) {
        std::string error;
        auto outs = ts::e2e::runOutputs(r, ci, lowered, &error);
        ASSERT_EQ(outs.size(), 2u) << error;
        for (int i : {0, 1, 63, 64, 100, 127}) {
            const int64_t u = i * 512 + 511, s = i - 64;
            EXPECT_EQ(outs[0].data[size_t(2 * i)], wrap32(u * u)) << "u * u, row " << i;  // 65535^2 -> -131071
            EXPECT_EQ(outs[0].data[size_t(2 * i + 1)], double(s * s * s)) << "s^3, row " << i;  // int: -262144 at -64
        }
        EXPECT_EQ(outs[0].data[2 * 127], -131071.0);
        // 2^62 + 2^38 * i + 1 to float32 in one rounding (ulp 2^39 at 2^62): i = 1 is above the
        // halfway point (+1), so it rounds up; through double it was a tie and went down to 2^62.
        EXPECT_EQ(outs[1].data[0], 4611686018427387904.0);  // 2^62
        EXPECT_EQ(outs[1].data[1], 4611686568183201792.0) << (lowered ? "lowered" : "tile");  // 2^62 + 2^39
        EXPECT_EQ(outs[1].data[2], 4611686568183201792.0);  // 2^62 + 2^39 exactly
    }
}

// tests/e2e/programs/narrow_minmax_loop64.py (helper-113): NVRTC compiles it for both targets
// (the observer), the interpreters match the float64 reference, and the CUDA names the min/max type
// and counts the 2**40 loop in long long with the 64-bit floor helper.
TEST(IntWidth, NarrowMinMaxLoopPastInt32AndFloorCeilSinCos) {
    ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/narrow_minmax_loop64.py");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto has = [&](const std::string& s) { return r.cuda.find(s) != std::string::npos; };
    EXPECT_TRUE(has("ts::max<int>(A[tx], 1)")) << r.cuda;  // 8/16-bit: C's int (ts::max<signed char> cut 200 to -56)
    EXPECT_TRUE(has("ts::min<unsigned int>(W[tx], 5)")) << r.cuda;
    EXPECT_TRUE(has("for (long long k = 1099511627776LL; k < 1099511627780LL; ++k)")) << r.cuda;
    EXPECT_TRUE(has("ts_floordiv64(k, -7LL)")) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "narrow_minmax_loop64");
}

// tests/e2e/programs/c_conversions.py (helper-114): C's conversions, shared by the interpreters
// and the CUDA: the float64 reference computes each column as C does.
TEST(IntWidth, CConversionsCastOfNegativeToUnsignedMixedSignsAndFloatLiteralPastRange) {
    ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/c_conversions.py");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto has = [&](const std::string& s) { return r.cuda.find(s) != std::string::npos; };
    EXPECT_TRUE(has("= 4294967295LL;")) << r.cuda;
    EXPECT_TRUE(has("ts::max<int>((A[tx] + 100), 0)")) << r.cuda;
    EXPECT_TRUE(has("ts_floordiv((U[tx] - 200), 3)")) << r.cuda;
    EXPECT_FALSE(has("e+40f")) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "c_conversions");
}

// tests/e2e/programs/conversion_ties.py: float64 and 32/64-bit integer values just below, on
// and just past a tie of bfloat16/float16/e4m3 round once (the device header's round-to-odd
// float, tests/unit/DeviceConversionTest.cpp); the interpreters against the hand-derived 0/0/1
// columns, NVRTC both targets (bench/gpu_check_2026_12_06m.sh runs it on the GPU).
TEST(IntWidth, ConversionsPastATieRoundOnceOnBothTargets) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/conversion_ties.py", {}, target);
        ASSERT_TRUE(r.ok) << target << ": " << ts::e2e::diagText(r);
        EXPECT_NE(r.cuda.find("ts::cast<ts::bfloat16>(static_cast<unsigned int>("), std::string::npos) << r.cuda;
        if (std::string(target) == "cuda:sm_90a") ts::e2e::expectInterpretersMatchReference(r, "conversion_ties");
    }
}

// tests/e2e/programs/float32_math_fold.py: T.sqrt/T.floor/T.sin of a Python number fold as
// float32 calls (the number rounded to float32 first, the result too), as TileLang's float32
// PrimExpr and the GPU compute them (helper-114: T.sqrt(1e40) folded to 1e20 in double).
TEST(IntWidth, MathOfANumberFoldsInFloat32) {
    ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/float32_math_fold.py");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto has = [&](const std::string& s) { return r.cuda.find(s) != std::string::npos; };
    EXPECT_TRUE(has("((A[tx] * 0.0f) + 16777218.0f)")) << r.cuda;
    EXPECT_TRUE(has("((A[tx] * 0.0f) + __int_as_float(0x7fc00000))")) << r.cuda;  // sin(inf) = NaN
    EXPECT_TRUE(has("D[tx] = 1.4142135381698608;")) << r.cuda;                     // float32's sqrt(2)
    EXPECT_FALSE(has("1e+20f")) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "float32_math_fold");
}

// tests/e2e/programs/reduce_int_edges.py (helper-115): int64 T.reduce_min's identity survives the
// lowered interpreter's storage (it wrapped to INT64_MIN), T.reduce_min(clear=False) with fewer
// rows than row groups reads no unwritten register (the CUDA guards the combine), T.abs of int32's
// minimum wraps as abs.s32 does. Both interpreters against the float64 reference, both shapes.
TEST(IntWidth, ReduceAndAbsIntegerEdgesMatchTheGpu) {
    for (auto p : {std::map<std::string, std::string>{}, std::map<std::string, std::string>{{"M", "2"}, {"N", "64"}, {"threads", "32"}}}) {
        ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/reduce_int_edges.py", p, "cuda:sm_80");
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        // int32's minimum is no C literal (-2147483648 is a long long: abs() did not wrap and
        // ts::max(it, 3) was an NVRTC error, found on the H100).
        EXPECT_NE(r.cuda.find("(-2147483647 - 1)"), std::string::npos) << r.cuda;
        EXPECT_EQ(r.cuda.find("-2147483648"), std::string::npos) << r.cuda;
        if (p.empty()) {
            // The clear=False combine of a padded row layout is guarded by the row's existence.
            EXPECT_NE(r.cuda.find("q[0] = ts::min(q[0], red_"), std::string::npos) << r.cuda;
            const size_t comb = r.cuda.find("q[0] = ts::min(q[0], red_");
            EXPECT_NE(r.cuda.rfind("if (((tx / ", comb), std::string::npos) << r.cuda;
        }
        ts::e2e::expectInterpretersMatchReference(r, "reduce_int_edges");
    }
}

}  // namespace
