// A measured intra-kernel timeline as the IDE reads it (issue 9, no Qt): the Chrome trace JSON
// that `tilec trace` writes (profiler/trace/TraceDecode.h, otherData.format
// "tilescope-trace/1"), reduced to what the Timeline panel draws -- per traced warp its waits and
// wgmma as intervals and its issue/release stamps as instants, in microseconds -- plus the scale
// that puts the static plan on the same axis (the plan process's events: ts = origin + time *
// unit_us). Other Chrome traces (no "tilescope-trace/1") are refused with a reason.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts::viz {

struct MeasuredSpan {
    double startUs = 0, durUs = 0;  ///< durUs == 0: an instant
    std::string name;               ///< "wait stage 1 k=4", "wgmma k=4", "issue stage 0", "release"
    int64_t iteration = -1, stage = -1;
    int64_t cycles = -1;            ///< SM clock cycles of an interval; -1 unknown
};

struct MeasuredWarp {
    int64_t block = 0, warp = 0;
    std::vector<MeasuredSpan> spans;  ///< in trace order (the loop interval excluded)
};

struct MeasuredTrace {
    std::string file, kernel, arch, device;
    int64_t tripCount = -1, stages = -1;  ///< of the plan the trace was taken with; -1 unknown
    bool aligned = false;      ///< the plan's units were scaled onto the measured loop
    double unitUs = 0;         ///< microseconds per logical plan unit (aligned only)
    double originUs = 0;       ///< microseconds of plan time 0 (aligned only)
    std::vector<MeasuredWarp> warps;  ///< by block then warp
};

/// Parses `json` (the text of a `tilec trace` output file); nullopt with `error` set when it is
/// not JSON or not a tilescope trace.
std::optional<MeasuredTrace> parseMeasuredTrace(const std::string& json, std::string* error);

}  // namespace ts::viz
