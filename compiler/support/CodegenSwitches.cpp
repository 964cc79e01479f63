#include "compiler/support/CodegenSwitches.h"

#include <algorithm>
#include <cstdlib>

namespace ts {

const std::vector<std::string>& knownCodegenSwitches() {
    // Every TILESCOPE_* variable the compiler reads (compiler/: getenv), and the ptxas options the
    // runtime passes to every NVRTC compile (they change the cubin that runs). A unit test
    // (CodegenSwitches.EveryVariableTheCompilerReadsIsListed) keeps this list whole.
    static const std::vector<std::string> k = {
        "TILESCOPE_FOLD_CLEAR_GEMM",      "TILESCOPE_HOPPER_GEMM_SCHEDULE", "TILESCOPE_HOPPER_INFLIGHT",   "TILESCOPE_HOPPER_LATE_REFILL", "TILESCOPE_HOPPER_LATE_WAIT",
        "TILESCOPE_HOPPER_NO_FRAGMENT_TMA",
        "TILESCOPE_HOPPER_PINGPONG",      "TILESCOPE_HOPPER_SOFTMAX_OVERLAP", "TILESCOPE_HOPPER_SYNC_WGMMA",
        "TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS", "TILESCOPE_HOPPER_WARP_ARRIVE", "TILESCOPE_HOPPER_WS",
        "TILESCOPE_HOPPER_WS_MAXNREG",    "TILESCOPE_MIN_BLOCKS",        "TILESCOPE_PAIR_CAST",          "TILESCOPE_PIPELINE_TMA",
        "TILESCOPE_PTXAS_OPTIONS",        "TILESCOPE_RASTER_PANEL",      "TILESCOPE_SINK_TMA_WAITS",
        "TILESCOPE_UNIT_SCALE_SKIP",      "TILESCOPE_VECTOR_ATOMICS",    "TILESCOPE_WGMMA_FENCE_EVERY",
        "TILESCOPE_WGMMA_PAIRS",          "TILESCOPE_WGMMA_TOP_FENCE",   "TILESCOPE_WGMMA_CHAIN",
    };
    return k;
}

std::vector<std::pair<std::string, std::string>> codegenSwitchesFromEnv() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& name : knownCodegenSwitches())
        if (const char* v = std::getenv(name.c_str()); v && *v) out.emplace_back(name, v);
    std::sort(out.begin(), out.end());
    return out;
}

std::string describeCodegenSwitches() {
    std::string s;
    for (auto& [k, v] : codegenSwitchesFromEnv()) s += (s.empty() ? "" : ", ") + k + "=" + v;
    return s;
}

}  // namespace ts
