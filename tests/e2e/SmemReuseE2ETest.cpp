// Shared-memory reuse end to end (tests/e2e/programs/smem_reuse.py): two 128 KiB tiles with
// disjoint live ranges need 256 KiB side by side, over sm_90a's 232448-byte per-block limit;
// plan-smem puts both at offset 0 (131072 bytes in all), with a barrier between the last read of
// S1 and the first write of S2. The kernel matches its float64 reference on both interpreters
// and its CUDA compiles with NVRTC for sm_80 and sm_90a.
#include <gtest/gtest.h>

#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

TEST(SmemReuseE2E, DisjointTilesShareBytesAndMatchFloat64Reference) {
    std::string text = ts::e2e::readRepoFile("tests/e2e/programs/smem_reuse.py");
    ASSERT_FALSE(text.empty());
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile("tests/e2e/programs/smem_reuse.py", text, opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const auto& attrs = r.lowered->attrs;
    EXPECT_EQ(ts::ir::attrInt(attrs, "smem_offset.S1", -1), 0);
    EXPECT_EQ(ts::ir::attrInt(attrs, "smem_offset.S2", -1), 0);
    EXPECT_EQ(ts::ir::attrInt(attrs, "smem_bytes", -1), 131072);
    EXPECT_EQ(ts::ir::attrStr(attrs, "smem_shares.S2", ""), "S1");
    EXPECT_EQ(r.kernel.dynamicSmemBytes, 131072u);

    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "smem_reuse"));

    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (const char* arch : {"sm_80", "sm_90a"}) {
        auto nv = ts::rt::compileCuda(r.cuda, arch, {}, true);
        EXPECT_TRUE(nv.ok) << arch << ": " << nv.log;
    }
}

}  // namespace
