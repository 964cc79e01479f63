// check-bounds' grid-level warning (transforms/CheckBlockWrites.cpp): a global store whose
// element does not depend on the block index along a grid dimension of several blocks.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "compiler/Compile.h"
#include "tests/support/SourceDir.h"

namespace {

// A kernel over a 2 x 4 grid (bx: 2 column blocks, by: 4 row blocks) storing `store`.
std::string kernel(const std::string& store, const std::string& grid = "2, 4") {
    return "import tilelang.language as T\n\n\n"
           "@T.prim_func\n"
           "def main(A: T.Tensor((256, 128), \"float32\"), C: T.Tensor((256, 128), \"float32\"), Idx: T.Tensor((4,), \"int32\")):\n"
           "    with T.Kernel(" + grid + ", threads=128) as (bx, by):\n"
           "        s = T.alloc_shared((64, 64), \"float32\")\n"
           "        T.copy(A[by * 64, bx * 64], s)\n" + store + "\n";
}

std::vector<std::string> warnings(const std::string& src) {
    ts::CompileOptions o;
    o.recordSnapshots = false;
    ts::CompileResult r = ts::compile("k.py", src, o);
    EXPECT_TRUE(r.ok);
    std::vector<std::string> w;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Warning && d.message.find("write the same elements") != std::string::npos)
            w.push_back(std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + " " + d.message);
    return w;
}

TEST(BlockWritesWarning, ForgottenRowBlockInACopy) {
    auto w = warnings(kernel("        T.copy(s, C[0, bx * 64])"));
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0], "9:19 all 4 blocks along blockIdx.y ('by') write the same elements of 'C' here: its index does not use 'by', so unless "
                    "they write equal values, which block's value is kept is undefined");
}

TEST(BlockWritesWarning, ForgottenBothBlocksInAParallelStoreOncePerDimension) {
    auto w = warnings(kernel("        for i, j in T.Parallel(64, 64):\n"
                             "            C[i, j] = s[i, j]\n"
                             "        for i, j in T.Parallel(64, 64):\n"
                             "            C[i, j] = s[i, j] * 2"));
    ASSERT_EQ(w.size(), 2u);  // x and y, at the first store only
    EXPECT_NE(w[0].find("all 2 blocks along blockIdx.x ('bx')"), std::string::npos) << w[0];
    EXPECT_NE(w[1].find("all 4 blocks along blockIdx.y ('by')"), std::string::npos) << w[1];
    EXPECT_EQ(w[0].substr(0, 5), "10:13");
}

TEST(BlockWritesWarning, SilentWhereEachBlockHasItsOwnElementsOrChoosesOne) {
    // Indexed by both blocks; through a loop whose bounds use the block; under `if by == 0`;
    // through an index read from memory; atomics; a one-block dimension.
    EXPECT_TRUE(warnings(kernel("        T.copy(s, C[by * 64, bx * 64])")).empty());
    EXPECT_TRUE(warnings(kernel("        for r in T.serial(by * 64, by * 64 + 64):\n"
                                "            for j in T.Parallel(64):\n"
                                "                C[r, bx * 64 + j] = s[r - by * 64, j]")).empty());
    EXPECT_TRUE(warnings(kernel("        if by == 0:\n"
                                "            T.copy(s, C[0, bx * 64])")).empty());
    EXPECT_TRUE(warnings(kernel("        T.copy(s, C[Idx[by], bx * 64])")).empty());
    EXPECT_TRUE(warnings(kernel("        for i, j in T.Parallel(64, 64):\n"
                                "            T.atomic_add(C[i, bx * 64 + j], s[i, j])")).empty());
    EXPECT_TRUE(warnings(kernel("        T.copy(s, C[0, bx * 64])", "2, 1")).empty());
}

// A tensor made from a pointer the block reads (T.make_tensor(Y_ptrs[bx], ...)) is another memory
// in each block: `T.copy(Y_s, Y)` writes each block's own tensor (tests/e2e/programs/ptr_table.py).
TEST(BlockWritesWarning, SilentForTensorsMadeFromPerBlockPointers) {
    const std::string file = "tests/e2e/programs/ptr_table.py";
    std::ifstream in(std::string(TS_SOURCE_DIR) + "/" + file);
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_FALSE(text.str().empty());
    EXPECT_TRUE(warnings(text.str()).empty());
}

}  // namespace
