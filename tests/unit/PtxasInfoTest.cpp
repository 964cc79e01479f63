// Parsing ptxas -v output (profiler/cuda/PtxasInfo.h) on logs in the form CUDA 13's NVRTC prints
// them: two entry functions, a non-inlined device function whose properties must not be taken
// for a kernel's, spills, static shared memory, and a wgmma serialization remark.
#include <gtest/gtest.h>

#include "profiler/cuda/PtxasInfo.h"

using namespace ts::rt;

namespace {
const char* kLog =
    "tilescope_kernel.cu(5): warning #177-D: function \"ts_floordiv\" was declared but never referenced\n"
    "ptxas info    : 39 bytes gmem\n"
    "ptxas info    : Compiling entry function 'matmul_kernel' for 'sm_90a'\n"
    "ptxas info    : Function properties for matmul_kernel\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized due to non wgmma "
    "instructions reading accumulator registers of  a wgmma between start and end of the pipeline stage in the function "
    "'matmul_kernel'\n"
    "ptxas info    : Used 191 registers, used 1 barriers\n"
    "ptxas info    : Function properties for helper\n"
    "ptxas         .     16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function 'bwd_kernel' for 'sm_90a'\n"
    "ptxas info    : Function properties for bwd_kernel\n"
    "ptxas         .     72 bytes stack frame, 68 bytes spill stores, 72 bytes spill loads\n"
    "ptxas info    : Used 168 registers, used 4 barriers, 1024 bytes smem\n"
    "ptxas info    : Compile time = 159.050 ms\n";
}  // namespace

TEST(PtxasInfo, ParsesEveryEntryFunction) {
    PtxasInfo p = parsePtxasInfo(kLog);
    ASSERT_EQ(p.kernels.size(), 2u);
    const PtxasKernelInfo* m = p.find("matmul_kernel");
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->registers, 191);
    EXPECT_EQ(m->barriers, 1);
    EXPECT_EQ(m->stackBytes, 0);
    EXPECT_EQ(m->spillStoreBytes, 0);
    EXPECT_TRUE(m->wgmmaSerialized);
    ASSERT_EQ(m->remarks.size(), 1u);
    EXPECT_EQ(m->remarks[0].rfind("(C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized", 0), 0u)
        << m->remarks[0];
    const PtxasKernelInfo* b = p.find("bwd_kernel");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->registers, 168);
    EXPECT_EQ(b->barriers, 4);
    EXPECT_EQ(b->staticSmemBytes, 1024);
    EXPECT_EQ(b->stackBytes, 72);
    EXPECT_EQ(b->spillStoreBytes, 68);
    EXPECT_EQ(b->spillLoadBytes, 72);
    EXPECT_FALSE(b->wgmmaSerialized);
    EXPECT_TRUE(b->remarks.empty());
    EXPECT_EQ(p.find("helper"), nullptr);  // a device function, not a kernel
    EXPECT_EQ(ptxasSummary(*m), "matmul_kernel: 191 registers, no spills, 1 barrier, wgmma serialized");
    EXPECT_EQ(ptxasSummary(*b),
              "bwd_kernel: 168 registers, 68 B spill stores + 72 B spill loads per thread, 4 barriers, 1024 B static shared");
}

TEST(PtxasInfo, LogWithoutPtxasLinesKeepsEverythingElseExactly) {
    std::string lines;
    const std::string rest = withoutPtxasInfo(kLog, &lines);
    EXPECT_EQ(rest, "tilescope_kernel.cu(5): warning #177-D: function \"ts_floordiv\" was declared but never referenced\n");
    EXPECT_EQ(parsePtxasInfo(lines).kernels.size(), 2u);
    EXPECT_EQ(withoutPtxasInfo("no newline at the end"), "no newline at the end");
    EXPECT_EQ(withoutPtxasInfo(""), "");
    EXPECT_TRUE(parsePtxasInfo("error: something\n").kernels.empty());
}

// A failed compile's log (CUDA 13 NVRTC, NULs between its parts already dropped by runNvrtc):
// ptxas's errors are all it says, so they must stay in the log the user reads; only the -v lines
// go. Before, every line starting with "ptxas" went, and tilec printed "NVRTC rejected the
// generated CUDA (a compiler bug):" followed by nothing.
TEST(PtxasInfo, LogKeepsPtxasErrorsWarningsAndFatalLines) {
    const std::string log =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
        "ptxas info    : Function properties for k\n"
        "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 12 registers, used 1 barriers, 400000 bytes smem\n"
        "ptxas error   : Entry function 'k' uses too much shared data (0x61a80 bytes, 0x38c00 max)\n"
        "ptxas application ptx input, line 23; error   : Unknown modifier '.instr'\n"
        "ptxas warning : Registers are spilled to local memory in function 'k'\n"
        "ptxas fatal   : Ptx assembly aborted due to errors\n";
    std::string lines;
    EXPECT_EQ(withoutPtxasInfo(log, &lines),
              "ptxas error   : Entry function 'k' uses too much shared data (0x61a80 bytes, 0x38c00 max)\n"
              "ptxas application ptx input, line 23; error   : Unknown modifier '.instr'\n"
              "ptxas warning : Registers are spilled to local memory in function 'k'\n"
              "ptxas fatal   : Ptx assembly aborted due to errors\n");
    const PtxasInfo p = parsePtxasInfo(lines);
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].registers, 12);
    EXPECT_EQ(p.kernels[0].staticSmemBytes, 400000);
}
