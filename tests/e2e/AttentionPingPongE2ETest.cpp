// Warpgroup ping-pong of the sm_90a attention loop (InjectPipelineTmaFragment.cpp, issue 10):
// with two warpgroups (256 threads) and at least three stages, each warpgroup issues its wgmma
// only in its turn (tl.warpgroup_turn on named barriers 2 and 3), a turn spanning P V of one
// iteration and Q K^T of the next, and the TMA refill lags two tiles (a lag of one would make
// warpgroup 0's elected thread wait, inside its turn, for a stage warpgroup 1 releases only in
// its own next turn). Checked here: where the turns go in the generated CUDA (the pass between
// Q K^T's issue and its wait, so ptxas cannot sink it below the softmax), the lag-2 refill, when
// the schedule is not taken (2 stages, 128 threads, TILESCOPE_HOPPER_PINGPONG=0), both
// interpreters against float64 at trip counts 1, 2, 3 and 5 (causal, ragged, GQA, bf16), the
// warp-specialized form on top of it, and NVRTC for sm_90a. The turns order no memory access, so
// the interpreters run them as no-ops; the device run (bench/h200_attention.sh) is what shows the
// balance of arrivals on the GPU (a missing one hangs under its watchdog).
#include <cstdlib>
#include <memory>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/ScopedEnv.h"

namespace {

using ts::e2e::diagText;

const char* kFwd = "samples/flash_attn_fwd.py";

struct Case {
    std::map<std::string, std::string> params;
    std::string label;
    bool refills = true;  ///< more trips than stages (else simplify folds the refill's empty wait away)
};

using ts::e2e::ScopedEnv;

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

/// Both interpreters against float64, then NVRTC for sm_90a (skipped without NVRTC).
void expectCorrectAndCompiles(const ts::CompileResult& r, const std::string& label) {
    ts::e2e::expectInterpretersMatchReference(r, label);
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << label << "\n" << nv.log;
}

ts::CompileResult compileFwd(std::map<std::string, std::string> params) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.params.emplace("block_M", "128");
    opts.params.emplace("threads", "256");
    opts.params.emplace("num_stages", "3");
    opts.target = "cuda:sm_90a";
    return ts::compile(kFwd, ts::e2e::readRepoFile(kFwd), opts);
}

class AttentionPingPong : public ::testing::TestWithParam<Case> {};

TEST_P(AttentionPingPong, TurnsAroundTheGemmsAndBothInterpretersMatchFloat64) {
    const Case& c = GetParam();
    ScopedEnv pingPong("TILESCOPE_HOPPER_PINGPONG", "1");  // off by default (slower on the H200)
    ts::CompileResult r = compileFwd(c.params);
    ASSERT_TRUE(r.ok) << diagText(r);
    const std::string& cu = r.cuda;
    EXPECT_EQ(count(cu, "ts::warpgroup_turn_begin();"), 1u) << cu;
    EXPECT_EQ(count(cu, "ts::warpgroup_turn_pass();"), 1u) << cu;
    EXPECT_EQ(count(cu, "ts::warpgroup_turn_wait();"), 1u) << cu;
    EXPECT_EQ(count(cu, "ts::warpgroup_turn_end();"), 1u) << cu;
    // Order in the source: begin < loop < Q K^T issued with wait_group 1 < pass < its wait(0) <
    // turn wait < P V < end.
    const size_t begin = cu.find("ts::warpgroup_turn_begin();"), loop = cu.find("for (int kt = 0;"),
                 qk = cu.find("ts::wgmma_gemm_ss<"), pass = cu.find("ts::warpgroup_turn_pass();"),
                 qkWait = cu.find("ts::wgmma_wait<0, "), wait = cu.find("ts::warpgroup_turn_wait();"),
                 pv = cu.find("ts::wgmma_gemm_rs<"), end = cu.find("ts::warpgroup_turn_end();");
    ASSERT_NE(qk, std::string::npos);
    ASSERT_NE(qkWait, std::string::npos) << cu;
    EXPECT_TRUE(begin < qk && qk < pass && pass < qkWait && qkWait < wait && wait < pv && pv < end) << cu;
    if (loop != std::string::npos) {  // one trip: no loop
        EXPECT_TRUE(begin < loop && loop < qk) << cu;
    }
    EXPECT_NE(cu.find(", true, 1, ts::"), std::string::npos) << "Q K^T committed with wait_group 1\n" << cu;
    // The refill starts at k = 1 (the prologue loaded S-1 tiles) and waits for tile k-2's stage.
    EXPECT_EQ(cu.find("(kt - 1)"), std::string::npos) << cu;
    if (c.refills) {
        EXPECT_NE(cu.find("tma_empty[ts_floormod((kt - 2), "), std::string::npos) << cu;
        EXPECT_NE(cu.find("(kt >= 1) && ((kt + "), std::string::npos) << cu;
    }
    expectCorrectAndCompiles(r, c.label);
}

// The producer warpgroup of warp-specialize on top: the consumers (warpgroups 0 and 1, threads
// below 256) keep the turns, the producer (threads 256..383) never calls them.
TEST_P(AttentionPingPong, WarpSpecializedKeepsTheTurnsInTheConsumers) {
    const Case& c = GetParam();
    ScopedEnv on("TILESCOPE_HOPPER_WS", "1");
    ScopedEnv pingPong("TILESCOPE_HOPPER_PINGPONG", "1");
    ts::CompileResult r = compileFwd(c.params);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(r.kernel.block[0], 384u);
    EXPECT_EQ(count(r.cuda, "ts::warpgroup_turn_pass();"), 1u) << r.cuda;
    expectCorrectAndCompiles(r, c.label + " (warp-specialized)");
}

const Case kCases[] = {
    // 64-key tiles: S = 40 is one trip (no refill), 128 two, 129 three (the last one row), 300
    // five; causal blocks stop early (query block 0 of S = 300 runs two trips, block 2 five).
    {{{"seq_len", "40"}}, "one_trip", false},
    {{{"seq_len", "128"}, {"is_causal", "True"}}, "two_trips_causal", false},
    {{{"seq_len", "129"}, {"groups", "4"}, {"heads", "4"}}, "three_trips_gqa4", false},
    {{{"seq_len", "300"}, {"is_causal", "True"}, {"dtype", "bfloat16"}}, "five_trips_causal_bf16"},
    // dim 128 (the H200 configuration's), four stages (4 x 32 KB of K/V tiles + 32 KB of Q), and
    // 128-key tiles at three stages (the H200's configuration E).
    {{{"seq_len", "333"}, {"dim", "128"}, {"num_stages", "4"}, {"heads", "2"}}, "dim128_four_stages"},
    {{{"seq_len", "300"}, {"dim", "128"}, {"block_N", "128"}, {"is_causal", "True"}}, "dim128_128_key_tiles_causal", false},
};
INSTANTIATE_TEST_SUITE_P(All, AttentionPingPong, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

// Where the schedule does not apply: two stages (lag 2 would leave no tile in flight), one
// warpgroup, or the switch not set (the default). The refill then keeps its lag of one.
TEST(AttentionPingPongOff, TwoStagesOneWarpgroupOrTheSwitchKeepTheLockstepSchedule) {
    struct Off {
        std::map<std::string, std::string> params;
        bool switchOff;
    };
    const Off offs[] = {
        {{{"seq_len", "300"}, {"num_stages", "2"}}, false},
        {{{"seq_len", "300"}, {"block_M", "64"}, {"threads", "128"}}, false},
        {{{"seq_len", "300"}}, true},
    };
    for (const Off& o : offs) {
        // Switched on, it still does not apply at two stages or one warpgroup; by default it is off.
        std::unique_ptr<ScopedEnv> env;
        if (!o.switchOff) env = std::make_unique<ScopedEnv>("TILESCOPE_HOPPER_PINGPONG", "1");
        ts::CompileResult r = compileFwd(o.params);
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_EQ(r.cuda.find("warpgroup_turn"), std::string::npos) << r.cuda;
        EXPECT_NE(r.cuda.find("(kt - 1)"), std::string::npos) << r.cuda;
        EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<"), std::string::npos) << diagText(r);
    }
}

}  // namespace
