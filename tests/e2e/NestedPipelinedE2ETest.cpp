// tests/e2e/programs/pipelined_nested_same_var.py (issue 14, found by fuzz_pipeline): a
// T.Pipelined nested in a T.Pipelined with the same variable name compiled to a null
// dereference in inject-pipeline (tilec and the IDE crashed). It compiles now, and the lowered
// program computes exactly what the tile-level program does.
#include <cmath>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/support/HostTensor.h"
#include "tests/e2e/E2eTestUtil.h"

TEST(NestedPipelined, CompilesAndBothInterpretersAgree) {
    const char* kProg = "tests/e2e/programs/pipelined_nested_same_var.py";
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.target = target;
        ts::CompileResult r = ts::compile(kProg, ts::e2e::readRepoFile(kProg), opts);
        ASSERT_TRUE(r.ok) << target << ts::e2e::diagText(r);
        std::vector<double> x(96 * 96);
        for (size_t i = 0; i < x.size(); ++i) x[i] = double(int(i % 7) - 3);
        auto args = [&] {
            return std::vector<ts::HostTensor>{
                ts::makeHostTensor(ts::ir::DType::Float32, {96, 96}, x),
                ts::makeHostTensor(ts::ir::DType::Float32, {96}, std::vector<double>(96, NAN)),
                ts::makeHostTensor(ts::ir::DType::Float32, {1}, std::vector<double>(1, NAN))};
        };
        auto tile = args(), lowered = args();
        ASSERT_TRUE(ts::interp::run(r.elaborated, tile).ok) << target;
        ASSERT_TRUE(ts::interp::runLowered(r.lowered, lowered).ok) << target;
        EXPECT_EQ(tile[2].data[0], 96.0);  // Cnt = M, written by warp 0
        for (size_t j = 0; j < 96; ++j) {
            ASSERT_FALSE(std::isnan(tile[1].data[j])) << j;
            EXPECT_EQ(lowered[1].data[j], tile[1].data[j]) << target << " S[" << j << "]";
        }
        EXPECT_EQ(lowered[2].data[0], 96.0);
    }
}
