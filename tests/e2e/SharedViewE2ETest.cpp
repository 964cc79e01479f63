// Issue 8 (lang-ptx): T.view of a shared buffer with another shape and dtype (sparse MLA
// backward's float32 scratch on its bfloat16 KV tile), in tests/e2e/programs/shared_view_scratch.py:
// values against float64 on both interpreters, the view on the viewed buffer's bytes in the
// shared-memory plan and the generated CUDA, barriers between the two names' accesses, NVRTC
// sm_80 and sm_90a.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

const char* kScratch = "tests/e2e/programs/shared_view_scratch.py";

ts::CompileResult compileScratch(int64_t B, int64_t L, const char* target = "cuda:sm_90a") {
    ts::CompileOptions opts;
    opts.params = {{"B", std::to_string(B)}, {"L", std::to_string(L)}};
    opts.target = target;
    return ts::compile(kScratch, ts::e2e::readRepoFile(kScratch), opts);
}

TEST(SharedView, ScratchViewMatchesFloat64OnBothInterpreters) {
    for (auto [B, L] : {std::pair<int64_t, int64_t>{2, 3}, {1, 1}, {1, 4}}) {
        ts::CompileResult r = compileScratch(B, L);
        ASSERT_TRUE(r.ok) << diagText(r);
        std::vector<double> x(static_cast<size_t>(B * L * 64 * 64));
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int64_t(i * 23 % 61) - 30) / 8.0;  // exact in half
        std::vector<double> ref(static_cast<size_t>(B * 64 * 64), 0.0);
        for (int64_t b = 0; b < B; ++b)
            for (int64_t s = 0; s < 2; ++s)
                for (int64_t i = 0; i < 32; ++i)
                    for (int64_t j = 0; j < 64; ++j)
                        for (int64_t k = 0; k < L; ++k)
                            ref[(b * 64 + s * 32 + i) * 64 + j] +=
                                double(k + 1) * x[(b * L * 64 + k * 64 + s * 32 + (i + 5) % 32) * 64 + j];
        for (bool lowered : {false, true}) {
            std::vector<ts::HostTensor> args{ts::makeHostTensor(ts::ir::DType::Float16, {B, L * 64, 64}, x)};
            ts::HostTensor y;
            y.dtype = ts::ir::DType::Float32;
            y.shape = {B, 64, 64};
            y.data.assign(ref.size(), std::nan(""));
            args.push_back(y);
            auto run = lowered ? ts::interp::runLowered(r.lowered, args) : ts::interp::run(r.elaborated, args);
            ASSERT_TRUE(run.ok) << (lowered ? "lowered: " : "tile: ")
                                << (run.error ? ts::formatDiagnostic(*run.error, r.source.get()) : "");
            for (size_t i = 0; i < ref.size(); ++i)  // exact: sums of multiples of 1/8 in float32
                ASSERT_EQ(args[1].data[i], double(float(ref[i]))) << "B=" << B << " L=" << L << " element " << i << " lowered=" << lowered;
        }
    }
}

TEST(SharedView, TheViewSharesTheBufferBytesAndIsOrderedByBarriers) {
    ts::CompileResult r = compileScratch(2, 3);
    ASSERT_TRUE(r.ok) << diagText(r);
    // 16 KiB for `out` plus the 8 KiB of `half`, which `scratch` reuses; on sm_90a the copy into
    // `half` is a TMA load whose mbarrier takes the first 128 bytes (ops/CopyTma.cpp).
    EXPECT_NE(r.cuda.find("ts::half* half = reinterpret_cast<ts::half*>(ts_smem + 16512);"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("float* scratch = reinterpret_cast<float*>(ts_smem + 16512);"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("unsigned long long* tma_copy_bar_1 = reinterpret_cast<unsigned long long*>(ts_smem + 0);"), std::string::npos);
    ts::CompileResult r80 = compileScratch(2, 3, "cuda:sm_80");
    ASSERT_TRUE(r80.ok) << diagText(r80);
    EXPECT_NE(r80.cuda.find("ts::half* half = reinterpret_cast<ts::half*>(ts_smem + 16384);"), std::string::npos) << r80.cuda;
    EXPECT_NE(r80.cuda.find("float* scratch = reinterpret_cast<float*>(ts_smem + 16384);"), std::string::npos) << r80.cuda;
    // Writing scratch after the reads of half (and the next chunk's copy into half after the reads
    // of scratch) needs a block barrier each: the loop over the two halves starts with one.
    const size_t loop = r.cuda.find("for (int s = 0; s < 2; ++s) {");
    ASSERT_NE(loop, std::string::npos) << r.cuda;
    const size_t write = r.cuda.find("scratch[", loop);
    ASSERT_NE(write, std::string::npos) << r.cuda;
    EXPECT_LT(r.cuda.find("__syncthreads();", loop), write) << r.cuda;
}

TEST(SharedView, ScratchViewCompilesWithNvrtcForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kScratch, {}); }

}  // namespace
