// Late tiles of the sm_90a fragment-path schedule (InjectPipelineTmaFragment.cpp): FlashAttention's
// V tile, read only by P V after Q K^T and the softmax, completes on its own full barrier
// (tma_full_late) that is waited right before P V, so the top of the iteration waits for K
// alone. Checked: the order of the waits and gemms in the loop, each barrier's expect_tx bytes
// (K and V tiles of 64 x 128 halves: 16384 each), the prologue, the switch
// TILESCOPE_HOPPER_LATE_WAIT=0 (one barrier for both, the schedule before), and both interpreters
// against float64 at ragged, causal, GQA and bf16 shapes, 1 to 3 stages, trip counts 1 and more
// (the lowered interpreter runs the mbarrier phases). NVRTC for both targets via the observer.
// Off by default (TILESCOPE_HOPPER_LATE_WAIT=1 turns it on): slower on the H100, 2026-12-06.
#include <gtest/gtest.h>

#include <memory>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/ScopedEnv.h"

namespace {

using ts::e2e::diagText;

ts::CompileResult compileB(std::map<std::string, std::string> p) {
    for (auto [k, v] : {std::pair{"block_M", "128"}, {"block_N", "64"}, {"num_stages", "2"}, {"threads", "256"}, {"dim", "128"}})
        p.emplace(k, v);
    return ts::e2e::compileRepoFile("samples/flash_attn_fwd.py", p, "cuda:sm_90a");
}

size_t at(const std::string& s, const std::string& what, size_t from = 0) { return s.find(what, from); }

TEST(AttentionLateWait, VCompletesOnItsOwnBarrierWaitedBeforePV) {
    auto on = std::make_unique<ts::e2e::ScopedEnv>("TILESCOPE_HOPPER_LATE_WAIT", "1");
    ts::CompileResult r = compileB({{"seq_len", "4096"}, {"heads", "16"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    const std::string& c = r.cuda;
    const size_t loop = at(c, "for (int kt = 0; kt < 64; ++kt) {");
    ASSERT_NE(loop, std::string::npos) << c;
    // Prologue: tile 0 of K on tma_full, of V on tma_full_late, 16384 bytes each.
    EXPECT_LT(at(c, "ts::mbarrier_arrive_expect_tx(&tma_full[0], 16384);"), loop) << c;
    EXPECT_LT(at(c, "ts::mbarrier_arrive_expect_tx(&tma_full_late[0], 16384);"), loop) << c;
    EXPECT_LT(at(c, "&V_s[0], &tma_full_late[0]"), loop) << c;
    // The loop: refill both, wait K, Q K^T, ..., wait V, P V, release.
    const size_t refillV = at(c, "&V_s[(((kt + 1) % 2) * 8192)], &tma_full_late[((kt + 1) % 2)]", loop);
    const size_t waitK = at(c, "ts::mbarrier_wait(&tma_full[(kt % 2)], ((kt / 2) % 2));", loop);
    const size_t qk = at(c, "ts::wgmma_gemm_ss<128, 64, 128, 2, false, true, 0, ts::half, 1, 0, 0, true>(&Q_s[0], &K_s[((kt % 2) * 8192)]", loop);
    const size_t waitV = at(c, "ts::mbarrier_wait(&tma_full_late[(kt % 2)], ((kt / 2) % 2));", loop);
    const size_t pv = at(c, "ts::wgmma_gemm_rs<128, 128, 64, 2, false, ts::half>(&P[0], &V_s[((kt % 2) * 8192)]", loop);
    const size_t release = at(c, "ts::mbarrier_arrive(&tma_empty[(kt % 2)]);", loop);
    for (size_t x : {refillV, waitK, qk, waitV, pv, release}) ASSERT_NE(x, std::string::npos) << c;
    EXPECT_LT(refillV, waitK);
    EXPECT_LT(waitK, qk);
    EXPECT_LT(qk, waitV);
    EXPECT_LT(waitV, pv);
    EXPECT_LT(pv, release);
    EXPECT_EQ(c.find("tma_full_late", pv), std::string::npos) << "one late wait per iteration\n" << c;

    on.reset();  // the default: one barrier for both
    ts::CompileResult before = compileB({{"seq_len", "4096"}, {"heads", "16"}});
    ASSERT_TRUE(before.ok) << diagText(before);
    EXPECT_EQ(before.cuda.find("tma_full_late"), std::string::npos) << before.cuda;
    EXPECT_NE(before.cuda.find("ts::mbarrier_arrive_expect_tx(&tma_full[0], 32768);"), std::string::npos) << before.cuda;
}

TEST(AttentionLateWait, InterpretersMatchFloat64) {
    ts::e2e::ScopedEnv on("TILESCOPE_HOPPER_LATE_WAIT", "1");
    struct Case {
        std::map<std::string, std::string> p;
        const char* label;
    };
    const Case cases[] = {
        {{{"seq_len", "300"}, {"heads", "2"}}, "ragged, 5 trips"},
        {{{"seq_len", "200"}, {"heads", "4"}, {"groups", "2"}, {"is_causal", "True"}}, "causal GQA 2"},
        {{{"seq_len", "64"}, {"heads", "1"}}, "one trip"},
        {{{"seq_len", "257"}, {"heads", "2"}, {"num_stages", "3"}, {"dtype", "bfloat16"}}, "3 stages bf16"},
        {{{"seq_len", "130"}, {"heads", "2"}, {"num_stages", "1"}, {"is_causal", "True"}}, "1 stage causal"},
        {{{"seq_len", "100"}, {"heads", "2"}, {"block_M", "64"}, {"threads", "128"}, {"dim", "64"}}, "64x64, 128 threads"},
    };
    for (const Case& c : cases) {
        ts::CompileResult r = compileB(c.p);
        ASSERT_TRUE(r.ok) << c.label << ": " << diagText(r);
        EXPECT_NE(r.cuda.find("ts::mbarrier_wait(&tma_full_late["), std::string::npos) << c.label << "\n" << r.cuda;
        ts::e2e::expectInterpretersMatchReference(r, c.label);
    }
}

}  // namespace
