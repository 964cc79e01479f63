// A T.Pipelined loop inside a warp role (the corpus' deepseek_mhc/example_mhc_pre.py pattern:
// `if tx < 32: ... else: for k in T.Pipelined(...)`): the cp.async schedule's block barriers
// become the role's named barrier (bar.sync 1 + first warp, role threads), which the other
// role never reaches. Before, inject-pipeline left __syncthreads() there and the verifier
// stopped the compile with an internal error. Both interpreters against float64 at ragged and
// single-trip sizes, and NVRTC for sm_80 and sm_90a.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/role_pipelined.py";

ts::CompileResult compileProg(const char* target, std::map<std::string, std::string> params) {
    ts::CompileOptions opts;
    opts.params = std::move(params);
    opts.target = target;
    return ts::compile(kProg, ts::e2e::readRepoFile(kProg), opts);
}

TEST(RolePipelined, PipelineBarriersAreTheRolesNamedBarrier) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileProg(target, {});
        ASSERT_TRUE(r.ok) << target << "\n" << ts::e2e::diagText(r);
        // Role of threads 32..127: named barrier id 1 + 32/32 = 2 over 96 threads; no block barrier
        // after the role split.
        EXPECT_NE(r.cuda.find("\"r\"((int)(2)), \"r\"((int)(96))"), std::string::npos) << r.cuda;
        const size_t split = r.cuda.find("if ((tx < 32))");
        ASSERT_NE(split, std::string::npos) << r.cuda;
        EXPECT_EQ(r.cuda.find("__syncthreads()", split), std::string::npos) << r.cuda;
    }
}

TEST(RolePipelined, BothInterpretersMatchFloat64) {
    for (auto params : std::vector<std::map<std::string, std::string>>{
             {}, {{"M", "80"}}, {{"M", "32"}}, {{"M", "130"}, {"stages", "3"}}}) {
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult r = compileProg(target, params);
            ASSERT_TRUE(r.ok) << target << "\n" << ts::e2e::diagText(r);
            ts::e2e::expectInterpretersMatchReference(r, std::string(target) + " M=" + (params.count("M") ? params["M"] : "96"));
        }
    }
}

TEST(RolePipelined, NvrtcCompilesForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {{"M", "80"}}); }

// On sm_90a a pipelined gemm takes the TMA + mbarrier schedule, whose elected thread is outside a
// warp role that does not start at thread 0: refused at the loop (was: compiled, and both
// interpreters passed, while the GPU would wait forever); a wgmma gemm in a role that is not a
// whole, aligned warpgroup is refused at the gemm.
const char* kRoleTma = R"(import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def role_tma(M=64, N=64, K=128, bk=32, split=128, threads=256):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            if T.get_thread_binding() < split:
                pass
            else:
                a = T.alloc_shared((M, bk), "float16")
                b = T.alloc_shared((bk, N), "float16")
                c = T.alloc_fragment((M, N), "float32")
                T.clear(c)
                for k in T.Pipelined(K // bk, num_stages=3):
                    T.copy(A[0, k * bk], a)
                    T.copy(B[k * bk, 0], b)
                    T.gemm(a, b, c)
                T.copy(c, C)

    return main
)";

TEST(RolePipelined, TmaPipelineInsideAWarpRoleIsRefusedOnSm90a) {
    struct Case {
        const char *split, *threads, *last;
        bool aligned;
    };
    for (Case c : {Case{"128", "256", "255", true}, Case{"32", "160", "159", false}}) {
        ts::CompileOptions opts;
        opts.target = "cuda:sm_90a";
        opts.params = {{"split", c.split}, {"threads", c.threads}};
        ts::CompileResult r = ts::compile("role_tma.py", kRoleTma, opts);
        ASSERT_FALSE(r.ok) << c.split << "\n" << r.cuda;
        const std::string text = ts::e2e::diagText(r);
        EXPECT_NE(text.find("role_tma.py:17:17: error: T.Pipelined under the condition on the thread index that selects threads " +
                            std::string(c.split) + ".." +
                            c.last + " takes the sm_90a TMA + mbarrier schedule"),
                  std::string::npos)
            << text;
        EXPECT_EQ(text.find("internal"), std::string::npos) << text;
        EXPECT_EQ(text.find("role_tma.py:20:21: error: T.gemm on wgmma under the condition on the thread index that selects threads 32..159: "
                            "wgmma needs whole warpgroups") == std::string::npos, c.aligned) << text;
    }
}

}  // namespace
