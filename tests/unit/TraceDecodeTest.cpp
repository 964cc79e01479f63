// The measured timeline of `tilec trace` without a GPU: a synthetic stamp buffer (layout:
// compiler/analysis/TraceFormat.h) decoded by profiler/trace/TraceDecode.h into hand-derived
// stamps and Chrome trace events (schema: traceEvents of ph X / i / M with name, pid, tid, ts,
// dur in microseconds), the measured-vs-plan order check on gemm.py's sm_90a plan, and the
// instrumented CUDA of gemm.py compiling with NVRTC for sm_90a.
#include <gtest/gtest.h>

#include <cmath>

#include "CliTestUtil.h"
#include "compiler/Compile.h"
#include "compiler/analysis/HopperTimeline.h"
#include "compiler/analysis/TraceFormat.h"
#include "compiler/transforms/InstrumentTrace.h"
#include "profiler/cuda/Nvrtc.h"
#include "profiler/trace/TraceDecode.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::cli::test;
using ts::trace::StampKind;
namespace tr = ts::rt::trace;

namespace {

constexpr uint64_t kBase = 0x123400000000ull;  // above 2^32: the high word matters

/// Writes stamp `i` of (slot, warp) and sets its count; words are int32 values held in doubles.
struct Buffer {
    int64_t warps, cap;
    std::vector<double> words;
    Buffer(int64_t blocks, int64_t w, int64_t c) : warps(w), cap(c), words(size_t(blocks * w * ts::trace::regionWords(c)), 0.0) {}
    static double i32(uint32_t v) { return double(int32_t(v)); }
    void put(int64_t slot, int64_t warp, int64_t i, StampKind k, uint32_t stage, uint32_t iter, uint64_t ns, uint32_t clock) {
        double* r = words.data() + (slot * warps + warp) * ts::trace::regionWords(cap);
        double* e = r + ts::trace::kHeaderWords + ts::trace::kWordsPerStamp * (i % cap);
        e[0] = i32(uint32_t(ns)), e[1] = i32(uint32_t(ns >> 32)), e[2] = i32(clock);
        e[3] = i32(ts::trace::packMeta(uint32_t(k), stage, iter));
        r[0] = double(i + 1);
    }
};

const uint32_t kNone = ts::trace::kNoIteration, kNoStage = ts::trace::kNoStage;

}  // namespace

TEST(TraceDecode, SyntheticBufferDecodesToHandDerivedStampsAndChromeEvents) {
    Buffer b(2, 2, 8);  // blocks 0 and 5, 2 warps, 8 stamps per warp
    b.put(0, 0, 0, StampKind::LoopBegin, kNoStage, kNone, kBase + 0, 0xFFFFFF00u);
    b.put(0, 0, 1, StampKind::WaitBegin, 1, 0, kBase + 100, 0xFFFFFFF0u);
    b.put(0, 0, 2, StampKind::WaitEnd, 1, 0, kBase + 500, 0x00000010u);  // clock wrapped: 32 cycles
    b.put(0, 0, 3, StampKind::MmaBegin, kNoStage, 0, kBase + 600, 100);
    b.put(0, 0, 4, StampKind::MmaEnd, kNoStage, 0, kBase + 900, 700);
    b.put(0, 0, 5, StampKind::LoopEnd, kNoStage, kNone, kBase + 1000, 900);
    b.put(1, 1, 0, StampKind::Issue, 3, 7, kBase + 2000, 5);
    auto d = tr::decodeTrace(b.words, {0, 5}, 2, 8);
    ASSERT_TRUE(d.error.empty()) << d.error;
    ASSERT_EQ(d.warps.size(), 2u);  // warps without stamps are left out
    const auto& w0 = d.warps[0];
    EXPECT_EQ(w0.block, 0);
    EXPECT_EQ(w0.warp, 0);
    EXPECT_FALSE(w0.overflow);
    ASSERT_EQ(w0.stamps.size(), 6u);
    EXPECT_EQ(w0.stamps[1].kind, StampKind::WaitBegin);
    EXPECT_EQ(w0.stamps[1].stage, 1);
    EXPECT_EQ(w0.stamps[1].iteration, 0);
    EXPECT_EQ(w0.stamps[1].globalNs, kBase + 100);
    EXPECT_EQ(w0.stamps[0].iteration, -1);
    EXPECT_EQ(w0.stamps[0].stage, -1);
    EXPECT_EQ(w0.stamps[2].clock, 0x10u);
    EXPECT_EQ(d.warps[1].block, 5);
    EXPECT_EQ(d.warps[1].warp, 1);
    EXPECT_EQ(d.warps[1].stamps[0].stage, 3);
    EXPECT_EQ(d.warps[1].stamps[0].iteration, 7);

    tr::ChromeTraceInfo info{"gemm.py", "main_kernel", "sm_90a", {{"blocks", {0, 5}}}};
    nlohmann::json j = nlohmann::json::parse(tr::chromeTrace(d, nullptr, info).dump());  // survives a round trip
    ASSERT_TRUE(j["traceEvents"].is_array());
    EXPECT_EQ(j["otherData"]["format"], "tilescope-trace/1");
    EXPECT_EQ(j["otherData"]["t0_globaltimer_ns"], kBase);
    EXPECT_EQ(j["otherData"]["blocks"], nlohmann::json({0, 5}));
    int x = 0, inst = 0, m = 0;
    for (auto& e : j["traceEvents"]) {
        // The Trace Event Format fields every viewer needs.
        ASSERT_TRUE(e["name"].is_string()) << e;
        ASSERT_TRUE(e["ph"].is_string()) << e;
        ASSERT_TRUE(e["pid"].is_number_integer()) << e;
        ASSERT_TRUE(e["tid"].is_number_integer()) << e;
        const std::string ph = e["ph"];
        if (ph == "M") {
            ++m;
            EXPECT_TRUE(e["args"]["name"].is_string());
            continue;
        }
        ASSERT_TRUE(e["ts"].is_number()) << e;
        EXPECT_GE(e["ts"].get<double>(), 0.0);
        if (ph == "X") {
            ++x;
            ASSERT_TRUE(e["dur"].is_number()) << e;
            EXPECT_GE(e["dur"].get<double>(), 0.0);
        } else {
            ASSERT_EQ(ph, "i") << e;
            EXPECT_EQ(e["s"], "t");
            ++inst;
        }
    }
    EXPECT_EQ(x, 3);     // wait, wgmma, loop of warp 0
    EXPECT_EQ(inst, 1);  // the issue of block 5's warp 1
    EXPECT_EQ(m, 4);     // process names of blocks 0 and 5, thread names of their warps
    for (auto& e : j["traceEvents"]) {
        if (e["ph"] != "X") continue;
        const std::string n = e["name"];
        const double ts = e["ts"], dur = e["dur"];
        if (n == "wait stage 1 k=0") {
            EXPECT_DOUBLE_EQ(ts, 0.1);  // (kBase+100 - kBase) ns = 0.1 us
            EXPECT_DOUBLE_EQ(dur, 0.4);
            EXPECT_EQ(e["args"]["cycles"], 32u);  // 0x10 - 0xFFFFFFF0 modulo 2^32
            EXPECT_EQ(e["pid"], 1);
        } else if (n == "wgmma k=0") {
            EXPECT_DOUBLE_EQ(ts, 0.6);
            EXPECT_DOUBLE_EQ(dur, 0.3);
        } else {
            EXPECT_EQ(n, "pipelined loop");
            EXPECT_DOUBLE_EQ(ts, 0.0);
            EXPECT_DOUBLE_EQ(dur, 1.0);
        }
    }
}

TEST(TraceDecode, RingKeepsTheLastStampsOldestFirstAndBadBuffersAreErrors) {
    Buffer b(1, 1, 4);
    for (int i = 0; i < 6; ++i) b.put(0, 0, i, StampKind::MmaBegin, kNoStage, uint32_t(i), kBase + 10 * uint64_t(i), 0);
    auto d = tr::decodeTrace(b.words, {0}, 1, 4);
    ASSERT_TRUE(d.error.empty()) << d.error;
    ASSERT_EQ(d.warps.size(), 1u);
    EXPECT_TRUE(d.warps[0].overflow);
    std::vector<int64_t> iters;
    for (auto& s : d.warps[0].stamps) iters.push_back(s.iteration);
    EXPECT_EQ(iters, (std::vector<int64_t>{2, 3, 4, 5}));

    auto shortBuf = tr::decodeTrace(std::vector<double>(10, 0.0), {0}, 1, 4);
    EXPECT_EQ(shortBuf.error, "trace buffer has 10 words, expected 20 (1 block(s) x 1 warps x 20)");
    Buffer bad(1, 1, 4);
    bad.put(0, 0, 0, StampKind::MmaBegin, 0, 0, 1, 0);
    bad.words[size_t(ts::trace::kHeaderWords + 3)] = 0;  // kind 0
    EXPECT_NE(tr::decodeTrace(bad.words, {0}, 1, 4).error.find("has kind 0"), std::string::npos);
}

namespace {

CompileResult gemmSm90(int stages, int trips, std::vector<int64_t> traceBlocks) {
    CompileOptions opts;
    opts.params = {{"M", "256"}, {"N", "256"}, {"K", std::to_string(32 * trips)}, {"num_stages", std::to_string(stages)}};
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    if (traceBlocks.empty()) return compile("gemm.py", sampleText("gemm.py"), opts);
    xform::ScopedTraceRequest req({traceBlocks, ts::trace::kDefaultCapacity});
    return compile("gemm.py", sampleText("gemm.py"), opts);
}

analysis::PipelineTimeline planOf(const CompileResult& r, int trips) {
    analysis::HopperTimelineOptions o;
    if (trips == 1) o.planned = analysis::PlannedLoop{{25, 13}, "k", 1, 28};
    auto t = analysis::buildHopperTimeline(r.lowered, o);
    EXPECT_EQ(t.loops.size(), 1u);
    return t.loops.empty() ? analysis::PipelineTimeline{} : t.loops[0];
}

}  // namespace

TEST(TraceDecode, MeasuredOrderIsComparedWithThePlanOfThread0) {
    auto r = gemmSm90(2, 2, {});
    ASSERT_TRUE(r.ok);
    auto plan = planOf(r, 2);
    // Thread 0 of gemm.py at 2 stages, 2 trips (InjectPipelineTma.cpp): the prologue issues both
    // stages, then waits stage 0 / wgmma 0, waits stage 1 / wgmma 1 (no refill).
    Buffer b(1, 4, 16);
    struct S {
        StampKind k;
        uint32_t stage, iter;
    };
    std::vector<S> seq{{StampKind::Issue, 0, kNone}, {StampKind::Issue, 1, kNone}, {StampKind::LoopBegin, kNoStage, kNone},
                       {StampKind::WaitBegin, 0, 0},            {StampKind::WaitEnd, 0, 0},    {StampKind::MmaBegin, kNoStage, 0},
                       {StampKind::MmaEnd, kNoStage, 0},        {StampKind::Release, kNoStage, 0}, {StampKind::WaitBegin, 1, 1},
                       {StampKind::WaitEnd, 1, 1},              {StampKind::MmaBegin, kNoStage, 1}, {StampKind::MmaEnd, kNoStage, 1},
                       {StampKind::Release, kNoStage, 1},       {StampKind::LoopEnd, kNoStage, kNone}};
    for (size_t i = 0; i < seq.size(); ++i) b.put(0, 0, int64_t(i), seq[i].k, seq[i].stage, seq[i].iter, kBase + 100 * i, 0);
    auto d = tr::decodeTrace(b.words, {0}, 4, 16);
    ASSERT_TRUE(d.error.empty()) << d.error;
    auto ok = tr::compareWithPlan(d, plan);
    EXPECT_EQ(ok.expected, (std::vector<std::string>{"issue s0 k-1", "issue s1 k-1", "wait s0 k0", "mma k0", "wait s1 k1", "mma k1"}));
    EXPECT_TRUE(ok.match) << ok.detail;
    EXPECT_EQ(ok.compared, 6);
    // Measured: stage 1's wait before stage 0's.
    std::swap(seq[4].stage, seq[9].stage);
    std::swap(seq[4].iter, seq[9].iter);
    Buffer b2(1, 4, 16);
    for (size_t i = 0; i < seq.size(); ++i) b2.put(0, 0, int64_t(i), seq[i].k, seq[i].stage, seq[i].iter, kBase + 100 * i, 0);
    auto bad = tr::compareWithPlan(tr::decodeTrace(b2.words, {0}, 4, 16), plan);
    EXPECT_FALSE(bad.match);
    EXPECT_EQ(bad.detail, "block 0, thread 0, event 2: measured 'wait s1 k1', the plan has 'wait s0 k0'");
    // The plan on the measured axis: its steady part spans warp 0's loop (0.2 .. 1.3 us).
    auto j = tr::chromeTrace(d, &plan, {});
    EXPECT_EQ(j["otherData"]["plan"]["aligned_to_measured_loop"], true);
    double first = 1e9, last = -1;
    for (auto& e : j["traceEvents"])
        if (e["pid"] == 0 && e["ph"] == "X" && e["args"]["iteration"].get<int64_t>() >= 0) {
            first = std::min(first, e["ts"].get<double>());
            last = std::max(last, e["ts"].get<double>() + e["dur"].get<double>());
        }
    EXPECT_NEAR(first, 0.2, 1e-9);
    EXPECT_NEAR(last, 1.3, 1e-9);
}

TEST(TraceDecode, InstrumentedGemmCompilesWithNvrtcForSm90aAndKeepsItsSchedule) {
    for (int trips : {1, 5}) {
        SCOPED_TRACE("trips " + std::to_string(trips));
        auto plain = gemmSm90(3, trips, {});
        auto r = gemmSm90(3, trips, {0, 3});
        ASSERT_TRUE(plain.ok);
        ASSERT_TRUE(r.ok);
        EXPECT_EQ(plain.cuda.find("ts_trace"), std::string::npos) << "a normal compile carries no probe";
        EXPECT_NE(r.cuda.find("int* __restrict__ ts_trace"), std::string::npos);
        EXPECT_NE(r.cuda.find("%%globaltimer"), std::string::npos);
        EXPECT_NE(r.cuda.find("if (ts_b == 3u) ts_trace_slot = 1;"), std::string::npos);
        // The probes sit beside the schedule without changing it: same static plan.
        auto a = planOf(plain, trips), b = planOf(r, trips);
        ASSERT_EQ(a.roles.size(), b.roles.size());
        ASSERT_EQ(a.roles[0].events.size(), b.roles[0].events.size());
        for (size_t i = 0; i < a.roles[0].events.size(); ++i) EXPECT_EQ(a.roles[0].events[i].label, b.roles[0].events[i].label);
        EXPECT_TRUE(b.issues.empty());
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << nv.log;
    }
}
