// T.Select and T.assume (TileLang's select and assume tests: before the tenth session, 2026-12-07,
// "is TileLang's, but TileScope does not support it yet"). tests/e2e/programs/select_assume.py:
// the launch-invariant assumption N % 4 == 0 is checked (one device assert in the CUDA), the
// per-element one is not; the CUDA compiles with NVRTC for sm_80 and sm_90a; an assumption False
// at compile time is an error. The runs: tests/unit/CliSelectAssumeTest.cpp.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {
const char* kFile = "tests/e2e/programs/select_assume.py";

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}
}  // namespace

TEST(SelectAssume, MatchesTheReferenceAndChecksOnlyTheLaunchAssumption) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {{"N", "1024"}}, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(count(r.cuda, "Assume: N %% 4 == 0"), 1u) << r.cuda;
    EXPECT_EQ(count(r.cuda, "Assume:"), 1u) << r.cuda;  // not the per-element one
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"N", "1024"}});
    // The runs on both interpreters (a T.dynamic size is a launch value): CliSelectAssumeTest.
}

TEST(SelectAssume, AnAssumptionFalseAtCompileTimeIsAnError) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {{"N", "1024"}}, "cuda:sm_80");
    ASSERT_TRUE(r.ok);
    const std::string src = ts::e2e::readRepoFile(kFile);
    std::string badSrc = src;
    badSrc.replace(badSrc.find("T.assume(N % 4 == 0)"), 20, "T.assume(block < 64)");
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult bad = ts::compile("select_assume_false.py", badSrc, opts);
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(ts::e2e::diagText(bad).find("T.assume: the condition is False at compile time"), std::string::npos)
        << ts::e2e::diagText(bad);
}
