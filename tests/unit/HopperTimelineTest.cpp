// Static timeline and barrier check of the sm_90a schedule (compiler/analysis/HopperTimeline.h)
// on samples/gemm.py --target cuda:sm_90a, against sequences derived by hand from the schedule
// InjectPipelineTma.cpp documents (S stages, n trips, 128x128x32 fp16 tiles: A and B 8192 bytes
// each, 16384 bytes per stage):
//   prologue: tiles 0..min(S,n)-1, each expect_tx(tma_bar[p], 16384) + TMA A + TMA B;
//   S >= 2 (gemm left in flight): iteration k waits tma_bar[k%S] parity (k/S)%2 (phase k/S),
//     issues wgmma k (wait_group 1 retires k-1), block barrier (tile k-1's stage released), and
//     refills that stage with tile k-1+S when it exists; the epilogue's wgmma wait retires k=n-1;
//   S = 1: the wgmma is waited, the barrier releases tile k, the refill loads tile k+1.
// The clear of C_local before the loop starts with a wgmma wait (G0) and the mbarrier init with a
// block barrier (B). Seeded defects (IR edited after lowering, as a wrong pass would leave it)
// must come back as barrier issues with the barrier, the phase and expected vs delivered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "CliTestUtil.h"
#include "HopperTimelineTestUtil.h"
#include "compiler/Compile.h"
#include "compiler/analysis/HopperTimeline.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::analysis;
using namespace ts::cli::test;

namespace {

using Compiled = ts::test::HopperCompiled;
using ts::test::compileSm90;
using ts::test::timelineOf;

Compiled gemm(int stages, int trips) {
    return compileSm90("gemm.py", {{"M", "128"}, {"N", "128"}, {"K", std::to_string(32 * trips)}, {"num_stages", std::to_string(stages)}});
}

// One token per event: E3@1 expect_tx for tile 3 on stage 1; TA3@1 TMA of A_shared tile 3 into
// stage 1; W1p0=0 wait on stage 1's full barrier for parity 0 observing phase 0 (We1...: the
// empty barrier, Wl...: the late tiles' full barrier, El3@1 its expect_tx); M3@1 wgmma of iteration 3 on stage 1; B block/named barrier; R3@1 release of
// tile 3's stage 1; G0 wgmma wait_group 0; A1 arrive on stage 1's empty barrier; compute skipped.
std::string encode(const TimelineRole& role) {
    std::string out;
    for (auto& e : role.events) {
        std::string t;
        auto ts = [](int64_t tile, int64_t stage) { return std::to_string(tile) + "@" + std::to_string(stage); };
        const bool empty = e.barrier.find("empty") != std::string::npos;
        const std::string late = e.barrier.find("late") != std::string::npos ? "l" : "";
        switch (e.kind) {
            case TimelineEventKind::ExpectTx: t = "E" + late + ts(e.tile, e.stage); break;
            case TimelineEventKind::TmaLoad: t = "T" + e.buffer.substr(0, 1) + ts(e.tile, e.stage); break;
            case TimelineEventKind::MbarWait:
                t = std::string("W") + (empty ? "e" : "") + late + std::to_string(e.stage) + "p" + std::to_string(e.parity) + "=" +
                    std::to_string(e.barrierPhase);
                break;
            case TimelineEventKind::Mma: t = "M" + ts(e.tile, e.stage); break;
            case TimelineEventKind::Barrier: t = "B"; break;
            case TimelineEventKind::Release: t = "R" + ts(e.tile, e.stage); break;
            case TimelineEventKind::WgmmaWait: t = "G" + std::to_string(e.pending); break;
            case TimelineEventKind::MbarArrive: t = "A" + std::to_string(e.stage); break;
            default: continue;
        }
        out += (out.empty() ? "" : " ") + t;
    }
    return out;
}

/// The schedule of InjectPipelineTma.cpp's header, written out for S stages and n trips.
std::string expectedGemm(int S, int n) {
    auto s = [](int v) { return std::to_string(v); };
    auto issue = [&](int tile, int stage) {
        std::string ts = s(tile) + "@" + s(stage);
        return " E" + ts + " TA" + ts + " TB" + ts;
    };
    std::string out = "G0 B";
    if (S == 1) {
        out += issue(0, 0);
        for (int k = 0; k < n; ++k) {
            out += " W0p" + s(k % 2) + "=" + s(k) + " M" + s(k) + "@0 B R" + s(k) + "@0";
            if (k + 1 < n) out += issue(k + 1, 0);
        }
        return out + " G0";
    }
    for (int p = 0; p < std::min(S, n); ++p) out += issue(p, p);
    for (int k = 0; k < n; ++k) {
        out += " W" + s(k % S) + "p" + s((k / S) % 2) + "=" + s(k / S) + " M" + s(k) + "@" + s(k % S) + " B";
        if (k >= 1) {
            out += " R" + s(k - 1) + "@" + s((k - 1) % S);
            if (k - 1 + S < n) out += issue(k - 1 + S, (k - 1) % S);
        }
    }
    // The epilogue (S >= 2: the 32 KiB accumulator tile fits in the stages' bytes) is staged
    // through shared memory (StageEpilogue.cpp): a barrier before the staged tile's writes, which
    // releases the last stage, and the fence + barrier before its TMA store.
    return out + " G0 B R" + s(n - 1) + "@" + s((n - 1) % S) + " B";
}

std::string issuesText(const PipelineTimeline& l) {
    std::string out;
    for (auto& i : l.issues) out += std::to_string(i.span.line) + ": " + i.barrier + ": " + i.message + "\n";
    return out;
}

/// Drops (or rewrites) sm_90a intrinsic statements of the lowered IR: the seeded defects.
class Seed : public ir::Mutator {
public:
    std::function<ir::Stmt(const ir::CallNode&, const ir::Stmt&)> edit;
    int edits = 0;

protected:
    ir::Stmt visitEval(const ir::EvalNode* n, const ir::Stmt& self) override {
        auto* c = dynamic_cast<const ir::CallNode*>(n->call.get());
        if (!c) return self;
        ir::Stmt out = edit(*c, self);
        if (out != self) ++edits;
        return out;
    }
};

ir::PrimFunc seeded(const ir::PrimFunc& f, Seed& s) {
    auto out = std::make_shared<ir::PrimFuncNode>(*f);
    out->body = s.mutate(f->body);
    return out;
}

}  // namespace

TEST(HopperTimeline, GemmTwoStagesTwoTripsHandDerived) {
    auto t = timelineOf(gemm(2, 2));
    ASSERT_EQ(t.loops.size(), 1u);
    const auto& l = t.loops[0];
    EXPECT_EQ(l.schedule, "tma");
    EXPECT_EQ(l.tripCount, 2);
    EXPECT_EQ(l.stages, 2);
    EXPECT_EQ(l.loopVar, "k");
    EXPECT_EQ(l.loopSpan.line, 25u);  // for k in T.Pipelined(...)
    EXPECT_FALSE(l.warpSpecialized);
    ASSERT_EQ(l.roles.size(), 1u);
    EXPECT_EQ(l.roles[0].threads, 128);
    // After the loop: the staged epilogue's barriers (StageEpilogue.cpp) around tile 1's release.
    EXPECT_EQ(encode(l.roles[0]), "G0 B E0@0 TA0@0 TB0@0 E1@1 TA1@1 TB1@1 W0p0=0 M0@0 B W1p0=0 M1@1 B R0@0 G0 B R1@1 B");
    // Logical times (one unit per event, TMA bytes land 4 units after their issue): tile 0's last
    // load issues at 4 and lands at 8, so the first wait passes at 8; tile 1's at 7 -> 11. Then
    // the epilogue's TMA store of the staged tile (19), its bulk commit (20), the .read wait
    // (24: read out 4 units after the commit) and the exit wait (28: writes 4 units later);
    // HopperTimelineStoresTest has their details.
    std::vector<int64_t> times;
    for (auto& e : l.roles[0].events) times.push_back(e.time);
    EXPECT_EQ(times, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 24, 28}));
    ASSERT_EQ(l.barriers.size(), 2u);
    for (int s = 0; s < 2; ++s) {
        const auto& b = l.barriers[size_t(s)];
        EXPECT_EQ(b.barrier, "tma_bar[" + std::to_string(s) + "]");
        EXPECT_EQ(b.phase, 0);
        EXPECT_EQ(b.arrivalsExpected, 1);
        EXPECT_EQ(b.arrivalsDelivered, 1);
        EXPECT_EQ(b.txExpected, 16384);
        EXPECT_EQ(b.txDelivered, 16384);
        EXPECT_EQ(b.waits, 1);
        EXPECT_EQ(b.completeTime, s == 0 ? 8 : 11);
    }
    ASSERT_EQ(l.occupancy.size(), 2u);
    EXPECT_EQ(l.occupancy[0].issueTime, 2);
    EXPECT_EQ(l.occupancy[0].landedTime, 8);
    EXPECT_EQ(l.occupancy[0].releaseTime, 14);
    EXPECT_EQ(l.occupancy[1].issueTime, 5);
    EXPECT_EQ(l.occupancy[1].landedTime, 11);
    EXPECT_EQ(l.occupancy[1].releaseTime, 17);  // at the barrier after the final wgmma wait
    EXPECT_TRUE(l.issues.empty()) << issuesText(l);
}

// Issue 15 (new-user trial): the sm_90a timeline's first event, a wgmma wait, sat on line 23
// (C_local = T.alloc_fragment) and so did the epilogue's: the lowering gave the waits the
// accumulator's declaration span. Each wait now carries the line of the op that needs it:
// T.clear (24), whose wait finds no wgmma in flight and says so, and the copy out of C_local
// (29). samples/gemm.py at its defaults (lines 23-29: alloc C_local, clear, T.Pipelined, copy A,
// copy B, gemm, copy out).
TEST(HopperTimeline, GemmEventsSitOnTheSourceLinesOfTheirOps) {
    auto t = timelineOf(compileSm90("gemm.py", {}));
    ASSERT_EQ(t.loops.size(), 1u);
    const auto& ev = t.loops[0].roles.at(0).events;
    ASSERT_GE(ev.size(), 8u);
    const std::vector<std::pair<TimelineEventKind, uint32_t>> first = {
        {TimelineEventKind::WgmmaWait, 24}, {TimelineEventKind::Barrier, 25}, {TimelineEventKind::ExpectTx, 25},
        {TimelineEventKind::TmaLoad, 26},   {TimelineEventKind::TmaLoad, 27},  {TimelineEventKind::ExpectTx, 25},
    };
    for (size_t i = 0; i < first.size(); ++i) {
        SCOPED_TRACE("event " + std::to_string(i) + ": " + ev[i].label);
        EXPECT_EQ(int(ev[i].kind), int(first[i].first));
        EXPECT_EQ(ev[i].span.line, first[i].second);
    }
    EXPECT_NE(ev[0].label.find("no wgmma in flight"), std::string::npos) << ev[0].label;
    // The first wgmma: line 28 (T.gemm); the epilogue's wait: line 29, a real one.
    auto mma = std::find_if(ev.begin(), ev.end(), [](const TimelineEvent& e) { return e.kind == TimelineEventKind::Mma; });
    ASSERT_NE(mma, ev.end());
    EXPECT_EQ(mma->span.line, 28u);
    auto last = std::find_if(ev.rbegin(), ev.rend(), [](const TimelineEvent& e) { return e.kind == TimelineEventKind::WgmmaWait; });
    ASSERT_NE(last, ev.rend());
    EXPECT_EQ(last->span.line, 29u);
    EXPECT_EQ(last->label, "wgmma.wait_group 0");
}

TEST(HopperTimeline, GemmTripCounts1_2_5TimesStages1To4) {
    for (int S = 1; S <= 4; ++S)
        for (int n : {1, 2, 5}) {
            SCOPED_TRACE("stages " + std::to_string(S) + ", trips " + std::to_string(n));
            auto t = timelineOf(gemm(S, n));
            ASSERT_EQ(t.loops.size(), 1u);
            const auto& l = t.loops[0];
            EXPECT_EQ(l.tripCount, n);
            EXPECT_EQ(l.loopSpan.line, 25u);
            EXPECT_EQ(encode(l.roles.at(0)), expectedGemm(S, n));
            EXPECT_TRUE(l.issues.empty()) << issuesText(l);
            // Stage s carries tiles s, s+S, ...: one phase each, one arrival and 16384 bytes.
            int64_t phases = 0;
            for (auto& b : l.barriers) {
                EXPECT_TRUE(b.completed);
                EXPECT_EQ(b.arrivalsDelivered, 1);
                EXPECT_EQ(b.txDelivered, 16384);
                EXPECT_EQ(b.waits, 1);
                ++phases;
            }
            EXPECT_EQ(phases, n);
            ASSERT_EQ(l.occupancy.size(), size_t(n));
            for (int k = 0; k < n; ++k) {
                const auto& o = l.occupancy[size_t(k)];
                EXPECT_EQ(o.tile, k);
                EXPECT_EQ(o.stage, k % S);
                EXPECT_LT(o.issueTime, o.landedTime);
                EXPECT_LT(o.landedTime, o.releaseTime);
                // A stage is refilled only after its previous tile was released.
                if (k >= S) {
                    EXPECT_GT(o.issueTime, l.occupancy[size_t(k - S)].releaseTime);
                }
            }
        }
}

// Warp specialization (forced on) of the fragment-path attention: the producer warpgroup's
// thread 128 issues, the consumer warpgroup waits, runs both gemms and arrives on the stage's
// empty barrier (InjectPipelineTmaFragment.cpp: prologue tile 0; iteration k refills tile k+1
// into stage (k+1)%2 after waiting empty[(k-1)%2] from k = 1 on).
TEST(HopperTimeline, WarpSpecializedAttentionRolesHandDerived) {
    setenv("TILESCOPE_HOPPER_WS", "1", 1);
    setenv("TILESCOPE_HOPPER_LATE_WAIT", "1", 1);  // V on its own barrier (off by default)
    auto c = compileSm90("flash_attn_fwd.py", {{"seq_len", "256"}, {"num_stages", "2"}});
    unsetenv("TILESCOPE_HOPPER_WS");
    unsetenv("TILESCOPE_HOPPER_LATE_WAIT");
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const auto& l = t.loops[0];
    EXPECT_TRUE(l.warpSpecialized);
    EXPECT_EQ(l.tripCount, 4);
    ASSERT_EQ(l.roles.size(), 2u);
    EXPECT_EQ(l.roles[0].threads, 128);
    EXPECT_EQ(l.roles[1].threads, 128);
    // V (read by P V only) completes on tma_full_late, waited right before P V.
    EXPECT_EQ(encode(l.roles[0]),
              "B E0@0 El0@0 TK0@0 TV0@0 E1@1 El1@1 TK1@1 TV1@1 We0p0=0 E2@0 El2@0 TK2@0 TV2@0 We1p0=0 E3@1 El3@1 TK3@1 TV3@1");
    EXPECT_EQ(encode(l.roles[1]),
              "B W0p0=0 M0@0 Wl0p0=0 M0@0 A0 R0@0 W1p0=0 M1@1 Wl1p0=0 M1@1 A1 R1@1 W0p1=1 M2@0 Wl0p1=1 M2@0 A0 R2@0 W1p1=1 M3@1 Wl1p1=1 M3@1 A1 "
              "R3@1");
    // The empty barriers take the 128 consumer arrivals per phase; the last phase of each is
    // never waited for (no refill after it), which is no defect.
    int empties = 0;
    for (auto& b : l.barriers)
        if (b.barrier.find("empty") != std::string::npos) {
            ++empties;
            EXPECT_EQ(b.arrivalsExpected, 128);
            EXPECT_EQ(b.arrivalsDelivered, 128);
            EXPECT_EQ(b.waits, b.phase == 0 ? 1 : 0);
        }
    EXPECT_EQ(empties, 4);
    EXPECT_TRUE(l.issues.empty()) << issuesText(l);
    // The producer runs ahead: tile 2's refill waits for the consumer's arrive of tile 0.
    int64_t arrive0 = -1, wait0 = -1;
    for (auto& e : l.roles[1].events)
        if (e.kind == TimelineEventKind::MbarArrive && arrive0 < 0) arrive0 = e.time;
    for (auto& e : l.roles[0].events)
        if (e.kind == TimelineEventKind::MbarWait && wait0 < 0) wait0 = e.time;
    EXPECT_EQ(wait0, arrive0);
}

// The rotated softmax-overlap loop (TILESCOPE_HOPPER_SOFTMAX_OVERLAP=1, off by default): the
// timeline says how its tiles are numbered (by stage use, K tile r with V tile r-1) and that it
// does not model which wgmma a wait_group retires there; the barrier check still balances.
TEST(HopperTimeline, SoftmaxOverlapLoopSaysHowItIsDrawn) {
    setenv("TILESCOPE_HOPPER_SOFTMAX_OVERLAP", "1", 1);
    auto c = compileSm90("flash_attn_fwd.py", {{"seq_len", "256"}, {"num_stages", "2"}});
    unsetenv("TILESCOPE_HOPPER_SOFTMAX_OVERLAP");
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    EXPECT_TRUE(t.loops[0].issues.empty()) << issuesText(t.loops[0]);
    bool said = false;
    for (auto& n : t.notes) said = said || n.find("rotated softmax-overlap loop: each stage use r holds K tile r and V tile r-1") != std::string::npos;
    EXPECT_TRUE(said);
    // Without the switch: no such note.
    auto plain = timelineOf(compileSm90("flash_attn_fwd.py", {{"seq_len", "256"}, {"num_stages", "2"}}));
    for (auto& n : plain.notes) EXPECT_EQ(n.find("softmax-overlap"), std::string::npos) << n;
}

// --- seeded defects ----------------------------------------------------------------------

TEST(HopperBarrierCheck, MissingExpectTxInASingleIterationLoopIsADeadlockNotAHang) {
    auto c = gemm(1, 1);
    Seed s;
    s.edit = [](const ir::CallNode& call, const ir::Stmt& self) -> ir::Stmt {
        return call.op == ir::intrin::kMbarrierExpectTx ? nullptr : self;
    };
    c.lowered = seeded(c.lowered, s);
    EXPECT_EQ(s.edits, 1);
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const std::string text = issuesText(t.loops[0]);
    EXPECT_NE(text.find("25: tma_bar[0]: deadlock: role 'all warps (thread 0 issues)' waits on tma_bar[0] for parity 0 (phase 0), "
                        "which never completes: expected 1 arrival and 0 transaction bytes, delivered 0 arrivals and 16384 bytes"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("no expect_tx has armed"), std::string::npos) << text;
}

TEST(HopperBarrierCheck, DroppedTmaLoadLeavesThePhaseShortOfBytes) {
    auto c = gemm(2, 2);
    Seed s;
    bool dropped = false;
    s.edit = [&](const ir::CallNode& call, const ir::Stmt& self) -> ir::Stmt {
        // The first B load of the prologue (tile 0).
        if (call.op != ir::intrin::kTmaLoad || dropped || call.args.size() < 2) return self;
        auto* a = dynamic_cast<const ir::CallNode*>(call.args[1].get());
        auto* ld = a ? dynamic_cast<const ir::LoadNode*>(a->args[0].get()) : nullptr;
        if (!ld || ld->buffer->name != "B_shared") return self;
        dropped = true;
        return nullptr;
    };
    c.lowered = seeded(c.lowered, s);
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const std::string text = issuesText(t.loops[0]);
    // The prologue's B load is in the unrolled loop over both stages: both stages miss 8192 B.
    EXPECT_NE(text.find("waits on tma_bar[0] for parity 0 (phase 0), which never completes: expected 1 arrival and 16384 "
                        "transaction bytes, delivered 1 arrival and 8192 bytes"),
              std::string::npos)
        << text;
}

TEST(HopperBarrierCheck, ExpectTxBytesTooSmallLetBytesSpillIntoTheNextPhase) {
    auto c = gemm(1, 2);
    Seed s;
    s.edit = [](const ir::CallNode& call, const ir::Stmt& self) -> ir::Stmt {
        if (call.op != ir::intrin::kMbarrierExpectTx) return self;
        auto args = call.args;
        args[1] = ir::intImm(8192);
        return ir::evaluate(ir::call(call.op, args, call.dtype, call.span), self->span);
    };
    c.lowered = seeded(c.lowered, s);
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const std::string text = issuesText(t.loops[0]);
    // A's 8192 bytes complete phase 0; B's land on phase 1, which nothing armed yet (line 27:
    // the T.copy of B).
    EXPECT_NE(text.find("27: tma_bar[0]: TMA bytes land on phase 1 of tma_bar[0], which no expect_tx has armed yet"), std::string::npos)
        << text;
}

TEST(HopperBarrierCheck, WrongParityPassesWithoutWaitingOrHangs) {
    auto c = gemm(1, 2);
    Seed s;
    s.edit = [](const ir::CallNode& call, const ir::Stmt& self) -> ir::Stmt {
        if (call.op != ir::intrin::kMbarrierWait) return self;
        auto args = call.args;
        args[1] = ir::binary(ir::BinOp::Sub, ir::intImm(1), args[1]);  // parity flipped
        return ir::evaluate(ir::call(call.op, args, call.dtype, call.span), self->span);
    };
    c.lowered = seeded(c.lowered, s);
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const std::string text = issuesText(t.loops[0]);
    // One stage: the first wait (time 5) comes before tile 0 lands (time 8) and passes at once.
    EXPECT_NE(text.find("25: tma_bar[0]: the wait on tma_bar[0] for parity 1 passes before any phase of it has completed"),
              std::string::npos)
        << text;
    // Two stages: tile 0 has landed when the first wait runs (time 8), so parity 1 names phase 1,
    // which nothing feeds with two trips: the wait hangs.
    auto c2 = gemm(2, 2);
    Seed s2;
    s2.edit = s.edit;
    c2.lowered = seeded(c2.lowered, s2);
    auto t2 = timelineOf(c2);
    ASSERT_EQ(t2.loops.size(), 1u);
    const std::string text2 = issuesText(t2.loops[0]);
    EXPECT_NE(text2.find("25: tma_bar[0]: deadlock: role 'all warps (thread 0 issues)' waits on tma_bar[0] for parity 1 (phase 1), "
                         "which never completes: expected 1 arrival and 0 transaction bytes, delivered 0 arrivals and 0 bytes"),
              std::string::npos)
        << text2;
}

TEST(HopperBarrierCheck, DroppedConsumerArriveDeadlocksTheProducer) {
    setenv("TILESCOPE_HOPPER_WS", "1", 1);
    auto c = compileSm90("flash_attn_fwd.py", {{"seq_len", "256"}, {"num_stages", "2"}});
    unsetenv("TILESCOPE_HOPPER_WS");
    Seed s;
    s.edit = [](const ir::CallNode& call, const ir::Stmt& self) -> ir::Stmt {
        return call.op == ir::intrin::kMbarrierArrive ? nullptr : self;
    };
    c.lowered = seeded(c.lowered, s);
    EXPECT_EQ(s.edits, 1);
    auto t = timelineOf(c);
    ASSERT_EQ(t.loops.size(), 1u);
    const std::string text = issuesText(t.loops[0]);
    EXPECT_NE(text.find("deadlock: role 'producer (thread 128 issues)' waits on tma_empty[0] for parity 0 (phase 0), which never "
                        "completes: expected 128 arrivals and 0 transaction bytes, delivered 0 arrivals and 0 bytes"),
              std::string::npos)
        << text;
    // ... and the consumers then wait for tile 2, which the producer never loads.
    EXPECT_NE(text.find("deadlock: role 'consumer' waits on tma_full[0] for parity 1 (phase 1)"), std::string::npos) << text;
}

TEST(HopperTimeline, CliPrintsTheTmaScheduleBarrierPhasesAndJson) {
    cli::TimelineCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/samples/gemm.py";
    c.flags.target = "cuda:sm_90a";
    c.flags.params = {"M=128", "N=128", "K=64", "num_stages=2"};
    auto text = captureCli([&] { return cli::runTimeline(c); });
    EXPECT_EQ(text.rc, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "gemm.py:25: T.Pipelined over k, 2 iteration(s), 2 stage(s), TMA + mbarrier schedule")) << text.out;
    EXPECT_TRUE(contains(text.out, "TMA B_shared[k=1] -> stage 1 on tma_bar[1] [phase 0]")) << text.out;
    EXPECT_TRUE(contains(text.out, "tma_bar[1]        0       0  1/1          16384/16384         t=11      1")) << text.out;
    EXPECT_TRUE(contains(text.out, "stage 0  tile k=0  2 -> 8 -> 14")) << text.out;
    EXPECT_TRUE(contains(text.out, "barrier check: every wait has its arrivals and bytes")) << text.out;
    c.json = "-";
    auto js = captureCli([&] { return cli::runTimeline(c); });
    ASSERT_EQ(js.rc, 0) << js.err;
    auto j = nlohmann::json::parse(js.out);
    auto& loop = j["loops"][0];
    EXPECT_EQ(loop["schedule"], "tma");
    EXPECT_EQ(loop["trip_count"], 2);
    ASSERT_EQ(loop["barriers"].size(), 2u);
    EXPECT_EQ(loop["barriers"][0]["tx_expected"], 16384);
    EXPECT_EQ(loop["issues"].size(), 0u);
    auto& ev = loop["roles"][0]["events"];
    EXPECT_EQ(ev[8]["kind"], "mbarrier_wait");
    EXPECT_EQ(ev[8]["parity"], 0);
    EXPECT_EQ(ev[8]["barrier"], "tma_bar[0]");
    EXPECT_EQ(ev[8]["time"], 8);
    EXPECT_EQ(ev[8]["line"], 25);
}
