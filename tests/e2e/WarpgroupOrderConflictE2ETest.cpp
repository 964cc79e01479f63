// The warpgroup order (wgmma's D fragment for the mma_c accumulator, compiler/analysis/Layouts.h
// WarpPartition::byWarpgroup) when some consumer cannot take it: infer-layouts keeps only the
// fragment whose order conflicted off it (InferLayouts.cpp inferLayouts), so another accumulator of
// the same kernel keeps wgmma; the gemm note names the op that needed the other layout. Before
// (5d19bea) any conflict solved the whole kernel without the order, and every such gemm of the
// kernel went to mma.sync with a note blaming "another op on the same fragment".
// Expected placements derived here:
//  - acc1 128 x 128 on 128 threads, FullRow: one warpgroup, two m64 tiles -> wgmma_gemm_ss<128, 128,
//    64, 1, ...>, layout params {128, 128, 4, 1, 1}; acc2 has an fp16 and a float32 gemm -> the plain
//    grid {128, 128, 4, 1} (32 rows per warp) and no wgmma for either of its gemms;
//  - own_tiles=0: acc2's fp16 gemm reads acc1's shared tiles, which can only have one layout: the
//    mma.sync one, so acc1's gemm stays on mma.sync too and its note says which gemm shares them;
//  - a T.Parallel read of rows i + 32 (two 16-row strips apart) on 256 threads, FullCol: the order's
//    4 x 2 warpgroup grid puts those rows in other warps; the plain 1 x 8 grid keeps every row of a
//    column in one warp, so the gemm keeps mma.sync and the note names the read.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kFile = "tests/e2e/programs/warpgroup_order_independent.py";

ts::CompileResult compileWith(const char* file, const std::map<std::string, std::string>& p) {
    return ts::e2e::compileRepoFile(file, p);
}

std::vector<std::string> notesAt(const ts::CompileResult& r, uint32_t line) {
    std::vector<std::string> out;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.span.line == line) out.push_back(d.message);
    return out;
}

bool anyContains(const std::vector<std::string>& v, const std::string& part) {
    for (auto& s : v)
        if (s.find(part) != std::string::npos) return true;
    return false;
}

std::vector<int64_t> paramsOf(const ts::CompileResult& r, const std::string& buf) {
    auto it = r.lowered->layouts.find(buf);
    return it == r.lowered->layouts.end() ? std::vector<int64_t>{} : it->second->familyParams;
}

TEST(WarpgroupOrderConflict, OnlyTheConflictingAccumulatorLeavesTheOrder) {
    ts::CompileResult r = compileWith(kFile, {});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(paramsOf(r, "acc1"), (std::vector<int64_t>{128, 128, 4, 1, 1}));
    EXPECT_EQ(paramsOf(r, "acc2"), (std::vector<int64_t>{128, 128, 4, 1}));
    // One wgmma (acc1's); acc2's fp16 gemm (line 41) and float32 gemm (line 44) run mma.sync.
    // T.clear(acc1) right before its gemm: folded into it (the wgmma's CLEAR argument).
    const std::string wg = "ts::wgmma_gemm_ss<128, 128, 64, 1, false, false, 0, ts::half, 1, 0, 0, true>(";
    const size_t at = r.cuda.find(wg);
    EXPECT_NE(at, std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("wgmma_gemm", at + wg.size()), std::string::npos) << r.cuda;
    EXPECT_TRUE(anyContains(notesAt(r, 30), "T.gemm uses wgmma on the fragment layouts")) << ts::e2e::diagText(r);
    EXPECT_TRUE(anyContains(notesAt(r, 41), "both keep mma.sync (here: T.gemm at line 44 needs mma.sync m16n8k16 accumulator, warps 4x1"))
        << ts::e2e::diagText(r);
    // The float32 gemm's own reason is its dtype, not the order; both wgmma paths decline for it,
    // so it is said once (it read "...: wgmma is used for ...; and not wgmma on the sm_80 fragments:
    // wgmma is used for ...").
    EXPECT_TRUE(anyContains(notesAt(r, 44), "on sm_90a: wgmma is used for float16/bfloat16 operands with a float32 accumulator"))
        << ts::e2e::diagText(r);
    EXPECT_FALSE(anyContains(notesAt(r, 44), "not wgmma on the sm_80 fragments")) << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "acc1 wgmma, acc2 mma.sync"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {});
}

TEST(WarpgroupOrderConflict, SharedOperandTilesKeepTheirCoGemmOnMmaSync) {
    const std::map<std::string, std::string> p{{"own_tiles", "0"}};
    ts::CompileResult r = compileWith(kFile, p);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("wgmma_gemm"), std::string::npos) << r.cuda;
    EXPECT_TRUE(anyContains(notesAt(r, 30), "a shared operand tile is also read by the T.gemm at line 43, which cannot take wgmma"))
        << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "shared tiles, all mma.sync"));
}

TEST(WarpgroupOrderConflict, NoteNamesTheReadThatNeedsThePlainGrid) {
    const std::string src = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def halves(N=128, K=64):
    @T.prim_func
    def main(A: T.Tensor((128, K), "float16"), B: T.Tensor((K, N), "float16"), Y: T.Tensor((128, N), "float32")):
        with T.Kernel(1, threads=256) as bx:
            a = T.alloc_shared((128, K), "float16")
            b = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((128, N), "float32")
            part = T.alloc_shared((32, N), "float32")
            T.copy(A, a)
            T.copy(B, b)
            T.clear(acc)
            T.gemm(a, b, acc, policy=T.GemmWarpPolicy.FullCol)
            for s in range(4):
                for i, j in T.Parallel(128, N):
                    if i < 32:
                        part[i, j] = acc[i + s * 32, j] * 2.0
                for i, j in T.Parallel(32, N):
                    Y[s * 32 + i, j] = part[i, j]

    return main


def ref_program(A, B):
    return 2.0 * (A.double() @ B.double()).float()
)";
    ts::CompileOptions o;
    o.target = "cuda:sm_90a";
    o.recordSnapshots = false;
    ts::CompileResult r = ts::compile("halves.py", src, o);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(paramsOf(r, "acc"), (std::vector<int64_t>{128, 128, 1, 8}));
    EXPECT_TRUE(anyContains(notesAt(r, 17), "both keep mma.sync (here: the read at line 21")) << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "rows i + 32 s"));
}

}  // namespace
