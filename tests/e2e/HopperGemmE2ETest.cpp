// The sm_90a path of T.gemm (compiler/transforms/Hopper.h): samples/gemm.py and
// tests/e2e/programs/gemm_trans.py compiled for cuda:sm_90a take TMA loads into wgmma_smem tiles
// completing on mbarriers, wgmma.mma_async and the mbarrier pipeline; the lowered IR runs on the
// thread-level interpreter (TMA as deferred tile writes landing when their barrier phase
// completes, wgmma through the wgmma accumulator layout) against the float64 ref_program at
// trip counts 1..3 x stages 1..3, ragged sizes (out-of-bounds TMA boxes read zero), both
// dtypes, two warpgroups and every transpose; the CUDA compiles with NVRTC for sm_90a, and the
// same file for sm_80 keeps the mma.sync path. The GPU check is bench/h200_hopper_gemm.sh.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

struct Case {
    std::string file;
    std::map<std::string, std::string> params;
};

std::string label(const Case& c) {
    std::string s = c.file.substr(c.file.rfind('/') + 1);
    for (auto& [k, v] : c.params) s += " " + k + "=" + v;
    return s;
}

class HopperGemm : public ::testing::TestWithParam<Case> {};

TEST_P(HopperGemm, TmaWgmmaPathMatchesFloat64) {
    const Case& c = GetParam();
    std::string text = ts::e2e::readRepoFile(c.file);
    ASSERT_FALSE(text.empty()) << c.file;
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    ts::CompileResult r = ts::compile(c.file, text, opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // The Hopper path, not the sm_80 one.
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("ts::tma_load_tile<"), std::string::npos);
    EXPECT_NE(r.cuda.find("ts::mbarrier_wait("), std::string::npos);
    EXPECT_EQ(r.cuda.find("ts::cp_async"), std::string::npos);
    EXPECT_EQ(r.cuda.find("ts::gemm_ss<"), std::string::npos);
    // A third map when the epilogue is staged through shared memory (StageEpilogue.cpp): C's.
    const bool staged = r.cuda.find("C_local_stage") != std::string::npos;
    ASSERT_EQ(r.kernel.tensorMaps.size(), staged ? 3u : 2u);
    EXPECT_EQ(r.kernel.tensorMaps[0].tensor, 0);
    EXPECT_EQ(r.kernel.tensorMaps[1].tensor, 1);
    if (staged) {
        EXPECT_EQ(r.kernel.tensorMaps[2].tensor, 2);
    }
    EXPECT_EQ(r.kernel.dynamicSmemBytes % 1024, 0u);

    auto ci = ts::e2e::makeCheckedInputs(r);
    ASSERT_TRUE(ci.ref.ok);
    std::vector<ts::HostTensor> results[2];
    ts::e2e::expectBothInterpretersMatchReference(r, ci, {}, label(c), results);

    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << label(c) << "\n" << nv.log;
    // The same file for sm_80 keeps cp.async + mma.sync.
    opts.target = "cuda:sm_80";
    ts::CompileResult r80 = ts::compile(c.file, text, opts);
    ASSERT_TRUE(r80.ok) << ts::e2e::diagText(r80);
    EXPECT_EQ(r80.cuda.find("wgmma"), std::string::npos);
    EXPECT_TRUE(r80.kernel.tensorMaps.empty());
    auto nv80 = ts::rt::compileCuda(r80.cuda, "sm_80", {}, true);
    EXPECT_TRUE(nv80.ok) << nv80.log;
}

std::vector<Case> cases() {
    std::vector<Case> out;
    const std::string gemm = "samples/gemm.py", trans = "tests/e2e/programs/gemm_trans.py";
    // Trip counts 1, 2, 3 x stages 1, 2, 3 (K = trips * block_K), M/N ragged against the tiles.
    for (int trips : {1, 2, 3})
        for (int stages : {1, 2, 3})
            out.push_back({gemm, {{"M", "136"}, {"N", "200"}, {"K", std::to_string(32 * trips)}, {"num_stages", std::to_string(stages)}}});
    // A ragged K (the last TMA box is partly out of bounds), bf16, stage count above the trips.
    out.push_back({gemm, {{"M", "128"}, {"N", "128"}, {"K", "72"}, {"dtype", "\"bfloat16\""}, {"num_stages", "4"}}});
    // Two warpgroups, 128x256x64 tiles (the TileLang configuration).
    out.push_back({gemm, {{"M", "256"}, {"N", "256"}, {"K", "128"}, {"block_M", "128"}, {"block_N", "256"}, {"block_K", "64"},
                          {"threads", "256"}, {"num_stages", "3"}}});
    for (const char* ta : {"False", "True"})
        for (const char* tb : {"False", "True"})
            out.push_back({trans, {{"transpose_a", ta}, {"transpose_b", tb}, {"K", "96"}, {"block_K", "64"}, {"dtype", "\"float16\""},
                                   {"accum_dtype", "\"float\""}, {"out_dtype", "\"float32\""}}});
    return out;
}

INSTANTIATE_TEST_SUITE_P(E2E, HopperGemm, ::testing::ValuesIn(cases()));

}  // namespace
