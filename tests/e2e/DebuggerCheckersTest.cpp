// Seeded bugs of tests/debugger/: each is stopped by a checker of the thread-level interpreter
// under the step debugger, and the report names both source lines (the access that stopped the
// run and the one it conflicts with, or the buffer's declaration) and the buffer. The fixed
// variant of each program runs clean and matches its float64 reference, so the checkers do not
// fire on correct code.
#include <chrono>
#include <cmath>
#include <functional>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/debugger/Debugger.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"
#include "profiler/check/Inputs.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {
using namespace ts;

struct Program {
    std::string text;
    CompileResult r;
};

Program compileSeeded(const std::string& name, const std::string& from = {},
                      const std::string& to = {}) {
    Program p;
    p.text = e2e::readRepoFile("tests/debugger/" + name);
    if (!from.empty()) {
        auto at = p.text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) p.text.replace(at, from.size(), to);
    }
    p.r = compile("tests/debugger/" + name, p.text, {});
    return p;
}

/// 1-based line of the first line containing `needle`.
uint32_t lineOf(const std::string& text, const std::string& needle) {
    auto at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n') + 1);
}

std::vector<HostTensor> argsFor(const CompileResult& r) {
    std::vector<rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    auto set = rt::makeInputs(sig, {});
    for (size_t i = 0; i < sig.size(); ++i)
        if (sig[i].isOutput)
            set.tensors[i].data.assign(size_t(set.tensors[i].numel()), std::nan(""));
    return set.tensors;
}

/// Runs `f` in the debugger to the end; returns the final stop.
dbg::Stop runToEnd(const ir::PrimFunc& f, const CompileResult& r, std::vector<HostTensor> args,
                   std::vector<double> scalars = {}) {
    dbg::DebugOptions o;
    o.scalars = std::move(scalars);
    dbg::Debugger d(f, r.elaborated, std::move(args), o);
    d.start();
    d.run(dbg::Command::Continue);
    return d.stop();
}

TEST(DebuggerCheckers, MissingSyncThreadsIsARaceWithBothLines) {
    auto p = compileSeeded("race_missing_sync.py");
    ASSERT_TRUE(p.r.ok) << e2e::diagText(p.r);
    auto st = runToEnd(p.r.lowered, p.r, argsFor(p.r));
    ASSERT_EQ(st.reason, dbg::Stop::Reason::Error);
    ASSERT_TRUE(st.finding) << st.error;
    EXPECT_EQ(st.finding->kind, "race") << st.error;
    EXPECT_EQ(st.finding->buffer, "S");
    EXPECT_EQ(st.finding->at.line, lineOf(p.text, "# read"));
    EXPECT_EQ(st.finding->other.line, lineOf(p.text, "# write"));
    EXPECT_NE(st.error.find("races with its write by thread"), std::string::npos) << st.error;
    EXPECT_NE(st.error.find("line " + std::to_string(lineOf(p.text, "# write"))),
              std::string::npos)
        << st.error;
    // The same run without the debugger reports it too (tilec run --interp=lowered).
    auto args = argsFor(p.r);
    auto res = interp::runLowered(p.r.lowered, args);
    ASSERT_FALSE(res.ok);
    EXPECT_NE(res.error->message.find("races with its write"), std::string::npos);

    // Fixed: the barrier the comment asks for.
    auto fixed = compileSeeded("race_missing_sync.py", "# BUG: missing T.sync_threads()",
                               "T.sync_threads()");
    ASSERT_TRUE(fixed.r.ok) << e2e::diagText(fixed.r);
    auto fargs = argsFor(fixed.r);
    auto a = fargs[0].data;
    dbg::Debugger d(fixed.r.lowered, fixed.r.elaborated, fargs);
    d.start();
    d.run(dbg::Command::Continue);
    ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Finished) << d.stop().error;
}

TEST(DebuggerCheckers, MissingCpAsyncWaitIsAStaleReadWithBothLines) {
    auto p = compileSeeded("stale_read_pipeline.py");
    ASSERT_TRUE(p.r.ok) << e2e::diagText(p.r);
    // The correct schedule runs clean.
    auto good = runToEnd(p.r.lowered, p.r, argsFor(p.r));
    ASSERT_EQ(good.reason, dbg::Stop::Reason::Finished) << good.error;
    // A pipeline pass that forgets cp.async.wait_group.
    struct DropWaits : ir::Mutator {
        int dropped = 0;
        ir::Stmt visitEval(const ir::EvalNode* n, const ir::Stmt& self) override {
            auto* c = dynamic_cast<const ir::CallNode*>(n->call.get());
            if (!c || c->op != ir::intrin::kCpAsyncWait) return self;
            ++dropped;
            return ir::seq({});
        }
    } drop;
    auto broken = ir::withBody(p.r.lowered, drop.mutate(p.r.lowered->body));
    ASSERT_GT(drop.dropped, 0);
    auto st = runToEnd(broken, p.r, argsFor(p.r));
    ASSERT_EQ(st.reason, dbg::Stop::Reason::Error);
    ASSERT_TRUE(st.finding) << st.error;
    EXPECT_EQ(st.finding->kind, "stale-read") << st.error;
    EXPECT_EQ(st.finding->buffer, "A_shared");
    EXPECT_EQ(st.finding->at.line, lineOf(p.text, "# consume")) << st.error;
    EXPECT_EQ(st.finding->other.line, lineOf(p.text, "# copy")) << st.error;
    EXPECT_NE(st.error.find("before its cp.async completed"), std::string::npos) << st.error;
}

TEST(DebuggerCheckers, ArriveCountOffByOneWarpIsADeadlockNamingTheBarrier) {
    auto p = compileSeeded("deadlock_arrive_count.py");
    ASSERT_TRUE(p.r.ok) << e2e::diagText(p.r);
    auto t0 = std::chrono::steady_clock::now();
    auto st = runToEnd(p.r.lowered, p.r, argsFor(p.r));
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 1.0);
    ASSERT_EQ(st.reason, dbg::Stop::Reason::Error);
    ASSERT_TRUE(st.finding) << st.error;
    EXPECT_EQ(st.finding->kind, "deadlock") << st.error;
    const uint32_t bugLine = lineOf(p.text, "# BUG");
    EXPECT_EQ(st.finding->at.line, bugLine);
    ASSERT_EQ(st.finding->barriers.size(), 1u);  // barrier 0 completed its phase
    const auto& b = st.finding->barriers[0];
    EXPECT_EQ(b.id, 1);
    EXPECT_EQ(b.expected, 160);
    EXPECT_EQ(b.arrived, 128);
    EXPECT_EQ(b.at.line, bugLine);
    EXPECT_EQ(b.waiting.size(), 128u);
    EXPECT_NE(st.error.find("deadlock: every thread of the block waits at barrier 1 at line " +
                            std::to_string(bugLine) + " expects 160 arrivals, 128 arrived"),
              std::string::npos)
        << st.error;
    // With the right count the program runs to the end.
    auto fixed = compileSeeded("deadlock_arrive_count.py", "T.sync_threads(1, N + 32)",
                               "T.sync_threads(1, N)");
    ASSERT_TRUE(fixed.r.ok) << e2e::diagText(fixed.r);
    auto ok = runToEnd(fixed.r.lowered, fixed.r, argsFor(fixed.r));
    EXPECT_EQ(ok.reason, dbg::Stop::Reason::Finished) << ok.error;
    // The named barriers compile to bar.sync id, count.
    EXPECT_NE(fixed.r.cuda.find("bar.sync %0, %1;"), std::string::npos);
}

TEST(DebuggerCheckers, OutOfBoundsSharedIndexNamesTheIndexAndTheDeclaration) {
    auto p = compileSeeded("oob_shared_index.py");
    ASSERT_TRUE(p.r.ok) << e2e::diagText(p.r);
    auto st = runToEnd(p.r.lowered, p.r, argsFor(p.r), {1.0});
    ASSERT_EQ(st.reason, dbg::Stop::Reason::Error);
    ASSERT_TRUE(st.finding) << st.error;
    EXPECT_EQ(st.finding->kind, "out-of-bounds") << st.error;
    EXPECT_EQ(st.finding->buffer, "S");
    EXPECT_EQ(st.finding->index, 128);
    EXPECT_EQ(st.finding->thread, 127);
    EXPECT_EQ(st.finding->at.line, lineOf(p.text, "# BUG"));
    EXPECT_EQ(st.finding->other.line, lineOf(p.text, "# declared"));
    EXPECT_NE(st.error.find("S[128]"), std::string::npos) << st.error;
    // shift = 0 is in bounds.
    auto ok = runToEnd(p.r.lowered, p.r, argsFor(p.r), {0.0});
    EXPECT_EQ(ok.reason, dbg::Stop::Reason::Finished) << ok.error;
}

TEST(DebuggerCheckers, ReadOfNeverWrittenSharedMemoryNamesReadAndDeclaration) {
    auto p = compileSeeded("uninit_shared_read.py");
    ASSERT_TRUE(p.r.ok) << e2e::diagText(p.r);
    auto st = runToEnd(p.r.lowered, p.r, argsFor(p.r));
    ASSERT_EQ(st.reason, dbg::Stop::Reason::Error);
    ASSERT_TRUE(st.finding) << st.error;
    EXPECT_EQ(st.finding->kind, "uninitialised") << st.error;
    EXPECT_EQ(st.finding->buffer, "S");
    EXPECT_EQ(st.finding->index, 64);
    EXPECT_EQ(st.finding->at.line, lineOf(p.text, "# read"));
    EXPECT_EQ(st.finding->other.line, lineOf(p.text, "# declared"));
}

/// A broken pipeline pass (test only): every tl.mbarrier_init gets `extra` more arrivals per
/// phase than the schedule makes (the sm_90a schedule's expect_tx is the phase's one arrival).
struct RaiseMbarrierCount : ir::Mutator {
    int64_t extra = 1;
    int changed = 0;
    ir::Stmt visitEval(const ir::EvalNode* n, const ir::Stmt& self) override {
        auto* c = dynamic_cast<const ir::CallNode*>(n->call.get());
        if (!c || c->op != ir::intrin::kMbarrierInit) return self;
        std::vector<ir::Expr> args(c->args.begin(), c->args.begin() + 2);
        int64_t count = 1;
        if (c->args.size() > 2)
            if (auto* imm = dynamic_cast<const ir::IntImmNode*>(c->args[2].get())) count = imm->value;
        args.push_back(ir::intImm(count + extra, c->span));
        ++changed;
        return ir::evaluate(ir::call(c->op, std::move(args), c->dtype, c->span), n->span);
    }
};

TEST(DebuggerCheckers, MbarrierArriveCountOffByOneOnSm90aIsADeadlockNamingTheMbarrier) {
    CompileOptions o;
    o.target = "cuda:sm_90a";
    Program p;
    p.text = e2e::readRepoFile("tests/debugger/mbarrier_arrive_count_sm90.py");
    p.r = compile("tests/debugger/mbarrier_arrive_count_sm90.py", p.text, o);
    ASSERT_TRUE(p.r.ok) << e2e::diagText(p.r);
    // The schedule as compiled runs to the end: 4 k-tiles through 2 stages, each mbarrier
    // completes 2 phases (the prologue's load and one refill).
    auto good = runToEnd(p.r.lowered, p.r, argsFor(p.r));
    ASSERT_EQ(good.reason, dbg::Stop::Reason::Finished) << good.error;
    RaiseMbarrierCount raise;
    auto broken = ir::withBody(p.r.lowered, raise.mutate(p.r.lowered->body));
    ASSERT_EQ(raise.changed, 1);
    auto t0 = std::chrono::steady_clock::now();
    auto st = runToEnd(broken, p.r, argsFor(p.r));
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 1.0);
    ASSERT_EQ(st.reason, dbg::Stop::Reason::Error);
    ASSERT_TRUE(st.finding) << st.error;
    EXPECT_EQ(st.finding->kind, "deadlock") << st.error;
    EXPECT_EQ(st.finding->buffer, "tma_bar");
    EXPECT_EQ(st.finding->index, 0);  // k = 0 waits on stage 0 first
    // The wait and the init belong to the pipelined loop (the schedule the pass made for it);
    // the transaction bytes came from the copy of B, the stage's last TMA load.
    const uint32_t loopLine = lineOf(p.text, "# pipelined loop");
    EXPECT_EQ(st.finding->at.line, loopLine) << st.error;
    EXPECT_EQ(st.finding->other.line, loopLine) << st.error;
    ASSERT_EQ(st.finding->mbarriers.size(), 1u);
    const auto& m = st.finding->mbarriers[0];
    // Hand-derived: init with 2 arrivals; the prologue's expect_tx arrived once announcing
    // 64x32 + 32x64 fp16 = 8192 bytes; both TMA loads delivered them; no phase completed, so
    // the wait for parity 0 can never return.
    EXPECT_EQ(m.expected, 2);
    EXPECT_EQ(m.arrived, 1);
    EXPECT_EQ(m.txExpected, 8192);
    EXPECT_EQ(m.txDelivered, 8192);
    EXPECT_EQ(m.phase, 0);
    EXPECT_EQ(m.pending, 64 * 32 + 32 * 64);  // written by TMA, never made visible
    EXPECT_EQ(m.load.line, lineOf(p.text, "# copy B"));
    EXPECT_NE(st.error.find("deadlock: waiting on mbarrier tma_bar[0] at line " + std::to_string(loopLine) +
                            " for phase parity 0, which can never complete: 1 of 2 arrivals (count set at line " +
                            std::to_string(loopLine) + "), 8192 of 8192 transaction bytes"),
              std::string::npos)
        << st.error;
}

TEST(DebuggerCheckers, SeededProgramsCompileWithNvrtc) {
    if (!rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (const char* name : {"race_missing_sync.py", "deadlock_arrive_count.py", "oob_shared_index.py",
                             "uninit_shared_read.py", "stale_read_pipeline.py", "consume_then_copy.py",
                             "mbarrier_arrive_count_sm90.py"})
        for (auto [target, arch] : {std::pair{"cuda:sm_80", "sm_80"}, std::pair{"cuda:sm_90a", "sm_90a"}}) {
            CompileOptions o;
            o.target = target;
            const std::string path = std::string("tests/debugger/") + name;
            auto r = compile(path, e2e::readRepoFile(path), o);
            ASSERT_TRUE(r.ok) << e2e::diagText(r);
            auto nv = rt::compileCuda(r.cuda, arch, {}, true);
            EXPECT_TRUE(nv.ok) << name << " " << arch << ":\n" << nv.log;
        }
}

}  // namespace
