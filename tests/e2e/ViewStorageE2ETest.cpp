// Passes that decide asynchrony on sm_90a compare accesses by the storage they lie on
// (ir/Views.h storageName), so an access through a view (T.view / T.reshape of a shared tile or a
// fragment, T.Tensor(shape, dtype, A.data) of a kernel tensor) counts as one of the viewed buffer.
// Compared by buffer, each program below was compiled with an asynchronous schedule that the view
// access races with:
//  - fragment_tma_view_scratch.py: float32 scratch written through a view of a fragment-path
//    gemm's B tile after the gemm. fragmentTmaCopies (SelectHopperFragment.cpp) took the
//    wgmma-only TMA schedule, which multi-buffers B_s and refills it with no fence or barrier in
//    the loop; the view's stores landed in B_s's first stage (the lowered interpreter: "write of
//    scratch[0] overwrites the bytes of B_s[0] while an asynchronous copy ... is pending").
//  - inflight_view_access.py: the generic-operand in-flight schedule (InjectPipelineWgmmaGeneric.cpp)
//    ran a read of the accumulator through T.reshape (mode 1; ptxas serialised every wgmma) and
//    scratch stores through T.view of the A tile (mode 2; the lowered interpreter now reports a
//    write through another name of bytes an in-flight wgmma reads) beside the previous wgmma.
//    Its mode 1 only reads the view: the tile is kept single-buffered (a view stays on the first
//    stage), with plan-pipelines' warning at the copy.
//  - tma_tensor_view.py: a TMA load of a tensor the kernel writes through a view (mode 0; no
//    fence.proxy.async.global) and a TMA store into a tensor read back through a view (mode 1;
//    its global writes complete only at the kernel's exit) (ops/CopyTma.cpp); epilogue_tensor_view.py:
//    the same for stage-epilogue's staged TMA store of a gemm accumulator.
// Each matches its float64 reference on both interpreters and both targets, and NVRTC compiles
// each for sm_80 and sm_90a (sm_90a without a serialised wgmma).
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::compileRepoFile;
using ts::e2e::diagText;

const char* kScratch = "tests/e2e/programs/fragment_tma_view_scratch.py";
const char* kInflight = "tests/e2e/programs/inflight_view_access.py";
const char* kTensor = "tests/e2e/programs/tma_tensor_view.py";

/// NVRTC compiles r for sm_90a and ptxas serialised no wgmma (C7514: an accumulator register
/// read while its wgmma is in flight makes ptxas wait every wgmma of the kernel to completion).
void expectSm90aCompilesUnserialized(const ts::CompileResult& r, const std::string& label) {
    if (!ts::rt::nvrtcAvailable()) return;
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    ASSERT_TRUE(nv.ok) << label << "\n" << nv.log;
    for (auto& k : nv.ptxas.kernels) EXPECT_FALSE(k.wgmmaSerialized) << label << ": " << ts::rt::ptxasSummary(k);
}

TEST(ViewStorage, ScratchInAViewOfAFragmentGemmTileKeepsTheLoopOffTheWgmmaOnlyTmaSchedule) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"})
        for (auto [tiles, stages] : {std::pair<const char*, const char*>{"3", "2"}, {"4", "3"}, {"1", "2"}}) {
            const std::string label = std::string(target) + " T_tiles=" + tiles + " num_stages=" + stages;
            ts::CompileResult r = compileRepoFile(kScratch, {{"T_tiles", tiles}, {"num_stages", stages}}, target);
            ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
            ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, label));
            if (std::string(target) != "cuda:sm_90a") continue;
            // The gemm still takes wgmma, on the cp.async schedule (A_s by TMA on its stage
            // barriers; B_s's copy synchronous), and the note names the write through the view.
            EXPECT_TRUE(ts::e2e::hasNote(r, "the loop's wgmma-only TMA schedule: 'B_s' (through its view 'scratch') is written in the loop"))
                << label << "\n" << diagText(r);
            EXPECT_EQ(r.cuda.find("tma_full"), std::string::npos) << label << "\n" << r.cuda;
            EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<64, 64, 64, 1, false, false, 0, ts::half>"), std::string::npos) << label << "\n" << r.cuda;
            EXPECT_NE(r.cuda.find("&B_s[0], &acc[0]"), std::string::npos) << "B_s is not multi-buffered\n" << r.cuda;
        }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kScratch, {});
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kScratch, {{"T_tiles", "4"}, {"num_stages", "3"}});
}

// Mode 1 reads the view without writing it: a view of a multi-buffered tile would stay on its
// first stage, so neither schedule multi-buffers B_s (plan-pipelines says why, at the copy).
TEST(ViewStorage, AViewOfAPipelinedTileReadInTheLoopKeepsTheTileSingleBuffered) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileRepoFile(kScratch, {{"mode", "1"}}, target);
        ASSERT_TRUE(r.ok) << target << "\n" << diagText(r);
        bool warned = false;
        for (auto& d : r.diagnostics)
            if (d.severity == ts::Severity::Warning &&
                d.message == "T.Pipelined: this copy stays synchronous because the loop reads 'B_s' through its view 'scratch', which would "
                             "stay on the first of the tile's stages") {
                warned = true;
                EXPECT_EQ(d.span.line, 40u) << target;  // T.copy(B[t * K, 0], B_s)
                EXPECT_EQ(d.span.col, 17u) << target;
                EXPECT_EQ(d.hint, "read 'B_s' itself in the loop, or copy it into a buffer of the view's shape") << target;
            }
        EXPECT_TRUE(warned) << target << "\n" << diagText(r);
        EXPECT_EQ(r.cuda.find("B_s[((t % 2) * 4096)]"), std::string::npos) << target << ": B_s is staged\n" << r.cuda;
        EXPECT_NE(r.cuda.find("A_s[((t % 2) * 4096)]"), std::string::npos) << target << ": A_s is not staged\n" << r.cuda;
        if (std::string(target) == "cuda:sm_90a") {
            EXPECT_TRUE(ts::e2e::hasNote(r, "the loop's wgmma-only TMA schedule: 'B_s' (through its view 'scratch') is read in the loop")) << diagText(r);
        }
    }
}

// The in-flight gemm of iteration k (wait_group 1) and the one of the peeled last iteration.
const char* kInflightGemm = "ts::wgmma_gemm_ss<64, 64, 32, 1, false, false, 1, ts::half>(&Xg_s[((k % 2) * 2048)]";

TEST(ViewStorage, InflightWgmmaScheduleKeepsViewAccessesOfItsTilesAndAccumulatorOut) {
    for (const char* mode : {"0", "1", "2"}) {
        ts::CompileResult r = compileRepoFile(kInflight, {{"mode", mode}});
        ASSERT_TRUE(r.ok) << mode << "\n" << diagText(r);
        // Mode 0 (no view access) keeps the in-flight schedule, which the others must not take.
        if (std::string(mode) == "0")
            EXPECT_NE(r.cuda.find(kInflightGemm), std::string::npos) << r.cuda;
        else
            EXPECT_EQ(r.cuda.find("false, 1, ts::half>"), std::string::npos) << "mode " << mode << ": a wgmma left in flight\n" << r.cuda;
        ASSERT_NO_FATAL_FAILURE(expectSm90aCompilesUnserialized(r, std::string("mode ") + mode));
    }
}

TEST(ViewStorage, InflightViewAccessMatchesFloat64OnBothInterpretersAndTargets) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"})
        for (const char* mode : {"0", "1", "2"})
            for (auto [tiles, stages] : {std::pair<const char*, const char*>{"4", "3"}, {"5", "4"}, {"1", "3"}}) {
                const std::string label = std::string(target) + " mode " + mode + " T_tiles=" + tiles + " num_stages=" + stages;
                ts::CompileResult r = compileRepoFile(kInflight, {{"mode", mode}, {"T_tiles", tiles}, {"num_stages", stages}}, target);
                ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
                ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, label));
            }
    for (const char* mode : {"1", "2"}) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kInflight, {{"mode", mode}});
}

TEST(ViewStorage, TmaCopiesOfATensorAccessedThroughAViewStayPlain) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"})
        for (const char* mode : {"0", "1"}) {
            const std::string label = std::string(target) + " mode " + mode;
            ts::CompileResult r = compileRepoFile(kTensor, {{"mode", mode}}, target);
            ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
            ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, label));
            if (std::string(target) != "cuda:sm_90a") continue;
            if (std::string(mode) == "0") {
                EXPECT_EQ(r.cuda.find("ts::tma_load_tile"), std::string::npos) << label << "\n" << r.cuda;
                EXPECT_TRUE(ts::e2e::hasNote(r, "does not use TMA: the kernel writes 'A' through its view 'Af' (TMA reads it through the async proxy)"))
                    << label << "\n" << diagText(r);
            } else {
                // S's load still takes TMA; the store into A does not.
                EXPECT_NE(r.cuda.find("ts::tma_load_tile"), std::string::npos) << label << "\n" << r.cuda;
                EXPECT_EQ(r.cuda.find("ts::tma_store_tile"), std::string::npos) << label << "\n" << r.cuda;
                EXPECT_TRUE(ts::e2e::hasNote(r, "does not use a TMA store: the kernel also reads 'A' through its view 'Af' (an element read at line"))
                    << label << "\n" << diagText(r);
            }
        }
    for (const char* mode : {"0", "1"}) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kTensor, {{"mode", mode}});
}

const char* kEpilogue = "tests/e2e/programs/epilogue_tensor_view.py";

TEST(ViewStorage, AnAccumulatorStoreReadBackThroughAViewIsNotStagedForTma) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileRepoFile(kEpilogue, {}, target);
        ASSERT_TRUE(r.ok) << target << "\n" << diagText(r);
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, target));
        if (std::string(target) != "cuda:sm_90a") continue;
        EXPECT_EQ(ts::e2e::stagedEpilogues(r), 0u) << r.cuda;
        EXPECT_EQ(r.cuda.find("ts::tma_store_tile"), std::string::npos) << r.cuda;
        EXPECT_TRUE(ts::e2e::hasNote(r, "its store could not be a TMA store: the kernel also reads 'C' through its view 'Cf'")) << diagText(r);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kEpilogue, {});
}

}  // namespace
