// The Timeline and Barrier panels' models (visualizer/core/TimelineModel.h, MeasuredTrace.h,
// BarrierTable.h) on a hand-written 2-stage, 2-iteration cp.async plan and a hand-written
// 2-phase mbarrier plan: bar positions, iteration bands, stage occupancy, the zoom/pan
// transform, hit-testing in pixels, a measured trace mapped onto the plan's axis, and the
// barrier table's rows and verdicts. Every expected value is derived by hand in the comments.
#include <gtest/gtest.h>

#include "visualizer/core/BarrierTable.h"
#include "visualizer/core/MeasuredTrace.h"
#include "visualizer/core/TimelineModel.h"

using namespace ts;
using namespace ts::viz;
using analysis::TimelineEventKind;
using analysis::TimelinePhase;

namespace {

analysis::TimelineEvent ev(TimelineEventKind k, TimelinePhase ph, int64_t iter, uint32_t line) {
    analysis::TimelineEvent e;
    e.kind = k;
    e.phase = ph;
    e.iteration = iter;
    e.span = Span{line, 13, line, 40};
    return e;
}

// S = 2 stages, n = 2 iterations, as inject-pipeline orders it (PipelineTimeline.h):
//  0 cp A k0 s0 | 1 cp B k0 s0 | 2 commit g0                     (prologue)
//  3 wait g0 | 4 sync | 5 cp A k1 s1 | 6 cp B k1 s1 | 7 commit g1 | 8 mma k0   (k = 0)
//  9 wait g1 | 10 sync | 11 release s0 | 12 mma k1                (k = 1)
// 13 release s1                                                   (epilogue)
analysis::PipelineTimeline twoStagePlan() {
    using K = TimelineEventKind;
    using P = TimelinePhase;
    analysis::PipelineTimeline l;
    l.loopSpan = Span{25, 9, 28, 40};
    l.loopVar = "k";
    l.tripCount = 2;
    l.stages = 2;
    l.async = true;
    l.schedule = "cp.async";
    analysis::TimelineRole r;
    r.name = "all warps";
    r.threads = 128;
    auto copy = [&](const char* buf, int64_t tile, int64_t stage, P ph, int64_t iter) {
        auto e = ev(K::IssueCopy, ph, iter, buf[0] == 'A' ? 26 : 27);
        e.buffer = buf, e.tile = tile, e.stage = stage, e.label = std::string("issue ") + buf + "[k=" + std::to_string(tile) + "]";
        r.events.push_back(e);
    };
    auto commit = [&](int64_t g, P ph, int64_t iter) {
        auto e = ev(K::Commit, ph, iter, 25);
        e.group = g;
        r.events.push_back(e);
    };
    auto wait = [&](int64_t g, int64_t iter) {
        auto e = ev(K::WaitGroup, P::Steady, iter, 25);
        e.group = g, e.pending = 0;
        r.events.push_back(e);
    };
    auto mma = [&](int64_t k) {
        auto e = ev(K::Mma, P::Steady, k, 28);
        e.tile = k, e.stage = k % 2, e.label = "mma k=" + std::to_string(k), e.irStmt = "T.gemm(A_shared, B_shared, C_local)";
        r.events.push_back(e);
    };
    auto release = [&](int64_t s, int64_t tile, P ph, int64_t iter) {
        auto e = ev(K::Release, ph, iter, 25);
        e.stage = s, e.tile = tile;
        r.events.push_back(e);
    };
    copy("A_shared", 0, 0, P::Prologue, -1);
    copy("B_shared", 0, 0, P::Prologue, -1);
    commit(0, P::Prologue, -1);
    wait(0, 0);
    r.events.push_back(ev(K::Barrier, P::Steady, 0, 25));
    copy("A_shared", 1, 1, P::Steady, 0);
    copy("B_shared", 1, 1, P::Steady, 0);
    commit(1, P::Steady, 0);
    mma(0);
    wait(1, 1);
    r.events.push_back(ev(K::Barrier, P::Steady, 1, 25));
    release(0, 0, P::Steady, 1);
    mma(1);
    release(1, 1, P::Epilogue, -1);
    for (size_t i = 0; i < r.events.size(); ++i) r.events[i].step = int64_t(i);
    l.roles.push_back(r);
    // Stage 0 holds k0 from its first copy (0) over its wait (3) to its release (11); stage 1
    // holds k1 from 5 over 9 to 13.
    l.occupancy.push_back({0, 0, 0, 3, 11});
    l.occupancy.push_back({1, 1, 5, 9, 13});
    return l;
}

}  // namespace

TEST(TimelineModel, TwoStagePlanRowsPositionsAndBands) {
    TimelineModel m = TimelineModel::fromPlan(twoStagePlan());
    ASSERT_EQ(m.rows().size(), 3u);  // the role, then stage 0 and stage 1
    EXPECT_EQ(m.axisUnit(), "step");
    EXPECT_EQ(m.rows()[0].name, "all warps (128 threads)");
    EXPECT_EQ(m.rows()[0].kind, TimelineRowKind::Role);
    ASSERT_EQ(m.rows()[0].items.size(), 14u);
    for (size_t i = 0; i < 14; ++i) {  // the cp.async plan's axis is the step: [step, step + 1)
        EXPECT_DOUBLE_EQ(m.rows()[0].items[i].start, double(i));
        EXPECT_DOUBLE_EQ(m.rows()[0].items[i].end, double(i + 1));
    }
    const auto& mma0 = m.rows()[0].items[8];
    EXPECT_EQ(mma0.label, "mma k0");
    EXPECT_EQ(mma0.category, TimelineCategory::Mma);
    EXPECT_EQ(mma0.span.line, 28u);
    EXPECT_NE(mma0.tooltip.find("mma k=0"), std::string::npos) << mma0.tooltip;
    EXPECT_NE(mma0.tooltip.find("IR: T.gemm(A_shared, B_shared, C_local)"), std::string::npos) << mma0.tooltip;
    EXPECT_EQ(m.rows()[0].items[0].label, "cp A k0");
    EXPECT_EQ(m.rows()[0].items[0].category, TimelineCategory::Copy);
    EXPECT_EQ(m.rows()[0].items[2].label, "commit g0");
    EXPECT_EQ(m.rows()[0].items[3].label, "wait g0");
    EXPECT_EQ(m.rows()[0].items[3].category, TimelineCategory::Wait);
    EXPECT_EQ(m.rows()[0].items[11].label, "rel s0");
    // Occupancy: [issue, release + 1), landed at the end of the wait (wait step + 1).
    EXPECT_EQ(m.rows()[1].name, "stage 0 (shared)");
    ASSERT_EQ(m.rows()[1].items.size(), 1u);
    EXPECT_DOUBLE_EQ(m.rows()[1].items[0].start, 0);
    EXPECT_DOUBLE_EQ(m.rows()[1].items[0].end, 12);
    EXPECT_DOUBLE_EQ(m.rows()[1].items[0].mid, 4);
    EXPECT_EQ(m.rows()[1].items[0].label, "k0");
    ASSERT_EQ(m.rows()[2].items.size(), 1u);
    EXPECT_DOUBLE_EQ(m.rows()[2].items[0].start, 5);
    EXPECT_DOUBLE_EQ(m.rows()[2].items[0].end, 14);
    EXPECT_DOUBLE_EQ(m.rows()[2].items[0].mid, 10);
    // Iteration 0 spans steps 3..8, iteration 1 steps 9..12.
    ASSERT_EQ(m.iterations().size(), 2u);
    EXPECT_DOUBLE_EQ(m.iterations()[0].start, 3);
    EXPECT_DOUBLE_EQ(m.iterations()[0].end, 9);
    EXPECT_DOUBLE_EQ(m.iterations()[1].start, 9);
    EXPECT_DOUBLE_EQ(m.iterations()[1].end, 13);
    EXPECT_DOUBLE_EQ(m.axisMin(), 0);
    EXPECT_DOUBLE_EQ(m.axisMax(), 14);
}

TEST(TimelineModel, ZoomPanFitAndHitTestInPixels) {
    TimelineModel m = TimelineModel::fromPlan(twoStagePlan());
    TimelineView v;  // labels 200 px, header 30 px, rows 24 px + 6 px gap, 24 px per unit
    v.origin = 0;
    EXPECT_DOUBLE_EQ(v.xOf(8), 392);   // 200 + 8 * 24
    EXPECT_DOUBLE_EQ(v.axisAt(404), 8.5);
    EXPECT_DOUBLE_EQ(v.rowTop(1), 60);  // 30 + 1 * 30
    // Centre of mma k0: x = 200 + 8.5 * 24 = 404, y = 30 + 12 = 42.
    TimelineHit h = hitTest(m, v, 404, 42);
    EXPECT_EQ(h.row, 0);
    EXPECT_EQ(h.item, 8);
    // Bars are [start, end): x = 392 is mma k0's first pixel, 391.9 still commit g1's.
    EXPECT_EQ(hitTest(m, v, 392, 42).item, 8);
    EXPECT_EQ(hitTest(m, v, 391.9, 42).item, 7);
    // Stage 0's row at y = 72: its one bar covers axis 0..12 (x 200..488).
    h = hitTest(m, v, 344, 72);
    EXPECT_EQ(h.row, 1);
    EXPECT_EQ(h.item, 0);
    EXPECT_FALSE(hitTest(m, v, 500, 72).valid());  // x = 500 is axis 12.5: stage 0 is free
    EXPECT_FALSE(hitTest(m, v, 404, 56).valid());   // the gap between rows 0 and 1 (54..60)
    EXPECT_FALSE(hitTest(m, v, 404, 20).valid());   // the header
    EXPECT_FALSE(hitTest(m, v, 100, 42).valid());   // the row names column
    EXPECT_FALSE(hitTest(m, v, 404, 130).valid());  // below the last row (row 2 ends at 114)
    EXPECT_EQ(v.rowAt(115, 3), -1);
    EXPECT_EQ(v.rowAt(113, 3), 2);
    // Zoom x2 at x = 404 keeps axis 8.5 under the cursor: origin = 8.5 - 204 / 48 = 4.25.
    v.zoomAt(404, 2);
    EXPECT_DOUBLE_EQ(v.pxPerUnit, 48);
    EXPECT_DOUBLE_EQ(v.origin, 4.25);
    EXPECT_DOUBLE_EQ(v.xOf(8.5), 404);
    EXPECT_EQ(hitTest(m, v, 404, 42).item, 8);
    // Pan 48 px right (drag to the right): the content moves right, so the pixel that showed
    // axis 8.5 (mma k0) now shows 7.5 (commit g1).
    v.panBy(48);
    EXPECT_DOUBLE_EQ(v.origin, 3.25);
    EXPECT_DOUBLE_EQ(v.axisAt(404), 7.5);
    EXPECT_EQ(hitTest(m, v, 404, 42).item, 7);
    v.zoomAt(404, 1e9);
    EXPECT_DOUBLE_EQ(v.pxPerUnit, TimelineView::kMaxPxPerUnit);
    // Fit 508 px: 300 px for 15 units (0..14 and half a unit each side, 8 px margin): 20 px/unit.
    v.fit(m, 508);
    EXPECT_DOUBLE_EQ(v.pxPerUnit, 20);
    EXPECT_DOUBLE_EQ(v.origin, -0.5);
    EXPECT_DOUBLE_EQ(v.xOf(0), 210);
}

TEST(TimelineModel, MeasuredTraceMapsOntoThePlanAxis) {
    // Plan scale: an event of logical time 3 at 1.5 us with 0.5 us per unit -> origin 0 us.
    const std::string json = R"J({"traceEvents": [
      {"ph": "M", "pid": 1, "tid": 0, "name": "process_name", "args": {"name": "block 5 (measured)"}},
      {"ph": "X", "pid": 0, "tid": 0, "name": "mma k=0", "ts": 1.5, "dur": 0.5, "args": {"time": 3}},
      {"ph": "X", "pid": 1, "tid": 2, "name": "wait stage 0 k=0", "ts": 2.0, "dur": 0.5,
       "args": {"iteration": 0, "stage": 0, "cycles": 900}},
      {"ph": "i", "pid": 1, "tid": 2, "name": "issue stage 1", "ts": 3.0, "args": {"iteration": 0, "stage": 1}},
      {"ph": "X", "pid": 1, "tid": 2, "name": "pipelined loop", "ts": 0.5, "dur": 6}],
     "otherData": {"format": "tilescope-trace/1", "file": "samples/gemm.py", "kernel": "main", "arch": "sm_90a",
                   "device": "NVIDIA H200", "plan": {"trip_count": 2, "stages": 2, "unit_us": 0.5,
                   "aligned_to_measured_loop": true}}})J";
    std::string err;
    auto t = parseMeasuredTrace(json, &err);
    ASSERT_TRUE(t) << err;
    EXPECT_TRUE(t->aligned);
    EXPECT_DOUBLE_EQ(t->originUs, 0);
    ASSERT_EQ(t->warps.size(), 1u);
    EXPECT_EQ(t->warps[0].block, 5);
    EXPECT_EQ(t->warps[0].warp, 2);
    ASSERT_EQ(t->warps[0].spans.size(), 2u);  // the loop interval is not drawn
    TimelineModel m = TimelineModel::fromPlan(twoStagePlan());
    EXPECT_TRUE(m.addMeasured(*t, "/home/u/samples/gemm.py").empty());
    ASSERT_EQ(m.rows().size(), 4u);
    const auto& row = m.rows()[3];
    EXPECT_EQ(row.name, "block 5 · warp 2 (measured)");
    EXPECT_EQ(row.kind, TimelineRowKind::Measured);
    ASSERT_EQ(row.items.size(), 2u);
    EXPECT_DOUBLE_EQ(row.items[0].start, 4);  // 2.0 us / 0.5
    EXPECT_DOUBLE_EQ(row.items[0].end, 5);    // 2.5 us / 0.5
    EXPECT_DOUBLE_EQ(row.items[1].start, 6);  // the issue instant at 3.0 us
    EXPECT_DOUBLE_EQ(row.items[1].end, 6);
    EXPECT_NE(row.items[0].tooltip.find("900 cycles"), std::string::npos) << row.items[0].tooltip;
    EXPECT_EQ(row.items[0].category, TimelineCategory::Wait);  // coloured as the planned wait
    EXPECT_EQ(row.items[0].tiny, "W0");
    EXPECT_EQ(row.items[1].category, TimelineCategory::Copy);
    EXPECT_EQ(row.items[1].tiny, "I1");
    // The instant is hit within 4 px: x = 200 + 6 * 24 = 344 on row 3 (y = 30 + 90 + 12).
    TimelineView v;
    EXPECT_EQ(hitTest(m, v, 347, 132).item, 1);
    EXPECT_FALSE(hitTest(m, v, 349, 132).valid());
    // A trace of other sizes says so.
    t->tripCount = 3;
    TimelineModel m2 = TimelineModel::fromPlan(twoStagePlan());
    auto w = m2.addMeasured(*t, "gemm.py");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_NE(w[0].find("3 iteration(s)"), std::string::npos) << w[0];
    // Not a tilescope trace.
    EXPECT_FALSE(parseMeasuredTrace(R"({"traceEvents": []})", &err));
    EXPECT_NE(err.find("tilescope-trace/1"), std::string::npos) << err;
    EXPECT_FALSE(parseMeasuredTrace("{oops", &err));
}

TEST(BarrierTable, CpAsyncGroupsOfTheTwoStagePlan) {
    BarrierTable t = barrierTable(twoStagePlan());
    EXPECT_EQ(t.kind, "cp.async");
    ASSERT_EQ(t.rows.size(), 2u);
    // Group 0: tile 0's two copies, committed at step 2, completed by the wait at step 3 (k = 0).
    EXPECT_EQ(t.rows[0].cells, (std::vector<std::string>{"0", "k=0", "2", "2", "3", "k=0", "ok"}));
    EXPECT_EQ(t.rows[1].cells, (std::vector<std::string>{"1", "k=1", "2", "7", "9", "k=1", "ok"}));
    EXPECT_EQ(t.rows[0].span.line, 26u);  // the first copy of the group
    EXPECT_TRUE(t.diagnostics.empty());
}

TEST(BarrierTable, MbarrierPhasesExpectedVersusDeliveredAndTheCheck) {
    using K = TimelineEventKind;
    analysis::PipelineTimeline l;
    l.schedule = "tma";
    l.tripCount = 2;
    l.stages = 2;
    analysis::TimelineRole r;
    r.name = "all warps (thread 0 issues)";
    r.threads = 128;
    auto e = [&](K k, const char* bar, int64_t phase, int64_t tile, int64_t iter, int64_t time) {
        auto x = ev(k, TimelinePhase::Steady, iter, 25);
        x.barrier = bar, x.barrierPhase = phase, x.tile = tile, x.time = time, x.step = int64_t(r.events.size());
        x.stage = bar[8] - '0';
        r.events.push_back(x);
    };
    e(K::ExpectTx, "tma_bar[0]", 0, 0, -1, 0);
    e(K::TmaLoad, "tma_bar[0]", 0, 0, -1, 1);
    e(K::ExpectTx, "tma_bar[1]", 0, 1, -1, 2);
    e(K::MbarWait, "tma_bar[0]", 0, -1, 0, 5);
    e(K::MbarWait, "tma_bar[1]", 0, -1, 1, -1);  // never passes
    l.roles.push_back(r);
    l.barriers.push_back({"tma_bar[0]", 0, 1, 1, 16384, 16384, true, 5, 1});
    l.barriers.push_back({"tma_bar[1]", 0, 1, 1, 16384, 8192, false, -1, 1});
    l.issues.push_back({Span{25, 13, 25, 40}, "tma_bar[1]", "deadlock: waits on tma_bar[1] for parity 0 (phase 0)", true});
    BarrierTable t = barrierTable(l);
    EXPECT_EQ(t.kind, "mbarrier");
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(t.rows[0].cells,
              (std::vector<std::string>{"tma_bar[0]", "0", "0", "k=0", "k=0", "1 / 1", "16384 / 16384", "t=5", "1", "ok"}));
    EXPECT_FALSE(t.rows[0].bad);
    EXPECT_EQ(t.rows[1].cells[6], "16384 / 8192");
    EXPECT_EQ(t.rows[1].cells[7], "never");
    EXPECT_EQ(t.rows[1].cells[9], "never completes (waited for)");
    EXPECT_TRUE(t.rows[1].bad);
    EXPECT_EQ(t.rows[1].span.line, 25u);
    ASSERT_EQ(t.diagnostics.size(), 1u);
    EXPECT_EQ(t.diagnostics[0].text(), "line 25:13: error: barrier tma_bar[1]: deadlock: waits on tma_bar[1] for parity 0 (phase 0)");
    EXPECT_NE(t.summary.find("1 error(s)"), std::string::npos) << t.summary;
    // In the timeline: logical time is the axis; the unreached wait is queued after the last
    // event (time 5 -> 6) and framed as the check's error.
    TimelineModel m = TimelineModel::fromPlan(l);
    EXPECT_EQ(m.axisUnit(), "logical time");
    const auto& w1 = m.rows()[0].items[4];
    EXPECT_TRUE(w1.unreached);
    EXPECT_TRUE(w1.error);
    EXPECT_DOUBLE_EQ(w1.start, 6);
    EXPECT_FALSE(m.rows()[0].items[3].error);
    EXPECT_DOUBLE_EQ(m.rows()[0].items[3].start, 5);
}
