// Kernel functions with several `with T.Kernel` blocks (compiler/KernelLaunches.h,
// tests/e2e/programs/sequential_kernels.py): each block becomes a launch of its own, the
// launches run in order on the same tensors (launch 2 reads what launch 1 wrote), both
// interpreters match the float64 reference, and the one translation unit holding both kernels
// compiles with NVRTC for sm_80 and sm_90a. Grids are hand-derived from the programs:
// split_mean M=64, block_M=16, splits=4 -> launch 1 grid (4, 4), launch 2 grid (4).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

const std::string kPath = "tests/e2e/programs/sequential_kernels.py";

ts::CompileResult compileKernel(const std::string& kernel, const char* target,
                                std::map<std::string, std::string> params = {}) {
    ts::CompileOptions opts;
    opts.kernel = kernel;
    opts.target = target;
    opts.params = std::move(params);
    return ts::compile(kPath, ts::e2e::readRepoFile(kPath), opts);
}

std::vector<std::string> outputNames(const ts::KernelInfo& k) {
    std::vector<std::string> out;
    for (auto& a : k.args)
        if (a.isOutput) out.push_back(a.name);
    return out;
}

TEST(SequentialKernels, KernelsListsBothBlocksOfEachFunction) {
    auto kernels = ts::listKernels(kPath, ts::e2e::readRepoFile(kPath));
    ASSERT_EQ(kernels.size(), 2u);
    EXPECT_EQ(kernels[0].name, "split_mean");
    EXPECT_EQ(kernels[0].kernelBlockLines, (std::vector<uint32_t>{21, 29}));
    EXPECT_EQ(kernels[1].name, "split_mean_ws");
    EXPECT_EQ(kernels[1].kernelBlockLines.size(), 2u);
}

TEST(SequentialKernels, EachBlockIsALaunchInProgramOrder) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        auto r = compileKernel("split_mean", target);
        ASSERT_TRUE(r.ok) << target << "\n" << ts::e2e::diagText(r);
        ASSERT_EQ(r.launches.size(), 2u);
        const auto& k1 = r.launches[0].kernel;
        const auto& k2 = r.launches[1].kernel;
        EXPECT_EQ(k1.name, "split_mean_0_kernel");
        EXPECT_EQ(k2.name, "split_mean_1_kernel");
        EXPECT_EQ((std::vector<unsigned>{k1.grid[0], k1.grid[1], k1.grid[2]}),
                  (std::vector<unsigned>{4, 4, 1}));
        EXPECT_EQ((std::vector<unsigned>{k2.grid[0], k2.grid[1], k2.grid[2]}),
                  (std::vector<unsigned>{4, 1, 1}));
        EXPECT_EQ(k1.block[0], 128u);
        EXPECT_EQ(r.launches[0].elaborated->span.line, 21u);
        EXPECT_EQ(r.launches[1].elaborated->span.line, 29u);
        // The function's outputs (no out_idx: every written tensor); launch 1 hands Partial on.
        EXPECT_EQ(outputNames(r.kernel), (std::vector<std::string>{"Partial", "Centered"}));
        EXPECT_EQ(outputNames(k1), (std::vector<std::string>{"Partial", "Centered"}));
        // One translation unit with both kernels, its preamble once.
        EXPECT_NE(r.cuda.find("split_mean_0_kernel("), std::string::npos);
        EXPECT_NE(r.cuda.find("split_mean_1_kernel("), std::string::npos);
        EXPECT_EQ(r.cuda.find("ts_floordiv(int a"), r.cuda.rfind("ts_floordiv(int a"));
        EXPECT_EQ(r.cudaLineSpans.size(),
                  size_t(std::count(r.cuda.begin(), r.cuda.end(), '\n')));
        for (auto& l : r.launches) EXPECT_EQ(l.cuda, r.cuda);
        if (!ts::rt::nvrtcAvailable()) continue;
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

TEST(SequentialKernels, WorkspaceArgumentIsHandedOnButNotAnOutput) {
    auto r = compileKernel("split_mean_ws", "cuda:sm_80");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ASSERT_EQ(r.launches.size(), 2u);
    EXPECT_EQ(outputNames(r.kernel), (std::vector<std::string>{"Centered"}));
    // Launch 1 writes Partial (out_idx=[-1] leaves it an argument): the GPU run downloads it
    // after launch 1 and uploads it for launch 2.
    EXPECT_EQ(outputNames(r.launches[0].kernel), (std::vector<std::string>{"Partial", "Centered"}));
    EXPECT_EQ(outputNames(r.launches[1].kernel), (std::vector<std::string>{"Centered"}));
}

struct Case {
    std::string kernel, ref;
    std::map<std::string, std::string> params;
    std::string label;
};

class SequentialKernelsRun : public ::testing::TestWithParam<Case> {};

TEST_P(SequentialKernelsRun, BothInterpretersMatchTheFloat64Reference) {
    const Case& c = GetParam();
    auto r = compileKernel(c.kernel, "cuda:sm_80", c.params);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ASSERT_EQ(r.launches.size(), 2u);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, c.label, c.ref));
}

INSTANTIATE_TEST_SUITE_P(
    Programs, SequentialKernelsRun,
    ::testing::Values(Case{"split_mean", "ref_program", {}, "split_mean"},
                      // 40 rows: the last row tile of both launches is ragged (OOB rows skipped).
                      Case{"split_mean", "ref_program", {{"M", "40"}}, "split_mean_ragged"},
                      Case{"split_mean_ws", "ws_ref", {}, "workspace"}),
    [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

}  // namespace
