// Issue 9's pipeline matrix without a GPU: tests/e2e/programs/pipeline_matrix_plain.py (a
// GEMM-like T.Pipelined loop; sm_90a: TMA + mbarrier + wgmma, sm_80: cp.async + mma.sync) and
// pipeline_matrix_ws.py (the warp-specialized form TileLang users write: producer/consumer
// T.ws roles over a ring of `stages` slots with full/empty mbarriers and T.tma_copy) at trip
// counts 1, 2, 3 x stages 1, 2, 3, on both interpreters against float64 (a missing wait shows
// as a race or deadlock in the thread-level interpreter), NVRTC for sm_90a (and sm_80 for the
// plain variant; T.tma_copy on sm_80 is a diagnostic at the call). The GPU run of all 18 under
// a watchdog is bench/h200_pipeline_matrix.sh.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

struct Case {
    bool ws;
    int trips, stages;
};

class PipelineMatrix : public ::testing::TestWithParam<Case> {};

TEST_P(PipelineMatrix, InterpretersMatchFloat64AndNvrtcCompiles) {
    const Case& c = GetParam();
    const std::string file = std::string("tests/e2e/programs/pipeline_matrix_") + (c.ws ? "ws" : "plain") + ".py";
    const std::string label = file + " trips=" + std::to_string(c.trips) + " stages=" + std::to_string(c.stages);
    const std::string text = ts::e2e::readRepoFile(file);
    ASSERT_FALSE(text.empty()) << file;
    for (const char* target : {"cuda:sm_90a", "cuda:sm_80"}) {
        ts::CompileOptions opts;
        opts.params = {{"trips", std::to_string(c.trips)}, {"stages", std::to_string(c.stages)}};
        opts.target = target;
        opts.recordSnapshots = false;
        ts::CompileResult r = ts::compile(file, text, opts);
        if (c.ws && std::string(target) == "cuda:sm_80") {
            ASSERT_FALSE(r.ok);
            EXPECT_NE(ts::e2e::diagText(r).find("T.tma_copy: TMA transfers need sm_90"), std::string::npos) << ts::e2e::diagText(r);
            continue;
        }
        ASSERT_TRUE(r.ok) << label << " " << target << "\n" << ts::e2e::diagText(r);
        if (!c.ws && std::string(target) == "cuda:sm_90a") {
            EXPECT_NE(r.cuda.find("ts::tma_load_tile<"), std::string::npos) << label;
            EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<"), std::string::npos) << label;
        }
        if (c.ws) EXPECT_NE(r.cuda.find("ts::mbarrier_wait("), std::string::npos) << label;
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, label + " " + target));
        if (!ts::rt::nvrtcAvailable()) continue;
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << label << " " << target << "\n" << nv.log;
    }
}

std::vector<Case> cases() {
    std::vector<Case> out;
    for (bool ws : {false, true})
        for (int trips : {1, 2, 3})
            for (int stages : {1, 2, 3}) out.push_back({ws, trips, stages});
    return out;
}

INSTANTIATE_TEST_SUITE_P(E2E, PipelineMatrix, ::testing::ValuesIn(cases()));

}  // namespace
