// Compiling generated CUDA C++ to a cubin with NVRTC, in process, with an on-disk cache
// (CubinCache.h). The device header resources/ts_device.cuh is handed to NVRTC as an in-memory
// header, so `#include "ts_device.cuh"` works without any file on disk.
//
// Options are fixed here, once, for every caller (tilec, the IDE, the worker, tests):
//   --std=c++17 --gpu-architecture=<arch> --device-as-default-execution-space
//   --generate-line-info --ptxas-options=-v [-I<CUDA include dir, when present>] <extra options...>
// Deliberately *not* --use_fast_math: kernels keep IEEE division, sqrt and denormals, so GPU
// results stay comparable with the float64 reference and the interpreter; a caller may opt in
// through extraOptions. -lineinfo costs no speed and lets profilers map SASS back to source lines.
// Kernels must be declared `extern "C" __global__` so cuModuleGetFunction finds them by name.
#pragma once
#include <string>
#include <vector>

#include "profiler/cuda/PtxasInfo.h"

namespace ts::rt {

/// Outcome of one compileCuda call.
struct NvrtcResult {
    bool ok = false;
    std::string log;          ///< NVRTC's log ("tilescope_kernel.cu(12): error: ..."), warnings
                              ///< included, so possibly non-empty when ok; empty on a cache hit
                              ///< (logs are not cached); on a failure before NVRTC ran, the reason
    std::vector<char> cubin;  ///< ELF cubin for `arch` when ok
    double compileMs = 0;     ///< wall time of this call, ms (cache lookup only on a hit)
    bool cacheHit = false;    ///< cubin came from the disk cache
    std::string arch;         ///< the real architecture compiled for, e.g. "sm_90a"
    bool archUnsupported = false;  ///< this NVRTC cannot target `arch` (the user's choice, not a codegen bug)
    /// ptxas's figures per kernel (registers, spills, barriers, remarks such as a serialized
    /// wgmma), from the --ptxas-options=-v lines, which are taken out of `log`; kept with the cubin
    /// in the cache, so a hit has them too (empty for entries cached before 2026-12-04).
    PtxasInfo ptxas;
};

/// Compiles `source` (one translation unit, shown in logs as "tilescope_kernel.cu") to a cubin for
/// the real architecture `arch` ("sm_80", "sm_90a", "sm_100a"; compute_XX is rejected because the
/// runtime loads cubins, not PTX). With `useCache`, a hit in CubinCache::defaultDir() skips NVRTC
/// and a fresh result is stored there. Never throws; a compile error is ok=false with the log.
NvrtcResult compileCuda(const std::string& source, const std::string& arch,
                        const std::vector<std::string>& extraOptions = {}, bool useCache = true);

/// The complete NVRTC option list compileCuda uses for `arch` and `extraOptions`.
std::vector<std::string> nvrtcOptions(const std::string& arch,
                                      const std::vector<std::string>& extraOptions = {});

/// True if `arch` has the form sm_<digits>[a|f], the only form compileCuda accepts.
bool isRealArch(const std::string& arch);

/// "13.0" for the linked NVRTC; empty when this build has no NVRTC.
std::string nvrtcVersion();

/// True when this build links NVRTC (TS_HAVE_NVRTC); otherwise fills *why.
bool nvrtcAvailable(std::string* why = nullptr);

/// Architectures NVRTC can emit cubins for, as numbers (80, 86, 90, 100, ...); empty without NVRTC.
std::vector<int> nvrtcSupportedArchs();

}  // namespace ts::rt
