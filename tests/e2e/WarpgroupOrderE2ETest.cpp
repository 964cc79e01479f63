// wgmma on the fragment layouts beyond 16 rows per warp of one warp column (SelectHopperFragment.cpp,
// the mma_c accumulator in warpgroup order: compiler/analysis/Layouts.h WarpPartition). Until
// 2026-12-05 these gemms took mma.sync on sm_90a: 67 corpus gemms whose rows per warpgroup were not
// 64 (bench/results/ptxas-survey-2026-12-04/sm80-path-reasons.json). Expected code derived here:
//  - 64 x 128 on 256 threads, FullRow: TileLang's wgmma partition puts 4 warps along M, so the two
//    warpgroups sit side by side: wgmma_gemm_ss<64, 128, 64, 1, ..., ts::half, 2> (WGN = 2, each
//    warpgroup an m64n64 of its columns, B read from column 64*(g%2): whole 64-element panels);
//    the row max joins the two warpgroup columns through shared memory;
//  - 128 x 128 on 128 threads: one warpgroup, two m64 tiles (WG = 1, no WGN argument);
//  - FlashAttention forward at block_M=128, threads=128: the register-A gemm P @ V issues two m64
//    tiles per k-step (wgmma_gemm_rs<128, ...>, A tile mi at registers mi*K/2);
//  - MHA backward at block_M=128 on 256 threads: dQ = dS^T K is 64 x 64 on two warpgroups side by
//    side, each reading 32 columns of K_s (stored 128 x 64, MN-major): whole panels only with a
//    64-byte swizzle, so K_s (also Q K^T's A) gets 64-byte panels (SelectHopperFragment.cpp
//    panelLimit) and both gemms name them: wgmma_gemm_ss<..., 2, 0, 64> and <..., 1, 64, 0>; all
//    five gemms take wgmma (until 2026-12-05 the dQ gemm kept all five on mma.sync);
//  - a float32 gemm into the same accumulator can only take mma.sync: infer-layouts solves again
//    without the warpgroup order and both gemms keep mma.sync, with a note saying why.
// Both interpreters match float64 (the thread-level one reads the accumulator through wgmma's own
// fragment, analysis::makeWgmmaAccumulator, and A registers through the PTX formula, not through
// the compiler's layout); NVRTC compiles sm_80 and sm_90a; ptxas reports no spills.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kFile = "tests/e2e/programs/gemm_warpgroup_order.py";

ts::CompileResult compileWith(const char* file, const std::map<std::string, std::string>& p) {
    return ts::e2e::compileRepoFile(file, p);
}
using ts::e2e::hasNote;

void expectNoSpills(const ts::CompileResult& r) {
    if (!ts::rt::nvrtcAvailable()) return;
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    ASSERT_TRUE(nv.ok) << nv.log;
    for (auto& k : nv.ptxas.kernels) {
        EXPECT_EQ(k.spillStoreBytes, 0) << ts::rt::ptxasSummary(k);
        EXPECT_FALSE(k.wgmmaSerialized) << ts::rt::ptxasSummary(k);
    }
}

TEST(WarpgroupOrder, TwoWarpgroupsSideBySideSplitN) {
    ts::CompileResult r = compileWith(kFile, {});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_TRUE(hasNote(r, "T.gemm uses wgmma on the fragment layouts")) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<64, 128, 64, 1, false, false, 0, ts::half, 2>("), std::string::npos) << r.cuda;
    auto it = r.lowered->layouts.find("acc");
    ASSERT_NE(it, r.lowered->layouts.end());
    EXPECT_EQ(it->second->familyParams, (std::vector<int64_t>{64, 128, 4, 2, 1}));
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "64x128, two warpgroups side by side"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {});
    expectNoSpills(r);
}

TEST(WarpgroupOrder, OneWarpgroupTwoM64Tiles) {
    const std::map<std::string, std::string> p{{"block_M", "128"}, {"threads", "128"}};
    ts::CompileResult r = compileWith(kFile, p);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<128, 128, 64, 1, false, false, 0, ts::half>("), std::string::npos) << r.cuda;
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "128x128 on one warpgroup"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, p);
    expectNoSpills(r);
}

TEST(WarpgroupOrder, AttentionWithTwoM64TilesPerWarpgroupAndRegisterA) {
    const char* file = "samples/flash_attn_fwd.py";
    const std::map<std::string, std::string> p{{"block_M", "128"}, {"threads", "128"}, {"batch", "1"}, {"heads", "2"},
                                               {"seq_len", "200"}, {"is_causal", "True"}};
    ts::CompileResult r = compileWith(file, p);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_rs<128, 64, 64, 1, false, ts::half>("), std::string::npos) << r.cuda;
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "attention 128 rows per warpgroup"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(file, p);
    expectNoSpills(r);
}

TEST(WarpgroupOrder, AttentionBackwardTakesNarrowerPanelsForSideBySideWarpgroups) {
    const char* file = "samples/mha_bwd.py";
    ts::CompileOptions o;
    o.params = {{"block_M", "128"}, {"threads", "256"}, {"seq_len", "200"}};
    o.kernel = "mha_bwd_main";
    o.target = "cuda:sm_90a";
    o.recordSnapshots = false;
    ts::CompileResult r = ts::compile(file, ts::e2e::readRepoFile(file), o);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("ts::gemm_"), std::string::npos) << "a gemm stayed on mma.sync\n" << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<64, 64, 128, 1, true, false, 0, ts::half, 2, 0, 64, true>(&dS_s[0], &K_s[0], &dq[0]);"),
              std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<128, 64, 64, 2, false, true, 0, ts::half, 1, 64, 0, true>(&K_s[0], "), std::string::npos) << r.cuda;
    auto it = r.lowered->layouts.find("K_s");
    ASSERT_NE(it, r.lowered->layouts.end());
    EXPECT_EQ(it->second->family, "wgmma_smem");
    EXPECT_EQ(it->second->familyParams, (std::vector<int64_t>{128, 64, 64}));
    expectNoSpills(r);
    // The chain on both interpreters against float64: SeedSamplesSm90a (block_M=128, threads=256).
}

TEST(WarpgroupOrder, AConsumerThatNeedsThePlainGridKeepsBothGemmsOnMmaSync) {
    const std::map<std::string, std::string> p{{"tf32_tail", "1"}};
    ts::CompileResult r = compileWith(kFile, p);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("wgmma_gemm"), std::string::npos) << r.cuda;
    EXPECT_TRUE(hasNote(r, "needs the mma.sync one (a gemm that stays on mma.sync, a user layout): both keep mma.sync")) << ts::e2e::diagText(r);
    for (auto& d : r.diagnostics) EXPECT_NE(d.severity, ts::Severity::Error) << d.message;
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "fp16 + tf32 into one accumulator"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, p);
}

}  // namespace
