// Static pipeline timeline (issue 9, build item 2): the schedule the compiler plans for each
// T.Pipelined loop, as rows of events per warp role and iteration, derived from the planned IR
// (the output of plan-pipelines: For attrs "num_stages" and "pipeline_producers") with the same
// rules inject-pipeline (compiler/transforms/InjectPipeline.cpp) uses to emit the cp.async
// schedule — so the timeline is the plan, not a re-guess:
//
//   prologue p = 0..S-2:  issue copies of tile p -> stage p (if p < n); commit group p
//   iteration k = 0..n-1: wait cp.async groups (S-2 may stay pending => tile k landed);
//                         barrier (all threads; stage (k-1)%S is free again = release);
//                         issue copies of tile k+S-1 -> stage (k+S-1)%S (if < n); commit;
//                         consumers of iteration k (mma k, ...) read stage k%S
//   epilogue:             wait all groups (0 pending); last tile's stage released
// sm_90a loops whose gemms read a tile the body writes with ordinary stores keep one wgmma group
// in flight (InjectPipelineWgmmaGeneric.cpp): S-2 tiles ahead, a wgmma.wait_group after the gemms.
//
// A loop without async producers (num_stages <= 1, or every copy kept synchronous by
// plan-pipelines) is one row per iteration of its statements in order.
// Warp roles: the sm_80 schedule is not warp-specialized, so there is one role "all warps".
// The sm_90a TMA + mbarrier + wgmma schedule is read from the lowered IR instead (the plan is
// only fixed there): buildHopperTimeline (HopperTimeline.h) fills the same structures, with a
// producer and a consumer role when warp-specialize split the block.
// Units: `step` is an ordinal position in program order of the role (not time); iteration k is
// the 0-based trip index of the loop; stages are 0..S-1; cp.async groups are counted per thread
// from 0 in commit order.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Stmt.h"
#include "compiler/support/Source.h"

namespace ts::analysis {

enum class TimelineEventKind {
    IssueCopy,    ///< async global->shared copy of tile `tile` into stage `stage` (cp.async)
    SyncCopy,     ///< copy kept synchronous (not pipelined)
    Commit,       ///< cp.async.commit_group: closes group `group` (empty when nothing issued)
    WaitGroup,    ///< cp.async.wait_group(`pending`): groups 0..`group` complete
    Barrier,      ///< __syncthreads of every thread of the block
    Release,      ///< stage `stage` (tile `tile`) may be overwritten from here on
    Mma,          ///< T.gemm of iteration `iteration` reading stage `stage`
    Compute,      ///< another consumer statement (fill, reduce, parallel, copy out, ...)
    // sm_90a (HopperTimeline.h)
    ExpectTx,     ///< elected mbarrier.arrive.expect_tx on `barrier`: one arrival, `bytes` expected
    TmaLoad,      ///< elected TMA load of tile `tile` into stage `stage`, completing `bytes` on `barrier`
    MbarWait,     ///< wait for the phase of parity `parity` of `barrier` (phase `phase` observed)
    MbarArrive,   ///< every thread of the role arrives on `barrier` (release of stage `stage`)
    WgmmaWait,    ///< wgmma.wait_group `pending`
    // sm_90a shared -> global bulk copies (tl.tma_store / tl.tma_reduce_add; CopyTma.cpp)
    TmaStore,     ///< elected TMA store of the shared tile `buffer` (`bytes`) to global memory
    TmaReduceAdd, ///< elected TMA reduce-add of the shared tile `buffer` into global memory
    BulkCommit,   ///< cp.async.bulk.commit_group after a store: closes bulk group `group`
    BulkWait,     ///< cp.async.bulk.wait_group[.read] `pending`: bulk groups 0..`group` read
                  ///< out of shared memory (`read`) or complete (writes performed)
};
const char* timelineEventKindName(TimelineEventKind k);

enum class TimelinePhase { Prologue, Steady, Epilogue };
const char* timelinePhaseName(TimelinePhase p);

struct TimelineEvent {
    TimelineEventKind kind = TimelineEventKind::Compute;
    TimelinePhase phase = TimelinePhase::Steady;
    int64_t step = 0;       ///< position in the role's program order (0-based)
    int64_t iteration = -1; ///< loop iteration the event belongs to; -1 prologue/epilogue
    int64_t tile = -1;      ///< k of the tile copied/read/released; -1 none
    int64_t stage = -1;     ///< buffer stage (tile % S) written/read/released; -1 none
    int64_t group = -1;     ///< cp.async group committed (Commit) or last complete (WaitGroup)
    int64_t pending = -1;   ///< WaitGroup: groups allowed to stay in flight
    bool empty = false;     ///< Commit of a group with no copies (guard false)
    bool read = false;      ///< BulkWait: the .read form (only the groups' shared-memory reads)
    std::string buffer;     ///< shared tile written (copies) or read (mma), "" none
    std::string label;      ///< short text: "issue A_shared[k=3] -> stage 0"
    std::string irStmt;     ///< the IR statement (printed, one line) the event comes from
    int bodyIndex = -1;     ///< index of that statement in the loop body; -1 for intrinsics
    Span span;              ///< source span: the statement's, or the loop's for waits/barriers
    // sm_90a events (HopperTimeline.h); defaults elsewhere.
    std::string barrier;    ///< mbarrier "full[1]" / "tma_bar[0]", or "bar.sync 1" (named barrier)
    int64_t parity = -1;    ///< MbarWait: parity waited for
    int64_t barrierPhase = -1;  ///< ExpectTx/TmaLoad/MbarArrive: phase fed; MbarWait: phase observed
    int64_t bytes = -1;     ///< ExpectTx: bytes expected; TmaLoad: bytes delivered; TmaStore /
                            ///< TmaReduceAdd: bytes of the tile read out of shared memory
    bool elected = false;   ///< executed by the role's elected thread only
    int64_t time = -1;      ///< logical start time (unit-cost events, waits as late as needed)
};

struct TimelineRole {
    std::string name;       ///< "all warps" (sm_80); "producer" / "consumer" when specialized
    int64_t threads = 0;    ///< threads of the role
    std::vector<TimelineEvent> events;  ///< in program order (event.step == index)
};

/// One stage buffer's occupancy by one tile: from the issue of its copy to its release.
struct StageOccupancy {
    int64_t stage = 0, tile = 0;
    int64_t issueStep = 0;    ///< step of the first IssueCopy of the tile
    int64_t landedStep = 0;   ///< step of the WaitGroup after which the tile is complete
    int64_t releaseStep = 0;  ///< step of the Release event
    // sm_90a (HopperTimeline.h): logical times; steps there are of the role that did each
    // (issue: the producer's expect_tx; landed: the consumer's wait; release: the consumer).
    int64_t issueTime = -1, landedTime = -1, releaseTime = -1;
    /// sm_90a plain copy (a T.copy with its own mbarrier, not a T.Pipelined stage): the shared
    /// tile it fills (the viewed tile for a copy into a T.view of one), `stage` -1 and `tile` the copy's index among the copies into that buffer
    /// (0-based). Held from its expect_tx to the event that last reads the tile before the next
    /// copy into the buffer (releaseStep), else to that next copy's expect_tx; -1 when it is
    /// neither read nor refilled (held to the end). "" for a pipeline stage.
    std::string buffer = {};
    Span span = {};           ///< plain copy: the T.copy statement
};

/// One phase of one mbarrier as the schedule runs it (sm_90a): what was expected and delivered.
struct BarrierPhase {
    std::string barrier;        ///< "tma_bar[1]"
    int64_t phase = 0;          ///< 0-based phase index (parity = phase % 2)
    int64_t arrivalsExpected = 0, arrivalsDelivered = 0;
    int64_t txExpected = 0, txDelivered = 0;
    bool completed = false;
    int64_t completeTime = -1;  ///< logical time it completed; -1 never
    int64_t waits = 0;          ///< waits that observed this phase
};

/// A barrier defect found by running the schedule (a wait that would hang, a wait that passes
/// on a phase that never completed for it, bytes delivered beyond those expected, ...).
struct BarrierIssue {
    Span span;                  ///< the statement at fault (a wait, an arrive, a load)
    std::string barrier;
    std::string message;        ///< "expected 1 arrival(s) and 32768 byte(s), delivered ..."
    bool error = true;          ///< false: a warning (e.g. a phase completed but never waited for)
};

/// One bulk async-group of the elected thread (sm_90a): a TMA store or reduce-add of a shared
/// staging tile and its commit, with the waits and the barrier that retire it. Steps and times
/// are those of the issuing role (`role`); -1: never (the block exits first).
struct BulkGroup {
    int64_t group = 0;          ///< 0-based, in commit order of the elected thread
    int role = 0;               ///< index into PipelineTimeline::roles of the issuing role
    bool reduceAdd = false;     ///< tl.tma_reduce_add (else tl.tma_store)
    std::string buffer;         ///< the shared staging tile read ("dq_s", "C_local_stage")
    std::string tensor;         ///< the global tensor written ("dQ_acc", "C")
    int64_t bytes = 0;          ///< bytes of the tile
    int64_t iteration = -1;     ///< iteration of the T.Pipelined loop that issued it; -1 outside
    Span span;                  ///< the op (T.copy / T.atomic_add) that produced the store
    int64_t issueStep = -1, issueTime = -1;      ///< the TmaStore / TmaReduceAdd event
    int64_t commitStep = -1;                     ///< its BulkCommit event
    int64_t readStep = -1, readTime = -1;        ///< the BulkWait after which the tile is read out
    int64_t freeStep = -1, freeTime = -1;        ///< the first block barrier after that wait: from
                                                 ///< there every thread may rewrite the tile
    int64_t completeStep = -1, completeTime = -1;  ///< the full BulkWait: its global writes done
    /// The next write of the staging tile inside the pipelined loop (the following iteration's
    /// reuse) that this group's read wait + barrier order; -1 none.
    int64_t reuseStep = -1, reuseTime = -1, reuseIteration = -1;
    Span reuseSpan;             ///< that write's statement
};

struct PipelineTimeline {
    Span loopSpan;             ///< the T.Pipelined loop
    std::string loopVar;
    int64_t tripCount = 0;
    int64_t stages = 1;        ///< effective (1: not pipelined)
    bool async = false;        ///< producers issued ahead as cp.async
    int64_t ahead = 0;         ///< tiles the producers run ahead (S-1; S-2 with a wgmma in flight)
    bool wgmmaInflight = false;  ///< sm_90a: the gemms of an iteration stay in flight into the next
    std::vector<std::string> producers, consumers;  ///< IR statements (one line each)
    std::vector<TimelineRole> roles;
    std::vector<StageOccupancy> occupancy;
    int64_t groupsCommitted = 0;  ///< cp.async groups committed by the whole schedule
    // sm_90a (HopperTimeline.h)
    std::string schedule = "cp.async";  ///< "cp.async" | "tma" (mbarrier) | "synchronous"
    bool warpSpecialized = false;
    std::vector<BarrierPhase> barriers;  ///< every phase of every mbarrier, by barrier then phase
    std::vector<BarrierIssue> issues;    ///< barrier defects (empty: every wait is matched)
    std::vector<BulkGroup> bulkGroups;   ///< TMA stores / reduce-adds, in issue order
};

struct TimelineResult {
    std::vector<PipelineTimeline> loops;  ///< one per T.Pipelined loop, in program order
    std::vector<std::string> notes;       ///< why a loop has no timeline (symbolic trip count)
};

/// Builds the timeline of every T.Pipelined loop of `planned` (IR after plan-pipelines).
/// The role's thread count is the T.Kernel block size. `tripOverride` > 0 replaces a trip count
/// that is not a constant (T.dynamic sizes); without it such a loop is skipped with a note.
/// `inflight(loop)` true: inject-pipeline gives that loop the sm_90a schedule that keeps one
/// wgmma group in flight (xform::genericOperandInflightApplies, InjectPipelineWgmmaGeneric.cpp):
/// loads S-2 tiles ahead, tile k-2's stage released at iteration k, wgmma.wait_group after the
/// gemms (G pending, 0 in the last iteration).
TimelineResult buildPipelineTimeline(const ir::PrimFunc& planned, int64_t tripOverride = 0,
                                     const std::function<bool(const ir::ForNode&)>& inflight = {});

}  // namespace ts::analysis
