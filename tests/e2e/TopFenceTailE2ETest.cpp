// The proxy fence at the top of a T.Pipelined iteration with fragment-path wgmma gemms
// (compiler/transforms/InjectPipeline.cpp): kept when a shared tile a gemm reads is written with
// plain stores after the last gemm of the iteration (still unfenced when the next iteration's
// gemm reads it) or when a producer stays cp.async (generic-proxy writes); dropped when every
// producer is a TMA load and each generic write was fenced by a later gemm of the same iteration
// (fence.proxy.async compiles to MEMBAR.ALL.CTA + FENCE.VIEW.ASYNC.S on sm_90a, and the membar
// waits for the previous iteration's global reductions). tests/e2e/programs/top_fence_tail.py:
// mode 0 writes P_s at the end of the iteration (fence kept), mode 1 before the gemm that reads
// it (no top fence); both against float64 on both interpreters and NVRTC for sm_80 and sm_90a.
#include <gtest/gtest.h>

#include "app/cli/Commands.h"
#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"
#include "tests/e2e/ScopedEnv.h"
#include "tests/support/SourceDir.h"
#include "tests/unit/CliTestUtil.h"

namespace {

const char* kProgram = "tests/e2e/programs/top_fence_tail.py";

// The generated code from the loop header to the first block barrier inside the loop.
std::string loopTop(const std::string& cuda) {
    const size_t loop = cuda.find("for (int t = 0; t < ");
    const size_t bar = cuda.find("__syncthreads();", loop);
    if (loop == std::string::npos || bar == std::string::npos) return "<no loop or no barrier in it>";
    return cuda.substr(loop, bar - loop);
}

bool hasFence(const std::string& s) { return s.find("ts::fence_proxy_async();") != std::string::npos; }

TEST(TopFenceTail, AWriteAfterTheLastGemmKeepsTheFenceAtTheTop) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kProgram, {{"mode", "0"}}, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("tma_load_tile"), std::string::npos) << "the A tiles should be TMA loads\n" << r.cuda;
    EXPECT_TRUE(hasFence(loopTop(r.cuda))) << r.cuda;
}

TEST(TopFenceTail, ABodyThatEndsFencedWithTmaProducersHasNoFenceAtTheTop) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kProgram, {{"mode", "1"}}, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_FALSE(hasFence(loopTop(r.cuda))) << r.cuda;
    // P_s is still fenced for the gemm that reads it, right after its store.
    const size_t store = r.cuda.find("&P_s["), gemm = r.cuda.find("(&P_s[0], &W_s[0], &acc[0]);");
    ASSERT_NE(store, std::string::npos) << r.cuda;
    ASSERT_NE(gemm, std::string::npos) << r.cuda;
    EXPECT_TRUE(hasFence(r.cuda.substr(store, gemm - store))) << r.cuda;
    // The switch that times the code before keeps it.
    ts::e2e::ScopedEnv old("TILESCOPE_WGMMA_TOP_FENCE", "1");
    ts::CompileResult r2 = ts::e2e::compileRepoFile(kProgram, {{"mode", "1"}}, "cuda:sm_90a");
    ASSERT_TRUE(r2.ok) << ts::e2e::diagText(r2);
    EXPECT_TRUE(hasFence(loopTop(r2.cuda))) << r2.cuda;
}

TEST(TopFenceTail, MatchesFloat64OnBothInterpreters) {
    using namespace ts::cli::test;
    for (const char* mode : {"0", "1"})
        for (const char* tiles : {"1", "3", "5"})
            for (const char* interp : {"tile", "lowered"}) {
                ts::cli::RunCommand run;
                run.flags.file = std::string(TS_SOURCE_DIR) + "/" + kProgram;
                run.flags.target = "cuda:sm_90a";
                run.flags.params = {std::string("mode=") + mode, std::string("T_tiles=") + tiles};
                run.interp = interp;
                auto o = captureCli([&] { return ts::cli::runRun(run); });
                EXPECT_EQ(o.rc, 0) << mode << " " << tiles << " " << interp << "\n" << o.out << o.err;
                EXPECT_TRUE(contains(o.out, "\nPASS\n")) << mode << " " << tiles << " " << interp << "\n" << o.out;
            }
}

TEST(TopFenceTail, NvrtcCompilesForSm80AndSm90a) {
    for (const char* mode : {"0", "1"}) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProgram, {{"mode", mode}});
}

}  // namespace
