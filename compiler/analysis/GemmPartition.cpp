#include "compiler/analysis/GemmPartition.h"

#include <cmath>
#include <limits>

namespace ts::analysis {

std::optional<GemmPolicy> parseGemmPolicy(const std::string& s0) {
    std::string s = s0;
    auto dot = s.rfind('.');
    if (dot != std::string::npos) s = s.substr(dot + 1);
    if (s == "Square") return GemmPolicy::Square;
    if (s == "FullRow") return GemmPolicy::FullRow;
    if (s == "FullCol") return GemmPolicy::FullCol;
    return std::nullopt;
}

const char* gemmPolicyName(GemmPolicy p) {
    switch (p) {
        case GemmPolicy::Square: return "Square";
        case GemmPolicy::FullRow: return "FullRow";
        case GemmPolicy::FullCol: return "FullCol";
    }
    return "?";
}

std::optional<WarpPartition> partitionWarps(int64_t M, int64_t N, int warps, GemmPolicy policy) {
    if (warps <= 0) return std::nullopt;
    auto valid = [&](int wm, int wn) {
        return M % (int64_t(wm) * kWarpTileM) == 0 && N % (int64_t(wn) * kWarpTileN) == 0;
    };
    // FullRow/FullCol as TileLang's GemmWarpPolicy computes them: every warp along M (N); when
    // M/16 (N/8) is not a multiple of the warp count, M/16 (N/8) warps along it and the rest
    // along the other dimension (e.g. M=64 on 8 warps: 4 x 2).
    auto full = [&](bool rows) -> std::optional<WarpPartition> {
        WarpPartition wp = rows ? WarpPartition{warps, 1} : WarpPartition{1, warps};
        if (!valid(wp.wm, wp.wn)) {
            const int64_t along = rows ? M / kWarpTileM : N / kWarpTileN;
            if (along <= 0 || along > warps || warps % along != 0) return std::nullopt;
            wp = rows ? WarpPartition{int(along), int(warps / along)} : WarpPartition{int(warps / along), int(along)};
        }
        return valid(wp.wm, wp.wn) ? std::optional<WarpPartition>(wp) : std::nullopt;
    };
    if (policy == GemmPolicy::FullRow) return full(true);
    if (policy == GemmPolicy::FullCol) return full(false);
    std::optional<WarpPartition> best;
    double bestScore = std::numeric_limits<double>::max();
    for (int wm = 1; wm <= warps; ++wm) {
        if (warps % wm != 0) continue;
        int wn = warps / wm;
        if (!valid(wm, wn)) continue;
        // Closest to square warp tiles minimise ldmatrix traffic per mma.
        double score = std::abs(std::log(double(M / wm) / double(N / wn)));
        if (score < bestScore - 1e-9) bestScore = score, best = WarpPartition{wm, wn};
    }
    return best;
}

std::string validThreadCounts(int64_t M, int64_t N, GemmPolicy policy) {
    std::string out;
    for (int t = 32; t <= 1024; t += 32)
        if (partitionWarps(M, N, t / 32, policy)) out += (out.empty() ? "" : ", ") + std::to_string(t);
    return out.empty() ? "none (M must be a multiple of 16 and N of 8)" : out;
}

}  // namespace ts::analysis
