// The static pipeline timeline of a compiled kernel (issue 9), for callers that hold a
// CompileResult: the IDE's Timeline and Barrier panels. One place decides which schedule model
// applies, as `tilec timeline` does (app/cli/CmdTimeline.cpp): on an sm_90 target a kernel with a
// TMA + mbarrier schedule is read from the lowered IR (analysis/HopperTimeline.h, with its
// barrier phases and the static barrier check); otherwise the cp.async plan is read from the IR
// after plan-pipelines (analysis/PipelineTimeline.h), which needs a second compile that stops
// there. Never throws; a program without a pipeline gives an empty result with a note.
#pragma once
#include <string>

#include "compiler/Compile.h"
#include "compiler/analysis/PipelineTimeline.h"

namespace ts {

/// What staticTimeline found, with the reason when there is nothing to show.
struct StaticTimeline {
    analysis::TimelineResult timeline;
    std::string model;    ///< "tma" (sm_90a mbarrier schedule), "cp.async" (plan-pipelines), "" none
    std::string reason;   ///< non-empty when `timeline.loops` is empty: why (one sentence)
};

/// Timeline of the kernel `whole` is the compile of (`path`, `text` and `opts`: the same
/// arguments compile() got; opts.target picks the model). `whole` must be a finished compile;
/// a failed one, or one with several launches, gives an empty timeline with the reason.
/// `cancel` (may be null) is polled by the second compile.
StaticTimeline staticTimeline(const std::string& path, const std::string& text, CompileOptions opts,
                              const CompileResult& whole);

/// The cp.async timeline of `planned` (the IR after plan-pipelines) for `target` ("cuda:sm_90a",
/// ...): analysis::buildPipelineTimeline with the sm_90a loops whose gemms read a tile the body
/// writes (InjectPipelineWgmmaGeneric.cpp) drawn with their in-flight schedule.
analysis::TimelineResult cpAsyncTimeline(const ir::PrimFunc& planned, const std::string& target, int64_t tripOverride = 0);

}  // namespace ts
