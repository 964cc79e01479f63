// Offline HIP compilation with the hipcc driver (Debian 12: package hipcc, clang 15 + ROCm 5.2),
// the second way to check generated HIP C++ without an AMD GPU and the compiler an exported
// project builds with. compileHipcc writes the source and resources/ts_hip.h into a scratch
// directory and runs
//   hipcc --offload-arch=<arch> -O3 -std=c++17 --genco -o kernel.co kernel.hip
// (--genco: device code only, a code object like hiprtc's). Unlike hiprtc, hipcc also accepts
// gfx940 (ROCm 5.2's LLVM 15 knows it; it does not know gfx942).
#pragma once
#include <string>
#include <vector>

namespace ts::rt {

/// Outcome of one compileHipcc call.
struct HipccResult {
    bool ok = false;
    std::string log;         ///< hipcc's stderr (clang diagnostics), or why it could not run
    std::vector<char> code;  ///< the code object (ELF for EM_AMDGPU) when ok
    double compileMs = 0;    ///< wall time, ms
};

/// Absolute path of hipcc ($HIPCC, else the first `hipcc` on PATH); empty when there is none.
std::string hipccPath();

/// Compiles `source` (which may `#include "ts_hip.h"`) for `arch` with hipcc --genco.
/// Never throws.
HipccResult compileHipcc(const std::string& source, const std::string& arch,
                         const std::vector<std::string>& extraOptions = {});

}  // namespace ts::rt
