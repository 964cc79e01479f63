// Programs whose kernels depend on what a TileLang script knows only when it runs (issue 8,
// corpus kernels that compile unchanged), each a program of our own under tests/e2e/programs/:
//  - main_guard_globals.py: module globals only the `__main__` block assigns (a plain `H`, a
//    torch tensor tested with `is not None`; frontend/MainGuardGlobals.h);
//  - persistent_sm_count.py: `driver.get_num_sms()` answers the target's SM count (132 for
//    sm_90a, 108 for sm_80; target/ChipFacts.h), which sizes a persistent grid;
//  - sparse_meta_factor.py: 2:4 sparsity metadata factors (frontend/MetaDevice.h);
//  - mma_swizzle_annotated.py: make_mma_swizzle_layout on a shared tile (swizzled, and
//    row-major where TileLang keeps it);
//  - autotuner_api.py: AutoTuner.from_kernel factories compiled at their first config;
//  - grid_linearized.py: a grid with 65537 blocks in y launched as one x extent
//    (codegen/GridShape.h);
//  - thread_block_2d.py: per-thread T.copy / T.clear in a two-dimensional block, a tuple swap of
//    registers and T.device_assert (frontend/ElaborateDeviceAssert.h);
//  - warp_shuffle_sum.py: T.tvm_warp_shuffle butterflies over groups of 32 and 16 lanes
//    (frontend/ElaborateWarpShuffle.h);
//  - shfl_sync_broadcast.py: T.shfl_sync(value, src_lane[, width[, mask]]) -- TileLang's order,
//    mask last (the corpus's warp_sync test passes two arguments);
//  - copy_scalar_offset.py: a T.copy starting at a scalar argument that may be negative.
//  - shfl_xor_down_up.py: T.shfl_xor / T.shfl_down / T.shfl_up (TileLang's (value, delta,
//    width, mask)), lanes whose source leaves their group keeping their own value.
// Each: both interpreters against the file's float64 ref_program, and NVRTC for sm_80 and
// sm_90a.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

ts::CompileResult compileProgram(const std::string& path, const std::string& target,
                                 const std::map<std::string, std::string>& params = {},
                                 const std::string& kernel = {}) {
    ts::CompileOptions opts;
    opts.target = target;
    opts.params = params;
    opts.kernel = kernel;
    return ts::compile(path, ts::e2e::readRepoFile(path), opts);
}

// NVRTC for both CUDA targets, for one kernel of a file.
void expectNvrtcBoth(const std::string& path, const std::string& kernel,
                     const std::map<std::string, std::string>& params = {}) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileProgram(path, target, params, kernel);
        ASSERT_TRUE(r.ok) << diagText(r);
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << " " << kernel << "\n" << nv.log;
    }
}

const char* kMainGuard = "tests/e2e/programs/main_guard_globals.py";
const char* kPersistent = "tests/e2e/programs/persistent_sm_count.py";
const char* kSparse = "tests/e2e/programs/sparse_meta_factor.py";
const char* kSwizzle = "tests/e2e/programs/mma_swizzle_annotated.py";
const char* kTuner = "tests/e2e/programs/autotuner_api.py";
const char* kGrid = "tests/e2e/programs/grid_linearized.py";

TEST(ScriptFacts, MainGuardGlobalsAreTheScriptsValues) {
    ts::CompileResult r = compileProgram(kMainGuard, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, "main_guard_globals");  // A * 6 + 1: H = 3
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kMainGuard, {});
}

TEST(ScriptFacts, HostValueFromMainGuardIsAnErrorWhereItsContentsAreUsed) {
    const std::string src = R"(import tilelang
import tilelang.language as T
import torch

@tilelang.jit(out_idx=[-1])
def k(N=32):
    n = counts.shape[0]
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(N):
                B[i] = A[i] * n
    return main

if __name__ == "__main__":
    counts = torch.randint(1, 4, (8,))
)";
    ts::CompileOptions opts;
    ts::CompileResult r = ts::compile("host_value.py", src, opts);
    ASSERT_FALSE(r.ok);
    std::string text = diagText(r);
    EXPECT_NE(text.find("'counts' is a run-time value the file's __main__ block assigns (line 16)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("host_value.py:7:"), std::string::npos) << text;
}

TEST(ScriptFacts, DriverSmCountIsTheTargetsChip) {
    for (auto [target, sms] : {std::pair{"cuda:sm_90a", 132u}, std::pair{"cuda:sm_80", 108u},
                               std::pair{"hip:gfx90a", 110u}}) {
        ts::CompileResult r = compileProgram(kPersistent, target);
        ASSERT_TRUE(r.ok) << target << diagText(r);
        EXPECT_EQ(r.kernel.grid[0], sms) << target;
        if (std::string(target) != "hip:gfx90a")
            ts::e2e::expectInterpretersMatchReference(r, std::string("persistent_") + target);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kPersistent, {});
}

TEST(ScriptFacts, SparseMetadataFactors) {
    ts::CompileResult r = compileProgram(kSparse, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, "sparse_meta_factor");
    // int16 metadata over int8 operands: also 16 / 4 * 4 = 16 elements per word; int32
    // operands have no 2:4 layout.
    ts::CompileResult r8 = compileProgram(kSparse, "cuda:sm_80", {{"dtype", "int8"}});
    ASSERT_TRUE(r8.ok) << diagText(r8);
    ts::CompileResult bad = compileProgram(kSparse, "cuda:sm_80", {{"dtype", "int32"}});
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(diagText(bad).find("get_e_factor(): 2:4 sparsity has no layout for int32"),
              std::string::npos)
        << diagText(bad);
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kSparse, {});
}

TEST(ScriptFacts, MmaSwizzleLayoutKeepsValues) {
    for (const char* cols : {"32", "24"}) {
        ts::CompileResult r = compileProgram(kSwizzle, "cuda:sm_80", {{"cols", cols}});
        ASSERT_TRUE(r.ok) << diagText(r);
        ts::e2e::expectInterpretersMatchReference(r, std::string("mma_swizzle_cols_") + cols);
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kSwizzle, {{"cols", cols}});
    }
    // 32 float32 columns (1024 bits) are swizzled: the generated code addresses the tile through
    // the XOR swizzle; 24 columns (768 bits) stay row-major, as TileLang keeps them.
    ts::CompileResult sw = compileProgram(kSwizzle, "cuda:sm_80", {{"cols", "32"}});
    ts::CompileResult rm = compileProgram(kSwizzle, "cuda:sm_80", {{"cols", "24"}});
    EXPECT_NE(sw.cuda.find("^"), std::string::npos) << sw.cuda;
    EXPECT_EQ(rm.cuda.find("^"), std::string::npos) << rm.cuda;
}

TEST(ScriptFacts, AutoTunerFactoriesCompileAtTheFirstConfig) {
    for (const char* kernel : {"tuner", "tuned", "tuner_tuple", "make_tunable"}) {
        ts::CompileResult r = compileProgram(kTuner, "cuda:sm_80", {}, kernel);
        ASSERT_TRUE(r.ok) << kernel << "\n" << diagText(r);
        // First config: block_M = 32 over M = 96 rows, 64 threads.
        EXPECT_EQ(r.kernel.grid[0], 3u) << kernel;
        EXPECT_EQ(r.kernel.block[0], 64u) << kernel;
        EXPECT_NE(diagText(r).find("compiles its kernel at the first one (block_M=32, threads=64)"),
                  std::string::npos)
            << kernel << "\n" << diagText(r);
        ts::e2e::expectInterpretersMatchReference(r, kernel);
        expectNvrtcBoth(kTuner, kernel);
    }
}

TEST(ScriptFacts, LargeGridYIsLaunchedLinearised) {
    ts::CompileResult r = compileProgram(kGrid, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(r.kernel.grid[0], 2u * 65537u);
    EXPECT_EQ(r.kernel.grid[1], 1u);
    EXPECT_EQ(r.kernel.grid[2], 1u);
    // (bx, by) from blockIdx.x: bx = x % 2, by = x / 2 % 65537.
    EXPECT_NE(r.cuda.find(" % 2u)"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find(" / 2u % 65537u)"), std::string::npos) << r.cuda;
    // Small enough to fit: launched as written.
    ts::CompileResult small = compileProgram(kGrid, "cuda:sm_80", {{"M", "300"}});
    ASSERT_TRUE(small.ok) << diagText(small);
    EXPECT_EQ(small.kernel.grid[0], 2u);
    EXPECT_EQ(small.kernel.grid[1], 300u);
    ts::e2e::expectInterpretersMatchReference(small, "grid_small");
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kGrid, {});
}

TEST(ScriptFacts, TwoDimensionalBlockPerThreadOps) {
    const char* kBlock2d = "tests/e2e/programs/thread_block_2d.py";
    ts::CompileResult r = compileProgram(kBlock2d, "cuda:sm_80");
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_EQ(r.kernel.block[0], 8u);
    EXPECT_EQ(r.kernel.block[1], 8u);
    ts::e2e::expectInterpretersMatchReference(r, "thread_block_2d");
    EXPECT_NE(r.cuda.find("__trap()"), std::string::npos) << r.cuda;
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kBlock2d, {});
    // limit=8: only the threads with tn = 0 pass the assert; both interpreters stop at it.
    ts::CompileResult bad = compileProgram(kBlock2d, "cuda:sm_80", {{"limit", "8"}});
    ASSERT_TRUE(bad.ok) << diagText(bad);
    auto ci = ts::e2e::makeCheckedInputs(bad);
    for (bool lowered : {false, true}) {
        std::string err;
        auto outs = ts::e2e::runOutputs(bad, ci, lowered, &err);
        EXPECT_TRUE(outs.empty());
        // The first failing thread: (tm, tn) = (0, 1), linear index 8.
        EXPECT_NE(err.find("T.device_assert failed: chunk inside the limit [block (0), thread 8]"),
                  std::string::npos)
            << err;
        EXPECT_NE(err.find("thread_block_2d.py:21:"), std::string::npos) << err;
    }
}

TEST(ScriptFacts, WarpShuffleButterfly) {
    const char* kShuffle = "tests/e2e/programs/warp_shuffle_sum.py";
    for (const char* w : {"32", "16", "4"}) {
        ts::CompileResult r = compileProgram(kShuffle, "cuda:sm_80", {{"W", w}});
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_NE(r.cuda.find("__shfl_sync("), std::string::npos) << r.cuda;
        ts::e2e::expectInterpretersMatchReference(r, std::string("warp_shuffle_w") + w);
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kShuffle, {{"W", w}});
    }
    ts::CompileResult bad = compileProgram(kShuffle, "cuda:sm_80", {{"W", "12"}});
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(diagText(bad).find("width must be a power of two from 1 to 32, got 12"), std::string::npos)
        << diagText(bad);
}

TEST(ScriptFacts, ShflSyncWithAndWithoutMask) {
    const char* kShfl = "tests/e2e/programs/shfl_sync_broadcast.py";
    for (auto [src, w] : {std::pair{"31", "32"}, std::pair{"5", "8"}, std::pair{"0", "2"}}) {
        ts::CompileResult r = compileProgram(kShfl, "cuda:sm_80", {{"SRC", src}, {"W", w}});
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_NE(r.cuda.find("__shfl_sync((unsigned)(4294967295LL), A[tx], " + std::string(src) + ", " + w + ")"),
                  std::string::npos)
            << r.cuda;
        ts::e2e::expectInterpretersMatchReference(r, std::string("shfl_sync_src") + src + "_w" + w);
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kShfl, {{"SRC", src}, {"W", w}});
    }
    ts::CompileResult bad = compileProgram(kShfl, "cuda:sm_80", {{"W", "24"}});
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(diagText(bad).find("T.shfl_sync: width must be a power of two from 1 to 32, got 24"), std::string::npos)
        << diagText(bad);
}

// T.shfl_xor / shfl_down / shfl_up: in-group shifts, a delta past the group (own values) and
// xor reading the earlier group (DELTA >= W), on both interpreters against the float64 reference.
TEST(ScriptFacts, ShflXorDownUp) {
    const char* kFile = "tests/e2e/programs/shfl_xor_down_up.py";
    for (auto [delta, w] : {std::pair{"1", "32"}, std::pair{"3", "8"}, std::pair{"8", "8"}, std::pair{"5", "4"}}) {
        ts::CompileResult r = compileProgram(kFile, "cuda:sm_80", {{"DELTA", delta}, {"W", w}});
        ASSERT_TRUE(r.ok) << diagText(r);
        for (const char* fn : {"__shfl_xor_sync(", "__shfl_down_sync(", "__shfl_up_sync("})
            EXPECT_NE(r.cuda.find(fn + std::string("(unsigned)(4294967295LL), A[tx], ") + delta + ", " + w + ")"),
                      std::string::npos)
                << fn << "\n" << r.cuda;
        ts::e2e::expectInterpretersMatchReference(r, std::string("shfl_xor_down_up_d") + delta + "_w" + w);
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"DELTA", delta}, {"W", w}});
    }
    ts::CompileResult bad = compileProgram(kFile, "cuda:sm_80", {{"W", "6"}});
    ASSERT_FALSE(bad.ok);
    EXPECT_NE(diagText(bad).find("T.shfl_xor: width must be a power of two from 1 to 32, got 6"), std::string::npos)
        << diagText(bad);
}

TEST(ScriptFacts, CopyFromANegativeScalarOffsetReadsZeroEverywhere) {
    const char* kFile = "tests/e2e/programs/copy_scalar_offset.py";
    for (const char* off : {"-3", "-200", "5", "0"}) {
        ts::CompileResult r = compileProgram(kFile, "cuda:sm_80", {{"off", off}});
        ASSERT_TRUE(r.ok) << diagText(r);
        // Both halves of the guard, and floor division of the scalar (not C's truncation).
        EXPECT_NE(r.cuda.find(">= 0)"), std::string::npos) << r.cuda;
        EXPECT_EQ(r.cuda.find("(off / 2)"), std::string::npos) << r.cuda;
        // Both interpreters against the file's float64 reference (which takes `off`, a kernel
        // argument, not a factory parameter): CliQuiet.NegativeScalarOffsetRunsOnBothInterpreters.
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"off", off}});
    }
}

}  // namespace
