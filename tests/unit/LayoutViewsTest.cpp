// compiler/analysis/LayoutViews.h: a permuted or reshaped view of a fragment layout keeps every
// element in the thread and register of the original element it names (same row-major linear
// index for reshapes, permuted indices for permutations), its inverse names an in-shape element
// or a slot the padding guard skips, and it refuses what would let padding alias real elements.
#include <gtest/gtest.h>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/LayoutViews.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"

using namespace ts;
using namespace ts::analysis;

namespace {

std::vector<int64_t> unflatten(int64_t lin, const std::vector<int64_t>& shape) {
    std::vector<int64_t> idx(shape.size());
    for (size_t d = shape.size(); d-- > 0;) idx[d] = lin % shape[d], lin /= shape[d];
    return idx;
}

bool inShape(const std::vector<int64_t>& idx, const std::vector<int64_t>& shape) {
    for (size_t d = 0; d < idx.size(); ++d)
        if (idx[d] < 0 || idx[d] >= shape[d]) return false;
    return true;
}

// Element by element: the view's (thread, local) equals the base's at the same linear index;
// every (thread, local) slot of the view names either an element out of the view's shape
// (padding) or exactly the element whose base slot it is.
void expectSamePlacement(const ir::Layout& base, const ir::Layout& view) {
    ASSERT_TRUE(view);
    int64_t numel = 1;
    for (auto e : view->shape) numel *= e;
    for (int64_t k = 0; k < numel; ++k) {
        auto a = fragmentLocate(*base, unflatten(k, base->shape)), b = fragmentLocate(*view, unflatten(k, view->shape));
        ASSERT_TRUE(a && b);
        ASSERT_EQ(*a, *b) << "element " << k << " of " << view->description;
    }
    int64_t real = 0;
    for (int64_t t = 0; t < view->threads; ++t)
        for (int64_t r = 0; r < view->localSize; ++r) {
            auto v = fragmentInverse(*view, t, r), o = fragmentInverse(*base, t, r);
            ASSERT_TRUE(v && o);
            bool vIn = inShape(*v, view->shape), oIn = inShape(*o, base->shape);
            ASSERT_EQ(vIn, oIn) << "slot t" << t << " r" << r << " of " << view->description;
            if (!vIn) continue;
            ++real;
            int64_t lv = 0, lo = 0;
            for (size_t d = 0; d < v->size(); ++d) lv = lv * view->shape[d] + (*v)[d];
            for (size_t d = 0; d < o->size(); ++d) lo = lo * base->shape[d] + (*o)[d];
            ASSERT_EQ(lv, lo) << "slot t" << t << " r" << r;
        }
    EXPECT_EQ(real, numel * view->replicate);
}

}  // namespace

TEST(LayoutViews, ReshapeOfAnMmaAccumulatorSplitsItsColumns) {
    // fp8_lighting_indexer: s (block_N, block_Q * heads) viewed as (block_N, block_Q, heads).
    ir::Layout acc = makeMmaAccumulator(64, 64, {1, 4});
    expectSamePlacement(acc, reshapeLayout(acc, {64, 4, 16}));
    expectSamePlacement(acc, reshapeLayout(acc, {4096}));
    expectSamePlacement(acc, reshapeLayout(acc, {2, 32, 2, 32}));
}

TEST(LayoutViews, ReshapeOfAPaddedBlockFragmentOnlyMovesLeadingDims) {
    // 40 rows x 5 columns over 256 threads: padded slots in both dims.
    auto p = chooseBlockFragment(40, 5, 256, 4);
    ir::Layout l = makeBlockFragment(p);
    ASSERT_NE(l->localSize * l->threads, 40 * 5 * l->replicate) << "the case needs padding";
    expectSamePlacement(l, reshapeLayout(l, {8, 5, 5}));
    EXPECT_EQ(reshapeLayout(l, {40, 1, 5}) != nullptr, true);
    expectSamePlacement(l, reshapeLayout(l, {40, 1, 5}));
    // Splitting the padded last dim would let padding slots alias real elements.
    EXPECT_EQ(reshapeLayout(l, {200}), nullptr);
    EXPECT_EQ(reshapeLayout(l, {40, 6}), nullptr);  // another element count
}

TEST(LayoutViews, UnitDimsOfAPaddedOneDimensionalFragment) {
    // block_sparse_mqa: logits (block_N, 1) indexed [i, 0] in a 1-D nest over block_N.
    auto p = chooseBlockFragment(1, 48, 256, 4);
    ir::Layout l = makeBlockFragment(p, /*oneD=*/true);
    expectSamePlacement(l, reshapeLayout(l, {48, 1}));
    expectSamePlacement(l, reshapeLayout(l, {1, 48, 1}));
    ir::Layout back = reshapeLayout(reshapeLayout(l, {48, 1}), {48});
    ASSERT_TRUE(back);
    EXPECT_TRUE(sameMapping(*back, *l));
}

TEST(LayoutViews, ReplicatedStaysReplicated) {
    ir::Layout r = makeReplicated({8, 16}, 128);
    ir::Layout v = reshapeLayout(r, {2, 4, 16});
    ASSERT_TRUE(v);
    EXPECT_EQ(v->family, "replicated");
    EXPECT_EQ(v->localSize, 128);
}

TEST(LayoutViews, PermutationSwapsIndicesNotPlacement) {
    ir::Layout acc = makeMmaAccumulator(64, 32, {2, 2});
    ir::Layout t = permuteLayout(acc, {1, 0});
    ASSERT_EQ(t->shape, (std::vector<int64_t>{32, 64}));
    for (int64_t i = 0; i < 64; ++i)
        for (int64_t j = 0; j < 32; ++j) ASSERT_EQ(fragmentLocate(*t, {j, i}), fragmentLocate(*acc, {i, j}));
    for (int64_t th = 0; th < t->threads; ++th)
        for (int64_t r = 0; r < t->localSize; ++r) {
            auto a = fragmentInverse(*acc, th, r), b = fragmentInverse(*t, th, r);
            ASSERT_TRUE(a && b);
            EXPECT_EQ((std::vector<int64_t>{(*a)[1], (*a)[0]}), *b);
        }
    EXPECT_TRUE(sameMapping(*permuteLayout(t, {1, 0}), *acc));
    EXPECT_EQ(permuteLayout(acc, {0, 1}), acc);  // the identity is the layout itself
}
