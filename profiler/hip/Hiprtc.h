// Compiling generated HIP C++ to an AMD GPU code object with hiprtc, in process, with the same
// on-disk cache as NVRTC output (CubinCache.h; keys differ by compiler and arch). No AMD GPU is
// needed: hiprtc is a compiler (clang + the ROCm device libraries) and never touches a device.
//
// hiprtc lives in libamdhip64 (ROCm 5.x; Debian 12: libamdhip64-5, with libhiprtc-builtins5 and
// rocm-device-libs, installed by scripts/setup). It is loaded with dlopen on first use, not
// linked, so tilec and the IDE still start on machines without ROCm (the GPU box): there
// compileHip reports why it cannot run instead of the binary failing to load.
//
// The device header resources/ts_hip.h is handed to hiprtc as an in-memory header, so
// `#include "ts_hip.h"` works without any file on disk. Options, fixed here for every caller:
//   --offload-arch=<arch> -O3 -std=c++17 <extra options...>
// Like NVRTC's, no fast-math: IEEE division/sqrt keep GPU results comparable with the float64
// reference. Kernels must be `extern "C" __global__` so hipModuleGetFunction finds them by name.
//
// Architectures: only those the installed ROCm's hiprtc compiles are accepted (hiprtcArchs()).
// ROCm 5.2's hiprtc aborts the process (munmap_chunk: invalid pointer) for gfx940/gfx942 instead
// of returning an error, so an arch outside the list is refused before hiprtc sees it.
#pragma once
#include <string>
#include <vector>

namespace ts::rt {

/// Outcome of one compileHip call.
struct HiprtcResult {
    bool ok = false;
    std::string log;         ///< hiprtc's log (clang diagnostics "tilescope_kernel.hip:12:5: error:
                             ///< ...", comgr's temporary file name replaced), empty on a cache
                             ///< hit; on a failure before hiprtc ran, why
    std::vector<char> code;  ///< the code object (ELF, e_machine EM_AMDGPU = 224) when ok
    double compileMs = 0;    ///< wall time of this call, ms
    bool cacheHit = false;   ///< code object came from the disk cache
    std::string arch;        ///< the architecture compiled for, e.g. "gfx90a"
};

/// Compiles `source` (one translation unit, named "tilescope_kernel.hip" in logs) for the AMD
/// architecture `arch` (one of hiprtcArchs()). With `useCache`, a hit in CubinCache::defaultDir()
/// skips hiprtc. Never throws; errors are ok=false with the log.
HiprtcResult compileHip(const std::string& source, const std::string& arch,
                        const std::vector<std::string>& extraOptions = {}, bool useCache = true);

/// The complete option list compileHip passes to hiprtc for `arch` and `extraOptions`.
std::vector<std::string> hiprtcOptions(const std::string& arch,
                                       const std::vector<std::string>& extraOptions = {});

/// True when libamdhip64 with hiprtc can be loaded; otherwise fills *why (what to install).
bool hiprtcAvailable(std::string* why = nullptr);

/// "5.2" for the loaded hiprtc; empty when unavailable.
std::string hiprtcVersion();

/// The architectures compileHip accepts: {"gfx90a"} (CDNA2, MI200; wavefront 64, MFMA) and
/// {"gfx908"} (CDNA1, MI100). gfx942 (MI300) is not: ROCm 5.2's LLVM 15 does not know it.
const std::vector<std::string>& hiprtcArchs();

/// True when code is an ELF object for EM_AMDGPU (e_machine 224) -- what hiprtc emits.
bool isAmdgpuElf(const std::vector<char>& code);

}  // namespace ts::rt
