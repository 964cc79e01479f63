// Autotune drivers (frontend/AutotuneDrivers.h, ProgramKernels.cpp): functions that build or run
// a TileLang AutoTuner are listed as what they are, not as kernels, and stay selectable; their
// tuned kernel compiles at the tuner's first config (block_M=16, threads=64 in
// tests/e2e/programs/autotune_drivers.py) and matches its float64 reference on both
// interpreters; NVRTC compiles each for sm_80 and sm_90a.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

const char* kDrivers = "tests/e2e/programs/autotune_drivers.py";

ts::CompileResult compileKernel(const std::string& kernel, const std::string& target = "cuda:sm_80") {
    ts::CompileOptions opts;
    opts.target = target;
    opts.kernel = kernel;
    return ts::compile(kDrivers, ts::e2e::readRepoFile(kDrivers), opts);
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(AutotuneDrivers, BuildersAreListedAsDriversAndRunnersUnderTheirBuilder) {
    std::vector<ts::Diagnostic> diags;
    auto ks = ts::listKernels(kDrivers, ts::e2e::readRepoFile(kDrivers), &diags);
    EXPECT_TRUE(diags.empty());
    ASSERT_EQ(ks.size(), 4u);
    EXPECT_EQ(ks[0].name, "scale");
    EXPECT_EQ(ks[0].pattern, "factory");
    EXPECT_TRUE(ks[0].autotuner.empty());
    EXPECT_TRUE(ks[0].isDefault);  // the kernel, not a driver, is what a plain compile takes

    EXPECT_EQ(ks[1].name, "get_best_config");
    EXPECT_EQ(ks[1].pattern, "autotuner");
    EXPECT_EQ(ks[1].primFuncName, "plus_one");
    EXPECT_EQ(ks[1].autotuner,
              "autotune driver, not a kernel itself: builds an AutoTuner over 'kernel' "
              "(AutoTuner.from_kernel, line 37) and runs it; TileScope compiles the tuned kernel "
              "at the tuner's first config");
    EXPECT_TRUE(ks[1].tunerRunners.empty());
    EXPECT_FALSE(ks[1].isDefault);

    EXPECT_EQ(ks[2].name, "build_tuner");
    EXPECT_EQ(ks[2].pattern, "autotuner");
    EXPECT_TRUE(has(ks[2].autotuner, "builds an AutoTuner over 'kernel' (AutoTuner.from_kernel, line 52);"))
        << ks[2].autotuner;  // returns the tuner, does not run it
    EXPECT_EQ(ks[2].tunerRunners, (std::vector<std::string>{"tune_and_time (line 56)"}));
    EXPECT_EQ(ks[2].params, (std::vector<std::string>{"M", "N"}));

    // tune_and_time only runs build_tuner's tuner: a driver of the same kernel, with its own
    // parameters.
    EXPECT_EQ(ks[3].name, "tune_and_time");
    EXPECT_EQ(ks[3].pattern, "autotuner");
    EXPECT_EQ(ks[3].autotuner,
              "autotune driver, not a kernel itself: runs the AutoTuner that 'build_tuner' (line "
              "41) builds; TileScope compiles the tuned kernel at the tuner's first config");
    EXPECT_EQ(ks[3].params, (std::vector<std::string>{"M", "N", "warmup"}));
}

TEST(AutotuneDrivers, EachCompilesItsTunedKernelAtTheFirstConfigAndMatches) {
    struct Case {
        const char* kernel;
        const char* ref;
        unsigned grid;  // M / block_M at the first config (block_M=16)
        unsigned block;
    };
    for (const Case& c : {Case{"scale", "ref_program", 2, 128}, Case{"get_best_config", "ref_plus_one", 4, 64},
                          Case{"build_tuner", "ref_times_three", 6, 64},
                          Case{"tune_and_time", "ref_times_three", 6, 64}}) {
        ts::CompileResult r = compileKernel(c.kernel);
        ASSERT_TRUE(r.ok) << c.kernel << "\n" << ts::e2e::diagText(r);
        ASSERT_NE(r.selected(), nullptr);
        EXPECT_EQ(r.selected()->name, c.kernel);
        EXPECT_EQ(r.kernel.grid[0], c.grid) << c.kernel;
        EXPECT_EQ(r.kernel.block[0], c.block) << c.kernel;
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, c.kernel, c.ref));
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult t = compileKernel(c.kernel, target);
            ASSERT_TRUE(t.ok) << c.kernel << " " << target << "\n" << ts::e2e::diagText(t);
            if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
            auto nv = ts::rt::compileCuda(t.cuda, ts::parseTarget(target)->arch(), {}, true);
            EXPECT_TRUE(nv.ok) << c.kernel << " " << target << "\n" << nv.log;
        }
    }
}

TEST(AutotuneDrivers, ARunnerPassesItsOwnParametersToTheTunerItRuns) {
    // tune_and_time(M=...) calls build_tuner(M, N): its M decides the tuned kernel's rows.
    ts::CompileOptions opts;
    opts.kernel = "tune_and_time";
    opts.params = {{"M", "160"}, {"warmup", "5"}};
    ts::CompileResult r = ts::compile(kDrivers, ts::e2e::readRepoFile(kDrivers), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.kernel.grid[0], 10u);  // 160 rows / block_M 16
    EXPECT_EQ(r.kernel.args[0].shape, (std::vector<int64_t>{160, 32}));
}
