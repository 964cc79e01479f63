// Shared by the sm_90a timeline tests (HopperTimelineTest.cpp, HopperTimelineStoresTest.cpp): a
// sample compiled for cuda:sm_90a (lowered IR, CUDA, and the pipeline plan after plan-pipelines)
// and its static timeline.
#pragma once
#include <map>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "CliTestUtil.h"
#include "compiler/Compile.h"
#include "compiler/analysis/HopperTimeline.h"

namespace ts::test {

struct HopperCompiled {
    ir::PrimFunc lowered;
    std::optional<analysis::PlannedLoop> planned;
    std::string cuda;
};

/// samples/`sample` compiled for cuda:sm_90a with `params` (kernel: the file's default if empty).
inline HopperCompiled compileSm90(const std::string& sample, std::map<std::string, std::string> params, const std::string& kernel = "") {
    CompileOptions opts;
    opts.params = std::move(params);
    opts.target = "cuda:sm_90a";
    opts.kernel = kernel;
    opts.recordSnapshots = false;
    HopperCompiled c;
    auto r = compile(sample, cli::test::sampleText(sample), opts);
    EXPECT_TRUE(r.ok) << sample;
    c.lowered = r.lowered;
    c.cuda = r.cuda;
    opts.stopAfter = "plan-pipelines";
    auto p = compile(sample, cli::test::sampleText(sample), opts);
    if (p.lowered) c.planned = analysis::plannedLoopOf(p.lowered);
    return c;
}

inline analysis::TimelineResult timelineOf(const HopperCompiled& c) {
    analysis::HopperTimelineOptions o;
    o.planned = c.planned;
    return c.lowered ? analysis::buildHopperTimeline(c.lowered, o) : analysis::TimelineResult{};
}

}  // namespace ts::test
