// tests/e2e/programs/convert_copy_role.py, the shape of deepseek_mhc's mhc_pre_big_fuse kernel:
//  - a converting T.copy (bfloat16 global -> float32 shared) in a T.Pipelined loop is a cast
//    store, never a cp.async (CopyLowering.cpp gave a 4-byte cp.async: two bfloat16 read as one
//    float, a misaligned address on the H200, and an error on the lowered interpreter);
//  - a T.Parallel loop filling a shared table that the other threads of its warp role read is
//    not a race on the tile-level interpreter (every thread runs the loop whole; the compiler's
//    insert-sync orders it: ThreadExec.cpp) -- it was reported as one.
// Checked against float64 values computed here on both interpreters for sm_80 and sm_90a, and
// NVRTC for both.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

const char* kProg = "tests/e2e/programs/convert_copy_role.py";

TEST(ConvertCopyRole, MatchesFloat64OnBothInterpreters) {
    const std::string src = ts::e2e::readRepoFile(kProg);
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"})
        for (auto [N, block] : {std::pair{512, 128}, std::pair{256, 64}}) {
            const std::string label =
                std::string(target) + " N=" + std::to_string(N) + " block=" + std::to_string(block);
            ts::CompileOptions opts;
            opts.target = target;
            opts.params = {{"N", std::to_string(N)}, {"block", std::to_string(block)}};
            ts::CompileResult r = ts::compile(kProg, src, opts);
            ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
            EXPECT_EQ(r.cuda.find("ts::cp_async4("), std::string::npos) << label << "\n" << r.cuda;
            std::vector<double> x(static_cast<size_t>(4 * N));
            for (size_t i = 0; i < x.size(); ++i)  // exact in bfloat16: k/8 for |k| <= 40
                x[i] = double(int64_t(i * 17 % 81) - 40) / 8.0;
            std::vector<double> y(static_cast<size_t>(N), 0.0), z(4);
            for (int64_t c = 0; c < N; ++c)
                for (int64_t row = 0; row < 4; ++row) y[c] += double(row + 1) * x[row * N + c];
            for (int64_t row = 0; row < 4; ++row) z[row] = 2.0 * x[row * N];
            for (bool lowered : {false, true}) {
                std::vector<ts::HostTensor> args = {
                    ts::makeHostTensor(ts::ir::DType::BFloat16, {4, N}, x),
                    ts::makeHostTensor(ts::ir::DType::Float32, {N},
                                       std::vector<double>(size_t(N), std::nan(""))),
                    ts::makeHostTensor(ts::ir::DType::Float32, {4},
                                       std::vector<double>(4, std::nan("")))};
                auto run = lowered ? ts::interp::runLowered(r.lowered, args)
                                   : ts::interp::run(r.elaborated, args);
                ASSERT_TRUE(run.ok) << label << (lowered ? " lowered: " : " tile: ")
                                    << (run.error ? run.error->message : "failed");
                for (int64_t c = 0; c < N; ++c)  // exact: float32 sums of multiples of 1/8
                    ASSERT_EQ(args[1].data[size_t(c)], y[size_t(c)])
                        << label << (lowered ? " lowered" : " tile") << " Y[" << c << "]";
                for (int64_t row = 0; row < 4; ++row)
                    ASSERT_EQ(args[2].data[size_t(row)], z[size_t(row)])
                        << label << " Z[" << row << "]";
            }
        }
}

TEST(ConvertCopyRole, NvrtcCompilesForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {});
}

}  // namespace

namespace {
const char* kExchange = "tests/e2e/programs/shared_exchange.py";

/// Runs shared_exchange.py (source `src`) for `target` on A = i/8 - 8; B, or the error.
std::vector<double> runExchange(const std::string& src, const char* target, bool lowered,
                                std::string* error) {
    ts::CompileOptions opts;
    opts.target = target;
    ts::CompileResult r = ts::compile(kExchange, src, opts);
    if (!r.ok) {
        *error = diagText(r);
        return {};
    }
    std::vector<double> a(128);
    for (size_t i = 0; i < a.size(); ++i) a[i] = double(i) / 8.0 - 8.0;
    std::vector<ts::HostTensor> args = {
        ts::makeHostTensor(ts::ir::DType::Float32, {128}, a),
        ts::makeHostTensor(ts::ir::DType::Float32, {128}, std::vector<double>(128, std::nan("")))};
    auto run =
        lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
    if (!run.ok) *error = run.error ? run.error->message : "failed";
    return args[1].data;
}
}  // namespace

// hadamard's exchange through shared memory without T.sync_threads(): TileLang's automatic
// barriers make it correct, so the tile-level interpreter orders the statements (it reported a
// race); with TL_DISABLE_THREAD_STORAGE_SYNC the kernel's own barriers are all there are, and
// both interpreters report the race.
TEST(TileLevelAutoSync, SharedExchangeWithoutSyncThreadsMatchesFloat64) {
    const std::string src = ts::e2e::readRepoFile(kExchange);
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"})
        for (bool lowered : {false, true}) {
            std::string err;
            auto b = runExchange(src, target, lowered, &err);
            ASSERT_TRUE(err.empty()) << target << (lowered ? " lowered: " : " tile: ") << err;
            for (size_t i = 0; i < 128; ++i) {
                const double a = double(i) / 8.0 - 8.0;
                ASSERT_EQ(b[i], 2.0 * a + 1.0)
                    << target << " lowered=" << lowered << " B[" << i << "]";
            }
        }
    std::string off = src;
    const std::string jit = "@tilelang.jit(out_idx=[1])";
    ASSERT_NE(off.find(jit), std::string::npos);
    off.replace(off.find(jit), jit.size(),
                "@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey."
                "TL_DISABLE_THREAD_STORAGE_SYNC: True})");
    for (bool lowered : {false, true}) {
        std::string err;
        runExchange(off, "cuda:sm_80", lowered, &err);
        EXPECT_NE(err.find("read of S[127] races with its write by thread 127"), std::string::npos)
            << lowered << ": " << err;
    }
}

TEST(TileLevelAutoSync, NvrtcCompilesForSm80AndSm90a) {
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kExchange, {});
}
