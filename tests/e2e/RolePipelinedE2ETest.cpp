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

}  // namespace
