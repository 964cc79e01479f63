// rt::referenceMismatch (profiler/check/Compare.h): a ref_program result that cannot be compared
// with the kernel's outputs (wrong count, wrong shape, a scalar) is named before compare() would
// throw on it.
#include <gtest/gtest.h>

#include "profiler/check/Compare.h"
#include "profiler/check/ReferenceCall.h"

using namespace ts;
using namespace ts::rt;

namespace {
HostTensor tensor(std::vector<int64_t> shape) {
    int64_t n = 1;
    for (auto e : shape) n *= e;
    return HostTensor{ir::DType::Float64, std::move(shape), std::vector<double>(size_t(n), 1.0)};
}
}  // namespace

TEST(CheckReferenceFit, MatchingCountAndShapesFit) {
    EXPECT_EQ(referenceMismatch({{"C", {100, 130}}}, {tensor({100, 130})}), "");
    EXPECT_EQ(referenceMismatch({{"O", {2, 3}}, {"L", {2}}}, {tensor({2, 3}), tensor({2})}), "");
}

TEST(CheckReferenceFit, ShapeDifferenceNamesOutputAndBothShapes) {
    EXPECT_EQ(referenceMismatch({{"C", {100, 130}}}, {tensor({3, 130})}),
              "ref_program's value for output C has shape (3, 130), but C has shape (100, 130)");
    // `return 3.0`: a 0-d result is not broadcast.
    EXPECT_EQ(referenceMismatch({{"C", {100, 130}}}, {tensor({})}),
              "ref_program's value for output C has shape (), but C has shape (100, 130)");
    // The second output is the bad one.
    EXPECT_EQ(referenceMismatch({{"O", {2, 3}}, {"L", {2}}}, {tensor({2, 3}), tensor({3})}),
              "ref_program's value for output L has shape (3), but L has shape (2)");
}

TEST(CheckReferenceFit, CountDifference) {
    EXPECT_EQ(referenceMismatch({{"C", {4}}}, {tensor({4}), tensor({4})}),
              "ref_program returned 2 values for 1 output (C)");
    // Fewer values than outputs: compared with the first outputs in order (TileLang's profiler
    // zips them), the rest named as not checked.
    EXPECT_EQ(referenceMismatch({{"O", {4}}, {"L", {4}}}, {tensor({4})}), "");
    EXPECT_EQ(uncheckedOutputs({{"O", {4}}, {"L", {4}}}, {tensor({4})}),
              "L not checked: ref_program returned 1 value for 2 outputs (compared with the first "
              "1 in order, as TileLang does)");
    EXPECT_EQ(uncheckedOutputs({{"O", {4}}}, {tensor({4})}), "");
    EXPECT_EQ(referenceMismatch({{"O", {4}}, {"L", {4}}}, {tensor({3})}),
              "ref_program's value for output O has shape (3), but O has shape (4)");
    EXPECT_EQ(referenceMismatch({{"O", {4}}, {"L", {4}}}, {}),
              "ref_program returned 0 values for 2 outputs (O, L)");
}
