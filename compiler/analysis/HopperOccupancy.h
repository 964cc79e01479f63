// The occupancy rows of a Hopper timeline (buildHopperTimeline's last step, HopperOccupancy.cpp):
// for each TMA-loaded stage tile issued -> landed -> released, and for each plain T.copy's tile in
// its shared buffer the same, released at its last read before the next copy into the buffer.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/analysis/PipelineTimeline.h"

namespace ts::analysis {

/// A plain copy's tile in its shared buffer as the role that issued it walked it: steps of that
/// role (-1: the event did not happen), the copy statement's span.
struct PlainCopyTile {
    std::string buffer, barrier;
    int64_t tile = 0, issueStep = -1, landedStep = -1, lastRead = -1, releaseStep = -1;
    Span span;
    size_t role = 0;  ///< index into PipelineTimeline::roles
};

/// Appends to t.occupancy: stage tiles from the roles' ExpectTx / MbarWait / Release events (on
/// barriers `plainBar` says are not a plain copy's), then the `plain` copies' tiles. Times are the
/// events' logical times, so BarrierSchedule must have run.
void fillOccupancy(PipelineTimeline& t, const std::function<bool(const std::string&)>& plainBar, const std::vector<PlainCopyTile>& plain);

}  // namespace ts::analysis
