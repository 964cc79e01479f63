// tilec on a program with several kernels (app/cli/CmdKernels.cpp, CliCommon, CliReference):
// `tilec kernels`, `compile --kernel all`, `run --kernel NAME --ref PATH` on the tile
// interpreter against the float64 reference, the pragma's @kernel/@ref, and the error texts.
#include "CliTestUtil.h"
#include "profiler/cuda/Nvrtc.h"
#include "profiler/hip/Hiprtc.h"
#include "tests/support/SourceDir.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
const std::string kProgram = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/multi_kernel.py";

RunCommand interpRun(const std::string& kernel, const std::string& ref = {},
                     const std::string& file = kProgram) {
    RunCommand c;
    c.flags.file = file;
    c.flags.kernel = kernel;
    c.flags.target = "cuda:sm_80";
    c.interp = "tile";
    c.seed = 11;
    c.ref = ref;
    return c;
}

std::string programText() {
    std::ifstream in(kProgram);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
}  // namespace

TEST(CliKernels, ListsKernelsWithDefaultAndParams) {
    CompileFlags f;
    f.file = kProgram;
    auto o = captureCli([&] { return runKernels(f); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, ": 3 kernels\n")) << o.out;
    EXPECT_TRUE(contains(o.out, "affine_fwd")) << o.out;
    EXPECT_TRUE(contains(o.out, "(default)")) << o.out;
    EXPECT_TRUE(contains(o.out, "      prim_func: rows\n      params: M N block_M threads\n"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "      params: M N block_N halve\n")) << o.out;
    EXPECT_FALSE(contains(o.out, "run_row_mean")) << o.out;  // a test helper, not a kernel
    // compile --list-kernels is the same listing.
    CompileCommand c;
    c.flags.file = kProgram;
    c.listKernels = true;
    EXPECT_EQ(captureCli([&] { return runKernels(c.flags); }).out, o.out);
}

TEST(CliKernels, CompileAllReportsEachKernel) {
    CompileCommand c;
    c.flags.file = kProgram;
    c.flags.kernel = "all";
    c.flags.target = "cuda:sm_80";
    c.flags.params = {"halve=True", "block_M=64"};  // each goes to the kernels that have it
    c.noNvrtc = true;
    auto o = captureCli([&] { return runCompileAll(c); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "affine_fwd_kernel: grid (4, 1, 1), 128 threads")) << o.out;
    EXPECT_TRUE(contains(o.out, "row_mean_kernel: grid (2, 1, 1), 128 threads")) << o.out;
    EXPECT_TRUE(contains(o.out, "scale_cols_kernel: grid (8, 1, 1), 128 threads")) << o.out;
    EXPECT_TRUE(contains(o.out, "3 of 3 kernels compiled")) << o.out;
    // A --param no kernel has is an error naming every kernel's parameters.
    c.flags.params = {"blockM=64"};
    auto bad = captureCli([&] { return runCompileAll(c); });
    EXPECT_EQ(bad.rc, 1);
    EXPECT_TRUE(contains(bad.err, "--param blockM: no kernel of")) << bad.err;
    EXPECT_TRUE(contains(bad.err, "row_mean(M, N, block_M, threads)")) << bad.err;
}

TEST(CliKernels, CompileAllForHipChecksEachKernelWithHiprtc) {
    // hip:gfx90a: every kernel's HIP is compiled by hiprtc for gfx90a (not NVRTC), named so.
    std::string why;
    if (!ts::rt::hiprtcAvailable(&why)) GTEST_SKIP() << why;
    CompileCommand c;
    c.flags.file = kProgram;
    c.flags.kernel = "all";
    c.flags.target = "hip:gfx90a";
    auto o = captureCli([&] { return runCompileAll(c); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "3 of 3 kernels compiled")) << o.out;
    EXPECT_TRUE(contains(o.out, "hiprtc gfx90a")) << o.out;
    EXPECT_FALSE(contains(o.out + o.err, "NVRTC")) << o.out << o.err;
}

TEST(CliKernels, CompileAllPrintsPtxasFiguresPerKernel) {
    // As `tilec compile` does for one kernel: ptxas's registers, spills and barriers after each
    // kernel's line, on a fresh compile and on a cache hit alike (hiprtc above prints none).
    std::string why;
    if (!ts::rt::nvrtcAvailable(&why)) GTEST_SKIP() << why;
    CompileCommand c;
    c.flags.file = kProgram;
    c.flags.kernel = "all";
    c.flags.target = "cuda:sm_90a";
    for (bool noCache : {true, false}) {
        c.noCache = noCache;
        auto o = captureCli([&] { return runCompileAll(c); });
        EXPECT_EQ(o.rc, 0) << o.err;
        for (const char* k : {"affine_fwd_kernel", "row_mean_kernel", "scale_cols_kernel"})
            EXPECT_TRUE(contains(o.out, std::string("ptxas sm_90a: ") + k + ": ")) << k << "\n" << o.out;
        EXPECT_TRUE(contains(o.out, " registers, no spills, ")) << o.out;
        EXPECT_TRUE(contains(o.out, "3 of 3 kernels compiled")) << o.out;
    }
}

TEST(CliKernels, CompileAllFailsWhenOneKernelFails) {
    // block_M=48 does not divide row_mean's... use a value that breaks one kernel only:
    // threads=2048 is a parameter of affine_fwd and row_mean (over the 1024 limit).
    auto f =
        writeScratch("multi_bad.py",
                     replaced(programText(), "def row_mean(M=128, N=64, block_M=16, threads=128)",
                              "def row_mean(M=128, N=64, block_M=16, threads=2048)"));
    CompileCommand c;
    c.flags.file = f;
    c.flags.kernel = "all";
    c.flags.target = "cuda:sm_80";
    c.noNvrtc = true;
    auto o = captureCli([&] { return runCompileAll(c); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.out, "row_mean                     error (1 error)")) << o.out;
    EXPECT_TRUE(contains(o.out, "2 of 3 kernels compiled")) << o.out;
    EXPECT_TRUE(contains(o.err, "threads=2048 is outside 1..1024")) << o.err;
}

TEST(CliKernels, RunSelectedKernelAgainstNestedReference) {
    auto o = captureCli([] { return runRun(interpRun("row_mean", "run_row_mean.ref_program")); });
    EXPECT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "kernel row_mean_kernel (row_mean, 2 of 3 kernels)")) << o.out;
    EXPECT_TRUE(contains(o.out, "check against run_row_mean.ref_program (float64")) << o.out;
    EXPECT_TRUE(contains(o.out, "PASS")) << o.out;
    // scale_cols returns its `half` prim_func for halve=True; scale_ref takes halve from it.
    RunCommand c = interpRun("scale_cols", "scale_ref");
    c.flags.params = {"halve=True"};
    auto s = captureCli([&] { return runRun(c); });
    EXPECT_EQ(s.rc, 0) << s.out << s.err;
    EXPECT_TRUE(contains(s.out, "PASS")) << s.out;
    // The default kernel is checked against the module-level ref_program.
    auto d = captureCli([] { return runRun(interpRun("")); });
    EXPECT_EQ(d.rc, 0) << d.out << d.err;
    EXPECT_TRUE(contains(d.out, "check against ref_program (float64")) << d.out;
}

TEST(CliKernels, OtherKernelDoesNotUseTheDefaultKernelsRefProgram) {
    auto o = captureCli([] { return runRun(interpRun("row_mean")); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out,
                         "no reference for kernel 'row_mean' (the file's ref_program is for its "
                         "default kernel; name one with --ref)"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "NOT CHECKED")) << o.out;
}

TEST(CliKernels, PragmaSelectsKernelAndReference) {
    auto f = writeScratch(
        "multi_pragma.py",
        "# tilescope: @kernel=row_mean @ref=run_row_mean.ref_program M=64\n" + programText());
    auto o = captureCli([&] { return runRun(interpRun("", "", f)); });
    EXPECT_EQ(o.rc, 0) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "row_mean_kernel")) << o.out;
    EXPECT_TRUE(contains(o.out, "check against run_row_mean.ref_program")) << o.out;
    // --kernel overrides the pragma's @kernel (M=64 goes to affine_fwd too).
    auto k = captureCli([&] { return runRun(interpRun("affine_fwd", "ref_program", f)); });
    EXPECT_EQ(k.rc, 0) << k.out << k.err;
    EXPECT_TRUE(contains(k.err, "@kernel=row_mean (overridden by --kernel)")) << k.err;
    EXPECT_TRUE(contains(k.out, "affine_fwd_kernel")) << k.out;
}

TEST(CliKernels, ErrorTexts) {
    auto unknown = captureCli([] { return runRun(interpRun("row_maen")); });
    EXPECT_EQ(unknown.rc, 1);
    EXPECT_TRUE(contains(unknown.err, "error: no kernel named 'row_maen' in this file"))
        << unknown.err;
    EXPECT_TRUE(contains(unknown.err,
                         "did you mean 'row_mean'? kernels in this file: affine_fwd, row_mean, "
                         "scale_cols"))
        << unknown.err;
    RunCommand other = interpRun("affine_fwd");
    other.flags.params = {"block_N=16"};
    auto o = captureCli([&] { return runRun(other); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err,
                         "parameter 'block_N' belongs to kernel 'scale_cols', not to the "
                         "selected kernel 'affine_fwd'"))
        << o.err;
    EXPECT_TRUE(contains(o.err, "select that kernel with --kernel scale_cols")) << o.err;
    auto all = captureCli([] { return runRun(interpRun("all")); });
    EXPECT_EQ(all.rc, 1);
    EXPECT_TRUE(contains(all.err, "--kernel all works with `tilec compile` only")) << all.err;
    auto ref = captureCli([] { return runRun(interpRun("row_mean", "run_row_mean.ref")); });
    EXPECT_EQ(ref.rc, 1);
    EXPECT_TRUE(contains(ref.err, "--ref: no function 'run_row_mean.ref' in")) << ref.err;
    EXPECT_TRUE(contains(ref.err, "(did you mean 'run_row_mean.ref_program'?)")) << ref.err;
}

// Autotune drivers (functions that build or run a TileLang AutoTuner, like get_best_config in
// TileLang's gemm examples) are listed as what they are, counted apart from the kernels.
TEST(CliKernels, ListsAutotuneDriversAsDrivers) {
    CompileFlags f;
    f.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/autotune_drivers.py";
    auto o = captureCli([&] { return runKernels(f); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "autotune_drivers.py: 1 kernel, 3 autotune drivers\n")) << o.out;
    EXPECT_TRUE(contains(o.out, "  scale                        line 17    factory, @tilelang.jit  (default)\n"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "  get_best_config              line 27    autotuner\n"
                                "      autotune driver, not a kernel itself: builds an AutoTuner over "
                                "'kernel' (AutoTuner.from_kernel, line 37) and runs it;"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "      also run by: tune_and_time (line 56) (the same tuned kernel, "
                                "through its own parameters)\n"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "  tune_and_time                line 56    autotuner\n"
                                "      autotune driver, not a kernel itself: runs the AutoTuner "
                                "that 'build_tuner' (line 41) builds;"))
        << o.out;
}

// helper-123: when the file's default kernel fails, the error names the file's other kernels and
// --kernel; with --kernel given, no such note.
TEST(CliKernels, AFailingDefaultKernelNamesTheOthers) {
    const std::string broken = writeScratch("multi_kernel_broken.py", replaced(programText(), "def affine_fwd(M=256,", "def affine_fwd(M,"));
    RunCommand c = interpRun("", {}, broken);
    auto o = captureCli([&] { return runRun(c); });
    EXPECT_EQ(o.rc, 1) << o.err;
    EXPECT_TRUE(contains(o.err, "parameter 'M' of 'affine_fwd' has no value")) << o.err;
    EXPECT_TRUE(contains(o.err, "tilec: note: that is 'affine_fwd', the file's default kernel; it also has row_mean, "
                                "scale_cols (--kernel NAME picks one")) << o.err;
    RunCommand named = interpRun("affine_fwd", {}, broken);
    auto n = captureCli([&] { return runRun(named); });
    EXPECT_EQ(n.rc, 1);
    EXPECT_FALSE(contains(n.err, "the file's default kernel")) << n.err;
}
