// Tests of the cross-highlighting lookups (visualizer/core/CrossRef.h).
#include <gtest/gtest.h>

#include "visualizer/core/CrossRef.h"

using namespace ts;
using namespace ts::viz;

namespace {
Span lines(uint32_t a, uint32_t b) { return Span{a, 1, b, 10}; }
}  // namespace

TEST(CrossRef, CursorPicksTheInnermostStatement) {
    // line 0: header (no span), 1: loop over source 10..14, 2-3: copy at 11, 4: gemm at 12-13.
    std::vector<Span> s = {Span{}, lines(10, 14), lines(11, 11), lines(11, 11), lines(12, 13)};
    EXPECT_EQ(linesForSourceLine(s, 11), (std::vector<int>{2, 3}));
    EXPECT_EQ(linesForSourceLine(s, 13), (std::vector<int>{4}));
    EXPECT_EQ(linesForSourceLine(s, 10), (std::vector<int>{1}));
    EXPECT_TRUE(linesForSourceLine(s, 20).empty());
}

TEST(CrossRef, SpanPicksEverythingInside) {
    std::vector<Span> s = {Span{}, lines(10, 14), lines(11, 11), lines(12, 13), lines(15, 15)};
    EXPECT_EQ(linesWithinSpan(s, lines(10, 14)), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(linesWithinSpan(s, lines(11, 11)), (std::vector<int>{2}));
    EXPECT_TRUE(linesWithinSpan(s, Span{}).empty());
}

TEST(CrossRef, LineRuns) {
    EXPECT_EQ(lineRuns({1, 2, 3, 7, 9, 10}),
              (std::vector<std::pair<int, int>>{{1, 3}, {7, 7}, {9, 10}}));
    EXPECT_TRUE(lineRuns({}).empty());
}
