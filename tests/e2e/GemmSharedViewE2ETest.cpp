// T.gemm operands that are sub-regions of shared tiles read in place (issue 8: the DeepSeek
// MLA decode / V3.2 sparse MLA kernels of the corpus overflowed shared memory because every
// slice was copied into a tile of its own). tests/e2e/programs/gemm_shared_view.py slices a 2-D
// tile and one stage of a 3-D tile by columns at offset `off` and off + D, as A, as B
// (transposed and not), against a register A (gemm_rs) and a transposed A. For fp16 and bf16,
// off = 0 and 64, sm_80 and sm_90a:
//  - both interpreters match the float64 ref_program;
//  - the generated CUDA passes the view to ts::gemm_ss / ts::gemm_rs on sm_80, to ts::wgmma_gemm_ss /
//    wgmma_gemm_rs on sm_90a (since 2026-12-04: one stage of kv is a wgmma tile, the column views
//    whole panels), never a '_slice' tile, and NVRTC compiles it for sm_80 and sm_90a;
//  - the kernel's shared memory is exactly the three tiles the program allocates
//    (M*W + 2*N*W + M*N elements, W = off + D + Dt), i.e. no extra tile;
// and with off = 4 (8 bytes: not a 16-byte ldmatrix row) the slices are copied, with a note
// saying why, and the results are still right.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "compiler/ir/Functor.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

using ts::e2e::diagText;

const char* kPath = "tests/e2e/programs/gemm_shared_view.py";

struct Case {
    std::string target, dtype;
    int off;
};

std::string label(const Case& c) {
    return c.target.substr(5) + "_" + c.dtype + "_off" + std::to_string(c.off);
}

ts::CompileResult compileCase(const Case& c) {
    ts::CompileOptions opts;
    opts.params = {{"off", std::to_string(c.off)}, {"dtype", c.dtype}};
    opts.target = c.target;
    return ts::compile(kPath, ts::e2e::readRepoFile(kPath), opts);
}

/// Names of the shared buffers allocated in the lowered IR.
std::vector<std::string> sharedAllocs(const ts::ir::PrimFunc& f) {
    std::vector<std::string> out;
    ts::ir::walk(f->body, [&](const ts::ir::Stmt& s) {
        // The plain-copy TMA mbarriers of sm_90a (tma_copy_bar_N) are not tiles; counted in bytes below.
        if (auto* a = ts::ir::as<ts::ir::AllocNode>(s); a && a->buffer->scope == ts::ir::Scope::Shared &&
                                                         a->buffer->name.rfind("tma_copy_bar_", 0) != 0)
            out.push_back(a->buffer->name);
    });
    return out;
}

bool hasCopyNote(const ts::CompileResult& r) {
    for (auto& d : r.diagnostics)
        if (d.message.find("is copied into a tile of its own") != std::string::npos) return true;
    return false;
}

class GemmSharedView : public ::testing::TestWithParam<Case> {};


// Shared bytes the plain-copy TMA mbarriers add (sm_90a only; see CopyTma.cpp): one 1024-byte
// slot ahead of the 128-byte-swizzled tiles.
size_t tmaBarrierSlot(const std::string& target) { return target == "cuda:sm_90a" ? 1024 : 0; }

TEST_P(GemmSharedView, BothInterpretersMatchFloat64Reference) {
    ts::CompileResult r = compileCase(GetParam());
    ASSERT_TRUE(r.ok) << diagText(r);
    ts::e2e::expectInterpretersMatchReference(r, label(GetParam()));
}

TEST_P(GemmSharedView, ReadsSlicesInPlaceWithoutExtraSharedMemory) {
    const Case& c = GetParam();
    ts::CompileResult r = compileCase(c);
    ASSERT_TRUE(r.ok) << diagText(r);
    const int64_t M = 64, N = 64, D = 64, Dt = 64, W = c.off + D + Dt, e = 2;
    EXPECT_FALSE(hasCopyNote(r)) << diagText(r);
    // + the staged epilogue tile on sm_90a (StageEpilogue.cpp), in bytes the others free.
    auto expected = std::vector<std::string>{"q", "kv", "p"};
    if (ts::e2e::stagedEpilogues(r)) expected.push_back("acc_s_stage");
    EXPECT_EQ(sharedAllocs(r.lowered), expected);
    // Three 128-byte multiples, all live together: nothing to align or overlap. On sm_90a the
    // plain copies take TMA: their mbarriers (8 bytes each) sit in one 1024-byte slot, since the
    // 128-byte-swizzled tiles TMA writes must start at 1024-byte boundaries.
    EXPECT_EQ(r.kernel.dynamicSmemBytes, size_t((M * W + 2 * N * W + M * N) * e) + tmaBarrierSlot(c.target));
    if (c.target == "cuda:sm_90a") {
        // wgmma on the fragment layouts (SelectHopperFragment.cpp): each view is whole 128-byte
        // panels of its tile (64 fp16 columns x 64 rows = 4096 elements per panel), one stage of
        // kv is N * W elements, so the operands are addresses into the tiles, nothing copied.
        const auto panel = [&](int64_t col) { return std::to_string(col / 64 * 64 * 64); };
        const auto kvAt = [&](int64_t stage, int64_t col) { return std::to_string(stage * N * W + col / 64 * 64 * 64); };
        const std::string ty = c.dtype == "float16" ? "ts::half" : "ts::bfloat16";
        // T.clear(acc_s) right before the first gemm: folded into it (simplify), the wgmma's
        // first k-step ignores the registers (CLEAR, the last template argument).
        EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<64, 64, 64, 1, false, true, 0, " + ty + ", 1, 0, 0, true>(&q[" + panel(c.off) +
                              "], &kv[" + kvAt(1, c.off) + "], &acc_s[0]);"),
                  std::string::npos)
            << r.cuda;
        EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<64, 64, 64, 1, false, true, 0, " + ty + ">(&q[" + panel(c.off + D) + "], &kv[" +
                              kvAt(1, c.off + D) + "], &acc_s[0]);"),
                  std::string::npos);
        EXPECT_NE(r.cuda.find("ts::wgmma_gemm_rs<64, 64, 64, 1, false, " + ty + ">(&pf[0], &kv[" + kvAt(0, c.off) + "], &acc_o1[0]);"),
                  std::string::npos);
        EXPECT_NE(r.cuda.find("ts::wgmma_gemm_ss<64, 64, 64, 1, true, false, 0, " + ty + ", 1, 0, 0, true>(&p[0], &q[" + panel(c.off) +
                              "], &acc_o2[0]);"),
                  std::string::npos);
        return;
    }
    // sm_80: the views as ts::gemm_ss / gemm_rs template arguments: row length W, origins off, off + D.
    const std::string w = std::to_string(W), o = std::to_string(c.off), o2 = std::to_string(c.off + D);
    EXPECT_NE(r.cuda.find(", float, " + w + ", " + o + ", " + w + ", " + o + ">(&q[0], &kv["), std::string::npos) << r.cuda;
    EXPECT_NE(r.cuda.find(", float, " + w + ", " + o2 + ", " + w + ", " + o2 + ">(&q[0], &kv["), std::string::npos);
    EXPECT_NE(r.cuda.find(", " + w + ", " + o + ">(&pf[0], &kv[0]"), std::string::npos);      // gemm_rs
    EXPECT_NE(r.cuda.find(", float, 0, 0, " + w + ", " + o + ">(&p[0], &q[0]"), std::string::npos);  // transposed A
}

TEST(GemmSharedView, GeneratedCudaCompilesForSm80AndSm90a) {
    for (const char* dtype : {"float16", "bfloat16"})
        for (const char* off : {"0", "64"}) ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kPath, {{"off", off}, {"dtype", dtype}});
}

const Case kCases[] = {
    {"cuda:sm_80", "float16", 0},   {"cuda:sm_80", "float16", 64},  {"cuda:sm_80", "bfloat16", 0},
    {"cuda:sm_80", "bfloat16", 64}, {"cuda:sm_90a", "float16", 0},  {"cuda:sm_90a", "float16", 64},
    {"cuda:sm_90a", "bfloat16", 0}, {"cuda:sm_90a", "bfloat16", 64},
};
INSTANTIATE_TEST_SUITE_P(All, GemmSharedView, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return label(i.param); });

// A column offset of 4 fp16 elements (8 bytes) is no ldmatrix row start: the slices are copied
// into tiles of their own, a note says so, and the results are still right.
TEST(GemmSharedView, UnalignedSliceFallsBackToACopyWithANote) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileCase({target, "float16", 4});
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_TRUE(hasCopyNote(r)) << diagText(r);
        bool sliceTile = false;
        for (auto& n : sharedAllocs(r.lowered)) sliceTile |= n.find("_slice") != std::string::npos;
        EXPECT_TRUE(sliceTile);
        ts::e2e::expectInterpretersMatchReference(r, std::string("off4_") + target);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kPath, {{"off", "4"}});
}

// --- sm_90a: wgmma reads column slices that are whole swizzle panels in place --------------

const char* kWgmma = "tests/e2e/programs/gemm_shared_view_wgmma.py";
const char* kPipelined = "tests/e2e/programs/gemm_shared_view_pipelined.py";

ts::CompileResult compileFile(const char* path, const std::map<std::string, std::string>& params, const char* target) {
    ts::CompileOptions opts;
    opts.params = params;
    opts.target = target;
    return ts::compile(path, ts::e2e::readRepoFile(path), opts);
}

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
}

// off = 64: every slice starts on a 64-element panel of a tile with 128-byte panels; the three
// gemms take wgmma at the panels' addresses (q and k are 64 x 192: panel p starts at element
// 64 * 64 * p), and shared memory is the three tiles (64*192 + 64*192 + 64*64 fp16 elements).
TEST(GemmSharedViewWgmma, PanelAlignedSlicesTakeWgmmaInPlace) {
    for (const char* dtype : {"float16", "bfloat16"}) {
        ts::CompileResult r = compileFile(kWgmma, {{"off", "64"}, {"dtype", dtype}}, "cuda:sm_90a");
        ASSERT_TRUE(r.ok) << diagText(r);
        EXPECT_EQ(count(r.cuda, "ts::wgmma_gemm_ss<"), 3u) << r.cuda;
        EXPECT_EQ(count(r.cuda, "ts::gemm_ss<"), 0u);
        EXPECT_NE(r.cuda.find("(&q[4096], &k[4096], &acc_s[0])"), std::string::npos) << r.cuda;
        EXPECT_NE(r.cuda.find("(&q[8192], &k[8192], &acc_s[0])"), std::string::npos);
        EXPECT_NE(r.cuda.find("(&p[0], &k[4096], &acc_o[0])"), std::string::npos);
        auto expected = std::vector<std::string>{"q", "k", "p"};
        if (ts::e2e::stagedEpilogues(r)) expected.push_back("acc_s_stage");  // StageEpilogue.cpp
        EXPECT_EQ(sharedAllocs(r.lowered), expected);
        EXPECT_EQ(r.kernel.dynamicSmemBytes, size_t((64 * 192 + 64 * 192 + 64 * 64) * 2) + tmaBarrierSlot("cuda:sm_90a"));
        ts::e2e::expectInterpretersMatchReference(r, std::string("wgmma_off64_") + dtype);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kWgmma, {{"off", "64"}});
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kWgmma, {{"off", "0"}, {"dtype", "bfloat16"}});
}

// off = Dt = 32 (tiles of 128 fp16 = 256-byte rows, a valid wgmma tile): q[:, 32:96] starts
// inside the first panel and q[:, 96:] is narrower than one, so wgmma cannot read them in place;
// the gemms stay on mma.sync, which does (16-byte-aligned origins), and the notes say why.
TEST(GemmSharedViewWgmma, SlicesInsideASwizzleAtomFallBackToMmaSyncInPlace) {
    for (const char* dtype : {"float16", "bfloat16"}) {
        ts::CompileResult r = compileFile(kWgmma, {{"off", "32"}, {"Dt", "32"}, {"dtype", dtype}}, "cuda:sm_90a");
        ASSERT_TRUE(r.ok) << diagText(r);
        const std::string notes = diagText(r);
        EXPECT_NE(notes.find("its first column 32 is not a multiple of the 64-element (128-byte) swizzle atom"), std::string::npos)
            << notes;
        EXPECT_NE(notes.find("its 32 columns are narrower than the tile's 64-element swizzle atom"), std::string::npos);
        EXPECT_FALSE(hasCopyNote(r));
        EXPECT_EQ(count(r.cuda, "ts::wgmma_gemm_ss<"), 0u);
        const std::string t = dtype[0] == 'b' ? "ts::bfloat16" : "ts::half";
        EXPECT_NE(r.cuda.find(t + ", float, 128, 32, 128, 32>(&q[0], &k[0]"), std::string::npos) << r.cuda;
        EXPECT_EQ(r.kernel.dynamicSmemBytes, size_t((64 * 128 + 64 * 128 + 64 * 64) * 2) + tmaBarrierSlot("cuda:sm_90a"));
        ts::e2e::expectInterpretersMatchReference(r, std::string("wgmma_off32_") + dtype);
    }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kWgmma, {{"off", "32"}, {"Dt", "32"}});
}

// In a T.Pipelined loop: TMA loads the staged k, wgmma reads both halves of q and of the stage in
// place (sm_90a); mma.sync reads them in place on sm_80. Both interpreters against float64.
TEST(GemmSharedViewWgmma, PipelinedTmaStagesAreReadInPlace) {
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"})
        for (const char* dtype : {"float16", "bfloat16"}) {
            ts::CompileResult r = compileFile(kPipelined, {{"dtype", dtype}}, target);
            ASSERT_TRUE(r.ok) << diagText(r);
            EXPECT_FALSE(hasCopyNote(r));
            if (std::string(target) == "cuda:sm_90a") {
                EXPECT_EQ(count(r.cuda, "ts::wgmma_gemm_ss<"), 2u) << r.cuda;
                EXPECT_NE(r.cuda.find("ts::tma_load_tile<"), std::string::npos);
                EXPECT_NE(r.cuda.find("(&q[4096], &k[(((t % 2) * 8192) + 4096)]"), std::string::npos) << r.cuda;
            } else {
                EXPECT_EQ(count(r.cuda, ", float, 128, 64, 128, 64>(&q[0], &k["), 1u) << r.cuda;
            }
            ts::e2e::expectInterpretersMatchReference(r, std::string("pipelined_") + target + "_" + dtype);
        }
    ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kPipelined, {});
}

}  // namespace
