// A copy whose source coordinate is read from a replicated fragment (`a = idx[i]; T.copy(A[a, 0],
// tile)`, TileLang's language/let_layout test): lower-tile-ops rewrites the fragment reads in a
// tile op's region bounds to the registers, as it did for scalar arguments. Before 2026-12-07 the
// TMA box coordinate kept the fragment and NVRTC rejected the code (undefined `block_mask_f_1`).
// tests/e2e/programs/tma_fragment_coordinate.py, pipelined (the stage's TMA box) and guarded (a
// plain TMA copy), against float64 on both interpreters, NVRTC sm_80 and sm_90a.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

TEST(TmaFragmentCoordinate, PipelinedAndPlainTmaCopiesReadTheRegisters) {
    const char* file = "tests/e2e/programs/tma_fragment_coordinate.py";
    for (const char* guarded : {"False", "True"}) {
        for (const char* target : {"cuda:sm_90a", "cuda:sm_80"}) {
            ts::CompileResult r = ts::e2e::compileRepoFile(file, {{"guarded", guarded}}, target);
            ASSERT_TRUE(r.ok) << guarded << " " << target << "\n" << ts::e2e::diagText(r);
            if (std::string(target) == "cuda:sm_90a") {
                EXPECT_TRUE(ts::e2e::hasNote(r, std::string(guarded) == "True" ? "T.copy into 'tile' uses TMA"
                                                                               : "T.copy into 'tile' is loaded by TMA"))
                    << ts::e2e::diagText(r);
                ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, std::string("guarded=") + guarded));
            }
            if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
            auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
            EXPECT_TRUE(nv.ok) << guarded << " " << target << "\n" << nv.log;
        }
    }
}
