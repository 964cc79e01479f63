// The library baseline of the compare view (issue 12): a GEMM of the same shapes and dtypes as
// the tuned kernel, timed with cuBLAS in the GPU worker. libcublas is loaded at run time
// (dlopen, like libcuda and CUPTI): tilec links no CUDA library and runs where the toolkit's
// cuBLAS is absent (the baseline then says why it is missing). The call is cublasGemmEx with
// fp16/bf16 operands, fp32 accumulation (CUBLAS_COMPUTE_32F) and the kernel's output dtype, on
// the worker's primary context (cuBLAS's runtime uses the context current on the thread).
//
// Row-major C (M x N) = op(A) op(B), as TileLang writes it, is the column-major product
// C^T = op(B)^T op(A)^T: cublasGemmEx(opB, opA, N, M, K, B, A, C) with the leading dimensions of
// the row-major storage (cublasArgsFor; the standard trick, no transposes copied).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profiler/cuda/Launch.h"

namespace ts::rt {

class GpuRuntime;

/// A row-major GEMM: A is (M, K) or, transA, (K, M); B is (K, N) or, transB, (N, K); C (M, N).
struct GemmShape {
    int64_t m = 0, n = 0, k = 0;
    bool transA = false, transB = false;
    ir::DType inDtype = ir::DType::Float16;   ///< A and B: float16 or bfloat16
    ir::DType outDtype = ir::DType::Float16;  ///< C: float16, bfloat16 or float32
};

/// "M=4096 N=4096 K=4096 float16->float16" (+ " A^T" / " B^T").
std::string describeGemm(const GemmShape& g);

/// The GEMM a kernel signature computes, when it has exactly two 2-D float16/bfloat16 inputs
/// A, B of one dtype and one 2-D output C (float16/bfloat16/float32): M, N from C, K and the
/// transposes from A's and B's shapes (a square A or B is taken untransposed, TileLang's
/// default). nullopt with `why` (in the user's terms) otherwise.
std::optional<GemmShape> gemmShapeOf(const std::vector<TensorParam>& signature, std::string& why);

/// cublasGemmEx's column-major arguments for row-major `g` (see the file comment).
struct CublasGemmArgs {
    bool transFirst = false, transSecond = false;  ///< op of the first (B) and second (A) operand
    int64_t m = 0, n = 0, k = 0;                   ///< cuBLAS m = N, n = M, k = K
    int64_t ldFirst = 0, ldSecond = 0, ldc = 0;    ///< ld of B, of A, of C
};
CublasGemmArgs cublasArgsFor(const GemmShape& g);

/// cuBLAS's version number (cublasGetVersion: major*10000 + minor*100 + patch since 12.0;
/// major*1000 + minor*100 + patch before) as "13.1.0".
std::string cublasVersionText(int version);

/// Where libcublas is looked for, in order: $TILESCOPE_LIBCUBLAS, the loader's search path
/// (libcublas.so.13/.12/.11, libcublas.so), $CUDA_HOME/lib64, /usr/local/cuda/lib64.
std::vector<std::string> cublasLibraryCandidates();

/// The loaded library's path and version, or nullopt with `why` (no GPU needed: only
/// cublasGetProperty is called).
struct CublasLibrary {
    std::string path;
    std::string version;  ///< "13.1.0"
};
std::optional<CublasLibrary> loadCublas(std::string& why);

/// What the worker measured.
struct BaselineResult {
    bool ok = false;
    std::string error;                ///< when !ok: why (no cuBLAS, a cuBLAS status, a CUDA error)
    std::string library = "cuBLAS";
    std::string version;              ///< "13.1.0"
    std::string api = "cublasGemmEx";
    std::string path;                 ///< the libcublas loaded
    double medianMs = 0, minMs = 0, maxMs = 0;
    int reps = 0;
    int rotateSets = 1;
    std::string check;      ///< "pass" / "fail": sampled outputs against a float64 product
    double maxError = 0;    ///< max |c - ref| / sum_k |a b| over the samples
    double tolerance = 0;   ///< the bound `check` used
};

/// Times `g` with cuBLAS on `gpu`: random inputs (fixed seed), one checked call (64 sampled
/// outputs against float64 dot products), `warmup` untimed calls, then `reps` calls each between
/// two events (the median is the result), rotating through `rotateSets` buffer copies as
/// RunRequest::rotateSets does. Never throws.
BaselineResult timeCublasGemm(GpuRuntime& gpu, const GemmShape& g, int reps, int warmup,
                              int rotateSets = 1);

}  // namespace ts::rt
