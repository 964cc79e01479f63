// How a block's warps split a T.gemm's M x N accumulator tile (TileLang's GemmWarpPolicy).
// Each warp owns an (M/wm) x (N/wn) sub-tile made of mma.sync m16n8k16 atoms (PTX ISA
// §9.7.14.5.8), so a warp's M extent must be a multiple of 16 and its N extent of 8.
#pragma once
#include <optional>
#include <string>

#include "compiler/analysis/Layouts.h"

namespace ts::analysis {

enum class GemmPolicy { Square, FullRow, FullCol };

/// Parses "Square", "FullRow", "FullCol" (also with a "GemmWarpPolicy." prefix).
std::optional<GemmPolicy> parseGemmPolicy(const std::string& s);
const char* gemmPolicyName(GemmPolicy p);

constexpr int kWarpTileM = 16;  ///< rows of one warp tile must be a multiple of this
constexpr int kWarpTileN = 8;   ///< columns of one warp tile must be a multiple of this

/// Picks the warp grid for `warps` warps, or nullopt if no grid tiles M x N.
/// Square: the valid grid whose warp tile is closest to square; FullRow: as many warps along
/// M as tile it (the largest divisor wm of `warps` with M % (16*wm) == 0 and the remaining
/// wn = warps/wm tiling N), FullCol likewise along N. The FullRow/FullCol fallback is
/// TileLang's (src/cuda/op/gemm.cc ComputeDefaultWarpPartition); its Square differs (it aims
/// at wn = 2*wm), ours minimises |log(warp tile rows / cols)|.
std::optional<WarpPartition> partitionWarps(int64_t M, int64_t N, int warps, GemmPolicy policy);

/// The warp grid of a wgmma on the fragment layouts (the mma_c accumulator in warpgroup order,
/// Layouts.h WarpPartition::byWarpgroup): like partitionWarps but wm must be a multiple of 4 (a
/// warpgroup's 4 warps hold the 4 16-row strips of its m64 tiles, PTX ISA §9.7.15.5.1.1.1), as
/// TileLang's ComputeWarpPartition does for wgmma. byWarpgroup is set in the result.
std::optional<WarpPartition> partitionWarpgroups(int64_t M, int64_t N, int warps, GemmPolicy policy);

/// Thread counts (multiples of 32, up to 1024) for which partitionWarps succeeds, as "32, 64".
std::string validThreadCounts(int64_t M, int64_t N, GemmPolicy policy);

}  // namespace ts::analysis
