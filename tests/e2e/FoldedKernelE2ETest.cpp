// A kernel whose whole body folds away (every store provably out of bounds) is an empty kernel,
// not a null statement after simplify-final (fuzz_pipeline finding, CI 2026-12-02): it compiles
// for both targets and NVRTC accepts it. The program still writes B[256] of a 256-element B: the
// lowered interpreter reports it as the tile-level one does (under an always-true `if`: unguarded,
// it is a compile error) (issue 14; the folded guard stays in
// the lowered IR with its ir::StoreCheck, codegen leaves it out).
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kProg = "tests/e2e/programs/store_folds_away.py";

TEST(FoldedKernel, CompilesToAnEmptyKernelAndBothInterpretersReportTheStore) {
    ts::CompileOptions opts;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile(kProg, ts::e2e::readRepoFile(kProg), opts);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("B["), std::string::npos) << r.cuda;  // no store left on the device
    EXPECT_EQ(r.cuda.find("if ("), std::string::npos) << r.cuda;  // nor the folded guard
    std::vector<double> a(256), b(256);
    for (size_t i = 0; i < a.size(); ++i) a[i] = double(i), b[i] = -1.0 - double(i);
    auto makeArgs = [&] {
        return std::vector<ts::HostTensor>{ts::makeHostTensor(ts::ir::DType::Float32, {256}, a),
                                           ts::makeHostTensor(ts::ir::DType::Float32, {256}, b)};
    };
    auto args = makeArgs();
    auto tile = ts::interp::run(r.elaborated, args);
    ASSERT_FALSE(tile.ok);
    EXPECT_EQ(tile.error->message, "out-of-bounds store B[256]: global buffer 'B' has shape (256)");
    args = makeArgs();
    auto lowered = ts::interp::runLowered(r.lowered, args);
    ASSERT_FALSE(lowered.ok);
    // The same message; the thread level adds where it ran (every thread skips the store).
    EXPECT_EQ(lowered.error->message, tile.error->message + " [block (0), thread 0]");
    // At the store (line 18, column 21), as the tile level.
    EXPECT_EQ(lowered.error->span.line, 18u);
    EXPECT_EQ(lowered.error->span.col, 21u);
    EXPECT_EQ(tile.error->span.line, 18u);
    EXPECT_EQ(tile.error->span.col, 21u);
}

TEST(FoldedKernel, NvrtcCompilesForSm80AndSm90a) { ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kProg, {}); }

}  // namespace
