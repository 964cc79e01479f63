// Vectorized global accesses (compiler/codegen/VectorAccess.h, issue 10): RMSNorm, softmax and a
// column-offset copy at row lengths that are multiples of 8, ragged (1000, 1001) and at offsets
// that are not multiples of the vector width, in fp16/bf16/fp32. Each case runs on both
// interpreters (the lowered IR is unchanged by the widening) against float64, compiles with
// NVRTC for sm_80 and sm_90a, and its generated CUDA shows exactly the access widths the layout
// and the alignment allow: 16-byte ts_vec loads/stores where provable, none where not; likewise
// vector float atomics (ts::atomic_add_v2, and the opt-in lane-pair ts::atomic_add_pair_v4) from fragments.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/ScopedEnv.h"

#include <optional>

namespace {

struct Case {
    std::string file;  ///< relative to the repository root
    std::map<std::string, std::string> params;
    std::string label;
    std::vector<std::string> present;  ///< substrings the generated CUDA must contain
    std::vector<std::string> absent;   ///< and must not
    const char* vectorAtomics = nullptr;  ///< TILESCOPE_VECTOR_ATOMICS for this case (null: unset)
};

ts::CompileResult compileCase(const Case& c, const std::string& target) {
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = target;
    return ts::compile(c.file, ts::e2e::readRepoFile(c.file), opts);
}

class VectorAccess : public ::testing::TestWithParam<Case> {};

TEST_P(VectorAccess, BothInterpretersMatchFloat64Reference) {
    const Case& c = GetParam();
    ts::CompileResult r = compileCase(c, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, c.label);
}

void expectWidthsAndNvrtc(const Case& c) {
    std::optional<ts::e2e::ScopedEnv> atomics;
    if (c.vectorAtomics) atomics.emplace("TILESCOPE_VECTOR_ATOMICS", c.vectorAtomics);
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileCase(c, target);
        ASSERT_TRUE(r.ok) << target << "\n" << ts::e2e::diagText(r);
        for (auto& s : c.present) EXPECT_NE(r.cuda.find(s), std::string::npos) << target << ": no '" << s << "' in\n" << r.cuda;
        for (auto& s : c.absent) EXPECT_EQ(r.cuda.find(s), std::string::npos) << target << ": '" << s << "' in\n" << r.cuda;
        if (!ts::rt::nvrtcAvailable()) continue;
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

TEST_P(VectorAccess, EmitsTheProvableWidthAndCompilesForSm80AndSm90a) { expectWidthsAndNvrtc(GetParam()); }

// The atomic cases' output must start at zero (not poisoned), so they are not run through
// expectInterpretersMatchReference: the widening leaves the IR unchanged, and SplitK in
// SymbolicAtomicE2ETest.cpp runs this program on both interpreters against float64.
class VectorAtomic : public ::testing::TestWithParam<Case> {};
TEST_P(VectorAtomic, EmitsVectorAtomicsWhereProvableAndCompilesForSm80AndSm90a) { expectWidthsAndNvrtc(GetParam()); }

// A widened load/store reads `const ts_vec<T, V> ldN = ts_vec_load<T, V>(...)` and writes
// `ts_vec_store<T, V>(...)`; the prelude's helper definitions mention neither with a `<`.
const std::string kLoad = "ts_vec_load<";
const std::string kStore = "ts_vec_store<";

const Case kCases[] = {
    // bf16 rows of 4096: 8 contiguous elements per thread -> 16-byte X loads, W reads, Y stores.
    {"samples/rmsnorm.py", {{"M", "3"}, {"N", "4096"}, {"dtype", "bfloat16"}}, "rmsnorm_bf16_4096",
     {"ts_vec_load<ts::bfloat16, 8>(&X[", "ts_vec_load<ts::bfloat16, 8>(&W[",
      "ts_vec_store<ts::bfloat16, 8>(&Y["},
     {}},
    // N = 1000: 4 per thread (8 bytes), the padded tail's guard is uniform per vector.
    {"samples/rmsnorm.py", {{"M", "5"}, {"N", "1000"}}, "rmsnorm_fp16_1000", {"ts_vec_load<ts::half, 4>(&X["}, {}},
    // N = 1001: one element per thread, nothing provably contiguous -> scalar only.
    {"samples/rmsnorm.py", {{"M", "5"}, {"N", "1001"}, {"dtype", "bfloat16"}}, "rmsnorm_bf16_1001", {}, {kLoad, kStore}},
    // Two rows per block with a ragged last block: the row bound is a Select around the load,
    // constant over each 8-wide group -> the 16-byte load sits under it.
    {"samples/rmsnorm.py", {{"M", "5"}, {"N", "1040"}, {"block_M", "2"}, {"threads", "64"}, {"dtype", "bfloat16"}},
     "rmsnorm_bf16_2rows_ragged_block", {"ld{};", "ts_vec_load<ts::bfloat16, 8>(&X["}, {}},
    // 2-D tiles, ragged both ways (100 x 1000 in 32 x 128 tiles): guarded 16-byte A/B loads.
    {"samples/add.py", {{"M", "100"}, {"N", "1000"}}, "add_fp32_ragged",
     {"ts_vec_load<float, 4>(&A[", "ts_vec_load<float, 4>(&B["}, {}},
    {"samples/add.py", {{"M", "100"}, {"N", "1001"}}, "add_fp32_1001", {}, {kLoad, kStore}},
    {"samples/softmax.py", {{"M", "3"}, {"N", "8192"}}, "softmax_fp32_8192",
     {"ts_vec_load<float, 4>(&X[", "ts_vec_store<float, 4>(&Y["}, {}},
    // N = 1000 over 256 threads: 2 per thread keeps every thread busy -> 8-byte accesses.
    {"samples/softmax.py", {{"M", "4"}, {"N", "1000"}}, "softmax_fp32_1000", {"ts_vec_load<float, 2>(&X["}, {"ts_vec<float, 4>"}},
    {"samples/softmax.py", {{"M", "4"}, {"N", "1001"}, {"dtype", "float16"}}, "softmax_fp16_1001", {}, {kLoad, kStore}},
    // Aligned slice: row stride N + 16 and offset 0 are multiples of 8 -> 16-byte everywhere.
    {"tests/e2e/programs/vec_offset_copy.py", {{"N", "1024"}, {"off", "0"}}, "offset_0_fp16",
     {"ts_vec_load<ts::half, 8>(&X[", "ts_vec_load<ts::half, 8>(&W[",
      "ts_vec_store<ts::half, 8>(&Y["},
     {}},
    // Offset 3: the X and W reads are misaligned for every width -> scalar; Y (offset 0) still 16-byte.
    {"tests/e2e/programs/vec_offset_copy.py", {{"N", "1024"}, {"off", "3"}}, "offset_3_fp16",
     {"ts_vec_store<ts::half, 8>(&Y["}, {kLoad}},
    // Offset 4 in fp16: 8-byte aligned only -> 4-wide reads, never 16-byte ones.
    {"tests/e2e/programs/vec_offset_copy.py", {{"N", "1024"}, {"off", "4"}}, "offset_4_fp16",
     {"ts_vec_load<ts::half, 4>(&X["}, {"ts_vec_load<ts::half, 8>(&X["}},
    {"tests/e2e/programs/vec_offset_copy.py", {{"N", "1001"}, {"off", "5"}, {"dtype", "bfloat16"}}, "offset_5_bf16_1001",
     {}, {kLoad, kStore}},
    {"tests/e2e/programs/vec_offset_copy.py", {{"N", "512"}, {"off", "8"}, {"dtype", "float32"}}, "offset_8_fp32",
     {"ts_vec_load<float, 4>(&X["}, {}},
};

INSTANTIATE_TEST_SUITE_P(All, VectorAccess, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

const Case kAtomicCases[] = {
    // Fragment -> global float atomics (split-K partial tiles; attention backward's dQ): an mma
    // accumulator holds column pairs, so by default each pair is one red.global.add.v2.f32
    // (ts::atomic_add_v2; VectorAccess.h says why v2 is the default).
    {"tests/e2e/programs/splitk_gemm.py", {{"N", "64"}}, "splitk_atomic_v2",
     {"ts::atomic_add_v2(&C["}, {"atomic_add_pair_v4", "ts::atomic_add_v4("}},
    // Opt-in (TILESCOPE_VECTOR_ATOMICS=4): lane ^ 1 holds the neighbouring pair, so each lane
    // swaps one pair with its partner and issues one red.global.add.v4.f32 per 4 elements
    // (ts::atomic_add_pair_v4, VectorAccess.h planPairAtomic), which also takes a misaligned base
    // pointer (four scalar atomics): no second, scalar copy of the loop.
    {"tests/e2e/programs/splitk_gemm.py", {{"N", "64"}}, "splitk_atomic_pairs",
     {"ts::atomic_add_pair_v4(&C["}, {"ts::atomic_add_v2(", "ts::atomic_add_v4(", "ts::atomic_add(&C["}, "4"},
    // The same inside T.Parallel (TileLang's dQ form): the atomic is per element there too.
    {"tests/e2e/programs/splitk_gemm.py", {{"N", "64"}, {"mode", "'parallel'"}}, "splitk_atomic_parallel",
     {"ts::atomic_add_pair_v4(&C["}, {}, "4"},
    {"tests/e2e/programs/splitk_gemm.py", {{"N", "64"}, {"mode", "'parallel'"}}, "splitk_atomic_parallel_v2",
     {"ts::atomic_add_v2(&C["}, {"atomic_add_pair_v4"}},
    // N = 66: rows start at even elements that are not all multiples of 4 -> the lane pairs'
    // four elements are not 16-byte aligned; the v2 form stays (one red.v2 per pair).
    {"tests/e2e/programs/splitk_gemm.py", {{"N", "66"}}, "splitk_atomic_rows_not_4_aligned",
     {"ts::atomic_add_v2(&C[", "ts::atomic_add(&C["}, {"atomic_add_pair_v4", "ts::atomic_add_v4("}},
    // N = 63: row starts are odd elements, a pair is not 8-byte aligned -> scalar atomics only.
    {"tests/e2e/programs/splitk_gemm.py", {{"N", "63"}}, "splitk_atomic_odd_rows", {"ts::atomic_add(&C["}, {"atomic_add_v"}},
    // fp16 output: no vector half atomic is emitted (ts::atomic_add per element).
    {"tests/e2e/programs/splitk_gemm.py", {{"N", "64"}, {"out_dtype", "'float16'"}}, "splitk_atomic_fp16_out", {}, {"atomic_add_v"}},
};

INSTANTIATE_TEST_SUITE_P(All, VectorAtomic, ::testing::ValuesIn(kAtomicCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

}  // namespace
