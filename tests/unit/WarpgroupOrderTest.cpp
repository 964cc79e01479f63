// The mma_c accumulator in warpgroup order (compiler/analysis/Layouts.h WarpPartition::byWarpgroup),
// the layout of the wgmma fragment path beyond 16 rows per warp of one warp column. Expected
// values derived by hand from wgmma's D fragment (PTX ISA 8.x §9.7.15.5.1.1.1: in each m64nN tile
// of a warpgroup, warp w%4 holds rows 16*(w%4).., element (i, j) in lane 4*(i%8) + (j%8)/2,
// register 4*(j/8) + 2*((i%16)/8) + j%2 of the tile's N/2):
//  - 128 x 64 on one warpgroup (4 warps x 1): element (70, 9) is in m64 tile 1 (rows 64..127),
//    its row 6 -> warp 0, lane 4*6 + 0 = 24; register: tile 1 starts at 64/2 = 32, + 4*(9/8) + 0
//    + 1 = 37. The plain mma.sync grid would give warp 70/32 = 2 (thread 88), register 4*4+... .
//  - 64 x 128 on two warpgroups side by side (4 x 2 warps): element (37, 100) is in warpgroup
//    column 100/64 = 1 -> warpgroup 1, warp 4 + 37/16 = 6, lane 4*(37%8) + (100%8)/2 = 22 ->
//    thread 214; register 4*((100%64)/8) + 2*((37%16)/8) + 0 = 16. Plain: warp (37/16)*2 + 1 = 5.
#include <set>

#include <gtest/gtest.h>

#include "compiler/analysis/GemmPartition.h"
#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/analysis/WgmmaLayouts.h"

namespace {
using namespace ts::analysis;

TEST(WarpgroupOrder, ElementPlacementIsHandDerived) {
    auto one = makeMmaAccumulator(128, 64, {4, 1, true});
    EXPECT_EQ(fragmentLocate(*one, {70, 9}), std::make_pair(int64_t(24), int64_t(37)));
    EXPECT_EQ(fragmentLocate(*makeMmaAccumulator(128, 64, {4, 1}), {70, 9})->first, 88);
    EXPECT_EQ(one->familyParams, (std::vector<int64_t>{128, 64, 4, 1, 1}));
    EXPECT_EQ(one->localSize, 64);
    auto two = makeMmaAccumulator(64, 128, {4, 2, true});
    EXPECT_EQ(fragmentLocate(*two, {37, 100}), std::make_pair(int64_t(214), int64_t(16)));
    EXPECT_EQ(fragmentLocate(*makeMmaAccumulator(64, 128, {4, 2}), {37, 100})->first, 182);
    auto back = fragmentInverse(*two, 214, 16);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, (std::vector<int64_t>{37, 100}));
}

TEST(WarpgroupOrder, IsWgmmasAccumulatorOnEveryGrid) {
    struct G { int64_t M, N; int wm, wn; };
    for (G g : {G{128, 64, 4, 1}, G{64, 128, 4, 2}, G{256, 64, 8, 1}, G{128, 128, 4, 2}, G{256, 128, 8, 2}, G{64, 256, 4, 4},
                G{192, 32, 4, 1}}) {
        auto ours = makeMmaAccumulator(g.M, g.N, {g.wm, g.wn, true});
        auto wgmma = makeWgmmaAccumulator(g.M, g.N, {g.wm / 4, g.wn, g.N / g.wn});
        EXPECT_TRUE(sameMapping(*ours, *wgmma)) << g.M << "x" << g.N << " on " << g.wm << "x" << g.wn;
        EXPECT_EQ(ours->localSize, wgmma->localSize);
    }
}

TEST(WarpgroupOrder, OneM64TilePerWarpgroupColumnIsThePlainLayout) {
    // 16 rows per warp and one warp column: both orders place alike; the plain parameters are kept.
    auto l = makeMmaAccumulator(128, 64, {8, 1, true});
    EXPECT_EQ(l->familyParams, (std::vector<int64_t>{128, 64, 8, 1}));
    EXPECT_TRUE(sameMapping(*l, *makeMmaAccumulator(128, 64, {8, 1})));
    EXPECT_EQ(mmaWarpPartitionOf(*l)->byWarpgroup, false);
    EXPECT_EQ(mmaWarpPartitionOf(*makeMmaAccumulator(64, 128, {4, 2, true}))->byWarpgroup, true);
}

TEST(WarpgroupOrder, RowsCompanionHoldsEveryRowOfItsThreads) {
    // What reductions and T.Parallel(i, j) reading row[i] rely on, and the way back.
    for (WarpPartition wp : {WarpPartition{4, 1, true}, WarpPartition{4, 2, true}, WarpPartition{8, 1, true}, WarpPartition{4, 4, true}}) {
        const int64_t M = wp.wm == 8 ? 256 : 128, N = 64 * wp.wn;
        auto acc = makeMmaAccumulator(M, N, wp);
        auto rows = rowCompanion(*acc);
        ASSERT_TRUE(rows);
        EXPECT_EQ(rows->family, "mma_c_rows");
        EXPECT_EQ(rows->replicate, 4 * wp.wn);
        for (int64_t t = 0; t < acc->threads; ++t)
            for (int64_t r = 0; r < acc->localSize; ++r) {
                auto ij = fragmentInverse(*acc, t, r);
                ASSERT_TRUE(ij);
                bool held = false;
                for (int64_t rr = 0; rr < rows->localSize && !held; ++rr) held = fragmentInverse(*rows, t, rr)->at(0) == (*ij)[0];
                ASSERT_TRUE(held) << wp.wm << "x" << wp.wn << " thread " << t << " reg " << r;
            }
        auto again = layoutWithRowCompanion(*rows, M, N);
        ASSERT_TRUE(again);
        EXPECT_TRUE(sameMapping(*again, *acc));
        // A width that does not tile the warp columns spreads over the row's holders, once each.
        auto spread = layoutWithRowCompanion(*rows, M, 5);
        ASSERT_TRUE(spread);
        EXPECT_EQ(spread->family, "mma_c_rows_spread");
        EXPECT_TRUE(sameMapping(*rowCompanion(*spread), *rows));
        std::set<std::vector<int64_t>> seen;
        for (int64_t t = 0; t < spread->threads; ++t)
            for (int64_t r = 0; r < spread->localSize; ++r) {
                auto ij = fragmentInverse(*spread, t, r);
                if (!ij || (*ij)[1] >= 5) continue;
                EXPECT_TRUE(seen.insert(*ij).second);
                bool held = false;
                for (int64_t rr = 0; rr < rows->localSize && !held; ++rr) held = fragmentInverse(*rows, t, rr)->at(0) == (*ij)[0];
                EXPECT_TRUE(held);
            }
        EXPECT_EQ(seen.size(), size_t(M * 5));
    }
}

TEST(WarpgroupOrder, PartitionKeepsWholeWarpgroupsAlongM) {
    // TileLang's wgmma partition: warps along M in multiples of 4.
    auto p = partitionWarpgroups(64, 128, 8, GemmPolicy::FullRow);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->wm, 4);
    EXPECT_EQ(p->wn, 2);
    EXPECT_TRUE(p->byWarpgroup);
    p = partitionWarpgroups(256, 64, 8, GemmPolicy::FullRow);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->wm, 8);
    p = partitionWarpgroups(128, 256, 8, GemmPolicy::FullCol);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->wm, 4);
    EXPECT_EQ(p->wn, 2);
    // Square: warp tiles 32 x 64 (4 x 2, |log 1/2|) beat 16 x 128 (8 x 1, |log 1/8|).
    p = partitionWarpgroups(128, 128, 8, GemmPolicy::Square);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->wm, 4);
    EXPECT_EQ(p->wn, 2);
    EXPECT_FALSE(partitionWarpgroups(32, 128, 8, GemmPolicy::FullRow));  // fewer than 64 rows
    EXPECT_FALSE(partitionWarpgroups(128, 128, 6, GemmPolicy::FullRow));  // not whole warpgroups
}

}  // namespace

namespace {
// A 128 x 64 fp16 tile narrowed to 64-byte panels (SelectHopperFragment.cpp panelLimit: warpgroups
// side by side read it from column 32): 2 panels of 32 columns, element (5, 40) in panel 1 at
// 1*128*32 = 4096, row 5 at 5*32, column 40 % 32 = 8 XOR key ((5*64)/128) % 4 = 2 times 8 = 24:
// 4096 + 160 + 24 = 4280 (the 64-byte swizzle: 16-byte chunk bits 4-5 XOR address bits 7-8).
TEST(WarpgroupOrder, NarrowerPanelGeometryIsHandDerived) {
    auto natural = wgmmaTileGeometry(128, 64, 2);
    ASSERT_TRUE(natural);
    EXPECT_EQ(natural->panelBytes, 128);
    auto g = wgmmaTileGeometry(128, 64, 2, nullptr, 64);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->panelBytes, 64);
    EXPECT_EQ(g->panelElems, 32);
    EXPECT_EQ(g->panels, 2);
    EXPECT_EQ(wgmmaSharedOffset(*g, 5, 40), 4280);
    // The layout records it and gives it back.
    auto l = makeWgmmaSharedLayout(*g);
    EXPECT_EQ(l->familyParams, (std::vector<int64_t>{128, 64, 64}));
    auto back = wgmmaGeometryOf(*l, 2);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->panelBytes, 64);
    // A limit wider than the row, or not a swizzle width, changes nothing.
    EXPECT_EQ(wgmmaTileGeometry(64, 16, 2, nullptr, 64)->panelBytes, 32);
    EXPECT_EQ(wgmmaTileGeometry(64, 64, 2, nullptr, 96)->panelBytes, 128);
}
}  // namespace
