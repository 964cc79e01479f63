// Pipelined copies on TMA in the cp.async schedules (compiler/transforms/InjectPipelineTmaLoads.cpp,
// legality: pipelinedTmaWhyNot in compiler/ops/CopyTma.cpp), without a GPU:
//  - several tiles per stage share one mbarrier whose expect_tx is the sum of their bytes
//    (norm_gate_up: X, Wg, Wu = 3 x 8192 bytes), the 1-D G tile keeps cp.async next to them;
//  - per-copy fallback with a note (W's rows 600 bytes; a 64-byte stage; TILESCOPE_PIPELINE_TMA=0);
//  - the fused RMSNorm samples, SwiGLU and the plain S-stage schedule (tma_sweep_copy.py) at ragged
//    M/N/K, trip counts 1..3 and stages 2..4 on the thread-level interpreter of the lowered IR (which
//    models TMA as writes landing at the barrier phase a wait observes) and the tile interpreter,
//    against float64; every kernel also compiles with NVRTC for sm_80 and sm_90a.
// The GPU run is bench/h200_tma_pipelines.sh.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"
#include "tests/e2e/ScopedEnv.h"

namespace {

using ts::e2e::diagText;

ts::CompileResult compileFile(const std::string& file, const std::map<std::string, std::string>& params, const std::string& kernel = {},
                              const char* target = "cuda:sm_90a") {
    return ts::e2e::compileRepoFile(file, params, target, kernel);
}

size_t countOf(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

std::string notesOf(const ts::CompileResult& r) {
    std::string s;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.origin == "inject-pipeline") s += d.message + "\n";
    return s;
}

TEST(PipelineTmaLoads, SeveralTilesPerStageShareOneMbarrier) {
    const std::map<std::string, std::string> p{{"M", "130"}, {"D", "200"}, {"N", "72"}};
    ts::CompileResult r = compileFile("samples/rmsnorm_mlp.py", p, "norm_gate_up");
    ASSERT_TRUE(r.ok) << diagText(r);
    const std::string notes = notesOf(r);
    for (const char* t : {"X_s", "Wg_s", "Wu_s"})
        EXPECT_NE(notes.find("T.copy into '" + std::string(t) + "' is loaded by TMA in the T.Pipelined schedule"), std::string::npos)
            << t << "\n" << notes;
    // G is a 1-D kernel tensor: a tensor map needs rank 2..5 (a 1-D shared tile is one row, but
    // only from a tensor of rank >= 2, like lse[b, head, q0:q0 + 64] in samples/mha_bwd.py).
    EXPECT_NE(notes.find("T.copy into 'G_s' keeps cp.async in the T.Pipelined schedule: 'G' is not a tensor of rank 2..5"),
              std::string::npos)
        << notes;
    // One barrier per stage (3 stages), armed once per stage use with 128x32 + 2 x 32x128 fp16.
    EXPECT_NE(r.cuda.find("ts::mbarrier_init_n(&tma_stage_full_0"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find(", 3);"), std::string::npos);
    EXPECT_GE(countOf(r.cuda, ", 24576);"), 2u) << "expect_tx = 8192 * 3 in the prologue and the refill\n" << r.cuda;
    EXPECT_EQ(countOf(r.cuda, "ts::mbarrier_arrive_expect_tx("), countOf(r.cuda, ", 24576);")) << r.cuda;
    EXPECT_EQ(r.kernel.tensorMaps.size(), 3u + ts::e2e::stagedEpilogues(r));  // + the staged output's
    EXPECT_NE(r.cuda.find("ts::cp_async"), std::string::npos) << "G stays cp.async";
    // sm_80: the cp.async schedule as before, no TMA, no barrier, no note.
    ts::CompileResult r80 = compileFile("samples/rmsnorm_mlp.py", p, "norm_gate_up", "cuda:sm_80");
    ASSERT_TRUE(r80.ok) << diagText(r80);
    EXPECT_EQ(r80.cuda.find("tma_load"), std::string::npos);
    EXPECT_EQ(r80.cuda.find("mbarrier"), std::string::npos);
    EXPECT_TRUE(notesOf(r80).empty()) << notesOf(r80);
}

TEST(PipelineTmaLoads, FallsBackPerCopyWithANote) {
    // W (200, 300) fp16: rows of 600 bytes, not a multiple of 16 -> cp.async; X (1000, 200) -> TMA.
    ts::CompileResult r = compileFile("samples/rmsnorm_matmul.py", {{"M", "1000"}, {"K", "200"}, {"N", "300"}});
    ASSERT_TRUE(r.ok) << diagText(r);
    std::string notes = notesOf(r);
    EXPECT_NE(notes.find("T.copy into 'X_s' is loaded by TMA"), std::string::npos) << notes;
    EXPECT_NE(notes.find("T.copy into 'W_s' keeps cp.async in the T.Pipelined schedule: rows of 'W' are not a multiple of 16 bytes"),
              std::string::npos)
        << notes;
    EXPECT_EQ(r.kernel.tensorMaps.size(), 1u);
    EXPECT_GE(countOf(r.cuda, ", 8192);"), 2u) << "expect_tx = X's 128x32 fp16 only\n" << r.cuda;
    // A stage of 2 x 16 fp16 = 64 bytes: TMA would write at 64-byte steps (needs 128).
    ts::CompileResult small = compileFile("tests/e2e/programs/tma_sweep_copy.py", {{"tail", "64"}, {"block_M", "2"}, {"block_K", "16"}});
    ASSERT_TRUE(small.ok) << diagText(small);
    notes = notesOf(small);
    EXPECT_NE(notes.find("a stage of 'A_shared' is 64 bytes, not a multiple of 128 (TMA destination alignment)"), std::string::npos) << notes;
    EXPECT_EQ(small.cuda.find("tma_load"), std::string::npos);
    // A pipelined loop under a condition on the thread index (threads 32..127): the elected
    // thread 0 is not among them. Said so, not "a warp role" (fresh-user finding: no
    // producer/consumer roles are involved).
    ts::CompileResult role = compileFile("tests/e2e/programs/role_pipelined.py", {});
    ASSERT_TRUE(role.ok) << diagText(role);
    EXPECT_NE(notesOf(role).find("T.copy into 'xs' keeps cp.async in the T.Pipelined schedule: the loop is under a condition on "
                                 "the thread index (the TMA issue is elected from the whole block)\n"),
              std::string::npos) << notesOf(role);
    EXPECT_EQ(role.cuda.find("tma_load"), std::string::npos);
    ts::e2e::expectInterpretersMatchReference(role, "role_pipelined");
    // The measurement switch: every producer cp.async, with the reason in the note.
    ts::e2e::ScopedEnv off("TILESCOPE_PIPELINE_TMA", "0");
    ts::CompileResult r0 = compileFile("samples/rmsnorm_matmul.py", {{"M", "130"}, {"K", "72"}, {"N", "136"}});
    ASSERT_TRUE(r0.ok) << diagText(r0);
    EXPECT_EQ(r0.cuda.find("tma_load"), std::string::npos);
    EXPECT_NE(notesOf(r0).find("keeps cp.async in the T.Pipelined schedule: TILESCOPE_PIPELINE_TMA=0"), std::string::npos) << notesOf(r0);
}

// The plain S-stage schedule with every producer on TMA: no cp.async left, each iteration waits on
// its stage's barrier with parity (k / S) % 2 before the block barrier; trip counts 1..3 x stages
// 2..4, ragged tails (TMA's zero fill), exact on both interpreters.
TEST(PipelineTmaLoads, PlainScheduleTripCountsAndStagesExact) {
    const char* file = "tests/e2e/programs/tma_sweep_copy.py";
    for (const char* stages : {"2", "3", "4"})
        for (const char* tail : {"40", "64", "120", "136", "184"}) {  // 1, 1, 2, 3, 3 trips of 64 columns (rows of 8 + tail fp16: 16-byte pitch)
            const std::map<std::string, std::string> p{{"off", "8"}, {"tail", tail}, {"num_stages", stages}};
            const std::string label = std::string("stages=") + stages + " tail=" + tail;
            ts::CompileResult r = compileFile(file, p);
            ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
            EXPECT_NE(r.cuda.find("ts::tma_load_tile<"), std::string::npos) << label;
            EXPECT_EQ(r.cuda.find("ts::cp_async"), std::string::npos) << label << "\n" << r.cuda;
            EXPECT_NE(r.cuda.find("ts::mbarrier_wait(&tma_stage_full_0"), std::string::npos) << label;
            ts::rt::CompareOptions exact;
            exact.relL2Tolerance = 1e-300;
            auto ci = ts::e2e::makeCheckedInputs(r);
            ASSERT_TRUE(ci.ref.ok);
            std::vector<ts::HostTensor> results[2];
            ts::e2e::expectBothInterpretersMatchReference(r, ci, exact, label, results);
        }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(file, {{"off", "8"}, {"tail", "136"}, {"num_stages", "3"}});
}

struct SampleCase {
    std::string file, kernel;
    std::map<std::string, std::string> params;
    std::string ref = "ref_program";
    int tma = 0;  ///< producer copies that TMA loads (notes of inject-pipeline)
};

// The fused samples on the new path at ragged M/N/K (the tails past M, N and K read as zero
// from TMA's box fill), trip counts 1, 2 and several, 3 and 4 stages, fp16 and bf16.
TEST(PipelineTmaLoads, FusedSamplesMatchFloat64OnBothInterpreters) {
    const SampleCase cases[] = {
        {"samples/rmsnorm_matmul.py", "", {{"M", "130"}, {"K", "72"}, {"N", "136"}}, "ref_program", 2},
        {"samples/rmsnorm_matmul.py", "", {{"M", "70"}, {"K", "40"}, {"N", "72"}}, "ref_program", 2},  // 2 trips
        {"samples/rmsnorm_matmul.py", "", {{"M", "100"}, {"K", "24"}, {"N", "64"}, {"dtype", "bfloat16"}}, "ref_program", 2},  // 1 trip
        {"samples/rmsnorm_matmul.py", "", {{"M", "130"}, {"K", "200"}, {"N", "136"}, {"block_K", "64"}, {"num_stages", "4"}}, "ref_program", 2},
        {"samples/rmsnorm_matmul.py", "", {{"M", "64"}, {"K", "200"}, {"N", "100"}}, "ref_program", 1},  // W cp.async
        {"samples/rmsnorm_mlp.py", "norm_gate_up", {{"M", "130"}, {"D", "72"}, {"N", "136"}}, "ref_program", 3},
        {"samples/rmsnorm_mlp.py", "norm_gate_up", {{"M", "64"}, {"D", "136"}, {"N", "72"}, {"dtype", "bfloat16"}, {"num_stages", "4"}},
         "ref_program", 3},
        // Plain pipelined GEMMs of the chains and SwiGLU: the TMA + wgmma schedules (no cp.async schedule).
        {"samples/swiglu.py", "", {{"M", "130"}, {"K", "200"}, {"N", "72"}, {"block_K", "64"}, {"num_stages", "3"}}, "ref_program", 0},
        {"samples/rmsnorm_mlp.py", "down_proj", {{"M", "100"}, {"D", "72"}, {"N", "136"}}, "down_ref", 0},
    };
    for (const auto& c : cases) {
        std::string label = c.file + " " + c.kernel;
        for (auto& [k, v] : c.params) label += " " + k + "=" + v;
        ts::CompileResult r = compileFile(c.file, c.params, c.kernel);
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        EXPECT_EQ(int(countOf(notesOf(r), "is loaded by TMA in the T.Pipelined schedule")), c.tma) << label << "\n" << notesOf(r);
        EXPECT_GE(int(r.kernel.tensorMaps.size()), c.tma) << label;
        ts::e2e::expectInterpretersMatchReference(r, label, c.ref);
        if (!c.kernel.empty()) continue;  // NVRTC on the file's default kernel (expectNvrtc takes no kernel name)
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(c.file, c.params);
    }
}

// The chain norm_gate_up -> down_proj at a ragged size, compiled for sm_90a (the first kernel on
// the TMA-fed cp.async schedule, the second on TMA + wgmma), on the thread-level interpreter.
TEST(PipelineTmaLoads, MlpChainKernelsCompileForBothTargets) {
    for (const char* k : {"norm_gate_up", "down_proj"})
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            ts::CompileResult r = compileFile("samples/rmsnorm_mlp.py", {{"M", "130"}, {"D", "72"}, {"N", "136"}}, k, target);
            ASSERT_TRUE(r.ok) << k << " " << target << "\n" << diagText(r);
            if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
            auto nv = ts::rt::compileCuda(r.cuda, std::string(target).substr(5), {}, true);
            EXPECT_TRUE(nv.ok) << k << " " << target << "\n" << nv.log;
        }
}

}  // namespace

namespace {

// Two pipelined loops in one kernel, the second inside a T.serial loop: a barrier array each
// (distinct names), the nested one initialized again per outer iteration after a block barrier;
// exact on both interpreters (ragged K = 136 in 64-column tiles), NVRTC for both targets.
TEST(PipelineTmaLoads, TwoLoopsAndANestedOneEachGetTheirOwnBarriers) {
    const char* file = "tests/e2e/programs/pipelined_tma_two_loops.py";
    for (const char* stages : {"2", "3"}) {
        ts::CompileResult r = compileFile(file, {{"stages", stages}});
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_EQ(countOf(notesOf(r), "is loaded by TMA in the T.Pipelined schedule"), 2u) << notesOf(r);
        EXPECT_NE(r.cuda.find("ts::mbarrier_init_n(&tma_stage_full_0[0], " + std::string(stages) + ")"), std::string::npos) << r.cuda;
        EXPECT_NE(r.cuda.find("ts::mbarrier_init_n(&tma_stage_full_1[0], " + std::string(stages) + ")"), std::string::npos) << r.cuda;
        const size_t outer = r.cuda.find("for (int r = 0;"), init = r.cuda.find("ts::mbarrier_init_n(&tma_stage_full_1");
        ASSERT_NE(outer, std::string::npos) << r.cuda;
        EXPECT_LT(outer, init) << "the nested loop's barriers are initialized in the outer loop";
        EXPECT_NE(r.cuda.substr(outer, init - outer).find("__syncthreads();"), std::string::npos) << "a barrier before the re-init";
        ts::rt::CompareOptions exact;
        exact.relL2Tolerance = 1e-300;
        auto ci = ts::e2e::makeCheckedInputs(r);
        ASSERT_TRUE(ci.ref.ok);
        std::vector<ts::HostTensor> results[2];
        ts::e2e::expectBothInterpretersMatchReference(r, ci, exact, std::string("two loops, stages=") + stages, results);
        ts::e2e::expectNvrtcCompilesForSm80AndSm90a(file, {{"stages", stages}});
    }
}

// A 1-D shared tile filled from a row of a rank >= 2 kernel tensor (MHA backward's lse and Delta
// rows, lse[b, head, q0:q0 + block_N]) is one TMA box of one row on the stage's mbarrier, so the
// loop has no cp.async group left; rows that are not a multiple of 16 bytes keep cp.async.
TEST(PipelineTmaLoads, RowTilesOfRankTwoOrMoreTensorsJoinTheStageMbarrier) {
    ts::CompileResult r = compileFile("samples/mha_bwd.py", {{"seq_len", "100"}}, "mha_bwd_main");
    ASSERT_TRUE(r.ok) << diagText(r);
    const std::string notes = notesOf(r);
    for (const char* t : {"lse_s", "delta_s"})
        EXPECT_NE(notes.find("T.copy into '" + std::string(t) +
                             "' is loaded by TMA in the T.Pipelined schedule (1 box of 1 row x 64 columns, 256 bytes per stage on the "
                             "stage's mbarrier; out-of-bounds elements read 0)"),
                  std::string::npos)
            << t << "\n" << notes;
    // Coordinates innermost first: the query offset, the head, the batch.
    EXPECT_NE(r.cuda.find("ts::tma_load_tile<1, 64, 1>(&tma_map_1, &lse_s[((qt + 1) * 64)], &tma_stage_full_0[(qt + 1)], "
                          "((qt + 1) * 64), head, b);"),
              std::string::npos)
        << r.cuda;
    EXPECT_EQ(r.cuda.find("cp_async"), std::string::npos) << r.cuda;
    // The tensor map: box 64 x 1 x 1 over lse (batch, heads, seq_len), the row dimension the heads'.
    ASSERT_GE(r.kernel.tensorMaps.size(), 4u);
    const auto& m = r.kernel.tensorMaps[1];
    EXPECT_EQ(m.tensor, 4);  // main(Q, K, V, dO, lse, ...)
    EXPECT_EQ(m.boxInner, 64);
    EXPECT_EQ(m.boxOuter, 1);
    EXPECT_EQ(m.rowDim, 1);
    EXPECT_EQ(m.swizzleBytes, 0);

    ts::CompileResult r130 = compileFile("samples/mha_bwd.py", {{"seq_len", "130"}}, "mha_bwd_main");
    ASSERT_TRUE(r130.ok) << diagText(r130);
    EXPECT_NE(notesOf(r130).find("T.copy into 'lse_s' keeps cp.async in the T.Pipelined schedule: rows of 'lse' are not a multiple of 16 bytes"),
              std::string::npos)
        << notesOf(r130);
    EXPECT_NE(r130.cuda.find("ts::cp_async8(&lse_s["), std::string::npos) << r130.cuda;
    EXPECT_NE(r130.cuda.find("&Q_s["), std::string::npos);
}

}  // namespace
