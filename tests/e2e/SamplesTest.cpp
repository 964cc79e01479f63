// Every sample, end to end without a GPU: compile for sm_80 and sm_90a, NVRTC-compile the CUDA,
// run the elaborated program on the CPU interpreter with fresh random inputs (outputs poisoned
// with NaN), and compare with the sample's ref_program evaluated in float64 — at sizes that are
// and are not multiples of the tiles.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/frontend/Module.h"
#include "compiler/interp/Interpreter.h"
#include "profiler/check/Compare.h"
#include "profiler/check/Inputs.h"
#include "profiler/check/Reference.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

struct Case {
    std::string sample;
    std::map<std::string, std::string> params;
    std::string label;
};

std::string readSample(const std::string& name) { return ts::e2e::readRepoFile("samples/" + name); }
using ts::e2e::diagText;

class Samples : public ::testing::TestWithParam<Case> {};

TEST_P(Samples, InterpreterMatchesFloat64Reference) {
    const Case& c = GetParam();
    std::string text = readSample(c.sample);
    ASSERT_FALSE(text.empty()) << c.sample;
    ts::CompileOptions opts;
    opts.params = c.params;
    ts::CompileResult r = ts::compile("samples/" + c.sample, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    ASSERT_TRUE(r.elaborated);

    std::vector<ts::rt::TensorParam> sig;
    for (auto& a : r.kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
    ts::rt::InputOptions io;
    io.fresh = true;
    auto set = ts::rt::makeInputs(sig, io);
    std::vector<ts::HostTensor> args = set.tensors, inputs;
    for (size_t i = 0; i < args.size(); ++i) {
        if (sig[i].isOutput)
            args[i].data.assign(static_cast<size_t>(args[i].numel()), std::nan(""));
        else
            inputs.push_back(args[i]);
    }
    auto run = ts::interp::run(r.elaborated, args);
    ASSERT_TRUE(run.ok) << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");

    std::map<std::string, std::string> fp;
    for (auto& p : r.params) fp[p.name] = p.value;
    auto ref = ts::rt::evalReference(*r.module->ast(), fp, inputs);
    ASSERT_TRUE(ref.ok) << (ref.diagnostics.empty() ? "" : ref.diagnostics[0].message);
    size_t k = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        if (!sig[i].isOutput) continue;
        ASSERT_LT(k, ref.outputs.size());
        auto cmp = ts::rt::compare(args[i], ref.outputs[k++]);
        EXPECT_TRUE(cmp.pass) << c.label << " " << sig[i].name << " seed " << set.seed << ": "
                              << ts::rt::describe(cmp);
        EXPECT_EQ(cmp.nanCount, 0) << "unwritten output elements";
    }
}

TEST_P(Samples, GeneratedCudaCompilesForSm80AndSm90a) {
    const Case& c = GetParam();
    std::string text = readSample(c.sample);
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.params = c.params;
        opts.target = target;
        opts.recordSnapshots = false;
        ts::CompileResult r = ts::compile("samples/" + c.sample, text, opts);
        ASSERT_TRUE(r.ok) << diagText(r);
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

const Case kCases[] = {
    {"gemm.py", {{"M", "256"}, {"N", "256"}, {"K", "128"}}, "gemm_fp16_divisible"},
    {"gemm.py", {{"M", "200"}, {"N", "136"}, {"K", "72"}}, "gemm_fp16_ragged"},
    {"gemm.py",
     {{"M", "130"}, {"N", "250"}, {"K", "100"}, {"dtype", "bfloat16"}},
     "gemm_bf16_ragged"},
    {"gemm.py",
     {{"M", "64"},
      {"N", "192"},
      {"K", "96"},
      {"block_M", "64"},
      {"block_N", "64"},
      {"block_K", "64"},
      {"num_stages", "2"}},
     "gemm_small_tiles"},
    {"softmax.py", {{"M", "8"}, {"N", "1000"}}, "softmax_1000"},
    {"softmax.py", {{"M", "6"}, {"N", "8192"}}, "softmax_8192"},
    {"softmax.py",
     {{"M", "10"}, {"N", "77"}, {"block_M", "4"}, {"threads", "128"}},
     "softmax_ragged_rows"},
    {"add.py", {{"M", "100"}, {"N", "300"}}, "add_ragged"},
    {"add.py", {{"M", "64"}, {"N", "256"}, {"dtype", "float16"}}, "add_fp16"},
};

INSTANTIATE_TEST_SUITE_P(All, Samples, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

// The samples keep their work counts as `def total_flops(M, N, K)` / `def total_bytes(...)` (valid
// Python, so the files also run under TileLang); TileScope evaluates them with the kernel's
// parameter values. Expected values are the formulas written out by hand.
struct WorkCase {
    std::string sample;
    std::map<std::string, std::string> params;
    double flops, bytes;
};

TEST(SampleWorkCounts, FlopsAndBytesFollowTheParameters) {
    const WorkCase cases[] = {
        {"gemm.py", {{"M", "256"}, {"N", "192"}, {"K", "128"}},
         2.0 * 256 * 192 * 128, (256.0 * 128 + 128 * 192 + 256 * 192) * 2},
        {"gemm.py", {{"M", "100"}, {"N", "300"}, {"K", "64"}, {"dtype", "bfloat16"}},
         2.0 * 100 * 300 * 64, (100.0 * 64 + 64 * 300 + 100 * 300) * 2},
        {"gemm.py", {}, 2.0 * 512 * 512 * 512, 3.0 * 512 * 512 * 2},  // the defaults
        {"softmax.py", {{"M", "8"}, {"N", "1000"}}, 5.0 * 8 * 1000, 2.0 * 8 * 1000 * 4},
        {"add.py", {{"M", "100"}, {"N", "300"}}, 100.0 * 300, 3.0 * 100 * 300 * 4},
        {"add.py", {{"M", "64"}, {"N", "256"}, {"dtype", "float16"}}, 64.0 * 256,
         3.0 * 64 * 256 * 2},
        // Two seq^2 x dim matmuls per head; causal halves them. Bytes: Q and O with `heads`
        // heads, K and V with heads / groups, fp16.
        {"flash_attn_fwd.py", {{"seq_len", "4096"}, {"heads", "16"}, {"dim", "128"}},
         4.0 * 16 * 4096 * 4096 * 128, (2.0 * 16 + 2 * 16) * 4096 * 128 * 2},
        {"flash_attn_fwd.py",
         {{"batch", "4"}, {"seq_len", "1000"}, {"heads", "32"}, {"groups", "8"}, {"dim", "128"},
          {"is_causal", "True"}, {"dtype", "bfloat16"}},
         4.0 * 4 * 32 * 1000 * 1000 * 128 / 2, (2.0 * 32 + 2 * 4) * 4 * 1000 * 128 * 2},
    };
    for (const auto& c : cases) {
        ts::CompileOptions opts;
        opts.params = c.params;
        opts.recordSnapshots = false;
        ts::CompileResult r = ts::compile("samples/" + c.sample, readSample(c.sample), opts);
        ASSERT_TRUE(r.ok) << c.sample << "\n" << diagText(r);
        ASSERT_TRUE(r.flops && r.bytes) << c.sample;
        EXPECT_DOUBLE_EQ(*r.flops, c.flops) << c.sample;
        EXPECT_DOUBLE_EQ(*r.bytes, c.bytes) << c.sample;
    }
}

}  // namespace
