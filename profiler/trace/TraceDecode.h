// The measured timeline of `tilec trace` (issue 9, build item 3), Qt-free: decodes the stamp
// buffer an instrumented kernel wrote (format: compiler/analysis/TraceFormat.h), compares the
// measured order with the static plan (compiler/analysis/HopperTimeline.h), and writes both as
// Chrome trace JSON (Trace Event Format: {"traceEvents": [...]}, ts/dur in microseconds; Perfetto
// and chrome://tracing open it) on one time axis.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/analysis/PipelineTimeline.h"
#include "compiler/analysis/TraceFormat.h"

namespace ts::rt::trace {

struct Stamp {
    ts::trace::StampKind kind = ts::trace::StampKind::LoopBegin;
    int64_t iteration = -1;  ///< -1 outside the pipelined loop
    int64_t stage = -1;      ///< -1 none
    uint64_t globalNs = 0;   ///< %globaltimer
    uint32_t clock = 0;      ///< clock64, low 32 bits (SM cycles; differences only)
};

struct WarpStamps {
    int64_t slot = 0, block = 0, warp = 0;
    bool overflow = false;   ///< the warp reached the capacity: later stamps were dropped
    std::vector<Stamp> stamps;
};

struct DecodedTrace {
    std::vector<WarpStamps> warps;  ///< warps with at least one stamp, by slot then warp
    std::string error;              ///< non-empty: the buffer does not have the expected size/content
};

/// Decodes `words` (the int32 trace tensor as the worker returns it: one double per word) of
/// `blocks.size()` slots x `warps` warps x regionWords(capacity).
DecodedTrace decodeTrace(std::span<const double> words, const std::vector<int64_t>& blocks, int64_t warps, int64_t capacity);

/// Thread 0's measured sequence against the static plan's role that holds thread 0: the plan's
/// expect_tx (stage), mbarrier waits (stage, iteration) and wgmma issues (iteration) in order vs
/// warp 0's Issue / WaitEnd / MmaBegin stamps, for every traced block.
struct OrderCheck {
    bool match = false;
    int64_t compared = 0;       ///< events compared per block
    std::string detail;         ///< first difference, or "match"
    std::vector<std::string> expected, measured;  ///< tokens of the first block ("wait s0 k1", ...)
};
OrderCheck compareWithPlan(const DecodedTrace& t, const analysis::PipelineTimeline& plan);

struct ChromeTraceInfo {
    std::string file, kernel, arch;
    nlohmann::json otherData = nlohmann::json::object();  ///< merged into "otherData"
};

/// Chrome trace JSON: one process per traced block (a thread per warp: waits and wgmma as
/// complete "X" events, issue/release as instants "i"), and a process "static plan" (a thread per
/// role) whose logical units are scaled so the plan spans warp 0's measured loop of the first
/// block, starting where it starts: the plan and the measurement on the same axis.
nlohmann::json chromeTrace(const DecodedTrace& t, const analysis::PipelineTimeline* plan, const ChromeTraceInfo& info);

}  // namespace ts::rt::trace
