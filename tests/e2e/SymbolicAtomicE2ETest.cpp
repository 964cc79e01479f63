// Symbolic sizes, scalar kernel parameters and tile-level atomics end to end, without a GPU:
// - tests/e2e/programs/dynamic_gemm.py (M = T.dynamic("M"), `scale: T.float32`) is compiled
//   once and run at two sizes (a multiple of the tile and not) on the tile interpreter and the
//   thread-level interpreter of the lowered IR, against C = scale * A @ B computed here in
//   float64; the launch binding (compiler/LaunchArgs.h) gives the grid and rejects a tensor whose
//   dimension disagrees with M, naming the dimension; the CUDA takes `int M, float scale` and
//   compiles with NVRTC for sm_80 and sm_90a.
// - tests/e2e/programs/splitk_gemm.py (split-K GEMM, partial tiles added with T.atomic_add as a
//   fragment region, per element inside T.Parallel, and from shared memory) matches the float64
//   A @ B on both interpreters (output zero-initialised, as split-K requires) and compiles with
//   NVRTC for sm_80 and sm_90a.
// - tests/e2e/programs/atomic_minmax.py (T.atomic_max / T.atomic_min of fragment tiles into
//   global, whole-region and per element) gives the exact block-wise extrema in float32, float16,
//   bfloat16 and int32 on both interpreters, and its CUDA (CAS loops for the float types)
//   compiles with NVRTC.
// - tests/e2e/programs/atomic_prev.py (T.atomic_add(hist[bin], 1, return_prev=True) in global
//   and in shared memory): on both interpreters the bin counts are exact and, per bin, the
//   returned previous values are each of 0 .. count-1 exactly once; NVRTC sm_80 and sm_90a.
// - tests/e2e/programs/atomic_addx4.py (T.atomic_addx4 from shared memory): exact sums.
#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/LaunchArgs.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/support/HostTensor.h"
#include "profiler/check/Compare.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

using ts::HostTensor;
using ts::ir::DType;

HostTensor randomTensor(DType t, std::vector<int64_t> shape, std::mt19937& rng) {
    HostTensor h;
    h.dtype = t;
    h.shape = std::move(shape);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    h.data.resize(static_cast<size_t>(h.numel()));
    const double scale = ts::ir::isFloat(t) ? 1.0 : 1000.0;
    for (auto& x : h.data) x = ts::roundTo(t, scale * u(rng));
    return h;
}

/// C[i, j] = scale * sum_k A[i, k] * B[k, j] in float64.
HostTensor matmulRef(const HostTensor& A, const HostTensor& B, double scale) {
    const int64_t M = A.shape[0], K = A.shape[1], N = B.shape[1];
    HostTensor C;
    C.dtype = DType::Float64;
    C.shape = {M, N};
    C.data.assign(static_cast<size_t>(M * N), 0.0);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            double s = 0;
            for (int64_t k = 0; k < K; ++k)
                s += A.data[static_cast<size_t>(i * K + k)] * B.data[static_cast<size_t>(k * N + j)];
            C.data[static_cast<size_t>(i * N + j)] = scale * s;
        }
    return C;
}

ts::CompileResult compileProgram(const std::string& name, std::map<std::string, std::string> params,
                                 const char* target = "cuda:sm_80") {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = target;
    const std::string path = "tests/e2e/programs/" + name;
    return ts::compile(path, ts::e2e::readRepoFile(path), opts);
}

void expectNvrtc(const std::string& name, const std::map<std::string, std::string>& params) {
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (auto [target, arch] : {std::pair{"cuda:sm_80", "sm_80"}, std::pair{"cuda:sm_90a", "sm_90a"}}) {
        auto r = compileProgram(name, params, target);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        auto nv = ts::rt::compileCuda(r.cuda, arch, {}, true);
        EXPECT_TRUE(nv.ok) << name << " " << arch << ":\n" << nv.log;
    }
}

TEST(SymbolicSizes, OneCompileRunsTwoSizesOnBothInterpreters) {
    auto r = compileProgram("dynamic_gemm.py", {{"scale", "0.5"}});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // Kernel arguments: A, B, C, then M (from A's dimension 0) and scale (by value, --param).
    ASSERT_EQ(r.kernel.scalars.size(), 2u);
    EXPECT_EQ(r.kernel.scalars[0].name, "M");
    EXPECT_EQ(r.kernel.scalars[0].tensor, 0);
    EXPECT_EQ(r.kernel.scalars[0].dim, 0);
    EXPECT_EQ(r.kernel.scalars[1].name, "scale");
    EXPECT_EQ(r.kernel.scalars[1].tensor, -1);
    EXPECT_EQ(r.kernel.scalars[1].value, "0.5");
    EXPECT_EQ(r.kernel.args[0].shape, (std::vector<int64_t>{-1, 96}));
    EXPECT_NE(r.cuda.find("int M, float scale)"), std::string::npos) << r.cuda;
    ASSERT_TRUE(r.kernel.gridExtent[1]);

    std::mt19937 rng(7);
    for (int64_t M : {200, 96}) {
        HostTensor A = randomTensor(DType::Float16, {M, 96}, rng);
        HostTensor B = randomTensor(DType::Float16, {96, 64}, rng);
        HostTensor C;
        C.dtype = DType::Float32;
        C.shape = {M, 64};
        std::string error;
        auto lv = ts::bindLaunch(r.kernel, r.lowered, {A.shape, B.shape, C.shape}, error);
        ASSERT_TRUE(lv) << error;
        EXPECT_EQ(lv->grid[0], 2u);
        EXPECT_EQ(lv->grid[1], static_cast<unsigned>((M + 31) / 32));
        ASSERT_EQ(lv->scalars.size(), 2u);
        EXPECT_EQ(lv->scalars[0], static_cast<double>(M));
        EXPECT_EQ(lv->scalars[1], 0.5);
        HostTensor want = matmulRef(A, B, 0.5);
        for (int level = 0; level < 2; ++level) {
            C.data.assign(static_cast<size_t>(C.numel()), std::nan(""));
            std::vector<HostTensor> args{A, B, C};
            ts::interp::InterpOptions io;
            io.scalars = lv->scalars;
            auto run = level == 0 ? ts::interp::run(r.elaborated, args, io)
                                  : ts::interp::runLowered(r.lowered, args, io);
            ASSERT_TRUE(run.ok) << "M=" << M << " level " << level << ": "
                                << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
            auto cmp = ts::rt::compare(args[2], want);
            EXPECT_TRUE(cmp.pass) << "M=" << M << " level " << level << ": " << ts::rt::describe(cmp);
            EXPECT_EQ(cmp.nanCount, 0);
        }
    }
}

TEST(SymbolicSizes, LaunchRejectsAShapeThatDisagreesWithTheSize) {
    auto r = compileProgram("dynamic_gemm.py", {});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    std::string error;
    auto lv = ts::bindLaunch(r.kernel, r.lowered, {{200, 96}, {96, 64}, {100, 64}}, error);
    EXPECT_FALSE(lv);
    EXPECT_EQ(error, "argument 'C' (#2) dimension 0: expected 200 (M, from 'A' dimension 0), got 100");
    lv = ts::bindLaunch(r.kernel, r.lowered, {{200, 96}, {64, 64}, {200, 64}}, error);
    EXPECT_FALSE(lv);
    EXPECT_EQ(error, "argument 'B' (#1) dimension 0: expected 96 (96), got 64");
    // Without tensors (tilec run): M and scale take the documented defaults.
    lv = ts::resolveLaunch(r.kernel, r.lowered, error);
    ASSERT_TRUE(lv) << error;
    EXPECT_EQ(lv->shapes[0], (std::vector<int64_t>{ts::kDefaultSymbolicSize, 96}));
    EXPECT_EQ(lv->scalars[1], 1.0);
    EXPECT_EQ(lv->grid[1], static_cast<unsigned>(ts::kDefaultSymbolicSize / 32));
    // The tile interpreter checks the same agreement.
    std::vector<HostTensor> args(3);
    for (size_t i = 0; i < 3; ++i) {
        args[i].dtype = i < 2 ? DType::Float16 : DType::Float32;
        args[i].shape = i == 0 ? std::vector<int64_t>{200, 96}
                        : i == 1 ? std::vector<int64_t>{96, 64}
                                 : std::vector<int64_t>{100, 64};
    }
    ts::interp::InterpOptions io;
    io.scalars = {200, 1.0};
    auto run = ts::interp::run(r.elaborated, args, io);
    ASSERT_FALSE(run.ok);
    EXPECT_NE(run.error->message.find("'C'"), std::string::npos) << run.error->message;
}

TEST(SymbolicSizes, CudaCompilesWithNvrtc) { expectNvrtc("dynamic_gemm.py", {}); }

// tests/e2e/programs/spellings.py runs on both interpreters in UserLayoutE2ETest.cpp.
TEST(Spellings, CudaCompilesWithNvrtc) { expectNvrtc("spellings.py", {}); }
// tests/e2e/programs/instrumented_tf32.py (iket markers, T.tfloat32) runs on both interpreters
// in UserLayoutE2ETest.cpp.
TEST(Spellings, InstrumentedCompilesWithNvrtc) {
    expectNvrtc("instrumented_tf32.py", {{"N", "200"}});
}

class SplitK : public ::testing::TestWithParam<const char*> {};

TEST_P(SplitK, AtomicPartialTilesMatchFloat64OnBothInterpreters) {
    const std::map<std::string, std::string> params{{"mode", std::string("'") + GetParam() + "'"}};
    auto r = compileProgram("splitk_gemm.py", params);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    std::mt19937 rng(11);
    HostTensor A = randomTensor(DType::Float16, {96, 256}, rng);
    HostTensor B = randomTensor(DType::Float16, {256, 64}, rng);
    HostTensor want = matmulRef(A, B, 1.0);
    for (int level = 0; level < 2; ++level) {
        HostTensor C;
        C.dtype = DType::Float32;
        C.shape = {96, 64};
        C.data.assign(96 * 64, 0.0);  // split-K accumulates into a zeroed output
        std::vector<HostTensor> args{A, B, C};
        auto run = level == 0 ? ts::interp::run(r.elaborated, args)
                              : ts::interp::runLowered(r.lowered, args);
        ASSERT_TRUE(run.ok) << GetParam() << " level " << level << ": "
                            << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
        auto cmp = ts::rt::compare(args[2], want);
        EXPECT_TRUE(cmp.pass) << GetParam() << " level " << level << ": " << ts::rt::describe(cmp);
    }
}

TEST_P(SplitK, CudaCompilesWithNvrtc) {
    expectNvrtc("splitk_gemm.py", {{"mode", std::string("'") + GetParam() + "'"}});
}

INSTANTIATE_TEST_SUITE_P(Modes, SplitK, ::testing::Values("region", "parallel", "shared"));

struct MinMaxCase {
    const char* dtype;
    const char* mode;
};

class AtomicMinMax : public ::testing::TestWithParam<MinMaxCase> {};

TEST_P(AtomicMinMax, BlockwiseExtremaMatchOnBothInterpretersAndCompile) {
    const MinMaxCase c = GetParam();
    const std::map<std::string, std::string> params{{"dtype", std::string("'") + c.dtype + "'"},
                                                    {"mode", std::string("'") + c.mode + "'"}};
    auto r = compileProgram("atomic_minmax.py", params);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const DType t = *ts::ir::parseDType(c.dtype);
    std::mt19937 rng(5);
    HostTensor A = randomTensor(t, {256, 64}, rng);
    HostTensor wantMax, wantMin;  // float64: max/min over the 8 row blocks
    wantMax.dtype = wantMin.dtype = DType::Float64;
    wantMax.shape = wantMin.shape = {32, 64};
    const double top = ts::ir::isFloat(t) ? INFINITY : 2147483647.0;  // the identities
    wantMax.data.assign(32 * 64, -top);
    wantMin.data.assign(32 * 64, top);
    for (int64_t r0 = 0; r0 < 256; ++r0)
        for (int64_t j = 0; j < 64; ++j) {
            const size_t o = static_cast<size_t>((r0 % 32) * 64 + j);
            const double x = A.data[static_cast<size_t>(r0 * 64 + j)];
            wantMax.data[o] = std::max(wantMax.data[o], x);
            wantMin.data[o] = std::min(wantMin.data[o], x);
        }
    for (int level = 0; level < 2; ++level) {
        HostTensor mx, mn;
        mx.dtype = mn.dtype = t;
        mx.shape = mn.shape = {32, 64};
        mx.data.assign(32 * 64, -top);
        mn.data.assign(32 * 64, top);
        std::vector<HostTensor> args{A, mx, mn};
        auto run = level == 0 ? ts::interp::run(r.elaborated, args)
                              : ts::interp::runLowered(r.lowered, args);
        ASSERT_TRUE(run.ok) << c.dtype << " " << c.mode << " level " << level << ": "
                            << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
        // Max and min select an input element: exact in every dtype.
        EXPECT_EQ(args[1].data, wantMax.data) << c.dtype << " " << c.mode << " level " << level;
        EXPECT_EQ(args[2].data, wantMin.data) << c.dtype << " " << c.mode << " level " << level;
    }
    expectNvrtc("atomic_minmax.py", params);
}

class AtomicPrev : public ::testing::TestWithParam<const char*> {};

TEST_P(AtomicPrev, SlotsArePermutationsOfEachBinsCount) {
    const std::string mode = GetParam();
    const std::map<std::string, std::string> params{{"mode", "'" + mode + "'"}};
    auto r = compileProgram("atomic_prev.py", params);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    std::mt19937 rng(9);
    HostTensor X = randomTensor(DType::Int32, {1024}, rng);  // values in [-1000, 1000]
    // Slots count per bin over the whole grid (global) or per block of 256 (shared).
    const size_t groups = mode == "global" ? 1 : 4;
    auto group = [&](size_t k) { return (mode == "global" ? 0 : k / 256) * 16; };
    std::vector<int64_t> total(16, 0), count(16 * groups, 0);
    std::vector<size_t> key(1024);
    for (size_t k = 0; k < 1024; ++k) {
        const auto x = static_cast<int64_t>(X.data[k]);
        const auto b = static_cast<size_t>(((x % 16) + 16) % 16);  // Python's floor modulo
        ++total[b];
        key[k] = group(k) + b;
        ++count[key[k]];
    }
    for (int level = 0; level < 2; ++level) {
        HostTensor hist, slot;
        hist.dtype = slot.dtype = DType::Int32;
        hist.shape = {16};
        slot.shape = {1024};
        hist.data.assign(16, 0.0);  // the histogram accumulates into a zeroed output
        slot.data.assign(1024, std::nan(""));
        std::vector<HostTensor> args{X, hist, slot};
        auto run = level == 0 ? ts::interp::run(r.elaborated, args)
                              : ts::interp::runLowered(r.lowered, args);
        ASSERT_TRUE(run.ok) << mode << " level " << level << ": "
                            << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
        for (size_t b = 0; b < 16; ++b) EXPECT_EQ(args[1].data[b], double(total[b])) << mode << " bin " << b;
        std::vector<std::vector<int>> seen(16 * groups);
        for (size_t k = 0; k < 1024; ++k) seen[key[k]].push_back(static_cast<int>(args[2].data[k]));
        for (size_t g = 0; g < seen.size(); ++g) {
            std::sort(seen[g].begin(), seen[g].end());
            std::vector<int> want(static_cast<size_t>(count[g]));
            for (size_t j = 0; j < want.size(); ++j) want[j] = static_cast<int>(j);
            EXPECT_EQ(seen[g], want) << mode << " level " << level << " group/bin " << g;
        }
    }
    expectNvrtc("atomic_prev.py", params);
}

TEST(AtomicAddX4, TwoBlocksAddTheirTileOnBothInterpreters) {
    auto r = compileProgram("atomic_addx4.py", {});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    std::mt19937 rng(4);
    HostTensor A = randomTensor(DType::Float32, {8, 32}, rng);
    for (int level = 0; level < 2; ++level) {
        HostTensor D;
        D.dtype = DType::Float32;
        D.shape = {8, 32};
        D.data.assign(8 * 32, 0.0);
        std::vector<HostTensor> args{A, D};
        auto run = level == 0 ? ts::interp::run(r.elaborated, args)
                              : ts::interp::runLowered(r.lowered, args);
        ASSERT_TRUE(run.ok) << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
        for (size_t k = 0; k < 8 * 32; ++k) EXPECT_EQ(args[1].data[k], 2 * A.data[k]) << k;
    }
    expectNvrtc("atomic_addx4.py", {});
}

INSTANTIATE_TEST_SUITE_P(Modes, AtomicPrev, ::testing::Values("global", "shared"));

INSTANTIATE_TEST_SUITE_P(Dtypes, AtomicMinMax,
                         ::testing::Values(MinMaxCase{"float32", "region"},
                                           MinMaxCase{"float32", "parallel"},
                                           MinMaxCase{"float16", "region"},
                                           MinMaxCase{"bfloat16", "parallel"},
                                           MinMaxCase{"int32", "region"}));

}  // namespace

// A scalar T.atomic_max whose value is a one-element (replicated) fragment: lowering reads the
// fragment's registers (the CUDA once referenced an undeclared `m_1`); max from a zero start is
// relu(X[:, 3]) on both interpreters, and NVRTC compiles it.
TEST(AtomicFragmentScalar, ValueFromReplicatedFragmentOnBothInterpretersAndCompiles) {
    auto r = compileProgram("atomic_fragment_scalar.py", {});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("m_1"), std::string::npos) << r.cuda;
    std::mt19937 rng(9);
    HostTensor X = randomTensor(DType::Float32, {64, 64}, rng);
    for (int level = 0; level < 2; ++level) {
        HostTensor Y;
        Y.dtype = DType::Float32;
        Y.shape = {64};
        Y.data.assign(64, 0.0);
        std::vector<HostTensor> args{X, Y};
        auto run = level == 0 ? ts::interp::run(r.elaborated, args)
                              : ts::interp::runLowered(r.lowered, args);
        ASSERT_TRUE(run.ok) << "level " << level;
        for (int64_t i = 0; i < 64; ++i)
            EXPECT_EQ(args[1].data[static_cast<size_t>(i)],
                      std::max(0.0, X.data[static_cast<size_t>(i * 64 + 3)]))
                << "level " << level << " row " << i;
    }
    expectNvrtc("atomic_fragment_scalar.py", {});
}
