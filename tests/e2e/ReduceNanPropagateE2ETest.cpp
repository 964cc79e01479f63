// T.reduce_max / reduce_min / reduce_absmax(..., nan_propagate=...) (TileLang's per-call switch):
// tests/e2e/programs/reduce_nan_propagate.py plants a NaN in every third row and reduces each row.
// Both interpreters against the float64 reference (NaN rows with the switch on, the max/min of the
// other elements with it off), on the paths the lowering takes: warp shuffles, shuffles across
// warps through shared memory, a shared-tile source; float16, bfloat16, float32. A reference of the
// other semantics must fail (the check sees NaN against a number both ways). NVRTC sm_80/sm_90a,
// and the CUDA names the NaN-propagating shuffle operators.
#include "tests/e2e/NvrtcBothTargets.h"
#include "tests/support/SourceDir.h"
#include "tests/unit/CliTestUtil.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
const char* kProg = "tests/e2e/programs/reduce_nan_propagate.py";

constexpr uint64_t kSeed = 11;

const std::vector<std::vector<std::string>> kShapes = {
    {},                                                                     // float16, one warp a row
    {"rows=8", "cols=512", "threads=256"},                                  // a row across warps
    {"rows=16", "cols=64", "threads=32", "dtype=bfloat16"},
    {"shared=True"},                                                        // shared-tile source
    {"shared=True", "rows=8", "cols=512", "threads=256", "dtype=float32"},
};
}  // namespace

TEST(ReduceNanPropagate, BothInterpretersMatchTheReferenceEitherWay) {
    const std::string file = std::string(TS_SOURCE_DIR) + "/" + kProg;
    for (const auto& shape : kShapes)
        for (const char* flag : {"nan_propagate=True", "nan_propagate=False"})
            for (const char* interp : {"tile", "lowered"}) {
                auto params = shape;
                params.push_back(flag);
                auto o = runOnInterp(file, interp, params, kSeed);
                EXPECT_EQ(o.rc, 0) << interp << " " << flag << " " << params.size() << "\n" << o.out << o.err;
                EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
                // The NaN rows: 22 of 64 (rows 0, 3, ..., 63), NaN in both with the switch on.
                if (shape.empty()) {
                    EXPECT_EQ(contains(o.out, "22 NaN/inf as in the reference"), std::string(flag) == "nan_propagate=True") << o.out;
                }
            }
}

TEST(ReduceNanPropagate, AReferenceOfTheOtherSemanticsFails) {
    std::string text = ts::e2e::readRepoFile(kProg);
    const std::string cond = "    if nan_propagate:";
    ASSERT_NE(text.find(cond), std::string::npos);
    for (bool refNan : {true, false}) {
        const std::string path = writeScratch("reduce_nan_mutant.py", replaced(text, cond, refNan ? "    if True:" : "    if False:"));
        for (const char* interp : {"tile", "lowered"}) {
            auto o = runOnInterp(path, interp, {refNan ? "nan_propagate=False" : "nan_propagate=True"}, kSeed);
            EXPECT_EQ(o.rc, 2) << interp << o.out;  // 2: the check failed
            EXPECT_TRUE(contains(o.out, refNan ? "got 0." : "got nan")) << o.out;
        }
    }
}

TEST(ReduceNanPropagate, NvrtcCompilesForSm80AndSm90aWithTheNanOperators) {
    for (const char* on : {"True", "False"})
        for (const char* shared : {"True", "False"})
            ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {{"nan_propagate", on}, {"shared", shared}});
    auto o = captureCli([] {
        CompileCommand c;
        c.flags.file = std::string(TS_SOURCE_DIR) + "/" + kProg;
        c.flags.target = "cuda:sm_90a";
        c.emit = "cuda";
        return runCompile(c);
    });
    ASSERT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "ts::warp_allreduce<ts::MaxNanOp")) << o.out;
    EXPECT_TRUE(contains(o.out, "ts::warp_allreduce<ts::MinNanOp")) << o.out;
    EXPECT_FALSE(contains(o.out, "ts::warp_allreduce<ts::MaxOp,")) << o.out;
}
