// User layouts (analysis/UserLayouts.h) built from hand-written IR maps, without the front end:
//  - enumeration errors: collisions (naming both elements), threads out of range, negative
//    offsets, a physical range beyond shared memory;
//  - family recognition: maps written by hand that equal a block fragment, the mma.sync
//    accumulator (PTX ISA §9.7.14.5.8 C fragment), a row-reduced vector, padded and swizzled
//    shared tiles;
//  - the mixed-radix affine inverse of maps that are no family (transposed thread order,
//    bit-interleaved 1-D with a padded tail), checked at hand-derived points and by a full
//    forward(inverse(t, r)) == (t, r) round trip;
//  - the front end: lambdas returning lists are flattened row-major over their extents, and
//    tilelang.layout.Fragment is T.Fragment.
#include <set>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/ir/Builder.h"

using namespace ts;
using namespace ts::ir;
using namespace ts::analysis;

namespace {

Expr c(int64_t v) { return intImm(v); }

// A 2-D fragment spec; `thread`/`local` build the maps from (i, j).
template <class F, class G>
UserLayoutSpec fragment2d(std::vector<int64_t> shape, F thread, G local) {
    UserLayoutSpec s;
    s.fragment = true;
    s.shape = std::move(shape);
    Var i = makeVar("i"), j = makeVar("j");
    s.inputs = {i, j};
    s.thread = thread(Expr(i), Expr(j));
    s.index = {local(Expr(i), Expr(j))};
    return s;
}

using P = std::pair<int64_t, int64_t>;

// Every slot holding an element maps back to it, and every element is held exactly
// `replicate` times.
void expectRoundTrip(const LayoutNode& l) {
    int64_t numel = 1;
    for (auto e : l.shape) numel *= e;
    std::set<std::vector<int64_t>> seen;
    int64_t held = 0;
    for (int64_t t = 0; t < l.threads; ++t)
        for (int64_t r = 0; r < l.localSize; ++r) {
            auto idx = fragmentInverse(l, t, r);
            ASSERT_TRUE(idx);
            bool in = true;
            for (size_t d = 0; d < idx->size(); ++d) in &= (*idx)[d] >= 0 && (*idx)[d] < l.shape[d];
            if (!in) continue;
            ++held;
            seen.insert(*idx);
            if (l.replicate == 1) {
                EXPECT_EQ(fragmentLocate(l, *idx), P(t, r)) << "slot " << t << "," << r;
            }
        }
    EXPECT_EQ(held, numel * l.replicate);
    EXPECT_EQ(static_cast<int64_t>(seen.size()), numel);
}

}  // namespace

TEST(UserLayout, TransposedThreadOrderGetsDigitAffineInverse) {
    // thread = (j % 16) * 8 + i % 8, local = (i // 8) * 4 + j // 16 over 64x64, 128 threads:
    // no family puts i's low bits in the thread's low bits, so the general path applies.
    auto s = fragment2d(
        {64, 64},
        [](Expr i, Expr j) { return add(mul(floormod(j, c(16)), c(8)), floormod(i, c(8))); },
        [](Expr i, Expr j) { return add(mul(floordiv(i, c(8)), c(4)), floordiv(j, c(16))); });
    auto r = buildUserFragment(s, 128, 4, "X");
    ASSERT_TRUE(r.layout) << r.error;
    const LayoutNode& l = *r.layout;
    EXPECT_EQ(l.family, "user");
    EXPECT_EQ(l.localSize, 32);
    EXPECT_EQ(l.threads, 128);
    // Hand-derived: i = t % 8 + (r // 4) * 8, j = t // 8 + (r % 4) * 16.
    EXPECT_EQ(fragmentInverse(l, 13, 6), (std::vector<int64_t>{13, 33}));
    EXPECT_EQ(fragmentInverse(l, 127, 31), (std::vector<int64_t>{63, 63}));
    EXPECT_EQ(fragmentInverse(l, 8, 1), (std::vector<int64_t>{0, 17}));
    EXPECT_EQ(fragmentLocate(l, {13, 33}), P(13, 6));
    expectRoundTrip(l);
    EXPECT_NE(l.description.find("32 regs/thread over 128 threads"), std::string::npos)
        << l.description;
}

TEST(UserLayout, HandWrittenBlockFragmentIsRecognised) {
    // The default layout of a 64x64 fp32 tile on 128 threads, written by hand.
    auto s = fragment2d(
        {64, 64},
        [](Expr i, Expr j) {
            return add(mul(floormod(i, c(8)), c(16)), floormod(floordiv(j, c(4)), c(16)));
        },
        [](Expr i, Expr j) { return add(mul(floordiv(i, c(8)), c(4)), floormod(j, c(4))); });
    auto r = buildUserFragment(s, 128, 4, "Y");
    ASSERT_TRUE(r.layout) << r.error;
    EXPECT_EQ(r.layout->family, "block");
    EXPECT_EQ(r.layout->familyParams, (std::vector<int64_t>{64, 64, 128, 4, 16, 8}));
    auto dflt = makeBlockFragment(chooseBlockFragment(64, 64, 128, 4));
    EXPECT_TRUE(sameMapping(*r.layout, *dflt));
}

TEST(UserLayout, HandWrittenMmaAccumulatorIsRecognised) {
    // PTX ISA §9.7.14.5.8: lane = 4 * (row % 8) + (col % 8) / 2, e = col % 2 + 2 * (row % 16 / 8);
    // warps 2x2 over 64x64, each warp 32x32 = 2x4 atoms of 16x8.
    auto s = fragment2d(
        {64, 64},
        [](Expr i, Expr j) {
            Expr warp = add(mul(floordiv(i, c(32)), c(2)), floordiv(j, c(32)));
            return add(mul(warp, c(32)),
                       add(mul(floormod(i, c(8)), c(4)), floordiv(floormod(j, c(8)), c(2))));
        },
        [](Expr i, Expr j) {
            Expr atom = add(mul(floordiv(floormod(i, c(32)), c(16)), c(4)),
                            floordiv(floormod(j, c(32)), c(8)));
            return add(add(mul(atom, c(4)), mul(floordiv(floormod(i, c(16)), c(8)), c(2))),
                       floormod(j, c(2)));
        });
    auto r = buildUserFragment(s, 128, 4, "acc");
    ASSERT_TRUE(r.layout) << r.error;
    EXPECT_EQ(r.layout->family, "mma_c");
    EXPECT_EQ(r.layout->familyParams, (std::vector<int64_t>{64, 64, 2, 2}));
}

TEST(UserLayout, ReplicatedRowVectorIsRowReduced) {
    // 64 row values, each held by the 2 threads of its row group: thread = 2 * i + rep.
    UserLayoutSpec s;
    s.fragment = true;
    s.shape = {64};
    Var i = makeVar("i");
    s.inputs = {i};
    s.rep = makeVar("rep");
    s.replicate = 2;
    s.thread = add(mul(i, c(2)), s.rep);
    s.index = {c(0)};
    auto r = buildUserFragment(s, 128, 4, "m");
    ASSERT_TRUE(r.layout) << r.error;
    EXPECT_EQ(r.layout->family, "row_reduced");
    EXPECT_EQ(r.layout->replicate, 2);
    EXPECT_EQ(r.layout->localSize, 1);
    expectRoundTrip(*r.layout);
}

TEST(UserLayout, InterleavedPaddedTailSendsEmptySlotsPastTheShape) {
    // (192,) over 128 threads, 2 registers: thread = (j % 2) * 64 + (j // 2) % 64, local = j //
    // 128. Inverse by hand: j = 2 * (t % 64) + t // 64 + 128 * r; register 1 of threads with 2 * (t
    // % 64) + t // 64 >= 64 is padding and must land at j >= 192.
    UserLayoutSpec s;
    s.fragment = true;
    s.shape = {192};
    Var j = makeVar("j");
    s.inputs = {j};
    s.thread = add(mul(floormod(j, c(2)), c(64)), floormod(floordiv(j, c(2)), c(64)));
    s.index = {floordiv(j, c(128))};
    auto r = buildUserFragment(s, 128, 4, "v");
    ASSERT_TRUE(r.layout) << r.error;
    const LayoutNode& l = *r.layout;
    EXPECT_EQ(l.family, "user");
    EXPECT_EQ(l.localSize, 2);
    EXPECT_EQ(fragmentInverse(l, 65, 0), (std::vector<int64_t>{3}));
    EXPECT_EQ(fragmentInverse(l, 31, 1), (std::vector<int64_t>{190}));
    EXPECT_EQ(fragmentInverse(l, 32, 1), (std::vector<int64_t>{192}));   // padding
    EXPECT_EQ(fragmentInverse(l, 127, 1), (std::vector<int64_t>{255}));  // padding
    expectRoundTrip(l);
    EXPECT_NE(l.description.find("padded"), std::string::npos);
}

TEST(UserLayout, FitOfASmallHandTable) {
    // 4 threads x 2 registers holding a (3, 2) tile: slot (t, r) -> (t, r); thread 3 holds nothing.
    std::vector<std::vector<int64_t>> slots(8);
    for (int64_t t = 0; t < 3; ++t)
        for (int64_t r = 0; r < 2; ++r) slots[t * 2 + r] = {t, r};
    Var t = makeVar("t"), r = makeVar("r");
    auto inv = fitDigitAffineInverse(slots, 4, 2, {3, 2}, t, r);
    ASSERT_TRUE(inv);
    for (int64_t tt = 0; tt < 4; ++tt)
        for (int64_t rr = 0; rr < 2; ++rr) {
            std::vector<std::pair<const VarNode*, int64_t>> env{{t.get(), tt}, {r.get(), rr}};
            auto i = evalInt((*inv)[0], env), jj = evalInt((*inv)[1], env);
            ASSERT_TRUE(i && jj);
            if (tt < 3)
                EXPECT_EQ(std::make_pair(*i, *jj), P(tt, rr));
            else
                EXPECT_GE(*i, 3);  // thread 3 holds nothing: out of the shape
        }
    // (0,0) -> 0, (0,1) -> 3, (1,0) -> 1 force element = t + 3r, but (1,1) holds 2, not 4.
    std::vector<std::vector<int64_t>> xorTable = {{0}, {3}, {1}, {2}};
    EXPECT_FALSE(fitDigitAffineInverse(xorTable, 2, 2, {4}, t, r));
}

TEST(UserLayout, CollisionNamesBothElements) {
    // thread = j % 128 (only 64 columns), local = i % 32: rows 0 and 32 share every slot.
    auto s = fragment2d(
        {64, 64}, [](Expr, Expr j) { return floormod(j, c(128)); },
        [](Expr i, Expr) { return floormod(i, c(32)); });
    auto r = buildUserFragment(s, 128, 4, "X");
    ASSERT_FALSE(r.layout);
    EXPECT_NE(
        r.error.find("'X': elements (0, 0) and (32, 0) are both mapped to thread 0, local index 0"),
        std::string::npos)
        << r.error;
}

TEST(UserLayout, ThreadOutOfRange) {
    auto s = fragment2d(
        {64, 64}, [](Expr, Expr j) { return mul(j, c(4)); }, [](Expr i, Expr) { return i; });
    auto r = buildUserFragment(s, 128, 4, "X");
    ASSERT_FALSE(r.layout);
    EXPECT_NE(
        r.error.find("element (0, 32) is mapped to thread 128, outside the kernel's 128 threads"),
        std::string::npos)
        << r.error;
}

TEST(UserLayout, XorThreadMapHasNoClosedFormInverse) {
    auto s = fragment2d(
        {32, 32}, [](Expr i, Expr j) { return binary(BinOp::BitXor, j, floormod(i, c(32))); },
        [](Expr i, Expr) { return i; });
    auto r = buildUserFragment(s, 32, 4, "X");
    ASSERT_FALSE(r.layout);
    EXPECT_NE(r.error.find("cannot be lowered"), std::string::npos) << r.error;
}

TEST(UserLayout, SharedPaddedSwizzledAndGeneralMaps) {
    Var i = makeVar("i"), j = makeVar("j");
    UserLayoutSpec s;
    s.shape = {64, 64};
    s.inputs = {i, j};
    // i * 68 + j: padded rows (4 extra fp32 per row).
    s.index = {add(mul(i, c(68)), j)};
    auto pad = buildUserShared(s, 4, "S");
    ASSERT_TRUE(pad.layout) << pad.error;
    EXPECT_EQ(pad.layout->family, "shared");
    EXPECT_EQ(pad.layout->padElems, 4);
    EXPECT_EQ(pad.layout->swizzleBytes, 0);
    // fp16, 128-byte rows: 16-byte chunk j // 8 XOR (i % 8) is the 128-byte swizzle.
    s.index = {add(
        add(mul(i, c(64)), mul(binary(BinOp::BitXor, floordiv(j, c(8)), floormod(i, c(8))), c(8))),
        floormod(j, c(8)))};
    auto swz = buildUserShared(s, 2, "S");
    ASSERT_TRUE(swz.layout) << swz.error;
    EXPECT_EQ(swz.layout->family, "shared");
    EXPECT_EQ(swz.layout->swizzleBytes, 128);
    // [j, i]: column-major storage, flattened row-major over the output extents (64, 64).
    s.index = {j, i};
    auto tr = buildUserShared(s, 4, "S");
    ASSERT_TRUE(tr.layout) << tr.error;
    EXPECT_EQ(tr.layout->family, "user_shared");
    EXPECT_EQ(tr.layout->physicalElems, 4096);
    std::vector<std::pair<const VarNode*, int64_t>> env{{i.get(), 3}, {j.get(), 5}};
    EXPECT_EQ(evalInt(tr.layout->offset, env), 5 * 64 + 3);
    // Two elements on one offset, a negative offset, a range beyond shared memory.
    s.index = {add(mul(i, c(32)), j)};
    auto col = buildUserShared(s, 4, "S");
    EXPECT_NE(col.error.find("elements (0, 32) and (1, 0) are both mapped to offset 32"),
              std::string::npos)
        << col.error;
    s.index = {sub(add(mul(i, c(64)), j), c(5))};
    EXPECT_NE(buildUserShared(s, 4, "S").error.find("element (0, 0) is mapped to -5"),
              std::string::npos);
    s.index = {add(mul(i, c(100000)), j)};
    EXPECT_NE(buildUserShared(s, 4, "S").error.find("more than the 232448 bytes"),
              std::string::npos);
}

TEST(UserLayout, FrontEndFlattensListOutputsRowMajor) {
    // [j // 4, i, j % 4] over (4, 8): output extents (2, 4, 4), so offset = (j // 4) * 16 + i * 4 +
    // j % 4 -- no padding/swizzle form (row 1 starts at offset 4 < 8), a 32-element index map.
    const char* src = R"(import tilelang
import tilelang.language as T
from tilelang.layout import Fragment


@T.prim_func
def main(A: T.Tensor((4, 8), "float32"), B: T.Tensor((4, 8), "float32")):
    with T.Kernel(1, threads=32) as (bx,):
        S = T.alloc_shared((4, 8), "float32")
        X = T.alloc_fragment((4, 8), "float32")
        T.annotate_layout({S: T.Layout((4, 8), lambda i, j: [j // 4, i, j % 4]),
                           X: Fragment((4, 8), forward_thread_fn=lambda i, j: j * 4 + i, forward_index_fn=lambda i, j: 0)})
        T.copy(A, S)
        T.copy(S, X)
        T.copy(X, B)
)";
    ts::CompileOptions opts;
    opts.recordSnapshots = false;
    auto r = ts::compile("flatten.py", src, opts);
    ASSERT_TRUE(r.elaborated);
    ASSERT_TRUE(r.elaborated->layouts.count("S"));
    const LayoutNode& S = *r.elaborated->layouts.at("S");
    EXPECT_EQ(S.family, "user_shared");
    EXPECT_EQ(S.physicalElems, 32);
    ASSERT_EQ(S.inputs.size(), 2u);
    std::vector<std::pair<const VarNode*, int64_t>> env{{S.inputs[0].get(), 1},
                                                        {S.inputs[1].get(), 5}};
    EXPECT_EQ(evalInt(S.offset, env), 16 + 4 + 1);
    // thread = 4 * j + i, one register: 32 threads, no family (block fragments put j's chunks,
    // not i, in the low thread bits); inverse i = t % 4, j = t // 4.
    const LayoutNode& X = *r.elaborated->layouts.at("X");
    EXPECT_EQ(X.localSize, 1);
    EXPECT_EQ(fragmentInverse(X, 13, 0), (std::vector<int64_t>{1, 3}));
}
