// Every kernel of tests/e2e/programs/multi_kernel.py end to end (DESIGN.md §2b): selected by
// name, it runs on the tile interpreter and on the thread-level interpreter of its lowered IR
// against its own float64 reference (the module-level ref_program, a reference nested in a test
// function, or a module-level one with a non-tensor parameter taken from the factory), and its
// CUDA compiles with NVRTC for sm_80 and sm_90a.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

struct Case {
    std::string kernel, ref;
    std::map<std::string, std::string> params;
    std::string label;
};

class MultiKernelProgram : public ::testing::TestWithParam<Case> {};

TEST_P(MultiKernelProgram, EachKernelMatchesItsReferenceAndCompilesForBothTargets) {
    const Case& c = GetParam();
    const std::string path = "tests/e2e/programs/multi_kernel.py";
    const std::string text = ts::e2e::readRepoFile(path);
    ASSERT_FALSE(text.empty());
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.kernel = c.kernel;
        opts.params = c.params;
        opts.target = target;
        ts::CompileResult r = ts::compile(path, text, opts);
        ASSERT_TRUE(r.ok) << target << "\n" << ts::e2e::diagText(r);
        ASSERT_NE(r.selected(), nullptr);
        EXPECT_EQ(r.selected()->name, c.kernel);
        EXPECT_EQ(r.kernel.name, c.kernel + "_kernel");
        if (std::string(target) == "cuda:sm_80") {
            ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, c.label, c.ref));
        }
        if (!ts::rt::nvrtcAvailable()) continue;
        auto t = ts::parseTarget(target);
        auto nv = ts::rt::compileCuda(r.cuda, t->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << c.label << " " << target << "\n" << nv.log;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, MultiKernelProgram,
    ::testing::Values(Case{"affine_fwd", "ref_program", {}, "affine_fwd"},
                      Case{"affine_fwd", "ref_program", {{"M", "96"}, {"block_M", "32"}}, "fwd_96"},
                      Case{"row_mean", "run_row_mean.ref_program", {}, "row_mean"},
                      Case{"row_mean", "run_row_mean.ref_program", {{"N", "32"}}, "row_mean_n32"},
                      Case{"scale_cols", "scale_ref", {}, "scale_full"},
                      Case{"scale_cols", "scale_ref", {{"halve", "True"}}, "scale_half"}),
    [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

}  // namespace
