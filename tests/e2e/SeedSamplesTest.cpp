// Issue 10's seed workloads other than FlashAttention forward (samples/rmsnorm.py, swiglu.py,
// rmsnorm_matmul.py, rmsnorm_mlp.py, flash_decode.py, dequant_gemm.py, mha_bwd.py), end to end
// without a GPU: each kernel at small sizes that are and are not multiples of its tiles runs on
// the tile interpreter AND the thread-level interpreter of the lowered IR against the file's
// float64 reference (fresh random inputs, NaN-poisoned outputs); the generated CUDA compiles with
// NVRTC for sm_80 and sm_90a; the files' flop/byte counts are the formulas written out by hand.
// Multi-kernel samples (split-KV decode, MLP, backward) are also checked as `tilec run --chain`.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/unit/CliTestUtil.h"
#include "tests/support/SourceDir.h"

namespace {

struct Case {
    std::string sample;  ///< file under samples/
    std::string kernel;  ///< empty: the file's default kernel
    std::map<std::string, std::string> params;
    std::string label;
    std::string ref = "ref_program";
};

using ts::e2e::diagText;

ts::CompileResult compileCase(const Case& c, const std::string& target, bool snapshots) {
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.kernel = c.kernel;
    opts.target = target;
    opts.recordSnapshots = snapshots;
    return ts::compile("samples/" + c.sample, ts::e2e::readRepoFile("samples/" + c.sample), opts);
}

class SeedSamples : public ::testing::TestWithParam<Case> {};

TEST_P(SeedSamples, BothInterpretersMatchFloat64Reference) {
    const Case& c = GetParam();
    ts::CompileResult r = compileCase(c, "cuda:sm_80", true);
    ASSERT_TRUE(r.ok) << diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, c.label, c.ref);
}

TEST_P(SeedSamples, GeneratedCudaCompilesForSm80AndSm90a) {
    const Case& c = GetParam();
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileCase(c, target, false);
        ASSERT_TRUE(r.ok) << target << "\n" << diagText(r);
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

const Case kCases[] = {
    // RMSNorm: one row per block (N = 1000: a ragged last warp chunk), four rows per block with
    // a ragged last block, bf16.
    {"rmsnorm.py", "", {{"M", "8"}, {"N", "1000"}}, "rmsnorm_fp16_1000"},
    {"rmsnorm.py", "", {{"M", "10"}, {"N", "256"}, {"block_M", "4"}, {"dtype", "bfloat16"}},
     "rmsnorm_bf16_ragged_rows"},
    {"rmsnorm.py", "", {{"M", "3"}, {"N", "4096"}, {"threads", "256"}}, "rmsnorm_fp16_4096"},
    // SwiGLU: ragged M, N and K (72 = two 32-wide K tiles and a partial one); bf16 on 4 warps.
    {"swiglu.py", "", {{"M", "200"}, {"N", "136"}, {"K", "72"}}, "swiglu_fp16_ragged"},
    {"swiglu.py", "",
     {{"M", "130"}, {"N", "100"}, {"K", "64"}, {"dtype", "bfloat16"}, {"block_M", "64"}, {"block_N", "64"},
      {"threads", "128"}},
     "swiglu_bf16_4_warps"},
    // RMSNorm -> matmul: the ragged K tile must add no squares (zero-filled columns).
    {"rmsnorm_matmul.py", "", {{"M", "200"}, {"N", "136"}, {"K", "72"}}, "rmsnorm_matmul_fp16_ragged"},
    {"rmsnorm_matmul.py", "",
     {{"M", "130"}, {"N", "100"}, {"K", "64"}, {"dtype", "bfloat16"}, {"block_M", "64"}, {"block_N", "64"},
      {"threads", "128"}},
     "rmsnorm_matmul_bf16_small_tiles"},
    // RMSNorm-MLP, each kernel alone (the chain is below).
    {"rmsnorm_mlp.py", "norm_gate_up", {{"M", "130"}, {"D", "72"}, {"N", "100"}}, "mlp_norm_gate_up_ragged"},
    {"rmsnorm_mlp.py", "norm_gate_up", {{"M", "64"}, {"D", "64"}, {"N", "64"}, {"dtype", "bfloat16"}},
     "mlp_norm_gate_up_bf16"},
    {"rmsnorm_mlp.py", "down_proj", {{"M", "100"}, {"D", "72"}, {"N", "136"}}, "mlp_down_proj_ragged",
     "down_ref"},
    // The chain formulations (rms_norm writes Xn, then plain pipelined GEMM kernels): each kernel
    // alone at ragged sizes (K = 1000: a ragged last chunk of the row; 136 = 2 x 64 + 8 columns).
    {"rmsnorm_matmul.py", "rms_norm", {{"M", "5"}, {"K", "1000"}}, "rmsnorm_matmul_rms_norm_1000", "rmsnorm_ref"},
    {"rmsnorm_matmul.py", "rms_norm", {{"M", "3"}, {"K", "4096"}, {"norm_threads", "256"}, {"dtype", "bfloat16"}},
     "rmsnorm_matmul_rms_norm_bf16_4096", "rmsnorm_ref"},
    {"rmsnorm_matmul.py", "matmul_xn", {{"M", "200"}, {"N", "300"}, {"K", "136"}}, "rmsnorm_matmul_matmul_xn_ragged",
     "matmul_ref"},
    {"rmsnorm_mlp.py", "rms_norm", {{"M", "4"}, {"D", "1000"}, {"dtype", "bfloat16"}}, "mlp_rms_norm_bf16", "rmsnorm"},
    {"rmsnorm_mlp.py", "gate_up", {{"M", "130"}, {"D", "136"}, {"N", "100"}}, "mlp_gate_up_ragged", "gate_up_ref"},
    // Split-KV decode: S = 300 in 64-key tiles over 4 splits (5 tiles: 2, 2, 1, 0 -- an empty last
    // chunk writes O = 0, lse = -inf); GQA 8 on 16 heads; 32-key tiles, one chunk per tile.
    {"flash_decode.py", "flash_decode_split", {{"seqlen_kv", "300"}}, "decode_split_empty_chunk"},
    {"flash_decode.py", "flash_decode_split", {}, "decode_split_defaults"},  // S = 500: 2 tiles per split
    {"flash_decode.py", "flash_decode_split",
     {{"heads", "16"}, {"groups", "8"}, {"seqlen_kv", "100"}, {"block_N", "32"}, {"dtype", "bfloat16"}},
     "decode_split_gqa8_bf16"},
    {"flash_decode.py", "flash_decode_split", {{"groups", "1"}, {"seqlen_kv", "1000"}, {"num_split", "3"}},
     "decode_split_mha"},
    {"flash_decode.py", "flash_decode_combine", {{"num_split", "3"}}, "decode_combine", "combine_ref"},
    // MHA backward: the forward with its log-sum-exp and the preprocess alone (the main kernel and
    // the postprocess are checked by the chain below, whose inputs are consistent).
    {"mha_bwd.py", "mha_fwd", {}, "bwd_fwd_ragged"},
    {"mha_bwd.py", "mha_fwd", {{"is_causal", "True"}, {"dtype", "bfloat16"}}, "bwd_fwd_causal_bf16"},
    {"mha_bwd.py", "mha_bwd_preprocess", {{"seq_len", "70"}}, "bwd_preprocess", "delta_ref"},
};

INSTANTIATE_TEST_SUITE_P(All, SeedSamples, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

// Flop and byte counts (the samples' total_flops / total_bytes) against the formulas by hand.
struct WorkCase {
    std::string sample, kernel;
    std::map<std::string, std::string> params;
    double flops, bytes;
};

TEST(SeedSampleWorkCounts, FlopsAndBytesFollowTheParameters) {
    const WorkCase cases[] = {
        // 4 flops per element; X and Y once plus the weight, 2 bytes each.
        {"rmsnorm.py", "", {{"M", "4096"}, {"N", "4096"}}, 4.0 * 4096 * 4096, (2.0 * 4096 * 4096 + 4096) * 2},
        // Two GEMMs; X, both weights and Y once (bf16).
        {"swiglu.py", "", {{"M", "4096"}, {"N", "11008"}, {"K", "4096"}, {"dtype", "bfloat16"}},
         4.0 * 4096 * 11008 * 4096, (4096.0 * 4096 + 2.0 * 4096 * 11008 + 4096.0 * 11008) * 2},
        {"rmsnorm_matmul.py", "", {{"M", "4096"}, {"N", "4096"}, {"K", "4096"}}, 2.0 * 4096 * 4096 * 4096,
         (3.0 * 4096 * 4096 + 4096) * 2},
        // Each kernel of a multi-kernel file counts its own work (factory-local total_flops).
        {"rmsnorm_mlp.py", "norm_gate_up", {{"M", "4096"}, {"D", "4096"}, {"N", "11008"}},
         4.0 * 4096 * 11008 * 4096, (4096.0 * 4096 + 4096 + 2.0 * 4096 * 11008 + 4096.0 * 11008) * 2},
        {"rmsnorm_mlp.py", "down_proj", {{"M", "4096"}, {"D", "4096"}, {"N", "11008"}}, 2.0 * 4096 * 4096 * 11008,
         (4096.0 * 11008 + 11008.0 * 4096 + 4096.0 * 4096) * 2},
        // The chain kernels: rms_norm reads X, writes Xn (and reads G); matmul_xn and gate_up as
        // samples/gemm.py and samples/swiglu.py.
        {"rmsnorm_matmul.py", "rms_norm", {{"M", "4096"}, {"K", "4096"}}, 4.0 * 4096 * 4096, (2.0 * 4096 * 4096 + 4096) * 2},
        {"rmsnorm_matmul.py", "matmul_xn", {{"M", "4096"}, {"N", "4096"}, {"K", "4096"}}, 2.0 * 4096 * 4096 * 4096,
         3.0 * 4096 * 4096 * 2},
        {"rmsnorm_mlp.py", "rms_norm", {{"M", "4096"}, {"D", "4096"}}, 4.0 * 4096 * 4096, (2.0 * 4096 * 4096 + 4096) * 2},
        {"rmsnorm_mlp.py", "gate_up", {{"M", "4096"}, {"D", "4096"}, {"N", "11008"}}, 4.0 * 4096 * 11008 * 4096,
         (4096.0 * 4096 + 2.0 * 4096 * 11008 + 4096.0 * 11008) * 2},
        // Decode: Q K^T and P V over the cache (4 * b * h * S * d); Q, K, V in fp16, the fp32
        // partial outputs and lse.
        {"flash_decode.py", "flash_decode_split",
         {{"batch", "8"}, {"heads", "32"}, {"groups", "8"}, {"seqlen_kv", "8192"}, {"dim", "128"}, {"num_split", "8"}},
         4.0 * 8 * 32 * 8192 * 128,
         2.0 * 8 * (32 * 128 + 2.0 * 8192 * 4 * 128) + 4.0 * 8 * 32 * 8 * (128 + 1)},
        {"flash_decode.py", "flash_decode_combine", {{"batch", "8"}, {"heads", "32"}, {"num_split", "8"}, {"dim", "128"}},
         3.0 * 8 * 32 * 8 * 128, 4.0 * 8 * 32 * 8 * 129 + 2.0 * 8 * 32 * 128},
        // int4 GEMM: A and C fp16, weights at half a byte, one fp16 scale per 128 weights.
        {"dequant_gemm.py", "", {{"M", "16"}, {"N", "4096"}, {"K", "4096"}}, 2.0 * 16 * 4096 * 4096,
         (16.0 * 4096 + 16.0 * 4096) * 2 + 4096.0 * 4096 / 2 + 4096.0 * 32 * 2},
        // Backward main: five seq^2 x dim GEMMs per head, causal halves them.
        {"mha_bwd.py", "mha_bwd_main",
         {{"batch", "8"}, {"heads", "32"}, {"seq_len", "1024"}, {"dim", "64"}},
         10.0 * 8 * 32 * 1024 * 1024 * 64, 7.0 * 8 * 1024 * 32 * 64 * 2 + 2.0 * 8 * 32 * 1024 * 4},
        {"mha_bwd.py", "mha_fwd",
         {{"batch", "8"}, {"heads", "32"}, {"seq_len", "1024"}, {"dim", "64"}, {"is_causal", "True"}},
         4.0 * 8 * 32 * 1024 * 1024 * 64 / 2, 4.0 * 8 * 1024 * 32 * 64 * 2 + 8.0 * 32 * 1024 * 4},
    };
    for (const auto& c : cases) {
        ts::CompileResult r = compileCase({c.sample, c.kernel, c.params, ""}, "cuda:sm_80", false);
        ASSERT_TRUE(r.ok) << c.sample << "\n" << diagText(r);
        ASSERT_TRUE(r.flops && r.bytes) << c.sample;
        EXPECT_DOUBLE_EQ(*r.flops, c.flops) << c.sample << " " << c.kernel;
        EXPECT_DOUBLE_EQ(*r.bytes, c.bytes) << c.sample << " " << c.kernel;
    }
}

// The int4 GEMM with every byte value (the default random integers, 0..8, would leave the
// high nibbles at 0): both interpreters against the float64 unpacking of the reference.
TEST(SeedSamplesDequant, EveryNibbleValueMatchesFloat64Reference) {
    for (auto params : std::vector<std::map<std::string, std::string>>{
             {{"M", "100"}, {"N", "200"}, {"K", "256"}, {"group_size", "64"}},
             {{"M", "16"}, {"N", "130"}, {"K", "128"}, {"dtype", "bfloat16"}},
             {{"M", "64"}, {"N", "64"}, {"K", "256"}, {"block_K", "32"}, {"group_size", "32"}, {"num_stages", "2"}}}) {
        ts::CompileResult r = compileCase({"dequant_gemm.py", "", params, "dequant"}, "cuda:sm_80", true);
        ASSERT_TRUE(r.ok) << diagText(r);
        ts::e2e::CheckedInputs ci;
        for (auto& a : r.kernel.args) ci.sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
        ts::rt::InputOptions io;
        io.fresh = true;
        ci.set = ts::rt::makeInputs(ci.sig, io);
        std::vector<ts::HostTensor> inputs;
        uint64_t x = ci.set.seed | 1;
        for (size_t i = 0; i < ci.sig.size(); ++i) {
            if (ci.sig[i].isOutput) continue;
            if (ci.sig[i].name == "B")
                for (double& v : ci.set.tensors[i].data) {
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    v = static_cast<double>((x >> 33) % 256);
                }
            inputs.push_back(ci.set.tensors[i]);
        }
        std::map<std::string, std::string> fp;
        for (auto& p : r.params) fp[p.name] = p.value;
        ci.ref = ts::rt::evalReference(*r.module->ast(), fp, inputs);
        ASSERT_TRUE(ci.ref.ok) << (ci.ref.diagnostics.empty() ? "" : ci.ref.diagnostics[0].message);
        std::vector<ts::HostTensor> results[2];
        ts::e2e::expectBothInterpretersMatchReference(r, ci, {}, "dequant", results);
    }
}

// The multi-kernel samples as `tilec run --chain` on both interpreters against the file's
// float64 reference of the whole chain.
struct ChainCase {
    std::string sample;
    std::vector<std::string> kernels;
    std::vector<std::string> params;
    std::string ref, finalOutputs;
};

TEST(SeedSamplesChain, ChainsMatchFloat64ReferenceOnBothInterpreters) {
    using namespace ts::cli::test;
    const std::vector<std::string> bwd = {"mha_fwd", "mha_bwd_preprocess", "mha_bwd_main", "mha_bwd_postprocess"};
    const ChainCase cases[] = {
        {"flash_decode.py", {"flash_decode_split", "flash_decode_combine"}, {"seqlen_kv=300"}, "decode_ref",
         "flash_decode_combine.O"},
        {"flash_decode.py", {"flash_decode_split", "flash_decode_combine"},
         {"heads=16", "groups=8", "seqlen_kv=100", "block_N=32", "num_split=5"}, "decode_ref",
         "flash_decode_combine.O"},
        {"rmsnorm_mlp.py", {"norm_gate_up", "down_proj"}, {"M=130", "D=72", "N=100"}, "mlp_ref", "down_proj.Y"},
        // The chain formulations: Xn written by rms_norm (rounded to the input dtype), then GEMMs.
        {"rmsnorm_matmul.py", {"rms_norm", "matmul_xn"}, {"M=130", "K=136", "N=300"}, "ref_program", "matmul_xn.Y"},
        {"rmsnorm_matmul.py", {"rms_norm", "matmul_xn"}, {"M=64", "K=72", "N=100", "dtype=bfloat16", "block_N=128", "num_stages=4"},
         "ref_program", "matmul_xn.Y"},
        {"rmsnorm_mlp.py", {"rms_norm", "gate_up", "down_proj"}, {"M=130", "D=72", "N=100"}, "mlp_ref", "down_proj.Y"},
        {"rmsnorm_mlp.py", {"rms_norm", "gate_up", "down_proj"}, {"M=64", "D=136", "N=72", "dtype=bfloat16", "block_N=64", "num_stages=4"},
         "mlp_ref", "down_proj.Y"},
        // S = 100 in 64-row tiles: ragged query and key tiles in every kernel.
        {"mha_bwd.py", bwd, {"seq_len=100"}, "bwd_ref",
         "mha_bwd_main.dK mha_bwd_main.dV mha_bwd_postprocess.dQ"},
        {"mha_bwd.py", bwd, {"seq_len=100", "is_causal=True"}, "bwd_ref",
         "mha_bwd_main.dK mha_bwd_main.dV mha_bwd_postprocess.dQ"},
        {"mha_bwd.py", bwd, {"seq_len=80", "heads=1", "batch=2", "dtype=bfloat16", "block_N=32", "is_causal=True"},
         "bwd_ref", "mha_bwd_main.dK mha_bwd_main.dV mha_bwd_postprocess.dQ"},
    };
    for (const auto& c : cases)
        for (const char* interp : {"tile", "lowered"}) {
            ts::cli::RunCommand run;
            run.flags.file = std::string(TS_SOURCE_DIR) + "/samples/" + c.sample;
            run.flags.target = "cuda:sm_80";
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

// sm_90a: gemms that share shared operand tiles (SwiGLU's X tile feeds the gate and the up
// GEMM; the MLP's X * G tile likewise; the backward reads K, Q, dO and dS in two GEMMs each) all
// take wgmma on the mma.sync fragment layouts (transforms/SelectHopperFragment.cpp: the wgmma_smem
// layout is a function of the stored tile, so gemm readers agree on it). Both interpreters run the
// wgmma intrinsics through wgmma's own fragments and must match float64; NVRTC compiles it.
struct Sm90aCase {
    Case c;
    int wgmmaSS, wgmmaRS;  ///< expected calls of each in the CUDA
};

size_t countOf(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

TEST(SeedSamplesSm90a, GemmsSharingOperandTilesTakeWgmmaAndMatchFloat64Reference) {
    const Sm90aCase cases[] = {
        // SwiGLU's body is just its two gemms: the in-flight schedule (InjectPipelineTmaFragment.cpp)
        // issues them in the loop with wait_group 2 and again, waited, in the peeled last iteration.
        {{"swiglu.py", "", {{"M", "200"}, {"N", "136"}, {"K", "72"}}, "swiglu"}, 4, 0},
        {{"swiglu.py", "", {{"M", "130"}, {"N", "64"}, {"K", "64"}, {"block_N", "64"}, {"dtype", "bfloat16"}},
          "swiglu_bf16"},
         4, 0},
        // The fused norms write the A tile with ordinary stores in the loop: one wgmma group in
        // flight (InjectPipelineWgmmaGeneric.cpp), issued in the loop and in the peeled last iteration.
        {{"rmsnorm_matmul.py", "", {{"M", "130"}, {"N", "100"}, {"K", "72"}}, "rmsnorm_matmul"}, 2, 0},
        {{"rmsnorm_mlp.py", "norm_gate_up", {{"M", "130"}, {"D", "72"}, {"N", "100"}}, "mlp_norm_gate_up"}, 4, 0},
        // K Q^T, V dO^T, dS^T Q, dS K from shared tiles; P^T dO with P^T from registers.
        {{"mha_bwd.py", "mha_fwd", {}, "bwd_fwd"}, 1, 1},
    };
    for (const auto& sc : cases) {
        ts::CompileResult r = compileCase(sc.c, "cuda:sm_90a", true);
        ASSERT_TRUE(r.ok) << sc.c.label << "\n" << diagText(r);
        EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_ss<"), size_t(sc.wgmmaSS)) << sc.c.label << "\n" << diagText(r);
        EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_rs<"), size_t(sc.wgmmaRS)) << sc.c.label;
        EXPECT_EQ(countOf(r.cuda, "ts::gemm_ss<") + countOf(r.cuda, "ts::gemm_rs<"), 0u) << sc.c.label;
        if (sc.c.sample == "swiglu.py") {  // 2 in flight in the loop (wait_group 2), 2 waited after it
            EXPECT_EQ(countOf(r.cuda, ", false, false, 2, ts::"), 2u) << r.cuda;
            EXPECT_EQ(countOf(r.cuda, ", false, false, 0, ts::"), 2u) << r.cuda;
        }
        ts::e2e::expectInterpretersMatchReference(r, sc.c.label, sc.c.ref);
        if (!ts::rt::nvrtcAvailable()) continue;
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << sc.c.label << "\n" << nv.log;
    }
}

// The fused RMSNorm loops (a T.Parallel writes X * G into the A tile, then the gemms) on sm_90a:
// the written tile has two copies (iteration k % 2), the cp.async loads run S-2 tiles ahead
// (refill into tile k-2's stage), each iteration's gemms are committed with wait_group G and the
// last iteration is peeled and waited; one fence.proxy.async + barrier per iteration, before the
// first gemm. The thread-level interpreter keeps a wgmma group's shared reads in flight until a
// wait_group retires it and reports a write to them before that (LoweredInterpTest's
// WriteIntoATileAnInflightWgmmaReadsIsARace); it runs the warpgroups in lockstep, so the
// cross-warpgroup ordering is argued in InjectPipelineWgmmaGeneric.cpp and bench/h200_rmsnorm.sh
// checks the result on the GPU. Ragged M, N, K; S = 3, 4; one iteration (K <= block_K).
TEST(SeedSamplesSm90a, FusedRmsnormLoopsKeepOneWgmmaGroupInFlight) {
    struct FusedCase {
        Case c;
        int G, S;
        int tma;           ///< producer copies loaded by TMA (rows a multiple of 16 bytes; never the 1-D G)
        bool loop = true;  ///< more than one iteration (else only the peeled, waited one)
    };
    const FusedCase cases[] = {
        {{"rmsnorm_matmul.py", "", {{"M", "130"}, {"N", "100"}, {"K", "520"}}, "fused_mm_s3"}, 1, 3, 1},  // W's rows 200 B: cp.async
        {{"rmsnorm_matmul.py", "", {{"M", "70"}, {"N", "136"}, {"K", "520"}, {"num_stages", "4"}, {"block_K", "64"}, {"dtype", "bfloat16"}},
          "fused_mm_s4_bf16"},
         1, 4, 2},
        {{"rmsnorm_matmul.py", "", {{"M", "64"}, {"N", "64"}, {"K", "24"}}, "fused_mm_one_iteration"}, 1, 3, 2, false},
        {{"rmsnorm_mlp.py", "norm_gate_up", {{"M", "130"}, {"D", "200"}, {"N", "72"}, {"num_stages", "4"}}, "fused_mlp_s4"}, 2, 4, 3},
        {{"rmsnorm_mlp.py", "norm_gate_up", {{"M", "64"}, {"D", "136"}, {"N", "64"}, {"dtype", "bfloat16"}}, "fused_mlp_bf16"}, 2, 3, 3},
    };
    for (const auto& fc : cases) {
        const Case& c = fc.c;
        ts::CompileResult r = compileCase(c, "cuda:sm_90a", true);
        ASSERT_TRUE(r.ok) << c.label << "\n" << diagText(r);
        std::string injected;
        for (const auto& snap : r.passes)
            if (snap.name == "inject-pipeline") injected = snap.ir;
        EXPECT_NE(injected.find("Xg_s = T.alloc_shared((2, "), std::string::npos) << c.label << " (two copies of the written tile)\n" << injected;
        const std::string inflight = ", false, false, " + std::to_string(fc.G) + ", ts::";
        EXPECT_EQ(countOf(r.cuda, inflight), size_t(fc.loop ? fc.G : 0)) << c.label << "\n" << r.cuda;
        EXPECT_EQ(countOf(r.cuda, ", false, false, 0, ts::"), size_t(fc.G)) << c.label << "\n" << r.cuda;
        // One per iteration, and one before the prologue of the TMA loads (InjectPipelineTmaLoads.cpp:
        // X and W by TMA on one mbarrier per stage, G (1-D) by cp.async).
        // (+1 for a staged epilogue, StageEpilogue.cpp.)
        EXPECT_EQ(countOf(r.cuda, "ts::fence_proxy_async();"), (fc.loop ? 3u : 2u) + ts::e2e::stagedEpilogues(r)) << c.label << " (one per iteration)\n" << r.cuda;
        // Which producers TMA loads: those whose rows are a multiple of 16 bytes (fc.tma), a note each.
        int tmaNotes = 0, cpNotes = 0;
        for (auto& d : r.diagnostics) {
            tmaNotes += d.message.find("is loaded by TMA in the T.Pipelined schedule") != std::string::npos;
            cpNotes += d.message.find("keeps cp.async in the T.Pipelined schedule") != std::string::npos;
        }
        EXPECT_EQ(tmaNotes, fc.tma) << c.label << "\n" << diagText(r);
        EXPECT_EQ(cpNotes, (c.sample == "rmsnorm_mlp.py" ? 4 : 3) - fc.tma) << c.label << "\n" << diagText(r);
        EXPECT_GE(countOf(r.cuda, "ts::tma_load_tile<"), size_t(fc.tma)) << c.label << "\n" << r.cuda;
        if (fc.loop) {
            EXPECT_GE(countOf(r.cuda, "(k % 2) * "), 2u) << c.label << " (store and gemm use copy k % 2)\n" << r.cuda;
            EXPECT_EQ(countOf(r.cuda, "ts::cp_async_wait<" + std::to_string(fc.S - 3) + ">();"), fc.S == 3 ? 3u : 2u)
                << c.label << " (S-3 pending in the loop and the peeled iteration)\n" << r.cuda;
            EXPECT_EQ(countOf(r.cuda, "ts::mbarrier_wait("), 2u) << c.label << " (the loop and the peeled iteration)\n" << r.cuda;
            EXPECT_GE(countOf(r.cuda, "ts_floormod((k - 2), " + std::to_string(fc.S) + ")"), 2u) << c.label << " (refill into tile k-2's stage)\n" << r.cuda;
        }
        ts::e2e::expectInterpretersMatchReference(r, c.label, c.ref);
        if (!ts::rt::nvrtcAvailable()) continue;
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << c.label << "\n" << nv.log;
    }
    // TILESCOPE_HOPPER_INFLIGHT=0: every gemm waited to completion, one tile copy, S-1 ahead.
    setenv("TILESCOPE_HOPPER_INFLIGHT", "0", 1);
    ts::CompileResult off = compileCase(cases[0].c, "cuda:sm_90a", false);
    unsetenv("TILESCOPE_HOPPER_INFLIGHT");
    ASSERT_TRUE(off.ok) << diagText(off);
    EXPECT_EQ(countOf(off.cuda, ", false, false, 0, ts::"), 1u) << off.cuda;
    EXPECT_EQ(countOf(off.cuda, "k % 2"), 0u) << off.cuda;
    EXPECT_EQ(countOf(off.cuda, "ts::cp_async_wait<1>();"), 1u) << off.cuda;
}

// The chain formulations of the RMSNorm samples exist so that their GEMM loops hold nothing but
// tile copies and gemms: on sm_90a (rows a multiple of 16 bytes) matmul_xn takes the TMA + wgmma
// path of samples/gemm.py (one gemm in flight across iterations: wait_group 1 in the loop, the
// accumulator waited after it) and gate_up the fragment path's in-flight schedule (wait_group 2 in
// the loop, the peeled last iteration waited). Ragged M and K; both interpreters against float64.
TEST(SeedSamplesSm90a, RmsnormChainGemmsTakeTmaAndInflightWgmma) {
    const Case mm{"rmsnorm_matmul.py", "matmul_xn", {{"M", "130"}, {"N", "200"}, {"K", "136"}}, "chain_matmul_xn_sm90a", "matmul_ref"};
    const Case gu{"rmsnorm_mlp.py", "gate_up", {{"M", "130"}, {"D", "136"}, {"N", "200"}, {"dtype", "bfloat16"}},
                  "chain_gate_up_sm90a", "gate_up_ref"};
    for (const Case* c : {&mm, &gu}) {
        ts::CompileResult r = compileCase(*c, "cuda:sm_90a", true);
        ASSERT_TRUE(r.ok) << c->label << "\n" << diagText(r);
        EXPECT_GE(countOf(r.cuda, "ts::tma_load_tile<"), 2u) << c->label << "\n" << r.cuda;
        EXPECT_EQ(countOf(r.cuda, "ts::gemm_ss<") + countOf(r.cuda, "ts::cp_async16("), 0u) << c->label << "\n" << r.cuda;
        // After the barrier init; matmul_xn has gemm.py's one block barrier per iteration (its
        // stage release), gate_up's stages are released through empty mbarriers; both stage
        // their epilogue (StageEpilogue.cpp: a barrier before the staged tile's writes, one
        // before its TMA store).
        EXPECT_EQ(ts::e2e::stagedEpilogues(r), 1u) << c->label;
        EXPECT_EQ(countOf(r.cuda, "__syncthreads();"), (c == &mm ? 2u : 1u) + 2) << c->label << "\n" << r.cuda;
        if (c == &mm) {
            EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_ss<128, 256, 32, 2, false, false, 1, ts::half>"), 1u) << r.cuda;
        } else {
            EXPECT_EQ(countOf(r.cuda, ", false, false, 2, ts::bfloat16>"), 2u) << r.cuda;
            EXPECT_EQ(countOf(r.cuda, ", false, false, 0, ts::bfloat16>"), 2u) << r.cuda;
        }
        ts::e2e::expectInterpretersMatchReference(r, c->label, c->ref);
        if (!ts::rt::nvrtcAvailable()) continue;
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << c->label << "\n" << nv.log;
    }
}

TEST(SeedSamplesSm90a, BackwardMainKernelTakesWgmmaForAllFiveGemms) {
    ts::CompileResult r = compileCase({"mha_bwd.py", "mha_bwd_main", {}, "bwd_main"}, "cuda:sm_90a", false);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_ss<"), 4u) << diagText(r);
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_rs<"), 1u) << diagText(r);
    // Proxy fence + block barrier: two before the loop (the TMA-loaded K and V tiles), and in the
    // loop only before dS^T Q (dS^T was just stored); the other gemms read nothing written since
    // (InjectPipeline.cpp dropRepeatedWgmmaFences). The loop's top barrier (after the stage's
    // mbarrier wait; it orders the reads of the stage the refill overwrites) has no fence: every
    // producer is a TMA load (async-proxy writes, seen once the mbarrier completes) and the body
    // ends clean (dS^T was fenced for dS^T Q in the same iteration). Barriers: the mbarrier-init
    // one and those four. Q, dO and the lse/Delta rows (1-D tiles: one box of one row, seq_len 100
    // floats = 400-byte rows) are TMA loads of the cp.async schedule (InjectPipelineTmaLoads.cpp:
    // one stage mbarrier with their summed bytes), whose stage barriers are initialised after a
    // block barrier and published by a fence + barrier: one fence and two barriers more, all
    // before the loop. TILESCOPE_WGMMA_TOP_FENCE=1 keeps the top fence (the code before).
    // A staged epilogue (StageEpilogue.cpp) adds one fence and two barriers after the loop.
    const size_t staged = ts::e2e::stagedEpilogues(r);
    EXPECT_EQ(countOf(r.cuda, "ts::fence_proxy_async();"), 4u + staged) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "__syncthreads();"), 7u + 2 * staged) << r.cuda;
    const size_t loop = r.cuda.find("for (int qt = "), top = r.cuda.find("__syncthreads();", loop);
    ASSERT_NE(loop, std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.substr(loop, top - loop).find("ts::fence_proxy_async();"), std::string::npos)
        << "a proxy fence before the loop's top barrier\n" << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::tma_load_tile<1, 64, 64>(&tma_map_0, &Q_s["), 2u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::tma_load_tile<1, 64, 1>(&tma_map_1, &lse_s["), 2u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::tma_load_tile<1, 64, 64>(&tma_map_2, &dO_s["), 2u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::tma_load_tile<1, 64, 1>(&tma_map_3, &delta_s["), 2u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "mbarrier_arrive_expect_tx(&tma_stage_full_0["), 2u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, ", 16896);"), 2u) << "2 x 8192 + 2 x 256 bytes per stage\n" << r.cuda;
    EXPECT_EQ(r.cuda.find("cp_async"), std::string::npos) << "every load of the loop is TMA\n" << r.cuda;
    // Independent gemm pairs (InjectPipeline.cpp pairIndependentWgmmas): P^T dO (rs) and dS^T Q
    // stay in flight (wait_group 1) while V dO^T and dS K are issued; each pair's second wait
    // retires both and pins the first one's accumulator.
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_rs<64, 64, 64, 1, false, ts::half, 1>(&pT[0]"), 1u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_ss<64, 64, 64, 1, false, false, 1, ts::half>(&dS_s[0]"), 1u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_wait<0, 32>(&dv[0]);"), 1u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_wait<0, 32>(&dk[0]);"), 1u) << r.cuda;
    // dS^T into its swizzled tile: one 4-byte store per column pair (VectorAccess.h groupShape's
    // swizzle rule), no scalar copy of the loop (the tile's offset is aligned).
    EXPECT_EQ(countOf(r.cuda, "ts_vec_store<ts::half, 2>(&dS_s["), 1u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "        dS_s["), 0u) << r.cuda;
    // dQ: one red.global.add.v2.f32 per accumulator column pair (VectorAccess.h planVectorAtomic;
    // the lane-pair v4 form is opt-in), with the scalar loop for a base not 8-byte aligned.
    EXPECT_EQ(countOf(r.cuda, "ts::atomic_add_v2(&dQ_acc["), 1u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "atomic_add_pair_v4"), 0u) << r.cuda;
    if (ts::rt::nvrtcAvailable()) {
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << nv.log;
        ts::CompileResult r80 = compileCase({"mha_bwd.py", "mha_bwd_main", {}, "bwd_main"}, "cuda:sm_80", false);
        ASSERT_TRUE(r80.ok) << diagText(r80);
        auto nv80 = ts::rt::compileCuda(r80.cuda, "sm_80", {}, true);
        EXPECT_TRUE(nv80.ok) << nv80.log;
    }
    // And the whole backward chain on the thread interpreter, compiled for sm_90a.
    using namespace ts::cli::test;
    // The last: two warpgroups (block_M 128, 256 threads) share the Q/dO/dS tiles.
    const std::vector<std::vector<std::string>> params = {
        {"seq_len=100", "is_causal=False"}, {"seq_len=100", "is_causal=True"},
        {"seq_len=200", "is_causal=True", "block_M=128", "threads=256"},
        // dQ staged in shared memory and added by one TMA reduce-add (T.atomic_add(..., use_tma=True)).
        {"seq_len=100", "is_causal=True", "dq_tma=True"},
        // dS kept in registers too: dK += dS Q (rs) in flight while dS is stored for dQ.
        {"seq_len=100", "is_causal=True", "ds_regs=True"},
        {"seq_len=200", "is_causal=False", "ds_regs=True", "block_M=128", "threads=256"},
        // lse/Delta rows of 130 floats (520 bytes, not a multiple of 16): those two stay cp.async
        // beside the TMA-loaded Q/dO tiles of the same stage.
        {"seq_len=130", "is_causal=True"}};
    for (const auto& p : params) {
        const std::string causal = p[1];
        ts::cli::RunCommand run;
        run.flags.file = std::string(TS_SOURCE_DIR) + "/samples/mha_bwd.py";
        run.flags.target = "cuda:sm_90a";
        run.flags.params = p;
        run.interp = "lowered";
        run.chain = {"mha_fwd", "mha_bwd_preprocess", "mha_bwd_main", "mha_bwd_postprocess"};
        run.ref = "bwd_ref";
        auto o = captureCli([&] { return ts::cli::runChain(run); });
        EXPECT_EQ(o.rc, 0) << causal << "\n" << o.out << o.err;
        EXPECT_TRUE(contains(o.out, "\nPASS\n")) << o.out;
    }
}

// ds_regs=True (FlashAttention-3's order): dS^T is stored for dQ = dS^T K first, then dK += dS^T Q
// reads it from registers (wgmma rs, no proxy fence: it reads Q_s, which nothing wrote since the
// top barrier) and stays in flight (wait_group 1) across dQ's fence and block barrier; dQ's wait
// retires both (InjectPipeline.cpp dropRepeatedWgmmaFences, pairIndependentWgmmas).
TEST(SeedSamplesSm90a, BackwardDsInRegistersKeepsDkInFlightAcrossTheBarrier) {
    ts::CompileResult r = compileCase({"mha_bwd.py", "mha_bwd_main", {{"ds_regs", "True"}}, "bwd_main"}, "cuda:sm_90a", false);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_ss<"), 3u) << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_rs<"), 2u) << r.cuda;
    const char* dk = "ts::wgmma_gemm_rs<64, 64, 64, 1, false, ts::half, 1>(&dsT[0], &Q_s[";
    const size_t at = r.cuda.find(dk), store = r.cuda.rfind("ts_vec_store<ts::half, 2>(&dS_s[", at),
                 fence = r.cuda.find("ts::fence_proxy_async();", store), barrier = r.cuda.find("__syncthreads();", at),
                 dq = r.cuda.find("(&dS_s[0], &K_s[0], &dq[0]);", at), retire = r.cuda.find("ts::wgmma_wait<0, 32>(&dk[0]);", at);
    ASSERT_NE(at, std::string::npos) << r.cuda;
    ASSERT_NE(store, std::string::npos) << r.cuda;
    EXPECT_GT(fence, at) << "no proxy fence between the dS store and dK's gemm\n" << r.cuda;
    EXPECT_LT(fence, barrier) << r.cuda;
    EXPECT_LT(barrier, dq) << r.cuda;
    EXPECT_LT(dq, retire) << r.cuda;
    EXPECT_NE(retire, std::string::npos) << r.cuda;
    if (ts::rt::nvrtcAvailable()) {
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        ASSERT_TRUE(nv.ok) << nv.log;
        for (auto& k : nv.ptxas.kernels) {
            EXPECT_FALSE(k.wgmmaSerialized) << ts::rt::ptxasSummary(k);
            EXPECT_EQ(k.spillStoreBytes, 0) << ts::rt::ptxasSummary(k);
        }
    }
}

// The fastest MHA backward form measured (H100, 2026-12-05d, bench/h200_call_2026_12_05h.sh: main
// kernel 0.531 ms at B8 H32 S1024 D64 against 0.572 ms at 128x64 and 0.682 ms at the default
// 64x64): 128 keys x 128 queries per iteration on two warpgroups with dS^T in registers, 255
// registers without spills. Its chain at ragged S (causal and not) on both interpreters against
// float64 on sm_90a, and NVRTC for sm_90a; the GPU checked it at B2 H8 S1000 causal in that call.
TEST(SeedSamplesSm90a, BackwardFastConfigurationMatchesFloat64) {
    using namespace ts::cli::test;
    for (const char* causal : {"False", "True"})
        for (const char* interp : {"tile", "lowered"}) {
            ts::cli::RunCommand run;
            run.flags.file = std::string(TS_SOURCE_DIR) + "/samples/mha_bwd.py";
            run.flags.target = "cuda:sm_90a";
            run.flags.params = {"seq_len=200", "heads=1", "block_M=128", "block_N=128", "threads=256", "ds_regs=True",
                                std::string("is_causal=") + causal};
            run.interp = interp;
            run.chain = {"mha_fwd", "mha_bwd_preprocess", "mha_bwd_main", "mha_bwd_postprocess"};
            run.ref = "bwd_ref";
            auto o = captureCli([&] { return ts::cli::runChain(run); });
            EXPECT_EQ(o.rc, 0) << causal << " " << interp << "\n" << o.out << o.err;
            EXPECT_TRUE(contains(o.out, "\nPASS\n")) << causal << " " << interp << "\n" << o.out;
        }
    ts::CompileResult r = compileCase({"mha_bwd.py", "mha_bwd_main",
                                       {{"seq_len", "1024"}, {"block_M", "128"}, {"block_N", "128"}, {"threads", "256"}, {"ds_regs", "True"}},
                                       "bwd_fast"},
                                      "cuda:sm_90a", false);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(countOf(r.cuda, "ts::wgmma_gemm_rs<"), 2u) << r.cuda;
    if (ts::rt::nvrtcAvailable()) {
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << nv.log;
    }
}

}  // namespace
