// Named constructs of real TileLang kernels that stopped at 'not supported yet' (issue 8, the
// first-error class of bench/results/conformance-lang-2026-12-02-classes.md), each in a program
// of our own under tests/e2e/programs/: both interpreters (tile level and the lowered
// thread-level IR) against a float64 ref_program or values derived by hand, and the generated
// CUDA through NVRTC for sm_80 and sm_90a.
//  - reinterpret_bits.py: T.reinterpret (bit cast) in helper functions: the float32 exponent
//    field, 2**e from bits, |x| by clearing the sign bit (and TVM's older dtype-first order);
//  - reinterpret_widths.py: T.reinterpret at 16, 32 and 64 bits on hand-derived bit patterns;
//  - thread_index_sum.py: thread-level (SIMT) code with T.get_thread_binding, a register
//    (T.alloc_var) per thread, a shared-memory tree reduction and explicit barriers;
//  - thread_binding_mask.py: `tx = T.thread_binding(0, threads, thread="threadIdx.x")` and the
//    loop form `for t in T.thread_binding(threads, "threadIdx.x")`;
//  - loop_exit.py / loop_exit_threads.py: run-time `break` and `continue` in T.serial loops,
//    block-uniform and different per thread;
//  - thread_histogram.py: T.fill of a shared tile and scalar T.atomic_add per thread inside
//    thread-level code;
//  - tensor_view.py: T.Tensor(shape, dtype, X.data) and T.reshape(Y, shape) views of tensors;
//  - conv_im2col.py: T.im2col + flattened filter/output views (TileLang's convolution
//    example's form), checked against a float64 direct convolution computed here.
// The tile-level interpreter runs a kernel that reads the thread index thread by thread
// (Interpreter.h): T.fill and scalar atomics there run as the lowered code does them, any
// other tile op is a diagnostic (last test).
#include <cstring>

#include <algorithm>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/ir/Printer.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

using ts::e2e::diagText;

struct Case {
    std::string path;  ///< relative to the repository root
    std::map<std::string, std::string> params;
    std::string label;
};

ts::CompileResult compileFor(const Case& c, const char* target) {
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = target;
    return ts::compile(c.path, ts::e2e::readRepoFile(c.path), opts);
}

class LangConstructs : public ::testing::TestWithParam<Case> {};

TEST_P(LangConstructs, GeneratedCudaCompilesForSm80AndSm90a) {
    const Case& c = GetParam();
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileFor(c, target);
        ASSERT_TRUE(r.ok) << diagText(r);
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

class LangConstructsWithReference : public ::testing::TestWithParam<Case> {};

TEST_P(LangConstructsWithReference, BothInterpretersMatchFloat64Reference) {
    const Case& c = GetParam();
    ts::CompileResult r = compileFor(c, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, c.label);
}

const char* kBits = "tests/e2e/programs/reinterpret_bits.py";
const char* kWidths = "tests/e2e/programs/reinterpret_widths.py";
const char* kThreadSum = "tests/e2e/programs/thread_index_sum.py";
const char* kThreadMask = "tests/e2e/programs/thread_binding_mask.py";
const char* kLoopExit = "tests/e2e/programs/loop_exit.py";
const char* kLoopExitThreads = "tests/e2e/programs/loop_exit_threads.py";
const char* kHistogram = "tests/e2e/programs/thread_histogram.py";
const char* kView = "tests/e2e/programs/tensor_view.py";
const char* kConv = "tests/e2e/programs/conv_im2col.py";

const Case kWithReference[] = {
    {kBits, {}, "reinterpret_float32_fields"},
    // One partial block: 70 of 128 lanes.
    {kBits, {{"N", "70"}}, "reinterpret_partial_block"},
    {kThreadSum, {}, "thread_index_tree_sum"},
    // 32 threads (5 halving steps), rows shorter than the block.
    {kThreadSum, {{"N", "20"}, {"threads", "32"}}, "thread_index_tree_sum_short_rows"},
    {kThreadMask, {}, "thread_binding_mask"},
    {kThreadMask, {{"N", "64"}, {"threads", "128"}}, "thread_binding_mask_wide_block"},
    {kLoopExit, {}, "break_and_continue"},
    // A limit no row reaches: the loop runs to its end.
    {kLoopExit, {{"limit", "1000.0"}, {"N", "17"}}, "break_never_taken"},
    {kLoopExitThreads, {}, "break_per_thread"},
    {kHistogram, {}, "fill_and_atomics_in_thread_code"},
    // More bins than elements per thread round; 64 threads.
    {kHistogram, {{"N", "100"}, {"bins", "40"}, {"threads", "64"}}, "fill_and_atomics_40_bins"},
    {kView, {}, "tensor_views"},
    {kView, {{"B", "4"}, {"R", "16"}, {"C", "96"}}, "tensor_views_full_tiles"},
};
const Case kAll[] = {
    {kBits, {}, "reinterpret_float32_fields"},
    {kWidths, {}, "reinterpret_widths"},
    {kThreadSum, {}, "thread_index_tree_sum"},
    {kThreadMask, {}, "thread_binding_mask"},
    {kLoopExit, {}, "break_and_continue"},
    {kLoopExitThreads, {}, "break_per_thread"},
    {kHistogram, {}, "fill_and_atomics_in_thread_code"},
    {kView, {}, "tensor_views"},
    {kConv, {}, "conv_im2col"},
    {kConv, {{"S", "2"}, {"D", "2"}, {"P", "2"}, {"H", "9"}, {"W", "7"}}, "conv_im2col_strided_dilated"},
};

std::string caseName(const ::testing::TestParamInfo<Case>& i) { return i.param.label; }

INSTANTIATE_TEST_SUITE_P(Programs, LangConstructsWithReference, ::testing::ValuesIn(kWithReference),
                         caseName);
INSTANTIATE_TEST_SUITE_P(Programs, LangConstructs, ::testing::ValuesIn(kAll), caseName);

/// Runs `r` on the tile-level interpreter (lowered = false) or on its lowered IR with `inputs`
/// for its input parameters (in order); returns every argument after the run.
std::vector<ts::HostTensor> runWith(const ts::CompileResult& r, const std::vector<ts::HostTensor>& inputs,
                                    bool lowered, std::string* error) {
    std::vector<ts::HostTensor> args;
    size_t next = 0;
    for (auto& a : r.kernel.args) {
        if (!a.isOutput) {
            args.push_back(inputs.at(next++));
            continue;
        }
        ts::HostTensor out;
        out.dtype = a.dtype;
        out.shape = a.shape;
        out.data.assign(static_cast<size_t>(out.numel()), std::nan(""));
        args.push_back(std::move(out));
    }
    auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
    if (!run.ok) *error = run.error ? run.error->message : "failed";
    return args;
}

int64_t bitsOf(double v) {
    int64_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}
int64_t bitsOf(float v) {
    int32_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}

// Bit patterns by hand (IEEE 754 binary16, bfloat16 = the high half of binary32), float32 and
// float64 ones through memcpy on the host.
TEST(LangConstructsHand, ReinterpretGivesTheBitPatternsOnBothInterpreters) {
    ts::CompileResult r = compileFor({kWidths, {}, "widths"}, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << diagText(r);
    using ts::ir::DType;
    std::vector<ts::HostTensor> in = {
        ts::makeHostTensor(DType::Float16, {4}, {1.0, -2.0, 0.5, 65504.0}),
        ts::makeHostTensor(DType::BFloat16, {4}, {1.0, -1.0, 3.0, 0.0}),
        ts::makeHostTensor(DType::Float32, {4}, {1.0, -2.0, 0.1f, 0.0}),
        ts::makeHostTensor(DType::Float64, {4}, {1.0, -2.0, 0.5, -0.0}),
    };
    const std::vector<double> hb = {0x3C00, -16384 /* 0xC000 */, 0x3800, 0x7BFF};
    const std::vector<double> bb = {0x3F80, 0xBF80, 0x4040, 0};
    std::vector<double> fb, db;
    for (float f : {1.0f, -2.0f, 0.1f, 0.0f}) fb.push_back(double(bitsOf(f)));
    for (double d : {1.0, -2.0, 0.5, -0.0}) db.push_back(double(bitsOf(d)));
    EXPECT_EQ(fb[0], 1065353216.0);   // 0x3F800000
    EXPECT_EQ(db[3], -9223372036854775808.0);  // -0.0: only the sign bit
    const std::vector<double> back = {-1.0, 2.0, -0.5, -65504.0};
    for (bool lowered : {false, true}) {
        std::string err;
        auto args = runWith(r, in, lowered, &err);
        ASSERT_TRUE(err.empty()) << (lowered ? "lowered: " : "tile: ") << err;
        EXPECT_EQ(args[4].data, hb) << "float16 -> int16, lowered=" << lowered;
        EXPECT_EQ(args[5].data, bb) << "bfloat16 -> uint16, lowered=" << lowered;
        EXPECT_EQ(args[6].data, fb) << "float32 -> int32, lowered=" << lowered;
        EXPECT_EQ(args[7].data, db) << "float64 -> int64, lowered=" << lowered;
        EXPECT_EQ(args[8].data, back) << "sign bit flipped through uint16, lowered=" << lowered;
    }
}

// The printed tile IR of each program re-parses to the same text (views are declared at the
// top of the kernel body, T.reinterpret prints its dtype, loop exits print as their flag).
TEST_P(LangConstructs, PrintedIrRoundTrips) {
    const Case& c = GetParam();
    ts::CompileResult r = compileFor(c, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << diagText(r);
    const std::string first = ts::ir::print(r.elaborated).text;
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult again = ts::compile("printed.py", first, opts);
    ASSERT_TRUE(again.ok) << diagText(again) << "\n" << first;
    EXPECT_EQ(ts::ir::print(again.elaborated).text, first);
}

// T.im2col + views: a 3x3 convolution (and a stride-2, dilation-2, pad-2 one, and a 1x1) on
// both interpreters against a float64 direct convolution of the same fp16 inputs.
TEST(LangConstructsHand, Im2colConvolutionMatchesDirectFloat64Convolution) {
    struct Shape {
        int64_t N, C, H, W, F, K, S, D, P;
    };
    for (Shape g : {Shape{2, 32, 6, 5, 16, 3, 1, 1, 1}, Shape{1, 64, 9, 7, 16, 3, 2, 2, 2},
                    Shape{3, 32, 4, 4, 32, 1, 1, 1, 0}}) {
        std::map<std::string, std::string> params;
        for (auto [k, v] : {std::pair{"N", g.N}, {"C", g.C}, {"H", g.H}, {"W", g.W}, {"F", g.F},
                            {"K", g.K}, {"S", g.S}, {"D", g.D}, {"P", g.P}})
            params[k] = std::to_string(v);
        ts::CompileResult r = compileFor({kConv, params, "conv"}, "cuda:sm_80");
        ASSERT_TRUE(r.ok) << diagText(r);
        const int64_t OH = (g.H + 2 * g.P - g.D * (g.K - 1) - 1) / g.S + 1;
        const int64_t OW = (g.W + 2 * g.P - g.D * (g.K - 1) - 1) / g.S + 1;
        std::vector<double> img(g.N * g.H * g.W * g.C), flt(g.K * g.K * g.C * g.F);
        for (size_t i = 0; i < img.size(); ++i) img[i] = double(int64_t(i * 37 % 19) - 9) / 8.0;
        for (size_t i = 0; i < flt.size(); ++i) flt[i] = double(int64_t(i * 53 % 23) - 11) / 16.0;
        using ts::ir::DType;
        std::vector<ts::HostTensor> in = {ts::makeHostTensor(DType::Float16, {g.N, g.H, g.W, g.C}, img),
                                          ts::makeHostTensor(DType::Float16, {g.K, g.K, g.C, g.F}, flt)};
        std::vector<double> ref(g.N * OH * OW * g.F, 0.0);
        double scale = 0;
        for (int64_t n = 0; n < g.N; ++n)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow)
                    for (int64_t f = 0; f < g.F; ++f) {
                        double acc = 0;
                        for (int64_t kh = 0; kh < g.K; ++kh)
                            for (int64_t kw = 0; kw < g.K; ++kw) {
                                int64_t h = oh * g.S + kh * g.D - g.P, w = ow * g.S + kw * g.D - g.P;
                                if (h < 0 || h >= g.H || w < 0 || w >= g.W) continue;
                                for (int64_t c = 0; c < g.C; ++c)
                                    acc += img[((n * g.H + h) * g.W + w) * g.C + c] *
                                           flt[((kh * g.K + kw) * g.C + c) * g.F + f];
                            }
                        ref[((n * OH + oh) * OW + ow) * g.F + f] = acc;
                        scale = std::max(scale, std::fabs(acc));
                    }
        ASSERT_GT(scale, 1.0);
        for (bool lowered : {false, true}) {
            std::string err;
            auto args = runWith(r, in, lowered, &err);
            ASSERT_TRUE(err.empty()) << (lowered ? "lowered: " : "tile: ") << err;
            ASSERT_EQ(args[2].data.size(), ref.size());
            double worst = 0;
            for (size_t i = 0; i < ref.size(); ++i) worst = std::max(worst, std::fabs(args[2].data[i] - ref[i]));
            // The inputs are exact in fp16, the products exact in fp32: only the fp16 output
            // rounding (half an ulp of |out| <= scale) and fp32 summation remain.
            EXPECT_LE(worst, scale * 1e-3) << "K=" << g.K << " S=" << g.S << " lowered=" << lowered;
        }
    }
}

// A tile op without a per-thread meaning (T.copy) in a kernel that reads the thread index: it
// compiles (every thread reaches it), but the tile-level interpreter, which runs such a kernel
// thread by thread, names it instead of running it once per thread.
TEST(LangConstructsHand, TileInterpreterRunsATileOpOnceInThreadLevelCode) {
    const char* src = R"(import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((64,), "float32")
        T.copy(A, s)
        B[tx] = s[63 - tx] + 1.0
)";
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile("tile_op_simt.py", src, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<double> a(64);
    for (int i = 0; i < 64; ++i) a[i] = i;
    std::vector<ts::HostTensor> args = {ts::makeHostTensor(ts::ir::DType::Float32, {64}, a),
                                        ts::makeHostTensor(ts::ir::DType::Float32, {64}, std::vector<double>(64, 0.0))};
    // The tile level runs the block's T.copy once for all its threads (ThreadTileLevel.cpp,
    // tileOpCollective), then each thread its reversed read.
    auto tile = ts::interp::run(r.elaborated, args);
    ASSERT_TRUE(tile.ok) << (tile.error ? tile.error->message : "");
    for (int i = 0; i < 64; ++i) EXPECT_EQ(args[1].data[i], 64.0 - i) << i;
    std::fill(args[1].data.begin(), args[1].data.end(), 0.0);
    // The lowered kernel runs: the copy, the barrier insert-sync puts after it, the reversed read.
    auto lowered = ts::interp::runLowered(r.lowered, args);
    ASSERT_TRUE(lowered.ok) << (lowered.error ? lowered.error->message : "");
    for (int i = 0; i < 64; ++i) EXPECT_EQ(args[1].data[i], 64.0 - i) << i;
}

}  // namespace
