// The step debugger on an sm_90a kernel (TMA loads completing on mbarriers, wgmma): stepping the
// prologue of tests/debugger/mbarrier_arrive_count_sm90.py statement by statement shows the
// stage-0 mbarrier (tma_bar[0]) go through its first phase with hand-derived values -- after
// expect_tx: 1 of 1 arrivals, 0 of 8192 transaction bytes (A 64x32 + B 32x64 fp16); after the
// A load: 4096 of 8192 bytes, 2048 elements pending; after the B load the phase completes
// (phase 1, counters reset, 4096 elements pending until a wait observes them) -- and at the end
// of the block each of the two mbarriers has completed 2 phases (4 k-tiles through 2 stages).
// A wgmma accumulator register is checked against the float64 partial product at the second
// iteration, and `tilec debug --print-barriers` prints the same state.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/debugger/Debugger.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"
#include "profiler/check/Inputs.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/unit/CliTestUtil.h"
#include "tests/support/SourceDir.h"

namespace {
using namespace ts;

const char* kFile = "tests/debugger/mbarrier_arrive_count_sm90.py";

CompileResult compileSm90() {
    CompileOptions o;
    o.target = "cuda:sm_90a";
    return compile(kFile, e2e::readRepoFile(kFile), o);
}

std::vector<HostTensor> argsFor(const CompileResult& r) {
    std::vector<rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    auto set = rt::makeInputs(sig, {});
    for (size_t i = 0; i < sig.size(); ++i)
        if (sig[i].isOutput) set.tensors[i].data.assign(size_t(set.tensors[i].numel()), std::nan(""));
    return set.tensors;
}

/// The first statement of `f` calling intrinsic `op`.
const ir::StmtNode* firstCall(const ir::PrimFunc& f, const char* op) {
    const ir::StmtNode* found = nullptr;
    ir::walk(f->body, [&](const ir::Stmt& s) {
        auto* e = dynamic_cast<const ir::EvalNode*>(s.get());
        auto* c = e ? dynamic_cast<const ir::CallNode*>(e->call.get()) : nullptr;
        if (!found && c && c->op == op) found = s.get();
    });
    return found;
}

interp::MbarrierInfo bar(const dbg::Debugger& d, int64_t index) {
    for (auto& m : d.mbarriers())
        if (m.buffer == "tma_bar" && m.index == index) return m;
    ADD_FAILURE() << "no mbarrier tma_bar[" << index << "]";
    return {};
}

TEST(DebuggerMbarrier, SteppingTheTmaPrologueShowsPhasesArrivalsAndTransactionBytes) {
    auto r = compileSm90();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    const ir::StmtNode* load = firstCall(r.lowered, ir::intrin::kTmaLoad);
    ASSERT_TRUE(load);
    dbg::Debugger d(r.lowered, r.elaborated, argsFor(r));
    dbg::Breakpoint b;
    b.kind = dbg::Breakpoint::Kind::Statement;
    b.stmt = load;
    const int bp = d.addBreakpoint(b);
    d.start();
    EXPECT_TRUE(d.mbarriers().empty());  // before tl.mbarrier_init
    d.run(dbg::Command::Continue);       // before the A load of stage 0
    ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Breakpoint) << d.stop().error;
    ASSERT_EQ(d.mbarriers().size(), 2u);
    auto m = bar(d, 0);
    EXPECT_EQ(m.expected, 1);
    EXPECT_EQ(m.arrived, 1);  // expect_tx is the phase's one arrival
    EXPECT_EQ(m.phase, 0);
    EXPECT_EQ(m.txExpected, 8192);
    EXPECT_EQ(m.txDelivered, 0);
    EXPECT_EQ(m.pending, 0);
    EXPECT_EQ(bar(d, 1).arrived, 0);
    EXPECT_EQ(bar(d, 1).txExpected, 0);
    d.setBreakpointEnabled(bp, false);
    d.run(dbg::Command::StepInto);  // the A load ran: 64 rows x 32 fp16
    m = bar(d, 0);
    EXPECT_EQ(m.phase, 0);
    EXPECT_EQ(m.txDelivered, 4096);
    EXPECT_EQ(m.pending, 64 * 32);
    d.run(dbg::Command::StepInto);  // the B load ran: 32 rows x 64 fp16; the phase completes
    m = bar(d, 0);
    EXPECT_EQ(m.phase, 1);
    EXPECT_EQ(m.arrived, 0);
    EXPECT_EQ(m.txExpected, 0);
    EXPECT_EQ(m.txDelivered, 0);
    EXPECT_EQ(m.pending, 64 * 32 + 32 * 64);  // landed, not yet observed by a wait
    // The gemm of iteration 1: both stages waited once; C_local holds A[:, :64] @ B[:64, :].
    const uint32_t gemmLine = 25;  // "# gemm" in the seeded program
    ASSERT_NE(e2e::readRepoFile(kFile).find("T.gemm(A_shared, B_shared, C_local)  # gemm"), std::string::npos);
    d.addBreakpoint(dbg::Breakpoint::atLine(gemmLine));
    d.run(dbg::Command::Continue);
    d.run(dbg::Command::Continue);
    ASSERT_EQ(d.stop().span.line, gemmLine) << d.stop().error;
    ASSERT_EQ(d.loops().back().value, 1);
    EXPECT_EQ(bar(d, 0).phase, 1);
    EXPECT_EQ(bar(d, 1).phase, 1);
    EXPECT_EQ(bar(d, 1).pending, 0);  // the wait of k = 1 made stage 1 visible
    d.run(dbg::Command::Continue);    // the k = 2 gemm: stage 0 was refilled at k = 1
    ASSERT_EQ(d.loops().back().value, 2);
    EXPECT_EQ(bar(d, 0).phase, 2);
    d.setBreakpointEnabled(1, false);
    d.run(dbg::Command::Continue);
    ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Finished) << d.stop().error;
    EXPECT_EQ(bar(d, 0).phase, 2);
    EXPECT_EQ(bar(d, 1).phase, 2);
}

TEST(DebuggerMbarrier, WgmmaAccumulatorAtTheSecondIterationIsTheFloat64PartialProduct) {
    auto r = compileSm90();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    auto args = argsFor(r);
    dbg::Debugger d(r.lowered, r.elaborated, args);
    d.addBreakpoint(dbg::Breakpoint::atLine(25));  // the gemm line: stops before each wgmma
    d.start();
    d.run(dbg::Command::Continue);
    d.run(dbg::Command::Continue);  // before the k = 1 wgmma: k-tile 0 accumulated
    ASSERT_EQ(d.loops().back().value, 1) << d.stop().error;
    // Every register of thread 5 against sum_{k < 32} A[i, k] B[k, j] through the wgmma layout.
    auto frag = d.fragment("C_local", 5);
    ASSERT_EQ(frag.size(), 32u);
    for (auto& e : frag) {
        ASSERT_EQ(e.index.size(), 2u);
        double ref = 0;
        for (int k = 0; k < 32; ++k)
            ref += args[0].data[size_t(e.index[0] * 128 + k)] * args[1].data[size_t(k * 64 + e.index[1])];
        EXPECT_NEAR(e.value, ref, 1e-5 * (1 + std::fabs(ref))) << e.index[0] << "," << e.index[1];
    }
}

TEST(DebuggerMbarrier, TilecDebugPrintsTheMbarriers) {
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/" + kFile;
    c.flags.target = "cuda:sm_90a";
    c.breakLines = {25};
    c.steps = 0;
    c.printBarriers = true;
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    ASSERT_EQ(o.rc, 0) << o.out << o.err;
    // At the k = 0 gemm: stage 0 waited (nothing pending), stage 1 landed but not yet waited.
    EXPECT_TRUE(cli::test::contains(
        o.out, "mbarrier tma_bar[0]: phase 1 (parity 1), arrivals 0/1, tx bytes 0/0, 0 elements pending"))
        << o.out;
    EXPECT_TRUE(cli::test::contains(
        o.out, "mbarrier tma_bar[1]: phase 1 (parity 1), arrivals 0/1, tx bytes 0/0, 4096 elements pending"))
        << o.out;
}

}  // namespace
