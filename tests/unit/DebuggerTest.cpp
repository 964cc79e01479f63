// The step debugger (compiler/debugger/Debugger.h) on samples/gemm.py at a small size: a line
// breakpoint on T.gemm, tile-op steps, a thread's accumulator register checked against a float64
// partial product computed here, the fragment layout ("thread 5 holds C_local[1, 2..3]" from
// the mma.sync m16n8k16 C figure, PTX ISA §9.7.14.5.8: lane l holds rows l/4 and l/4 + 8,
// columns 2*(l%4) and +1 of each 16x8 atom), reverse steps, run-to-barrier and
// run-to-next-iteration of the pipelined loop, and `tilec debug` printing the same value.
#include <chrono>
#include <cmath>
#include <regex>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/debugger/Debugger.h"
#include "compiler/ir/Stmt.h"
#include "profiler/check/Inputs.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/unit/CliTestUtil.h"
#include "tests/support/SourceDir.h"

namespace {
using namespace ts;

// 64x64x128 with 64x64x32 tiles: one block, 4 warps (2x2, 32x32 warp tiles), 4 pipelined
// iterations of k.
const std::map<std::string, std::string> kSmall = {
    {"M", "64"}, {"N", "64"}, {"K", "128"}, {"block_M", "64"}, {"block_N", "64"},
    {"block_K", "32"}, {"num_stages", "2"}};

CompileResult compileGemm() {
    CompileOptions o;
    o.params = kSmall;
    return compile("samples/gemm.py", e2e::readRepoFile("samples/gemm.py"), o);
}

uint32_t lineOf(const std::string& text, const std::string& needle) {
    auto at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n') + 1);
}

/// A (64x128 fp16) and B (128x64), seeded as `tilec run` / `tilec debug` seed them; C poisoned.
std::vector<HostTensor> gemmArgs(const CompileResult& r, uint64_t seed) {
    std::vector<rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    rt::InputOptions io;
    io.seed = seed;
    auto set = rt::makeInputs(sig, io);
    for (size_t i = 0; i < sig.size(); ++i)
        if (sig[i].isOutput)
            set.tensors[i].data.assign(size_t(set.tensors[i].numel()), std::nan(""));
    return set.tensors;
}

/// sum_{k < kEnd} A[i, k] * B[k, j] in float64 (A 64x128, B 128x64, row-major).
double partial(const std::vector<HostTensor>& args, int i, int j, int kEnd) {
    double s = 0;
    for (int k = 0; k < kEnd; ++k) s += args[0].data[i * 128 + k] * args[1].data[k * 64 + j];
    return s;
}

TEST(Debugger, GemmBreakStepAndReadAFragmentOfThread5) {
    auto r = compileGemm();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    const std::string text = e2e::readRepoFile("samples/gemm.py");
    const uint32_t gemmLine = lineOf(text, "T.gemm(A_shared");
    auto args = gemmArgs(r, 7);
    dbg::Debugger d(r.lowered, r.elaborated, args);
    d.addBreakpoint(dbg::Breakpoint::atLine(gemmLine));
    d.start();
    d.run(dbg::Command::Continue);
    ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Breakpoint) << d.stop().error;
    EXPECT_EQ(d.stop().span.line, gemmLine);
    EXPECT_EQ(d.stop().active.size(), 128u);
    auto loops = d.loops();
    ASSERT_FALSE(loops.empty());
    EXPECT_TRUE(loops.back().pipelined);
    EXPECT_EQ(loops.back().value, 0);  // k = 0: the first gemm has not run yet

    // Before the first gemm the accumulator is cleared.
    std::string why;
    auto before = d.watch("C_local[1, 2]", 5, why);
    ASSERT_TRUE(before) << why;
    EXPECT_EQ(*before, 0.0);

    // Three tile-op steps: off the gemm line into iteration k = 1 (its wait, then the two copies
    // of the next stage), each to another line.
    uint32_t prev = gemmLine;
    for (int i = 0; i < 3; ++i) {
        d.run(dbg::Command::StepTileOp);
        ASSERT_FALSE(d.stop().finished()) << d.stop().error;
        EXPECT_NE(d.stop().span.line, prev);
        prev = d.stop().span.line;
    }
    EXPECT_EQ(d.loops().back().value, 1);
    // The first k-block (k < 32) has been accumulated (fp16 products summed in fp32).
    for (auto [i, j] : {std::pair{1, 2}, {1, 3}, {9, 2}, {25, 27}}) {
        auto v = d.watch("C_local[" + std::to_string(i) + ", " + std::to_string(j) + "]", 5, why);
        ASSERT_TRUE(v) << why;
        double ref = partial(args, i, j, 32);
        EXPECT_NEAR(*v, ref, 1e-5 * (1 + std::fabs(ref))) << i << "," << j;
    }
    // Layout: lane 5 of warp 0 holds rows 1, 9 (+16) and columns 2..3 (+8 per n8 atom).
    std::string h = d.holds("C_local", 5);
    EXPECT_NE(h.find("thread 5 holds C_local[1, 2..3]"), std::string::npos) << h;
    EXPECT_NE(h.find("[9, 2..3]"), std::string::npos) << h;
    EXPECT_EQ(d.fragment("C_local", 5).size(), 32u);
    // An element another thread holds is named with its owner.
    EXPECT_FALSE(d.watch("C_local[0, 0]", 5, why));
    EXPECT_NE(why.find("held by thread 0"), std::string::npos) << why;
    // Outside the fragment's logical shape: said so, not attributed to a thread by wrapping.
    EXPECT_FALSE(d.watch("C_local[999, 0]", 5, why));
    EXPECT_NE(why.find("outside the fragment"), std::string::npos) << why;
    EXPECT_EQ(why.find("held by thread"), std::string::npos) << why;
    // Variables as the thread sees them.
    auto tx = d.watch("tx", 5, why);
    ASSERT_TRUE(tx) << why;
    EXPECT_EQ(*tx, 5);
}

TEST(Debugger, StepBackReturnsToTheSameStopAndState) {
    auto r = compileGemm();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    dbg::Debugger d(r.lowered, r.elaborated, gemmArgs(r, 3));
    d.start();
    std::vector<uint64_t> events;
    std::vector<uint32_t> lines;
    for (int i = 0; i < 6; ++i) {
        events.push_back(d.stop().event);
        lines.push_back(d.stop().span.line);
        d.run(dbg::Command::StepInto);
    }
    std::string why;
    d.run(dbg::Command::ToBarrier);  // past the prologue's copies
    auto shared = d.shared("A_shared");
    ASSERT_FALSE(shared.empty());
    EXPECT_EQ(d.historySize(), 7u);
    ASSERT_TRUE(d.stepBack());
    EXPECT_EQ(d.stop().event, d.stop().event);
    for (int i = 5; i >= 0; --i) {
        ASSERT_TRUE(d.stepBack());
        EXPECT_EQ(d.stop().event, events[size_t(i)]);
        EXPECT_EQ(d.stop().span.line, lines[size_t(i)]);
    }
    EXPECT_FALSE(d.stepBack());
}

TEST(Debugger, RunToBarrierAndToTheNextIterationOfThePipelinedLoop) {
    auto r = compileGemm();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    dbg::Debugger d(r.lowered, r.elaborated, gemmArgs(r, 3));
    d.start();
    d.run(dbg::Command::ToBarrier);
    ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Barrier) << d.stop().error;
    auto loops = d.loops();
    ASSERT_FALSE(loops.empty());
    EXPECT_EQ(loops.back().value, 0);
    // In iteration 0 the prologue's stage 0 has landed (wait_group + barrier follow): the
    // cp.async writes are complete, so no element of stage 0 is pending after the barrier.
    d.run(dbg::Command::StepInto);
    int pendingStage0 = 0;
    auto A = d.shared("A_shared");
    for (size_t i = 0; i < 64 * 32; ++i) pendingStage0 += A[i].pending;
    EXPECT_EQ(pendingStage0, 0);
    d.run(dbg::Command::ToIteration);
    ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Iteration) << d.stop().error;
    EXPECT_EQ(d.loops().back().value, 1);
    for (int k = 2; k < 4; ++k) {
        d.run(dbg::Command::ToIteration);
        ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Iteration) << d.stop().error;
        EXPECT_EQ(d.loops().back().value, k);
    }
    d.run(dbg::Command::ToIteration);  // the loop has four iterations: runs out of it
    EXPECT_NE(d.stop().reason, dbg::Stop::Reason::Iteration);
    d.run(dbg::Command::Continue);
    EXPECT_EQ(d.stop().reason, dbg::Stop::Reason::Finished) << d.stop().error;
}

// From the first stop (before any loop) "next iteration" goes to the first iteration of the
// pipelined loop ahead, then steps through it (it used to run to the end: no loop around the stop).
TEST(Debugger, NextIterationFromBeforeTheLoopStopsAtItsFirstIteration) {
    auto r = compileGemm();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    dbg::Debugger d(r.lowered, r.elaborated, gemmArgs(r, 3));
    d.start();
    ASSERT_TRUE(d.loops().empty());
    for (int k = 0; k < 4; ++k) {
        d.run(dbg::Command::ToIteration);
        ASSERT_EQ(d.stop().reason, dbg::Stop::Reason::Iteration) << k << " " << d.stop().error;
        ASSERT_FALSE(d.loops().empty());
        EXPECT_EQ(d.loops().back().value, k);
    }
    d.run(dbg::Command::ToIteration);  // four iterations: runs out of the loop
    EXPECT_NE(d.stop().reason, dbg::Stop::Reason::Iteration);
}

TEST(Debugger, TileOpBreakpointAndStatementStepsStayResponsive) {
    auto r = compileGemm();
    ASSERT_TRUE(r.ok) << e2e::diagText(r);
    dbg::Debugger d(r.lowered, r.elaborated, gemmArgs(r, 3));
    dbg::Breakpoint b;
    b.kind = dbg::Breakpoint::Kind::TileOp;
    b.op = "gemm";
    d.addBreakpoint(b);
    d.start();
    int hits = 0;
    double worstMs = 0;
    while (!d.stop().finished()) {
        auto t0 = std::chrono::steady_clock::now();
        d.run(dbg::Command::Continue);
        worstMs = std::max(worstMs, std::chrono::duration<double, std::milli>(
                                        std::chrono::steady_clock::now() - t0)
                                        .count());
        if (d.stop().reason == dbg::Stop::Reason::Breakpoint) ++hits;
    }
    EXPECT_EQ(d.stop().reason, dbg::Stop::Reason::Finished) << d.stop().error;
    EXPECT_EQ(hits, 4);  // one gemm per pipelined iteration
    EXPECT_LT(worstMs, 2000.0);
}

// A fresh user's crash (2026-12-04): with the block finished, the first --print re-bound the
// thread's indices into scopes that no longer exist and the second one segfaulted. Now both read
// the finished block's output, and a loop variable is no longer in scope (exit 2, no crash).
TEST(Debugger, TilecDebugPrintsTwiceAfterTheBlockFinished) {
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.steps = 100000;
    c.prints = {"C[0, 1]", "C[5, 7]"};
    c.seed = 11;
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    ASSERT_EQ(o.rc, 0) << o.out << o.err;
    auto r = compileGemm();
    auto args = gemmArgs(r, 11);
    for (auto [i, j] : {std::pair{0, 1}, {5, 7}}) {
        std::regex re("thread 0: C\\[" + std::to_string(i) + ", " + std::to_string(j) + "\\] = ([-0-9.e+]+)");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(o.out, m, re)) << o.out;
        double ref = partial(args, i, j, 128);  // the whole K: C is fp16
        EXPECT_NEAR(std::stod(m[1]), ref, 2e-3 * (1 + std::fabs(ref))) << o.out;
    }
    c.prints = {"C[0, 1]", "k"};
    o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("'k'"), std::string::npos) << o.err;
}

TEST(Debugger, TilecDebugPrintsTheFragmentValueOfThread5) {
    const std::string text = e2e::readRepoFile("samples/gemm.py");
    const uint32_t gemmLine = lineOf(text, "T.gemm(A_shared");
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.breakLines = {int(gemmLine)};
    c.steps = 3;
    c.prints = {"C_local[1, 2]", "C_local[9, 3]"};
    c.holds = {"C_local"};
    c.thread = 5;
    c.seed = 11;
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    ASSERT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_NE(o.out.find(":" + std::to_string(gemmLine) + " (breakpoint)"), std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("step 3 (tile-op)"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("thread 5 holds C_local[1, 2..3]"), std::string::npos) << o.out;
    auto r = compileGemm();
    auto args = gemmArgs(r, 11);
    for (auto [i, j] : {std::pair{1, 2}, {9, 3}}) {
        std::regex re("thread 5: C_local\\[" + std::to_string(i) + ", " + std::to_string(j) +
                      "\\] = ([-0-9.e+]+)");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(o.out, m, re)) << o.out;
        double ref = partial(args, i, j, 32);
        EXPECT_NEAR(std::stod(m[1]), ref, 1e-5 * (1 + std::fabs(ref))) << o.out;
    }
}

TEST(Debugger, TilecDebugFillsInputsByRunsInputRules) {
    // `tilec debug` takes `tilec run`'s --input rules, so a run that failed on chosen inputs
    // (the conformance catalogue's offsets and index tables) can be stepped on the same ones.
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/add.py";
    c.flags.params = {"M=32", "N=128"};
    c.flags.target = "cuda:sm_80";
    c.flags.inputRules = {"A=fill:2", "B=arange"};
    c.breakOps = {"copy"};
    c.steps = 4;  // the three copies' and the T.Parallel's stops: C_local is computed
    c.prints = {"C_local[0, 5]", "C_local[8, 6]"};
    c.thread = 1;
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    ASSERT_EQ(o.rc, 0) << o.out << o.err;
    // B = arange over (32, 128) row-major: B[i, j] = 128 i + j; C = 2 + B.
    EXPECT_NE(o.out.find("thread 1: C_local[0, 5] = 7"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("thread 1: C_local[8, 6] = 1032"), std::string::npos) << o.out;
    c.flags.inputRules = {"Q=fill:2"};
    o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_NE(o.rc, 0);
    EXPECT_NE(o.err.find("--input Q: the kernel has no input tensor 'Q' (inputs: A, B)"), std::string::npos) << o.err;
}

TEST(Debugger, TilecDebugRejectsABlockOutsideTheGrid) {
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.block = "3,0";
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 2);
    EXPECT_NE(o.err.find("block (3, 0) is not in the kernel's grid (1, 1, 1)"), std::string::npos)
        << o.err;
}

TEST(Debugger, TilecDebugRejectsAThreadOutsideTheBlockBeforeRunning) {
    // Fresh-user trial 2026-12-02: `--thread 999 --print C_local` ran the block, printed "thread
    // 999 is not in the block" as a result line and exited 0.
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.breakOps = {"gemm"};
    c.prints = {"C_local[1, 2]"};
    c.thread = 999;
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 2);
    EXPECT_NE(o.err.find("--thread 999 is not in the block (0..127)"), std::string::npos) << o.err;
    EXPECT_EQ(o.out.find("stopped"), std::string::npos) << o.out;
}

TEST(Debugger, TilecDebugFailsOnAPrintItCannotAnswerAndOnAnUnknownBreakOp) {
    // Fresh-user trial 2026-12-02e: `--print NOPE[0]` printed why on stdout and exited 0, and
    // `--break-op nope` ran the block to the end without ever stopping.
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.breakOps = {"gemm"};
    c.prints = {"C_local[1, 2]", "NOPE[0]"};
    c.thread = 5;
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_NE(o.out.find("thread 5: C_local[1, 2] = "), std::string::npos) << o.out;  // the good one still prints
    EXPECT_NE(o.err.find("tilec: error: --print NOPE[0] (thread 5): "), std::string::npos) << o.err;

    c.prints.clear();
    c.breakOps = {"nope"};
    auto u = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(u.rc, 2);
    EXPECT_NE(u.err.find("--break-op nope: the kernel has no T.nope; its tile ops are: copy, fill, gemm"),
              std::string::npos) << u.err;
    EXPECT_EQ(u.out.find("stopped"), std::string::npos) << u.out;
}

TEST(Debugger, TilecDebugPrintOfAWholeBufferSaysHowToReadAnElement) {
    // Fresh-user trial 2026-12-04: `--print A_shared` said "no variable 'A_shared' in scope".
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.breakOps = {"gemm"};
    c.prints = {"A_shared"};
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("tilec: error: --print A_shared (thread 0): 'A_shared' is a buffer of shape (2, 64, 32), not a scalar: "
                         "print one element, e.g. A_shared[0, 0, 0]\n"),
              std::string::npos) << o.err;
}

TEST(Debugger, TilecDebugPrintOfAFragmentWithTheWrongIndexCountNamesItsRank) {
    // Fresh-user trial 2026-12-06 (helper-107): `--print C_local[1, 2, 3]` on the 2-D accumulator
    // said "outside the buffer (shape 128, per thread)".
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.breakOps = {"gemm"};
    c.prints = {"C_local[1, 2, 3]"};
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("C_local is a 2-D fragment (shape "), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("give 2 indices for a logical element, or 1 for a register of thread 0"), std::string::npos) << o.err;
}

TEST(Debugger, TilecDebugPrintOfOneFragmentIndexSaysItReadARegister) {
    // Fresh-user trial 2026-12-06 (helper-107): `--print C_local[1]` on the 2-D accumulator read
    // thread 0's register 1 (by design: one index = as stored) and the line did not say so.
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.breakOps = {"gemm"};
    c.steps = 1;
    c.prints = {"C_local[1]", "C_local[0, 1]"};
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("  (register 1 of thread 0, as stored; 2 indices read a logical element)\n"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("thread 0: C_local[0, 1] = "), std::string::npos) << o.out;
    const size_t logical = o.out.find("thread 0: C_local[0, 1] = ");
    ASSERT_NE(logical, std::string::npos);
    EXPECT_EQ(o.out.find("(register", logical), std::string::npos) << "a logical element is not a register read: " << o.out;
}

TEST(Debugger, TilecDebugPrintOfAStagedTileNamesItsDimensions) {
    // Fresh-user trial 2026-12-04: `--print A_shared[0, 1]` on a T.Pipelined tile said only
    // "is outside the buffer (shape 2, 64, 32)": the pipeline had stacked 2 stages in front of
    // the 64 x 32 tile (sm_80), or stored each stage flat (sm_90a, wgmma/TMA operand).
    cli::DebugCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    for (auto& [k, v] : kSmall) c.flags.params.push_back(k + "=" + v);
    c.flags.target = "cuda:sm_80";
    c.breakOps = {"gemm"};
    c.prints = {"A_shared[0, 1]", "A_shared[0, 0, 1]", "A_shared[1]"};
    auto o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("tilec: error: --print A_shared[0, 1] (thread 0): A_shared[0, 1] gives 2 indices, but A_shared has 3 "
                         "dimensions in the lowered kernel, (stage, row, column) = (2, 64, 32): T.Pipelined keeps 2 copies of the "
                         "64 x 32 tile declared at line 21; give the stage first, e.g. A_shared[0, 0, 1] (stage 0..1), or one flat "
                         "offset; indices address the tile as stored (`tilec layout FILE --buffer A_shared` shows where each "
                         "element is)\n"),
              std::string::npos) << o.err;
    // Valid prints are unchanged: the suggested index and the flat offset read the same element.
    const std::regex staged(R"(thread 0: A_shared\[0, 0, 1\] = (\S+)\n)"), flatOne(R"(thread 0: A_shared\[1\] = (\S+)  \(element 1 as stored \(flat, row-major over shape 2, 64, 32\)\)\n)");
    std::smatch a, b;
    ASSERT_TRUE(std::regex_search(o.out, a, staged)) << o.out;
    ASSERT_TRUE(std::regex_search(o.out, b, flatOne)) << o.out;
    EXPECT_EQ(a[1].str(), b[1].str());

    c.flags.target = "cuda:sm_90a";
    c.prints = {"A_shared[5, 1]"};
    o = cli::test::captureCli([&] { return cli::runDebug(c); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("A_shared[5, 1] is outside A_shared, which has 2 dimensions in the lowered kernel, (stage, offset) = "
                         "(2, 2048): T.Pipelined keeps 2 copies of the 64 x 32 tile declared at line 21, each stored flat; give "
                         "the stage first, then the offset in the stage, e.g. A_shared[0, 0] (stage 0..1); indices address the "
                         "tile as stored (`tilec layout FILE --buffer A_shared` shows where each element is)\n"),
              std::string::npos) << o.err;

    // An unstaged wgmma operand tile is stored flat: one offset.
    cli::DebugCommand f;
    f.flags.file = std::string(TS_SOURCE_DIR) + "/samples/flash_attn_fwd.py";
    f.flags.target = "cuda:sm_90a";
    f.breakOps = {"gemm"};
    f.prints = {"Q_s[3, 1]"};
    o = cli::test::captureCli([&] { return cli::runDebug(f); });
    EXPECT_EQ(o.rc, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("Q_s[3, 1] gives 2 indices, but Q_s has 1 dimension in the lowered kernel, (offset) = (4096): the "
                         "64 x 64 tile declared at line 44 is stored flat; give one offset, e.g. Q_s[0]; indices address the "
                         "tile as stored (`tilec layout FILE --buffer Q_s` shows where each element is)\n"),
              std::string::npos) << o.err;
}

}  // namespace
