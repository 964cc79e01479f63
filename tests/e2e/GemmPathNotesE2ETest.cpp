// What the notes say about a T.gemm's path on sm_90a, and the shared-memory error of a TMA-only
// staging tile elsewhere (fresh-user findings, helper-95):
//  - register A (samples/mha_bwd.py mha_bwd_main line 188, T.gemm(pT, dO_s, dv)): the note led
//    with "T.gemm uses wgmma on the fragment layouts ... the TMA GEMM path declines it: A ('pT')
//    is a fragment" and the TMA path's hint, as if something were to be fixed; it now leads with
//    the reason and says the fragment path (wgmma with A from registers) runs;
//  - B in registers (tests/e2e/programs/gemm_fragment_b.py line 29, T.gemm(a, w, acc1)): both
//    reasons were generic ("operands are not shared tiles with a fragment accumulator"; "B is not
//    a shared tile, or A neither a shared tile nor a fragment"); now one reason naming B and its
//    scope, and a hint naming the tile to copy;
//  - samples/mha_bwd.py dq_tma=True on hip:gfx90a: 66560 bytes of LDS, 65536 allowed; 16384 of
//    them (64 x 64 float32) are dq_s, which only feeds the T.atomic_add(..., use_tma=True) of line
//    204 -- per-element atomics on gfx90a. The error pointed at T.Kernel ("use smaller tiles"); it
//    now points at dq_s's T.alloc_shared (line 167, column 24) and names the add and the fragment.
// The generated code of these kernels is not changed by the notes (the error is the same failure).
#include <algorithm>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

ts::CompileResult compileAt(const std::string& file, const std::string& target, const std::string& kernel = {},
                            const std::map<std::string, std::string>& params = {}) {
    return ts::e2e::compileRepoFile(file, params, target, kernel);
}

// The line of mha_bwd_main's macro call without dq_convert (the body is a @T.macro shared by
// the two signatures): later errors at the body's lines name it.
size_t macroCallLine() {
    const std::string text = ts::e2e::readRepoFile("samples/mha_bwd.py");
    const size_t at = text.find("body(Q, K, V, dO, lse, Delta, dK, dV, dQ_acc, None, None)");
    return at == std::string::npos ? 0 : size_t(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
}

const ts::Diagnostic* at(const ts::CompileResult& r, ts::Severity sev, uint32_t line) {
    for (auto& d : r.diagnostics)
        if (d.severity == sev && d.span.line == line) return &d;
    return nullptr;
}

TEST(GemmPathNotes, RegisterALeadsWithTheFragmentAndTheFragmentPath) {
    ts::CompileResult r = compileAt("samples/mha_bwd.py", "cuda:sm_90a", "mha_bwd_main");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const ts::Diagnostic* d = at(r, ts::Severity::Note, 191);
    ASSERT_NE(d, nullptr) << ts::e2e::diagText(r);
    EXPECT_EQ(d->message,
              "T.gemm: A ('pT') is a fragment, so it takes the fragment path (wgmma with A from registers; the TMA GEMM path reads "
              "both operands from shared tiles); its loop keeps the cp.async pipeline schedule, whose copies take TMA where legal "
              "(each copy's note says which); the fragment path's TMA schedule declines the loop: the copy into 'lse_s' does not "
              "fill a wgmma operand tile at the loop's top level");
    EXPECT_EQ(d->hint, "nothing needs to change: wgmma reads A ('pT') from registers where it was computed");
    EXPECT_EQ(d->span.col, 17u);
    // A shared A keeps its note (line 179, T.gemm(K_s, Q_s, qkT): K_s is loaded before the loop).
    const ts::Diagnostic* shared = at(r, ts::Severity::Note, 179);
    ASSERT_NE(shared, nullptr);
    EXPECT_EQ(shared->message.rfind("T.gemm uses wgmma on the fragment layouts; its loop keeps the cp.async pipeline schedule", 0), 0u)
        << shared->message;
    // The same kernel runs wgmma with a register A (the notes describe the code).
    EXPECT_NE(r.cuda.find("wgmma_gemm_rs"), std::string::npos);

    // With the fragment path's TMA schedule (flash attention's P V, line 97): the same lead.
    ts::CompileResult fa = compileAt("samples/flash_attn_fwd.py", "cuda:sm_90a");
    ASSERT_TRUE(fa.ok) << ts::e2e::diagText(fa);
    const ts::Diagnostic* pv = at(fa, ts::Severity::Note, 97);
    ASSERT_NE(pv, nullptr) << ts::e2e::diagText(fa);
    EXPECT_EQ(pv->message,
              "T.gemm: A ('P') is a fragment, so it takes the fragment path (wgmma with A from registers; the TMA GEMM path reads "
              "both operands from shared tiles); its loop's tiles are loaded by TMA (mbarrier pipeline, no block barrier in the loop)");
}

TEST(GemmPathNotes, RegisterBNamesTheOperandAndItsScope) {
    ts::CompileResult r = compileAt("tests/e2e/programs/gemm_fragment_b.py", "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const ts::Diagnostic* d = at(r, ts::Severity::Note, 29);
    ASSERT_NE(d, nullptr) << ts::e2e::diagText(r);
    EXPECT_EQ(d->message,
              "T.gemm stays on mma.sync (the sm_80 path; each T.copy's note says whether it takes TMA) on sm_90a: B ('w') is a "
              "fragment: wgmma reads B from shared memory; copy it into a T.alloc_shared tile");
    EXPECT_EQ(d->hint, "mma.sync is correct as it is; for wgmma, T.copy 'w' into a T.alloc_shared tile and pass that tile to T.gemm");
    const ts::Diagnostic* t = at(r, ts::Severity::Note, 30);
    ASSERT_NE(t, nullptr);
    EXPECT_NE(t->message.find(": B ('wt') is a fragment: wgmma reads B from shared memory"), std::string::npos) << t->message;
    for (auto& x : r.diagnostics) {
        EXPECT_EQ(x.message.find("or A neither"), std::string::npos) << x.message;
        EXPECT_EQ(x.message.find("operands are not shared tiles"), std::string::npos) << x.message;
    }
    EXPECT_EQ(r.cuda.find("wgmma"), std::string::npos);
}

TEST(GemmPathNotes, TmaOnlyStagingTileOverTheLdsLimitIsNamedAtItsAllocation) {
    ts::CompileResult r = compileAt("samples/mha_bwd.py", "hip:gfx90a", "mha_bwd_main", {{"dq_tma", "True"}});
    EXPECT_FALSE(r.ok);
    std::vector<const ts::Diagnostic*> errors;
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Error) errors.push_back(&d);
    ASSERT_EQ(errors.size(), 1u) << ts::e2e::diagText(r);
    EXPECT_EQ(errors[0]->span.line, 167u);  // dq_s = T.alloc_shared((block_N, dim), acc)
    EXPECT_EQ(errors[0]->span.col, 24u);
    EXPECT_EQ(errors[0]->message,
              "shared memory: the kernel needs 66560 bytes, more than the 65536-byte per-block limit of gfx90a; 16384 of them are "
              "'dq_s', which only stages the T.atomic_add(..., use_tma=True) at line 208: gfx90a has no TMA (TileScope's TMA is "
              "cuda:sm_90a's), so that add is per-element atomics and needs no shared tile (in @T.macro 'body' called at line " +
                  std::to_string(macroCallLine()) + ":13)");
    EXPECT_EQ(errors[0]->hint,
              "T.atomic_add from 'dq' directly (no shared tile) on this target, or compile for cuda:sm_90a, whose TMA reduce-add "
              "reads 'dq_s'");
    // The sample's default (dq_tma=False) fits, and so does dq_tma=True where TMA adds the tile.
    EXPECT_TRUE(compileAt("samples/mha_bwd.py", "hip:gfx90a", "mha_bwd_main").ok);
    ts::CompileResult tma = compileAt("samples/mha_bwd.py", "cuda:sm_90a", "mha_bwd_main", {{"dq_tma", "True"}});
    EXPECT_TRUE(tma.ok) << ts::e2e::diagText(tma);
    // A kernel over the limit without such a tile keeps the error at T.Kernel.
    ts::CompileResult big = compileAt("samples/mha_bwd.py", "hip:gfx90a", "mha_bwd_main", {{"block_M", "128"}, {"block_N", "128"}});
    EXPECT_FALSE(big.ok);
    for (auto& d : big.diagnostics)
        if (d.severity == ts::Severity::Error) {
            EXPECT_EQ(d.span.line, 148u) << d.message;
            EXPECT_EQ(d.message.find("stages"), std::string::npos) << d.message;
        }
}

}  // namespace
