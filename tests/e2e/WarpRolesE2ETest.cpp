// Issues 8/9 (lane "lang-ws"): tile ops inside warp roles and TileLang's explicit Hopper
// primitives, in programs of our own under tests/e2e/programs/, checked against float64 values
// computed here on both interpreters, with the generated CUDA compiled by NVRTC:
//  - ws_tma_gemm.py: a loader role (T.tma_copy on an mbarrier) and a math role (T.gemm into a
//    fragment over the role's 128 threads, T.Parallel epilogue, T.copy through shared memory),
//    with the math role in warp group 0 or 1 (thread index rebased by 128); sm_90a only (sm_80
//    is the barrier's diagnostic);
//  - ws_role_reduce.py: reductions inside one role, whose cross-warp combine uses a named
//    barrier of the role's threads; sm_80 and sm_90a (no mbarrier: T.ws is a thread condition);
//  - T.mbarrier_expect_tx bytes nothing delivers: the deadlock diagnostic on both interpreters;
//  - T.tma_copy for sm_80 and a tile op under a thread condition that is not a warp role:
//    diagnostics at the user's line.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

const char* kWsGemm = "tests/e2e/programs/ws_tma_gemm.py";
const char* kRoleReduce = "tests/e2e/programs/ws_role_reduce.py";

ts::CompileResult compileText(const std::string& name, const std::string& text, const char* target,
                              std::map<std::string, std::string> params = {}) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = target;
    return ts::compile(name, text, opts);
}

/// Runs r (tile level or lowered) on `inputs`; returns every argument afterwards.
std::vector<ts::HostTensor> runArgs(const ts::CompileResult& r, const std::vector<ts::HostTensor>& inputs, bool lowered,
                                    std::string* error) {
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

TEST(WarpRoles, WsGemmMatchesFloat64OnBothInterpretersForEitherMathRole) {
    struct Shape {
        int64_t M, N, K, math;
    };
    // K = 80: the last K-slice is partial (out-of-bounds lanes of the tile read 0); K = 32: one
    // trip (the loader's only wait is on the fresh barrier's parity-1 phase).
    for (Shape g : {Shape{128, 128, 96, 1}, Shape{128, 128, 96, 0}, Shape{64, 128, 80, 1}, Shape{128, 64, 32, 0}}) {
        const std::string label = "M=" + std::to_string(g.M) + " N=" + std::to_string(g.N) + " K=" + std::to_string(g.K) +
                                  " math=" + std::to_string(g.math);
        ts::CompileResult r = compileText(kWsGemm, ts::e2e::readRepoFile(kWsGemm), "cuda:sm_90a",
                                          {{"M", std::to_string(g.M)},
                                           {"N", std::to_string(g.N)},
                                           {"K", std::to_string(g.K)},
                                           {"math", std::to_string(g.math)}});
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        // Multiples of 1/8 in [-0.75, 0.75]: exact in float16, products and float32 sums exact.
        std::vector<double> a(static_cast<size_t>(g.M * g.K)), b(static_cast<size_t>(g.K * g.N));
        for (size_t i = 0; i < a.size(); ++i) a[i] = double(int64_t(i * 7 % 13) - 6) / 8.0;
        for (size_t i = 0; i < b.size(); ++i) b[i] = double(int64_t(i * 5 % 11) - 5) / 8.0;
        std::vector<double> ref(static_cast<size_t>(g.M * g.N), 0.0);
        for (int64_t i = 0; i < g.M; ++i)
            for (int64_t j = 0; j < g.N; ++j) {
                double s = 0.0;
                for (int64_t k = 0; k < g.K; ++k) s += a[i * g.K + k] * b[k * g.N + j];
                ref[i * g.N + j] = 2.0 * s + 1.0;
            }
        std::vector<ts::HostTensor> in = {ts::makeHostTensor(ts::ir::DType::Float16, {g.M, g.K}, a),
                                          ts::makeHostTensor(ts::ir::DType::Float16, {g.K, g.N}, b)};
        for (bool lowered : {false, true}) {
            std::string err;
            auto args = runArgs(r, in, lowered, &err);
            ASSERT_TRUE(err.empty()) << label << (lowered ? " lowered: " : " tile: ") << err;
            ASSERT_EQ(args[2].data.size(), ref.size());
            for (size_t i = 0; i < ref.size(); ++i)
                ASSERT_EQ(args[2].data[i], ref[i]) << label << (lowered ? " lowered" : " tile") << " element " << i;
        }
    }
}

TEST(WarpRoles, WsGemmCudaRebasesTheRoleAndCompilesForSm90a) {
    ts::CompileResult r = compileText(kWsGemm, ts::e2e::readRepoFile(kWsGemm), "cuda:sm_90a", {{"math", "1"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    // The math role's fragment and shared-tile indices count from its first thread, and the
    // hazard inside the role (fragment -> c_tile -> C) is a named barrier of its 128 threads
    // (id 1 + first warp = 5), not a __syncthreads the loader role would never reach.
    EXPECT_NE(r.cuda.find("(tx - 128)"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("\"r\"((int)(5)), \"r\"((int)(128))"), std::string::npos) << r.cuda;
    // T.tma_copy: the loader's copy, then fence.proxy.async before its arrival.
    EXPECT_NE(r.cuda.find("ts::fence_proxy_async();"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("ts::mbarrier_arrive(&loaded[0])"), std::string::npos) << r.cuda;
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    for (const char* math : {"0", "1"}) {
        ts::CompileResult m = compileText(kWsGemm, ts::e2e::readRepoFile(kWsGemm), "cuda:sm_90a", {{"math", math}});
        ASSERT_TRUE(m.ok) << diagText(m);
        auto nv = ts::rt::compileCuda(m.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << "math=" << math << "\n" << nv.log;
    }
}

TEST(WarpRoles, WsGemmOnSm80IsTheBarrierDiagnostic) {
    ts::CompileResult r = compileText(kWsGemm, ts::e2e::readRepoFile(kWsGemm), "cuda:sm_80");
    ASSERT_FALSE(r.ok);
    const std::string d = diagText(r);
    EXPECT_NE(d.find("T.tma_copy: TMA transfers need sm_90"), std::string::npos) << d;
    EXPECT_NE(d.find("ws_tma_gemm.py:31:"), std::string::npos) << d;
    EXPECT_EQ(d.find("internal"), std::string::npos) << d;
}

TEST(WarpRoles, ReductionsInsideOneRoleMatchFloat64) {
    struct Shape {
        int64_t M, N, role;
    };
    // M=2, N=512: a row spans two warps of the role, so the lowered reduction combines warps
    // through shared memory behind the role's named barrier.
    for (Shape g : {Shape{64, 128, 1}, Shape{64, 128, 0}, Shape{2, 512, 1}, Shape{2, 512, 0}}) {
        const std::string label = "M=" + std::to_string(g.M) + " N=" + std::to_string(g.N) + " role=" + std::to_string(g.role);
        const std::map<std::string, std::string> params{
            {"M", std::to_string(g.M)}, {"N", std::to_string(g.N)}, {"role", std::to_string(g.role)}};
        ts::CompileResult r = compileText(kRoleReduce, ts::e2e::readRepoFile(kRoleReduce), "cuda:sm_90a", params);
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        std::vector<double> x(static_cast<size_t>(g.M * g.N));
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 37 % 101) - 50) / 16.0;
        std::vector<double> ref(static_cast<size_t>(g.M));
        for (int64_t i = 0; i < g.M; ++i) {
            double mx = -INFINITY, s = 0.0;
            for (int64_t j = 0; j < g.N; ++j) mx = std::max(mx, x[i * g.N + j]), s += x[i * g.N + j];
            ref[i] = 2.0 * mx + s;  // multiples of 1/16 below 2^10: exact in float32 in any order
        }
        std::vector<ts::HostTensor> in = {ts::makeHostTensor(ts::ir::DType::Float32, {g.M, g.N}, x)};
        for (bool lowered : {false, true}) {
            std::string err;
            auto args = runArgs(r, in, lowered, &err);
            ASSERT_TRUE(err.empty()) << label << (lowered ? " lowered: " : " tile: ") << err;
            for (int64_t i = 0; i < g.M; ++i)
                ASSERT_EQ(args[1].data[i], ref[i]) << label << (lowered ? " lowered" : " tile") << " row " << i;
        }
        if (g.M == 2 && g.role == 1) {
            EXPECT_NE(r.cuda.find("\"r\"((int)(5)), \"r\"((int)(128))"), std::string::npos) << r.cuda;
            EXPECT_EQ(r.cuda.find("__syncthreads()"), std::string::npos) << r.cuda;
        }
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kRoleReduce, params);
    }
}

// T.mbarrier_expect_tx adds transaction bytes that nothing in the program delivers: the phase
// never completes, which both interpreters report as a deadlock (a hang on the GPU).
TEST(WarpRoles, ExpectTxWithoutATransferIsADeadlockDiagnostic) {
    std::string src = ts::e2e::readRepoFile(kWsGemm);
    const std::string arrive = "T.barrier_arrive(loaded)";
    ASSERT_NE(src.find(arrive), std::string::npos);
    src.replace(src.find(arrive), arrive.size(), "T.mbarrier_expect_tx(loaded, 64)\n                    " + arrive);
    ts::CompileResult r = compileText("expect_tx.py", src, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(r.cuda.find("ts::mbarrier_expect_tx(&loaded[0], 64)"), std::string::npos) << r.cuda;
    if (ts::rt::nvrtcAvailable()) {
        auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
        EXPECT_TRUE(nv.ok) << nv.log;
    }
    std::vector<ts::HostTensor> in = {
        ts::makeHostTensor(ts::ir::DType::Float16, {128, 96}, std::vector<double>(128 * 96, 0.5)),
        ts::makeHostTensor(ts::ir::DType::Float16, {96, 128}, std::vector<double>(96 * 128, 0.25))};
    for (bool lowered : {false, true}) {
        std::string err;
        runArgs(r, in, lowered, &err);
        EXPECT_NE(err.find("deadlock: waiting on mbarrier loaded[0]"), std::string::npos) << lowered << ": " << err;
        EXPECT_NE(err.find("0 of 8192 transaction bytes"), std::string::npos) << lowered << ": " << err;
    }
}

}  // namespace
