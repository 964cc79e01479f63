// Compilation targets. sm_80 is the Ampere path (mma.sync, ldmatrix, cp.async); sm_90a adds
// Hopper features (wgmma, TMA, mbarrier, setmaxnreg) in later issues; hip:gfx90a is AMD CDNA2
// (64-lane wavefronts, MFMA, LDS; no async copies) through HIP C++.
#pragma once
#include <optional>
#include <string>

namespace ts {

struct Target {
    std::string name = "cuda:sm_80";  ///< as written on the command line
    int smVersion = 80;               ///< 80, 86, 89, 90; 0 for AMD targets
    bool archSpecific = false;        ///< the "a" suffix (sm_90a)
    /// AMD GPU architecture of a hip: target ("gfx90a": CDNA2, MI200); empty for CUDA.
    std::string amdArch;
    /// NVRTC/nvcc architecture string "sm_80", "sm_90a"; hiprtc/hipcc's "gfx90a" for HIP.
    std::string arch() const {
        return isHip() ? amdArch : "sm_" + std::to_string(smVersion) + (archSpecific ? "a" : "");
    }
    /// The HIP backend (AMD CDNA): HIP C++ against resources/ts_hip.h, hiprtc/hipcc.
    bool isHip() const { return !amdArch.empty(); }
    /// Lanes of a warp (32, NVIDIA) or wavefront (64: CDNA runs wave64 only, "AMD Instinct MI200"
    /// ISA Reference Guide §1 "Wavefronts"). What gemm warp grids, reductions and the thread
    /// interpreter count in; the pipeline records it as the function's attr "warp_size".
    int warpSize() const { return isHip() ? 64 : 32; }
};

/// Parses "cuda:sm_80", "cuda:sm_90a", "sm_80", "hip:gfx90a"; nullopt if unknown.
std::optional<Target> parseTarget(const std::string& s);

}  // namespace ts
