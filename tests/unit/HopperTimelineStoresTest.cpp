// TMA stores and reduce-adds in the sm_90a static timeline (compiler/analysis/HopperTimeline.h):
// the elected tl.tma_store / tl.tma_reduce_add (CopyTma.cpp: one bulk copy per panel, then
// cp.async.bulk.commit_group) and tl.tma_store_wait (cp.async.bulk.wait_group[.read]) are events
// of the role, the bulk groups get their issue / read-out / free / complete times, and a write
// of the staging tile inside the loop is the reuse the read wait and the next block barrier order
// (or a defect when they are missing). Expected sequences are derived by hand from the lowered
// code (`tilec compile --emit cuda`, quoted below) with the schedule's rules: one logical unit per
// event, a bulk group read out tmaLatency (4) units after its commit and its writes complete 4
// later. A kernel without a TMA store keeps its timeline byte for byte (golden files written by
// `tilec timeline` before the store events existed, main a096dd6).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "CliTestUtil.h"
#include "HopperTimelineTestUtil.h"
#include "compiler/Compile.h"
#include "compiler/analysis/HopperTimeline.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "tests/e2e/LoweredDefects.h"
#include "tests/e2e/ScopedEnv.h"
#include "tests/support/SourceDir.h"
#include "visualizer/core/TimelineModel.h"

using namespace ts;
using namespace ts::analysis;
using namespace ts::cli::test;

namespace {

using Compiled = ts::test::HopperCompiled;
using ts::test::compileSm90;
using ts::test::timelineOf;

Compiled gemm2x2() { return compileSm90("gemm.py", {{"M", "128"}, {"N", "128"}, {"K", "64"}, {"num_stages", "2"}}); }
Compiled mhaBwd(bool dqTma) {
    return compileSm90("mha_bwd.py", {{"dq_tma", dqTma ? "True" : "False"}}, "mha_bwd_main");
}

// One token per synchronization / transfer event, with its iteration and source line:
// M<k>:<line> wgmma, G<n> wgmma.wait_group, B barrier, W mbarrier wait, ST / RA<group> TMA
// store / reduce-add, C<group> bulk commit, Wr<n>>g / Wb<n>>g bulk wait (.read / full) retiring
// groups up to g; "|k" starts iteration k's events, "|e" the epilogue's.
std::string encode(const TimelineRole& role, bool withLines = true) {
    std::string out;
    int64_t iter = -2;
    for (auto& e : role.events) {
        std::string t;
        const std::string line = withLines ? ":" + std::to_string(e.span.line) : "";
        switch (e.kind) {
            case TimelineEventKind::Mma: t = "M" + std::to_string(e.tile); break;
            case TimelineEventKind::WgmmaWait: t = "G" + std::to_string(e.pending); break;
            case TimelineEventKind::Barrier: t = "B"; break;
            case TimelineEventKind::MbarWait: t = "W"; break;
            case TimelineEventKind::TmaStore: t = "ST" + std::to_string(e.group); break;
            case TimelineEventKind::TmaReduceAdd: t = "RA" + std::to_string(e.group); break;
            case TimelineEventKind::BulkCommit: t = "C" + std::to_string(e.group); break;
            case TimelineEventKind::BulkWait:
                t = std::string(e.read ? "Wr" : "Wb") + std::to_string(e.pending) + ">" + std::to_string(e.group);
                break;
            default: continue;
        }
        if (e.phase != TimelinePhase::Prologue && e.iteration != iter) {
            iter = e.iteration;
            out += iter >= 0 ? " |" + std::to_string(iter) : " |e";
        }
        out += " " + t + line;
    }
    return out;
}

std::string issuesText(const PipelineTimeline& l) {
    std::string out;
    for (auto& i : l.issues) out += std::to_string(i.span.line) + ": " + i.barrier + ": " + i.message + (i.error ? "" : " (warning)") + "\n";
    return out;
}

const TimelineEvent* firstOf(const TimelineRole& r, TimelineEventKind k) {
    for (auto& e : r.events)
        if (e.kind == k) return &e;
    return nullptr;
}

std::string readGolden(const std::string& name) {
    std::ifstream in(std::string(TS_SOURCE_DIR) + "/tests/unit/golden/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// `s` with every occurrence of `from` replaced by `to`.
std::string replacedAll(std::string s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    return s;
}

/// `f` with the calls `d` picks removed (seeded defects; tests/e2e/LoweredDefects.h DropCalls).
ir::PrimFunc dropped(const ir::PrimFunc& f, ts::e2e::DropCalls& d) {
    auto out = std::make_shared<ir::PrimFuncNode>(*f);
    out->body = d.mutate(f->body);
    return out;
}

}  // namespace

// (a) samples/gemm.py on sm_90a, M = N = 128, K = 64, 2 stages: the staged epilogue ends with
//   if (threadIdx.x == 0) ts::tma_store_tile<2, 64, 128>(&tma_map_2, &C_local_stage[0], ...);
//   if (threadIdx.x == 0) ts::tma_store_wait<0, true>();
//   if (threadIdx.x == 0) ts::tma_store_wait<0, false>();
// after the last wgmma wait and the two barriers of StageEpilogue.cpp. HopperTimelineTest's
// hand-derived times put that last barrier at 18, so: store 19, commit 20 (group 0), .read wait
// 24 (= 20 + 4), full wait 28 (= 24 + 4), all on line 29 (T.copy(C_local, C[...])).
TEST(HopperTimelineStores, GemmTmaStoreEpilogueEventsAfterTheLastWgmmaAndBarrier) {
    auto c = gemm2x2();
    ASSERT_NE(c.cuda.find("ts::tma_store_tile<2, 64, 128>(&tma_map_2, &C_local_stage[0]"), std::string::npos) << "the epilogue no longer takes TMA";
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const auto& l = t.loops[0];
    ASSERT_EQ(l.roles.size(), 1u);
    EXPECT_EQ(encode(l.roles[0]),
              " G0:24 B:25 |0 W:25 M0:28 B:25 |1 W:25 M1:28 B:25 |e G0:29 B:29 B:29 ST0:29 C0:29 Wr0>0:29 Wb0>0:29");
    const auto& ev = l.roles[0].events;
    ASSERT_EQ(ev.size(), 23u);
    // Events 0..18 are HopperTimelineTest's, unchanged (times = steps); the store's four follow.
    for (size_t i = 0; i < 19; ++i) EXPECT_EQ(ev[i].time, int64_t(i)) << ev[i].label;
    const auto& st = ev[19];
    EXPECT_EQ(st.kind, TimelineEventKind::TmaStore);
    EXPECT_EQ(st.phase, TimelinePhase::Epilogue);
    EXPECT_EQ(st.iteration, -1);
    EXPECT_EQ(st.buffer, "C_local_stage");
    EXPECT_EQ(st.bytes, 32768);  // 128 x 128 fp16
    EXPECT_EQ(st.group, 0);
    EXPECT_TRUE(st.elected);
    EXPECT_EQ(st.time, 19);
    EXPECT_EQ(st.span.line, 29u);
    EXPECT_EQ(st.label, "TMA store C_local_stage -> C (32768 B)");
    EXPECT_EQ(ev[20].kind, TimelineEventKind::BulkCommit);
    EXPECT_EQ(ev[20].time, 20);
    EXPECT_EQ(ev[20].label, "cp.async.bulk.commit_group: bulk group 0 (C_local_stage -> C)");
    EXPECT_EQ(ev[21].kind, TimelineEventKind::BulkWait);
    EXPECT_TRUE(ev[21].read);
    EXPECT_EQ(ev[21].time, 24);
    EXPECT_EQ(ev[21].label,
              "cp.async.bulk.wait_group.read 0: bulk group 0 read out of shared memory (C_local_stage may be rewritten after the next barrier)");
    EXPECT_EQ(ev[22].kind, TimelineEventKind::BulkWait);
    EXPECT_FALSE(ev[22].read);
    EXPECT_EQ(ev[22].time, 28);
    EXPECT_EQ(ev[22].label, "cp.async.bulk.wait_group 0: bulk group 0 complete (global writes performed)");
    ASSERT_EQ(l.bulkGroups.size(), 1u);
    const auto& g = l.bulkGroups[0];
    EXPECT_EQ(g.group, 0);
    EXPECT_FALSE(g.reduceAdd);
    EXPECT_EQ(g.buffer, "C_local_stage");
    EXPECT_EQ(g.tensor, "C");
    EXPECT_EQ(g.bytes, 32768);
    EXPECT_EQ(g.iteration, -1);
    EXPECT_EQ(g.span.line, 29u);
    EXPECT_EQ(g.issueTime, 19);
    EXPECT_EQ(g.readTime, 24);
    EXPECT_EQ(g.freeTime, -1);  // no barrier after it: the block exits
    EXPECT_EQ(g.completeTime, 28);
    EXPECT_EQ(g.reuseStep, -1);
    EXPECT_TRUE(l.issues.empty()) << issuesText(l);
}

TEST(HopperTimelineStores, GemmTmaStoreInTheTextAndJsonOutput) {
    cli::TimelineCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    c.flags.target = "cuda:sm_90a";
    c.flags.params = {"M=128", "N=128", "K=64", "num_stages=2"};
    auto text = captureCli([&] { return cli::runTimeline(c); });
    EXPECT_EQ(text.rc, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "    19    19  epilogue     -    29  TMA store C_local_stage -> C (32768 B)\n")) << text.out;
    EXPECT_TRUE(contains(text.out, "    20    20  epilogue     -    29  cp.async.bulk.commit_group: bulk group 0 (C_local_stage -> C)\n")) << text.out;
    EXPECT_TRUE(contains(text.out, "    22    28  epilogue     -    29  cp.async.bulk.wait_group 0: bulk group 0 complete (global writes performed)\n"))
        << text.out;
    EXPECT_TRUE(contains(text.out, "    group 0  after loop  line 29  store C_local_stage -> C  32768 B  19 -> 24 -> -; complete 28\n")) << text.out;
    EXPECT_TRUE(contains(text.out, "barrier check: every wait has its arrivals and bytes")) << text.out;
    c.json = "-";
    auto js = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(js.rc, 0) << js.err;
    auto j = nlohmann::json::parse(js.out);
    auto& loop = j["loops"][0];
    auto& ev = loop["roles"][0]["events"];
    ASSERT_EQ(ev.size(), 23u);
    EXPECT_EQ(ev[19]["kind"], "tma_store");
    EXPECT_EQ(ev[19]["buffer"], "C_local_stage");
    EXPECT_EQ(ev[19]["bytes"], 32768);
    EXPECT_EQ(ev[19]["group"], 0);
    EXPECT_EQ(ev[19]["line"], 29);
    EXPECT_EQ(ev[19]["phase"], "epilogue");
    EXPECT_EQ(ev[20]["kind"], "bulk_commit");
    EXPECT_EQ(ev[21]["kind"], "bulk_wait");
    EXPECT_EQ(ev[21]["read"], true);
    EXPECT_EQ(ev[21]["time"], 24);
    EXPECT_EQ(ev[22]["read"], false);
    EXPECT_EQ(ev[22]["pending"], 0);
    ASSERT_EQ(loop["bulk_groups"].size(), 1u);
    auto& g = loop["bulk_groups"][0];
    EXPECT_EQ(g["op"], "tma_store");
    EXPECT_EQ(g["tensor"], "C");
    EXPECT_EQ(g["issue_time"], 19);
    EXPECT_EQ(g["read_time"], 24);
    EXPECT_EQ(g["complete_time"], 28);
    EXPECT_EQ(g["free_time"], -1);
    EXPECT_EQ(g["line"], 29);
}

// (b) samples/mha_bwd.py, kernel mha_bwd_main, dq_tma=True (defaults: seq_len 100, 64-row
// tiles: 2 iterations of T.Pipelined over qt, line 174). Each iteration ends with
//   ts::wgmma_gemm_ss<...>(&dS_s[0], &K_s[0], &dq[0]);   ts::wgmma_wait<0, 32>(&dk[0]);   (205)
//   ... dq_s[...] = dq[...] ...                                                            (207)
//   ts::fence_proxy_async(); __syncthreads();                                              (208)
//   if (threadIdx.x == 0) ts::tma_reduce_add_tile<1, 64, 64>(&tma_map_6, &dq_s[0], ...);   (208)
//   if (threadIdx.x == 0) ts::tma_store_wait<0, true>();                                   (208)
// and the epilogue stores dK staged (line 213: barrier, fence + barrier, tma_store_tile,
// wait.read) and ends with the kernel's exit wait tma_store_wait<0, false>, which lower-tile-ops
// added for the first store that needed it: the reduce-add (line 208). The waits of the plain
// K and V copies (lines 169, 170) come after the pipeline prologue (sink-tma-waits), so K, V and
// the first stage are in flight together: every time from there on is 8 units (two serial
// tmaLatency waits) earlier than with the waits where the copies stand. K_s is a plain copy's
// tile, no pipeline stage: the gemms that read it (lines 179 and 205, with Q_s and dS_s) release
// nothing; iteration 1's releases are stage 1's alone (at 203 and 208). The times after
// iteration 1's first release were 1 and 2 units later while K_s counted as stage 0: a "release
// stage 0 (tile k=1)" at line 203 and another at line 208.
TEST(HopperTimelineStores, MhaBwdDqTmaReduceAddInsideThePipelinedLoop) {
    // The hand-derived steps below are those of the kernel with its T.clear statements; the
    // fold into clear_accum (Simplify.cpp, ClearGemmFoldE2ETest) removes them and shifts every step.
    ts::e2e::ScopedEnv noFold("TILESCOPE_FOLD_CLEAR_GEMM", "0");
    auto c = mhaBwd(true);
    ASSERT_NE(c.cuda.find("ts::tma_reduce_add_tile<1, 64, 64>(&tma_map_6, &dq_s[0]"), std::string::npos);
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const auto& l = t.loops[0];
    EXPECT_EQ(l.tripCount, 2);
    EXPECT_EQ(l.loopSpan.line, 174u);
    ASSERT_EQ(l.roles.size(), 1u);
    EXPECT_EQ(encode(l.roles[0]),
              " B:148 B:169 B:170 B:174 B:174 W:169 W:170"
              " |0 W:174 B:174 M0:179 M0:191 M0:194 G0:194 B:203 M0:203 M0:205 G0:205 B:208 RA0:208 C0:208 Wr0>0:208"
              " |1 W:174 B:174 M1:179 M1:191 M1:194 G0:194 B:203 M1:203 M1:205 G0:205 B:208 RA1:208 C1:208 Wr0>1:208"
              " |e B:213 B:213 ST2:213 C2:213 Wr0>2:213 Wb0>2:208");
    EXPECT_TRUE(l.issues.empty()) << issuesText(l);

    const auto* ra = firstOf(l.roles[0], TimelineEventKind::TmaReduceAdd);
    ASSERT_NE(ra, nullptr);
    EXPECT_EQ(ra->label, "TMA reduce-add dq_s -> dQ_acc (16384 B, added atomically)");  // 64 x 64 float32
    EXPECT_EQ(ra->iteration, 0);
    EXPECT_EQ(ra->phase, TimelinePhase::Steady);
    EXPECT_EQ(ra->time, 45);
    // Iteration 0's read wait: 4 units after the commit (46), and it orders iteration 1's
    // rewrite of dq_s (line 207) after the block barrier at the top of iteration 1 (line 174).
    const auto* wr = firstOf(l.roles[0], TimelineEventKind::BulkWait);
    ASSERT_NE(wr, nullptr);
    EXPECT_EQ(wr->time, 50);
    EXPECT_EQ(wr->iteration, 0);
    EXPECT_EQ(wr->label,
              "cp.async.bulk.wait_group.read 0: bulk group 0 read out of shared memory (dq_s may be rewritten after the next barrier); "
              "orders iteration 1's rewrite of dq_s (line 207) after the barrier at line 174");

    ASSERT_EQ(l.bulkGroups.size(), 3u);
    const auto& g0 = l.bulkGroups[0];
    EXPECT_TRUE(g0.reduceAdd);
    EXPECT_EQ(g0.buffer, "dq_s");
    EXPECT_EQ(g0.tensor, "dQ_acc");
    EXPECT_EQ(g0.bytes, 16384);
    EXPECT_EQ(g0.iteration, 0);
    EXPECT_EQ(g0.span.line, 208u);
    EXPECT_EQ(g0.issueTime, 45);
    EXPECT_EQ(g0.readTime, 50);
    EXPECT_EQ(g0.freeTime, 53);  // iteration 1's barrier after its mbarrier wait (line 174)
    EXPECT_EQ(l.roles[0].events[size_t(g0.freeStep)].span.line, 174u);
    EXPECT_EQ(l.roles[0].events[size_t(g0.freeStep)].iteration, 1);
    EXPECT_EQ(g0.reuseIteration, 1);
    EXPECT_EQ(g0.reuseSpan.line, 207u);
    EXPECT_EQ(g0.reuseTime, 70);
    EXPECT_GT(g0.reuseTime, g0.freeTime);
    EXPECT_EQ(g0.completeTime, 91);  // the exit wait
    const auto& g1 = l.bulkGroups[1];
    EXPECT_EQ(g1.iteration, 1);
    EXPECT_EQ(g1.issueTime, 74);
    EXPECT_EQ(g1.readTime, 79);
    EXPECT_EQ(g1.freeTime, 80);       // the epilogue's first barrier (line 213)
    EXPECT_EQ(g1.reuseStep, -1);      // the loop is over: nobody rewrites dq_s
    const auto& g2 = l.bulkGroups[2];
    EXPECT_FALSE(g2.reduceAdd);
    EXPECT_EQ(g2.buffer, "dk_out_stage");
    EXPECT_EQ(g2.tensor, "dK");
    EXPECT_EQ(g2.iteration, -1);
    EXPECT_EQ(g2.span.line, 213u);
    EXPECT_EQ(g2.completeTime, 91);
    // Which stage each gemm reads: the staged operand (Q_s, dO_s), not the plain K_s or V_s.
    for (auto& e : l.roles[0].events) {
        if (e.kind == TimelineEventKind::Mma) {
            EXPECT_EQ(e.stage, e.span.line == 205u ? -1 : e.iteration) << e.label;  // line 205: dS_s x K_s
        } else if (e.kind == TimelineEventKind::Release) {
            EXPECT_EQ(e.stage, e.tile) << e.label;
        }
    }

    // Per-element atomics (dq_tma=False): nothing bulk inside the loop; only dK's staged store.
    auto plain = timelineOf(mhaBwd(false));
    ASSERT_EQ(plain.loops.size(), 1u);
    for (auto& e : plain.loops[0].roles.at(0).events) {
        if (e.iteration < 0) continue;
        EXPECT_TRUE(e.kind != TimelineEventKind::TmaReduceAdd && e.kind != TimelineEventKind::BulkCommit && e.kind != TimelineEventKind::BulkWait)
            << e.label;
    }
    ASSERT_EQ(plain.loops[0].bulkGroups.size(), 1u);
    EXPECT_EQ(plain.loops[0].bulkGroups[0].buffer, "dk_out_stage");
}

// The IDE's model of the same plan: the events on the role row (Store colour for the transfers,
// Commit and Wait for the group's commit and waits), the plain copies' K_s and V_s rows, and one
// row per staging tile: dq_s with group 0 in flight [45, 51), iteration 1's rewrite [70, 71),
// group 1 [74, 80); then dk_out_stage's group 2 [82, 88).
TEST(HopperTimelineStores, MhaBwdDqTmaTimelineModelRows) {
    // The hand-derived steps below are those of the kernel with its T.clear statements; the
    // fold into clear_accum (Simplify.cpp, ClearGemmFoldE2ETest) removes them and shifts every step.
    ts::e2e::ScopedEnv noFold("TILESCOPE_FOLD_CLEAR_GEMM", "0");
    auto t = timelineOf(mhaBwd(true));
    ASSERT_EQ(t.loops.size(), 1u);
    auto m = viz::TimelineModel::fromPlan(t.loops[0]);
    // One role, 2 stages, the plain copies' 2 buffers, 2 staging tiles.
    ASSERT_EQ(m.rows().size(), 7u);
    EXPECT_EQ(m.rows()[3].name, "K_s (plain copy)");
    EXPECT_EQ(m.rows()[4].name, "V_s (plain copy)");
    const auto& role = m.rows()[0];
    const auto& evs = t.loops[0].roles[0].events;
    const auto* ra = firstOf(t.loops[0].roles[0], TimelineEventKind::TmaReduceAdd);
    const auto& item = role.items[size_t(ra - evs.data())];
    EXPECT_EQ(item.category, viz::TimelineCategory::Store);
    EXPECT_EQ(item.label, "TMA add dq k0");
    EXPECT_EQ(item.tiny, "+=");
    EXPECT_EQ(item.start, 45.0);
    EXPECT_EQ(item.span.line, 208u);
    EXPECT_NE(item.tooltip.find("bulk async-group 0 · dq_s · 16384 bytes"), std::string::npos) << item.tooltip;
    const auto& commit = role.items[size_t(ra - evs.data()) + 1];
    EXPECT_EQ(commit.category, viz::TimelineCategory::Commit);
    EXPECT_EQ(commit.label, "bulk g0");
    const auto& wait = role.items[size_t(ra - evs.data()) + 2];
    EXPECT_EQ(wait.category, viz::TimelineCategory::Wait);
    EXPECT_EQ(wait.label, "bulk.rd 0");

    const auto& dq = m.rows()[5];
    EXPECT_EQ(dq.name, "dq_s (TMA store staging)");
    EXPECT_EQ(dq.kind, viz::TimelineRowKind::Stage);
    ASSERT_EQ(dq.items.size(), 3u);
    EXPECT_EQ(dq.items[0].label, "g0 k0");
    EXPECT_EQ(dq.items[0].category, viz::TimelineCategory::Store);
    EXPECT_EQ(dq.items[0].start, 45.0);
    EXPECT_EQ(dq.items[0].end, 51.0);
    EXPECT_EQ(dq.items[0].mid, 51.0);  // in flight until the read wait
    EXPECT_EQ(dq.items[0].span.line, 208u);
    EXPECT_EQ(dq.items[1].label, "rewrite k1");
    EXPECT_EQ(dq.items[1].category, viz::TimelineCategory::Compute);
    EXPECT_EQ(dq.items[1].start, 70.0);
    EXPECT_EQ(dq.items[1].end, 71.0);
    EXPECT_EQ(dq.items[1].span.line, 207u);
    EXPECT_EQ(dq.items[1].iteration, 1);
    EXPECT_NE(dq.items[1].tooltip.find("ordered after bulk group 0's wait_group.read (50) and the block barrier after it (53)"), std::string::npos)
        << dq.items[1].tooltip;
    EXPECT_EQ(dq.items[2].label, "g1 k1");
    EXPECT_EQ(dq.items[2].start, 74.0);
    EXPECT_EQ(dq.items[2].end, 80.0);
    const auto& dk = m.rows()[6];
    EXPECT_EQ(dk.name, "dk_out_stage (TMA store staging)");
    ASSERT_EQ(dk.items.size(), 1u);
    EXPECT_EQ(dk.items[0].label, "g2");
    EXPECT_EQ(dk.items[0].start, 82.0);
    EXPECT_EQ(dk.items[0].end, 88.0);
}

// The line numbers above are samples/mha_bwd.py's: when the sample is edited, this names the
// line that moved instead of leaving a wall of shifted numbers.
TEST(HopperTimelineStores, MhaBwdSampleLinesTheseTestsUse) {
    std::vector<std::string> lines;
    std::ifstream in(std::string(TS_SOURCE_DIR) + "/samples/mha_bwd.py");
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    const std::pair<size_t, const char*> anchors[] = {{148, "with T.Kernel("},
                                                      {174, "for qt in T.Pipelined("},
                                                      {179, "T.gemm(K_s, Q_s, qkT"},
                                                      {203, "T.gemm(dS_s, Q_s, dk"},
                                                      {205, "T.gemm(dS_s, K_s, dq"},
                                                      {207, "T.copy(dq, dq_s)"},
                                                      {208, "use_tma=True"},
                                                      {213, "T.copy(dk_out, dK["}};
    for (auto& [n, text] : anchors) {
        ASSERT_LE(n, lines.size());
        EXPECT_NE(lines[n - 1].find(text), std::string::npos) << "samples/mha_bwd.py:" << n << " should hold '" << text << "'; it holds '" << lines[n - 1] << "'";
    }
}

// Seeded defects: without the in-loop read wait, iteration 1's write of dq_s (line 207) races
// with the reduce-add of iteration 0 that may still be reading it; without any wait, the block
// would exit with its bulk groups still reading shared memory.
TEST(HopperTimelineStores, MissingBulkWaitsAreReported) {
    // The hand-derived steps below are those of the kernel with its T.clear statements; the
    // fold into clear_accum (Simplify.cpp, ClearGemmFoldE2ETest) removes them and shifts every step.
    ts::e2e::ScopedEnv noFold("TILESCOPE_FOLD_CLEAR_GEMM", "0");
    auto c = mhaBwd(true);
    ts::e2e::DropCalls d;
    d.drop = [](const ir::CallNode& call) {
        return call.op == ir::intrin::kTmaStoreWait && call.args.size() > 1 && ir::constInt(call.args[1]).value_or(0) == 1;
    };
    auto noRead = c;
    noRead.lowered = dropped(c.lowered, d);
    EXPECT_EQ(d.dropped, 2);  // the loop's and the epilogue's .read waits
    auto t = timelineOf(noRead);
    ASSERT_EQ(t.loops.size(), 1u);
    std::string text = issuesText(t.loops[0]);
    EXPECT_NE(text.find("207: bulk group 0: the staging tile dq_s is rewritten here (iteration 1) while the TMA reduce-add of bulk group 0 "
                        "(line 208, iteration 0) may still be reading it: no cp.async.bulk.wait_group.read covers that group before this write\n"),
              std::string::npos)
        << text;
    // The exit wait (without .read) still retires every group: no exit issue.
    EXPECT_EQ(text.find("when the block exits"), std::string::npos) << text;
    EXPECT_EQ(t.loops[0].bulkGroups[0].reuseStep, -1);

    ts::e2e::DropCalls all;
    all.drop = [](const ir::CallNode& call) { return call.op == ir::intrin::kTmaStoreWait; };
    auto none = c;
    none.lowered = dropped(c.lowered, all);
    EXPECT_EQ(all.dropped, 3);
    auto t2 = timelineOf(none);
    ASSERT_EQ(t2.loops.size(), 1u);
    text = issuesText(t2.loops[0]);
    EXPECT_NE(text.find("213: bulk group 2: the TMA store of dk_out_stage into dK (bulk group 2) may still be reading shared memory when the "
                        "block exits: no cp.async.bulk.wait_group covers it"),
              std::string::npos)
        << text;
    for (auto& i : t2.loops[0].issues) EXPECT_TRUE(i.error) << i.message;

    // The CLI prints them as errors with their line and exits 1 (a kernel as lowered is clean).
    cli::TimelineCommand cmd;
    cmd.flags.file = std::string(TS_SOURCE_DIR) + "/samples/mha_bwd.py";
    cmd.flags.target = "cuda:sm_90a";
    cmd.flags.kernel = "mha_bwd_main";
    cmd.flags.params = {"dq_tma=True"};
    auto out = captureCli([&] { return cli::runTimeline(cmd); });
    EXPECT_EQ(out.rc, 0) << out.err;
    EXPECT_TRUE(contains(out.out, "    group 0  iter 0  line 208  reduce-add dq_s -> dQ_acc  16384 B  45 -> 50 -> 53; complete 91; rewritten at t=70 "
                                  "(iteration 1, line 207)\n"))
        << out.out;
}

// (c) Kernels without a TMA store: the timeline (text and JSON) is byte for byte what
// `tilec timeline` printed before the store events existed (tests/unit/golden/*, written by the
// binary of main a096dd6 from the repository root). Those goldens predate sink-tma-waits, so the
// plain copies' waits stay where the copies stand here (TILESCOPE_SINK_TMA_WAITS=0); the next test
// checks what the pass changes in the same timeline.
TEST(HopperTimelineStores, KernelsWithoutTmaStoresKeepTheirTimeline) {
    ts::e2e::ScopedEnv keep("TILESCOPE_SINK_TMA_WAITS", "0");
    struct Case {
        std::string sample, golden;
        std::vector<std::string> params;
    };
    const std::vector<Case> cases = {
        {"flash_decode.py", "flash_decode.sm90a", {}},
        {"gemm.py", "gemm_1stage.sm90a", {"M=128", "N=128", "K=96", "num_stages=1"}},  // one stage: no staged epilogue
    };
    for (auto& k : cases) {
        SCOPED_TRACE(k.sample);
        cli::TimelineCommand c;
        c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/" + k.sample;
        c.flags.target = "cuda:sm_90a";
        c.flags.params = k.params;
        auto text = captureCli([&] { return cli::runTimeline(c); });
        EXPECT_EQ(text.rc, 0) << text.err;
        EXPECT_FALSE(contains(text.out, "bulk")) << text.out;
        EXPECT_EQ(replacedAll(text.out, std::string(TS_SOURCE_DIR) + "/", ""), readGolden(k.golden + ".txt"));
        c.json = "-";
        auto js = captureCli([&] { return cli::runTimeline(c); });
        EXPECT_EQ(js.rc, 0) << js.err;
        EXPECT_EQ(replacedAll(js.out, std::string(TS_SOURCE_DIR) + "/", ""), readGolden(k.golden + ".json"));
    }
}

// A pipeline whose stages no mbarrier arrival releases (flash_decode's mma.sync gemms read the
// TMA-loaded K/V stages; the cp.async schedule's block barrier at the top of each iteration orders
// those reads before the refill): each tile is released at the last block barrier before the
// refill of its stage, a tile with no refill where the next iteration starts, the last one never
// (the loop ends with its reads). Before, every stage row ran to the end. Eight trips, two stages;
// by hand from the event list: the refill of stage 0 with tile 2 is the expect_tx at step 43
// (t=45) after the barrier at step 42 (t=44), tile 1's refill (tile 3) follows the barrier at
// t=75, and so on every 31 steps; tile 6 (no tile 8) is released at iteration 7's first event.
TEST(HopperTimelineStores, PipelineStagesWithoutArrivalsReleaseAtTheBarrierBeforeTheirRefill) {
    cli::TimelineCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/flash_decode.py";
    c.flags.target = "cuda:sm_90a";
    c.flags.params = {"seqlen_kv=1024", "num_split=2"};
    auto text = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(text.rc, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "    42    44  steady       1    61  barrier (all threads)\n"
                                   "    43    45  steady       1    61  expect_tx tma_stage_full_0[0] 16384 B (tile k=2) [phase 1]\n"))
        << text.out;
    EXPECT_TRUE(contains(text.out, "  stage occupancy (logical time: issued -> landed -> released)\n"
                                   "    stage 0  tile k=0  6 -> 12 -> 44\n"
                                   "    stage 1  tile k=1  14 -> 20 -> 75\n"
                                   "    stage 0  tile k=2  45 -> 51 -> 106\n"
                                   "    stage 1  tile k=3  76 -> 82 -> 137\n"
                                   "    stage 0  tile k=4  107 -> 113 -> 168\n"
                                   "    stage 1  tile k=5  138 -> 144 -> 199\n"
                                   "    stage 0  tile k=6  169 -> 175 -> 229\n"
                                   "    stage 1  tile k=7  200 -> 206 -> -\n"))
        << text.out;
}

// A pipeline inside an outer loop (its barriers initialised again on every outer trip) and a
// plain copy under a condition (its wait's parity in a local the compiler flips): no barrier
// finding, and every tile lands before it is released. By hand for the nested one: 2 outer trips
// x 4 tiles, stage = tile % 2, phases of each stage's barrier numbered on across the trips (the
// parity restarts at each init): tile 4 is phase 2 of tma_full[0]; the second trip's tiles are
// released like the first's (12, 21, 30, 36 -> 49, 58, 67, 73: the same event pattern 37 units on).
// Before: 4 false errors (exit 1) and the second trip's stages never released; 5 false warnings
// for the conditional copy. Both programs run on the interpreters against float64 (conformance
// of the programs themselves: tests/e2e/programs/timeline_*.py).
TEST(HopperTimelineStores, NestedPipelineAndConditionalCopyHaveNoFalseBarrierFindings) {
    // The hand-derived steps below are those of the kernel with its T.clear statements; the
    // fold into clear_accum (Simplify.cpp, ClearGemmFoldE2ETest) removes them and shifts every step.
    ts::e2e::ScopedEnv noFold("TILESCOPE_FOLD_CLEAR_GEMM", "0");
    cli::TimelineCommand c;
    c.flags.target = "cuda:sm_90a";
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/timeline_nested_pipeline.py";
    auto nested = captureCli([&] { return cli::runTimeline(c); });
    EXPECT_EQ(nested.rc, 0) << nested.err;
    EXPECT_FALSE(contains(nested.err, "error")) << nested.err;
    EXPECT_FALSE(contains(nested.err, "warning")) << nested.err;
    EXPECT_TRUE(contains(nested.out, "expect_tx tma_full[0] 2048 B (tile k=4) [phase 2]\n")) << nested.out;
    EXPECT_TRUE(contains(nested.out, "  stage occupancy (logical time: issued -> landed -> released)\n"
                                     "    stage 0  tile k=0  2 -> 7 -> 12\n"
                                     "    stage 1  tile k=1  4 -> 9 -> 21\n"
                                     "    stage 0  tile k=2  14 -> 19 -> 30\n"
                                     "    stage 1  tile k=3  23 -> 28 -> 36\n"
                                     "    stage 0  tile k=4  39 -> 44 -> 49\n"
                                     "    stage 1  tile k=5  41 -> 46 -> 58\n"
                                     "    stage 0  tile k=6  51 -> 56 -> 67\n"
                                     "    stage 1  tile k=7  60 -> 65 -> 73\n"
                                     "  barrier check: every wait has its arrivals and bytes\n"))
        << nested.out;

    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/timeline_conditional_copy.py";
    auto cond = captureCli([&] { return cli::runTimeline(c); });
    EXPECT_EQ(cond.rc, 0) << cond.err;
    EXPECT_FALSE(contains(cond.err, "warning")) << cond.err;
    EXPECT_FALSE(contains(cond.err + cond.out, "not known statically")) << cond.err << cond.out;
    // The second copy (k = 2) waits for parity 1: the local flipped after the first wait.
    EXPECT_TRUE(contains(cond.out, "wait tma_copy_bar_1[0] parity 1 [phase 1]\n")) << cond.out;
    // Two copies into one tile with no read between: the first is held until it lands (t=7),
    // not released at the second's issue (t=5) before it landed.
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/timeline_copy_twice.py";
    auto twice = captureCli([&] { return cli::runTimeline(c); });
    EXPECT_EQ(twice.rc, 0) << twice.err;
    EXPECT_TRUE(contains(twice.out, "    t (line 16)  tile k=0  2 -> 7 -> 7\n"
                                    "    t (line 17)  tile k=1  5 -> 12 -> 13\n"))
        << twice.out;
    // --json FILE writes the JSON beside the text (it replaced the text); --json - is JSON alone.
    const std::string jsonPath = (std::filesystem::temp_directory_path() / "ts_timeline_copy_twice.json").string();
    std::filesystem::remove(jsonPath);
    c.json = jsonPath;
    auto both = captureCli([&] { return cli::runTimeline(c); });
    c.json.clear();
    EXPECT_EQ(both.rc, 0) << both.err;
    EXPECT_TRUE(contains(both.out, "    t (line 16)  tile k=0  2 -> 7 -> 7\n")) << both.out;
    std::ifstream jf(jsonPath);
    ASSERT_TRUE(jf.good()) << jsonPath;
    auto jj = nlohmann::json::parse(jf);
    EXPECT_EQ(jj["loops"][0]["occupancy"][0]["release_time"], 7) << jj.dump();
    EXPECT_TRUE(contains(cond.out, "    s (line 20)  tile k=0  4 -> 9 -> 11\n"
                                   "    s (line 20)  tile k=1  13 -> 18 -> 20\n"
                                   "    s (line 20)  tile k=2  22 -> 27 -> 29\n"
                                   "    s (line 20)  tile k=3  31 -> 36 -> 38\n"))
        << cond.out;
}

// The in-flight schedule peels its last iteration after the loop (its gemms waited to
// completion; simplify flattens it into the statements after the loop): SwiGLU at K=512 is 16
// tiles, a loop of 15 and the peeled tile 15, which is iteration 15 of the pipeline and is
// released in the epilogue (before: "15 iteration(s)", "wgmma k=-1" in the epilogue, tile 15 never
// released; helper-107 found it).
TEST(HopperTimelineStores, InflightScheduleCountsItsPeeledLastIteration) {
    cli::TimelineCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/swiglu.py";
    c.flags.target = "cuda:sm_90a";
    auto text = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(text.rc, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "T.Pipelined over k, 16 iteration(s), 3 stage(s)")) << text.out;
    EXPECT_FALSE(contains(text.out, "k=-1")) << text.out;
    EXPECT_TRUE(contains(text.out, "  steady      15    40  wgmma k=15 (stage 0), waited\n")) << text.out;
    EXPECT_TRUE(contains(text.out, "  epilogue     -    44  release stage 0 (tile k=15)\n")) << text.out;
    EXPECT_TRUE(contains(text.out, "    stage 0  tile k=15  141 -> 148 -> 167\n")) << text.out;
}

// sink-tma-waits in the same flash_decode timeline: the wait of the plain Q copy (line 55) moves
// past the pipeline prologue (barriers at line 61, stage 0's expect_tx and K/V TMA issue), so the
// Q tile and stage 0 are in flight together. By hand, one unit per event: Q's TMA at t=3 lands at
// 3 + tmaLatency(4) = 7; the prologue's barriers t=4, 5, expect_tx t=6, K and V TMA t=7, 8 (stage 0
// lands at 8 + 4 = 12); Q's wait at t=9 finds Q landed; the loop's first wait completes at t=12,
// not t=16 as with Q's wait in place (golden above).
TEST(HopperTimelineStores, PlainCopyWaitGoesPastThePipelinePrologue) {
    cli::TimelineCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/flash_decode.py";
    c.flags.target = "cuda:sm_90a";
    auto text = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(text.rc, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "     3     3  prologue     -    55  TMA Q_s[k=0] on tma_copy_bar_0[0] [phase 0]\n"
                                   "     4     4  prologue     -    61  barrier (all threads)\n"
                                   "     5     5  prologue     -    61  barrier (all threads)\n"
                                   "     6     6  prologue     -    61  expect_tx tma_stage_full_0[0] 16384 B (tile k=0) [phase 0]\n"
                                   "     7     7  prologue     -    63  TMA K_s[k=0] -> stage 0 on tma_stage_full_0[0] [phase 0]\n"
                                   "     8     8  prologue     -    79  TMA V_s[k=0] -> stage 0 on tma_stage_full_0[0] [phase 0]\n"
                                   "     9     9  prologue     -    55  wait tma_copy_bar_0[0] parity 0 [phase 0]\n"
                                   "    10    12  steady       0    61  wait tma_stage_full_0[0] parity 0 [phase 0]\n"))
        << text.out;
    // Two trips: tile 0 has no refill after it; released where iteration 1 starts (t=43).
    EXPECT_TRUE(contains(text.out, "    stage 0  tile k=0  6 -> 12 -> 43\n")) << text.out;
    EXPECT_TRUE(contains(text.out, "barrier check: every wait has its arrivals and bytes")) << text.out;

    // A kernel with plain copies and no T.Pipelined loop (sink_tma_waits.py mode 0): the header
    // says so (it read "kernel, 0 iteration(s), 1 stage(s)"), and both TMAs precede both waits.
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/sink_tma_waits.py";
    c.flags.params = {"mode=0"};
    auto plain = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(plain.rc, 0) << plain.err;
    EXPECT_TRUE(contains(plain.out, ": kernel without a T.Pipelined loop: the body in program order, loops unrolled, every event in "
                                    "the prologue phase, TMA + mbarrier schedule"))
        << plain.out;
    EXPECT_FALSE(contains(plain.out, "0 iteration(s)")) << plain.out;
    const size_t tmaB = plain.out.find("TMA B_s"), waitA = plain.out.find("wait tma_copy_bar_0[0]");
    ASSERT_NE(tmaB, std::string::npos) << plain.out;
    ASSERT_NE(waitA, std::string::npos) << plain.out;
    EXPECT_LT(tmaB, waitA) << plain.out;

    // Mode 2 (the copies in a serial loop over 3 row tiles): the plain kernel's compute shows too
    // (only a pipelined loop's did: the waits had nothing after them), numbered by the loop's
    // iteration, each after both waits of its iteration (line 53 reads A_s and B_s).
    c.flags.params = {"mode=2"};
    auto loop = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(loop.rc, 0) << loop.err;
    for (int it = 0; it < 3; ++it) {
        const std::string i = std::to_string(it);
        const size_t wB = loop.out.find("prologue     " + i + "    52  wait tma_copy_bar_2[0] parity " + std::to_string(it % 2));
        const size_t use = loop.out.find("prologue     " + i + "    53  compute: for r_3 in T.unroll(32, thread_loop=True)");
        ASSERT_NE(wB, std::string::npos) << "iteration " << it << "\n" << loop.out;
        ASSERT_NE(use, std::string::npos) << "iteration " << it << "\n" << loop.out;
        EXPECT_LT(wB, use) << loop.out;
    }
    EXPECT_FALSE(contains(loop.out, "T.alloc_shared")) << loop.out;        // allocations are not events
    EXPECT_FALSE(contains(loop.out, "tl.fence_proxy_async")) << loop.out;  // nor proxy fences
}

// Plain copies (no T.Pipelined loop) hold their tile in their own buffer: one occupancy per copy,
// named after the buffer (A_shared and B_shared shared one "stage 0" row, keyed by the copy's
// index, so B's entry replaced A's), released at the event that last reads the tile before the
// next copy into the buffer (their release was -1 and the bar ran to the end of the timeline).
// tests/e2e/programs/plain_copy_gemm.py, K = 96 / block_K 32 = 3 iterations of T.serial, waits in
// place (TILESCOPE_SINK_TMA_WAITS=0). By hand from the lowered code, one event per statement:
//   step 0 barrier (line 15), 1 T.clear (19); iteration k at b = 2 + 10k: b barrier, b+1 expect_tx
//   A, b+2 TMA A, b+3 wait A (line 21), b+4 barrier, b+5 expect_tx B, b+6 TMA B, b+7 wait B (22),
//   b+8 barrier, b+9 wgmma (23, waited: its reads end there); 32 the copy out (24).
// So A_shared copy k: issue 3+10k, landed (its wait) 5+10k, released 11+10k (wgmma k); B_shared:
// 7+10k, 9+10k, 11+10k. Times (one unit per event, a TMA lands 4 after its issue): iteration k
// starts at 2 + 16k; A issued 3+16k, landed 4+16k+4 = 8+16k; B issued 10+16k, landed 15+16k;
// both released at the wgmma, 17+16k. Then tiles read by plain compute, never read, and filled
// through a T.view of the tile, in the CLI's text and JSON.
TEST(HopperTimelineStores, PlainCopyOccupancyRowsPerBuffer) {
    ts::e2e::ScopedEnv keep("TILESCOPE_SINK_TMA_WAITS", "0");
    const std::string path = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/plain_copy_gemm.py";
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    CompileOptions opts;
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    auto r = compile(path, text.str(), opts);
    ASSERT_TRUE(r.ok);
    auto t = buildHopperTimeline(r.lowered);
    ASSERT_EQ(t.loops.size(), 1u);
    const auto& l = t.loops[0];
    ASSERT_EQ(l.roles.size(), 1u);
    const auto& evs = l.roles[0].events;
    EXPECT_EQ(evs.size(), 33u);
    ASSERT_GE(evs.size(), 32u);
    for (int k = 0; k < 3; ++k) {
        const size_t b = size_t(2 + 10 * k);
        EXPECT_EQ(evs[b + 1].kind, TimelineEventKind::ExpectTx);
        EXPECT_EQ(evs[b + 2].buffer, "A_shared");
        EXPECT_EQ(evs[b + 3].kind, TimelineEventKind::MbarWait);
        EXPECT_EQ(evs[b + 6].buffer, "B_shared");
        EXPECT_EQ(evs[b + 9].kind, TimelineEventKind::Mma);
        EXPECT_EQ(evs[b + 9].label, "wgmma k=" + std::to_string(k) + ", waited");  // no pipeline stage
    }
    for (auto& e : evs) EXPECT_NE(e.kind, TimelineEventKind::Release) << e.label;  // no stage to release

    ASSERT_EQ(l.occupancy.size(), 6u);
    for (int k = 0; k < 3; ++k) {
        SCOPED_TRACE("copy k=" + std::to_string(k));
        const auto& a = l.occupancy[size_t(2 * k)];
        const auto& bb = l.occupancy[size_t(2 * k + 1)];
        EXPECT_EQ(a.buffer, "A_shared");
        EXPECT_EQ(a.span.line, 21u);
        EXPECT_EQ(a.stage, -1);
        EXPECT_EQ(a.tile, k);
        EXPECT_EQ(a.issueStep, 3 + 10 * k);
        EXPECT_EQ(a.landedStep, 5 + 10 * k);
        EXPECT_EQ(a.releaseStep, 11 + 10 * k);
        EXPECT_EQ(a.issueTime, 3 + 16 * k);
        EXPECT_EQ(a.landedTime, 8 + 16 * k);
        EXPECT_EQ(a.releaseTime, 17 + 16 * k);
        EXPECT_EQ(bb.buffer, "B_shared");
        EXPECT_EQ(bb.span.line, 22u);
        EXPECT_EQ(bb.stage, -1);
        EXPECT_EQ(bb.tile, k);
        EXPECT_EQ(bb.issueStep, 7 + 10 * k);
        EXPECT_EQ(bb.landedStep, 9 + 10 * k);
        EXPECT_EQ(bb.releaseStep, 11 + 10 * k);
        EXPECT_EQ(bb.issueTime, 10 + 16 * k);
        EXPECT_EQ(bb.landedTime, 15 + 16 * k);
        EXPECT_EQ(bb.releaseTime, 17 + 16 * k);
    }

    // The IDE's rows: the role, then one row per buffer (no "stage 0 (shared)" row), each copy's
    // bar from its issue to just after its last read.
    auto m = viz::TimelineModel::fromPlan(l);
    ASSERT_EQ(m.rows().size(), 3u);
    EXPECT_EQ(m.rows()[1].name, "A_shared (plain copy)");
    EXPECT_EQ(m.rows()[2].name, "B_shared (plain copy)");
    for (int row = 1; row <= 2; ++row) {
        const auto& items = m.rows()[size_t(row)].items;
        EXPECT_EQ(m.rows()[size_t(row)].kind, viz::TimelineRowKind::Stage);
        ASSERT_EQ(items.size(), 3u);
        for (int k = 0; k < 3; ++k) {
            const auto& it = items[size_t(k)];
            EXPECT_EQ(it.category, viz::TimelineCategory::Occupancy);
            EXPECT_EQ(it.label, "k" + std::to_string(k));
            EXPECT_EQ(it.start, double(row == 1 ? 3 + 16 * k : 10 + 16 * k));
            EXPECT_EQ(it.mid, double(row == 1 ? 9 + 16 * k : 16 + 16 * k));
            EXPECT_EQ(it.end, double(18 + 16 * k));
            EXPECT_EQ(it.span.line, row == 1 ? 21u : 22u);
        }
    }

    // A tile read by plain compute (sink_tma_waits.py mode 2: line 53 reads A_s and B_s each
    // iteration t, at step 10 + 9t, time 16 + 15t), and one never read (mode 3: held until it lands).
    cli::TimelineCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/sink_tma_waits.py";
    c.flags.target = "cuda:sm_90a";
    c.flags.params = {"mode=2"};
    auto loop = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(loop.rc, 0) << loop.err;
    EXPECT_TRUE(contains(loop.out, "  stage occupancy (logical time: issued -> landed -> released)\n"
                                   "    A_s (line 51)  tile k=0  3 -> 8 -> 16\n"
                                   "    B_s (line 52)  tile k=0  10 -> 15 -> 16\n"
                                   "    A_s (line 51)  tile k=1  18 -> 23 -> 31\n"
                                   "    B_s (line 52)  tile k=1  25 -> 30 -> 31\n"
                                   "    A_s (line 51)  tile k=2  33 -> 38 -> 46\n"
                                   "    B_s (line 52)  tile k=2  40 -> 45 -> 46\n"))
        << loop.out;
    c.json = "-";
    auto js = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(js.rc, 0) << js.err;
    auto j = nlohmann::json::parse(js.out);
    const auto& occ = j["loops"][0]["occupancy"];
    ASSERT_EQ(occ.size(), 6u) << js.out;
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(occ[size_t(2 * k)]["buffer"], "A_s");
        EXPECT_EQ(occ[size_t(2 * k)]["release_step"], 10 + 9 * k);
        EXPECT_EQ(occ[size_t(2 * k + 1)]["buffer"], "B_s");
        EXPECT_EQ(occ[size_t(2 * k + 1)]["release_step"], 10 + 9 * k);
    }
    c.json.clear();
    c.flags.params = {"mode=3"};
    auto unread = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(unread.rc, 0) << unread.err;
    // Never read nor refilled: held until it lands (it ran to the end of the timeline before).
    EXPECT_TRUE(contains(unread.out, "    A_s (line 43)  tile k=0  2 -> 7 -> 7\n")) << unread.out;

    // A copy into a view of a tile (pipelined_copy_into_view.py: T.copy into `bits`, an int16
    // view of `tile`, read as `tile` on line 21): the row is the tile's, and the read by the
    // tile's own name releases it. Copy k: step 2 + 5k barrier, 3 + 5k expect_tx, 5 + 5k wait,
    // 6 + 5k the read; times 3 + 8k issued, 8 + 8k landed, 9 + 8k released.
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/pipelined_copy_into_view.py";
    c.flags.params = {};
    auto view = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(view.rc, 0) << view.err;
    EXPECT_TRUE(contains(view.out, "    tile (line 20)  tile k=0  3 -> 8 -> 9\n"
                                   "    tile (line 20)  tile k=1  11 -> 16 -> 17\n"
                                   "    tile (line 20)  tile k=2  19 -> 24 -> 25\n"))
        << view.out;
}

namespace {
// The written-operand TMA schedule (TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1): its loop has a block
// barrier before dS^T Q (line 203) after which wgmma still read the Q/dO stage, and the consumers
// release the stage by arriving on tma_empty. The release events are at the arrivals only, one per
// iteration (they were also put at the barrier, as in the cp.async schedule where the barrier is
// the release).
TEST(HopperTimelineStores, WrittenOperandScheduleReleasesAStageOnlyAtItsArrival) {
    setenv("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "1", 1);
    auto c = ts::test::compileSm90("mha_bwd.py", {{"block_M", "128"}, {"threads", "256"}}, "mha_bwd_main");
    unsetenv("TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS");
    ASSERT_NE(c.cuda.find("tma_empty"), std::string::npos) << "the written-operand schedule did not apply";
    auto t = ts::test::timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const auto& evs = t.loops[0].roles.at(0).events;
    int releases = 0, barriers = 0;
    for (size_t i = 0; i < evs.size(); ++i) {
        if (evs[i].iteration < 0) continue;
        if (evs[i].kind == ts::analysis::TimelineEventKind::Barrier) ++barriers;
        if (evs[i].kind != ts::analysis::TimelineEventKind::Release) continue;
        ++releases;
        ASSERT_GT(i, 0u);
        EXPECT_EQ(evs[i - 1].kind, ts::analysis::TimelineEventKind::MbarArrive) << evs[i].label << " at step " << i;
        EXPECT_EQ(evs[i].span.line, 174u);
    }
    EXPECT_EQ(releases, 2) << "one per iteration (seq_len 100: 2 iterations)";
    EXPECT_EQ(barriers, 2) << "the dS^T barrier, once per iteration";
    EXPECT_TRUE(t.loops[0].issues.empty());
}
}  // namespace
