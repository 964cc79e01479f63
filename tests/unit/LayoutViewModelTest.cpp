// Models of the Layout and Bank views (visualizer/core/LayoutGrid.h, BankMap.h, Svg.h): checked
// on the compiled gemm sample and hand-made requests, not on pixels.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "compiler/Compile.h"
#include "compiler/analysis/Layouts.h"
#include "visualizer/core/BankMap.h"
#include "visualizer/core/LayoutGrid.h"
#include "visualizer/core/Svg.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::viz;

namespace {
CompileResult compileGemm() {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) / "samples" / "gemm.py");
    std::stringstream ss;
    ss << in.rdbuf();
    return compile("samples/gemm.py", ss.str(), {});
}
size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}
}  // namespace

TEST(LayoutGridModel, GemmAccumulatorCells) {
    auto r = compileGemm();
    ASSERT_TRUE(r.ok);
    std::string why;
    auto m = LayoutGridModel::fromFunction(r.lowered, "C_local", &why);
    ASSERT_TRUE(m) << why;
    EXPECT_EQ(m->rows(), 128);
    EXPECT_EQ(m->cols(), 128);
    EXPECT_FALSE(m->isShared());
    EXPECT_EQ(m->cell(70, 100).thread, 122);  // see LayoutTest.MmaAccumulatorWarpGrid
    EXPECT_EQ(m->cell(70, 100).local, 16);
    EXPECT_EQ(m->cellsOfThread(0).size(), 128u);
    EXPECT_EQ(m->cellsOfWarp(3).size(), 64u * 64u);
    EXPECT_NE(m->describe(70, 100).find("warp 3, lane 26"), std::string::npos);
    EXPECT_FALSE(LayoutGridModel::fromFunction(r.lowered, "nope", &why));
    EXPECT_NE(why.find("C_local"), std::string::npos);
}

TEST(LayoutGridModel, SwizzledSharedTileBanks) {
    auto r = compileGemm();
    ASSERT_TRUE(r.ok);
    // B_shared: (3, 32, 128) fp16, 256-byte rows, 128-B swizzle; stage 1 starts 8192 B later.
    auto m0 = LayoutGridModel::fromFunction(r.lowered, "B_shared", nullptr, 0);
    auto m1 = LayoutGridModel::fromFunction(r.lowered, "B_shared", nullptr, 1);
    ASSERT_TRUE(m0 && m1);
    EXPECT_TRUE(m0->isShared());
    EXPECT_EQ(m0->rows(), 32);
    EXPECT_EQ(m0->cols(), 128);
    // Row 1, col 0: chunk 0 ^ 1 -> element 128 + 8; bank (base + 2*136)/4 % 32.
    EXPECT_EQ(m0->cell(1, 0).physical, 136);
    int64_t base = m0->cell(0, 0).byteAddress;
    EXPECT_EQ(m0->cell(1, 0).bank, int((base + 272) / 4 % 32));
    EXPECT_EQ(m1->cell(0, 0).byteAddress - base, 32 * 128 * 2);
    // A 16-byte column over 8 rows hits 8 distinct bank groups.
    std::set<int> groups;
    for (int row = 0; row < 8; ++row) groups.insert(m0->cell(row, 16).bank / 4);
    EXPECT_EQ(groups.size(), 8u);
}

TEST(BankHeatmapModel, StrideColumnAndVectorRow) {
    analysis::WarpRequest col;
    for (int l = 0; l < 32; ++l) col.addr[l] = 128 * l;  // stride 32 words: bank 0
    BankHeatmapModel h(col, "column");
    EXPECT_EQ(h.cost().wavefronts, 32);
    for (int l = 0; l < 32; ++l) {
        EXPECT_EQ(h.cell(l, 0), l + 1);
        EXPECT_EQ(h.cell(l, 1), 0);
    }
    EXPECT_EQ(h.bankLoad(0, 0), 32);
    EXPECT_EQ(h.summary(), "1 phase, 32 wavefronts (ideal 1), 32-way");
    analysis::WarpRequest v;
    v.bytes = 16;
    for (int l = 0; l < 32; ++l) v.addr[l] = 16 * l;
    BankHeatmapModel hv(v);
    EXPECT_EQ(hv.phases(), 4);
    EXPECT_EQ(hv.phaseOfLane(9), 1);
    EXPECT_EQ(hv.cell(9, 4), 1);  // lane 9: bytes 144..159 = words 36..39 = banks 4..7
    EXPECT_EQ(hv.cell(9, 8), 0);
    std::string svg = heatmapToSvg(hv);
    EXPECT_EQ(count(svg, "<rect"), 1u + 32u * 32u);
    EXPECT_EQ(count(svg, "<line"), 3u);  // phase separators
}

TEST(BankAccessRows, SortedByExcess) {
    analysis::KernelBankReport r;
    r.accesses.resize(3);
    r.accesses[0].wavefronts = 4, r.accesses[0].ideal = 4, r.accesses[0].buffer = "a";
    r.accesses[1].wavefronts = 40, r.accesses[1].ideal = 4, r.accesses[1].buffer = "b";
    r.accesses[2].wavefronts = 8, r.accesses[2].ideal = 4, r.accesses[2].buffer = "c";
    auto rows = sortedAccessRows(r);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].buffer, "b");
    EXPECT_EQ(rows[0].excess, 36);
    EXPECT_EQ(rows[1].buffer, "c");
    EXPECT_EQ(rows[2].index, 0u);
    EXPECT_NE(formatBankTable(r, true).find("totals per kernel"), std::string::npos);
}

TEST(LayoutSvg, OneRectPerCell) {
    auto l = analysis::makeMmaAccumulator(16, 8, {1, 1});
    auto m = LayoutGridModel::fromLayout(l, 4, 0, 0, "C");
    std::string svg = layoutToSvg(m, {});
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_EQ(count(svg, "<rect"), 1u + 16u * 8u);
    EXPECT_NE(svg.find(">T31<"), std::string::npos);
}

// A view whose tile is swizzled is drawn where lower-to-threads places it (through the tile's
// 128-byte swizzle), not row-major (fresh-user helper-103). Hand-derived for the uint8 view
// A_bytes of the 64 x 64 float16 tile A_s (128-byte rows, key = row % 8, 16-byte chunks XOR key):
// byte (1, 0) is chunk 0 of row 1 -> chunk 1: 128 + 16; byte (1, 16) -> chunk 0: 128; byte
// (3, 5) -> chunk 0 ^ 3 = 3: 384 + 48 + 5.
TEST(LayoutViewModel, AViewOfASwizzledTileIsDrawnWhereItIsPlaced) {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) / "tests/e2e/programs/shared_view_alias.py");
    std::stringstream ss;
    ss << in.rdbuf();
    CompileOptions o;
    o.params = {{"swizzled", "True"}};
    CompileResult r = compile("shared_view_alias.py", ss.str(), o);
    ASSERT_TRUE(r.ok);
    std::string why;
    auto m = LayoutGridModel::fromFunction(r.lowered, "A_bytes", &why);
    ASSERT_TRUE(m) << why;
    EXPECT_EQ(m->description(), "placed through 'A_s' (shared, row 128 B, 128-byte XOR swizzle)");
    EXPECT_EQ(m->cell(0, 0).physical, 0);
    EXPECT_EQ(m->cell(1, 0).physical, 144);
    EXPECT_EQ(m->cell(1, 16).physical, 128);
    EXPECT_EQ(m->cell(3, 5).physical, 384 + 48 + 5);
    auto plain = LayoutGridModel::fromFunction(r.lowered, "A_s", &why);
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->cell(1, 0).physical, 72);  // the tile itself, in float16 elements: (128 + 16) / 2
}
