// The per-thread-array estimate behind compile()'s register warning (analysis/LocalRegisters.h):
// tests/e2e/programs/role_local_arrays.py holds two 160-float arrays and a scalar. With roles=True
// each array is used by one warp role (tx < 128 / else), so a thread holds 160 + 1 floats: no
// warning (ptxas -v: 179 registers, no spills, CUDA 13). With roles=False every thread uses both:
// 2 * 160 + 1 = 321 > 255, warned. Both variants match float64 on both interpreters.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kFile = "tests/e2e/programs/role_local_arrays.py";

ts::CompileResult compileRoles(const char* roles) {
    ts::CompileOptions o;
    o.params = {{"roles", roles}};
    o.target = "cuda:sm_90a";
    o.recordSnapshots = false;
    return ts::compile(kFile, ts::e2e::readRepoFile(kFile), o);
}

bool registerWarning(const ts::CompileResult& r, const std::string& part) {
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Warning && d.message.find("per-thread arrays need") != std::string::npos &&
            d.message.find(part) != std::string::npos)
            return true;
    return false;
}

TEST(RoleLocalArrays, ArraysOfDisjointWarpRolesAreNotSummed) {
    ts::CompileResult roles = compileRoles("True");
    ASSERT_TRUE(roles.ok) << ts::e2e::diagText(roles);
    EXPECT_FALSE(registerWarning(roles, "")) << ts::e2e::diagText(roles);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(roles, "roles"));

    ts::CompileResult shared = compileRoles("False");
    ASSERT_TRUE(shared.ok) << ts::e2e::diagText(shared);
    EXPECT_TRUE(registerWarning(shared, "need 321 32-bit registers per thread (largest: 'a', 160)")) << ts::e2e::diagText(shared);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(shared, "no roles"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"roles", "True"}});
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"roles", "False"}});
}

// A fragment every thread holds whole: a T.Parallel over rows reading each row in a T.serial loop
// replicates the (16, 24) tile over the threads (384 registers at 64 threads, and at 256), so the
// hint says more threads do not help (helper-130 #6); the role-split kernel above keeps the usual one.
TEST(RoleLocalArrays, ReplicatedFragmentHintNamesTheCause) {
    const char* src =
        "import tilelang\nimport tilelang.language as T\n\n\n@tilelang.jit(out_idx=[-1])\n"
        "def rowdot(M=16, N=24, threads=64):\n    @T.prim_func\n"
        "    def main(X: T.Tensor((M, N), \"float32\"), W: T.Tensor((N,), \"float32\"), Y: T.Tensor((M,), \"float32\")):\n"
        "        with T.Kernel(1, threads=threads) as bx:\n"
        "            x = T.alloc_fragment((M, N), \"float32\")\n            w = T.alloc_shared((N,), \"float32\")\n"
        "            y = T.alloc_fragment((M,), \"float32\")\n            T.copy(X[0, 0], x)\n            T.copy(W[0], w)\n"
        "            for i in T.Parallel(M):\n                y[i] = 0.0\n                for k in T.serial(N):\n"
        "                    y[i] += x[i, k] * w[k]\n            T.copy(y, Y[0])\n\n    return main\n";
    for (const char* threads : {"64", "256"}) {
        ts::CompileOptions o;
        o.params = {{"threads", threads}};
        o.target = "cuda:sm_80";
        o.recordSnapshots = false;
        ts::CompileResult r = ts::compile("rowdot.py", src, o);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        bool found = false;
        for (auto& d : r.diagnostics)
            if (d.severity == ts::Severity::Warning && d.message.find("(largest: 'x', 384)") != std::string::npos) {
                found = true;
                EXPECT_EQ(d.hint.rfind("every thread holds all of 'x' (384 elements", 0), 0u) << d.hint;
            }
        EXPECT_TRUE(found) << ts::e2e::diagText(r);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90aText("rowdot.py", src, {});
    ts::CompileResult shared = compileRoles("False");
    for (auto& d : shared.diagnostics)
        if (d.severity == ts::Severity::Warning && d.message.find("per-thread arrays need") != std::string::npos)
            EXPECT_EQ(d.hint, "use smaller tiles or more threads per block");
}

}  // namespace
