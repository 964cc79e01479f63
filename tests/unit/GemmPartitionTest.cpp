// Warp grids of T.gemm policies (compiler/analysis/GemmPartition.h), hand-checked against the
// rule of TileLang's ComputeDefaultWarpPartition (src/cuda/op/gemm.cc, read at tile-ai/tilelang
// a35008a): FullRow takes the largest divisor m of the warp count (m = warps, warps-1, ...)
// such that m warps of a multiple of 16 rows tile M and the remaining warps/m tile N in multiples
// of 8 columns; FullCol the same from the N side; Square the valid grid with the most square
// warp tile.
#include <gtest/gtest.h>

#include "compiler/analysis/GemmPartition.h"

namespace {
using namespace ts::analysis;

std::pair<int, int> grid(int64_t M, int64_t N, int warps, GemmPolicy p) {
    auto wp = partitionWarps(M, N, warps, p);
    return wp ? std::make_pair(wp->wm, wp->wn) : std::make_pair(0, 0);
}

TEST(GemmPartition, FullRowAndFullColFallBackLikeTileLang) {
    EXPECT_EQ(grid(128, 64, 8, GemmPolicy::FullRow), std::make_pair(8, 1));  // 16 rows per warp
    EXPECT_EQ(grid(64, 64, 8, GemmPolicy::FullRow), std::make_pair(4, 2));   // 64/16 = 4 along M
    EXPECT_EQ(grid(64, 32, 8, GemmPolicy::FullRow), std::make_pair(4, 2));   // 2 x 16 columns
    // 48 rows: m = 8, 4, 2 leave rows that are not a multiple of 16; m = 1 with 8 warps of 8
    // columns tiles N = 64.
    EXPECT_EQ(grid(48, 64, 8, GemmPolicy::FullRow), std::make_pair(1, 8));
    EXPECT_EQ(grid(16, 128, 8, GemmPolicy::FullRow), std::make_pair(1, 8));  // one warp row only
    EXPECT_EQ(grid(16, 8, 4, GemmPolicy::FullRow), std::make_pair(0, 0));    // N=8 cannot take 4 warps
    EXPECT_EQ(grid(64, 64, 4, GemmPolicy::FullCol), std::make_pair(1, 4));
    EXPECT_EQ(grid(64, 16, 4, GemmPolicy::FullCol), std::make_pair(2, 2));   // 16/8 = 2 along N
    EXPECT_EQ(grid(64, 64, 4, GemmPolicy::Square), std::make_pair(2, 2));
    // 8, 16, 32 warps: 4 along M and 2, 4, 8 along N (warp tiles 16x32, 16x16, 16x8).
    EXPECT_EQ(validThreadCounts(64, 64, GemmPolicy::FullRow), "32, 64, 128, 256, 512, 1024");
}

}  // namespace
