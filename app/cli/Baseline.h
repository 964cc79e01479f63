// `--baseline cublas` of `tilec tune` and `tilec bench`: the kernel's GEMM timed with cuBLAS in
// the GPU worker (profiler/baseline/CublasGemm.h) on the same shapes and dtypes, printed next to
// the kernel's time and stored as a results-store record of kind "baseline" (library, version,
// API, GEMM shape, sampled check), which the Compare view shows as its own row.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/CliCommon.h"
#include "profiler/baseline/CublasGemm.h"
#include "profiler/cuda/Devices.h"
#include "profiler/worker/WorkerClient.h"

namespace ts::cli {

/// Checks `--baseline NAME` before any work: "" (none) and "cublas" are known. For cublas also
/// the GEMM of `r` (gemmShapeOf its signature) into `gemm`. False after an error on stderr.
bool prepareBaseline(const std::string& name, const CompileResult& r,
                     std::optional<rt::GemmShape>& gemm);

/// Times `gemm` with cuBLAS in `client`'s worker (nullptr: the process's worker), prints one
/// line ("cuBLAS 13.1.0 (cublasGemmEx) ...: 0.2512 ms, 547.2 TFLOP/s"), stores the record (kind
/// "baseline"; with `session` non-empty it joins that tune session) and returns it. A failure
/// (no cuBLAS, a cuBLAS error) is printed and stored with status "error" too.
nlohmann::json runBaseline(const rt::GemmShape& gemm, const CompileResult& r,
                           const CompileFlags& flags, const rt::DeviceInfo& device,
                           const std::string& arch, int reps, int warmup, int rotateSets,
                           rt::worker::WorkerClient* client, const std::string& session);

/// "0.96x cuBLAS" style ratio text: baseline time / kernel time (> 1: the kernel is faster).
std::string vsBaselineText(double kernelMs, const nlohmann::json& baselineRecord);

}  // namespace ts::cli
