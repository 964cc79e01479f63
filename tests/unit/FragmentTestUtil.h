// Helpers of the fragment-layout tests (LayoutHwTest, GemmDtypesTest): where an element lives
// (thread, local), what a (thread, local) slot holds, and the whole-tile coverage check.
#pragma once
#include <map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/analysis/Layouts.h"

namespace ts::test {
using P = std::pair<int64_t, int64_t>;
inline P loc(const ir::Layout& l, int64_t i, int64_t j) {
    auto r = analysis::fragmentLocate(*l, {i, j});
    EXPECT_TRUE(r.has_value());
    return r.value_or(P(-1, -1));
}
inline std::vector<int64_t> inv(const ir::Layout& l, int64_t t, int64_t r) {
    return analysis::fragmentInverse(*l, t, r).value_or(std::vector<int64_t>{-1, -1});
}

/// Every element maps into [0,threads) x [0,localSize) and back (inverse o forward = id); every
/// (thread, local) slot names an in-shape element whose forward map has the same local; each
/// element is named by exactly `replicate` slots (threadsPerWarp: replicas differ only by warp).
inline void expectBijective(const ir::Layout& l, int64_t threadsPerWarp) {
    ASSERT_TRUE(l);
    const int64_t R = l->shape[0], C = l->shape[1];
    EXPECT_EQ(l->threads * l->localSize, R * C * l->replicate) << l->description;
    for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < C; ++j) {
            auto [t, r] = loc(l, i, j);
            ASSERT_TRUE(t >= 0 && t < l->threads && r >= 0 && r < l->localSize) << i << "," << j;
            ASSERT_EQ(inv(l, t, r), (std::vector<int64_t>{i, j})) << i << "," << j;
        }
    std::map<P, int64_t> hits;
    for (int64_t t = 0; t < l->threads; ++t)
        for (int64_t r = 0; r < l->localSize; ++r) {
            auto e = inv(l, t, r);
            ASSERT_TRUE(e[0] >= 0 && e[0] < R && e[1] >= 0 && e[1] < C) << "t" << t << " r" << r;
            auto [t2, r2] = loc(l, e[0], e[1]);
            ASSERT_EQ(r2, r);
            ASSERT_EQ(t2 % threadsPerWarp, t % threadsPerWarp);
            ++hits[{e[0], e[1]}];
        }
    EXPECT_EQ(int64_t(hits.size()), R * C);
    for (auto& [e, n] : hits) ASSERT_EQ(n, l->replicate) << e.first << "," << e.second;
}
}  // namespace ts::test
