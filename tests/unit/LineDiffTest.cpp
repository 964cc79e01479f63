// Tests of the pass explorer's diff model (visualizer/core/LineDiff.h): Myers edit scripts are
// minimal and valid, changed runs pair into rows with intra-line ranges, unified listing order.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "visualizer/core/LineDiff.h"

using namespace ts::viz;

namespace {

// Applies an edit script to `a` and returns the result, checking it is consistent with `b`.
std::string apply(std::string_view a, std::string_view b, const std::vector<EditOp>& ops,
                  int* cost) {
    std::string out;
    size_t i = 0, j = 0;
    *cost = 0;
    for (EditOp op : ops) {
        if (op == EditOp::Equal) {
            EXPECT_EQ(a[i], b[j]);
            out += a[i++];
            ++j;
        } else if (op == EditOp::Delete) {
            ++i, ++*cost;
        } else {
            out += b[j++];
            ++*cost;
        }
    }
    EXPECT_EQ(i, a.size());
    return out;
}

// Length of the longest common subsequence, by dynamic programming (the oracle for minimality).
int lcs(std::string_view a, std::string_view b) {
    std::vector<std::vector<int>> t(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j)
            t[i][j] =
                a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    return t[a.size()][b.size()];
}

}  // namespace

TEST(LineDiff, MyersClassicExample) {
    // The paper's example: ABCABBA -> CBABAC has D = 5.
    int cost = 0;
    auto ops = myersDiff(std::string_view("ABCABBA"), std::string_view("CBABAC"));
    EXPECT_EQ(apply("ABCABBA", "CBABAC", ops, &cost), "CBABAC");
    EXPECT_EQ(cost, 5);
}

TEST(LineDiff, MyersIsMinimalOnRandomInputs) {
    std::mt19937 rng(7);
    for (int iter = 0; iter < 300; ++iter) {
        std::string a, b;
        int na = rng() % 20, nb = rng() % 20;
        for (int k = 0; k < na; ++k) a += char('a' + rng() % 4);
        for (int k = 0; k < nb; ++k) b += char('a' + rng() % 4);
        int cost = 0;
        auto ops = myersDiff(std::string_view(a), std::string_view(b));
        ASSERT_EQ(apply(a, b, ops, &cost), b) << a << " -> " << b;
        EXPECT_EQ(cost, int(a.size() + b.size()) - 2 * lcs(a, b)) << a << " -> " << b;
    }
}

TEST(LineDiff, EmptyInputs) {
    EXPECT_TRUE(myersDiff(std::string_view(""), std::string_view("")).empty());
    auto ops = myersDiff(std::string_view(""), std::string_view("xy"));
    EXPECT_EQ(ops, (std::vector<EditOp>{EditOp::Insert, EditOp::Insert}));
    EXPECT_TRUE(diffTexts("", "").identical());
}

TEST(LineDiff, SplitLinesIgnoresTrailingNewline) {
    EXPECT_EQ(splitLines("a\nb\n"), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(splitLines("a\n\nb"), (std::vector<std::string>{"a", "", "b"}));
    EXPECT_TRUE(splitLines("").empty());
}

TEST(LineDiff, IdenticalTexts) {
    TextDiff d = diffTexts("x = 1\ny = 2\n", "x = 1\ny = 2\n");
    EXPECT_TRUE(d.identical());
    EXPECT_EQ(d.rows.size(), 2u);
    EXPECT_TRUE(d.hunkStarts().empty());
}

TEST(LineDiff, ChangedLinePairsWithIntraLineRanges) {
    TextDiff d = diffTexts("a\nfor i in range(16):\nb\n", "a\nfor i in range(32):\nb\n");
    ASSERT_EQ(d.rows.size(), 3u);
    EXPECT_EQ(d.changed, 1);
    const DiffRow& r = d.rows[1];
    EXPECT_EQ(r.kind, RowKind::Changed);
    EXPECT_EQ(r.oldLine, 1);
    EXPECT_EQ(r.newLine, 1);
    // "16" vs "32" at bytes 15..17.
    ASSERT_EQ(r.oldRanges.size(), 1u);
    EXPECT_EQ(r.oldRanges[0], (ByteRange{15, 17}));
    ASSERT_EQ(r.newRanges.size(), 1u);
    EXPECT_EQ(r.newRanges[0], (ByteRange{15, 17}));
    EXPECT_EQ(d.hunkStarts(), std::vector<int>{1});
}

TEST(LineDiff, UnpairedInsertionsAndDeletions) {
    TextDiff d = diffTexts("a\nb\nc\n", "a\nx\ny\nz\nc\n");
    EXPECT_EQ(d.changed, 1);   // b -> x
    EXPECT_EQ(d.inserted, 2);  // y, z
    EXPECT_EQ(d.deleted, 0);
    auto u = d.unified();
    ASSERT_EQ(u.size(), 6u);
    EXPECT_EQ(u[0].op, EditOp::Equal);
    EXPECT_EQ(u[1].op, EditOp::Delete);  // old "b" first
    EXPECT_EQ(u[1].line, 1);
    EXPECT_EQ(u[2].op, EditOp::Insert);
    EXPECT_EQ(u[4].op, EditOp::Insert);
    EXPECT_EQ(u[5].op, EditOp::Equal);
    EXPECT_EQ(u[5].line, 4);
}

TEST(LineDiff, SmallEqualIslandsAreMerged) {
    std::vector<ByteRange> o, n;
    intraLineRanges("abXcdYef", "abPcdQef", o, n);
    // X and Y are two bytes apart: one range, not two.
    ASSERT_EQ(o.size(), 1u);
    EXPECT_EQ(o[0], (ByteRange{2, 6}));
}

TEST(LineDiff, LongLinesGetWholeLineRange) {
    std::string a(100, 'a'), b(100, 'b');
    TextDiff d = diffTexts(a, b, /*maxIntraLine=*/10);
    ASSERT_EQ(d.rows.size(), 1u);
    EXPECT_EQ(d.rows[0].oldRanges, (std::vector<ByteRange>{{0, 100}}));
}

TEST(LineDiff, LargeInputsStayFast) {
    std::string a, b;
    for (int i = 0; i < 3000; ++i) {
        a += "line " + std::to_string(i) + "\n";
        b += "line " + std::to_string(i) + (i % 7 == 0 ? " changed" : "") + "\n";
    }
    TextDiff d = diffTexts(a, b);
    EXPECT_GT(d.changed, 400);
    EXPECT_EQ(d.rows.size(), 3000u);
}
