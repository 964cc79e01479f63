// T.isnan / T.isinf / T.isfinite (tests/e2e/programs/float_class.py): NaN, +inf and -inf planted
// among the inputs, each flag written as 0/1 and the finite values kept. Both interpreters against
// the float64 reference for float16, float32 and bfloat16 (a ragged last block); a reference with
// isinf for isnan must fail; NVRTC sm_80/sm_90a.
#include "tests/e2e/NvrtcBothTargets.h"
#include "tests/support/SourceDir.h"
#include "tests/unit/CliTestUtil.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
const char* kProg = "tests/e2e/programs/float_class.py";

constexpr uint64_t kSeed = 3;
}  // namespace

TEST(FloatClass, BothInterpretersMatchTheReference) {
    const std::string file = std::string(TS_SOURCE_DIR) + "/" + kProg;
    const std::vector<std::vector<std::string>> shapes = {{}, {"dtype=float32"}, {"dtype=bfloat16", "N=77", "block=64"}};
    for (const auto& shape : shapes)
        for (const char* interp : {"tile", "lowered"}) {
            auto o = runOnInterp(file, interp, shape, kSeed);
            EXPECT_EQ(o.rc, 0) << interp << " " << shape.size() << "\n" << o.out << o.err;
            EXPECT_TRUE(contains(o.out, "Nan: rel-L2 0.0e+00")) << o.out;
            EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
        }
}

TEST(FloatClass, AReferenceThatSwapsTheClassesFails) {
    const std::string path = writeScratch("float_class_mutant.py", replaced(ts::e2e::readRepoFile(kProg),
                                                                          "return (torch.isnan(v).float()",
                                                                          "return (torch.isinf(v).float()"));
    for (const char* interp : {"tile", "lowered"}) {
        auto o = runOnInterp(path, interp, {}, kSeed);
        EXPECT_EQ(o.rc, 2) << interp << o.out;
        EXPECT_TRUE(contains(o.out, "Nan: rel-L2")) << o.out;
        EXPECT_TRUE(contains(o.out, "\nFAIL\n")) << o.out;
    }
}

TEST(FloatClass, NvrtcCompilesForSm80AndSm90a) {
    for (const char* dtype : {"float16", "float32", "bfloat16"})
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {{"dtype", dtype}});
}
