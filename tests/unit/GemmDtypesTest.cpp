// The hardware facts behind T.gemm's dtypes, against values written out by hand from the PTX ISA
// figures (not from the formulas under test):
//  - mma.m16n8k32 8-bit operands (§9.7.14.5.10, .s8/.u8/.e4m3/.e5m2): groupID g = lane/4,
//    tig t = lane%4; A a_i at row g for i in 0..3 and 8..11, g+8 otherwise, col 4t + i%4
//    (+16 for i >= 8); B b_i at row 4t + i%4 (+16 for i >= 4), col g;
//  - mma.m16n8k8 .tf32 (§9.7.14.5.7): A a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4);
//    B b0 (t, g), b1 (t+4, g);
//  - the atom table of selectMmaAtom, tf32 rounding (cvt.rna: ties away from zero) and the
//    per-instruction accumulator rounding of MmaModel.h.
#include <cmath>
#include <map>

#include <gtest/gtest.h>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/interp/MmaModel.h"
#include "tests/unit/FragmentTestUtil.h"

using namespace ts;
using namespace ts::analysis;
using namespace ts::test;

namespace {
/// Table rows written from the figure: element (row, col) is (lane, register-element index).
struct Slot {
    int64_t row, col, lane, local;
};
void expectSlots(const ir::Layout& l, std::initializer_list<Slot> slots) {
    for (const Slot& s : slots) {
        EXPECT_EQ(loc(l, s.row, s.col), P(s.lane, s.local)) << s.row << "," << s.col;
        EXPECT_EQ(inv(l, s.lane, s.local), (std::vector<int64_t>{s.row, s.col}));
    }
}
}  // namespace

TEST(GemmDtypes, Int8OperandAtomsFromFigure) {
    auto a = makeMmaOperandA(16, 32, {1, 1}, 1);
    EXPECT_EQ(a->localSize, 16);
    // Lane 0: a0..a3 (0, 0..3), a4..a7 (8, 0..3), a8..a11 (0, 16..19), a12..a15 (8, 16..19).
    // Lane 5 (g 1, t 1): a0 at (1, 4), a15 at (9, 23). Lane 31 (g 7, t 3): a12 at (15, 28).
    expectSlots(a, {{0, 0, 0, 0}, {0, 3, 0, 3}, {8, 0, 0, 4}, {8, 3, 0, 7}, {0, 16, 0, 8},
                    {8, 19, 0, 15}, {1, 4, 5, 0}, {9, 23, 5, 15}, {15, 28, 31, 12},
                    {15, 31, 31, 15}});
    expectBijective(a, 32);
    auto b = makeMmaOperandB(32, 8, {1, 1}, 1);
    EXPECT_EQ(b->localSize, 8);
    // Lane 0: b0..b3 (0..3, 0), b4..b7 (16..19, 0). Lane 6 (g 1, t 2): b0 (8, 1), b7 (27, 1).
    expectSlots(b, {{0, 0, 0, 0}, {3, 0, 0, 3}, {16, 0, 0, 4}, {19, 0, 0, 7}, {8, 1, 6, 0},
                    {27, 1, 6, 7}});
    expectBijective(b, 32);
}

TEST(GemmDtypes, Tf32OperandAtomsFromFigure) {
    auto a = makeMmaOperandA(16, 8, {1, 1}, 4);
    EXPECT_EQ(a->localSize, 4);
    // Lane 0: a0 (0,0), a1 (8,0), a2 (0,4), a3 (8,4); lane 5 (g 1, t 1): a0 (1,1), a3 (9,5).
    expectSlots(a, {{0, 0, 0, 0}, {8, 0, 0, 1}, {0, 4, 0, 2}, {8, 4, 0, 3}, {1, 1, 5, 0},
                    {9, 5, 5, 3}});
    expectBijective(a, 32);
    auto b = makeMmaOperandB(8, 8, {1, 1}, 4);
    EXPECT_EQ(b->localSize, 2);
    // Lane 0: b0 (0,0), b1 (4,0); lane 6 (g 1, t 2): b0 (2,1), b1 (6,1).
    expectSlots(b, {{0, 0, 0, 0}, {4, 0, 0, 1}, {2, 1, 6, 0}, {6, 1, 6, 1}});
    expectBijective(b, 32);
}

// In 32-bit words every atom is the same: element (row, k) of an 8-bit A sits in the register
// (local / 4) that holds bytes 4*(k/4).. of the fp16 A element (row, k/2) (local / 2).
TEST(GemmDtypes, AtomsShareTheWordLayout) {
    auto a16 = makeMmaOperandA(16, 16, {1, 1}, 2), a8 = makeMmaOperandA(16, 32, {1, 1}, 1);
    auto a32 = makeMmaOperandA(16, 8, {1, 1}, 4);
    for (int r = 0; r < 16; ++r)
        for (int k = 0; k < 32; ++k) {
            auto [t8, l8] = loc(a8, r, k);
            auto [t16, l16] = loc(a16, r, k / 2);
            auto [t32, l32] = loc(a32, r, k / 4);
            EXPECT_EQ(t8, t16);
            EXPECT_EQ(l8 / 4, l16 / 2);
            EXPECT_EQ(t8, t32);
            EXPECT_EQ(l8 / 4, l32);
        }
}

TEST(GemmDtypes, BlockTilingOfNewAtoms) {
    // int8 A 64x64 on 2x2 warps: warp rows of 32 = 2 m-atoms, 2 k32 steps, 16 bytes each.
    auto a = makeMmaOperandA(64, 64, {2, 2}, 1);
    EXPECT_EQ(a->localSize, 2 * 2 * 16);
    EXPECT_EQ(a->replicate, 2);
    // (40, 37): warp row 1 -> warp 2; mi 0 (row 8 of the atom), kk 1, k 5 in the step: lane
    // 4*0 + 1 = 1, a_{4+1} = a5 -> local (1*2 + 0)*16 + 5 = 37.
    EXPECT_EQ(loc(a, 40, 37), P(65, 37));
    expectBijective(a, 32);
    expectBijective(makeMmaOperandB(64, 64, {2, 2}, 1), 32);
    expectBijective(makeMmaOperandA(64, 32, {2, 2}, 4), 32);
    expectBijective(makeMmaOperandB(32, 64, {4, 1}, 4), 32);
}

TEST(GemmDtypes, AtomTable) {
    using ir::DType;
    std::string why;
    auto k = [&](DType ab, DType c) {
        auto a = selectMmaAtom(ab, c, &why);
        return a ? a->k : -1;
    };
    EXPECT_EQ(k(DType::Float16, DType::Float32), 16);
    EXPECT_EQ(k(DType::BFloat16, DType::Float32), 16);
    EXPECT_EQ(k(DType::Float16, DType::Float16), 16);
    EXPECT_EQ(k(DType::Int8, DType::Int32), 32);
    EXPECT_EQ(k(DType::UInt8, DType::Int32), 32);
    EXPECT_EQ(k(DType::Float8E4M3, DType::Float32), 32);
    EXPECT_EQ(k(DType::Float8E5M2, DType::Float32), 32);
    EXPECT_EQ(k(DType::Float32, DType::Float32), 8);
    EXPECT_EQ(selectMmaAtom(DType::Float32, DType::Float32, nullptr)->operandConversion, "tf32");
    EXPECT_EQ(selectMmaAtom(DType::Int8, DType::Int32, nullptr)->ptx,
              "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
    // No mma.sync exists for these (PTX ISA mma .atype/.dtype table).
    for (auto [ab, c] : {std::pair{DType::BFloat16, DType::BFloat16}, {DType::Int8, DType::Float32},
                         {DType::Float8E4M3, DType::Float16}, {DType::Float32, DType::Float16},
                         {DType::Float64, DType::Float64}}) {
        why.clear();
        EXPECT_EQ(k(ab, c), -1) << ir::dtypeName(ab) << " -> " << ir::dtypeName(c);
        EXPECT_NE(why.find("no mma.sync for"), std::string::npos) << why;
    }
}

TEST(GemmDtypes, Tf32RoundsToNearestTiesAway) {
    using ir::DType;
    const double ulp = std::ldexp(1.0, -10);  // tf32 keeps 10 mantissa bits
    EXPECT_EQ(mmaOperandValue(DType::Float32, 1.0 + ulp / 2), 1.0 + ulp);  // tie: away
    EXPECT_EQ(mmaOperandValue(DType::Float32, -(1.0 + ulp / 2)), -(1.0 + ulp));
    EXPECT_EQ(mmaOperandValue(DType::Float32, 1.0 + ulp / 4), 1.0);
    EXPECT_EQ(mmaOperandValue(DType::Float32, 1.0 + 3 * ulp / 4), 1.0 + ulp);
    EXPECT_EQ(mmaOperandValue(DType::Float32, 3.0 + 1.5 * 2 * ulp), 3.0 + 2 * 2 * ulp);
    EXPECT_EQ(mmaOperandValue(DType::Float16, 1.0 + ulp / 2), 1.0 + ulp / 2);  // untouched
}

// fp16 accumulation: with kStep 16 the first instruction's 2048 + 1 rounds back to 2048 (the
// fp16 spacing at 2048 is 2, ties to even), and so does the second: 2048, not the exact 2050
// that one rounding at the end would give.
TEST(GemmDtypes, AccumulatorRoundsOncePerInstruction) {
    std::vector<double> a(32, 1.0), b(32, 0.0);
    b[0] = 2048, b[1] = 1, b[16] = 1;
    using ts::interp::detail::mmaAccumulate;
    EXPECT_EQ(mmaAccumulate(0, a.data(), 1, b.data(), 1, 32, 16, ir::DType::Float16), 2048);
    EXPECT_EQ(mmaAccumulate(0, a.data(), 1, b.data(), 1, 32, 32, ir::DType::Float16), 2050);
    EXPECT_EQ(mmaAccumulate(0, a.data(), 1, b.data(), 1, 32, 16, ir::DType::Float32), 2050);
}

// The catalogue builds the new atoms: tilec layout --builtin mma_a:1 / mma_b:4.
TEST(GemmDtypes, BuiltinCatalogueTakesOperandBytes) {
    std::string why;
    auto a = makeBuiltinLayout("mma_a:1", {}, {}, &why);
    ASSERT_TRUE(a) << why;
    EXPECT_EQ(a->shape, (std::vector<int64_t>{16, 32}));
    EXPECT_EQ(a->localSize, 16);
    auto b = makeBuiltinLayout("mma_b:4", {16, 64}, {1, 2}, &why);
    ASSERT_TRUE(b) << why;
    EXPECT_EQ(b->familyParams, (std::vector<int64_t>{16, 64, 1, 2, 4}));
    EXPECT_EQ(b->localSize, 2 * 4 * 2);  // 2 k8 steps x 4 n-atoms x b0..b1
    EXPECT_FALSE(makeBuiltinLayout("mma_a:3", {}, {}, &why));
    EXPECT_NE(why.find("operand bytes"), std::string::npos) << why;
    EXPECT_FALSE(makeBuiltinLayout("mma_b:1", {16, 8}, {}, &why));  // K 16 < one k32 atom
}
