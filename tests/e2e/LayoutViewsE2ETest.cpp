// Fragments seen through other layouts and shapes (issue 8, the corpus's gated-delta-rule, KDA,
// Mamba, DeepSeek V3.2 indexer and mHC kernels), each in a program of our own under
// tests/e2e/programs/: both interpreters (tile level and the lowered thread-level IR) against
// the file's float64 ref_program, for sm_80 and sm_90a (the wgmma accumulator layouts), and the
// generated CUDA through NVRTC for both targets.
//  - layout_conversion_nest.py: T.Parallel nests over fragments placed in other layouts (two
//    gemm accumulators of different warp grids, row maxima of one read in a nest of the other,
//    an accumulator read at other indices, permuted indices): infer-layouts works on converted
//    copies (T.copy through a shared tile) or follows the permutation;
//  - fragment_view_3d.py: T.reshape of a gemm accumulator (the view shares its registers), 3-D
//    T.Parallel nests, reductions of rank-3 fragments over the last and the middle dim;
//  - gemm_fragment_b.py: a register fragment B operand (plain and transposed), staged through
//    a shared tile;
//  - gemm_shared_slice.py: operands that are column slices of one shared tile, read in place
//    (GemmSharedViewE2ETest.cpp has the offsets, dtypes and the wgmma path).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

struct Case {
    std::string path;  ///< relative to the repository root
    std::map<std::string, std::string> params;
    std::string target;
    std::string label;
};

using ts::e2e::diagText;

class LayoutViews : public ::testing::TestWithParam<Case> {};

TEST_P(LayoutViews, BothInterpretersMatchFloat64Reference) {
    const Case& c = GetParam();
    std::string text = ts::e2e::readRepoFile(c.path);
    ASSERT_FALSE(text.empty()) << c.path;
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = c.target;
    ts::CompileResult r = ts::compile(c.path, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, c.label);
}

TEST_P(LayoutViews, GeneratedCudaCompilesForSm80AndSm90a) {
    const Case& c = GetParam();
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(c.path, c.params);
}

const char* kConvert = "tests/e2e/programs/layout_conversion_nest.py";
const char* kView = "tests/e2e/programs/fragment_view_3d.py";
const char* kFragB = "tests/e2e/programs/gemm_fragment_b.py";
const char* kSlice = "tests/e2e/programs/gemm_shared_slice.py";

const Case kCases[] = {
    {kConvert, {}, "cuda:sm_80", "conversions_sm80"},
    {kConvert, {}, "cuda:sm_90a", "conversions_sm90a"},
    // Three k tiles (NVRTC of this program is the slow one: ~20 s of CPU per target, the
    // 64 x 64 row maxima reduced into every thread's replicated copy; so only one variant).
    {kConvert, {{"K", "96"}}, "cuda:sm_80", "conversions_three_k_tiles"},
    {kView, {}, "cuda:sm_80", "view_3d_sm80"},
    {kView, {}, "cuda:sm_90a", "view_3d_sm90a"},
    // A 128 x 128 float32 accumulator view (64 KB): its reduction is staged in two chunks of rows.
    {kView, {{"N", "128"}, {"Q", "2"}, {"H", "64"}}, "cuda:sm_80", "view_3d_chunked_reduction"},
    // Rows of the rank-3 fragment padded over 256 threads (Tt*S = 40 rows, S = 5 columns).
    {kFragB, {}, "cuda:sm_80", "gemm_fragment_b_sm80"},
    {kFragB, {}, "cuda:sm_90a", "gemm_fragment_b_sm90a"},
    {kSlice, {}, "cuda:sm_80", "gemm_shared_slice_sm80"},
    {kSlice, {}, "cuda:sm_90a", "gemm_shared_slice_sm90a"},
    {kView, {{"threads", "256"}, {"Tt", "8"}, {"S", "5"}, {"Q", "2"}, {"H", "32"}}, "cuda:sm_80", "view_3d_padded"},
};

INSTANTIATE_TEST_SUITE_P(All, LayoutViews, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

}  // namespace
