// T.launch_thread("threadIdx.x", extent) inside a T.Kernel (TileLang's sync_threads and
// lower_hopper_intrin tests; before 2026-12-07 "is TileLang's, but TileScope does not support it
// yet"): the block's thread index on both interpreters against float64, NVRTC sm_80 / sm_90a,
// and an extent other than the block's is an error at the call.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {
const char* kFile = "tests/e2e/programs/launch_thread.py";
}

TEST(LaunchThread, IsTheBlocksThreadIndexOnBothInterpreters) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {{"N", "512"}}, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "launch_thread"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"N", "512"}});
}

TEST(LaunchThread, AnExtentOtherThanTheBlocksIsAnError) {
    std::string src = ts::e2e::readRepoFile(kFile);
    const std::string from = "T.launch_thread(\"threadIdx.x\", block)";
    ASSERT_NE(src.find(from), std::string::npos);
    src.replace(src.find(from), from.size(), "T.launch_thread(\"threadIdx.x\", 64)");
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult bad = ts::compile("launch_thread_64.py", src, opts);
    ASSERT_FALSE(bad.ok);
    const std::string d = ts::e2e::diagText(bad);
    EXPECT_NE(d.find("T.launch_thread over 64 threads of threadIdx.x, but the T.Kernel has 128 along x"),
              std::string::npos) << d;
    EXPECT_NE(d.find("launch_thread_64.py:13:"), std::string::npos) << d;
}
