// Element semantics where the generated CUDA and the interpreters once disagreed (helper-112's
// differential test): tests/e2e/programs/int_width_semantics.py builds its values from the thread
// index. The interpreters match the float64 reference (they held uint32 y - 1 as -1 and uint64
// values >= 2^63 as negative); the CUDA does uint32 // and % as C's unsigned operators, T.abs of
// a uint32 as the value itself, float64 max/abs/pow/floor in double (NVRTC compiles it through
// the observer; bench/gpu_check_2026_12_06e.sh runs it on the GPU against the interpreter).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

TEST(IntWidth, UnsignedAndFloat64ValuesMatchOnBothInterpretersAndTheCudaUsesTheirTypes) {
    const char* prog = "tests/e2e/programs/int_width_semantics.py";
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile(prog, ts::e2e::readRepoFile(prog), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const size_t kernel = r.cuda.find("__global__");  // not the prelude's helpers
    auto has = [&](const std::string& s) { return r.cuda.find(s, kernel) != std::string::npos; };
    EXPECT_TRUE(has("(((static_cast<unsigned int>(tx) * 33554432) + 7) / 3)")) << r.cuda;
    EXPECT_TRUE(has("(((static_cast<unsigned int>(tx) * 33554432) + 7) % 1000)")) << r.cuda;
    EXPECT_FALSE(has("abs((static_cast<unsigned int>")) << r.cuda;
    EXPECT_TRUE(has("fmax((static_cast<double>(tx)")) << r.cuda;
    EXPECT_TRUE(has("fabs((-(static_cast<double>(tx)")) << r.cuda;
    EXPECT_TRUE(has("pow((static_cast<double>(tx) * 1e+100), 2.0)")) << r.cuda;
    EXPECT_TRUE(has("floor((static_cast<double>(tx)")) << r.cuda;
    EXPECT_FALSE(has("fmaxf(") || has("fabsf(") || has("powf(") || has("floorf(")) << r.cuda;
    ts::e2e::expectInterpretersMatchReference(r, "int_width_semantics");
}

}  // namespace
