// One entry point for "does the generated device code compile": NVRTC for CUDA architectures
// (sm_80, sm_90a), hiprtc for AMD ones (gfx90a). tilec compile/kernels and the IDE call this
// instead of choosing the compiler themselves.
#pragma once
#include <string>

#include "profiler/cuda/PtxasInfo.h"

namespace ts::rt {

struct DeviceCompileResult {
    bool available = false;  ///< the compiler for this arch is present (else `log` says why)
    bool ok = false;
    std::string compiler;    ///< "nvrtc" or "hiprtc"
    std::string log;         ///< compiler log, or why it could not run
    double ms = 0;
    bool cacheHit = false;
    size_t binaryBytes = 0;  ///< cubin / code object size when ok
    bool archUnsupported = false;  ///< the compiler cannot target this arch: a user error, not a codegen bug
    PtxasInfo ptxas;               ///< NVRTC only: ptxas's registers, spills and remarks per kernel
};

/// Compiles `source` for `arch`: "gfx..." with hiprtc (profiler/hip/Hiprtc.h), anything else
/// with NVRTC (profiler/cuda/Nvrtc.h). Never throws.
DeviceCompileResult compileDeviceSource(const std::string& source, const std::string& arch,
                                        bool useCache = true);

/// True for AMD architecture names ("gfx90a").
inline bool isAmdArch(const std::string& arch) { return arch.rfind("gfx", 0) == 0; }

}  // namespace ts::rt
