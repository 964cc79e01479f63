// Issue 8 (lang-ptx): a fragment read inside T.Parallel at the loop variable plus a multiple of
// a row step (`acc[i + s * 16, j]`, sparse MLA backward's dKV store in halves), in
// tests/e2e/programs/fragment_shift_read.py: the loop follows the gemm accumulator's layout when
// the shift keeps every element in its thread (infer-layouts), each thread reading its own
// registers (no replicated copy); values against float64 on both interpreters, NVRTC sm_80/sm_90a.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

const char* kShift = "tests/e2e/programs/fragment_shift_read.py";

ts::CompileResult compileShift(int64_t K, const char* target) {
    ts::CompileOptions opts;
    opts.params = {{"K", std::to_string(K)}};
    opts.target = target;
    return ts::compile(kShift, ts::e2e::readRepoFile(kShift), opts);
}

TEST(FragmentShiftRead, MatchesFloat64OnBothInterpretersWithoutAReplicatedCopy) {
    for (int64_t K : {32, 64}) {
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult r = compileShift(K, target);
            ASSERT_TRUE(r.ok) << diagText(r);
            // 32 x 64 float32 over 128 threads: 16 registers each, the accumulator's own.
            EXPECT_NE(r.cuda.find("float acc[16];"), std::string::npos) << r.cuda;
            std::vector<double> a(static_cast<size_t>(32 * K)), b(static_cast<size_t>(K * 64));
            for (size_t i = 0; i < a.size(); ++i) a[i] = double(int64_t(i * 7 % 13) - 6) / 4.0;
            for (size_t i = 0; i < b.size(); ++i) b[i] = double(int64_t(i * 5 % 11) - 5) / 2.0;
            std::vector<double> ref(32 * 64, 0.0);
            for (int64_t i = 0; i < 32; ++i)
                for (int64_t j = 0; j < 64; ++j) {
                    for (int64_t k = 0; k < K; ++k) ref[i * 64 + j] += a[i * K + k] * b[k * 64 + j];
                    ref[i * 64 + j] *= 2.0;
                }
            for (bool lowered : {false, true}) {
                std::vector<ts::HostTensor> args{ts::makeHostTensor(ts::ir::DType::Float16, {32, K}, a),
                                                 ts::makeHostTensor(ts::ir::DType::Float16, {K, 64}, b)};
                ts::HostTensor y;
                y.dtype = ts::ir::DType::Float32;
                y.shape = {32, 64};
                y.data.assign(ref.size(), std::nan(""));
                args.push_back(y);
                auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
                ASSERT_TRUE(run.ok) << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
                for (size_t i = 0; i < ref.size(); ++i)  // exact: small multiples of 1/8 in float32
                    ASSERT_EQ(args[2].data[i], ref[i]) << target << " K=" << K << " element " << i << " lowered=" << lowered;
            }
        }
    }
}

TEST(FragmentShiftRead, CompilesWithNvrtcForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kShift, {}); }

}  // namespace
