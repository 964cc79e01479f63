// The in-flight schedule of the sm_90a fragment-gemm TMA loop (InjectPipelineTmaFragment.cpp,
// issue 10's SwiGLU): a body of only shared-A gemms keeps iteration k's G gemms in flight
// (wgmma wait_group G retires k-1's), releases tile k-1's stage in iteration k, refills with lag
// 2 and waits everything in the peeled last iteration. Checked: the loop/peel shape and the
// wait counts, the off switch (TILESCOPE_HOPPER_INFLIGHT=0), both interpreters against float64
// at trip counts 1..5 with 3 and 4 stages, with and without a producer warpgroup, and NVRTC.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/ScopedEnv.h"

namespace {

using ts::e2e::diagText;
using ts::e2e::ScopedEnv;

const char* kSwiglu = "samples/swiglu.py";

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

ts::CompileResult compileSwiglu(int K, int stages) {
    ts::CompileOptions opts;
    opts.params = {{"M", "130"}, {"N", "136"}, {"K", std::to_string(K)}, {"block_K", "64"}, {"num_stages", std::to_string(stages)}};
    opts.target = "cuda:sm_90a";
    return ts::compile(kSwiglu, ts::e2e::readRepoFile(kSwiglu), opts);
}

TEST(HopperInflight, OffSwitchWaitsEveryGemm) {
    ScopedEnv off("TILESCOPE_HOPPER_INFLIGHT", "0");
    ts::CompileResult r = compileSwiglu(320, 3);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(count(r.cuda, "ts::wgmma_gemm_ss<"), 2u) << r.cuda;
    EXPECT_EQ(count(r.cuda, ", false, false, 0, ts::"), 2u) << r.cuda;
}

struct Case {
    int K, stages;
    bool ws;
};

class HopperInflight : public ::testing::TestWithParam<Case> {};

TEST_P(HopperInflight, PeeledLoopAndBothInterpretersMatchFloat64) {
    const Case c = GetParam();
    ScopedEnv ws("TILESCOPE_HOPPER_WS", c.ws ? "1" : "0");
    ts::CompileResult r = compileSwiglu(c.K, c.stages);
    ASSERT_TRUE(r.ok) << diagText(r);
    const std::string& cu = r.cuda;
    const int trips = (c.K + 63) / 64;
    // The loop runs trips-1 iterations with wait_group 2, the peeled last one waits 0 (simplify
    // folds a loop of no or one iteration: then only the waited gemms, or no loop statement).
    EXPECT_EQ(count(cu, ", false, false, 2, ts::"), trips > 1 ? 2u : 0u) << cu;
    EXPECT_EQ(count(cu, ", false, false, 0, ts::"), 2u) << cu;
    if (trips >= 3) {
        const size_t loop = cu.find("for (int k = 0; k < " + std::to_string(trips - 1) + "; ++k)");
        const size_t peel = cu.find(", false, false, 0, ts::");
        ASSERT_NE(loop, std::string::npos) << cu;
        ASSERT_LT(loop, peel);
        EXPECT_EQ(cu.substr(loop, peel - loop).find("__syncthreads()"), std::string::npos);
    }
    ts::e2e::expectInterpretersMatchReference(r, "K=" + std::to_string(c.K));
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(cu, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
}

INSTANTIATE_TEST_SUITE_P(TripsStagesWs, HopperInflight,
                         ::testing::Values(Case{64, 3, false}, Case{128, 3, false}, Case{192, 3, false}, Case{256, 3, false},
                                           Case{320, 3, false}, Case{200, 4, false}, Case{320, 4, false}, Case{320, 3, true},
                                           Case{128, 4, true}));

}  // namespace
