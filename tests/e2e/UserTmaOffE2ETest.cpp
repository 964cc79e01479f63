// TMA stays off where the user turned it off (xform::tmaDisabledWhy, Hopper.h), on every sm_90a
// schedule that chooses TMA for a copy:
//  - T.copy(..., disable_tma=True) inside a T.Pipelined loop: the GEMM path's wgmma schedule
//    (InjectPipelineTma.cpp) and the FlashAttention fragment path (fragmentTmaCopies) ignored it
//    until 2026-12-04 and loaded the tile by TMA anyway; now the loop takes the cp.async schedule,
//    in which that copy keeps cp.async and the other copies still take TMA (each copy's note);
//  - @tilelang.jit(pass_configs={"tl.disable_tma_lower": True}): no TMA load and no TMA store in
//    the kernel (TileLang's meaning); before, only the staged epilogue read it.
// Each program runs on both interpreters against float64 and compiles with NVRTC for sm_80 and
// sm_90a. The copy texts are edited from the samples here, so the programs stay the samples.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

ts::CompileResult compileText(const std::string& name, const std::string& text, const std::map<std::string, std::string>& p,
                              const char* target = "cuda:sm_90a") {
    ts::CompileOptions o;
    o.params = p;
    o.target = target;
    o.recordSnapshots = false;
    return ts::compile(name, text, o);
}

bool hasNote(const ts::CompileResult& r, const std::string& part, const std::string& hint = "") {
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.message.find(part) != std::string::npos && d.hint.find(hint) != std::string::npos)
            return true;
    return false;
}

const std::map<std::string, std::string> kGemm{{"M", "256"}, {"N", "192"}, {"K", "160"}, {"block_K", "32"}};

TEST(UserTmaOff, PipelinedGemmCopyWithDisableTmaKeepsCpAsyncTheOtherCopyStillTakesTma) {
    const std::string text = replaced(ts::e2e::readRepoFile("samples/gemm.py"), "T.copy(A[by * block_M, k * block_K], A_shared)",
                                      "T.copy(A[by * block_M, k * block_K], A_shared, disable_tma=True)");
    ts::CompileResult r = compileText("gemm_a_no_tma.py", text, kGemm);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    // A by cp.async, B by TMA: the loads of A_shared are cp.async ones, B_shared's a TMA box.
    EXPECT_NE(r.cuda.find("cp_async"), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find("&B_shared["), std::string::npos);
    size_t tmaLoads = 0;
    for (size_t at = r.cuda.find("ts::tma_load_tile<"); at != std::string::npos; at = r.cuda.find("ts::tma_load_tile<", at + 1)) {
        const std::string call = r.cuda.substr(at, r.cuda.find(';', at) - at);
        EXPECT_EQ(call.find("A_shared"), std::string::npos) << call;
        ++tmaLoads;
    }
    EXPECT_GE(tmaLoads, 1u) << "B should still be loaded by TMA\n" << r.cuda;
    EXPECT_TRUE(hasNote(r, "T.copy into 'A_shared' keeps cp.async in the T.Pipelined schedule: disable_tma=True", "drop disable_tma=True"))
        << ts::e2e::diagText(r);
    EXPECT_TRUE(hasNote(r, "T.copy into 'B_shared' is loaded by TMA")) << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "gemm A disable_tma"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90aText("gemm_a_no_tma.py", text, kGemm);
}

TEST(UserTmaOff, PassConfigDisableTmaLowerMeansNoTmaLoadOrStoreAnywhere) {
    const std::string file = "tests/e2e/programs/gemm_epilogue_no_tma_lower.py";
    const std::string text = ts::e2e::readRepoFile(file);
    ts::CompileResult r = compileText(file, text, kGemm);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("tma_load"), std::string::npos) << r.cuda;
    EXPECT_EQ(r.cuda.find("tma_store"), std::string::npos) << r.cuda;
    EXPECT_TRUE(r.kernel.tensorMaps.empty());
    EXPECT_NE(r.cuda.find("wgmma"), std::string::npos) << "the gemm itself still takes wgmma";
    EXPECT_TRUE(hasNote(r, "T.copy into 'A_shared' keeps cp.async in the T.Pipelined schedule: pass_configs tl.disable_tma_lower is True",
                        "remove \"tl.disable_tma_lower\" from the kernel's pass_configs"))
        << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "gemm tl.disable_tma_lower"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90aText(file, text, kGemm);
}

TEST(UserTmaOff, AttentionKCopyWithDisableTmaLeavesTheFragmentTmaSchedule) {
    const std::string text = replaced(ts::e2e::readRepoFile("samples/flash_attn_fwd.py"), "T.copy(K[b, k0:k0 + block_N, kv_head, :], K_s)",
                                      "T.copy(K[b, k0:k0 + block_N, kv_head, :], K_s, disable_tma=True)");
    const std::map<std::string, std::string> p{{"batch", "1"}, {"heads", "2"}, {"seq_len", "200"}, {"dim", "64"}, {"is_causal", "True"}};
    ts::CompileResult r = compileText("attn_k_no_tma.py", text, p);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    for (size_t at = r.cuda.find("ts::tma_load_tile<"); at != std::string::npos; at = r.cuda.find("ts::tma_load_tile<", at + 1)) {
        const std::string call = r.cuda.substr(at, r.cuda.find(';', at) - at);
        EXPECT_EQ(call.find("K_s"), std::string::npos) << call;
    }
    EXPECT_TRUE(hasNote(r, "the copy into 'K_s' takes no TMA: disable_tma=True")) << ts::e2e::diagText(r);
    EXPECT_TRUE(hasNote(r, "T.copy into 'K_s' keeps cp.async in the T.Pipelined schedule: disable_tma=True")) << ts::e2e::diagText(r);
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "attention K disable_tma"));
    ts::e2e::expectNvrtcCompilesForSm80AndSm90aText("attn_k_no_tma.py", text, p);
}

// The same gemm note for the kernel-wide switch reads as a sentence ("the copy into 'K_s' has
// pass_configs tl.disable_tma_lower is True" before), and no copy of the attention takes TMA.
TEST(UserTmaOff, AttentionPassConfigNoteNamesTheSwitch) {
    const std::string text = replaced(ts::e2e::readRepoFile("samples/flash_attn_fwd.py"), "@tilelang.jit(out_idx=[3])",
                                      "@tilelang.jit(out_idx=[3], pass_configs={\"tl.disable_tma_lower\": True})");
    ASSERT_NE(text.find("tl.disable_tma_lower"), std::string::npos) << "the sample's decorator changed";
    ts::CompileResult r = compileText("attn_pass_config_no_tma.py", text, {{"seq_len", "128"}});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_EQ(r.cuda.find("tma_load"), std::string::npos) << r.cuda;
    EXPECT_TRUE(hasNote(r, "the copy into 'K_s' takes no TMA: pass_configs tl.disable_tma_lower is True")) << ts::e2e::diagText(r);
    EXPECT_FALSE(hasNote(r, "has pass_configs")) << ts::e2e::diagText(r);
}

}  // namespace
