// Target parsing and the target answers that need more than one line (see Target.h).
#include "compiler/target/Target.h"

namespace ts {

std::optional<Target> parseTarget(const std::string& s) {
    if (s.rfind("hip:", 0) == 0) {
        // gfx90a only: the MFMA atoms and wave64 lowering are CDNA2's; gfx942 (CDNA3) is not
        // compiled by the ROCm 5.2 hiprtc/hipcc this project can install (profiler/hip).
        if (s != "hip:gfx90a") return std::nullopt;
        Target out;
        out.name = s;
        out.smVersion = 0;
        out.amdArch = s.substr(4);
        return out;
    }
    std::string t = s;
    if (t.rfind("cuda:", 0) == 0) t = t.substr(5);
    if (t.rfind("sm_", 0) != 0) return std::nullopt;
    std::string v = t.substr(3);
    Target out;
    out.name = "cuda:" + t;
    if (!v.empty() && v.back() == 'a') out.archSpecific = true, v.pop_back();
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    out.smVersion = std::stoi(v);
    if (out.smVersion < 80) return std::nullopt;
    return out;
}

int64_t Target::maxSharedBytesPerBlock() const {
    // CUDA C++ Programming Guide, "Technical Specifications per Compute Capability": maximum
    // amount of shared memory per thread block (opt-in, cudaFuncAttributeMaxDynamicSharedMemorySize).
    if (isHip()) return 64 * 1024;  // gfx90a LDS per workgroup (Target.h)
    if (smVersion >= 90) return 227 * 1024;
    if (smVersion == 80 || smVersion == 87) return 163 * 1024;
    return 99 * 1024;  // 8.6, 8.9
}

CopyEngine Target::copyEngine(ir::Scope src, ir::Scope dst, bool pipelined) const {
    // cp.async writes shared memory from global memory only (PTX ISA §9.7.9.25.3.1: .shared
    // destination, .global source); a copy not issued early gains nothing from it.
    if (pipelined && hasCpAsync() && src == ir::Scope::Global && dst == ir::Scope::Shared) return CopyEngine::CpAsync;
    return CopyEngine::Plain;
}

}  // namespace ts
