// The test programs of the timeline's barrier model (tests/e2e/programs/timeline_*.py, checked by
// HopperTimelineStores.NestedPipelineAndConditionalCopyHaveNoFalseBarrierFindings) and the view
// outputs program compute what their references say on both interpreters, and their generated
// code compiles with NVRTC for sm_80 and sm_90a.
#include <gtest/gtest.h>

#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kPrograms[] = {"tests/e2e/programs/timeline_nested_pipeline.py", "tests/e2e/programs/timeline_conditional_copy.py",
                           "tests/e2e/programs/timeline_copy_twice.py", "tests/e2e/programs/global_view_outputs.py"};

TEST(TimelinePrograms, BothInterpretersMatchFloat64OnSm90a) {
    for (const char* p : kPrograms) {
        ts::CompileOptions opts;
        opts.target = "cuda:sm_90a";
        ts::CompileResult r = ts::compile(p, ts::e2e::readRepoFile(p), opts);
        ASSERT_TRUE(r.ok) << p << "\n" << ts::e2e::diagText(r);
        ts::e2e::expectInterpretersMatchReference(r, p);
    }
}

TEST(TimelinePrograms, CompileWithNvrtcForSm80AndSm90a) {
    for (const char* p : kPrograms) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(p, {});
}

}  // namespace
