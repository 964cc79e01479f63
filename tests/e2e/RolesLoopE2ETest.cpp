// Warp roles that each loop and wait on each other (compiler/interp/ThreadRoles.cpp), as in
// minference's vertical-slash kernel: tests/e2e/programs/mbarrier_roles_loop.py's producer and
// consumer are the two sides of one thread-dependent if/else. The thread-level interpreter ran
// the then-side to completion first, so the producer's wait for a freed stage was reported as a
// deadlock; the sides now run as coroutines. Checked against float64 values computed here on
// both interpreters for trip counts below, at and above the stage count; a missing arrival is
// still a deadlock diagnostic (not a hang); NVRTC sm_90a (sm_80 has no mbarrier parity wait: a
// diagnostic, HandWrittenBarriersE2ETest).
// tests/e2e/programs/role_chain_three.py: three roles in one if/elif/else chain (MLA decode ws's
// two consumers and a producer); the first waits for the second, the second for the third, which
// ran after it inside the else-side (a false deadlock) until each arm got its own coroutine.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

using ts::e2e::diagText;

const char* kProg = "tests/e2e/programs/mbarrier_roles_loop.py";

ts::CompileResult compileSrc(const std::string& src,
                             std::map<std::string, std::string> params = {}) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = "cuda:sm_90a";
    return ts::compile(kProg, src, opts);
}

/// Runs r on X (tile level or lowered); Y afterwards, or the error in *error.
std::vector<double> runY(const ts::CompileResult& r, const ts::HostTensor& x, bool lowered,
                         std::string* error) {
    ts::HostTensor y;
    y.dtype = ts::ir::DType::Float32;
    y.shape = r.kernel.args.at(1).shape;
    y.data.assign(static_cast<size_t>(y.numel()), std::nan(""));
    std::vector<ts::HostTensor> args = {x, y};
    auto run =
        lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
    if (!run.ok) *error = run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "failed";
    return args[1].data;
}

TEST(RolesLoop, LoopingRolesMatchFloat64OnBothInterpreters) {
    struct Shape {
        int64_t R, L, stages;
    };
    const std::string src = ts::e2e::readRepoFile(kProg);
    for (Shape g :
         {Shape{3, 5, 2}, Shape{1, 1, 2}, Shape{2, 2, 2}, Shape{2, 7, 3}, Shape{1, 4, 1}}) {
        const std::string label = "R=" + std::to_string(g.R) + " L=" + std::to_string(g.L) +
                                  " stages=" + std::to_string(g.stages);
        ts::CompileResult r = compileSrc(src, {{"R", std::to_string(g.R)},
                                               {"L", std::to_string(g.L)},
                                               {"stages", std::to_string(g.stages)}});
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        std::vector<double> x(static_cast<size_t>(g.R * g.L * 128));
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 29 % 37) - 18) / 8.0;
        std::vector<double> ref(static_cast<size_t>(g.R * 128), 0.0);
        for (int64_t row = 0; row < g.R; ++row)
            for (int64_t c = 0; c < 128; ++c)
                for (int64_t k = 0; k < g.L; ++k)
                    ref[row * 128 + c] +=
                        double(k + 1) * 2.0 * x[row * g.L * 128 + k * 128 + (c + k) % 128];
        auto in = ts::makeHostTensor(ts::ir::DType::Float32, {g.R, g.L * 128}, x);
        for (bool lowered : {false, true}) {
            std::string err;
            auto y = runY(r, in, lowered, &err);
            ASSERT_TRUE(err.empty()) << label << (lowered ? " lowered: " : " tile: ") << err;
            ASSERT_EQ(y.size(), ref.size());
            for (size_t i = 0; i < ref.size(); ++i)  // exact: float32 sums of multiples of 1/4
                ASSERT_EQ(y[i], double(float(ref[i])))
                    << label << (lowered ? " lowered" : " tile") << " element " << i;
        }
    }
}

TEST(RolesLoop, ConsumerFirstOrderMatchesToo) {
    // The then-side is the consumer: it blocks at once on a phase the else-side fills.
    std::string src = ts::e2e::readRepoFile(kProg);
    const size_t ifAt = src.find("            if tx >= 128:\n"),
                 elseAt = src.find("            else:\n");
    const size_t endAt = src.find("\n    return main");
    ASSERT_NE(ifAt, std::string::npos);
    ASSERT_NE(elseAt, std::string::npos);
    ASSERT_NE(endAt, std::string::npos);
    const std::string producer = src.substr(ifAt + 26, elseAt - ifAt - 26);
    const std::string consumer = src.substr(elseAt + 18, endAt - elseAt - 18);
    src = src.substr(0, ifAt) + "            if tx < 128:\n" + consumer + "            else:\n" +
          producer + src.substr(endAt);
    ts::CompileResult r = compileSrc(src, {{"R", "2"}, {"L", "6"}, {"stages", "2"}});
    ASSERT_TRUE(r.ok) << src << "\n" << diagText(r);
    std::vector<double> x(2 * 6 * 128);
    for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 29 % 37) - 18) / 8.0;
    auto in = ts::makeHostTensor(ts::ir::DType::Float32, {2, 6 * 128}, x);
    for (bool lowered : {false, true}) {
        std::string err;
        auto y = runY(r, in, lowered, &err);
        ASSERT_TRUE(err.empty()) << (lowered ? "lowered: " : "tile: ") << err;
        for (int64_t row = 0; row < 2; ++row)
            for (int64_t c = 0; c < 128; ++c) {
                double want = 0;
                for (int64_t k = 0; k < 6; ++k)
                    want += double(k + 1) * 2.0 * x[row * 6 * 128 + k * 128 + (c + k) % 128];
                ASSERT_EQ(y[row * 128 + c], double(float(want)))
                    << lowered << " " << row << "," << c;
            }
    }
}

TEST(RolesLoop, AMissingArrivalIsStillADeadlockDiagnostic) {
    // The consumer never frees a stage: the producer's third wait (L 5 > 2 stages) can never
    // complete, and the consumer finishes -- reported at the producer's wait, on both interpreters.
    std::string src = ts::e2e::readRepoFile(kProg);
    const std::string arrive = "T.mbarrier_arrive(empty[k % stages])";
    ASSERT_NE(src.find(arrive), std::string::npos);
    src.replace(src.find(arrive), arrive.size(), "T.fence_proxy_async()");
    ts::CompileResult r = compileSrc(src);
    ASSERT_TRUE(r.ok) << diagText(r);
    auto in = ts::makeHostTensor(ts::ir::DType::Float32, {3, 5 * 128},
                                 std::vector<double>(3 * 5 * 128, 1.0));
    for (bool lowered : {false, true}) {
        std::string err;
        runY(r, in, lowered, &err);
        EXPECT_NE(err.find("deadlock: waiting on mbarrier empty[0] at line 24"), std::string::npos)
            << lowered << ": " << err;
    }
    // Both roles blocked with nothing left to arrive: the consumer waits for a phase the producer
    // never fills (its arrival removed too) while the producer waits for a freed stage.
    const std::string fill = "T.mbarrier_arrive(full[k % stages])";
    src.replace(src.find(fill), fill.size(), "T.fence_proxy_async()");
    ts::CompileResult r2 = compileSrc(src);
    ASSERT_TRUE(r2.ok) << diagText(r2);
    for (bool lowered : {false, true}) {
        std::string err;
        runY(r2, in, lowered, &err);
        EXPECT_NE(err.find("deadlock: waiting on mbarrier"), std::string::npos)
            << lowered << ": " << err;
    }
}

const char* kChain = "tests/e2e/programs/role_chain_three.py";

TEST(RolesLoop, ThreeRoleChainMatchesFloat64OnBothInterpreters) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    std::string src = ts::e2e::readRepoFile(kChain);
    ts::CompileResult r = ts::compile(kChain, src, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    std::vector<double> a(128);
    for (int i = 0; i < 128; ++i) a[static_cast<size_t>(i)] = 0.25 * i - 7.0;
    auto in = ts::makeHostTensor(ts::ir::DType::Float32, {128}, a);
    for (bool lowered : {false, true}) {
        std::string err;
        auto y = runY(r, in, lowered, &err);
        ASSERT_TRUE(err.empty()) << lowered << ": " << err;
        for (int i = 0; i < 128; ++i)  // (3a + 1) * 2, exact in float32 for these a
            EXPECT_EQ(y[static_cast<size_t>(i)], (3.0 * a[static_cast<size_t>(i)] + 1.0) * 2.0) << lowered << " " << i;
    }
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
}

TEST(RolesLoop, ThreeRoleChainMissingArrivalIsADeadlockDiagnostic) {
    // The producer never arrives: the middle role's wait can never complete, the first role
    // waits for the middle one, the producer finishes -- a diagnostic, not a hang.
    std::string src = ts::e2e::readRepoFile(kChain);
    const std::string arrive = "T.barrier_arrive(bar_data)";
    ASSERT_NE(src.find(arrive), std::string::npos);
    src.replace(src.find(arrive), arrive.size(), "T.fence_proxy_async()");
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile(kChain, src, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    auto in = ts::makeHostTensor(ts::ir::DType::Float32, {128}, std::vector<double>(128, 1.0));
    for (bool lowered : {false, true}) {
        std::string err;
        runY(r, in, lowered, &err);
        EXPECT_NE(err.find("deadlock: waiting on mbarrier"), std::string::npos) << lowered << ": " << err;
    }
}

TEST(RolesLoop, GeneratedCudaCompilesForSm90a) {
    ts::CompileResult r = compileSrc(ts::e2e::readRepoFile(kProg));
    ASSERT_TRUE(r.ok) << diagText(r);
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
}

}  // namespace
