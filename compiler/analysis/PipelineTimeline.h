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
//
// A loop without async producers (num_stages <= 1, or every copy kept synchronous by
// plan-pipelines) is one row per iteration of its statements in order.
// Warp roles: the sm_80 schedule is not warp-specialized, so there is one role "all warps".
// The sm_90a producer/consumer (TMA + mbarrier + wgmma) plan is not recorded in the IR yet; when
// it is, its roles become more rows of the same model.
// Units: `step` is an ordinal position in program order of the role (not time); iteration k is
// the 0-based trip index of the loop; stages are 0..S-1; cp.async groups are counted per thread
// from 0 in commit order.
#pragma once
#include <cstdint>
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
    std::string buffer;     ///< shared tile written (copies) or read (mma), "" none
    std::string label;      ///< short text: "issue A_shared[k=3] -> stage 0"
    std::string irStmt;     ///< the IR statement (printed, one line) the event comes from
    int bodyIndex = -1;     ///< index of that statement in the loop body; -1 for intrinsics
    Span span;              ///< source span: the statement's, or the loop's for waits/barriers
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
};

struct PipelineTimeline {
    Span loopSpan;             ///< the T.Pipelined loop
    std::string loopVar;
    int64_t tripCount = 0;
    int64_t stages = 1;        ///< effective (1: not pipelined)
    bool async = false;        ///< producers issued ahead as cp.async
    std::vector<std::string> producers, consumers;  ///< IR statements (one line each)
    std::vector<TimelineRole> roles;
    std::vector<StageOccupancy> occupancy;
    int64_t groupsCommitted = 0;  ///< cp.async groups committed by the whole schedule
};

struct TimelineResult {
    std::vector<PipelineTimeline> loops;  ///< one per T.Pipelined loop, in program order
    std::vector<std::string> notes;       ///< why a loop has no timeline (symbolic trip count)
};

/// Builds the timeline of every T.Pipelined loop of `planned` (IR after plan-pipelines).
/// The role's thread count is the T.Kernel block size. `tripOverride` > 0 replaces a trip count
/// that is not a constant (T.dynamic sizes); without it such a loop is skipped with a note.
TimelineResult buildPipelineTimeline(const ir::PrimFunc& planned, int64_t tripOverride = 0);

}  // namespace ts::analysis
