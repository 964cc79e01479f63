// Attention forward end to end (issue 8's FlashAttention path): samples/flash_attention.py,
// samples/flash_attn_fwd.py (bshd, GQA, fp16/bf16; issue 10) and
// our own tests/e2e/programs/attention_gqa_bshd.py (GQA, BSHD, log-sum-exp output) compile, run on
// the tile interpreter AND on the thread-level interpreter of the lowered IR (quad shuffles of the
// accumulator reductions, gemm_rs reading P from registers, row-masked stores) against the
// float64 ref_program, causal and not, with sequence lengths that are and are not multiples of
// the tiles; the generated CUDA compiles with NVRTC for sm_80 and sm_90a.
// tests/e2e/programs/gemm_row_stats.py covers the accumulator reduction across two warp columns
// (shared-memory exchange), which FlashAttention's FullRow gemms never need, and
// fragment_convert.py the fragment -> fragment copies between layouts (through shared memory),
// gemm_fragment_a_transposed.py a transposed register A operand (staged through shared memory),
// fragment_scalar_table.py a fragment read as a scalar outside T.Parallel (replicated layout),
// fragment_subregion_copy.py copies of part of a fragment in both directions.
#include <cctype>
#include <cstdlib>
#include <regex>

#include <optional>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/ScopedEnv.h"

namespace {

struct Case {
    std::string path;  ///< relative to the repository root
    std::map<std::string, std::string> params;
    std::string label;
};

using ts::e2e::diagText;

class Attention : public ::testing::TestWithParam<Case> {};

TEST_P(Attention, BothInterpretersMatchFloat64Reference) {
    const Case& c = GetParam();
    std::string text = ts::e2e::readRepoFile(c.path);
    ASSERT_FALSE(text.empty()) << c.path;
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "cuda:sm_80";
    ts::CompileResult r = ts::compile(c.path, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);

    ts::e2e::expectInterpretersMatchReference(r, c.label);
}

TEST_P(Attention, GeneratedCudaCompilesForSm80AndSm90a) {
    const Case& c = GetParam();
    std::string text = ts::e2e::readRepoFile(c.path);
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileOptions opts;
        opts.params = c.params;
        opts.target = target;
        opts.recordSnapshots = false;
        ts::CompileResult r = ts::compile(c.path, text, opts);
        ASSERT_TRUE(r.ok) << diagText(r);
        if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
        auto nv = ts::rt::compileCuda(r.cuda, ts::parseTarget(target)->arch(), {}, true);
        EXPECT_TRUE(nv.ok) << target << "\n" << nv.log;
    }
}

// Registers of a fragment must be indexed by unrolled-loop constants only, or nvcc moves the
// array to local memory: no index of a register array may depend on the thread index (the row
// slot of an accumulator element, (16*warp + lane/4 + 8*h) % 16 / 8, must fold to h).
std::vector<std::string> threadDependentRegisterIndices(const std::string& cuda) {
    std::vector<std::string> arrays, bad;
    std::regex decl(R"((?:float|ts::half|ts::bfloat16) (\w+)\[\d+\];)");
    for (std::sregex_iterator it(cuda.begin(), cuda.end(), decl), end; it != end; ++it) arrays.push_back((*it)[1]);
    for (auto& a : arrays)
        for (size_t p = cuda.find(a + "["); p != std::string::npos; p = cuda.find(a + "[", p + 1)) {
            if (p > 0 && (std::isalnum(static_cast<unsigned char>(cuda[p - 1])) || cuda[p - 1] == '_')) continue;
            size_t open = p + a.size(), depth = 0, q = open;
            for (; q < cuda.size(); ++q) {
                if (cuda[q] == '[') ++depth;
                if (cuda[q] == ']' && --depth == 0) break;
            }
            std::string idx = cuda.substr(open, q - open + 1);
            if (std::regex_search(idx, std::regex(R"(\btx\b)"))) bad.push_back(a + idx);
        }
    return bad;
}

const char* kSample = "samples/flash_attention.py";
const char* kGqa = "tests/e2e/programs/attention_gqa_bshd.py";
const char* kFwd = "samples/flash_attn_fwd.py";

const Case kCases[] = {
    // S = 80 with 64-row tiles: the second query block and the second key tile are ragged.
    {kSample, {{"seq_len", "80"}}, "sample_ragged"},
    {kSample, {{"seq_len", "80"}, {"is_causal", "True"}}, "sample_ragged_causal"},
    {kSample, {{"seq_len", "128"}, {"is_causal", "True"}, {"num_stages", "1"}}, "sample_causal_128"},
    {kSample,
     {{"seq_len", "100"}, {"dim", "32"}, {"block_M", "128"}, {"block_N", "32"}, {"threads", "256"}},
     "sample_8_warps"},
    // 8 warps on 64 query rows: FullRow gives a 4 x 2 warp grid (TileLang's rule), so rows are
    // reduced across two warp columns and P reaches the second gemm through a shared tile.
    {kSample, {{"seq_len", "100"}, {"threads", "256"}, {"is_causal", "True"}}, "sample_two_warp_columns"},
    {kGqa, {}, "gqa_ragged"},
    {kGqa, {{"causal", "True"}}, "gqa_ragged_causal"},
    {kGqa, {{"seq_len", "96"}, {"groups", "4"}, {"causal", "True"}}, "gqa4_causal"},
    // samples/flash_attn_fwd.py (bshd, GQA): S = 100 with 64-row tiles leaves a ragged query
    // block and a ragged key tile; causal blocks stop early; groups 1, 4, 8; bf16.
    {kFwd, {}, "fwd_ragged"},
    {kFwd, {{"is_causal", "True"}}, "fwd_ragged_causal"},
    {kFwd, {{"heads", "8"}, {"groups", "4"}, {"is_causal", "True"}}, "fwd_gqa4_causal"},
    {kFwd, {{"heads", "8"}, {"groups", "8"}, {"seq_len", "70"}}, "fwd_gqa8"},
    {kFwd, {{"dtype", "bfloat16"}, {"groups", "2"}, {"is_causal", "True"}}, "fwd_bf16_gqa2_causal"},
    // 8 warps over 128 query rows and 32-key tiles, one stage: three ragged key tiles.
    {kFwd,
     {{"seq_len", "100"}, {"block_M", "128"}, {"block_N", "32"}, {"threads", "256"}, {"num_stages", "1"}, {"groups", "2"}},
     "fwd_8_warps_one_stage"},
    {kFwd, {{"seq_len", "128"}, {"dim", "128"}, {"heads", "2"}, {"is_causal", "True"}, {"num_stages", "3"}}, "fwd_dim128_causal_3_stages"},
    {"tests/e2e/programs/gemm_row_stats.py", {}, "row_stats_two_warp_columns"},
    {"tests/e2e/programs/fragment_convert.py", {}, "fragment_layout_conversion"},
    {"tests/e2e/programs/gemm_fragment_a_transposed.py", {}, "register_a_transposed"},
    {"tests/e2e/programs/fragment_scalar_table.py", {}, "replicated_scalar_table"},
    {"tests/e2e/programs/fragment_subregion_copy.py", {}, "fragment_subregion_copies"},
};

TEST(AttentionRegisters, SampleIndexesRegistersByConstantsOnly) {
    using Params = std::map<std::string, std::string>;
    for (const auto& [path, params] : std::vector<std::pair<const char*, Params>>{
             {kSample, {{"dim", "128"}}},
             {kSample, {{"dim", "128"}, {"block_M", "128"}}},
             {kSample, {{"dim", "128"}, {"block_M", "128"}, {"threads", "256"}}},
             {kSample, {{"threads", "256"}, {"is_causal", "True"}}},
             {kFwd, {{"dim", "128"}, {"groups", "4"}}},
             {kFwd, {{"dim", "128"}, {"block_M", "128"}, {"threads", "256"}, {"is_causal", "True"}}}}) {
        std::string text = ts::e2e::readRepoFile(path);
        ts::CompileOptions opts;
        opts.params = params;
        opts.recordSnapshots = false;
        ts::CompileResult r = ts::compile(path, text, opts);
        ASSERT_TRUE(r.ok) << diagText(r);
        auto bad = threadDependentRegisterIndices(r.cuda);
        EXPECT_TRUE(bad.empty()) << bad.size() << " thread-dependent register indices, e.g. " << (bad.empty() ? "" : bad[0]);
    }
}

INSTANTIATE_TEST_SUITE_P(All, Attention, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

// The sm_90a attention path (transforms/SelectHopperFragment.cpp): both gemms take wgmma on the
// mma.sync fragment layouts -- S = Q K^T from two wgmma_smem tiles (tl.wgmma_ss), O += P V with P
// from registers (tl.wgmma_rs). The K/V tiles of the pipelined loop are loaded by TMA over the
// 4-D (bshd) or 3-D tensors behind full/empty mbarriers, with no block barrier in the loop
// (InjectPipelineTmaFragment.cpp); TILESCOPE_HOPPER_NO_FRAGMENT_TMA=1 keeps the cp.async schedule,
// which is checked too. The thread interpreter runs the wgmma intrinsics through wgmma's own
// fragments (not the compiler's layouts), TMA boxes through the tensor's shape (rows past the
// sequence read zero) and the barriers' phases, so a wrong coordinate, layout or phase fails the
// float64 comparison or reports a deadlock; each compile says in a note which loads it got.
bool hasNote(const ts::CompileResult& r, const std::string& text) {
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.message.find(text) != std::string::npos) return true;
    return false;
}

using ts::e2e::ScopedEnv;

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

class AttentionSm90a : public ::testing::TestWithParam<Case> {};

TEST_P(AttentionSm90a, BothGemmsTakeWgmmaWithTmaLoadsAndMatchFloat64Reference) {
    const Case& c = GetParam();
    std::string text = ts::e2e::readRepoFile(c.path);
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "cuda:sm_90a";
    ts::CompileResult r = ts::compile(c.path, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<"), std::string::npos) << "Q K^T is not on wgmma\n" << diagText(r);
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_rs<"), std::string::npos) << "P V is not on wgmma\n" << diagText(r);
    EXPECT_EQ(r.cuda.find("ts::gemm_ss<"), std::string::npos);
    EXPECT_EQ(r.cuda.find("ts::gemm_rs<"), std::string::npos);
    EXPECT_TRUE(hasNote(r, "with its loop's tiles loaded by TMA")) << diagText(r);
    // K and V by TMA, no cp.async, one proxy fence (for Q, before the loop): the loop itself
    // synchronises through the mbarriers.
    // K and V in the prologue and in the refill (one of them folds away at one stage or one trip).
    const size_t loads = count(r.cuda, "ts::tma_load_tile<");
    EXPECT_TRUE(loads == 2 || loads == 4) << loads;
    EXPECT_EQ(r.cuda.find("ts::cp_async"), std::string::npos);
    EXPECT_EQ(count(r.cuda, "ts::mbarrier_arrive("), 1u);
    // (+1 each with the output staged through shared memory: its fence and its tensor map.)
    const size_t staged = ts::e2e::stagedEpilogues(r);
    EXPECT_EQ(count(r.cuda, "ts::fence_proxy_async()"), 1u + staged);
    ASSERT_EQ(r.kernel.tensorMaps.size(), 2u + staged);
    EXPECT_EQ(r.kernel.tensorMaps[0].tensor, 1);  // K
    EXPECT_EQ(r.kernel.tensorMaps[1].tensor, 2);  // V
    ts::e2e::expectInterpretersMatchReference(r, c.label);
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
}

TEST_P(AttentionSm90a, CpAsyncScheduleStillMatchesFloat64Reference) {
  // The fragment path's TMA schedule off: the loop takes the cp.async schedule, whose K and V
  // copies are TMA loads on per-stage mbarriers (InjectPipelineTmaLoads.cpp), or, with
  // TILESCOPE_PIPELINE_TMA=0 too, cp.async.
  for (bool pipelineTma : {false, true}) {
    const Case& c = GetParam();
    ScopedEnv off("TILESCOPE_HOPPER_NO_FRAGMENT_TMA", "1");
    std::optional<ScopedEnv> noTma;
    if (!pipelineTma) noTma.emplace("TILESCOPE_PIPELINE_TMA", "0");
    std::string text = ts::e2e::readRepoFile(c.path);
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    ts::CompileResult r = ts::compile(c.path, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_TRUE(hasNote(r, "T.gemm uses wgmma on the fragment layouts; its loop keeps the cp.async pipeline schedule")) << diagText(r);
    const bool oneStage = c.params.count("num_stages") && c.params.at("num_stages") == "1";
    if (pipelineTma && !oneStage) {
        // K and V by TMA in the loop (one barrier per stage), Q by its plain TMA copy.
        int tmaNotes = 0;
        for (auto& d : r.diagnostics) tmaNotes += d.message.find("is loaded by TMA in the T.Pipelined schedule") != std::string::npos;
        EXPECT_EQ(tmaNotes, 2) << diagText(r);
        EXPECT_EQ(r.cuda.find("ts::cp_async"), std::string::npos) << r.cuda;
        EXPECT_GE(r.kernel.tensorMaps.size(), 2u);
        ts::e2e::expectInterpretersMatchReference(r, c.label + " (cp.async schedule, TMA loads)");
        continue;
    }
    // K and V stay on cp.async; Q's plain copy before the loop is a TMA load where legal
    // (ops/CopyTma.cpp), on tensor map 0 over Q (parameter 0). With num_stages=1 nothing is
    // issued early: K and V are plain copies in a loop, each a TMA load with its own mbarrier.
    if (!oneStage) {
        EXPECT_NE(r.cuda.find("ts::cp_async"), std::string::npos);
        EXPECT_LE(count(r.cuda, "ts::tma_load_tile<"), 1u);
        for (auto& m : r.kernel.tensorMaps)  // the output's map: its staged TMA store (StageEpilogue.cpp)
            EXPECT_TRUE(m.tensor == 0 || (ts::e2e::stagedEpilogues(r) && r.kernel.args.at(size_t(m.tensor)).isOutput))
                << "only Q's plain copy and the staged output store may take TMA: " << m.tensor;
    } else {
        EXPECT_EQ(r.cuda.find("ts::cp_async"), std::string::npos);
        EXPECT_GE(count(r.cuda, "ts::tma_load_tile<"), 2u);
    }
    ts::e2e::expectInterpretersMatchReference(r, c.label + " (cp.async)");
  }
}

// The warp-specialized form (compiler/transforms/WarpSpecialize.cpp, forced on): one more
// warpgroup whose first thread issues every TMA load and waits for the released stages; the
// consumer warpgroups keep their layouts, and the lockstep interpreter runs the shared loop.
TEST_P(AttentionSm90a, WarpSpecializedMatchesFloat64Reference) {
    const Case& c = GetParam();
    ScopedEnv on("TILESCOPE_HOPPER_WS", "1");
    std::string text = ts::e2e::readRepoFile(c.path);
    ts::CompileOptions opts;
    opts.params = c.params;
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    ts::CompileResult plain;
    {
        ScopedEnv off("TILESCOPE_HOPPER_WS", "0");
        plain = ts::compile(c.path, text, opts);
        ASSERT_TRUE(plain.ok) << diagText(plain);
    }
    setenv("TILESCOPE_HOPPER_WS", "1", 1);
    ts::CompileResult r = ts::compile(c.path, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    const unsigned consumers = plain.kernel.block[0];
    EXPECT_EQ(r.kernel.block[0], consumers + 128) << "a producer warpgroup after the consumers";
    const std::string elected = "if (threadIdx.x == " + std::to_string(consumers) + ") ts::tma_load_tile<";
    EXPECT_NE(r.cuda.find(elected), std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("if (threadIdx.x == 0) ts::"), std::string::npos);
    EXPECT_NE(r.cuda.find("__launch_bounds__(" + std::to_string(consumers + 128)), std::string::npos);
    ts::e2e::expectInterpretersMatchReference(r, c.label + " (warp-specialized)");
    if (!ts::rt::nvrtcAvailable()) GTEST_SKIP() << "no NVRTC in this build";
    auto nv = ts::rt::compileCuda(r.cuda, "sm_90a", {}, true);
    EXPECT_TRUE(nv.ok) << nv.log;
}

const Case kSm90aCases[] = {
    {kFwd, {}, "fwd_ragged"},
    {kFwd, {{"is_causal", "True"}, {"groups", "2"}}, "fwd_ragged_causal_gqa2"},
    {kFwd, {{"dtype", "bfloat16"}, {"heads", "8"}, {"groups", "8"}}, "fwd_bf16_gqa8"},
    // Two warpgroups (block_M 128, 256 threads), 128-wide key tiles, dim 128: wgmma m64n128.
    {kFwd,
     {{"seq_len", "200"}, {"dim", "128"}, {"heads", "2"}, {"block_M", "128"}, {"block_N", "128"}, {"threads", "256"},
      {"is_causal", "True"}},
     "fwd_two_warpgroups_causal"},
    {kFwd, {{"seq_len", "100"}, {"block_N", "32"}, {"num_stages", "1"}}, "fwd_one_stage_n32"},
    {kFwd, {{"seq_len", "130"}, {"block_N", "64"}, {"num_stages", "3"}, {"is_causal", "True"}}, "fwd_three_stages"},
    // Trip counts 1, 2, 3 with stages 1..3: one key tile (the refill never runs), exactly two
    // tiles, three tiles of which the last has one row (S = 129 with 64-key tiles).
    {kFwd, {{"seq_len", "40"}, {"num_stages", "3"}}, "fwd_one_trip_three_stages"},
    {kFwd, {{"seq_len", "128"}, {"num_stages", "1"}}, "fwd_two_trips_one_stage"},
    {kFwd, {{"seq_len", "129"}, {"num_stages", "2"}, {"groups", "4"}, {"heads", "4"}}, "fwd_three_trips_last_row_alone"},
    {kSample, {{"seq_len", "80"}, {"is_causal", "True"}}, "bhsd_sample_causal"},
    {kGqa, {{"causal", "True"}}, "gqa_lse_causal"},
};
INSTANTIATE_TEST_SUITE_P(All, AttentionSm90a, ::testing::ValuesIn(kSm90aCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

// TMA legality across column offsets and row pitches (tests/e2e/programs/attention_kv_window.py):
// K/V windows at inner offsets 0, 8 and 64 of wider tensors are TMA boxes at those coordinates;
// 68 fp16 columns (136-byte rows) cannot be a TMA tensor, so that kernel keeps cp.async and says
// why. Every variant matches float64 on both interpreters and compiles for sm_80 and sm_90a.
TEST(AttentionSm90aTma, ColumnWindowsUseTmaExactlyWhereLegal) {
    const char* path = "tests/e2e/programs/attention_kv_window.py";
    std::string text = ts::e2e::readRepoFile(path);
    struct Window {
        const char *seq, *cols, *off, *stages;
        bool tma;
    };
    for (const Window& w : {Window{"100", "64", "0", "2", true}, Window{"70", "72", "8", "3", true},
                            Window{"33", "128", "64", "1", true}, Window{"100", "68", "4", "2", false}}) {
        const std::string label = std::string("seq ") + w.seq + " cols " + w.cols + " off " + w.off + " stages " + w.stages;
        ts::CompileOptions opts;
        opts.params = {{"seq_len", w.seq}, {"cols", w.cols}, {"off", w.off}, {"num_stages", w.stages}};
        opts.target = "cuda:sm_90a";
        opts.recordSnapshots = false;
        ts::CompileResult r = ts::compile(path, text, opts);
        ASSERT_TRUE(r.ok) << label << "\n" << diagText(r);
        EXPECT_NE(r.cuda.find("ts::wgmma_gemm_rs<"), std::string::npos) << label;
        bool kvTma = false;  // tensor maps over K (1) or V (2): the loop's TMA schedule
        for (auto& m : r.kernel.tensorMaps) kvTma |= m.tensor == 1 || m.tensor == 2;
        EXPECT_EQ(kvTma, w.tma) << label << "\n" << diagText(r);
        // Without the TMA pipeline, Q's plain copy (parameter 0) may take TMA on its own (ops/CopyTma.cpp).
        // The output's map too when its store is staged (StageEpilogue.cpp).
        const size_t staged = ts::e2e::stagedEpilogues(r);
        if (w.tma)
            EXPECT_EQ(r.kernel.tensorMaps.size(), 2u + staged) << label;
        else
            for (auto& m : r.kernel.tensorMaps) EXPECT_TRUE(m.tensor == 0 || (staged && r.kernel.args.at(size_t(m.tensor)).isOutput)) << label;
        if (w.tma) {
            EXPECT_EQ(r.kernel.tensorMaps[0].boxInner, 64) << label;  // 128-byte panels of 64 halves
            EXPECT_EQ(r.kernel.tensorMaps[0].boxOuter, 32) << label;  // block_N rows
            EXPECT_EQ(r.kernel.tensorMaps[0].rowDim, 0) << label;
            // The window's column offset is the box's inner coordinate.
            EXPECT_NE(r.cuda.find("(&tma_map_0, "), std::string::npos) << label;
        } else {
            EXPECT_TRUE(hasNote(r, "rows of 'K' are not a multiple of 16 bytes")) << label << "\n" << diagText(r);
            EXPECT_LE(count(r.cuda, "ts::tma_load_tile<"), 1u) << label;
        }
        ts::e2e::expectInterpretersMatchReference(r, label);
        if (!ts::rt::nvrtcAvailable()) continue;
        for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
            opts.target = target;
            ts::CompileResult rt = ts::compile(path, text, opts);
            ASSERT_TRUE(rt.ok) << label << " " << target;
            auto nv = ts::rt::compileCuda(rt.cuda, ts::parseTarget(target)->arch(), {}, true);
            EXPECT_TRUE(nv.ok) << label << " " << target << "\n" << nv.log;
        }
    }
}

// A gemm that can take neither sm_90a path says why (8 warps on 64 query rows: two warp columns).
TEST(AttentionSm90aNotes, AGemmLeftOnSm80SaysWhy) {
    std::string text = ts::e2e::readRepoFile(kFwd);
    ts::CompileOptions opts;
    opts.params = {{"threads", "256"}};
    opts.target = "cuda:sm_90a";
    opts.recordSnapshots = false;
    ts::CompileResult r = ts::compile(kFwd, text, opts);
    ASSERT_TRUE(r.ok) << diagText(r);
    EXPECT_TRUE(hasNote(r, "T.gemm stays on mma.sync (the sm_80 path; each T.copy's note says whether it takes TMA) on sm_90a")) << diagText(r);
    // 64 rows on 256 threads: Q K^T takes wgmma with the two warpgroups side by side (32 key
    // columns each, the mma_c layout in warpgroup order); P @ V cannot (a register A operand split
    // along N would need every column of P in both warpgroups) and says so.
    EXPECT_TRUE(hasNote(r, "a register A operand with the warpgroups split along N (each of the 2 warpgroup columns would need "
                           "every column of A's rows): give every warpgroup its own rows (block_M = 128 for threads=256, or fewer threads)"))
        << diagText(r);
    EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<64, 64, 64, 1, false, true, 0, ts::half, 2, 0, 0, true>("), std::string::npos) << r.cuda;
    // Two warp columns on the sm_80 gemm: P reaches mma.sync through a shared tile (gemm_ss).
    EXPECT_NE(r.cuda.find("ts::gemm_ss<"), std::string::npos);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "attention 64 rows on 256 threads"));
    // sm_80 compiles say nothing about wgmma.
    opts.target = "cuda:sm_80";
    ts::CompileResult r80 = ts::compile(kFwd, text, opts);
    ASSERT_TRUE(r80.ok);
    for (auto& d : r80.diagnostics) EXPECT_NE(d.severity, ts::Severity::Note) << d.message;
}

}  // namespace
