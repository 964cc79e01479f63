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

}  // namespace
