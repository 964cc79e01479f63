// Epilogue staging on sm_90a (issue 9; compiler/transforms/StageEpilogue.cpp, the layout rule of
// compiler/ops/CopyOp.cpp, the swizzled pair stores of compiler/codegen/VectorAccess.cpp).
// Expected values are derived here, not read from the compiler:
//  - the staged tile of a bm x bn fp16 accumulator is bm*bn*2 bytes in bn*2/128 column panels of
//    64 elements (a 128-byte TMA swizzle span, PTX ISA 9.7.9.25.5.1 / 9.7.15.5.1.2): one TMA
//    store box of bm rows x 64 columns per panel;
//  - it takes the bytes of the pipeline's tiles: (bm*bk + bk*bn)*2*stages >= bm*bn*2 for the
//    defaults, so the kernel's shared memory equals the direct-store kernel's; a tile used only
//    before the pipeline shares the pipeline's bytes and adds none;
//  - a thread's two adjacent accumulator columns stay adjacent under the swizzle (it XORs 16-byte
//    chunk indices), so each pair is one 4-byte store;
//  - not staged: disable_tma=True, a shared tile used after the copy, stage bytes above the
//    pipeline's (block_K=16, 2 stages: 16 KiB < 32 KiB), a kernel with hand-written mbarriers
//    (its T.copy to global takes no TMA store), and every target without wgmma.
// Both interpreters match float64 on ragged sizes; NVRTC compiles both targets. The GPU run is
// bench/h200_call_2026_12_05b.sh.
#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/NvrtcBothTargets.h"

namespace {

const char* kFile = "tests/e2e/programs/gemm_epilogue_staging.py";

ts::CompileResult compileWith(const std::map<std::string, std::string>& p, const char* target = "cuda:sm_90a",
                              const char* file = kFile) {
    ts::CompileOptions opts;
    opts.params = p;
    opts.target = target;
    opts.recordSnapshots = false;
    return ts::compile(file, ts::e2e::readRepoFile(file), opts);
}

bool hasNote(const ts::CompileResult& r, const std::string& origin, const std::string& part) {
    for (auto& d : r.diagnostics)
        if (d.severity == ts::Severity::Note && d.origin == origin && d.message.find(part) != std::string::npos) return true;
    return false;
}

bool staged(const ts::CompileResult& r) { return r.cuda.find("C_local_stage") != std::string::npos; }

TEST(StageEpilogue, AccumulatorStoreGoesThroughASwizzledTileAndTma) {
    for (auto [bn, threads] : {std::pair{128, 128}, std::pair{256, 256}}) {
        const std::map<std::string, std::string> p{{"block_N", std::to_string(bn)}, {"threads", std::to_string(threads)},
                                                   {"M", "256"}, {"N", "512"}};
        ts::CompileResult r = compileWith(p);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        const int panels = bn * 2 / 128, bytes = 128 * bn * 2;
        EXPECT_TRUE(hasNote(r, "stage-epilogue", "T.copy from 'C_local' into 'C' goes through a shared tile 'C_local_stage' (" +
                                                     std::to_string(bytes) + " bytes"))
            << ts::e2e::diagText(r);
        EXPECT_NE(r.cuda.find("ts::tma_store_tile<" + std::to_string(panels) + ", 64, 128>(&tma_map_2, &C_local_stage[0], (bx * " +
                              std::to_string(bn) + "), (by * 128))"),
                  std::string::npos)
            << r.cuda;
        // The store's tensor map: C (parameter 2), 64 x 128 boxes, 128-byte swizzle.
        bool map = false;
        for (auto& m : r.kernel.tensorMaps) map |= m.tensor == 2 && m.boxInner == 64 && m.boxOuter == 128 && m.swizzleBytes == 128;
        EXPECT_TRUE(map);
        EXPECT_NE(r.cuda.find("ts_vec_store<ts::half, 2>(&C_local_stage["), std::string::npos) << r.cuda;
        // No direct pair stores into C remain.
        EXPECT_EQ(r.cuda.find("ts_store_pair(&C["), std::string::npos);
        // Same shared memory as the kernel that stores from registers.
        auto d = p;
        d["direct"] = "True";
        ts::CompileResult rd = compileWith(d);
        ASSERT_TRUE(rd.ok) << ts::e2e::diagText(rd);
        EXPECT_FALSE(staged(rd));
        EXPECT_EQ(r.kernel.dynamicSmemBytes, rd.kernel.dynamicSmemBytes) << "bn=" << bn;
        // The staged tile takes the pipeline tiles' bytes, never the mbarriers' (PTX ISA §9.7.13.15:
        // an mbarrier's memory is not reused without mbarrier.inval): tma_bar holds 3 stages x 8 bytes.
        const int64_t bar = ts::ir::attrInt(r.lowered->attrs, "smem_offset.tma_bar", -1);
        const int64_t stage = ts::ir::attrInt(r.lowered->attrs, "smem_offset.C_local_stage", -1);
        ASSERT_GE(bar, 0);
        ASSERT_GE(stage, 0);
        EXPECT_TRUE(stage >= bar + 3 * 8 || stage + bytes <= bar) << "tma_bar at " << bar << ", C_local_stage at " << stage;
    }
}

TEST(StageEpilogue, KeptDirectWhereItDoesNotApply) {
    struct Case {
        std::map<std::string, std::string> p;
        const char* target;
        const char* why;
    } cases[] = {
        {{{"direct", "True"}}, "cuda:sm_90a", "disable_tma=True"},
        {{{"after", "True"}}, "cuda:sm_90a", "a shared tile used after the copy"},
        {{{"block_K", "16"}, {"num_stages", "2"}}, "cuda:sm_90a", "16 KiB of pipeline tiles < 32 KiB staged"},
        // 48 KiB of tiles would hold the 32 KiB tile, but hand-written mbarriers keep the lowering
        // off TMA stores (plainTmaStoreWhyNot): staging would only add a round trip through shared.
        {{{"barrier", "True"}, {"block_K", "64"}}, "cuda:sm_90a", "hand-written mbarriers (no TMA store)"},
        {{}, "cuda:sm_80", "no TMA / wgmma"},
        // 4-byte elements: a thread's column pair is 8 bytes over two 16-byte chunks per row,
        // 2-way conflicts in the swizzled tile (and the direct float2 stores fill 32-byte sectors).
        {{{"out_dtype", "\"float32\""}, {"block_K", "64"}}, "cuda:sm_90a", "float32 output"},
        // pass_configs={"tl.disable_tma_lower": True} in the file.
        {{}, "cuda:sm_90a", "tl.disable_tma_lower"},
    };
    for (auto& c : cases) {
        const bool noTma = std::string(c.why) == "tl.disable_tma_lower";
        ts::CompileResult r = compileWith(c.p, c.target, noTma ? "tests/e2e/programs/gemm_epilogue_no_tma_lower.py" : kFile);
        ASSERT_TRUE(r.ok) << c.why << "\n" << ts::e2e::diagText(r);
        EXPECT_FALSE(staged(r)) << c.why;
        EXPECT_FALSE(hasNote(r, "stage-epilogue", "goes through")) << c.why;
        // A candidate the pass declines says why; the user's own choices (disable_tma, hand-written
        // mbarriers, pass_configs) and non-candidates (sm_80, float32 output) stay silent.
        const std::string why = c.why;
        const char* expected = why == "a shared tile used after the copy" ? "shared tile 'D_shared' is used after it"
                               : why.rfind("16 KiB", 0) == 0         ? "the staged tile needs 32768 bytes and the tiles live before it hold "
                                                                      : nullptr;
        if (expected)
            EXPECT_TRUE(hasNote(r, "stage-epilogue", std::string("T.copy from 'C_local' into 'C' stores from registers, not through a staged shared tile: ") +
                                                         expected))
                << c.why << "\n" << ts::e2e::diagText(r);
        else
            EXPECT_FALSE(hasNote(r, "stage-epilogue", "stores from registers")) << c.why << "\n" << ts::e2e::diagText(r);
    }
    // No legal TMA store (rows of 1001 fp16 = 2002 bytes): the gemm keeps mma.sync, its accumulator
    // is still a candidate, and the note names the store's rule.
    ts::CompileResult r = compileWith({{"N", "1001"}});
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_FALSE(staged(r));
    EXPECT_TRUE(hasNote(r, "stage-epilogue", "its store could not be a TMA store: rows of 'C' are not a multiple of 16 bytes"))
        << ts::e2e::diagText(r);
}

TEST(StageEpilogue, ScratchUsedBeforeThePipelineIsNotCountedTwice) {
    // before=True: a 128 x 128 int8 tile (16 KiB) used only before the loop. plan-smem gives the
    // pipeline's tiles its bytes, so with 2 stages of block_K=16 (8 KiB of A + 8 KiB of B) the
    // kernel holds 16 KiB, not 16 + 16: the 32 KiB staged tile would double it -- kept direct.
    // With the defaults (3 stages of block_K=32: 48 KiB live together) it is staged, and the
    // kernel's shared memory stays the direct kernel's.
    struct Case {
        std::map<std::string, std::string> p;
        bool staged;
    } cases[] = {
        {{{"before", "True"}, {"block_K", "16"}, {"num_stages", "2"}}, false},
        {{{"before", "True"}}, true},
    };
    for (auto& c : cases) {
        ts::CompileResult r = compileWith(c.p);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        EXPECT_EQ(staged(r), c.staged) << ts::e2e::diagText(r);
        auto d = c.p;
        d["direct"] = "True";
        ts::CompileResult rd = compileWith(d);
        ASSERT_TRUE(rd.ok) << ts::e2e::diagText(rd);
        EXPECT_FALSE(staged(rd));
        EXPECT_EQ(r.kernel.dynamicSmemBytes, rd.kernel.dynamicSmemBytes) << "staged=" << c.staged;
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "gemm_epilogue_staging"));
    }
}

TEST(StageEpilogue, HandStagedTileGetsTheSwizzledLayout) {
    // gemm_smem_epilogue.py writes C_shared itself: the same layout (128-byte panels) and stores.
    const char* f = "tests/e2e/programs/gemm_smem_epilogue.py";
    ts::CompileResult r = compileWith({{"block_N", "256"}, {"threads", "256"}, {"M", "256"}, {"N", "256"}}, "cuda:sm_90a", f);
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    auto it = r.lowered->layouts.find("C_shared");
    ASSERT_NE(it, r.lowered->layouts.end());
    EXPECT_EQ(it->second->family, "wgmma_smem");
    EXPECT_TRUE(hasNote(r, "lower-tile-ops", "T.copy from 'C_shared' into 'C' uses a TMA store (4 boxes of 128 rows x 64 columns, 128-byte swizzle, 65536 bytes"))
        << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find("ts_vec_store<ts::half, 2>(&C_shared["), std::string::npos) << r.cuda;
    // sm_80: no TMA, the default layout.
    ts::CompileResult r80 = compileWith({}, "cuda:sm_80", f);
    ASSERT_TRUE(r80.ok) << ts::e2e::diagText(r80);
    EXPECT_NE(r80.lowered->layouts.at("C_shared")->family, "wgmma_smem");
}

TEST(StageEpilogue, BothInterpretersMatchFloat64) {
    for (auto p : std::vector<std::map<std::string, std::string>>{
             {},
             {{"M", "200"}, {"N", "136"}, {"K", "96"}},
             {{"M", "130"}, {"N", "264"}, {"K", "64"}, {"block_N", "256"}, {"threads", "256"}, {"dtype", "\"bfloat16\""}},
         }) {
        ts::CompileResult r = compileWith(p);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        ASSERT_TRUE(staged(r));
        ASSERT_NO_FATAL_FAILURE(ts::e2e::expectInterpretersMatchReference(r, "gemm_epilogue_staging"));
    }
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectNvrtcCompilesForSm80AndSm90a(kFile, {{"M", "200"}, {"N", "136"}, {"K", "96"}}));
    ASSERT_NO_FATAL_FAILURE(ts::e2e::expectNvrtcCompilesForSm80AndSm90a("samples/gemm.py", {{"M", "4096"}, {"N", "4096"}, {"K", "4096"},
                                                                                          {"block_N", "256"}, {"block_K", "64"},
                                                                                          {"threads", "256"}, {"num_stages", "3"}}));
}

}  // namespace
