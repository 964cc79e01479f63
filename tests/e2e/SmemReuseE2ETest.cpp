// Shared-memory reuse end to end (tests/e2e/programs/smem_reuse.py): two 128 KiB tiles with
// disjoint live ranges need 256 KiB side by side, over sm_90a's 232448-byte per-block limit;
// plan-smem puts both at offset 0 (131072 bytes in all), with a barrier between the last read of
// S1 and the first write of S2. The kernel matches its float64 reference on both interpreters
// and its CUDA compiles with NVRTC for sm_80 and sm_90a. Without plan-smem's barrier the
// thread-level interpreter (which poisons the bytes a write takes from a sharing buffer) reports
// the overwrite of S1's bytes while other threads still read them.
#include <gtest/gtest.h>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

TEST(SmemReuseE2E, DisjointTilesShareBytesAndMatchFloat64Reference) {
    std::string text = ts::e2e::readRepoFile("tests/e2e/programs/smem_reuse.py");
    ASSERT_FALSE(text.empty());
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile("tests/e2e/programs/smem_reuse.py", text, opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const auto& attrs = r.lowered->attrs;
    EXPECT_EQ(ts::ir::attrInt(attrs, "smem_offset.S1", -1), 0);
    EXPECT_EQ(ts::ir::attrInt(attrs, "smem_offset.S2", -1), 0);
    EXPECT_EQ(ts::ir::attrInt(attrs, "smem_bytes", -1), 131072);
    EXPECT_EQ(ts::ir::attrStr(attrs, "smem_shares.S2", ""), "S1");
    EXPECT_EQ(r.kernel.dynamicSmemBytes, 131072u);

    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "smem_reuse"));

    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (const char* arch : {"sm_80", "sm_90a"}) {
        auto nv = ts::rt::compileCuda(r.cuda, arch, {}, true);
        EXPECT_TRUE(nv.ok) << arch << ": " << nv.log;
    }
}

bool touches(const ts::ir::Stmt& s, const std::string& name) {
    bool found = false;
    ts::ir::walk(
        s,
        [&](const ts::ir::Stmt& x) {
            if (auto* st = ts::ir::as<ts::ir::StoreNode>(x); st && st->buffer->name == name) found = true;
        },
        [&](const ts::ir::Expr& e) {
            if (auto* l = ts::ir::as<ts::ir::LoadNode>(e); l && l->buffer->name == name) found = true;
        });
    return found;
}

TEST(SmemReuseE2E, MissingBarrierBetweenSharingBuffersIsARaceOnTheThreadInterpreter) {
    std::string text = ts::e2e::readRepoFile("tests/e2e/programs/smem_reuse.py");
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile("tests/e2e/programs/smem_reuse.py", text, opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // Drop the barrier right before S2's first statement (the one plan-smem added).
    const ts::ir::KernelNode* k = ts::ir::findKernel(r.lowered);
    auto* q = ts::ir::as<ts::ir::SeqNode>(k->body);
    ASSERT_TRUE(q);
    std::vector<ts::ir::Stmt> stmts = q->stmts;
    size_t first = 0;
    while (first < stmts.size() && !touches(stmts[first], "S2")) ++first;
    ASSERT_TRUE(first > 0 && first < stmts.size());
    auto* e = ts::ir::as<ts::ir::EvalNode>(stmts[first - 1]);
    auto* c = e ? ts::ir::as<ts::ir::CallNode>(e->call) : nullptr;
    ASSERT_TRUE(c && c->op == ts::ir::intrin::kSyncThreads);
    stmts.erase(stmts.begin() + static_cast<long>(first - 1));
    auto kernel = std::make_shared<ts::ir::KernelNode>(k->grid, k->threads, k->blockVars, k->threadVars,
                                                       ts::ir::seq(stmts), k->span);
    ts::ir::PrimFunc broken = ts::ir::withBody(r.lowered, ts::ir::seq({kernel}));

    auto ci = ts::e2e::makeCheckedInputs(r);
    std::vector<ts::HostTensor> args = ci.set.tensors;
    auto run = ts::interp::runLowered(broken, args);
    ASSERT_FALSE(run.ok);
    ASSERT_TRUE(run.error);
    EXPECT_NE(run.error->message.find("overwrites the bytes of S1"), std::string::npos) << run.error->message;
}

}  // namespace
