// Kernels defined inside test functions (Module.h KernelEntry::enclosing), the way TileLang's own
// tests write them (language/eager_jit, ldst, issue_1719: before 2026-12-07 "no kernel found in
// this file"): tests/e2e/programs/nested_test_kernels.py defines `scale` in two tests. Each is
// listed as test_function.kernel, takes its T.const sizes from the tensors its test passes
// (including the subscript form `T.Tensor[[M, N], dtype]`), sees the test's simple assignments
// before its def (`factor`), matches its float64 reference on both interpreters, and compiles
// with NVRTC for sm_80 and sm_90a under the def's own name (a dot is no C identifier: the first
// GPU check of this feature failed on `test_scale.scale_kernel`).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

const char* kFile = "tests/e2e/programs/nested_test_kernels.py";

}  // namespace

TEST(NestedTestKernels, ListedUnderTheirTestAndSelectable) {
    std::vector<ts::Diagnostic> diags;
    auto ks = ts::listKernels(kFile, ts::e2e::readRepoFile(kFile), &diags);
    ASSERT_EQ(ks.size(), 2u);
    EXPECT_EQ(ks[0].name, "test_scale.scale");
    EXPECT_EQ(ks[1].name, "test_scale_half.scale");
    EXPECT_EQ(ks[0].pattern, "eager");
    // The bare name names both: an error that lists them.
    ts::CompileResult amb = ts::e2e::compileRepoFile(kFile, {}, "cuda:sm_80", "scale");
    ASSERT_FALSE(amb.ok);
    EXPECT_NE(ts::e2e::diagText(amb).find("kernel name 'scale' is ambiguous: it is a kernel of test_scale.scale, "
                                          "test_scale_half.scale"),
              std::string::npos)
        << ts::e2e::diagText(amb);
}

TEST(NestedTestKernels, SizesFromTheTestsTensorsAndTheTestsLocals) {
    struct Case {
        const char* kernel;
        const char* ref;
        std::map<std::string, std::string> params;
        unsigned grid;
    } cases[] = {{"test_scale.scale", "ref_scale", {}, 4u},              // 256 rows / block 64
                 {"test_scale_half.scale", "ref_half", {}, 8u},          // 1000 of 128 per block
                 {"test_scale_half.scale", "ref_half", {{"N", "4097"}}, 33u}};
    for (const Case& c : cases) {
        ts::CompileResult r = ts::e2e::compileRepoFile(kFile, c.params, "cuda:sm_80", c.kernel);
        ASSERT_TRUE(r.ok) << c.kernel << "\n" << ts::e2e::diagText(r);
        EXPECT_EQ(r.kernel.grid[0], c.grid) << c.kernel;
        EXPECT_EQ(r.kernel.name, "scale_kernel");
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, c.kernel, c.ref));
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult t = ts::e2e::compileRepoFile(kFile, c.params, target, c.kernel);
            ASSERT_TRUE(t.ok) << c.kernel << " " << target << "\n" << ts::e2e::diagText(t);
            if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
            auto nv = ts::rt::compileCuda(t.cuda, ts::parseTarget(target)->arch(), {}, true);
            EXPECT_TRUE(nv.ok) << c.kernel << " " << target << "\n" << nv.log;
        }
    }
    // The note names the test the sizes came from.
    ts::CompileResult r = ts::e2e::compileRepoFile(kFile, {}, "cuda:sm_80", "test_scale.scale");
    EXPECT_TRUE(ts::e2e::hasNote(r, "'test_scale.scale' takes M=256, N=32 from this call (test_scale())"))
        << ts::e2e::diagText(r);
}

// Two kernels of one test (tests/e2e/programs/nested_chain.py, run as a chain in CliChainTest):
// each matches its own float64 reference and compiles with NVRTC under the def's name.
TEST(NestedTestKernels, TwoKernelsOfOneTestCompileForBothTargets) {
    const char* file = "tests/e2e/programs/nested_chain.py";
    for (const char* kernel : {"test_affine.double", "test_affine.shift"}) {
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult t = ts::e2e::compileRepoFile(file, {}, target, kernel);
            ASSERT_TRUE(t.ok) << kernel << " " << target << "\n" << ts::e2e::diagText(t);
            EXPECT_EQ(t.kernel.grid[0], 8u) << kernel;  // N = 1000 from the test's tensors, 128 per block
            if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
            auto nv = ts::rt::compileCuda(t.cuda, ts::parseTarget(target)->arch(), {}, true);
            EXPECT_TRUE(nv.ok) << kernel << " " << target << "\n" << nv.log;
        }
    }
}

// A jit factory defined in a test is test_x.k with its own parameters (helper-125 #12: the test
// itself was compiled as the factory, named test_x, and `--param N` was "unknown").
TEST(NestedTestKernels, FactoriesDefinedInATestTakeTheirOwnParameters) {
    const char* file = "tests/e2e/programs/nested_test_factories.py";
    std::vector<ts::Diagnostic> diags;
    auto ks = ts::listKernels(file, ts::e2e::readRepoFile(file), &diags);
    ASSERT_EQ(ks.size(), 2u);
    EXPECT_EQ(ks[0].name, "test_add.add");
    EXPECT_EQ(ks[1].name, "test_mul.mul");
    struct Case {
        const char* kernel;
        const char* ref;
        std::map<std::string, std::string> params;
        unsigned grid;
    } cases[] = {{"test_add.add", "ref_add", {}, 8u},           // N = 1000 from the test, block 128
                 {"add", "ref_add", {{"N", "4097"}}, 33u},       // the bare name, N overridden
                 {"test_mul.mul", "ref_mul", {}, 8u},           // N = 512, block 64
                 {"mul", "ref_mul", {{"block", "128"}}, 4u}};
    for (const Case& c : cases) {
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult r = ts::e2e::compileRepoFile(file, c.params, target, c.kernel);
            ASSERT_TRUE(r.ok) << c.kernel << " " << target << "\n" << ts::e2e::diagText(r);
            EXPECT_EQ(r.kernel.grid[0], c.grid) << c.kernel;
            if (std::string(target) == "cuda:sm_80")
                ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, c.kernel, c.ref));
            if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
            auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
            EXPECT_TRUE(nv.ok) << c.kernel << " " << target << "\n" << nv.log;
        }
    }
    ts::CompileResult r = ts::e2e::compileRepoFile(file, {}, "cuda:sm_80", "test_add.add");
    EXPECT_TRUE(ts::e2e::hasNote(r, "'test_add.add' takes N=1000 from this call (test_add())")) << ts::e2e::diagText(r);
}
