// Reductions of an mma.sync accumulator (the online-softmax step of FlashAttention): the row
// layout they produce and the lowered code, against expectations derived by hand from the
// m16n8k16 C fragment (PTX ISA §9.7.14.5.8: element (i, j) of an atom is in lane
// 4*(i%8) + (j%8)/2, register 2*((i%16)/8) + j%2).
//
// Worked example, a 64 x 64 accumulator on a 2 x 2 warp grid (warp tile 32 x 32, mw = 32):
//  - row 37 is in warp-grid row 37/32 = 1, i.e. warps 2 and 3; inside the warp tile it is row 5:
//    atom row mi = 0, half h = 0, quad g = 5 -> lanes 20..23. Holders: threads 84..87 and
//    116..119 (8 = 4 lanes x 2 warp columns), row register 2*mi + h = 0.
//  - row 58: warp tile row 26 -> mi = 1, h = 1, g = 2 -> lanes 8..11 of warps 2 and 3 =
//    threads 72..75, 104..107, row register 3.
//  - each thread holds 2 atom rows x 2 halves = 4 row registers; a row's 64 values sit 16 per
//    warp column: 2 per thread per n8 atom (registers 2h, 2h+1 of atoms (mi, ni), ni < 4), so the
//    per-thread partial covers 8 registers, the quad butterfly (xor 2, xor 1 = warp_allreduce
//    width 4) covers a warp column, and a 64*2-float shared exchange joins the 2 warp columns.
#include <set>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {
using namespace ts::analysis;

std::set<std::pair<int64_t, int64_t>> holders(const ts::ir::LayoutNode& l, int64_t row) {
    std::set<std::pair<int64_t, int64_t>> out;
    for (int64_t t = 0; t < l.threads; ++t)
        for (int64_t r = 0; r < l.localSize; ++r)
            if (auto idx = fragmentInverse(l, t, r); idx && (*idx)[0] == row) out.insert({t, r});
    return out;
}

TEST(ReduceAccumulator, RowLayoutOfA2x2WarpGridIsHandDerived) {
    auto rows = makeMmaAccumulatorRows(64, {2, 2});
    EXPECT_EQ(rows->threads, 128);
    EXPECT_EQ(rows->localSize, 4);
    EXPECT_EQ(rows->replicate, 8);
    std::set<std::pair<int64_t, int64_t>> want37, want58;
    for (int64_t t : {84, 85, 86, 87, 116, 117, 118, 119}) want37.insert({t, 0});
    for (int64_t t : {72, 73, 74, 75, 104, 105, 106, 107}) want58.insert({t, 3});
    EXPECT_EQ(holders(*rows, 37), want37);
    EXPECT_EQ(holders(*rows, 58), want58);
    // The forward map names the first holder (warp column 0, lane 0 of the quad).
    EXPECT_EQ(fragmentLocate(*rows, {37}), std::make_pair(int64_t(84), int64_t(0)));
    EXPECT_EQ(fragmentLocate(*rows, {58}), std::make_pair(int64_t(72), int64_t(3)));
}

TEST(ReduceAccumulator, EveryAccumulatorElementsThreadHoldsItsRow) {
    // What T.Parallel(i, j) over the accumulator relies on when it reads row[i].
    for (WarpPartition wp : {WarpPartition{4, 1}, WarpPartition{2, 2}, WarpPartition{1, 4}, WarpPartition{8, 1}}) {
        auto acc = makeMmaAccumulator(128, 64, wp);
        auto rows = rowCompanion(*acc);
        ASSERT_TRUE(rows);
        EXPECT_EQ(rows->family, "mma_c_rows");
        EXPECT_TRUE(sameMapping(*rows, *makeMmaAccumulatorRows(128, wp)));
        for (int64_t t = 0; t < acc->threads; ++t)
            for (int64_t r = 0; r < acc->localSize; ++r) {
                auto ij = fragmentInverse(*acc, t, r);
                ASSERT_TRUE(ij);
                bool held = false;
                for (int64_t rr = 0; rr < rows->localSize && !held; ++rr)
                    held = fragmentInverse(*rows, t, rr)->at(0) == (*ij)[0];
                EXPECT_TRUE(held) << "warps " << wp.wm << "x" << wp.wn << " thread " << t << " reg " << r;
            }
        // And the layout of the accumulator is recovered from its rows for any width that tiles.
        auto back = layoutWithRowCompanion(*rows, 128, 64);
        ASSERT_TRUE(back);
        EXPECT_TRUE(sameMapping(*back, *acc));
        // Other widths (5 columns) spread over the row's holders, each element exactly once.
        auto spread = layoutWithRowCompanion(*rows, 128, 5);
        ASSERT_TRUE(spread);
        EXPECT_EQ(spread->family, "mma_c_rows_spread");
        EXPECT_TRUE(sameMapping(*rowCompanion(*spread), *rows));
        std::set<std::pair<int64_t, int64_t>> seen;
        for (int64_t t = 0; t < spread->threads; ++t)
            for (int64_t r = 0; r < spread->localSize; ++r) {
                auto ij = fragmentInverse(*spread, t, r);
                ASSERT_TRUE(ij);
                if ((*ij)[1] >= 5) continue;  // padded slot
                EXPECT_TRUE(seen.insert({(*ij)[0], (*ij)[1]}).second);
                EXPECT_EQ(fragmentLocate(*spread, *ij), std::make_pair(t, r));
                bool held = false;
                for (int64_t rr = 0; rr < rows->localSize && !held; ++rr)
                    held = fragmentInverse(*rows, t, rr)->at(0) == (*ij)[0];
                EXPECT_TRUE(held) << "spread: thread " << t << " reg " << r;
            }
        EXPECT_EQ(seen.size(), 128u * 5);
    }
}

TEST(ReduceAccumulator, LoweredToQuadShufflesAndOneSharedExchange) {
    const std::string path = "tests/e2e/programs/gemm_row_stats.py";
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    auto r = ts::compile(path, ts::e2e::readRepoFile(path), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    std::string infer, lowered;
    for (auto& p : r.passes) {
        if (p.name == "infer-layouts") infer = p.ir;
        if (p.name == "lower-tile-ops") lowered = p.ir;
    }
    EXPECT_NE(infer.find("# layout c: mma.sync m16n8k16 accumulator, warps 2x2, warp tile 32x32, 32 regs/thread"), std::string::npos)
        << infer;
    EXPECT_NE(infer.find("# layout mx: row values of an mma.sync accumulator, warps 2x2, replicated over 8 threads"),
              std::string::npos)
        << infer;
    // Two reductions, each: one width-4 butterfly, a 128-float exchange, two barriers.
    auto count = [&](const std::string& text, const std::string& needle) {
        size_t n = 0;
        for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
        return n;
    };
    EXPECT_EQ(count(r.cuda, "ts::warp_allreduce<ts::MaxOp, 4>"), 1u) << r.cuda;
    EXPECT_EQ(count(r.cuda, "ts::warp_allreduce<ts::SumOp, 4>"), 1u) << r.cuda;
    EXPECT_EQ(count(lowered, "T.alloc_shared((128,), \"float32\")"), 2u) << lowered;
}

}  // namespace
