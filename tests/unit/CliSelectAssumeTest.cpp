// `tilec run` of tests/e2e/programs/select_assume.py (T.Select, T.assume) on both interpreters:
// at N = 1000 (a T.dynamic size given by --param; the last block partial, N % 4 == 0) the outputs
// match the file's float64 ref_program; at N = 1022 the launch-invariant assumption fails and
// the run stops with TileLang's message at the T.assume line, on both interpreters.
#include "CliTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts::cli;
using namespace ts::cli::test;

namespace {
RunCommand selectAssumeRun(const std::string& n, const std::string& interp) {
    RunCommand c;
    c.flags.file = std::string(TS_SOURCE_DIR) + "/tests/e2e/programs/select_assume.py";
    c.flags.params = {"N=" + n};
    c.flags.target = "cuda:sm_80";
    c.interp = interp;
    c.seed = 5;
    return c;
}
}  // namespace

TEST(CliSelectAssume, MatchesTheReferenceAndStopsAtAFalseAssumption) {
    for (const char* interp : {"tile", "lowered"}) {
        auto ok = captureCli([&] { return runRun(selectAssumeRun("1000", interp)); });
        EXPECT_EQ(ok.rc, 0) << interp << "\n" << ok.out << ok.err;
        EXPECT_TRUE(contains(ok.out, "scalar argument N = 1000 (--param)")) << ok.out;
        EXPECT_TRUE(contains(ok.out, "PASS")) << ok.out;
        auto bad = captureCli([&] { return runRun(selectAssumeRun("1022", interp)); });
        EXPECT_EQ(bad.rc, 1) << interp << "\n" << bad.out << bad.err;
        EXPECT_TRUE(contains(bad.out + bad.err, "failed: Assume: N % 4 == 0")) << bad.out << bad.err;
        EXPECT_TRUE(contains(bad.out + bad.err, "select_assume.py:16:")) << bad.out << bad.err;
    }
}
