// The hip:gfx90a path end to end without an AMD GPU (issue 13): every sample the HIP lowering
// takes compiles for hip:gfx90a, its HIP C++ compiles with hiprtc for gfx90a, and its lowered IR
// -- 64-lane wavefronts, MFMA 16x16 accumulators, wave-grid gemm -- runs on the thread
// interpreter against the sample's float64 ref_program (and the tile interpreter). What this
// does not check: that an AMD GPU computes the same (never run on one).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/codegen/HipCodegen.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "profiler/hip/Hiprtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

struct HipCase {
    std::string sample;
    std::map<std::string, std::string> params;
    std::string label;
};

ts::CompileResult compileHip(const HipCase& c) {
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "hip:gfx90a";
    opts.recordSnapshots = false;
    const std::string path = "samples/" + c.sample;
    return ts::compile(path, ts::e2e::readRepoFile(path), opts);
}

class HipSamples : public ::testing::TestWithParam<HipCase> {};

TEST_P(HipSamples, HipLoweringMatchesFloat64OnTheThreadInterpreter) {
    const HipCase& c = GetParam();
    ts::CompileResult r = compileHip(c);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.language, "hip");
    EXPECT_EQ(ts::ir::attrInt(r.lowered->attrs, "warp_size", 32), 64);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, c.label));
}

TEST_P(HipSamples, GeneratedHipCompilesWithHiprtcForGfx90a) {
    const HipCase& c = GetParam();
    ts::CompileResult r = compileHip(c);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("#include \"ts_hip.h\""), std::string::npos);
    std::string why;
    if (!ts::rt::hiprtcAvailable(&why)) GTEST_SKIP() << why;
    auto res = ts::rt::compileHip(r.cuda, "gfx90a", {}, /*useCache=*/true);
    EXPECT_TRUE(res.ok) << c.label << "\n" << res.log;
    EXPECT_TRUE(ts::rt::isAmdgpuElf(res.code));
}

const HipCase kHipCases[] = {
    {"gemm.py", {{"M", "256"}, {"N", "256"}, {"K", "128"}}, "gemm_fp16_divisible"},
    {"gemm.py", {{"M", "200"}, {"N", "136"}, {"K", "72"}}, "gemm_fp16_ragged"},
    {"gemm.py", {{"M", "130"}, {"N", "250"}, {"K", "100"}, {"dtype", "bfloat16"}},
     "gemm_bf16_ragged"},
    {"gemm.py",
     {{"M", "64"}, {"N", "192"}, {"K", "96"}, {"block_M", "64"}, {"block_N", "64"},
      {"block_K", "64"}, {"num_stages", "2"}},
     "gemm_small_tiles"},
    {"softmax.py", {{"M", "8"}, {"N", "1000"}}, "softmax_1000"},
    {"softmax.py", {{"M", "10"}, {"N", "77"}, {"block_M", "4"}, {"threads", "128"}},
     "softmax_ragged_rows"},
    {"add.py", {{"M", "100"}, {"N", "300"}}, "add_ragged"},
    {"add.py", {{"M", "64"}, {"N", "256"}, {"dtype", "float16"}}, "add_fp16"},
    // FlashAttention: the online softmax reduces the MFMA score accumulator by rows (16-lane
    // butterflies, mfma_c_rows) and P goes to P @ V through a shared tile. S = 100 / 200 with
    // 64-row tiles leaves ragged query blocks and key tiles.
    {"flash_attn_fwd.py", {}, "fa_fwd_ragged"},
    {"flash_attn_fwd.py", {{"is_causal", "True"}, {"groups", "2"}}, "fa_fwd_causal_gqa"},
    {"flash_attn_fwd.py", {{"dtype", "bfloat16"}, {"block_N", "32"}}, "fa_fwd_bf16_block32"},
    {"flash_attention.py", {{"seq_len", "80"}}, "fa2_ragged"},
    {"flash_attention.py", {{"seq_len", "80"}, {"is_causal", "True"}}, "fa2_causal"},
    // RMSNorm -> matmul: row scales (reduced from a block fragment) applied to the MFMA
    // accumulator rows.
    {"rmsnorm_matmul.py", {{"M", "128"}, {"N", "128"}, {"K", "64"}}, "rmsnorm_matmul"},
};

INSTANTIATE_TEST_SUITE_P(All, HipSamples, ::testing::ValuesIn(kHipCases),
                         [](const ::testing::TestParamInfo<HipCase>& i) { return i.param.label; });

TEST(HipLowering, GemmUsesWaveGridAndMfmaAccumulator) {
    // 128 threads = 2 wavefronts: the 128x128 tile splits into a 1x2 wave grid (64 columns of
    // 16x16 MFMA atoms per wave), not the 2x2 warp grid of the CUDA lowering; the accumulator
    // is the MFMA C layout (8 x 4 x ... = (128/16)*(64/16)*4 = 128 floats per lane).
    ts::CompileResult r = compileHip({"gemm.py", {}, "gemm"});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("ts::gemm_ss<128, 128, 32, 1, 2, false, false"), std::string::npos)
        << r.cuda;
    ts::CompileOptions cuda;
    cuda.recordSnapshots = false;
    ts::CompileResult rc = ts::compile("samples/gemm.py", ts::e2e::readRepoFile("samples/gemm.py"), cuda);
    ASSERT_TRUE(rc.ok);
    EXPECT_NE(rc.cuda.find("ts::gemm_ss<128, 128, 32, 2, 2, false, false"), std::string::npos);
    bool sawMfmaLayout = false;
    for (auto& [name, l] : r.lowered->layouts) sawMfmaLayout |= l->family == "mfma_c";
    EXPECT_TRUE(sawMfmaLayout);
}

TEST(HipLowering, MfmaGemmLimitsAreDiagnosticsAtTheGemm) {
    // The MFMA engine (ops/GemmMfma.cpp) states its limits at the user's T.gemm: f16/bf16 -> f32
    // atoms only, whole 64-lane wavefronts, whole 16-column atoms per wavefront column.
    auto diag = [](std::map<std::string, std::string> params) {
        ts::CompileResult r = compileHip({"gemm.py", std::move(params), "gemm"});
        EXPECT_FALSE(r.ok);
        return ts::e2e::diagText(r);
    };
    std::string d = diag({{"dtype", "float32"}});
    EXPECT_NE(d.find("no MFMA atom on the HIP path for float32 operands"), std::string::npos) << d;
    EXPECT_NE(d.find("gemm.py:28"), std::string::npos) << d;  // the T.gemm line
    d = diag({{"threads", "96"}});
    EXPECT_NE(d.find("T.gemm needs whole wavefronts: threads=96 is not a multiple of 64"), std::string::npos) << d;
    d = diag({{"block_N", "24"}, {"N", "240"}});
    EXPECT_NE(d.find("not a multiple of the 16-column atom"), std::string::npos) << d;
}

TEST(HipLowering, UnsupportedConstructsAreDiagnostics) {
    // CUDA-only intrinsics are refused by the HIP printer.
    EXPECT_FALSE(ts::codegen::hipSupportsIntrinsic(ts::ir::intrin::kGemmRS));
    EXPECT_TRUE(ts::codegen::hipSupportsIntrinsic(ts::ir::intrin::kGemmSS));
    EXPECT_TRUE(ts::codegen::hipSupportsIntrinsic("sync_threads"));
    // Targets: gfx90a only.
    EXPECT_TRUE(ts::parseTarget("hip:gfx90a"));
    EXPECT_EQ(ts::parseTarget("hip:gfx90a")->warpSize(), 64);
    EXPECT_EQ(ts::parseTarget("hip:gfx90a")->arch(), "gfx90a");
    EXPECT_EQ(ts::parseTarget("cuda:sm_80")->warpSize(), 32);
    EXPECT_FALSE(ts::parseTarget("hip:gfx942"));
    ts::CompileOptions bad;
    bad.target = "hip:gfx942";
    auto rb = ts::compile("samples/add.py", ts::e2e::readRepoFile("samples/add.py"), bad);
    EXPECT_NE(ts::e2e::diagText(rb).find("hip:gfx90a"), std::string::npos);
}

}  // namespace
