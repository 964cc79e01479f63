// Two gemms accumulating into one fragment on sm_90a, one on wgmma's fragment path and one on
// mma.sync (tests/e2e/programs/gemm_mixed_engines_one_accumulator.py; KDA's chunk_o.py has the
// shape): the mma.sync gemm runs on the accumulator's one-column warp grid, not its policy's 2x2,
// whichever of the two comes first, and both interpreters match the float64 reference.
#include <gtest/gtest.h>

#include <regex>

#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/gemm_mixed_engines_one_accumulator.py";

TEST(GemmMixedEngines, MmaSyncGemmTakesTheWgmmaAccumulatorsWarpGridInEitherOrder) {
    for (const char* first : {"True", "False"}) {
        SCOPED_TRACE(std::string("wgmma_first=") + first);
        ts::CompileResult r = ts::e2e::compileRepoFile(kProg, {{"wgmma_first", first}, {"M", "100"}, {"K", "96"}});
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        // One gemm on wgmma (fragment path), the other gemm_ss on 4 warps in one column (4x1).
        EXPECT_NE(r.cuda.find("wgmma_gemm_ss"), std::string::npos);
        EXPECT_TRUE(std::regex_search(r.cuda, std::regex(R"(gemm_ss<64, 32, 64, 4, 1,)"))) << r.cuda;
        EXPECT_TRUE(ts::e2e::hasNote(r, "runs its 4 warps as a 4x1 grid, the layout T.gemm at line 20 gave 'acc' (policy Square alone would give 2x2)"))
            << ts::e2e::diagText(r);
        ts::e2e::expectInterpretersMatchReference(r, std::string("mixed engines, wgmma_first=") + first);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {{"wgmma_first", "False"}});
}

// On sm_80 both gemms are mma.sync and keep the policy's grid (no note, no change).
TEST(GemmMixedEngines, Sm80KeepsThePolicyGrid) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kProg, {}, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_FALSE(ts::e2e::hasNote(r, "runs its 4 warps"));
    EXPECT_TRUE(std::regex_search(r.cuda, std::regex(R"(gemm_ss<64, 32, 32, 2, 2,)"))) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "mixed engines, sm_80");
}

}  // namespace
