// wgmma on one tile of a stack of shared tiles (selectHopperFragmentGemm, SelectHopperFragment.cpp):
// the hand-written double buffers of the corpus' MLA / sparse-MLA / GDN kernels (KV_shared[stage,
// :, : dim // 2]) took mma.sync on sm_90a until 2026-12-04 ("a sub-tile of a 3-D shared tile"),
// and with it ~1.7 KB of spills per thread in example_mla_decode_ws.py. Expected values derived here:
//  - the stack (2, 64, 128) fp16 gets the wgmma layout of one 64 x 128 tile (2 panels of 64
//    columns, 128-byte swizzle); stage s starts s * 64 * 128 = 8192 elements (16 KiB, a multiple
//    of the swizzle's 1024-byte period) into the buffer, so the gemm's B operand is
//    &B_s[(kb % 2) * 8192] and its first 64 columns are panel 0: read in place;
//  - the hand-written cp.async of 8 halves at a column that is a multiple of 8 is one 16-byte
//    chunk, which the swizzle moves whole (PTX ISA 9.7.15.5.1.2): allowed; at column 8t + 4 it
//    straddles two chunks: the gemm stays on mma.sync and the note names the copy;
//  - one warpgroup: the gemm's policy (default Square) does not matter, wgmma's m64 partition
//    gives each warp 16 rows.
// Both interpreters match float64; NVRTC compiles both targets; ptxas reports no spills.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kFile = "tests/e2e/programs/gemm_stacked_stage_tiles.py";

ts::CompileResult compileWith(const std::map<std::string, std::string>& p) {
    ts::CompileOptions o;
    o.params = p;
    o.target = "cuda:sm_90a";
    o.recordSnapshots = false;
    return ts::compile(kFile, ts::e2e::readRepoFile(kFile), o);
}

bool hasNote(const ts::CompileResult& r, const std::string& part) {
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.message.find(part) != std::string::npos) return true;
    return false;
}

TEST(StackedTileWgmma, OneStageOfAStackIsAWgmmaOperandReadInPlace) {
    ts::CompileResult r = compileWith({});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_TRUE(hasNote(r, "T.gemm uses wgmma on the fragment layouts (no T.Pipelined loop around it")) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<64, 64, 64, 1, false, false, 0, ts::half>(&A_s[0], &B_s[((kb % 2) * 8192)], &acc[0]);"),
              std::string::npos)
        << r.cuda;
    auto it = r.lowered->layouts.find("B_s");
    ASSERT_NE(it, r.lowered->layouts.end());
    EXPECT_EQ(it->second->family, "wgmma_smem");
    EXPECT_EQ(it->second->familyParams, (std::vector<int64_t>{64, 128, 128}));
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "stacked tiles, off 0"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {});
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    ASSERT_TRUE(nv.ok) << nv.log;
    ASSERT_EQ(nv.ptxas.kernels.size(), 1u);
    EXPECT_EQ(nv.ptxas.kernels[0].spillStoreBytes, 0) << ts::rt::ptxasSummary(nv.ptxas.kernels[0]);
}

TEST(StackedTileWgmma, ACpAsyncThatStraddlesSwizzleChunksKeepsMmaSync) {
    ts::CompileResult r = compileWith({{"off", "4"}});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("wgmma_gemm"), std::string::npos) << r.cuda;
    EXPECT_TRUE(hasNote(r, "a hand-written cp.async into 'B_s' at line 33 does not start on a multiple of its 8 elements"))
        << ts::e2e::diagText(r);
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"off", "4"}});
}

}  // namespace
