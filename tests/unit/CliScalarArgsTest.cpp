// `tilec run` with scalar kernel arguments and atomic-only outputs (app/cli/CmdRun.cpp,
// compiler/LaunchArgs.h): --param NAME sets a symbolic size or a scalar parameter for the launch
// (the run says which values it used, defaults included), a non-number is an error naming the
// --param, and an output that only T.atomic_* write starts at zero instead of NaN (split-K).
#include "CliTestUtil.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
RunCommand programRun(const std::string& program, std::vector<std::string> params,
                      const std::string& interp = "lowered") {
    RunCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/" + program;
    c.flags.params = std::move(params);
    c.flags.target = "cuda:sm_80";
    c.interp = interp;
    c.seed = 3;
    return c;
}
}  // namespace

TEST(CliScalarArgs, ParamSetsSymbolicSizeAndScalar) {
    auto o = captureCli([] {
        return runRun(programRun("dynamic_gemm.py", {"M=100", "scale=0.25"}));
    });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "scalar argument M = 100 (--param)")) << o.out;
    EXPECT_TRUE(contains(o.out, "scalar argument scale = 0.25 (--param)")) << o.out;
    EXPECT_TRUE(contains(o.out, "grid (2, 4, 1)")) << o.out;  // ceil(64/32), ceil(100/32)
    EXPECT_TRUE(contains(o.out, "PASS")) << o.out;
}

TEST(CliScalarArgs, DefaultsAreReported) {
    auto o = captureCli([] { return runRun(programRun("dynamic_gemm.py", {})); });
    EXPECT_EQ(o.rc, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "scalar argument M = 256 (default; set it with --param M=VALUE)"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "scalar argument scale = 1.0 (default")) << o.out;
}

TEST(CliScalarArgs, NonNumericValueIsAnError) {
    auto o = captureCli([] { return runRun(programRun("dynamic_gemm.py", {"M=abc"})); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "--param M=abc: 'M' is a scalar kernel argument (int32) and needs "
                                "a number"))
        << o.err;
}

TEST(CliScalarArgs, UnknownNameIsStillAnError) {
    auto o = captureCli([] { return runRun(programRun("dynamic_gemm.py", {"MM=100"})); });
    EXPECT_EQ(o.rc, 1);
    EXPECT_TRUE(contains(o.err, "unknown parameter 'MM' for kernel 'dyn_gemm'")) << o.err;
}

TEST(CliScalarArgs, AtomicOnlyOutputStartsAtZero) {
    for (const char* interp : {"tile", "lowered"}) {
        auto o = captureCli([&] {
            return runRun(programRun("splitk_gemm.py", {"mode='parallel'"}, interp));
        });
        EXPECT_EQ(o.rc, 0) << o.err;
        EXPECT_TRUE(contains(o.out, "output C starts at zero (only T.atomic_* write it)")) << o.out;
        EXPECT_TRUE(contains(o.out, "PASS")) << o.out;
    }
}
