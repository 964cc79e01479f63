// Softmax overlap of the sm_90a attention loop (InjectPipelineTmaFragment.cpp, issue 10; off by
// default, TILESCOPE_HOPPER_SOFTMAX_OVERLAP=1): the loop is rotated by one iteration so that
// P V of key tile k-1 is in flight while the softmax of tile k runs. Checked here: the peeled
// first iteration (Q K^T waited, no P V), the loop (Q K^T committed with wait_group 1, P V
// committed with wait_group 1, which retires Q K^T, S pinned, the softmax, then O retired with
// wait_group 0 before `acc_o *= alpha` and `P = S`), the peeled last iteration (P V waited), the
// stage holding K tile r and V tile r-1 (the prologue loads K tile 0 alone, the last refill V
// tile n-1 alone), and both interpreters against float64 at trip counts 1, 2, 3 and 5 with 1..4
// stages (causal, ragged, GQA, bf16), NVRTC for sm_90a. Off by default: the schedule above is
// kept (the H200 measured it slower, 2026-12-04).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/ScopedEnv.h"

namespace {

using ts::e2e::diagText;
using ts::e2e::ScopedEnv;

const char* kFwd = "samples/flash_attn_fwd.py";

struct Case {
    std::map<std::string, std::string> params;
    std::string label;
    bool loop = true;  ///< at least three trips somewhere (else simplify unrolls the rotated loop)
    int stages = 2;    ///< num_stages (as in params when given)
    int dim = 64;
};

ts::CompileResult compileFwd(std::map<std::string, std::string> params) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.params.emplace("block_M", "64");
    opts.params.emplace("block_N", "64");
    opts.params.emplace("threads", "128");
    opts.params.emplace("num_stages", "2");
    opts.target = "cuda:sm_90a";
    return ts::compile(kFwd, ts::e2e::readRepoFile(kFwd), opts);
}

class AttentionSoftmaxOverlap : public ::testing::TestWithParam<Case> {};

TEST_P(AttentionSoftmaxOverlap, PvInFlightDuringTheSoftmaxAndBothInterpretersMatchFloat64) {
    const Case& c = GetParam();
    ScopedEnv on("TILESCOPE_HOPPER_SOFTMAX_OVERLAP", "1");
    ts::CompileResult r = compileFwd(c.params);
    ASSERT_TRUE(r.ok) << diagText(r);
    const std::string& cu = r.cuda;
    // First iteration: Q K^T waited to completion (template WAIT 0), before any P V.
    const size_t qk0 = cu.find("ts::wgmma_gemm_ss<"), pv = cu.find("ts::wgmma_gemm_rs<");
    ASSERT_NE(qk0, std::string::npos) << cu;
    ASSERT_NE(pv, std::string::npos) << cu;
    EXPECT_LT(qk0, pv);
    EXPECT_NE(cu.find(", true, 0, ts::", qk0), std::string::npos) << cu;
    if (c.loop) {
        const size_t loop = cu.find("for (int kr = 1; kr < ");
        ASSERT_NE(loop, std::string::npos) << cu;
        EXPECT_LT(loop, pv) << "no P V before the loop\n" << cu;
        const size_t qk = cu.find("ts::wgmma_gemm_ss<", loop), pvIn = cu.find("ts::wgmma_gemm_rs<", loop),
                     pinS = cu.find("ts::wgmma_wait<1, ", loop), softmax = cu.find("ts::warp_allreduce<ts::MaxOp", loop),
                     retireO = cu.find("ts::wgmma_wait<0, ", loop), rescale = cu.find("acc_o[r_", retireO),
                     release = cu.find("ts::mbarrier_arrive(&tma_empty[(kr % ", loop);
        ASSERT_NE(retireO, std::string::npos) << cu;
        EXPECT_TRUE(qk < pvIn && pvIn < pinS && pinS < softmax && softmax < retireO && retireO < rescale && rescale < release) << cu;
        EXPECT_NE(cu.find(", true, 1, ts::", qk), std::string::npos) << "Q K^T committed with wait_group 1\n" << cu;
        const size_t pvArgs = cu.find("(&P[0]", pvIn);
        ASSERT_NE(pvArgs, std::string::npos) << cu;
        EXPECT_EQ(cu.substr(pvArgs - 4, 4), ", 1>") << "P V committed with wait_group 1\n" << cu;
        EXPECT_NE(cu.find("(&acc_o[0])", retireO), std::string::npos) << "the retire pins O\n" << cu;
        // The refill of rotated iteration kr loads K tile kr + S-1 (with V tile kr + S-2).
        if (c.stages >= 2)
            EXPECT_NE(cu.find("((kr + " + std::to_string(c.stages - 1) + ") * 64)", loop), std::string::npos) << cu;
    }
    // The prologue's first stage holds K tile 0 alone (64 keys x dim halves), the others K and V:
    // an expect_tx of K's bytes on a full barrier before the first wgmma.
    bool kAlone = false;
    const std::string tx = "ts::mbarrier_arrive_expect_tx(&tma_full[", kBytes = "], " + std::to_string(64 * c.dim * 2) + ");";
    for (size_t p = cu.find(tx); p != std::string::npos && p < qk0; p = cu.find(tx, p + 1))
        kAlone = kAlone || cu.compare(cu.find(']', p), kBytes.size(), kBytes) == 0;
    EXPECT_TRUE(kAlone) << cu;
    ts::e2e::expectInterpretersMatchReference(r, c.label);
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << c.label << "\n" << nv.log;
}

const Case kCases[] = {
    // 64-key tiles: S = 40 is one trip (r = 0 and r = 1 only), 128 two, 129 three, 300 five.
    {{{"seq_len", "40"}}, "one_trip", false},
    {{{"seq_len", "128"}, {"is_causal", "True"}}, "two_trips_causal", false},
    {{{"seq_len", "129"}, {"groups", "2"}, {"heads", "4"}}, "three_trips_gqa2"},
    {{{"seq_len", "300"}, {"is_causal", "True"}, {"dtype", "bfloat16"}}, "five_trips_causal_bf16"},
    {{{"seq_len", "300"}, {"num_stages", "1"}}, "one_stage", true, 1},
    {{{"seq_len", "333"}, {"num_stages", "3"}}, "three_stages_ragged", true, 3},
    {{{"seq_len", "300"}, {"dim", "128"}, {"block_M", "128"}, {"threads", "256"}, {"num_stages", "4"}, {"is_causal", "True"}},
     "two_warpgroups_four_stages_causal", true, 4, 128},
};
INSTANTIATE_TEST_SUITE_P(All, AttentionSoftmaxOverlap, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

// Off by default: the loop over kt with P V waited in its own iteration.
TEST(AttentionSoftmaxOverlapOff, DefaultKeepsTheUnrotatedLoop) {
    ts::CompileResult r = compileFwd({{"seq_len", "300"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(r.cuda.find("for (int kr"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("for (int kt = 0;"), std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("ts::wgmma_wait<"), std::string::npos) << r.cuda;
}

}  // namespace
