// What the notes say about a T.gemm's path on sm_90a (fresh-user findings, helper-95):
//  - register A (samples/mha_bwd.py mha_bwd_main line 188, T.gemm(pT, dO_s, dv)): the note led
//    with "T.gemm uses wgmma on the fragment layouts ... the TMA GEMM path declines it: A ('pT')
//    is a fragment" and the TMA path's hint, as if something were to be fixed; it now leads with
//    the reason and says the fragment path (wgmma with A from registers) runs;
//  - B in registers (tests/e2e/programs/gemm_fragment_b.py line 29, T.gemm(a, w, acc1)): both
//    reasons were generic ("operands are not shared tiles with a fragment accumulator"; "B is not
//    a shared tile, or A neither a shared tile nor a fragment"); now one reason naming B and its
//    scope, and a hint naming the tile to copy;
// The generated code of these kernels is not changed by the notes.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"

namespace {

ts::CompileResult compileAt(const std::string& file, const std::string& target, const std::string& kernel = {},
                            const std::map<std::string, std::string>& params = {}) {
    ts::CompileOptions o;
    o.target = target;
    o.kernel = kernel;
    o.params = params;
    o.recordSnapshots = false;
    return ts::compile(file, ts::e2e::readRepoFile(file), o);
}

const ts::Diagnostic* at(const ts::CompileResult& r, ts::Severity sev, uint32_t line) {
    for (auto& d : r.diagnostics)
        if (d.severity == sev && d.span.line == line) return &d;
    return nullptr;
}

TEST(GemmPathNotes, RegisterALeadsWithTheFragmentAndTheFragmentPath) {
    ts::CompileResult r = compileAt("samples/mha_bwd.py", "cuda:sm_90a", "mha_bwd_main");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    const ts::Diagnostic* d = at(r, ts::Severity::Note, 188);
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

}  // namespace
