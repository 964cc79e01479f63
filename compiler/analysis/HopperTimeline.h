// Static timeline and barrier check of the sm_90a schedule (issue 9, build items 2 and 4): the
// TMA + mbarrier + wgmma plan of inject-pipeline (InjectPipelineTma.cpp, InjectPipelineTmaFragment.cpp)
// and warp-specialize, read from the fully lowered IR, where it is final (the stage a refill
// writes, the parity a wait names, the bytes an expect_tx announces are all IR expressions there).
//
// How: the kernel body is run symbolically for one block (blockIdx = `block`) and one
// representative thread per warp role — "all warps" (thread 0, which is also the elected thread)
// or, when warp-specialize split the block, "producer" (the elected thread C) and "consumer"
// (thread 0, C threads). Loops and ifs around the sm_90a intrinsics are evaluated with their
// loop variables bound (their bounds must be constants for that block); other statements of the
// pipelined loop are one Compute event each. Each role's events are then executed together as a
// discrete-event schedule with unit-cost events against the PTX mbarrier rules (§9.7.13.15): a
// phase completes when its arrivals reach the init count and its transaction bytes balance; a
// wait on parity p passes once the barrier's current phase parity differs from p; TMA bytes land
// `tmaLatency` units after their issue; bar.sync waits for its thread count. That gives every
// event a logical time, every barrier phase its arrivals and bytes (expected vs delivered), the
// stage occupancy (a plain T.copy's tile -- its own "tma_copy_bar" mbarrier, CopyTma.cpp -- is
// no stage: it is held in its buffer from its expect_tx to the event that last reads it before
// the next copy into that buffer, else to that copy's issue), and the defects as diagnostics
// instead of hangs:
//   - a wait whose phase never completes (missing arrival, missing/short bytes, wrong parity that
//     waits for a phase nobody feeds), or a named barrier short of threads: a deadlock, reported
//     at the wait with the barrier, its phase, expected vs delivered;
//   - a wait that passes without a new phase for it (no phase completed yet, or the one it
//     already observed): it would read data that has not landed (parity off by one);
//   - more arrivals or bytes in a phase than it expects; a phase with bytes left incomplete or
//     never waited for at kernel exit.
// TMA stores and reduce-adds (tl.tma_store / tl.tma_reduce_add from CopyTma.cpp, T.copy of a
// shared tile to global memory, the staged epilogue of StageEpilogue.cpp, T.atomic_add(...,
// use_tma=True)) are events of the elected thread's role too: the transfer, its
// cp.async.bulk.commit_group (bulk group g, counted per thread from 0) and the
// cp.async.bulk.wait_group[.read] n that retires all groups but the n newest (PTX ISA §9.7.9.27).
// A group's reads of its staging tile finish `tmaLatency` units after its commit and its global
// writes `tmaLatency` later; a wait passes when the groups it needs are done. Each group
// (PipelineTimeline::bulkGroups) records its read wait, the first block barrier after it (from
// there every thread may rewrite the tile) and, inside the pipelined loop, the next write of the
// tile that they order. Defects reported with the barrier ones: a rewrite of the staging tile
// before its group's read wait and that barrier, and a group no wait retires before the block
// exits (an error; a warning when only its .read wait is there).
// Units: `time` is logical (one unit per event), not cycles; trip counts are concrete, so the
// check covers the paths of that launch (trip count 1 included: run it with that size).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/analysis/PipelineTimeline.h"

namespace ts::analysis {

/// The T.Pipelined loop as planned (before inject-pipeline): simplify removes a loop of one
/// iteration from the lowered IR, so its span, variable and trip count come from here then.
struct PlannedLoop {
    Span span;
    std::string var;
    int64_t trips = 0;
    uint32_t lastBodyLine = 0;  ///< last source line of a statement of its body
};
/// The first T.Pipelined loop of `planned` (IR after plan-pipelines), if any.
std::optional<PlannedLoop> plannedLoopOf(const ir::PrimFunc& planned);

struct HopperTimelineOptions {
    std::vector<int64_t> block;  ///< blockIdx (x, y, z) of the block modelled; missing = 0
    int64_t tmaLatency = 4;      ///< logical units from a TMA issue to its bytes landing
    int64_t maxEvents = 200000;  ///< per role; a longer run stops with a note
    /// The planned loop: with one iteration (no loop left in the lowered IR), the events from
    /// the first consumer wait up to the loop body's last line are its iteration 0.
    std::optional<PlannedLoop> planned;
};

/// Timeline of the kernel of `lowered` (IR after every pass, target sm_90a): one entry per kernel
/// that uses mbarriers or TMA (its T.Pipelined loop's span and trip count when it has one, attr
/// "tma_pipeline"), with roles, barrier phases, occupancy and barrier issues. Empty `loops`
/// when the kernel has no sm_90a barrier schedule (the cp.async model applies then).
TimelineResult buildHopperTimeline(const ir::PrimFunc& lowered, const HopperTimelineOptions& opts = {});

}  // namespace ts::analysis
