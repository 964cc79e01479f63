// The hip:gfx90a path end to end without an AMD GPU (issue 13): every kernel of every sample in
// samples/ compiles for hip:gfx90a at its default tiles (within gfx90a's 64 KiB of LDS) and its
// HIP C++ compiles with hiprtc for gfx90a; at small problem sizes (default tiles unless a case
// says otherwise) each kernel's lowered IR -- 64-lane wavefronts, MFMA 16x16 accumulators,
// wave-grid gemm -- runs on the thread interpreter against the sample's float64 reference (and
// the tile interpreter), and the multi-kernel samples run as `tilec run --chain` on both.
// What this does not check: that an AMD GPU computes the same (never run on one).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "compiler/Compile.h"
#include "compiler/codegen/HipCodegen.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "profiler/hip/Hiprtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/support/SourceDir.h"
#include "tests/unit/CliTestUtil.h"

namespace {

struct HipCase {
    // A constructor, not aggregate initialization: the cases leave kernel/ref out, which GCC's
    // -Wmissing-field-initializers reported 23 times (helper-134 #11).
    HipCase(std::string s, std::map<std::string, std::string> p, std::string l, std::string k = {},
            std::string r = "ref_program")
        : sample(std::move(s)), params(std::move(p)), label(std::move(l)), kernel(std::move(k)), ref(std::move(r)) {}
    std::string sample;
    std::map<std::string, std::string> params;
    std::string label;
    std::string kernel;  ///< empty: the file's default kernel
    std::string ref;     ///< the file's float64 reference of that kernel
};

ts::CompileResult compileHip(const HipCase& c) {
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.kernel = c.kernel;
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
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, c.label, c.ref));
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
    {"rmsnorm_matmul.py", {{"M", "200"}, {"N", "136"}, {"K", "72"}}, "rmsnorm_matmul_ragged"},
    // RMSNorm: a row per block (N = 1000: a ragged last wave chunk); 4 rows per block, bf16.
    {"rmsnorm.py", {{"M", "8"}, {"N", "1000"}}, "rmsnorm_1000"},
    {"rmsnorm.py", {{"M", "10"}, {"N", "256"}, {"block_M", "4"}, {"dtype", "bfloat16"}}, "rmsnorm_bf16_rows"},
    // SwiGLU: two MFMA gemms on one X tile, ragged M, N and K; bf16 with 2 wavefronts.
    {"swiglu.py", {{"M", "200"}, {"N", "136"}, {"K", "72"}}, "swiglu_ragged"},
    {"swiglu.py",
     {{"M", "130"}, {"N", "100"}, {"K", "64"}, {"dtype", "bfloat16"}, {"block_M", "64"}, {"block_N", "64"},
      {"threads", "128"}},
     "swiglu_bf16_2_waves"},
    // int4 weights dequantised into the B tile: ragged M and N, groups of 64; bf16.
    {"dequant_gemm.py", {{"M", "100"}, {"N", "200"}, {"K", "256"}, {"group_size", "64"}}, "dequant_ragged"},
    {"dequant_gemm.py", {{"M", "16"}, {"N", "130"}, {"K", "128"}, {"dtype", "bfloat16"}}, "dequant_bf16"},
    // Split-KV decode (an empty last chunk: O = 0, lse = -inf) and its combine; GQA 8 in bf16.
    {"flash_decode.py", {{"seqlen_kv", "300"}}, "decode_split_empty_chunk", "flash_decode_split"},
    {"flash_decode.py",
     {{"heads", "16"}, {"groups", "8"}, {"seqlen_kv", "100"}, {"block_N", "32"}, {"dtype", "bfloat16"}},
     "decode_split_gqa8_bf16", "flash_decode_split"},
    {"flash_decode.py", {{"num_split", "3"}}, "decode_combine", "flash_decode_combine", "combine_ref"},
    // RMSNorm-MLP at its default 128x128x32 tiles, 3 stages asked: two buffers on gfx90a
    // (plan-pipelines: no cp.async), 56 KiB of LDS.
    {"rmsnorm_mlp.py", {{"M", "130"}, {"D", "72"}, {"N", "100"}}, "mlp_norm_gate_up_ragged", "norm_gate_up"},
    {"rmsnorm_mlp.py", {{"M", "64"}, {"D", "64"}, {"N", "64"}, {"dtype", "bfloat16"}}, "mlp_norm_gate_up_bf16",
     "norm_gate_up"},
    {"rmsnorm_mlp.py", {{"M", "100"}, {"D", "72"}, {"N", "136"}}, "mlp_down_proj_ragged", "down_proj", "down_ref"},
    // MHA backward: forward with its log-sum-exp, the preprocess (main and postprocess: the chain
    // below, whose inputs are consistent).
    {"mha_bwd.py", {}, "bwd_fwd_ragged", "mha_fwd"},
    {"mha_bwd.py", {{"is_causal", "True"}, {"dtype", "bfloat16"}}, "bwd_fwd_causal_bf16", "mha_fwd"},
    {"mha_bwd.py", {{"seq_len", "70"}}, "bwd_preprocess", "mha_bwd_preprocess", "delta_ref"},
};

INSTANTIATE_TEST_SUITE_P(All, HipSamples, ::testing::ValuesIn(kHipCases),
                         [](const ::testing::TestParamInfo<HipCase>& i) { return i.param.label; });

// Every kernel of every file in samples/ at its default parameters: compiles for hip:gfx90a
// (so its LDS fits the 64 KiB a gfx90a workgroup has: plan-smem's limit is an error) and its HIP
// compiles with hiprtc for gfx90a. A new sample is covered without editing this test.
TEST(HipSamplesAtDefaults, EveryKernelOfEverySampleFitsGfx90aAndCompilesWithHiprtc) {
    std::string why;
    const bool hiprtc = ts::rt::hiprtcAvailable(&why);
    int kernels = 0;
    std::vector<std::filesystem::path> files;
    for (auto& e : std::filesystem::directory_iterator(std::filesystem::path(TS_SOURCE_DIR) / "samples"))
        if (e.path().extension() == ".py") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ASSERT_GE(files.size(), 12u);
    for (const auto& file : files) {
        const std::string rel = "samples/" + file.filename().string();
        const std::string text = ts::e2e::readRepoFile(rel);
        for (const ts::ProgramKernel& k : ts::listKernels(rel, text)) {
            ts::CompileOptions opts;
            opts.target = "hip:gfx90a";
            opts.kernel = k.name;
            opts.recordSnapshots = false;
            ts::CompileResult r = ts::compile(rel, text, opts);
            const std::string label = rel + " " + k.name;
            ++kernels;
            ASSERT_TRUE(r.ok) << label << "\n" << ts::e2e::diagText(r);
            for (const ts::CompileResult* l : ts::launchesOf(r))
                EXPECT_LE(l->kernel.dynamicSmemBytes, size_t(64 * 1024)) << label;
            if (!hiprtc) continue;
            auto res = ts::rt::compileHip(r.cuda, "gfx90a", {}, /*useCache=*/true);
            EXPECT_TRUE(res.ok) << label << "\n" << res.log;
        }
    }
    EXPECT_GE(kernels, 17);  // 12 files; flash_decode 2, rmsnorm_mlp 2, mha_bwd 4 kernels
    if (!hiprtc) GTEST_SKIP() << "compiled for hip:gfx90a; no hiprtc: " << why;
}

// The multi-kernel samples as `tilec run --chain --target hip:gfx90a` on both interpreters
// against the float64 reference of the whole chain (dK, dV and dQ of the backward; Y of the MLP).
TEST(HipSamplesChain, ChainsMatchFloat64ReferenceOnBothInterpreters) {
    using namespace ts::cli::test;
    const std::vector<std::string> bwd = {"mha_fwd", "mha_bwd_preprocess", "mha_bwd_main", "mha_bwd_postprocess"};
    struct ChainCase {
        std::string sample;
        std::vector<std::string> kernels, params;
        std::string ref, finalOutputs;
    };
    const ChainCase cases[] = {
        {"flash_decode.py", {"flash_decode_split", "flash_decode_combine"}, {"seqlen_kv=300"}, "decode_ref",
         "flash_decode_combine.O"},
        {"rmsnorm_mlp.py", {"norm_gate_up", "down_proj"}, {"M=130", "D=72", "N=100"}, "mlp_ref", "down_proj.Y"},
        // S = 100 in 64-row tiles: ragged query and key tiles in every kernel (default tiles).
        {"mha_bwd.py", bwd, {"seq_len=100"}, "bwd_ref", "mha_bwd_main.dK mha_bwd_main.dV mha_bwd_postprocess.dQ"},
        {"mha_bwd.py", bwd, {"seq_len=100", "is_causal=True", "dtype=bfloat16"}, "bwd_ref",
         "mha_bwd_main.dK mha_bwd_main.dV mha_bwd_postprocess.dQ"},
    };
    for (const auto& c : cases)
        for (const char* interp : {"tile", "lowered"}) {
            ts::cli::RunCommand run;
            run.flags.file = std::string(TS_SOURCE_DIR) + "/samples/" + c.sample;
            run.flags.target = "hip:gfx90a";
            run.flags.params = c.params;
            run.interp = interp;
            run.chain = c.kernels;
            run.ref = c.ref;
            auto o = captureCli([&] { return ts::cli::runChain(run); });
            EXPECT_EQ(o.rc, 0) << c.sample << " " << interp << "\n" << o.out << o.err;
            EXPECT_TRUE(contains(o.out, "final outputs: " + c.finalOutputs + "\n")) << o.out;
            EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
        }
}

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
