// T.Pipelined(num_stages=...) must be a non-negative count (compiler/frontend/ElaborateOps.cpp):
// `--param num_stages=-1` on gemm.py was silently compiled unpipelined.
#include <gtest/gtest.h>

#include "CliTestUtil.h"
#include "compiler/Compile.h"

using namespace ts;
using namespace ts::cli::test;

TEST(PipelinedStages, NegativeNumStagesIsAnErrorAtTheArgument) {
    CompileOptions opts;
    opts.params = {{"num_stages", "-1"}};
    auto r = compile("gemm.py", sampleText("gemm.py"), opts);
    EXPECT_FALSE(r.ok);
    bool found = false;
    for (auto& d : r.diagnostics)
        if (d.severity == Severity::Error &&
            d.message == "T.Pipelined num_stages must be >= 0, got -1") {
            found = true;
            // samples/gemm.py line 25: `for k in T.Pipelined(T.ceildiv(K, block_K),
            // num_stages=...)`
            EXPECT_EQ(d.span.line, 25u);
        }
    EXPECT_TRUE(found);
}

TEST(PipelinedStages, ZeroAndOneStillCompileUnpipelined) {
    for (const char* n : {"0", "1"}) {
        CompileOptions opts;
        opts.params = {{"num_stages", n}};
        auto r = compile("gemm.py", sampleText("gemm.py"), opts);
        EXPECT_TRUE(r.ok) << n;
    }
}
