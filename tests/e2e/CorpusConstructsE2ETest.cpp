// Constructs real TileLang kernels use (issue 8, the corpus of ../shared/tilelang-corpus), each
// in a program of our own under tests/e2e/programs/: both interpreters (tile level and the
// lowered thread-level IR) against the file's float64 ref_program, and the generated CUDA
// through NVRTC for sm_80 and sm_90a.
//  - reduce_columns.py: column reductions (dim=0) of block fragments with clear=False across a
//    serial loop, and a whole 1-D reduction into a one-element fragment read as a scalar;
//  - reduce_gemm_columns.py: column sums of an mma accumulator, a reduction whose source is a
//    shared tile and one whose destination is a shared tile;
//  - fragment_replicated_read.py: fragments read inside T.Parallel at indices other than the
//    loop variables (a column vector mask[j], a transposed tile a[k, i] with a serial k);
//  - pipelined_body_alloc.py: shared tiles allocated inside a T.Pipelined body, loaded by the
//    pipeline prologue (cp.async schedule on sm_80, TMA + mbarrier on sm_90a);
//  - fragment_scalar_let.py: a one-element fragment read through one let value both outside
//    and inside T.Parallel (placed replicated).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

struct Case {
    std::string path;  ///< relative to the repository root
    std::map<std::string, std::string> params;
    std::string label;
};

using ts::e2e::diagText;

class CorpusConstructs : public ::testing::TestWithParam<Case> {};

TEST_P(CorpusConstructs, BothInterpretersMatchFloat64Reference) {
    const Case& c = GetParam();
    std::string text = ts::e2e::readRepoFile(c.path);
    ASSERT_FALSE(text.empty()) << c.path;
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile(c.path, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, c.label);
}

TEST_P(CorpusConstructs, GeneratedCudaCompilesForSm80AndSm90a) {
    const Case& c = GetParam();
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(c.path, c.params);
}

const char* kColumns = "tests/e2e/programs/reduce_columns.py";
const char* kGemmColumns = "tests/e2e/programs/reduce_gemm_columns.py";
const char* kReplicated = "tests/e2e/programs/fragment_replicated_read.py";
const char* kBodyAlloc = "tests/e2e/programs/pipelined_body_alloc.py";
const char* kScalarLet = "tests/e2e/programs/fragment_scalar_let.py";

const Case kCases[] = {
    {kColumns, {}, "column_reductions_ragged"},
    // 256 threads over a 32 x 40 tile; 3 row tiles, the last one full.
    {kColumns, {{"M", "96"}, {"threads", "256"}}, "column_reductions_256_threads"},
    // One row per tile: the source is 1 x N, every column reduces a single value.
    {kColumns, {{"M", "5"}, {"block_M", "1"}, {"N", "24"}}, "column_reductions_single_row"},
    {kGemmColumns, {}, "accumulator_columns_shared_source_and_destination"},
    {kReplicated, {}, "replicated_reads"},
    {kReplicated, {{"N", "24"}, {"threads", "64"}}, "replicated_reads_narrow"},
    {kBodyAlloc, {}, "pipelined_body_alloc"},
    // 3 stages over 5 k-tiles, the last one ragged (K = 144 = 4.5 tiles of 32).
    {kBodyAlloc, {{"K", "144"}, {"num_stages", "3"}}, "pipelined_body_alloc_ragged_k"},
    {kScalarLet, {}, "fragment_scalar_let"},
    {kScalarLet, {{"N", "96"}, {"threads", "64"}}, "fragment_scalar_let_96"},
};

// The sm_90a schedule of the same program (TMA loads into the hoisted tiles, mbarrier waits) on
// both interpreters; the tile declarations come before the prologue in the lowered IR.
TEST(CorpusConstructsHopper, PipelinedBodyAllocationOnTheTmaSchedule) {
    std::string text = ts::e2e::readRepoFile(kBodyAlloc);
    ts::CompileOptions opts;
    opts.target = "cuda:sm_90a";
    // 64 x 64 tiles: the wgmma gemm whose loads take the TMA schedule.
    opts.params = {{"M", "128"}, {"N", "128"}, {"block_M", "64"}, {"block_N", "64"}};
    ts::CompileResult r = ts::compile(kBodyAlloc, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    auto decl = r.cuda.find("* a_s = "), load = r.cuda.find("tma_load_tile");
    ASSERT_NE(load, std::string::npos) << "expected the TMA schedule\n" << r.cuda;
    ASSERT_NE(decl, std::string::npos) << r.cuda;
    EXPECT_LT(decl, load) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "pipelined_body_alloc_sm90a");
}

INSTANTIATE_TEST_SUITE_P(All, CorpusConstructs, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

}  // namespace
