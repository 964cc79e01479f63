// T.clear(C) right before T.gemm(A, B, C) is one gemm with clear_accum (Simplify.cpp); on sm_90a
// the wgmma takes scale-d = 0 on its first k-step (ts::wgmma_gemm_ss's CLEAR) and no register is
// zeroed. tests/e2e/programs/clear_gemm_fold.py: S is cleared and recomputed each iteration,
// P's clear is not adjacent to its gemm (kept); both interpreters against float64 on both
// targets, NVRTC sm_80 / sm_90a, and TILESCOPE_FOLD_CLEAR_GEMM=0 keeps the pair.
#include <gtest/gtest.h>

#include <memory>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"
#include "tests/e2e/ScopedEnv.h"

namespace {
const char* kFile = "tests/e2e/programs/clear_gemm_fold.py";

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

ts::CompileResult compileWithSnapshots() {
    ts::CompileOptions o;
    o.target = "cuda:sm_90a";
    return ts::compile(kFile, ts::e2e::readRepoFile(kFile), o);
}

std::string afterSimplify(const ts::CompileResult& r) {
    for (const auto& s : r.passes)
        if (s.name == "simplify") return s.ir;
    return {};
}
}  // namespace

TEST(ClearGemmFold, AClearRightBeforeItsGemmBecomesClearAccum) {
    ts::CompileResult r = compileWithSnapshots();
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const std::string ir = afterSimplify(r);
    ASSERT_FALSE(ir.empty());
    // S's clear is gone into its gemm; P's (a loop between it and its gemm) and Acc's stay.
    EXPECT_EQ(count(ir, "clear_accum"), 1u) << ir;
    EXPECT_EQ(count(ir, "T.clear(S"), 0u) << ir;
    EXPECT_EQ(count(ir, "T.clear(P"), 1u) << ir;
    EXPECT_EQ(count(ir, "T.clear(Acc"), 1u) << ir;
    EXPECT_EQ(count(r.cuda, ", true>(&A_s[0], &B_s[0], &S[0]"), 1u) << r.cuda;
    EXPECT_EQ(count(r.cuda, ", true>("), 1u) << r.cuda;
}

TEST(ClearGemmFold, BothInterpretersMatchFloat64OnBothTargets) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {}, target);
        ASSERT_TRUE(r.ok) << target << ts::e2e::diagText(r);
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, std::string("clear_gemm_fold ") + target));
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {});
}

TEST(ClearGemmFold, TheSwitchKeepsThePair) {
    auto off = std::make_unique<ts::e2e::ScopedEnv>("TILESCOPE_FOLD_CLEAR_GEMM", "0");
    ts::CompileResult r = compileWithSnapshots();
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(count(afterSimplify(r), "clear_accum"), 0u);
    EXPECT_EQ(count(r.cuda, ", true>("), 0u) << r.cuda;
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "clear_gemm_fold, fold off"));
}

// The attention sample's score tile on sm_90a: S = Q K^T with clear_accum (no zeroing of S's 32
// registers per iteration), and P = S converted two at a time (ts::cast_pair: one
// cvt.rn.f16x2.f32 per pair; codegen/VectorAccess.h planPairCast).
TEST(ClearGemmFold, AttentionScoresNeedNoZeroingAndConvertInPairs) {
    ts::CompileResult r = ts::e2e::compileRepoFile(
        "samples/flash_attn_fwd.py",
        {{"batch", "1"}, {"heads", "16"}, {"seq_len", "4096"}, {"dim", "128"}, {"block_M", "128"}, {"block_N", "64"}, {"threads", "256"}},
        "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(count(r.cuda, "ts::wgmma_gemm_ss<128, 64, 128, 2, false, true, 0, ts::half, 1, 0, 0, true>(&Q_s[0]"), 1u) << r.cuda;
    EXPECT_EQ(count(r.cuda, "ts::cast_pair(P["), 1u) << r.cuda;
    EXPECT_EQ(count(r.cuda, "= ts::cast<ts::half>(S["), 0u) << r.cuda;
}

// `T.clear(C); T.gemm(C, B, C)`: the gemm reads the cleared C as its A operand, so the pair is
// not folded (helper-128: folded, the lowered code read C's old values as A).
TEST(ClearGemmFold, NotWhenTheGemmReadsTheClearedFragment) {
    const std::string src = "import tilelang\nimport tilelang.language as T\n"
                            "@tilelang.jit\n"
                            "def k(M=64):\n"
                            "    @T.prim_func\n"
                            "    def main(A: T.Tensor((M, M), \"float16\"), B: T.Tensor((M, M), \"float16\"), Out: T.Tensor((M, M), \"float16\")):\n"
                            "        with T.Kernel(1, threads=128) as _:\n"
                            "            B_s = T.alloc_shared((M, M), \"float16\")\n"
                            "            C = T.alloc_fragment((M, M), \"float16\")\n"
                            "            T.copy(B, B_s)\n"
                            "            T.copy(A, C)\n"
                            "            T.clear(C)\n"
                            "            T.gemm(C, B_s, C)\n"
                            "            T.copy(C, Out)\n"
                            "    return main\n"
                            "def ref_program(A, B):\n"
                            "    return A * 0\n";
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions o;
        o.target = target;
        ts::CompileResult r = ts::compile("alias.py", src, o);
        ASSERT_TRUE(r.ok) << target << ts::e2e::diagText(r);
        EXPECT_EQ(count(afterSimplify(r), "clear_accum"), 0u) << afterSimplify(r);
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, std::string("C as A and C ") + target));
    }
}
