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
    // FullRow / FullCol put as many warps as tile along their side and the rest on the other
    // side (TileLang's ComputeDefaultWarpPartition does the same: it walks m = warps..1 and
    // keeps the first divisor that tiles), so 8 warps on a 64x64 FullRow tile become 4x2
    // rather than an error.
    if (policy == GemmPolicy::FullRow || policy == GemmPolicy::FullCol) {
        for (int side = warps; side >= 1; --side) {
            if (warps % side != 0) continue;
            int wm = policy == GemmPolicy::FullRow ? side : warps / side, wn = warps / wm;
            if (valid(wm, wn)) return WarpPartition{wm, wn};
        }
        return std::nullopt;
    }
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

std::optional<WarpPartition> partitionWarpgroups(int64_t M, int64_t N, int warps, GemmPolicy policy) {
    if (warps <= 0 || warps % 4 != 0) return std::nullopt;
    auto valid = [&](int wm, int wn) {
        return wm % 4 == 0 && M % (int64_t(wm) * kWarpTileM) == 0 && N % (int64_t(wn) * kWarpTileN) == 0;
    };
    std::optional<WarpPartition> best;
    double bestScore = std::numeric_limits<double>::max();
    for (int wm = warps; wm >= 4; wm -= 4) {
        if (warps % wm != 0 || !valid(wm, warps / wm)) continue;
        const int wn = warps / wm;
        // FullRow: the most warps along M (the first valid); FullCol: the fewest; Square: the
        // warp tile closest to square, as partitionWarps.
        const double score = policy == GemmPolicy::FullRow ? -wm
                             : policy == GemmPolicy::FullCol ? wm
                                                             : std::abs(std::log(double(M / wm) / double(N / wn)));
        if (score < bestScore - 1e-9) bestScore = score, best = WarpPartition{wm, wn, true};
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
