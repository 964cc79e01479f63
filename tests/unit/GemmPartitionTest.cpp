// Warp grids of T.gemm policies (compiler/analysis/GemmPartition.h), hand-checked against the
// rule TileLang's GemmWarpPolicy applies: FullRow puts every warp along M when each gets a
// multiple of 16 rows, else M/16 warps along M and the remaining factor along N; FullCol the same
// with N and 8 columns; Square the valid grid with the most square warp tile.
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
    EXPECT_EQ(grid(48, 64, 8, GemmPolicy::FullRow), std::make_pair(0, 0));   // 3 does not divide 8
    EXPECT_EQ(grid(16, 8, 4, GemmPolicy::FullRow), std::make_pair(0, 0));    // N=8 cannot take 4 warps
    EXPECT_EQ(grid(64, 64, 4, GemmPolicy::FullCol), std::make_pair(1, 4));
    EXPECT_EQ(grid(64, 16, 4, GemmPolicy::FullCol), std::make_pair(2, 2));   // 16/8 = 2 along N
    EXPECT_EQ(grid(64, 64, 4, GemmPolicy::Square), std::make_pair(2, 2));
    // 8, 16, 32 warps: 4 along M and 2, 4, 8 along N (warp tiles 16x32, 16x16, 16x8).
    EXPECT_EQ(validThreadCounts(64, 64, GemmPolicy::FullRow), "32, 64, 128, 256, 512, 1024");
}

}  // namespace
