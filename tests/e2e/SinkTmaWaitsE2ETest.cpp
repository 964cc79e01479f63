// sink-tma-waits (compiler/transforms/SinkTmaWaits.cpp) on tests/e2e/programs/sink_tma_waits.py:
// where each plain TMA copy's mbarrier wait ends up in the lowered IR (read off the program: a
// wait moves down to the first statement that touches its tile, never past it, never out of its
// statement sequence), that the values stay float64-exact on both interpreters, that
// TILESCOPE_SINK_TMA_WAITS=0 leaves every wait right after its copy, and that NVRTC compiles
// both targets (sm_80 has no TMA: the pass does not run there).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/Compile.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"
#include "tests/e2e/ScopedEnv.h"

namespace {

const char* kFile = "tests/e2e/programs/sink_tma_waits.py";

ts::CompileResult compileMode(int mode) {
    ts::CompileOptions o;
    o.params = {{"mode", std::to_string(mode)}};
    o.target = "cuda:sm_90a";
    o.recordSnapshots = false;
    return ts::compile(kFile, ts::e2e::readRepoFile(kFile), o);
}

/// The statements of the sequence that holds the TMA loads (the kernel body, or the loop body
/// in mode 2), one word each: "load A_s", "wait A_s" (the wait on that load's barrier), "read"
/// (a statement reading A_s or B_s), "sync", "-" (anything else).
std::vector<std::string> shape(const ts::CompileResult& r) {
    using namespace ts::ir;
    std::vector<std::string> out;
    std::map<std::string, std::string> barOf;  // barrier name -> tile name
    auto nameIn = [](const Expr& addr) -> std::string {
        std::string n;
        walkExpr(addr, [&](const Expr& x) {
            if (auto* l = dynamic_cast<const LoadNode*>(x.get())) n = l->buffer->name;
        });
        return n;
    };
    std::function<void(const Stmt&)> seqOf = [&](const Stmt& s) {
        if (auto* k = as<KernelNode>(s)) return seqOf(k->body);
        if (auto* f = as<ForNode>(s)) return seqOf(f->body);
        const SeqNode* q = as<SeqNode>(s);
        if (!q) return;
        bool holdsLoad = false;
        for (auto& x : q->stmts)
            if (auto* e = as<EvalNode>(x))
                if (auto* c = dynamic_cast<const CallNode*>(e->call.get()); c && c->op == intrin::kTmaLoad) holdsLoad = true;
        if (!holdsLoad) {
            for (auto& x : q->stmts)
                if (as<ForNode>(x) || as<KernelNode>(x)) seqOf(x);
            return;
        }
        for (auto& x : q->stmts) {
            std::string w = "-";
            if (auto* e = as<EvalNode>(x)) {
                auto* c = dynamic_cast<const CallNode*>(e->call.get());
                if (c && c->op == intrin::kTmaLoad) {
                    w = "load " + nameIn(c->args[1]);
                    barOf[nameIn(c->args[2])] = nameIn(c->args[1]);
                } else if (c && c->op == intrin::kMbarrierWait) {
                    w = "wait " + barOf[nameIn(c->args[0])];
                } else if (c && c->op == intrin::kSyncThreads) {
                    w = "sync";
                }
            } else {
                bool reads = false;
                walk(x, {}, [&](const Expr& y) {
                    if (auto* l = dynamic_cast<const LoadNode*>(y.get()); l && (l->buffer->name == "A_s" || l->buffer->name == "B_s")) reads = true;
                });
                if (reads) w = "read";
            }
            if (w == "-" && !out.empty() && out.back() == "-") continue;  // one word per run of others
            out.push_back(w);
        }
    };
    seqOf(r.lowered->body);
    return out;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (auto& x : v) s += (s.empty() ? "" : " | ") + x;
    return s;
}

TEST(SinkTmaWaits, BothCopiesInFlightBeforeTheirReader) {
    auto r = compileMode(0);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // The barriers' init and its barrier; fence, barrier, expect_tx, A's issue; the same for B;
    // the clear; both waits; the reader; the store of Out.
    EXPECT_EQ(joined(shape(r)), "- | sync | - | sync | - | load A_s | - | sync | - | load B_s | - | wait A_s | wait B_s | read | -");
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "mode 0"));
}

TEST(SinkTmaWaits, AWaitNeverPassesItsTilesReader) {
    auto r = compileMode(1);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(joined(shape(r)), "- | sync | - | sync | - | load A_s | wait A_s | read | - | sync | - | load B_s | wait B_s | read | -");
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "mode 1"));
}

TEST(SinkTmaWaits, InsideALoopTheWaitsStayInTheirIteration) {
    auto r = compileMode(2);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // The loop body: fence and barrier before each issue (the tile was read last iteration).
    EXPECT_EQ(joined(shape(r)), "- | sync | - | load A_s | - | sync | - | load B_s | wait A_s | wait B_s | read");
    EXPECT_NE(r.cuda.find("ts::mbarrier_wait(&tma_copy_bar_1[0], (t % 2));\n        ts::mbarrier_wait(&tma_copy_bar_2[0], (t % 2));"),
              std::string::npos)
        << r.cuda;
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "mode 2"));
}

// mode 3: A's copy is never read, so its wait goes to the end of the kernel, after a scratch
// tile's whole life: the scratch must not get A_s's bytes while the TMA may still land there
// (the lowered interpreter reports such a write as an error; found by a fresh-user helper).
TEST(SinkTmaWaits, ATileStaysItsOwnUntilItsWait) {
    auto r = compileMode(3);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // (Z's writes and reads are the "-" runs: only A_s and B_s count as "read" here.)
    EXPECT_EQ(joined(shape(r)), "- | sync | - | sync | - | load A_s | - | sync | - | wait A_s");
    auto offset = [&](const std::string& name) {
        auto it = r.lowered->attrs.find("smem_offset." + name);
        return it == r.lowered->attrs.end() ? int64_t(-1) : std::get<int64_t>(it->second);
    };
    auto bytes = [&](const char* name, int64_t n) { return std::pair<int64_t, int64_t>{offset(name), offset(name) + n}; };
    auto [a0, a1] = bytes("A_s", 64 * 64 * 2);
    auto [z0, z1] = bytes("Z", 64 * 64 * 4);
    ASSERT_GE(a0, 0);
    ASSERT_GE(z0, 0);
    EXPECT_TRUE(a1 <= z0 || z1 <= a0) << "A_s [" << a0 << ", " << a1 << ") and Z [" << z0 << ", " << z1 << ") overlap";
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "mode 3"));
}

TEST(SinkTmaWaits, SwitchedOffEveryWaitFollowsItsCopy) {
    ts::e2e::ScopedEnv off("TILESCOPE_SINK_TMA_WAITS", "0");
    auto r = compileMode(0);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(joined(shape(r)), "- | sync | - | sync | - | load A_s | wait A_s | - | sync | - | load B_s | wait B_s | - | read | -");
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "mode 0, switched off"));
}

TEST(SinkTmaWaits, NvrtcCompilesForSm80AndSm90a) {
    for (const char* mode : {"0", "1", "2", "3"}) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"mode", mode}});
}

}  // namespace
