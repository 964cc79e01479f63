// Issue 8 (lang-ptx): hand-written cp.async of TileLang's warp-specialized kernels, each in a
// program of our own under tests/e2e/programs/, checked against values computed here in float64:
//  - cp_async_noinc_ring.py: T.ptx_cp_async of T.access_ptr pointers (with a zero-filling
//    predicate) into a shared ring whose slots complete on mbarriers through
//    T.cp_async_barrier_noinc (cp.async.mbarrier.arrive.noinc), on both interpreters for several
//    trip counts and stage counts, NVRTC sm_90a (sm_80: the mbarrier diagnostic);
//  - cp_async_groups.py: the same copy completed by T.ptx_commit_group / T.ptx_wait_group,
//    NVRTC sm_80 and sm_90a;
//  - the static barrier check (buildHopperTimeline) counts each noinc as the producer role's
//    arrival: every phase of `full` gets its 128 arrivals, no error;
//  - an arrival that does not wait for the copies (T.barrier_arrive instead of the noinc) is
//    reported by the interpreters as a read of a pending cp.async, not a silent wrong value.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/analysis/HopperTimeline.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

ts::CompileResult compileText(const std::string& path, const std::string& text, const char* target,
                              std::map<std::string, std::string> params = {}) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = target;
    return ts::compile(path, text, opts);
}

/// Runs r (tile level or lowered) with the one input `x`; returns the output (argument 1).
std::vector<double> runOne(const ts::CompileResult& r, const ts::HostTensor& x, bool lowered, std::string* error) {
    std::vector<ts::HostTensor> args{x};
    ts::HostTensor out;
    out.dtype = r.kernel.args.at(1).dtype;
    out.shape = r.kernel.args.at(1).shape;
    out.data.assign(static_cast<size_t>(out.numel()), std::nan(""));
    args.push_back(std::move(out));
    auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
    if (!run.ok) *error = run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "failed";
    return args[1].data;
}

const char* kRing = "tests/e2e/programs/cp_async_noinc_ring.py";
const char* kGroups = "tests/e2e/programs/cp_async_groups.py";

TEST(PtxCpAsync, NoincRingMatchesFloat64OnBothInterpreters) {
    struct Shape {
        int64_t R, L, V, stages;
    };
    // V cuts a chunk in the middle (zero fill), at a chunk edge, and not at all.
    for (Shape g : {Shape{2, 3, 1400, 2}, Shape{1, 1, 512, 2}, Shape{1, 5, 2000, 3}, Shape{2, 4, 100000, 1}}) {
        const std::string label = "R=" + std::to_string(g.R) + " L=" + std::to_string(g.L) + " V=" + std::to_string(g.V) +
                                  " stages=" + std::to_string(g.stages);
        ts::CompileResult r = compileText(kRing, ts::e2e::readRepoFile(kRing), "cuda:sm_90a",
                                          {{"R", std::to_string(g.R)},
                                           {"L", std::to_string(g.L)},
                                           {"V", std::to_string(g.V)},
                                           {"stages", std::to_string(g.stages)}});
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        const int64_t W = g.L * 512;
        std::vector<double> x(static_cast<size_t>(g.R * W));
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 37 % 41) - 20) / 8.0;
        std::vector<double> ref(static_cast<size_t>(g.R * 128), 0.0);
        for (int64_t row = 0; row < g.R; ++row)
            for (int64_t c = 0; c < 128; ++c)
                for (int64_t k = 0; k < g.L; ++k) {
                    const int64_t col = k * 512 + (4 * c + 3 + k) % 512;
                    // The predicate is per producer thread: its 4 elements are copied or zeroed together.
                    const int64_t first = col - col % 4;
                    ref[row * 128 + c] += double(k + 1) * (first < g.V ? x[row * W + col] : 0.0);
                }
        ts::HostTensor in = ts::makeHostTensor(ts::ir::DType::Float32, {g.R, W}, x);
        for (bool lowered : {false, true}) {
            std::string err;
            auto y = runOne(r, in, lowered, &err);
            ASSERT_TRUE(err.empty()) << label << (lowered ? " lowered: " : " tile: ") << err;
            ASSERT_EQ(y.size(), ref.size());
            for (size_t i = 0; i < ref.size(); ++i)  // exact: float32 sums of multiples of 1/8
                ASSERT_EQ(y[i], double(float(ref[i]))) << label << (lowered ? " lowered" : " tile") << " element " << i;
        }
    }
}

TEST(PtxCpAsync, NoincRingCudaUsesCpAsyncAndNoincArriveAndCompilesForSm90a) {
    ts::CompileResult r = compileText(kRing, ts::e2e::readRepoFile(kRing), "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << diagText(r);
    for (const char* s : {"ts::cp_async16(", "ts::cp_async_arrive_noinc(", "ts::mbarrier_wait("})
        EXPECT_NE(r.cuda.find(s), std::string::npos) << s << "\n" << r.cuda;
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
}

TEST(PtxCpAsync, NoincRingOnSm80IsTheMbarrierDiagnostic) {
    ts::CompileResult r = compileText(kRing, ts::e2e::readRepoFile(kRing), "cuda:sm_80");
    ASSERT_FALSE(r.ok);
    const std::string d = diagText(r);
    EXPECT_NE(d.find("need sm_90"), std::string::npos) << d;
    EXPECT_EQ(d.find("internal"), std::string::npos) << d;
}

TEST(PtxCpAsync, GroupsMatchFloat64OnBothInterpreters) {
    for (auto [R, L] : {std::pair<int64_t, int64_t>{2, 3}, {1, 1}, {3, 4}}) {
        ts::CompileResult r = compileText(kGroups, ts::e2e::readRepoFile(kGroups), "cuda:sm_90a",
                                          {{"R", std::to_string(R)}, {"L", std::to_string(L)}});
        ASSERT_TRUE(r.ok) << diagText(r);
        const int64_t W = L * 1024;
        std::vector<double> x(static_cast<size_t>(R * W));
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 29 % 53) - 26) / 16.0;  // exact in half
        std::vector<double> ref(static_cast<size_t>(R * 128), 0.0);
        for (int64_t row = 0; row < R; ++row)
            for (int64_t t = 0; t < 128; ++t)
                for (int64_t k = 0; k < L; ++k) ref[row * 128 + t] += double(k + 1) * x[row * W + k * 1024 + (8 * t + 5 + 3 * k) % 1024];
        ts::HostTensor in = ts::makeHostTensor(ts::ir::DType::Float16, {R, W}, x);
        for (bool lowered : {false, true}) {
            std::string err;
            auto y = runOne(r, in, lowered, &err);
            ASSERT_TRUE(err.empty()) << (lowered ? "lowered: " : "tile: ") << err;
            for (size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(y[i], double(float(ref[i]))) << "element " << i << " lowered=" << lowered;
        }
    }
}

TEST(PtxCpAsync, GroupsCompileWithNvrtcForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kGroups, {}); }

// An arrival that does not wait for the thread's copies lets the consumer read before they land.
TEST(PtxCpAsync, APlainArriveInsteadOfNoincIsAPendingReadOnTheInterpreters) {
    std::string src = ts::e2e::readRepoFile(kRing);
    const std::string noinc = "T.cp_async_barrier_noinc(full[k % stages])";
    ASSERT_NE(src.find(noinc), std::string::npos);
    src.replace(src.find(noinc), noinc.size(), "T.barrier_arrive(full[k % stages])");
    ts::CompileResult r = compileText("plain_arrive.py", src, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << diagText(r);
    ts::HostTensor in = ts::makeHostTensor(ts::ir::DType::Float32, {2, 3 * 512}, std::vector<double>(2 * 3 * 512, 1.0));
    for (bool lowered : {false, true}) {
        std::string err;
        runOne(r, in, lowered, &err);
        EXPECT_NE(err.find("cp.async"), std::string::npos) << lowered << ": " << err;
    }
}

TEST(PtxCpAsync, StaticBarrierCheckCountsTheNoincArrivals) {
    for (int L : {1, 3, 6}) {
        ts::CompileResult r = compileText(kRing, ts::e2e::readRepoFile(kRing), "cuda:sm_90a", {{"L", std::to_string(L)}});
        ASSERT_TRUE(r.ok) << diagText(r);
        auto t = ts::analysis::buildHopperTimeline(r.lowered);
        ASSERT_EQ(t.loops.size(), 1u);
        const auto& loop = t.loops[0];
        ASSERT_EQ(loop.roles.size(), 2u);
        for (auto& i : loop.issues) EXPECT_FALSE(i.error) << "L=" << L << ": " << i.message;
        int full = 0;
        for (auto& b : loop.barriers) {
            EXPECT_EQ(b.arrivalsExpected, 128) << b.barrier;
            if (b.barrier.rfind("full[", 0) != 0) continue;
            ++full;
            EXPECT_TRUE(b.completed) << b.barrier << " phase " << b.phase;
            EXPECT_EQ(b.arrivalsDelivered, 128) << b.barrier;
        }
        EXPECT_EQ(full, L) << L;  // one phase per chunk
    }
}

}  // namespace
