// tests/e2e/programs/pipelined_nested_same_var.py (issue 14, found by fuzz_pipeline): a
// T.Pipelined nested in a T.Pipelined with the same variable name compiled to a null
// dereference in inject-pipeline (tilec and the IDE crashed), then to an outer loop that
// silently stayed serial. TileLang accepts nested pipelines (its nested-loop checker test:
// "T.Pipeline / T.Pipeline is OK"), and the inner loop variable shadows the outer one only
// inside the inner loop (TVMScript scoping). Both loops are pipelined now, and both
// interpreters compute the float64 reference exactly.
#include <cmath>
#include <string>

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
        // Each of the 3 outer iterations adds every row once through the inner loop (all 96
        // rows) and rows [32k, 32k+32) of the outer k after it: 4x the column sum in all.
        for (size_t j = 0; j < 96; ++j) {
            double colsum = 0;
            for (size_t i = 0; i < 96; ++i) colsum += x[i * 96 + j];
            EXPECT_EQ(tile[1].data[j], 4 * colsum) << target << " S[" << j << "]";
            EXPECT_EQ(lowered[1].data[j], 4 * colsum) << target << " S[" << j << "]";
        }
        EXPECT_EQ(lowered[2].data[0], 96.0);
        // Both loops have the cp.async schedule: each waits for its own tiles in its main loop
        // (num_stages=2: wait_group 0) and drains after it -- 4 waits; an outer loop left serial
        // had only the inner loop's 2. Its copy of X is asynchronous too (2 async copies x
        // prologue + main loop).
        size_t waits = 0;
        for (size_t p = r.cuda.find("cp_async_wait"); p != std::string::npos;
             p = r.cuda.find("cp_async_wait", p + 1))
            ++waits;
        EXPECT_EQ(waits, 4u) << target << "\n" << r.cuda;
    }
}

// tests/e2e/programs/pipelined_gemm_in_loop.py (helper-116): a TMA-scheduled GEMM loop inside an
// outer loop retires its in-flight wgmma before the outer loop's next trip refills the stages
// (the lowered interpreter reported the TMA write under a reading wgmma). Both outer forms, both
// interpreters against float64; on sm_90a the retire sits inside the outer loop.
TEST(NestedPipelined, TmaGemmInOuterLoopRetiresItsWgmmaBeforeTheNextTrip) {
    for (const char* outer : {"0", "1"})
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult r = ts::e2e::compileRepoFile("tests/e2e/programs/pipelined_gemm_in_loop.py", {{"outer", outer}}, target);
            ASSERT_TRUE(r.ok) << target << ts::e2e::diagText(r);
            if (std::string(target) == "cuda:sm_90a") {
                const size_t loop = r.cuda.find("for (int ko = 0; ko < 2; ++ko) {");
                const size_t gemm = r.cuda.find("ts::wgmma_gemm_ss<", loop);
                ASSERT_NE(loop, std::string::npos) << r.cuda;
                ASSERT_NE(gemm, std::string::npos) << "TMA GEMM path expected\n" << r.cuda;
                // The retire follows the inner loop, before the outer loop's closing brace.
                const size_t retire = r.cuda.find("ts::wgmma_wait<0, 32>(&Cl[0]);", gemm);
                const size_t store = r.cuda.find("C[", gemm);
                ASSERT_NE(retire, std::string::npos) << r.cuda;
                EXPECT_NE(r.cuda.find("ts::wgmma_wait<0, 32>(&Cl[0]);", retire + 1), std::string::npos)
                    << "a second wait (the epilogue's) after the outer loop\n" << r.cuda;
                EXPECT_LT(retire, store) << r.cuda;
            }
            ts::e2e::expectInterpretersMatchReference(r, std::string("pipelined_gemm_in_loop outer=") + outer + " " + target);
            // 3 inner trips end on stage 0, which the next outer trip's prologue overwrites: on
            // sm_80 (cp.async) a block barrier must come first (helper-118; the lowered
            // interpreter reported the race).
            ts::CompileResult r3 = ts::e2e::compileRepoFile("tests/e2e/programs/pipelined_gemm_in_loop.py", {{"outer", outer}, {"K", "192"}}, target);
            ASSERT_TRUE(r3.ok) << target << ts::e2e::diagText(r3);
            ts::e2e::expectInterpretersMatchReference(r3, std::string("pipelined_gemm_in_loop K=192 outer=") + outer + " " + target);
        }
}

// tests/e2e/programs/pipelined_tiles_reused_after.py (helper-117): tiles a later loop loads again
// keep the pipelined loop off the TMA schedules (NVRTC rejected the undeclared unstaged tiles);
// tests/e2e/programs/atomic_uint32_add.py: uint32 T.atomic_add is CUDA's atomicAdd. Both
// interpreters against float64, NVRTC both targets (the observer).
TEST(NestedPipelined, TilesReusedAfterTheLoopAndUint32AtomicAdd) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"})
        for (const char* prog : {"tests/e2e/programs/pipelined_tiles_reused_after.py", "tests/e2e/programs/atomic_uint32_add.py"}) {
            ts::CompileResult r = ts::e2e::compileRepoFile(prog, {}, target);
            ASSERT_TRUE(r.ok) << prog << " " << target << ts::e2e::diagText(r);
            EXPECT_EQ(r.cuda.find("As_1"), std::string::npos) << r.cuda;
            ts::e2e::expectInterpretersMatchReference(r, std::string(prog) + " " + target);
        }
}
