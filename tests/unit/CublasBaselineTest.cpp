// The cuBLAS baseline without a GPU (profiler/baseline/CublasGemm.h): which GEMM a kernel
// signature is, the column-major cublasGemmEx arguments for a row-major GEMM (checked by running
// the BLAS definition of gemm on row-major buffers with those arguments and comparing with the
// row-major product, every transpose combination), the version text, loading libcublas here (no
// GPU is needed to load it and read its version), and the worker messages' round trips.
#include <gtest/gtest.h>

#include <cstdlib>

#include "profiler/baseline/CublasGemm.h"
#include "profiler/worker/Messages.h"

#if __has_include(<cublas_api.h>)
#include <cublas_api.h>
#define TS_HAVE_CUBLAS_HEADER 1
#endif

using namespace ts;
using namespace ts::rt;

namespace {

TensorParam tp(const char* name, ir::DType t, std::vector<int64_t> shape, bool out = false) {
    return {name, t, std::move(shape), out};
}
constexpr auto F16 = ir::DType::Float16;

/// Column-major GEMM exactly as BLAS defines it: C(m x n) = op(X)(m x k) op(Y)(k x n), X and Y
/// read column-major with their leading dimensions.
void blasGemm(bool tX, bool tY, int64_t m, int64_t n, int64_t k, const std::vector<double>& X,
              int64_t ldx, const std::vector<double>& Y, int64_t ldy, std::vector<double>& C,
              int64_t ldc) {
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            double s = 0;
            for (int64_t p = 0; p < k; ++p) {
                const double x = tX ? X[size_t(p + i * ldx)] : X[size_t(i + p * ldx)];
                const double y = tY ? Y[size_t(j + p * ldy)] : Y[size_t(p + j * ldy)];
                s += x * y;
            }
            C[size_t(i + j * ldc)] = s;
        }
}

}  // namespace

TEST(CublasBaseline, GemmShapeFromTheKernelSignature) {
    std::string why;
    auto g = gemmShapeOf({tp("A", F16, {256, 64}), tp("B", F16, {64, 128}),
                          tp("C", F16, {256, 128}, true)},
                         why);
    ASSERT_TRUE(g) << why;
    EXPECT_EQ(g->m, 256);
    EXPECT_EQ(g->n, 128);
    EXPECT_EQ(g->k, 64);
    EXPECT_FALSE(g->transA);
    EXPECT_FALSE(g->transB);
    EXPECT_EQ(describeGemm(*g), "M=256 N=128 K=64 float16->float16");

    // B stored (N, K) (TileLang's transpose_B) and A stored (K, M); bf16 in, fp32 out.
    g = gemmShapeOf({tp("A", ir::DType::BFloat16, {64, 256}), tp("B", ir::DType::BFloat16, {128, 64}),
                     tp("C", ir::DType::Float32, {256, 128}, true)},
                    why);
    ASSERT_TRUE(g) << why;
    EXPECT_TRUE(g->transA);
    EXPECT_TRUE(g->transB);
    EXPECT_EQ(g->k, 64);
    EXPECT_EQ(g->outDtype, ir::DType::Float32);

    // Not GEMMs, each with a reason in the user's terms.
    EXPECT_FALSE(gemmShapeOf({tp("X", F16, {256}), tp("Y", F16, {256}, true)}, why));
    EXPECT_NE(why.find("two 2-D inputs"), std::string::npos) << why;
    EXPECT_FALSE(gemmShapeOf({tp("A", ir::DType::Float32, {8, 8}), tp("B", ir::DType::Float32, {8, 8}),
                              tp("C", ir::DType::Float32, {8, 8}, true)},
                             why));
    EXPECT_NE(why.find("float16/bfloat16"), std::string::npos) << why;
    EXPECT_FALSE(gemmShapeOf({tp("A", F16, {256, 64}), tp("B", F16, {32, 128}),
                              tp("C", F16, {256, 128}, true)},
                             why));
    EXPECT_NE(why.find("not a GEMM"), std::string::npos) << why;
}

TEST(CublasBaseline, ColumnMajorArgumentsComputeTheRowMajorProduct) {
    const int64_t M = 5, N = 3, K = 4;
    for (bool tA : {false, true})
        for (bool tB : {false, true}) {
            SCOPED_TRACE(std::to_string(tA) + std::to_string(tB));
            GemmShape g;
            g.m = M, g.n = N, g.k = K, g.transA = tA, g.transB = tB;
            // Row-major storage: A (M,K) or (K,M); B (K,N) or (N,K); distinct small integers.
            std::vector<double> A(size_t(M * K)), B(size_t(K * N));
            for (size_t i = 0; i < A.size(); ++i) A[i] = double(int(i * 7 % 11) - 5);
            for (size_t i = 0; i < B.size(); ++i) B[i] = double(int(i * 5 % 13) - 6);
            auto a = [&](int64_t i, int64_t k) { return tA ? A[size_t(k * M + i)] : A[size_t(i * K + k)]; };
            auto b = [&](int64_t k, int64_t j) { return tB ? B[size_t(j * K + k)] : B[size_t(k * N + j)]; };
            const CublasGemmArgs c = cublasArgsFor(g);
            EXPECT_EQ(c.m, N);
            EXPECT_EQ(c.n, M);
            std::vector<double> C(size_t(M * N), -1);
            blasGemm(c.transFirst, c.transSecond, c.m, c.n, c.k, B, c.ldFirst, A, c.ldSecond, C,
                     c.ldc);
            for (int64_t i = 0; i < M; ++i)
                for (int64_t j = 0; j < N; ++j) {
                    double ref = 0;
                    for (int64_t k = 0; k < K; ++k) ref += a(i, k) * b(k, j);
                    EXPECT_EQ(C[size_t(i * N + j)], ref) << i << "," << j;  // row-major C
                }
        }
}

TEST(CublasBaseline, VersionText) {
    EXPECT_EQ(cublasVersionText(130100), "13.1.0");
    EXPECT_EQ(cublasVersionText(120804), "12.8.4");
    EXPECT_EQ(cublasVersionText(11402), "11.4.2");
}

TEST(CublasBaseline, LoadsTheToolkitsLibraryWithoutAGpu) {
    std::string why;
    auto lib = loadCublas(why);
#ifdef TS_HAVE_CUBLAS_HEADER
    // The toolkit is installed here: its libcublas loads and says the header's version.
    ASSERT_TRUE(lib) << why;
    EXPECT_EQ(lib->version, std::to_string(CUBLAS_VER_MAJOR) + "." +
                                std::to_string(CUBLAS_VER_MINOR) + "." +
                                std::to_string(CUBLAS_VER_PATCH));
    EXPECT_NE(lib->path.find("libcublas"), std::string::npos);
#else
    if (!lib) {
        EXPECT_NE(why.find("TILESCOPE_LIBCUBLAS"), std::string::npos) << why;
        GTEST_SKIP() << "no cuBLAS here: " << why;
    }
#endif
}

TEST(CublasBaseline, WorkerMessagesRoundTrip) {
    worker::BaselineRequest req;
    req.gemm.m = 4096, req.gemm.n = 2048, req.gemm.k = 1024;
    req.gemm.transB = true;
    req.gemm.inDtype = ir::DType::BFloat16, req.gemm.outDtype = ir::DType::Float32;
    req.reps = 7, req.warmup = 2, req.rotateSets = 3;
    std::string why;
    auto back = worker::decodeBaselineRequest(worker::encodeBaselineRequest(req), why);
    ASSERT_TRUE(back) << why;
    EXPECT_EQ(back->gemm.m, 4096);
    EXPECT_EQ(back->gemm.n, 2048);
    EXPECT_EQ(back->gemm.k, 1024);
    EXPECT_TRUE(back->gemm.transB);
    EXPECT_FALSE(back->gemm.transA);
    EXPECT_EQ(back->gemm.inDtype, ir::DType::BFloat16);
    EXPECT_EQ(back->gemm.outDtype, ir::DType::Float32);
    EXPECT_EQ(back->reps, 7);
    EXPECT_EQ(back->rotateSets, 3);

    worker::Message bad = worker::encodeBaselineRequest(req);
    bad.header["gemm"]["k"] = 0;
    EXPECT_FALSE(worker::decodeBaselineRequest(bad, why));

    BaselineResult r;
    r.ok = true, r.version = "13.1.0", r.medianMs = 0.25, r.check = "pass", r.maxError = 1e-4;
    const BaselineResult r2 = worker::baselineFromJson(worker::baselineJson(r));
    EXPECT_TRUE(r2.ok);
    EXPECT_EQ(r2.version, "13.1.0");
    EXPECT_EQ(r2.medianMs, 0.25);
    EXPECT_EQ(r2.api, "cublasGemmEx");
    EXPECT_EQ(r2.check, "pass");
}
