// Hardware fragment layouts of compiler/analysis/HwLayouts.h against elements written out by
// hand from the spec figures (not from the formulas under test), plus coverage over whole tiles:
//  - mma.sync m16n8k16 A/B (PTX ISA §9.7.14.5.8, Figures 79/81): groupID = lane/4,
//    tig = lane%4; a0,a1 at (g, 2tig+{0,1}), a2,a3 at (g+8, ..), a4,a5 at (g, 2tig+8+{0,1}),
//    a6,a7 at (g+8, 2tig+8+..); b0,b1 at (2tig+{0,1}, g), b2,b3 at (2tig+8+{0,1}, g);
//  - wgmma m64nNk16 D (§9.7.15.5.1.1.1): thread 0 holds (0,0),(0,1),(8,0),(8,1) as d0..d3,
//    d4.. repeat 8 columns to the right; warp w of the warpgroup owns rows 16w..16w+15;
//  - v_mfma_f32_16x16x16f16 (AMD Matrix Instruction Calculator, CDNA2): A[0][0..3] in lane 0,
//    A[0][4..7] in lane 16; B and C/D hold 4 consecutive rows of one column per lane.
// LayoutHw.MatchesH200Probe compares the tables with register maps measured on an H200 by
// tests/hw/FragmentProbe.cu (mma.sync A and B, wgmma m64n{8,24,256}k16 D).
// Every layout is also checked to cover its tile exactly `replicate` times with the inverse
// undoing the forward map, and the operand atoms against the ldmatrix destination fragments
// GemmSS loads them with (resources/ts_device.cuh).
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/Ldmatrix.h"
#include "compiler/analysis/UserLayouts.h"
#include "tests/unit/FragmentTestUtil.h"
#include "visualizer/core/LayoutGrid.h"
#include "visualizer/core/Svg.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::analysis;
using namespace ts::test;


TEST(LayoutHw, MmaOperandAAtomFromFigure) {
    auto l = makeMmaOperandA(16, 16, {1, 1});
    EXPECT_EQ(l->threads, 32);
    EXPECT_EQ(l->localSize, 8);
    // Lane 0 (g 0, tig 0): a0..a7.
    EXPECT_EQ(loc(l, 0, 0), P(0, 0));
    EXPECT_EQ(loc(l, 0, 1), P(0, 1));
    EXPECT_EQ(loc(l, 8, 0), P(0, 2));
    EXPECT_EQ(loc(l, 8, 1), P(0, 3));
    EXPECT_EQ(loc(l, 0, 8), P(0, 4));
    EXPECT_EQ(loc(l, 0, 9), P(0, 5));
    EXPECT_EQ(loc(l, 8, 8), P(0, 6));
    EXPECT_EQ(loc(l, 8, 9), P(0, 7));
    // Lane 5 (g 1, tig 1): a0 at (1, 2), a7 at (9, 11). Lane 31 (g 7, tig 3): a6 (15, 14).
    EXPECT_EQ(loc(l, 1, 2), P(5, 0));
    EXPECT_EQ(loc(l, 9, 11), P(5, 7));
    EXPECT_EQ(loc(l, 15, 14), P(31, 6));
    EXPECT_EQ(loc(l, 15, 15), P(31, 7));
    EXPECT_EQ(inv(l, 5, 7), (std::vector<int64_t>{9, 11}));
    expectBijective(l, 32);
}

TEST(LayoutHw, MmaOperandBAtomFromFigure) {
    auto l = makeMmaOperandB(16, 8, {1, 1});
    EXPECT_EQ(l->threads, 32);
    EXPECT_EQ(l->localSize, 4);
    // Lane 0: b0 (0,0), b1 (1,0), b2 (8,0), b3 (9,0). Lane 6 (g 1, tig 2): b0 (4,1), b3 (13,1).
    EXPECT_EQ(loc(l, 0, 0), P(0, 0));
    EXPECT_EQ(loc(l, 1, 0), P(0, 1));
    EXPECT_EQ(loc(l, 8, 0), P(0, 2));
    EXPECT_EQ(loc(l, 9, 0), P(0, 3));
    EXPECT_EQ(loc(l, 4, 1), P(6, 0));
    EXPECT_EQ(loc(l, 13, 1), P(6, 3));
    EXPECT_EQ(loc(l, 15, 7), P(31, 3));
    expectBijective(l, 32);
}

// GemmSS fills Frags::a[mi] with ldmatrix.x4 whose matrix q covers rows 8*(q%2).., k 8*(q/2)..
// (lane%16 = row, lane/16 = k half), and Frags::b[ni] with x4.trans whose matrix q covers k
// 8*(q%2).., n 8*(q/2)..: register q of the ldmatrix = (a_{2q}, a_{2q+1}) / (b_{2q}, b_{2q+1}).
TEST(LayoutHw, MmaOperandsAgreeWithGemmSSLdmatrix) {
    auto a = makeMmaOperandA(16, 16, {1, 1});
    auto ld = makeLdmatrixFragment(4, false);
    for (int r = 0; r < 16; ++r)
        for (int k = 0; k < 16; ++k) {
            int q = r / 8 + 2 * (k / 8);
            EXPECT_EQ(loc(a, r, k), loc(ld, 8 * q + r % 8, k % 8)) << r << "," << k;
        }
    auto b = makeMmaOperandB(16, 16, {1, 1});  // two n8 atoms = one x4.trans
    auto ldt = makeLdmatrixFragment(4, true);
    for (int k = 0; k < 16; ++k)
        for (int n = 0; n < 16; ++n) {
            int q = k / 8 + 2 * (n / 8);
            // Atom ni = n/8 is locals 4ni..4ni+3, the x4.trans registers 2ni, 2ni+1.
            EXPECT_EQ(loc(b, k, n), loc(ldt, 8 * q + k % 8, n % 8)) << k << "," << n;
        }
}

TEST(LayoutHw, MmaOperandsBlockTiling) {
    // A 64x32 over 2x2 warps: warp rows of 32, 2 m-atoms x 2 k-steps x 8 = 32 halves/thread.
    auto a = makeMmaOperandA(64, 32, {2, 2});
    EXPECT_EQ(a->threads, 128);
    EXPECT_EQ(a->localSize, 32);
    EXPECT_EQ(a->replicate, 2);
    // (40, 20): warp row 1 -> warp 2 (replica: warp 3); atom mi 0, kk 1; in-atom (8, 4):
    // lane 4*0 + 2 = 2, a2 -> local (1*2 + 0)*8 + 2 = 18.
    EXPECT_EQ(loc(a, 40, 20), P(66, 18));
    EXPECT_EQ(inv(a, 98, 18), (std::vector<int64_t>{40, 20}));
    expectBijective(a, 32);
    // B 32x64 over 2x2 warps: warp cols of 32 = 4 n-atoms, 2 k-steps: 32 halves/thread.
    auto b = makeMmaOperandB(32, 64, {2, 2});
    EXPECT_EQ(b->localSize, 32);
    EXPECT_EQ(b->replicate, 2);
    // (25, 45): warp col 1 -> warp 1 (replica warp 3); ni (45%32)/8 = 1, kk 1; in-atom (9, 5):
    // lane 4*5 + 0 = 20, b3 -> local (1*4 + 1)*4 + 3 = 23.
    EXPECT_EQ(loc(b, 25, 45), P(32 + 20, 23));
    EXPECT_EQ(inv(b, 96 + 20, 23), (std::vector<int64_t>{25, 45}));
    expectBijective(b, 32);
}

TEST(LayoutHw, WgmmaAccumulatorFromFigure) {
    auto l = makeWgmmaAccumulator(64, 16, {1, 1, 16});
    EXPECT_EQ(l->threads, 128);
    EXPECT_EQ(l->localSize, 8);
    // Thread 0: d0..d3 at (0,0),(0,1),(8,0),(8,1); d4..d7 eight columns right.
    EXPECT_EQ(loc(l, 0, 0), P(0, 0));
    EXPECT_EQ(loc(l, 0, 1), P(0, 1));
    EXPECT_EQ(loc(l, 8, 0), P(0, 2));
    EXPECT_EQ(loc(l, 8, 1), P(0, 3));
    EXPECT_EQ(loc(l, 0, 8), P(0, 4));
    EXPECT_EQ(loc(l, 8, 9), P(0, 7));
    // Thread 37 = warp 1 lane 5 (g 1, tig 1): d0 at (17, 2), d7 at (25, 11).
    EXPECT_EQ(loc(l, 17, 2), P(37, 0));
    EXPECT_EQ(loc(l, 25, 11), P(37, 7));
    // Thread 127 = warp 3 lane 31: d0 (55, 6), d3 (63, 7), d7 (63, 15).
    EXPECT_EQ(loc(l, 55, 6), P(127, 0));
    EXPECT_EQ(loc(l, 63, 7), P(127, 3));
    EXPECT_EQ(loc(l, 63, 15), P(127, 7));
    for (int i = 0; i < 64; ++i)
        for (int j = 0; j < 16; ++j)
            EXPECT_EQ(loc(l, i, j).first / 32, i / 16) << "warp w owns rows 16w..";
}

TEST(LayoutHw, WgmmaAccumulatorEveryN) {
    for (int64_t n = 8; n <= 256; n += 8) {
        SCOPED_TRACE("n = " + std::to_string(n));
        auto l = makeWgmmaAccumulator(64, n, {1, 1, n});
        EXPECT_EQ(l->localSize, n / 2);
        EXPECT_EQ(loc(l, 0, 0), P(0, 0));
        EXPECT_EQ(loc(l, 8, 1), P(0, 3));
        // The last column: thread tig 3 of each group, register N/2 - 1 (odd, row g) / -3 (row g).
        EXPECT_EQ(loc(l, 0, n - 1), P(3, n / 2 - 3));
        EXPECT_EQ(loc(l, 8, n - 1), P(3, n / 2 - 1));
        expectBijective(l, 128);
    }
    // N = 256: (0, 255) is d125 of thread 3 (8*31 + 2*3 + 1 = 255, i = 4*31 + 1).
    EXPECT_EQ(loc(makeWgmmaAccumulator(64, 256, {1, 1, 256}), 0, 255), P(3, 125));
}

TEST(LayoutHw, WgmmaAccumulatorWarpgroupTiling) {
    // 128x256 over 2x1 warpgroups with m64n128 atoms: 2 atoms along N, 128 regs/thread.
    auto l = makeWgmmaAccumulator(128, 256, {2, 1, 128});
    EXPECT_EQ(l->threads, 256);
    EXPECT_EQ(l->localSize, 128);
    // (70, 130): warpgroup 1, warp 0, lane 4*6 + 1 = 25; atom ni 1 -> local 64 + d0.
    EXPECT_EQ(loc(l, 70, 130), P(153, 64));
    expectBijective(l, 128);
    auto g = makeWgmmaAccumulator(128, 128, {2, 2, 0});  // 4 warpgroups of 64x64 (n = 64)
    EXPECT_EQ(g->familyParams, (std::vector<int64_t>{128, 128, 2, 2, 64}));
    EXPECT_EQ(loc(g, 64, 64).first, 3 * 128);
    expectBijective(g, 128);
    EXPECT_FALSE(wgmmaLayoutError(64, 264, {1, 1, 264}).empty());
    EXPECT_FALSE(wgmmaLayoutError(96, 64, {1, 1, 64}).empty());
    EXPECT_FALSE(wgmmaLayoutError(64, 20, {1, 1, 20}).empty());
    EXPECT_TRUE(wgmmaLayoutError(64, 24, {1, 1, 24}).empty());
}

TEST(LayoutHw, MfmaAtomsFromCalculator) {
    auto a = makeMfma16Layout('A', 16, 16, {1, 1});
    EXPECT_EQ(a->threads, 64);
    EXPECT_EQ(a->localSize, 4);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(loc(a, 0, k), P(0, k));  // v0{0}.lo/hi, v1{0}.lo/hi
    EXPECT_EQ(loc(a, 0, 4), P(16, 0));
    EXPECT_EQ(loc(a, 0, 7), P(16, 3));
    EXPECT_EQ(loc(a, 5, 13), P(53, 1));
    EXPECT_EQ(loc(a, 15, 15), P(63, 3));
    expectBijective(a, 64);
    auto b = makeMfma16Layout('B', 16, 16, {1, 1});
    EXPECT_EQ(loc(b, 0, 0), P(0, 0));
    EXPECT_EQ(loc(b, 3, 0), P(0, 3));
    EXPECT_EQ(loc(b, 4, 0), P(16, 0));
    EXPECT_EQ(loc(b, 13, 5), P(53, 1));
    EXPECT_EQ(loc(b, 2, 15), P(15, 2));
    expectBijective(b, 64);
    auto c = makeMfma16Layout('C', 16, 16, {1, 1});
    EXPECT_EQ(loc(c, 0, 0), P(0, 0));
    EXPECT_EQ(loc(c, 3, 0), P(0, 3));
    EXPECT_EQ(loc(c, 4, 0), P(16, 0));
    EXPECT_EQ(loc(c, 0, 15), P(15, 0));
    EXPECT_EQ(loc(c, 13, 5), P(53, 1));
    EXPECT_EQ(loc(c, 15, 15), P(63, 3));
    expectBijective(c, 64);
}

TEST(LayoutHw, MfmaWaveTiling) {
    // C 64x32 over 2x2 waves: 32x16 per wave = 2 atoms.
    auto c = makeMfma16Layout('C', 64, 32, {2, 2});
    EXPECT_EQ(c->threads, 256);
    EXPECT_EQ(c->localSize, 8);
    EXPECT_EQ(loc(c, 40, 20), P(3 * 64 + 36, 0));  // in-atom (8, 4): lane 4 + 16*2
    EXPECT_EQ(loc(c, 63, 31), P(255, 7));
    expectBijective(c, 64);
    auto a = makeMfma16Layout('A', 64, 32, {2, 2});
    EXPECT_EQ(a->replicate, 2);
    EXPECT_EQ(loc(a, 40, 20), P(2 * 64 + 8 + 16, 4 * 2 + 0));  // atom (kk 1, mi 0) = 2; lane 8+16*1
    expectBijective(a, 64);
    auto b = makeMfma16Layout('B', 32, 64, {2, 2});
    EXPECT_EQ(b->replicate, 2);
    EXPECT_EQ(loc(b, 20, 40), P(64 + 8 + 16, 4 * 2 + 0));  // wave col 1; atom (kk 1, ni 0) = 2
    expectBijective(b, 64);
}

TEST(LayoutHw, MfmaAccumulatorRowsAreTheRowsOfTheirLaneGroups) {
    // C 64x32 over 2x1 waves (rw = 32 rows per wave, 2 atoms across): row 37 is wave row 1,
    // atom row (37 % 32) / 16 = 0, item 37 % 4 = 1, in lanes 16*((37 % 16) / 4) = 16..31.
    auto rows = makeMfma16AccumulatorRows(64, {2, 1});
    EXPECT_EQ(rows->family, "mfma_c_rows");
    EXPECT_EQ(rows->threads, 128);
    EXPECT_EQ(rows->localSize, 8);  // (32 / 16) atom rows x 4 items
    EXPECT_EQ(rows->replicate, 16);
    auto first = analysis::fragmentLocate(*rows, {37});
    ASSERT_TRUE(first);
    EXPECT_EQ(*first, P(64 + 16, 1));
    auto acc = makeMfma16Layout('C', 64, 32, {2, 1});
    EXPECT_TRUE(analysis::sameMapping(*rowCompanion(*acc), *rows));
    // Every (thread, slot) of the row layout names a row that thread holds in the accumulator, in
    // the same item (local % 4) of each atom column; each row has exactly 16 holders.
    std::map<int64_t, int> holders;
    for (int64_t t = 0; t < rows->threads; ++t)
        for (int64_t r = 0; r < rows->localSize; ++r) {
            auto row = analysis::fragmentInverse(*rows, t, r);
            ASSERT_TRUE(row);
            const int64_t i = (*row)[0];
            ++holders[i];
            bool holdsRow = false;
            for (int64_t j = 0; j < 32; ++j) {
                auto [ct, cr] = loc(acc, i, j);
                if (ct != t) continue;
                holdsRow = true;
                EXPECT_EQ(cr % 4, r % 4) << i << "," << j;
            }
            EXPECT_TRUE(holdsRow) << "thread " << t << " slot " << r << " -> row " << i;
        }
    EXPECT_EQ(holders.size(), 64u);
    for (auto& [i, n] : holders) EXPECT_EQ(n, 16) << "row " << i;
    // Two wave columns: 32 holders per row, and the 2-D layout rebuilt from the rows is the
    // accumulator when the columns tile the waves (16 * wn), none otherwise.
    auto rows2 = makeMfma16AccumulatorRows(64, {2, 2});
    EXPECT_EQ(rows2->replicate, 32);
    EXPECT_TRUE(analysis::sameMapping(*layoutWithRowCompanion(*rows2, 64, 64), *makeMfma16Layout('C', 64, 64, {2, 2})));
    EXPECT_FALSE(layoutWithRowCompanion(*rows2, 64, 40));
}

TEST(LayoutHw, BuiltinCatalogue) {
    std::string why;
    for (auto& info : builtinLayouts()) {
        auto l = makeBuiltinLayout(info.name, {}, {}, &why);
        ASSERT_TRUE(l) << info.name << ": " << why;
        expectBijective(l, info.name.rfind("mfma", 0) == 0 ? 64
                           : info.name == "wgmma_c"        ? 128
                                                           : 32);
    }
    auto w = makeBuiltinLayout("wgmma_c:24", {}, {}, &why);
    ASSERT_TRUE(w) << why;
    EXPECT_EQ(w->shape, (std::vector<int64_t>{64, 24}));
    auto blk = makeBuiltinLayout("mma_a", {64, 32}, {2, 2}, &why);
    ASSERT_TRUE(blk) << why;
    EXPECT_EQ(blk->familyParams, (std::vector<int64_t>{64, 32, 2, 2}));
    EXPECT_FALSE(makeBuiltinLayout("wgmma_c:20", {}, {}, &why));
    EXPECT_NE(why.find("8, 16, ..., 256"), std::string::npos) << why;
    EXPECT_FALSE(makeBuiltinLayout("mma_x", {}, {}, &why));
    EXPECT_NE(why.find("unknown builtin layout"), std::string::npos);
    EXPECT_FALSE(makeBuiltinLayout("mma_c", {24, 8}, {1, 1}, &why));
    EXPECT_FALSE(makeBuiltinLayout("mma_a:3", {}, {}, &why));
}

// The view model and SVG the CLI and IDE draw for a builtin show thread/local per cell.
TEST(LayoutHw, BuiltinViewModelAndSvg) {
    std::string why;
    auto l = makeBuiltinLayout("wgmma_c:16", {}, {}, &why);
    ASSERT_TRUE(l) << why;
    auto m = viz::LayoutGridModel::fromLayout(l, 4, 0, 0, "wgmma_c:16");
    EXPECT_EQ(m.rows(), 64);
    EXPECT_EQ(m.cols(), 16);
    EXPECT_EQ(m.cell(8, 1).thread, 0);
    EXPECT_EQ(m.cell(8, 1).local, 3);
    EXPECT_EQ(m.cell(25, 11).thread, 37);
    EXPECT_EQ(m.cellsOfThread(0).size(), 8u);
    EXPECT_EQ(m.describe(17, 2), "(17, 2): thread 37 (warp 1, lane 5), local 0");
    // MFMA layouts are drawn with 64-lane waves: lane 53 of wave 0, not warp 1.
    auto mf = viz::LayoutGridModel::fromLayout(makeBuiltinLayout("mfma_c", {32, 16}, {2, 1}, &why), 4);
    EXPECT_EQ(mf.lanesPerWarp(), 64);
    EXPECT_EQ(mf.describe(13, 5), "(13, 5): thread 53 (wave 0, lane 53), local 1");
    EXPECT_EQ(mf.cellsOfWarp(1).size(), 256u);
    EXPECT_EQ(m.lanesPerWarp(), 32);
    std::string svg = viz::layoutToSvg(m);
    EXPECT_NE(svg.find(">T37</text>"), std::string::npos);
    EXPECT_NE(svg.find(">r7</text>"), std::string::npos);
}

// tests/hw/fragments_h200.txt: per thread, the (row, col) each register holds, measured on an
// H200 by tests/hw/FragmentProbe.cu ("OP N t: r,c r,c ...").
TEST(LayoutHw, MatchesH200Probe) {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) / "tests" / "hw" / "fragments_h200.txt");
    ASSERT_TRUE(in) << "tests/hw/fragments_h200.txt missing";
    std::map<std::string, ir::Layout> layouts;
    std::map<std::string, int64_t> checked;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string op, tcol;
        int64_t n = 0, t = 0;
        ls >> op >> n >> tcol;
        t = std::stoll(tcol);  // "37:"
        std::string key = op + std::to_string(n);
        auto& l = layouts[key];
        if (!l) {
            if (op == "mma_a")
                l = makeMmaOperandA(16, 16, {1, 1});
            else if (op == "mma_b")
                l = makeMmaOperandB(16, 8, {1, 1});
            else if (op == "wgmma")
                l = makeWgmmaAccumulator(64, n, {1, 1, n});
            ASSERT_TRUE(l) << line;
        }
        std::string rc;
        int64_t reg = 0;
        for (; ls >> rc; ++reg) {
            auto comma = rc.find(',');
            ASSERT_NE(comma, std::string::npos) << line;
            std::vector<int64_t> want{std::stoll(rc.substr(0, comma)),
                                      std::stoll(rc.substr(comma + 1))};
            ASSERT_EQ(inv(l, t, reg), want) << key << " thread " << t << " register " << reg;
            ASSERT_EQ(loc(l, want[0], want[1]), P(t, reg)) << key;
        }
        ASSERT_EQ(reg, l->localSize) << line;
        ++checked[key];
    }
    EXPECT_EQ(checked["mma_a16"], 32);
    EXPECT_EQ(checked["mma_b8"], 32);
    EXPECT_EQ(checked["wgmma8"], 128);
    EXPECT_EQ(checked["wgmma24"], 128);
    EXPECT_EQ(checked["wgmma256"], 128);
}
