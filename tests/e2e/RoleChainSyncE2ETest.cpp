// Warp roles nested in a role: the arms of an if/elif chain of roles after the first (issue 8).
// On the H200, v32 sparse_mla_fwd_seesaw (rel-L2 0.49, first bad element at column 64 of head 0)
// and mla_decode_ws (rel-L2 0.79, the right half of O) were wrong at real sizes while both
// interpreters matched: insert-sync put named barriers only into the first arm of
// `if tx >= 256: ... elif tx < 128: ... else: ...` (the later arms are roles inside the first
// one's else role, which it did not look into), so the later arms' fragment->shared copies raced
// with their gemms, layout conversions and shared epilogues (O_shared = Q_shared read back by
// other threads before they wrote it). The tile interpreter orders statements itself (it assumes
// insert-sync's barriers); the lowered interpreter reported the races (it ran with --interp,
// not --interp=lowered, in the conformance runner).
//  - tests/e2e/programs/role_chain_slice_gemm.py: three arms, each O = (Q K^T) V from one stage
//    of a 3-D shared stage tile read in place by mma.sync (stage 0/1, V at column 0/64, the middle
//    arm's P tile written in place into the stage row at column 64), through the Q tile as the
//    epilogue: both interpreters vs float64, each arm's named barrier present, NVRTC sm_80 and
//    sm_90a.
//  - tests/e2e/programs/role_handoff_slice_gemm.py: mla_decode_ws's producer / consumer 0 /
//    consumer 1 hand-off over mbarriers, trip counts 1..3 of two stages: both interpreters vs
//    float64, NVRTC sm_90a (mbarrier parity waits need sm_90).
//  - tests/e2e/programs/role_chain_four.py: four one-warp roles in an if/elif/elif/elif chain
//    (three levels of nesting; the last condition holds for every thread left, as
//    mla_decode_ws's `elif tx >= 256`): each arm's barrier (bar.sync 1..4, 32), both
//    interpreters exact vs float64, NVRTC sm_80 and sm_90a.
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

const char* kChain = "tests/e2e/programs/role_chain_slice_gemm.py";
const char* kHandoff = "tests/e2e/programs/role_handoff_slice_gemm.py";
const char* kFour = "tests/e2e/programs/role_chain_four.py";

ts::CompileResult compileProg(const char* path, const std::string& target,
                              std::map<std::string, std::string> params = {}) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = target;
    return ts::compile(path, ts::e2e::readRepoFile(path), opts);
}

/// (id, count) of every named barrier (bar.sync id, count) in the lowered IR.
std::set<std::pair<int64_t, int64_t>> namedBarriers(const ts::ir::PrimFunc& f) {
    std::set<std::pair<int64_t, int64_t>> out;
    ts::ir::walk(f->body, [](const ts::ir::Stmt&) {}, [&](const ts::ir::Expr& e) {
        auto* c = ts::ir::as<ts::ir::CallNode>(e);
        if (!c || c->op != ts::ir::intrin::kSyncThreads || c->args.size() != 2) return;
        auto* id = ts::ir::as<ts::ir::IntImmNode>(c->args[0]);
        auto* n = ts::ir::as<ts::ir::IntImmNode>(c->args[1]);
        if (id && n) out.insert({id->value, n->value});
    });
    return out;
}

TEST(RoleChainSync, SliceGemmArmsMatchFloat64OnBothInterpreters) {
    struct Case {
        const char* target;
        const char* dtype;
        int stage, off;
    };
    for (Case c : {Case{"cuda:sm_80", "float16", 1, 64}, Case{"cuda:sm_90a", "float16", 1, 64},
                   Case{"cuda:sm_90a", "bfloat16", 1, 64}, Case{"cuda:sm_80", "bfloat16", 0, 0},
                   Case{"cuda:sm_90a", "float16", 1, 0}, Case{"cuda:sm_80", "float16", 0, 64}}) {
        const std::string label = std::string(c.target) + " " + c.dtype + " stage " +
                                  std::to_string(c.stage) + " off " + std::to_string(c.off);
        ts::CompileResult r = compileProg(kChain, c.target,
                                          {{"dtype", c.dtype},
                                           {"stage", std::to_string(c.stage)},
                                           {"off", std::to_string(c.off)}});
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        // Each arm orders its own statements with its named barrier (bar.sync 1 + first warp,
        // 128 threads): arm 1 = threads 256..383 (id 9), arm 2 = 0..127 (id 1), arm 3 =
        // 128..255 (id 5). Before the fix only id 9 was there.
        auto bars = namedBarriers(r.lowered);
        for (std::pair<int64_t, int64_t> want : {std::pair<int64_t, int64_t>{9, 128}, {1, 128}, {5, 128}})
            EXPECT_TRUE(bars.count(want)) << label << ": no bar.sync " << want.first << ", " << want.second;
        // The lowered interpreter fails on a race (read of an element another thread wrote
        // since the last barrier), which the missing barriers were.
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, label));
    }
}

TEST(RoleChainSync, SliceGemmCompilesWithNvrtcForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kChain, {});
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kChain, {{"dtype", "bfloat16"}, {"stage", "0"}, {"off", "0"}});
}

TEST(RoleChainSync, HandoffMatchesFloat64OnBothInterpreters) {
    for (int L : {2, 4, 6}) {
        const std::string label = "L=" + std::to_string(L);
        ts::CompileResult r = compileProg(kHandoff, "cuda:sm_90a", {{"L", std::to_string(L)}});
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        auto bars = namedBarriers(r.lowered);
        EXPECT_TRUE(bars.count({1, 128})) << label << ": consumer 0 (first arm) has no named barrier";
        EXPECT_TRUE(bars.count({5, 128})) << label << ": consumer 1 (nested arm) has no named barrier";
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, label));
        if (L != 4) continue;
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << nv.log;
    }
}

TEST(RoleChainSync, HandoffOnSm80IsTheMbarrierDiagnostic) {
    ts::CompileResult r = compileProg(kHandoff, "cuda:sm_80");
    ASSERT_FALSE(r.ok);
    EXPECT_NE(diagText(r).find("mbarrier phase waits"), std::string::npos) << diagText(r);
}

TEST(RoleChainSync, FourArmChainEachArmHasItsBarrierAndIsExact) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileProg(kFour, target);
        ASSERT_TRUE(r.ok) << target << "\n" << diagText(r);
        auto bars = namedBarriers(r.lowered);
        for (int64_t id = 1; id <= 4; ++id)
            EXPECT_TRUE(bars.count({id, 32})) << target << ": no bar.sync " << id << ", 32 (arm " << id << ")";
        auto ci = ts::e2e::makeCheckedInputs(r);
        ASSERT_TRUE(ci.ref.ok);
        std::vector<ts::HostTensor> results[2];
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectBothInterpretersMatchReference(r, ci, {}, target, results));
        // Exact: x * k (k = 2..5) is exact in double, so float32's one rounding equals the
        // float64 reference rounded to float32; the reversal moves values unchanged.
        for (int level = 0; level < 2; ++level)
            for (size_t i = 0; i < ci.ref.outputs[0].data.size(); ++i)
                ASSERT_EQ(results[level][0].data[i], double(float(ci.ref.outputs[0].data[i]))) << target << " " << level << " " << i;
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFour, {});
}

}  // namespace
