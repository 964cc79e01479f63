// T.sync_grid (issue 8): the grid barrier of cooperative kernels, end to end on programs of our
// own under tests/e2e/programs/ (the corpus's cooperative test and persistent MLA decode are
// run by the conformance catalogue and bench/h200_sync_grid.sh):
//  - grid_barrier_mirror.py: a barrier between loops and one inside T.Parallel (split there);
//    each block reads what another block wrote before the barrier. Checked element by element
//    against Y[j] = 2 X[j] + 2 X[N-1-j] on both interpreters, for several block/thread shapes,
//    and for a one-block grid (the plain block loop);
//  - grid_barrier_persistent.py: a persistent kernel (fewer blocks than work items, two phases)
//    against float64 sums;
//  - grid_barrier_skipped.py: a block that skips the barrier is a deadlock diagnostic on both
//    interpreters, not a hang;
//  - the launch information (KernelInfo::cooperative), the generated grid sync, NVRTC for sm_80
//    and sm_90a, and the co-residency error text of the runtime.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/cuda/Launch.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

const char* kMirror = "tests/e2e/programs/grid_barrier_mirror.py";
const char* kPersistent = "tests/e2e/programs/grid_barrier_persistent.py";
const char* kSkipped = "tests/e2e/programs/grid_barrier_skipped.py";

ts::CompileResult compileProgram(const char* rel, const char* target, std::map<std::string, std::string> params) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = target;
    opts.recordSnapshots = false;
    return ts::compile(rel, ts::e2e::readRepoFile(rel), opts);
}

/// Runs r with `args` (updated in place) on the tile interpreter or the lowered IR's; the
/// error text when the run fails, else "".
std::string runOn(const ts::CompileResult& r, std::vector<ts::HostTensor>& args, bool lowered) {
    auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
    if (run.ok) return {};
    return run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "failed";
}

ts::HostTensor poisoned(ts::ir::DType t, std::vector<int64_t> shape) {
    ts::HostTensor h;
    h.dtype = t;
    h.shape = std::move(shape);
    h.data.assign(static_cast<size_t>(h.numel()), std::nan(""));
    return h;
}

TEST(GridBarrier, MirrorMatchesHandDerivedValuesOnBothInterpreters) {
    struct Shape {
        int64_t N, width, threads;
    };
    // 8 blocks of one element per thread; 4 blocks of two elements per thread (the split loop
    // must still order every element's read before every write); one block (no coroutines).
    for (Shape s : {Shape{512, 64, 128}, Shape{512, 128, 64}, Shape{256, 64, 64}, Shape{64, 64, 64}}) {
        const std::string label = "N=" + std::to_string(s.N) + " width=" + std::to_string(s.width) +
                                  " threads=" + std::to_string(s.threads);
        auto r = compileProgram(kMirror, "cuda:sm_80",
                                {{"N", std::to_string(s.N)},
                                 {"width", std::to_string(s.width)},
                                 {"threads", std::to_string(s.threads)}});
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        EXPECT_TRUE(r.kernel.cooperative) << label;
        EXPECT_EQ(r.kernel.grid[0], unsigned(s.N / s.width)) << label;
        std::vector<double> x(static_cast<size_t>(s.N));
        for (int64_t j = 0; j < s.N; ++j) x[j] = double((j * 37) % 101) / 16.0 - 3.0;  // exact in float32
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args = {ts::makeHostTensor(ts::ir::DType::Float32, {s.N}, x),
                                                poisoned(ts::ir::DType::Float32, {s.N})};
            std::string err = runOn(r, args, lowered);
            ASSERT_EQ(err, "") << label << (lowered ? " lowered" : " tile");
            for (int64_t j = 0; j < s.N; ++j) {
                // 2x is exact; the sum of two float32 values is rounded once to float32.
                const double want = double(float(2.0 * x[j] + 2.0 * x[s.N - 1 - j]));
                ASSERT_EQ(args[1].data[j], want) << label << (lowered ? " lowered" : " tile") << " j=" << j;
            }
        }
    }
}

// The corpus test's arithmetic, worked by hand: Y[j] = j before the barrier, then each element
// adds the mirrored one, j + (N-1-j) = N-1 everywhere -- so "every element equals A[0]".
TEST(GridBarrier, MirrorOfTheIdentityIsConstant) {
    auto r = compileProgram(kMirror, "cuda:sm_90a", {{"N", "1024"}, {"width", "64"}, {"threads", "128"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<double> x(1024);
    for (int j = 0; j < 1024; ++j) x[j] = j / 2.0;  // Y[j] = 2 x[j] = j
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args = {ts::makeHostTensor(ts::ir::DType::Float32, {1024}, x),
                                            poisoned(ts::ir::DType::Float32, {1024})};
        ASSERT_EQ(runOn(r, args, lowered), "");
        for (int j = 0; j < 1024; ++j) ASSERT_EQ(args[1].data[j], 1023.0) << "j=" << j;
    }
}

TEST(GridBarrier, PersistentTwoPhaseKernelMatchesFloat64) {
    struct Shape {
        int64_t rows, splits, workers;
    };
    // More work items than workers (several waves, a partial last wave), and more workers than
    // phase-2 rows.
    for (Shape s : {Shape{6, 3, 4}, Shape{5, 2, 7}, Shape{2, 4, 3}}) {
        const int64_t chunk = 64;
        const std::string label = "rows=" + std::to_string(s.rows) + " splits=" + std::to_string(s.splits) +
                                  " workers=" + std::to_string(s.workers);
        auto r = compileProgram(kPersistent, "cuda:sm_80",
                                {{"rows", std::to_string(s.rows)},
                                 {"splits", std::to_string(s.splits)},
                                 {"workers", std::to_string(s.workers)}});
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        EXPECT_TRUE(r.kernel.cooperative);
        const int64_t cols = s.splits * chunk;
        std::vector<double> x(static_cast<size_t>(s.rows * cols));
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 29 % 53) - 26) / 32.0;
        std::vector<double> partial(static_cast<size_t>(s.rows * s.splits), 0.0), out(static_cast<size_t>(s.rows), 0.0);
        for (int64_t row = 0; row < s.rows; ++row)
            for (int64_t sp = 0; sp < s.splits; ++sp) {
                for (int64_t c = 0; c < chunk; ++c) partial[row * s.splits + sp] += x[row * cols + sp * chunk + c];
                out[row] += partial[row * s.splits + sp] * double(sp + 1);
            }
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args = {ts::makeHostTensor(ts::ir::DType::Float32, {s.rows, cols}, x),
                                                poisoned(ts::ir::DType::Float32, {s.rows, s.splits}),
                                                poisoned(ts::ir::DType::Float32, {s.rows})};
            ASSERT_EQ(runOn(r, args, lowered), "") << label;
            // Inputs are multiples of 1/32 below 1 and sums of 64 of them: exact in float32.
            for (size_t i = 0; i < partial.size(); ++i)
                EXPECT_EQ(args[1].data[i], partial[i]) << label << (lowered ? " lowered" : " tile") << " partial " << i;
            for (int64_t row = 0; row < s.rows; ++row)
                EXPECT_EQ(args[2].data[row], out[row]) << label << (lowered ? " lowered" : " tile") << " row " << row;
        }
    }
}

TEST(GridBarrier, BlockSkippingTheBarrierIsADeadlockOnBothInterpreters) {
    auto r = compileProgram(kSkipped, "cuda:sm_80", {});
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<double> x(256, 1.0);
    for (bool lowered : {false, true}) {
        std::vector<ts::HostTensor> args = {ts::makeHostTensor(ts::ir::DType::Float32, {256}, x),
                                            poisoned(ts::ir::DType::Float32, {256})};
        std::string err = runOn(r, args, lowered);
        EXPECT_NE(err.find("deadlock at T.sync_grid"), std::string::npos) << err;
        EXPECT_NE(err.find("block [0] ended after 0 grid barrier(s)"), std::string::npos) << err;
        EXPECT_NE(err.find("grid_barrier_skipped.py:16:"), std::string::npos) << err;  // the barrier's line
    }
}

TEST(GridBarrier, GeneratedCudaSynchronisesTheGridAndNvrtcCompilesIt) {
    auto r = compileProgram(kMirror, "cuda:sm_90a", {});
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(r.cuda.find("#include <cooperative_groups.h>"), std::string::npos);
    size_t n = 0;
    for (size_t at = r.cuda.find("cooperative_groups::this_grid().sync()"); at != std::string::npos;
         at = r.cuda.find("cooperative_groups::this_grid().sync()", at + 1))
        ++n;
    EXPECT_EQ(n, 2u) << r.cuda;
    for (const char* p : {kMirror, kPersistent, kSkipped})
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(p, {});
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kMirror, {{"width", "128"}, {"threads", "64"}});
}

TEST(GridBarrier, KernelsWithoutGridBarrierAreNotCooperative) {
    auto r = compileProgram("tests/e2e/programs/affine_row.py", "cuda:sm_80", {});
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_FALSE(r.kernel.cooperative);
    EXPECT_EQ(r.cuda.find("cooperative_groups"), std::string::npos);
}

TEST(GridBarrier, HipTargetIsAClearDiagnosticAtTheBarrier) {
    auto r = compileProgram(kMirror, "hip:gfx90a", {});
    ASSERT_FALSE(r.ok);
    const std::string d = diagText(r);
    EXPECT_NE(d.find("grid_barrier_mirror.py:18:13: error: T.sync_grid (a grid-wide barrier) has no HIP implementation"),
              std::string::npos)
        << d;
    EXPECT_EQ(d.find("internal"), std::string::npos) << d;
}

TEST(GridBarrier, CoResidencyErrorNamesGridAndMaximum) {
    ts::rt::LaunchConfig c;
    c.grid[0] = 2000;
    c.block[0] = 256;
    c.dynamicSmemBytes = 1024;
    c.cooperative = true;
    std::string e = ts::rt::coResidencyError(2000, 8, 132, c);
    EXPECT_NE(e.find("the grid has 2000 blocks but at most 1056 can be resident"), std::string::npos) << e;
    EXPECT_NE(e.find("132 SMs"), std::string::npos) << e;
    EXPECT_EQ(ts::rt::coResidencyError(1056, 8, 132, c), "");
    EXPECT_NE(ts::rt::coResidencyError(1, 0, 132, c), "");  // a kernel that cannot be resident at all
}

}  // namespace
