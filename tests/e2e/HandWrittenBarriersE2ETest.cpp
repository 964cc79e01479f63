// Issue 8's conformance lane "lang3b": constructs of real TileLang kernels, each in a program of
// our own under tests/e2e/programs/, checked against float64 values computed here.
//  - mbarrier_producer_consumer.py: a hand-written producer/consumer schedule (T.alloc_barrier,
//    T.ws roles, T.barrier_arrive/wait, T.mbarrier_arrive/wait_parity, T.fence_proxy_async,
//    T.set_max_nreg) on both interpreters (ThreadMachine's mbarrier model) for trip counts 1..7
//    and 1..3 stages, NVRTC sm_90a; sm_80 is a diagnostic (no mbarrier.try_wait.parity);
//  - sibling_import.py: `from sibling_lib import ...` of plain-Python helpers, a constant and an
//    element-expression helper of a sibling file; an error inside a sibling helper is reported at
//    the call, naming the sibling's file and line.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/support/SourceDir.h"

namespace {

using ts::e2e::diagText;

/// Compiles the repository file `rel` under its absolute path (so that its sibling modules are
/// found, as tilec finds them next to the file it compiles).
ts::CompileResult compileFile(const std::string& rel, const char* target,
                              std::map<std::string, std::string> params = {}) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = target;
    const std::string path = (std::filesystem::path(TS_SOURCE_DIR) / rel).string();
    return ts::compile(path, ts::e2e::readRepoFile(rel), opts);
}

/// Runs r (tile level or lowered) on `inputs`; returns every argument afterwards.
std::vector<ts::HostTensor> runArgs(const ts::CompileResult& r, const std::vector<ts::HostTensor>& inputs,
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
    if (!run.ok) *error = run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "failed";
    return args;
}

const char* kProducerConsumer = "tests/e2e/programs/mbarrier_producer_consumer.py";
const char* kSibling = "tests/e2e/programs/sibling_import.py";

TEST(HandWrittenBarriers, ProducerConsumerMatchesFloat64OnBothInterpreters) {
    struct Shape {
        int64_t R, L, stages;
    };
    // Trip counts 1 (the producer never waits on a completed `empty` phase), below, equal to and
    // above the stage count.
    for (Shape g : {Shape{3, 5, 2}, Shape{1, 1, 2}, Shape{2, 2, 2}, Shape{2, 7, 3}, Shape{1, 4, 1}}) {
        const std::string label = "R=" + std::to_string(g.R) + " L=" + std::to_string(g.L) +
                                  " stages=" + std::to_string(g.stages);
        ts::CompileResult r = compileFile(kProducerConsumer, "cuda:sm_90a",
                                          {{"R", std::to_string(g.R)},
                                           {"L", std::to_string(g.L)},
                                           {"stages", std::to_string(g.stages)}});
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        std::vector<double> x(static_cast<size_t>(g.R * g.L * 128));
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 29 % 37) - 18) / 8.0;
        std::vector<double> ref(static_cast<size_t>(g.R * 128), 0.0);
        for (int64_t row = 0; row < g.R; ++row)
            for (int64_t c = 0; c < 128; ++c)
                for (int64_t k = 0; k < g.L; ++k)
                    ref[row * 128 + c] += double(k + 1) * 2.0 * x[row * g.L * 128 + k * 128 + (c + k) % 128];
        std::vector<ts::HostTensor> in = {ts::makeHostTensor(ts::ir::DType::Float32, {g.R, g.L * 128}, x)};
        for (bool lowered : {false, true}) {
            std::string err;
            auto args = runArgs(r, in, lowered, &err);
            ASSERT_TRUE(err.empty()) << label << (lowered ? " lowered: " : " tile: ") << err;
            ASSERT_EQ(args[1].data.size(), ref.size());
            for (size_t i = 0; i < ref.size(); ++i)  // exact: float32 sums of multiples of 1/4
                ASSERT_EQ(args[1].data[i], double(float(ref[i])))
                    << label << (lowered ? " lowered" : " tile") << " element " << i;
        }
    }
}

TEST(HandWrittenBarriers, GeneratedCudaUsesMbarrierPtxAndCompilesForSm90a) {
    ts::CompileResult r = compileFile(kProducerConsumer, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << diagText(r);
    for (const char* s : {"ts::mbarrier_init_n(", "ts::mbarrier_arrive(", "ts::mbarrier_wait(",
                          "ts::set_max_nreg<40, 0>()", "ts::set_max_nreg<232, 1>()", "ts::fence_proxy_async()"})
        EXPECT_NE(r.cuda.find(s), std::string::npos) << s << "\n" << r.cuda;
    // The roles are ordered by the mbarriers alone: insert-sync adds no block barrier between
    // them (that would run them in lockstep); the two are the ones after the barrier inits.
    size_t syncs = 0;
    for (size_t p = r.cuda.find("__syncthreads()"); p != std::string::npos; p = r.cuda.find("__syncthreads()", p + 1))
        ++syncs;
    EXPECT_EQ(syncs, 2u) << r.cuda;
    // setmaxnreg moves registers inside one block: the kernel says it owns the multiprocessor
    // (min blocks 1), so ptxas allocates each role's code up to that role's count.
    EXPECT_NE(r.cuda.find("__launch_bounds__(" + std::to_string(r.kernel.block[0]) + ", 1)"), std::string::npos) << r.cuda;
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
    ASSERT_EQ(nv.ptxas.kernels.size(), 1u);
    EXPECT_EQ(nv.ptxas.kernels[0].spillStoreBytes, 0) << ts::rt::ptxasSummary(nv.ptxas.kernels[0]);
}

TEST(HandWrittenBarriers, Sm80IsADiagnosticAtTheBarrier) {
    ts::CompileResult r = compileFile(kProducerConsumer, "cuda:sm_80");
    ASSERT_FALSE(r.ok);
    const std::string d = diagText(r);
    EXPECT_NE(d.find("T.alloc_barrier: mbarrier phase waits (mbarrier.try_wait.parity) need sm_90"), std::string::npos) << d;
    EXPECT_NE(d.find("mbarrier_producer_consumer.py:20:"), std::string::npos) << d;
    EXPECT_EQ(d.find("internal"), std::string::npos) << d;
}

// A wait whose phase no one completes is a deadlock diagnostic on the interpreters, not a hang.
TEST(HandWrittenBarriers, AMissingArrivalIsADeadlockDiagnostic) {
    std::string src = ts::e2e::readRepoFile(kProducerConsumer);
    const std::string arrive = "T.barrier_arrive(full[k % stages])";
    ASSERT_NE(src.find(arrive), std::string::npos);
    src.replace(src.find(arrive), arrive.size(), "T.fence_proxy_async()");
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile("missing_arrive.py", src, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<ts::HostTensor> in = {
        ts::makeHostTensor(ts::ir::DType::Float32, {3, 5 * 128}, std::vector<double>(3 * 5 * 128, 1.0))};
    for (bool lowered : {false, true}) {
        std::string err;
        runArgs(r, in, lowered, &err);
        EXPECT_NE(err.find("deadlock: waiting on mbarrier"), std::string::npos) << lowered << ": " << err;
    }
}

TEST(SiblingModules, HelpersConstantsAndMaskFromASiblingFileMatchFloat64) {
    for (auto [M, block] : {std::pair{100, 32}, std::pair{64, 16}, std::pair{70, 64}}) {
        ts::CompileResult r =
            compileFile(kSibling, "cuda:sm_90a", {{"M", std::to_string(M)}, {"block", std::to_string(block)}});
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_EQ(int64_t(r.kernel.grid[0]), int64_t((M + block - 1) / block));  // tiles() of the sibling
        const int64_t N = 64;
        std::vector<double> a(static_cast<size_t>(M * N));
        for (size_t i = 0; i < a.size(); ++i) a[i] = double(int64_t(i * 13 % 31) - 15) / 4.0;
        std::vector<ts::HostTensor> in = {ts::makeHostTensor(ts::ir::DType::Float32, {M, N}, a)};
        for (bool lowered : {false, true}) {
            std::string err;
            auto args = runArgs(r, in, lowered, &err);
            ASSERT_TRUE(err.empty()) << err;
            for (int64_t i = 0; i < M; ++i)
                for (int64_t j = 0; j < N; ++j)
                    ASSERT_EQ(args[1].data[i * N + j], a[i * N + j] * 0.5 * (i >= j ? 1.0 : 0.0))
                        << "M=" << M << " block=" << block << " (" << i << ", " << j << ") lowered=" << lowered;
        }
        if (ts::rt::nvrtcAvailable())
            for (const char* arch : {"sm_80", "sm_90a"}) {
                ts::CompileResult rt = compileFile(kSibling, arch == std::string("sm_80") ? "cuda:sm_80" : "cuda:sm_90a",
                                                   {{"M", std::to_string(M)}, {"block", std::to_string(block)}});
                ASSERT_TRUE(rt.ok) << diagText(rt);
                auto nv = ts::rt::compileCuda(rt.cuda, arch, {}, true);
                EXPECT_TRUE(nv.ok) << arch << "\n" << nv.log;
            }
    }
}

TEST(SiblingModules, AnErrorInsideASiblingHelperIsReportedAtTheCall) {
    ts::CompileResult r = compileFile(kSibling, "cuda:sm_90a", {{"block", "48"}});
    ASSERT_FALSE(r.ok);
    const std::string d = diagText(r);
    // At `check_block(block)` (line 12 of sibling_import.py), naming the helper's file and line.
    EXPECT_NE(d.find("sibling_import.py:12:"), std::string::npos) << d;
    EXPECT_NE(d.find("in 'check_block' (sibling_lib.py, line 11)"), std::string::npos) << d;
    EXPECT_NE(d.find("assertion failed"), std::string::npos) << d;
}

// Without a file on disk (an unsaved buffer) there is no directory to find siblings in: the
// import is an opaque module, and using a name from it says so.
TEST(SiblingModules, WithoutAFileTheImportIsOpaque) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile("<buffer>", ts::e2e::readRepoFile(kSibling), opts);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(diagText(r).find("(from sibling_lib) is not available at compile time"), std::string::npos) << diagText(r);
}

}  // namespace
