// Two fragment-path wgmma gemms of a T.Pipelined body kept in flight together across the
// statements between them (compiler/transforms/InjectPipeline.cpp pairIndependentWgmmas,
// mayRunBesideWgmma): the first is committed with wait_group 1 and retired by the second's
// wait_group 0 only when nothing between touches its accumulator or writes what it reads.
// tests/e2e/programs/wgmma_pair_between.py: mode 0 pairs across the second gemm's proxy fence +
// block barrier (the first needs none: the tile stored before it is not one it reads); modes 1,
// 2, 3 write the rs A fragment, read the first accumulator, read the A fragment between, and 4
// rewrites the first gemm's shared B through a T.reshape view of it (a separate buffer naming the
// same bytes), and 5 accumulates the second gemm into a T.view of the first one's accumulator,
// so none pairs. Each mode matches float64 on both interpreters (mode 4 at one tile
// only: the thread interpreter poisons bytes rewritten through another name of them, smem_shares,
// so the next tile's reads of W2_s see NaN there); NVRTC compiles each for sm_90a without a
// serialized wgmma.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kFile = "tests/e2e/programs/wgmma_pair_between.py";

size_t countOf(const std::string& s, const std::string& part) {
    size_t n = 0;
    for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
    return n;
}

// The first gemm P @ W2 (rs) is in flight; the second P_s^T @ X_s follows its fence + barrier.
const char* kInFlight = "ts::wgmma_gemm_rs<64, 64, 64, 1, false, ts::half, 1>(&P[0], &W2_s[0], &acc2[0]);";
const char* kWaited = "ts::wgmma_gemm_rs<64, 64, 64, 1, false, ts::half>(&P[0], &W2_s[0], &acc2[0]);";
const char* kRetire = "ts::wgmma_wait<0, 32>(&acc2[0]);";

TEST(WgmmaPairBetween, TheFirstGemmStaysInFlightAcrossTheSecondOnesFenceAndBarrier) {
    ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {{"mode", "0"}});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(countOf(r.cuda, kInFlight), 1u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, kRetire), 1u) << r.cuda;
    // In order: the store of P to P_s, the in-flight rs gemm (no fence or barrier between: it
    // reads W2_s, not P_s), the fence + barrier, the second gemm, the wait that retires both.
    const size_t first = r.cuda.find(kInFlight), store = r.cuda.rfind("&P_s[", first), fence = r.cuda.find("ts::fence_proxy_async();", first),
                 barrier = r.cuda.find("__syncthreads();", first),
                 second = r.cuda.find("ts::wgmma_gemm_ss<64, 64, 64, 1, true, false, 0, ts::half>(&P_s[0]", first), retire = r.cuda.find(kRetire, first);
    ASSERT_NE(first, std::string::npos);
    ASSERT_NE(store, std::string::npos);
    EXPECT_EQ(r.cuda.find("ts::fence_proxy_async();", store), fence) << "no fence between the store and the first gemm\n" << r.cuda;
    EXPECT_LT(fence, barrier) << r.cuda;
    EXPECT_LT(barrier, second) << r.cuda;
    EXPECT_LT(second, retire) << r.cuda;
}

TEST(WgmmaPairBetween, TouchingTheOperandOrTheAccumulatorBetweenKeepsItWaited) {
    for (const char* mode : {"1", "2", "3", "4", "5"}) {
        ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {{"mode", mode}});
        ASSERT_TRUE(r.ok) << mode << "\n" << ts::e2e::diagText(r);
        EXPECT_EQ(countOf(r.cuda, kInFlight), 0u) << mode << "\n" << r.cuda;
        EXPECT_EQ(countOf(r.cuda, kWaited), 1u) << mode << "\n" << r.cuda;
        EXPECT_EQ(countOf(r.cuda, kRetire), 0u) << mode << "\n" << r.cuda;
    }
}

TEST(WgmmaPairBetween, EveryModeMatchesFloat64AndCompilesForSm90a) {
    for (const char* mode : {"0", "1", "2", "3", "4", "5"})
        for (const char* tiles : {"1", "4"}) {
            if (std::string(mode) == "4" && std::string(tiles) == "4") continue;
            const std::string label = std::string("mode ") + mode + ", T_tiles " + tiles;
            ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {{"mode", mode}, {"T_tiles", tiles}});
            ASSERT_TRUE(r.ok) << label << "\n" << ts::e2e::diagText(r);
            ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, label));
            if (!ts::rt::nvrtcAvailable()) continue;
            auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
            ASSERT_TRUE(nv.ok) << label << "\n" << nv.log;
            for (auto& k : nv.ptxas.kernels) {
                EXPECT_FALSE(k.wgmmaSerialized) << label << ": " << ts::rt::ptxasSummary(k);
                EXPECT_EQ(k.spillStoreBytes, 0) << label << ": " << ts::rt::ptxasSummary(k);
            }
        }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"mode", "0"}});
}

}  // namespace
