// A T.serial loop whose bound passes int32 (a flat walk over a 65536 x 65536 tensor) gets a 64-bit
// loop variable in the generated code: `for (int i = 0; i < 4294967296LL; ++i)` overflowed (signed
// overflow is undefined; in practice the loop never ends on the GPU). Found by the fresh-user trial
// of 2026-12-06 (helper-108). Loops within int32 keep `int`.
#include <gtest/gtest.h>

#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kFlat = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def flat(M=65536, N=65536):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), S: T.Tensor((1,), "float32")):
        with T.Kernel(1, threads=1) as bx:
            acc = T.alloc_local((1,), "float32")
            acc[0] = 0.0
            for i in T.serial(M * N):
                acc[0] = acc[0] + A[i // N, i % N]
            S[0] = acc[0]

    return main
)";

TEST(WideLoop, ABoundPastInt32GetsA64BitLoopVariable) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.target = target;
        ts::CompileResult wide = ts::compile("flat.py", kFlat, opts);
        ASSERT_TRUE(wide.ok) << ts::e2e::diagText(wide);
        EXPECT_NE(wide.cuda.find("for (long long i = 0; i < 4294967296LL; ++i)"), std::string::npos) << wide.cuda;
        opts.params = {{"M", "64"}, {"N", "64"}};
        ts::CompileResult small = ts::compile("flat.py", kFlat, opts);
        ASSERT_TRUE(small.ok) << ts::e2e::diagText(small);
        EXPECT_NE(small.cuda.find("for (int i = 0; i < 4096; ++i)"), std::string::npos) << small.cuda;
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90aText("flat.py", kFlat, {});
}

// A 1-D index of a flat view of such a tensor is the user's own expression: computed in 64 bits
// from its leaves (`i * 65536` overflowed in 32 before; helper-109), not widened after the fact.
const char* kFlatView = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def wide_view(M=65536, N=65536):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), S: T.Tensor((1,), "float32")):
        with T.Kernel(1, threads=1) as bx:
            Af = T.view(A, (M * N,))
            acc = T.alloc_local((1,), "float32")
            acc[0] = 0.0
            for i in T.serial(M):
                acc[0] = acc[0] + Af[i * N + 5]
            Af[bx * N + 7 + (M - 1) * N] = T.cast(acc[0], "float16")
            S[0] = acc[0]

    return main
)";

TEST(WideLoop, AFlatIndexIntoATensorPastInt32IsComputedIn64Bits) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.target = target;
        ts::CompileResult r = ts::compile("wide_view.py", kFlatView, opts);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        EXPECT_NE(r.cuda.find("A[((static_cast<long long>(i) * 65536LL) + 5LL)]"), std::string::npos) << r.cuda;
        EXPECT_NE(r.cuda.find("A[((static_cast<long long>(bx) * 65536LL) + 4294901767LL)] ="), std::string::npos) << r.cuda;
        opts.params = {{"M", "64"}, {"N", "64"}};
        ts::CompileResult small = ts::compile("wide_view.py", kFlatView, opts);
        ASSERT_TRUE(small.ok) << ts::e2e::diagText(small);
        EXPECT_EQ(small.cuda.find("long long", small.cuda.find("__global__")), std::string::npos) << small.cuda;  // ordinary tensors keep 32-bit indices
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90aText("wide_view.py", kFlatView, {});
}

}  // namespace
