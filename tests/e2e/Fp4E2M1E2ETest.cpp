// float4_e2m1fn end to end (tests/e2e/programs/fp4_convert.py): conversions in registers, packed
// fp4 tiles in shared and global memory, on both interpreters against hand-derived values
// (tests/unit/Fp4E2M1Test.cpp pins the rounding), and the generated CUDA through NVRTC for sm_80
// and sm_90a. GPU against the interpreter: bench/h200_lang_dtype.sh.
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProgram = "tests/e2e/programs/fp4_convert.py";

TEST(Fp4E2M1E2E, RoundTripThroughSharedAndGlobalOnBothInterpreters) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    opts.params = {{"scale", "2.0"}};
    auto r = ts::compile(kProgram, ts::e2e::readRepoFile(kProgram), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto ci = ts::e2e::makeCheckedInputs(r);
    // Inputs around every midpoint (after scaling by 2: .25 .75 1.25 1.75 2.5 3.5 5), saturation,
    // signed zeros and NaN; the rest a ramp.
    const double special[] = {0.125, 0.375, 0.625, 0.875, 1.25, 1.75, 2.5, 2.6, 3.1, -0.0,
                              -0.05, -0.375, -2.5, -1e9, std::nan(""), 0.0625};
    auto& X = ci.set.tensors[0].data;
    ASSERT_EQ(X.size(), 16u * 64u);
    for (size_t i = 0; i < X.size(); ++i)
        X[i] = i < std::size(special) ? special[i] : (static_cast<double>(i % 97) - 48.0) / 13.0;
    const double expect[] = {0.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 6.0, 6.0, -0.0,
                             -0.0, -1.0, -4.0, -6.0, 6.0, 0.0};
    for (bool lowered : {false, true}) {
        std::string err;
        auto outs = ts::e2e::runOutputs(r, ci, lowered, &err);
        ASSERT_EQ(outs.size(), 2u) << err;
        for (size_t i = 0; i < X.size(); ++i) {
            const double want = i < std::size(expect) ? expect[i] : ts::fp4E2M1Value(ts::fp4E2M1Bits(2.0 * X[i]));
            ASSERT_EQ(outs[0].data[i], want) << "Q element " << i << " lowered " << lowered;
            ASSERT_EQ(outs[1].data[i], want) << "D element " << i << " lowered " << lowered;
            ASSERT_EQ(std::signbit(outs[0].data[i]), std::signbit(want)) << i;
        }
    }
}

TEST(Fp4E2M1E2E, GeneratedCudaCompilesForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProgram, {});
}

}  // namespace
