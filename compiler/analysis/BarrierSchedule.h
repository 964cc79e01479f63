// Runs the per-role traces of the sm_90a schedule (built by HopperTimeline.cpp from the lowered
// IR) together against the PTX mbarrier and bar.sync rules, as a discrete-event schedule with
// unit-cost events: gives each visible event its logical time and the phase it fed/observed
// (bulk-group waits of TMA stores pass once their groups' reads or writes are done),
// every barrier phase its expected vs delivered arrivals and bytes, and the barrier defects
// (HopperTimeline.h lists them). Separate from the IR walk so the rules can be tested on
// hand-written traces.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/analysis/PipelineTimeline.h"

namespace ts::analysis::barriers {

enum class Op {
    Event,         ///< no synchronization (compute, wgmma, release): unit cost
    Init,          ///< mbarrier.init of `bar` with `count` arrivals per phase (hidden)
    ExpectTx,      ///< one arrival + `bytes` expected on `bar`
    ExpectBytes,   ///< `bytes` expected on `bar`, no arrival (hand-written T.mbarrier_expect_tx:
                   ///< its bytes per thread times the threads that execute it)
    TmaLoad,       ///< `bytes` land on `bar` tmaLatency units later
    Arrive,        ///< `count` arrivals (the role's threads) on `bar`
    Wait,          ///< wait for parity `parity` of `bar`
    ThreadBarrier, ///< bar.sync `barrierId` for `count` threads (0 = every thread of the block)
    BulkCommit,    ///< cp.async.bulk.commit_group of the role's elected thread after a TMA store
                   ///< or reduce-add: the group's reads of shared memory finish tmaLatency units
                   ///< later, its global writes tmaLatency units after that
    BulkWait,      ///< cp.async.bulk.wait_group[.read] `count`: waits until at most `count` of the
                   ///< role's groups are pending (`read`: their reads only)
};

struct TraceOp {
    Op op = Op::Event;
    std::string bar;         ///< barrier key and display name ("tma_bar[1]")
    int64_t count = 0, bytes = 0, parity = 0, barrierId = 0;
    bool read = false;       ///< BulkWait: the .read form
    int event = -1;          ///< index of the visible event in the role's events; -1 none
    Span span;
};

struct RoleTrace {
    TimelineRole role;            ///< name, threads, visible events (times filled in)
    std::vector<TraceOp> ops;     ///< program order
};

/// Executes `roles` (all threads of the block: sum of role threads = block threads) and fills
/// each visible event's `time` and `phase`, `out.barriers` and `out.issues`.
void runSchedule(std::vector<RoleTrace>& roles, int64_t tmaLatency, PipelineTimeline& out);

}  // namespace ts::analysis::barriers
