// Compilation targets. sm_80 is the Ampere path (mma.sync, ldmatrix, cp.async); sm_90a adds
// Hopper features (wgmma, TMA, mbarrier, setmaxnreg) in later issues.
#pragma once
#include <optional>
#include <string>

namespace ts {

struct Target {
    std::string name = "cuda:sm_80";  ///< as written on the command line
    int smVersion = 80;               ///< 80, 86, 89, 90
    bool archSpecific = false;        ///< the "a" suffix (sm_90a)
    /// NVRTC/nvcc architecture string: "sm_80", "sm_90a".
    std::string arch() const { return "sm_" + std::to_string(smVersion) + (archSpecific ? "a" : ""); }
};

/// Parses "cuda:sm_80", "cuda:sm_90a", "sm_80"; nullopt if unknown.
std::optional<Target> parseTarget(const std::string& s);

}  // namespace ts
