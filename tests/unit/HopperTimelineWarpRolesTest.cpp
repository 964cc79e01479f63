// The static barrier check on a hand-written warp-specialized kernel (issue 9, build item 4):
// tests/e2e/programs/mbarrier_producer_consumer.py splits 256 threads with T.ws into a consumer
// warpgroup 0 and a producer warpgroup 1 that meet only on the full/empty mbarrier rings.
// buildHopperTimeline must model both roles (not thread 0's alone, which waits on `full` with
// nobody arriving: a false deadlock), give every phase its 128 arrivals, and treat the
// producer's first waits on `empty` with parity 1 (a fresh barrier's preceding phase counts as
// complete) as the "stages start free" idiom: a warning on an arrival-only barrier, not an error.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/analysis/HopperTimeline.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

const char* kProg = "tests/e2e/programs/mbarrier_producer_consumer.py";

ts::analysis::PipelineTimeline timelineOf(int L, int stages) {
    ts::CompileOptions opts;
    opts.params = {{"R", "2"}, {"L", std::to_string(L)}, {"stages", std::to_string(stages)}};
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    auto r = ts::compile(kProg, ts::e2e::readRepoFile(kProg), opts);
    EXPECT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto t = ts::analysis::buildHopperTimeline(r.lowered);
    EXPECT_EQ(t.loops.size(), 1u);
    return t.loops.empty() ? ts::analysis::PipelineTimeline{} : t.loops[0];
}

TEST(HopperTimelineWarpRoles, TwoRolesEveryPhaseBalancedNoError) {
    for (int L : {1, 2, 5}) {
        auto t = timelineOf(L, 2);
        ASSERT_EQ(t.roles.size(), 2u) << L;
        EXPECT_EQ(t.roles[0].name, "warpgroup 0 (threads 0..)");
        EXPECT_EQ(t.roles[0].threads, 128);
        EXPECT_EQ(t.roles[1].name, "warpgroup 1 (threads 128..)");
        for (auto& i : t.issues) EXPECT_FALSE(i.error) << "L=" << L << ": " << i.message;
        // full[s] completes once per tile k with k % 2 == s: ceil/floor(L / 2) phases, 128 arrivals each.
        int fullPhases[2] = {0, 0}, emptyPhases[2] = {0, 0};
        for (auto& b : t.barriers) {
            EXPECT_TRUE(b.completed) << b.barrier << " phase " << b.phase;
            EXPECT_EQ(b.arrivalsExpected, 128);
            EXPECT_EQ(b.arrivalsDelivered, 128);
            if (b.barrier.rfind("full[", 0) == 0) ++fullPhases[b.barrier[5] - '0'];
            if (b.barrier.rfind("empty[", 0) == 0) ++emptyPhases[b.barrier[6] - '0'];
        }
        EXPECT_EQ(fullPhases[0], (L + 1) / 2) << L;
        EXPECT_EQ(fullPhases[1], L / 2) << L;
        EXPECT_EQ(emptyPhases[0], (L + 1) / 2) << L;
        EXPECT_EQ(emptyPhases[1], L / 2) << L;
        // The producer's first wait per stage passes at once: the idiom, reported as a warning.
        size_t idiom = 0;
        for (auto& i : t.issues) idiom += i.message.find("'stages start free' idiom") != std::string::npos;
        EXPECT_EQ(idiom, size_t(std::min(L, 2))) << L;
    }
}

// T.tma_copy under T.ws runs as the producer threads' own copy (ElaborateBarriers.cpp): said in a
// warning that names T.tma_copy (a fresh user read "T.copy into 'A_shared' does not use TMA", a
// note -q hides, with a hint to move the copy out of the condition the pattern needs).
TEST(HopperTimelineWarpRoles, ATmaCopyUnderARoleWarnsThatItRunsAsAPlainCopy) {
    const char* ws = "tests/e2e/programs/ws_tma_gemm.py";
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    auto r = ts::compile(ws, ts::e2e::readRepoFile(ws), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    size_t warnings = 0;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Warning && d.message.rfind("T.tma_copy into '", 0) == 0) {
            ++warnings;
            EXPECT_NE(d.message.find("runs as a copy by the threads that execute it, not a TMA bulk copy: it is under a condition on the thread index"),
                      std::string::npos) << d.message;
        }
    EXPECT_EQ(warnings, 2u) << ts::e2e::diagText(r);  // a_tile and b_tile
}

}  // namespace

#include "CliTestUtil.h"
#include "app/cli/CmdTrace.h"

namespace {

// Nonsense options are refused, not silently accepted (fresh-user trial: --block 99,0,0 on a
// 4x4 grid and --trips -3 printed a timeline and exited 0).
TEST(HopperTimelineCli, OutOfGridBlockAndNegativeTripsAreErrors) {
    ts::cli::TimelineCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    c.flags.target = "cuda:sm_90a";
    auto out = ts::cli::test::captureCli([&] { return ts::cli::runTimeline(c, {99, 0, 0}); });
    EXPECT_EQ(out.rc, 1);
    EXPECT_NE(out.err.find("--block x = 99 is outside the grid (4, 4, 1)"), std::string::npos) << out.err;
    c.trips = -3;
    out = ts::cli::test::captureCli([&] { return ts::cli::runTimeline(c); });
    EXPECT_EQ(out.rc, 1);
    EXPECT_NE(out.err.find("--trips must be positive, got -3"), std::string::npos) << out.err;
    c.trips = 0;
    out = ts::cli::test::captureCli([&] { return ts::cli::runTimeline(c, {3, 3, 0}); });
    EXPECT_EQ(out.rc, 0) << out.err;
}

}  // namespace

namespace {

// Hand-written T.mbarrier_expect_tx bytes (fresh-user trial: the static check ignored them while
// the lowered interpreter reported the deadlock). tests/e2e/programs/pipeline_matrix_ws.py's
// producer with an extra expect_tx of 4096 bytes on full[s] per executing thread: nothing in the
// program delivers them (T.tma_copy's bytes balance its own expect_tx), so the consumer's first
// wait on full[0] never completes; the expected bytes count the threads that execute the call.
ts::analysis::PipelineTimeline wsTimeline(const std::string& producerLine) {
    const char* prog = "tests/e2e/programs/pipeline_matrix_ws.py";
    std::string text = ts::e2e::readRepoFile(prog);
    const std::string anchor = "                    T.barrier_arrive(full[k % stages])\n";
    const size_t at = text.find(anchor);
    EXPECT_NE(at, std::string::npos);
    if (!producerLine.empty()) text.insert(at, producerLine);
    ts::CompileOptions opts;
    opts.params = {{"trips", "2"}, {"stages", "2"}};
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    auto r = ts::compile(prog, text, opts);
    EXPECT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto t = ts::analysis::buildHopperTimeline(r.lowered);
    EXPECT_EQ(t.loops.size(), 1u);
    return t.loops.empty() ? ts::analysis::PipelineTimeline{} : t.loops[0];
}

std::string errorsOf(const ts::analysis::PipelineTimeline& t) {
    std::string s;
    for (auto& i : t.issues)
        if (i.error) s += i.message + "\n";
    return s;
}

TEST(HopperBarrierCheck, HandWrittenExpectTxBytesNothingDeliversAreADeadlock) {
    // As written: every phase balanced, no error.
    EXPECT_EQ(errorsOf(wsTimeline("")), "");
    // Every producer thread (128) adds 4096 bytes.
    std::string all = errorsOf(wsTimeline("                    T.mbarrier_expect_tx(full[k % stages], 4096)\n"));
    EXPECT_NE(all.find("full[0]"), std::string::npos) << all;
    EXPECT_NE(all.find("never completes: expected 128 arrivals and 524288 transaction bytes, delivered 128 arrivals and 0 bytes"),
              std::string::npos)
        << all;
    // One elected thread (the producer's first: thread 128) adds 4096 bytes.
    std::string one = errorsOf(wsTimeline("                    if T.get_thread_binding() == 128:\n"
                                          "                        T.mbarrier_expect_tx(full[k % stages], 4096)\n"));
    EXPECT_NE(one.find("never completes: expected 128 arrivals and 4096 transaction bytes, delivered 128 arrivals and 0 bytes"),
              std::string::npos)
        << one;
}

}  // namespace
