// T.fill / T.clear of part of a fragment (ops/FillOp.cpp; tests/e2e/programs/fragment_partial_fill.py):
// a block fragment and a gemm accumulator (mma.sync on sm_80, wgmma's fragment layout on sm_90a),
// a region that moves with a serial loop; both interpreters against float64, NVRTC on both targets.
// It was an error (helper-128 #1 had found the part silently becoming the whole).
#include <gtest/gtest.h>

#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/fragment_partial_fill.py";

TEST(FragmentPartialFill, OnlyTheRegionChangesOnBothTargetsAndInterpreters) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        SCOPED_TRACE(target);
        ts::CompileResult r = ts::e2e::compileRepoFile(kProg, {}, target);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        ts::e2e::expectInterpretersMatchReference(r, std::string("partial fill ") + target);
    }
    // 256 threads: two warps along N on sm_80 (2x4 grid), other registers per thread.
    ts::CompileResult r = ts::e2e::compileRepoFile(kProg, {{"threads", "256"}}, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, "partial fill, 256 threads");
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {});
}

}  // namespace
