// Layout constructors of compiler/analysis (Layouts.h, Ldmatrix.h, Swizzle.h) against maps
// derived by hand from the PTX ISA figures, not from the code under test:
//  - mma.sync m16n8k16 C/D fragment (PTX ISA §9.7.14.5.8): row g = lane/4 (+8 for c2,c3),
//    col 2*(lane%4) + (c%2), so thread = 4*(row%8) + col/2 in every 8x8 atom;
//  - ldmatrix (§9.7.14.5.15): lane t addresses row t%8 of matrix t/8; destination like mma A;
//  - the 128-byte XOR swizzle of a 64x64 fp16 tile (128-byte rows: chunk' = chunk ^ row%8);
//  - block fragments with padded tails (width not a multiple of threads*vec).
#include <set>

#include <gtest/gtest.h>

#include "compiler/analysis/Banks.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Ldmatrix.h"
#include "compiler/analysis/Swizzle.h"

using namespace ts;
using namespace ts::analysis;

namespace {
std::pair<int64_t, int64_t> loc(const ir::Layout& l, std::vector<int64_t> idx) {
    auto r = fragmentLocate(*l, idx);
    EXPECT_TRUE(r.has_value());
    return r.value_or(std::make_pair(int64_t(-1), int64_t(-1)));
}
using P = std::pair<int64_t, int64_t>;
}  // namespace

TEST(Layout, MmaAccumulatorSingleAtomHandDerived) {
    auto l = makeMmaAccumulator(16, 8, {1, 1});
    EXPECT_EQ(l->threads, 32);
    EXPECT_EQ(l->localSize, 4);
    // (row, col) -> (lane, c-register): c0,c1 at row g, c2,c3 at row g+8; col 2*(lane%4)+{0,1}.
    EXPECT_EQ(loc(l, {0, 0}), P(0, 0));
    EXPECT_EQ(loc(l, {0, 1}), P(0, 1));
    EXPECT_EQ(loc(l, {0, 7}), P(3, 1));
    EXPECT_EQ(loc(l, {1, 0}), P(4, 0));
    EXPECT_EQ(loc(l, {7, 6}), P(31, 0));
    EXPECT_EQ(loc(l, {8, 0}), P(0, 2));
    EXPECT_EQ(loc(l, {9, 5}), P(6, 3));
    EXPECT_EQ(loc(l, {15, 7}), P(31, 3));
    // The rule of the issue, element by element, and the inverse round trip.
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) {
            auto [t, r] = loc(l, {i, j});
            EXPECT_EQ(t, 4 * (i % 8) + j / 2);
            EXPECT_EQ(r, (j % 2) + 2 * (i / 8));
            EXPECT_EQ(fragmentInverse(*l, t, r), (std::vector<int64_t>{i, j}));
        }
}

TEST(Layout, MmaAccumulatorWarpGrid) {
    // 128x128 with a 2x2 warp grid: warp tiles 64x64, 4 m-atoms x 8 n-atoms, 128 regs.
    auto l = makeMmaAccumulator(128, 128, {2, 2});
    EXPECT_EQ(l->threads, 128);
    EXPECT_EQ(l->localSize, 128);
    // (70, 100): warp (1, 1) = 3; lane 4*(70%8) + (100%8)/2 = 26; atom (mi 0, ni 4) -> reg 16.
    EXPECT_EQ(loc(l, {70, 100}), P(3 * 32 + 26, 16));
    // (127, 127): warp 3, lane 31, atom (3, 7) -> (3*8+7)*4 + 2 + 1 = 127.
    EXPECT_EQ(loc(l, {127, 127}), P(127, 127));
    std::set<P> seen;
    for (int i = 0; i < 128; ++i)
        for (int j = 0; j < 128; ++j) {
            auto p = loc(l, {i, j});
            EXPECT_EQ(p.first % 32, 4 * (i % 8) + (j % 8) / 2);
            EXPECT_TRUE(seen.insert(p).second) << "two elements in one register";
        }
    EXPECT_EQ(seen.size(), 128u * 128u);
}

TEST(Layout, LdmatrixX4SourceRows) {
    // x4: lanes 0-7 -> matrix 0 rows 0-7, 8-15 -> matrix 1, 16-23 -> 2, 24-31 -> 3.
    EXPECT_EQ(ldmatrixSourceRow(0, 4).matrix, 0);
    EXPECT_EQ(ldmatrixSourceRow(7, 4).row, 7);
    EXPECT_EQ(ldmatrixSourceRow(13, 4).matrix, 1);
    EXPECT_EQ(ldmatrixSourceRow(13, 4).row, 5);
    EXPECT_EQ(ldmatrixSourceRow(31, 4).matrix, 3);
    EXPECT_EQ(ldmatrixSourceRow(31, 4).row, 7);
    // x2 ignores lanes 16-31, x1 lanes 8-31.
    EXPECT_EQ(ldmatrixSourceRow(16, 2).matrix, -1);
    EXPECT_EQ(ldmatrixSourceRow(8, 1).matrix, -1);
    auto src = makeLdmatrixSource(4);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(loc(src, {i}), P(i, 0));
}

TEST(Layout, LdmatrixDestinationFragment) {
    auto l = makeLdmatrixFragment(4, false);
    EXPECT_EQ(l->localSize, 8);
    // Matrix 2 (rows 16-23), row 3, col 5: lane 4*3 + 2 = 14, register 2, half 1 -> local 5.
    EXPECT_EQ(loc(l, {19, 5}), P(14, 5));
    auto t = makeLdmatrixFragment(4, true);
    // .trans: lane holds column lane/4 and rows 2*(lane%4)+{0,1}: (row 5, col 6) of matrix 1
    // -> lane 4*6 + 5/2 = 26, register 1, half 1 -> local 3.
    EXPECT_EQ(loc(t, {13, 6}), P(26, 3));
    for (auto& f : {l, t})
        for (int i = 0; i < 32; ++i)
            for (int j = 0; j < 8; ++j) {
                auto [th, r] = loc(f, {i, j});
                EXPECT_EQ(fragmentInverse(*f, th, r), (std::vector<int64_t>{i, j}));
            }
}

TEST(Layout, Swizzle128Of64x64Fp16Tile) {
    // Rows are 128 B (64 halves = 8 chunks of 16 B); chunk' = chunk ^ (row % 8).
    auto l = makeSharedLayout({64, 64}, 2, 128);
    auto phys = [&](int64_t r, int64_t c) { return sharedElementOffset(*l, {r, c}, 2); };
    EXPECT_EQ(phys(0, 0), 0);
    EXPECT_EQ(phys(0, 9), 9);               // row 0: identity
    EXPECT_EQ(phys(1, 0), 64 + 8);          // chunk 0 ^ 1 = 1
    EXPECT_EQ(phys(3, 17), 192 + 8 + 1);    // chunk 2 ^ 3 = 1
    EXPECT_EQ(phys(10, 63), 640 + 40 + 7);  // chunk 7 ^ 2 = 5
    EXPECT_EQ(phys(15, 8), 960 + 48);       // chunk 1 ^ 7 = 6
    // Hand table: physical chunk of logical chunk 0 in rows 0..7 is 0..7, and repeats every 8.
    for (int r = 0; r < 64; ++r) EXPECT_EQ(phys(r, 0) % 64 / 8, r % 8) << "row " << r;
    // Each 16-byte column of 8 consecutive rows covers all 8 chunk positions (all 32 banks).
    for (int c = 0; c < 64; c += 8)
        for (int r0 = 0; r0 < 64; r0 += 8) {
            std::set<int64_t> chunks;
            for (int r = r0; r < r0 + 8; ++r) chunks.insert(phys(r, c) % 64 / 8);
            EXPECT_EQ(chunks.size(), 8u);
        }
    // Bijective on the tile and 16-byte chunks stay contiguous.
    std::set<int64_t> all;
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 64; ++c) {
            all.insert(phys(r, c));
            EXPECT_EQ(phys(r, c) % 8, c % 8);
        }
    EXPECT_EQ(all.size(), 64u * 64u);
    EXPECT_EQ(*all.rbegin(), 64 * 64 - 1);
    // Same as the byte form used by the device header.
    EXPECT_EQ(swizzleBytes(3 * 128 + 17 * 2, 128, 128), (192 + 9) * 2);
}

TEST(Layout, PaddedSharedRows) {
    auto l = makeSharedLayout({32, 32}, 4, 0, 1);  // 32x33 fp32
    EXPECT_EQ(sharedElementOffset(*l, {0, 0}, 4), 0);
    EXPECT_EQ(sharedElementOffset(*l, {1, 0}, 4), 33);
    EXPECT_EQ(sharedElementOffset(*l, {31, 31}, 4), 31 * 33 + 31);
}

TEST(Layout, BlockFragmentPaddedTail1D) {
    // (192,) fp32 over 128 threads with vec 4, 48 chunks -> gc 32, gr 4, cpt ceil(192/128) = 2
    // (the layout formula with padding; chooseBlockFragment itself prefers vec 1 here, see
    // BlockFragmentChoiceKeepsThreadsBusy).
    BlockFragmentParams p;
    p.rows = 1, p.cols = 192, p.threads = 128, p.vec = 4, p.gc = 32, p.gr = 4;
    EXPECT_EQ(p.colChunksPerThread(), 2);
    auto l = makeBlockFragment(p, true);
    EXPECT_EQ(l->localSize, 8);
    EXPECT_EQ(loc(l, {0}), P(0, 0));
    EXPECT_EQ(loc(l, {5}), P(1, 1));
    EXPECT_EQ(loc(l, {130}), P(0, 6));   // chunk 32 -> thread 0, second chunk, lane 2
    EXPECT_EQ(loc(l, {191}), P(15, 7));  // chunk 47 -> thread 15
    // Thread 16's second chunk would be column 192: padding (>= shape, guarded by users).
    EXPECT_EQ(fragmentInverse(*l, 16, 4), (std::vector<int64_t>{192}));
    // Row group 1 holds only padding: column pushed past the padded width 256.
    EXPECT_EQ(fragmentInverse(*l, 40, 0), (std::vector<int64_t>{288}));
    // Every real column exactly once.
    std::set<int64_t> cols;
    for (int t = 0; t < 128; ++t)
        for (int r = 0; r < 8; ++r) {
            auto j = fragmentInverse(*l, t, r)->at(0);
            if (j < 192) {
                EXPECT_TRUE(cols.insert(j).second);
            }
        }
    EXPECT_EQ(cols.size(), 192u);
}

TEST(Layout, BlockFragmentPaddedRows2D) {
    // (10, 8) fp16 over 64 threads with vec 8, 1 chunk/row -> gc 1, gr 64, 1 row per thread;
    // threads 10..63 hold padding rows.
    BlockFragmentParams p;
    p.rows = 10, p.cols = 8, p.threads = 64, p.vec = 8, p.gc = 1, p.gr = 64;
    auto l = makeBlockFragment(p);
    EXPECT_EQ(loc(l, {9, 7}), P(9, 7));
    EXPECT_EQ(fragmentInverse(*l, 12, 3), (std::vector<int64_t>{12, 3}));  // row 12 >= 10: padding
    EXPECT_NE(l->description.find("padded"), std::string::npos);
}

// The choice of chooseBlockFragment, hand-derived from its cost order (threads holding data, then
// vector width, then gc):
//  - (1, 8192) fp32, 256 threads: 4-wide vectors give 2048 chunks >= 256 -> vec 4, gc 256.
//  - (1, 1000) fp32, 256 threads: vec 4 -> 250 chunks, gc <= 250 -> 128 busy; vec 2 -> 500
//    chunks, gc 256 -> all busy -> vec 2, gc 256.
//  - (1, 192) fp32, 128 threads: vec 4 -> 32 busy, vec 2 -> 64, vec 1 -> 128 -> vec 1, gc 128.
//  - (10, 8) fp16, 64 threads: vec 8 -> 10 busy (gc 1), 4 -> 20, 2 -> 40, 1 -> gc 8, gr 8, 64.
//  - (32, 128) fp32, 256 threads (samples/add.py tiles): vec 4, 32 chunks -> gc 32, gr 8, all busy.
TEST(Layout, BlockFragmentChoiceKeepsThreadsBusy) {
    auto v = [](int64_t r, int64_t c, int64_t t, int e) {
        auto p = chooseBlockFragment(r, c, t, e);
        return std::vector<int64_t>{p.vec, p.gc, p.gr};
    };
    EXPECT_EQ(v(1, 8192, 256, 4), (std::vector<int64_t>{4, 256, 1}));
    EXPECT_EQ(v(1, 1000, 256, 4), (std::vector<int64_t>{2, 256, 1}));
    EXPECT_EQ(v(1, 192, 128, 4), (std::vector<int64_t>{1, 128, 1}));
    EXPECT_EQ(v(10, 8, 64, 2), (std::vector<int64_t>{1, 8, 8}));
    EXPECT_EQ(v(32, 128, 256, 4), (std::vector<int64_t>{4, 32, 8}));
}
