// analysis/WgmmaLayouts.h: the TMA/wgmma operand tile against offsets derived by hand from the
// swizzle rule (address bits 4.. XOR bits 7.., CUtensorMapSwizzle; PTX ISA §9.7.15.5.1.2), the
// IR expression of the layout against the C++ function, the descriptor fields against the
// canonical layouts (K-major: SBO = 8 rows x span; MN-major: LBO = panel stride), and which gemm
// shapes the sm_90a plan accepts.
#include <set>

#include <gtest/gtest.h>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/analysis/WgmmaLayouts.h"

using namespace ts::analysis;
using ts::ir::DType;

namespace {

WgmmaTileGeometry geo(int64_t r, int64_t c, int e) {
    auto g = wgmmaTileGeometry(r, c, e);
    EXPECT_TRUE(g.has_value()) << r << "x" << c;
    return g.value_or(WgmmaTileGeometry{});
}

TEST(WgmmaLayouts, GeometryRules) {
    auto g = geo(32, 128, 2);  // 256-byte rows: two 128-byte panels
    EXPECT_EQ(g.panelBytes, 128);
    EXPECT_EQ(g.panelElems, 64);
    EXPECT_EQ(g.panels, 2);
    EXPECT_EQ(geo(128, 32, 2).panelBytes, 64);
    EXPECT_EQ(geo(128, 16, 2).panelBytes, 32);
    std::string why;
    EXPECT_FALSE(wgmmaTileGeometry(128, 40, 2, &why));  // 80-byte rows
    EXPECT_NE(why.find("80 bytes"), std::string::npos);
    EXPECT_FALSE(wgmmaTileGeometry(12, 64, 2));   // rows not a multiple of 8
    EXPECT_FALSE(wgmmaTileGeometry(512, 64, 2));  // TMA box rows <= 256
}

TEST(WgmmaLayouts, HandDerivedOffsets) {
    // 128-byte span, 64 fp16 per row: chunk (8 elements) index XOR row % 8.
    auto a = geo(64, 64, 2);
    EXPECT_EQ(wgmmaSharedOffset(a, 0, 0), 0);
    EXPECT_EQ(wgmmaSharedOffset(a, 0, 8), 8);
    EXPECT_EQ(wgmmaSharedOffset(a, 1, 0), 64 + 8);
    EXPECT_EQ(wgmmaSharedOffset(a, 1, 8), 64);
    EXPECT_EQ(wgmmaSharedOffset(a, 7, 63), 7 * 64 + (63 ^ 56));
    // Two panels: column 64.. starts after 32 rows of the first panel.
    auto b = geo(32, 128, 2);
    EXPECT_EQ(wgmmaSharedOffset(b, 0, 64), 32 * 64);
    EXPECT_EQ(wgmmaSharedOffset(b, 9, 70), 32 * 64 + 9 * 64 + (6 ^ 8));
    // 64-byte span: the key is address bits 7..8 = (row / 2) % 4.
    auto c = geo(128, 32, 2);
    EXPECT_EQ(wgmmaSharedOffset(c, 2, 0), 2 * 32 + 8);
    EXPECT_EQ(wgmmaSharedOffset(c, 3, 9), 3 * 32 + (9 ^ 8));
    EXPECT_EQ(wgmmaSharedOffset(c, 8, 0), 8 * 32);
}

TEST(WgmmaLayouts, BijectionAndAddressBitRule) {
    for (auto [r, cc, e] : {std::tuple{64, 64, 2}, {32, 128, 2}, {128, 32, 2}, {64, 16, 2}, {16, 256, 2}, {8, 256, 1}}) {
        auto g = geo(r, cc, e);
        std::set<int64_t> seen;
        for (int64_t i = 0; i < r; ++i)
            for (int64_t j = 0; j < cc; ++j) {
                const int64_t o = wgmmaSharedOffset(g, i, j);
                ASSERT_TRUE(o >= 0 && o < r * cc && seen.insert(o).second) << r << "x" << cc << " (" << i << "," << j << ")";
                // Unswizzled panel-major byte address vs the physical one: bits 4.. differ by bits 7...
                const int64_t logical = ((j / g.panelElems) * r * g.panelElems + i * g.panelElems + j % g.panelElems) * e;
                const int64_t phys = o * e, mask = g.panelBytes / 16 - 1;
                EXPECT_EQ((phys >> 4) & mask, ((logical >> 4) & mask) ^ ((logical >> 7) & mask));
                EXPECT_EQ(phys & ~(mask << 4), logical & ~(mask << 4));
            }
    }
}

TEST(WgmmaLayouts, LayoutExpressionMatchesFunction) {
    for (auto [r, cc] : {std::pair{64, 64}, {32, 128}, {128, 32}}) {
        auto g = geo(r, cc, 2);
        auto l = makeWgmmaSharedLayout(g);
        EXPECT_EQ(l->family, "wgmma_smem");
        EXPECT_EQ(l->physicalElems, r * cc);
        auto back = wgmmaGeometryOf(*l, 2);
        ASSERT_TRUE(back);
        EXPECT_EQ(back->panels, g.panels);
        for (int64_t i = 0; i < r; i += 3)
            for (int64_t j = 0; j < cc; j += 5) {
                auto v = evalInt(l->offset, {{l->inputs[0].get(), i}, {l->inputs[1].get(), j}});
                ASSERT_TRUE(v);
                EXPECT_EQ(*v, wgmmaSharedOffset(g, i, j));
            }
    }
}

TEST(WgmmaLayouts, DescriptorFields) {
    // K-major A, 128 x 64 fp16: k-step 1 is 32 bytes into the row; m-tile 1 starts 64 rows on.
    auto a = geo(128, 64, 2);
    auto d = wgmmaDescriptor(a, true, 1, 64);
    EXPECT_EQ(d.startByte, 64 * 128 + 32);
    EXPECT_EQ(d.sboBytes, 1024);
    EXPECT_EQ(d.swizzleBytes, 128);
    // K-major with two K panels (K = 128): k-step 4 starts the second panel.
    auto a2 = geo(64, 128, 2);
    EXPECT_EQ(wgmmaDescriptor(a2, true, 4, 0).startByte, 64 * 128);
    // MN-major B, K=64 rows x N=128: k-step 1 is 16 rows down; panels are LBO apart.
    auto b = geo(64, 128, 2);
    auto db = wgmmaDescriptor(b, false, 1, 0);
    EXPECT_EQ(db.startByte, 16 * 128);
    EXPECT_EQ(db.lboBytes, 64 * 128);
    EXPECT_EQ(db.sboBytes, 1024);
    // 64-byte span: SBO = 8 rows x 64 bytes.
    EXPECT_EQ(wgmmaDescriptor(geo(128, 32, 2), true, 1, 0).sboBytes, 512);
}

TEST(WgmmaLayouts, GemmPlan) {
    auto p = hopperGemmPlan(128, 128, 32, 128, DType::Float16, DType::Float32, false, false);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->warpgroups, 1);
    EXPECT_EQ(p->a.rows, 128);
    EXPECT_EQ(p->b.panels, 2);
    auto q = hopperGemmPlan(128, 256, 64, 256, DType::BFloat16, DType::Float32, false, true);
    ASSERT_TRUE(q);
    EXPECT_EQ(q->warpgroups, 2);
    EXPECT_EQ(q->b.rows, 256);  // B stored N x K
    std::string why;
    EXPECT_FALSE(hopperGemmPlan(64, 128, 32, 256, DType::Float16, DType::Float32, false, false, &why));
    EXPECT_NE(why.find("m64"), std::string::npos);
    EXPECT_FALSE(hopperGemmPlan(128, 128, 32, 128, DType::Float32, DType::Float32, false, false));
    EXPECT_FALSE(hopperGemmPlan(128, 256, 32, 128, DType::Float16, DType::Float32, false, false));  // 256 regs
    EXPECT_FALSE(hopperGemmPlan(128, 128, 32, 96, DType::Float16, DType::Float32, false, false));   // 3 warps
}

// The sm_90a attention path (transforms/SelectHopperFragment.cpp) keeps the mma.sync fragment
// layouts for wgmma: with 16 rows per warp on a one-column warp grid (64 rows per warpgroup), the
// m16n8k16 accumulator is the wgmma m64nN accumulator element for element (thread and register).
TEST(WgmmaLayouts, MmaAccumulatorOnOneWarpColumnIsTheWgmmaAccumulator) {
    for (int wg : {1, 2, 3})
        for (int64_t n : {16, 32, 64, 128, 256}) {
            const int64_t M = 64 * wg;
            auto mma = makeMmaAccumulator(M, n, {int(M / 16), 1});
            auto wgmma = makeWgmmaAccumulator(M, n, {wg, 1, n});
            EXPECT_TRUE(sameMapping(*mma, *wgmma)) << "M=" << M << " N=" << n;
        }
    // Not with two m64 tiles per warpgroup (M = 128 on 4 warps): then a warp's rows are 16w and
    // 64 + 16w for wgmma, 32w..32w+31 for mma.sync.
    EXPECT_FALSE(sameMapping(*makeMmaAccumulator(128, 64, {4, 1}), *makeWgmmaAccumulator(128, 64, {1, 1, 64})));
}

}  // namespace
