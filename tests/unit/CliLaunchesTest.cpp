// tilec on a kernel function with two T.Kernel blocks (tests/e2e/programs/sequential_kernels.py,
// CompileResult::launches): `kernels` lists the blocks, `compile` prints both launches and
// NVRTC-compiles their one translation unit, `run` checks the sequence on both interpreters
// against the float64 reference, and commands that work on one launch (bench) say so.
#include "CliTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
const std::string kFile = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/sequential_kernels.py";
}  // namespace

TEST(CliLaunches, KernelsListsTheBlocks) {
    CompileFlags f;
    f.file = kFile;
    auto o = captureCli([&] { return runKernels(f); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "launches: 2 T.Kernel blocks, run in order (lines 21, 29)")) << o.out;
}

TEST(CliLaunches, CompilePrintsEveryLaunch) {
    CompileCommand c;
    c.flags.file = kFile;
    c.flags.target = "cuda:sm_90a";
    auto o = captureCli([&] { return runCompile(c); });
    EXPECT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "2 launches in order (one per T.Kernel block)")) << o.out;
    EXPECT_TRUE(contains(o.out, "1. split_mean_0_kernel")) << o.out;
    EXPECT_TRUE(contains(o.out, "grid (4, 4, 1), 128 threads")) << o.out;
    EXPECT_TRUE(contains(o.out, "2. split_mean_1_kernel")) << o.out;
    EXPECT_TRUE(contains(o.out, "grid (4, 1, 1), 128 threads")) << o.out;
}

TEST(CliLaunches, RunChecksTheSequenceOnBothInterpreters) {
    for (const char* interp : {"tile", "lowered"}) {
        RunCommand c;
        c.flags.file = kFile;
        c.flags.target = "cuda:sm_80";
        c.flags.params = {"M=40"};
        c.interp = interp;
        c.seed = 3;
        auto o = captureCli([&] { return runRun(c); });
        EXPECT_EQ(o.rc, 0) << interp << "\n" << o.out << o.err;
        EXPECT_TRUE(contains(o.out, "2 launches in order")) << o.out;
        EXPECT_TRUE(contains(o.out, "Partial: rel-L2")) << o.out;
        EXPECT_TRUE(contains(o.out, "Centered: rel-L2")) << o.out;
        EXPECT_TRUE(contains(o.out, "PASS")) << o.out;
    }
}

TEST(CliLaunches, BenchSaysItTimesOneLaunch) {
    BenchCommand c;
    c.flags.file = kFile;
    c.flags.target = "cuda:sm_80";
    auto o = captureCli([&] { return runBench(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "'split_mean' launches 2 T.Kernel blocks in order (lines 21, 29)"))
        << o.err;
}
