// A kernel whose whole body folds away (every store provably out of bounds) is an empty kernel,
// not a null statement after simplify-final (fuzz_pipeline finding, CI 2026-12-02): it compiles
// for both targets, NVRTC accepts it, and the lowered interpreter leaves B as it was.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/store_folds_away.py";

TEST(FoldedKernel, CompilesToAnEmptyKernelThatWritesNothing) {
    ts::CompileOptions opts;
    ts::CompileResult r = ts::compile(kProg, ts::e2e::readRepoFile(kProg), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("B["), std::string::npos) << r.cuda;  // no store left
    std::vector<double> a(256), b(256);
    for (size_t i = 0; i < a.size(); ++i) a[i] = double(i), b[i] = -1.0 - double(i);
    std::vector<ts::HostTensor> args = {ts::makeHostTensor(ts::ir::DType::Float32, {256}, a),
                                        ts::makeHostTensor(ts::ir::DType::Float32, {256}, b)};
    auto run = ts::interp::runLowered(r.lowered, args);
    ASSERT_TRUE(run.ok);
    for (size_t i = 0; i < b.size(); ++i) ASSERT_EQ(args[1].data[i], b[i]) << i;
}

TEST(FoldedKernel, NvrtcCompilesForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {}); }

}  // namespace
