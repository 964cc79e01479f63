// Constructs real TileLang kernels use (issue 8, the corpus of ../shared/tilelang-corpus), each
// in a program of our own under tests/e2e/programs/: both interpreters (tile level and the
// lowered thread-level IR) against the file's float64 ref_program, and the generated CUDA
// through NVRTC for sm_80 and sm_90a.
//  - reduce_columns.py: column reductions (dim=0) of block fragments with clear=False across a
//    serial loop, and a whole 1-D reduction into a one-element fragment read as a scalar;
//  - reduce_gemm_columns.py: column sums of an mma accumulator, a reduction whose source is a
//    shared tile and one whose destination is a shared tile;
//  - fragment_replicated_read.py: fragments read inside T.Parallel at indices other than the
//    loop variables (a column vector mask[j], a transposed tile a[k, i] with a serial k).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

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
    std::string text = ts::e2e::readRepoFile(c.path);
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.params = c.params;
        opts.target = target;
        opts.recordSnapshots = false;
        ts::CompileResult r = ts::compile(c.path, text, opts);
        ASSERT_TRUE(r.ok) << diagText(r);
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

const char* kColumns = "tests/e2e/programs/reduce_columns.py";
const char* kGemmColumns = "tests/e2e/programs/reduce_gemm_columns.py";
const char* kReplicated = "tests/e2e/programs/fragment_replicated_read.py";

const Case kCases[] = {
    {kColumns, {}, "column_reductions_ragged"},
    // 256 threads over a 32 x 40 tile; 3 row tiles, the last one full.
    {kColumns, {{"M", "96"}, {"threads", "256"}}, "column_reductions_256_threads"},
    // One row per tile: the source is 1 x N, every column reduces a single value.
    {kColumns, {{"M", "5"}, {"block_M", "1"}, {"N", "24"}}, "column_reductions_single_row"},
    {kGemmColumns, {}, "accumulator_columns_shared_source_and_destination"},
    {kReplicated, {}, "replicated_reads"},
    {kReplicated, {{"N", "24"}, {"threads", "64"}}, "replicated_reads_narrow"},
};

INSTANTIATE_TEST_SUITE_P(All, CorpusConstructs, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

}  // namespace
