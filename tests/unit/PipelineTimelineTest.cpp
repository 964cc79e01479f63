// Static pipeline timeline (compiler/analysis/PipelineTimeline.h) of samples/gemm.py against
// sequences derived by hand from inject-pipeline's schedule (InjectPipeline.cpp header):
// prologue issues tiles 0..S-2 (one cp.async group each, empty when the loop is shorter);
// iteration k waits with S-2 groups pending (groups 0..k complete), barriers (stage of tile k-1
// released), issues tile k+S-1 into stage (k+S-1)%S when it exists, commits, runs the mma on
// stage k%S; the epilogue waits for all groups and releases the last tile's stage.
#include <gtest/gtest.h>

#include "CliTestUtil.h"
#include "compiler/Compile.h"
#include "compiler/StaticTimeline.h"
#include "compiler/analysis/PipelineTimeline.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::analysis;
using namespace ts::cli::test;

namespace {

// gemm.py with block_K = 32: K = 32 * trips gives `trips` iterations.
TimelineResult timelineOf(int stages, int trips) {
    CompileOptions opts;
    opts.params = {{"M", "128"}, {"N", "128"}, {"K", std::to_string(32 * trips)}, {"num_stages", std::to_string(stages)}};
    opts.stopAfter = "plan-pipelines";
    opts.recordSnapshots = false;
    auto r = compile("gemm.py", sampleText("gemm.py"), opts);
    EXPECT_TRUE(r.lowered) << "gemm.py did not reach plan-pipelines";
    if (!r.lowered) return {};
    return buildPipelineTimeline(r.lowered);
}

// One token per event: iA3@1 issue A_shared tile 3 -> stage 1; c2 / c2e commit group 2 (empty);
// w1>0 wait with 1 pending, groups 0..0 complete; b barrier; r0@0 release tile 0's stage 0;
// m4@1 mma of iteration 4 on stage 1 (m4 when unstaged); sA0 synchronous copy of A tile 0.
std::string encode(const PipelineTimeline& l) {
    std::string out;
    for (auto& e : l.roles.at(0).events) {
        std::string t;
        switch (e.kind) {
            case TimelineEventKind::IssueCopy:
                t = "i" + e.buffer.substr(0, 1) + std::to_string(e.tile) + "@" + std::to_string(e.stage);
                break;
            case TimelineEventKind::SyncCopy: t = "s" + e.buffer.substr(0, 1) + std::to_string(e.tile); break;
            case TimelineEventKind::Commit: t = "c" + std::to_string(e.group) + (e.empty ? "e" : ""); break;
            case TimelineEventKind::WaitGroup: t = "w" + std::to_string(e.pending) + ">" + std::to_string(e.group); break;
            case TimelineEventKind::Barrier: t = "b"; break;
            case TimelineEventKind::Release: t = "r" + std::to_string(e.tile) + "@" + std::to_string(e.stage); break;
            case TimelineEventKind::Mma:
                t = "m" + std::to_string(e.tile) + (e.stage >= 0 ? "@" + std::to_string(e.stage) : "");
                break;
            case TimelineEventKind::Compute: t = "x" + std::to_string(e.tile); break;
            default: t = "?"; break;  // sm_90a kinds: not in the cp.async plan
        }
        out += (out.empty() ? "" : " ") + t;
    }
    return out;
}

std::string encodeOf(int stages, int trips) {
    auto t = timelineOf(stages, trips);
    EXPECT_EQ(t.loops.size(), 1u);
    return t.loops.empty() ? "" : encode(t.loops[0]);
}

}  // namespace

TEST(PipelineTimeline, TwoStagesTripCounts1_2_5) {
    EXPECT_EQ(encodeOf(2, 1), "iA0@0 iB0@0 c0 w0>0 b c1e m0@0 w0>1 r0@0");
    EXPECT_EQ(encodeOf(2, 2), "iA0@0 iB0@0 c0 w0>0 b iA1@1 iB1@1 c1 m0@0 w0>1 b r0@0 c2e m1@1 w0>2 r1@1");
    EXPECT_EQ(encodeOf(2, 5),
              "iA0@0 iB0@0 c0 "
              "w0>0 b iA1@1 iB1@1 c1 m0@0 "
              "w0>1 b r0@0 iA2@0 iB2@0 c2 m1@1 "
              "w0>2 b r1@1 iA3@1 iB3@1 c3 m2@0 "
              "w0>3 b r2@0 iA4@0 iB4@0 c4 m3@1 "
              "w0>4 b r3@1 c5e m4@0 "
              "w0>5 r4@0");
}

TEST(PipelineTimeline, ThreeStagesTripCounts1_2_5) {
    // Trip count 1 < S-1: the second prologue group is committed empty (the guard p < n).
    EXPECT_EQ(encodeOf(3, 1), "iA0@0 iB0@0 c0 c1e w1>0 b c2e m0@0 w0>2 r0@0");
    EXPECT_EQ(encodeOf(3, 2), "iA0@0 iB0@0 c0 iA1@1 iB1@1 c1 w1>0 b c2e m0@0 w1>1 b r0@0 c3e m1@1 w0>3 r1@1");
    EXPECT_EQ(encodeOf(3, 5),
              "iA0@0 iB0@0 c0 iA1@1 iB1@1 c1 "
              "w1>0 b iA2@2 iB2@2 c2 m0@0 "
              "w1>1 b r0@0 iA3@0 iB3@0 c3 m1@1 "
              "w1>2 b r1@1 iA4@1 iB4@1 c4 m2@2 "
              "w1>3 b r2@2 c5e m3@0 "
              "w1>4 b r3@0 c6e m4@1 "
              "w0>6 r4@1");
}

TEST(PipelineTimeline, StageOfEveryCopyIsTileModStagesAndOccupancyIsOrdered) {
    for (int S : {2, 3, 4})
        for (int n : {1, 2, 5, 7}) {
            auto t = timelineOf(S, n);
            ASSERT_EQ(t.loops.size(), 1u);
            auto& l = t.loops[0];
            EXPECT_EQ(l.stages, S);
            EXPECT_EQ(l.tripCount, n);
            EXPECT_TRUE(l.async);
            int issued = 0, mmas = 0;
            for (auto& e : l.roles[0].events) {
                if (e.kind == TimelineEventKind::IssueCopy) {
                    EXPECT_EQ(e.stage, e.tile % S);
                    ++issued;
                }
                if (e.kind == TimelineEventKind::Mma) {
                    EXPECT_EQ(e.stage, e.iteration % S);
                    ++mmas;
                }
            }
            EXPECT_EQ(issued, 2 * n);  // A and B tile of every iteration, each once
            EXPECT_EQ(mmas, n);
            // S-1 prologue groups + one per iteration.
            EXPECT_EQ(l.groupsCommitted, S - 1 + n);
            ASSERT_EQ(l.occupancy.size(), size_t(n));
            for (auto& o : l.occupancy) {
                EXPECT_EQ(o.stage, o.tile % S);
                EXPECT_LT(o.issueStep, o.landedStep);
                EXPECT_LT(o.landedStep, o.releaseStep);
            }
            // A stage is never reissued before the tile in it was released.
            for (auto& a : l.occupancy)
                for (auto& b : l.occupancy)
                    if (a.stage == b.stage && a.tile < b.tile) {
                        EXPECT_LT(a.releaseStep, b.issueStep) << S << " " << n;
                    }
        }
}

TEST(PipelineTimeline, EventsCarrySourceLinesAndIrStatements) {
    auto t = timelineOf(3, 2);
    ASSERT_EQ(t.loops.size(), 1u);
    auto& l = t.loops[0];
    EXPECT_EQ(l.loopSpan.line, 25u);  // `for k in T.Pipelined(...)`
    EXPECT_EQ(l.roles[0].name, "all warps");
    EXPECT_EQ(l.roles[0].threads, 128);
    for (auto& e : l.roles[0].events) {
        if (e.kind == TimelineEventKind::IssueCopy) {
            EXPECT_EQ(e.span.line, e.buffer == "A_shared" ? 26u : 27u);
            EXPECT_NE(e.irStmt.find("T.copy("), std::string::npos) << e.irStmt;
            EXPECT_EQ(e.bodyIndex, e.buffer == "A_shared" ? 0 : 1);
        } else if (e.kind == TimelineEventKind::Mma) {
            EXPECT_EQ(e.span.line, 28u);
            EXPECT_NE(e.irStmt.find("T.gemm("), std::string::npos) << e.irStmt;
            EXPECT_EQ(e.buffer, "A_shared,B_shared");
        } else {
            EXPECT_EQ(e.span.line, 25u);  // intrinsics of the schedule point at the loop
            EXPECT_EQ(e.bodyIndex, -1);
        }
    }
}

TEST(PipelineTimeline, OneStageIsSynchronousInProgramOrder) {
    EXPECT_EQ(encodeOf(1, 3), "sA0 sB0 m0 sA1 sB1 m1 sA2 sB2 m2");
    auto t = timelineOf(1, 3);
    EXPECT_FALSE(t.loops.at(0).async);
    EXPECT_TRUE(t.loops.at(0).occupancy.empty());
}

TEST(PipelineTimeline, CliPrintsTableAndJson) {
    std::string path = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    cli::TimelineCommand c;
    c.flags.file = path;
    c.flags.target = "cuda:sm_80";
    c.flags.params = {"K=64", "num_stages=3"};
    auto text = captureCli([&] { return cli::runTimeline(c); });
    EXPECT_EQ(text.rc, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "2 iteration(s), 3 stage(s)")) << text.out;
    EXPECT_TRUE(contains(text.out, "issue A_shared[k=1] -> stage 1")) << text.out;
    EXPECT_TRUE(contains(text.out, "stage 1  tile k=1  3 -> 10 -> 16")) << text.out;
    c.json = "-";
    auto js = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(js.rc, 0) << js.err;
    auto j = nlohmann::json::parse(js.out);
    EXPECT_EQ(j["format"], "tilescope-timeline/1");
    auto& loop = j["loops"][0];
    EXPECT_EQ(loop["trip_count"], 2);
    EXPECT_EQ(loop["stages"], 3);
    auto& ev = loop["roles"][0]["events"];
    ASSERT_EQ(ev.size(), 17u);
    EXPECT_EQ(ev[9]["kind"], "mma");
    EXPECT_EQ(ev[9]["stage"], 0);
    EXPECT_EQ(ev[9]["line"], 28);
    EXPECT_EQ(ev[6]["kind"], "wait_group");
    EXPECT_EQ(ev[6]["pending"], 1);
}

// sm_90a, samples/rmsnorm_matmul.py (the fused norm writes the gemm's A tile in the loop): the
// schedule of InjectPipelineWgmmaGeneric.cpp, by hand for S = 4, 4 iterations (K = 128, block_K
// = 32): prologue tiles 0, 1; iteration k waits with 1 pending (groups 0..k complete), barriers,
// releases tile k-2's stage (its wgmma retired in iteration k-1), issues tile k+2, commits, runs
// the norm (copy X_s into registers, scale, copy into Xg_s: three x) and the mma of stage k % 4,
// then wgmma.wait_group 1 (0 in the last iteration); the
// epilogue waits for every group and releases the last two tiles' stages. On sm_80 and with
// TILESCOPE_HOPPER_INFLIGHT=0 the plain cp.async plan (3 ahead).
TEST(PipelineTimeline, FusedNormLoopOnSm90aKeepsOneWgmmaGroupInFlight) {
    auto planned = [](const std::string& target) {
        CompileOptions opts;
        opts.params = {{"M", "128"}, {"N", "128"}, {"K", "128"}, {"num_stages", "4"}};
        opts.target = target;
        opts.stopAfter = "plan-pipelines";
        opts.recordSnapshots = false;
        return compile("rmsnorm_matmul.py", sampleText("rmsnorm_matmul.py"), opts);
    };
    auto r = planned("cuda:sm_90a");
    ASSERT_TRUE(r.lowered);
    auto t = cpAsyncTimeline(r.lowered, "cuda:sm_90a");
    ASSERT_EQ(t.loops.size(), 1u);
    const PipelineTimeline& l = t.loops[0];
    EXPECT_TRUE(l.wgmmaInflight);
    EXPECT_EQ(l.ahead, 2);
    std::string seq;
    for (auto& e : l.roles.at(0).events) {
        std::string s;
        switch (e.kind) {
            case TimelineEventKind::IssueCopy: s = e.buffer == "X_s" ? "i" + std::to_string(e.tile) + "@" + std::to_string(e.stage) : ""; break;
            case TimelineEventKind::Commit: s = "c" + std::to_string(e.group) + (e.empty ? "e" : ""); break;
            case TimelineEventKind::WaitGroup: s = "w" + std::to_string(e.pending) + ">" + std::to_string(e.group); break;
            case TimelineEventKind::Barrier: s = "b"; break;
            case TimelineEventKind::Release: s = "r" + std::to_string(e.tile) + "@" + std::to_string(e.stage); break;
            case TimelineEventKind::Mma: s = "m" + std::to_string(e.tile) + "@" + std::to_string(e.stage); break;
            case TimelineEventKind::Compute: s = "x" + std::to_string(e.tile); break;
            case TimelineEventKind::WgmmaWait: s = "g" + std::to_string(e.pending); break;
            default: s = "?"; break;
        }
        if (!s.empty()) seq += (seq.empty() ? "" : " ") + s;
    }
    EXPECT_EQ(seq,
              "i0@0 c0 i1@1 c1 "
              "w1>0 b i2@2 c2 x0 x0 x0 m0@0 g1 "
              "w1>1 b i3@3 c3 x1 x1 x1 m1@1 g1 "
              "w1>2 b r0@0 c4e x2 x2 x2 m2@2 g1 "
              "w1>3 b r1@1 c5e x3 x3 x3 m3@3 g0 "
              "w0>5 r2@2 r3@3");
    for (const char* other : {"cuda:sm_80"}) {
        auto o = planned(other);
        ASSERT_TRUE(o.lowered);
        auto ot = cpAsyncTimeline(o.lowered, other);
        ASSERT_EQ(ot.loops.size(), 1u);
        EXPECT_FALSE(ot.loops[0].wgmmaInflight);
        EXPECT_EQ(ot.loops[0].ahead, 3);
    }
    setenv("TILESCOPE_HOPPER_INFLIGHT", "0", 1);
    auto off = cpAsyncTimeline(r.lowered, "cuda:sm_90a");
    unsetenv("TILESCOPE_HOPPER_INFLIGHT");
    ASSERT_EQ(off.loops.size(), 1u);
    EXPECT_FALSE(off.loops[0].wgmmaInflight);
    EXPECT_EQ(off.loops[0].ahead, 3);
}
