// TMA tensor-map rules (profiler/cuda/TensorMap.h tensorMapProblem), pure: ranks 2..5, every
// stride a multiple of 16 bytes, the box's row dimension any but the contiguous one. The 4-D
// case is FlashAttention's K of (batch, seq, heads, dim) with the box's rows along seq.
#include <gtest/gtest.h>

#include "profiler/cuda/TensorMap.h"

namespace {
using ts::ir::DType;
using ts::rt::TensorMapParam;
using ts::rt::tensorMapProblem;

TEST(TensorMap, RankTwoToFiveWithTheRowsAlongAnyOuterDimension) {
    const TensorMapParam twoD{0, 64, 128, 128};  // rowDim -1: rank - 2
    EXPECT_EQ(tensorMapProblem(twoD, DType::Float16, {4096, 4096}, 0x1000), "");
    TensorMapParam bshd{1, 64, 128, 128, 1};  // (batch, seq, heads, dim): rows along seq
    EXPECT_EQ(tensorMapProblem(bshd, DType::Float16, {1, 4096, 16, 128}, 0x1000), "");
    EXPECT_EQ(tensorMapProblem(bshd, DType::BFloat16, {2, 4097, 4, 128}, 0x1000), "");
    bshd.rowDim = 0;  // rows along batch: still a legal box
    EXPECT_EQ(tensorMapProblem(bshd, DType::Float16, {1, 4096, 16, 128}, 0x1000), "");
    bshd.rowDim = 3;  // rows along the contiguous dimension: not a tile box
    EXPECT_NE(tensorMapProblem(bshd, DType::Float16, {1, 4096, 16, 128}, 0x1000).find("contiguous"), std::string::npos);
}

TEST(TensorMap, StridesAndRanksOutsideTheRules) {
    const TensorMapParam p{0, 64, 32, 128};
    // 68 fp16 columns: 136-byte rows, not a multiple of 16.
    EXPECT_NE(tensorMapProblem(p, DType::Float16, {100, 68}, 0x1000).find("not a multiple of 16"), std::string::npos);
    // A 4-D tensor whose last dimension is fine and whose other strides follow from it.
    EXPECT_EQ(tensorMapProblem({0, 64, 32, 128, 1}, DType::Float16, {3, 100, 5, 72}, 0x1000), "");
    EXPECT_NE(tensorMapProblem(p, DType::Float16, {100}, 0x1000).find("rank"), std::string::npos);
    EXPECT_NE(tensorMapProblem(p, DType::Float16, {2, 2, 2, 2, 2, 64}, 0x1000).find("rank"), std::string::npos);
    EXPECT_NE(tensorMapProblem(p, DType::Float16, {100, 64}, 0x1008).find("aligned"), std::string::npos);
}

}  // namespace
