// Block rasterization (T.use_swizzle and the rasterize-blocks pass, issue 9 item 1):
//  - the device formula (resources/ts_device/raster.cuh, compiled here for the host) is a
//    bijection of the grid for every grid up to 17x17, panel 1..19 and both orders, and gives the
//    hand-derived order of a 4x3 grid with panels of 2 rows and of 2 columns;
//  - samples/gemm.py, which says nothing, gets panels of sqrt(128 * tile_N / tile_M) block rows
//    (11 for its default 128x128 tiles, 16 for 128x256) on sm_80, sm_90a and HIP;
//    T.use_swizzle(4, "col") is kept; enable=False opts out; a 1-D grid and a kernel without a
//    gemm get none; $TILESCOPE_RASTER_PANEL=0 turns the automatic choice off;
//  - a rasterized gemm still matches float64 on both interpreters at a ragged size (the remap only
//    moves work between blocks), and every compile here also goes through NVRTC sm_80/sm_90a
//    (NvrtcEveryKernel), so the emitted remap compiles.
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "compiler/Compile.h"
#include "tests/e2e/E2eTestUtil.h"
#include "tests/e2e/ScopedEnv.h"

#define TS_HD inline
namespace ts_raster_host {
#include "resources/ts_device/raster.cuh"
}
#undef TS_HD

namespace {

using ts_raster_host::BlockCoord;
using ts_raster_host::rasterize_blocks;

TEST(RasterizeBlocks, EveryTileOnceForAnyGridPanelAndOrder) {
    for (int gx = 1; gx <= 17; ++gx)
        for (int gy = 1; gy <= 17; ++gy)
            for (int panel = 1; panel <= 19; ++panel)
                for (bool columns : {false, true}) {
                    std::set<std::pair<int, int>> seen;
                    for (int by = 0; by < gy; ++by)
                        for (int bx = 0; bx < gx; ++bx) {
                            BlockCoord c = rasterize_blocks(bx, by, gx, gy, panel, columns);
                            ASSERT_TRUE(c.x >= 0 && c.x < gx && c.y >= 0 && c.y < gy)
                                << gx << "x" << gy << " panel " << panel << " col " << columns << " at " << bx << "," << by;
                            seen.insert({c.x, c.y});
                        }
                    ASSERT_EQ(int(seen.size()), gx * gy) << gx << "x" << gy << " panel " << panel << " col " << columns;
                }
}

// Launch order is x fastest: linear = bx + 4 * by on a 4x3 grid.
TEST(RasterizeBlocks, HandDerivedOrderOfA4x3Grid) {
    // Rows, panel 2: the first panel (rows 0-1) walks columns 0..3 two rows at a time; the last
    // panel (row 2 alone) is odd, so it walks its columns right to left.
    const std::pair<int, int> rows[12] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1},
                                          {3, 0}, {3, 1}, {3, 2}, {2, 2}, {1, 2}, {0, 2}};
    // Columns, panel 2: the first panel (columns 0-1) walks rows 0..2 two columns at a time; the
    // second (columns 2-3) walks rows 2..0.
    const std::pair<int, int> cols[12] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2},
                                          {2, 2}, {3, 2}, {2, 1}, {3, 1}, {2, 0}, {3, 0}};
    for (int linear = 0; linear < 12; ++linear) {
        BlockCoord r = rasterize_blocks(linear % 4, linear / 4, 4, 3, 2, false);
        EXPECT_EQ(std::make_pair(r.x, r.y), rows[linear]) << "row order, launch " << linear;
        BlockCoord c = rasterize_blocks(linear % 4, linear / 4, 4, 3, 2, true);
        EXPECT_EQ(std::make_pair(c.x, c.y), cols[linear]) << "column order, launch " << linear;
    }
}

ts::CompileResult compileText(const std::string& name, const std::string& src, const std::string& target,
                              std::map<std::string, std::string> params = {}) {
    ts::CompileOptions opts;
    opts.target = target;
    opts.params = std::move(params);
    return ts::compile(name, src, opts);
}

const ts::PassSnapshot* pass(const ts::CompileResult& r, const std::string& name) {
    for (auto& p : r.passes)
        if (p.name == name) return &p;
    return nullptr;
}

std::string remap(int panel, bool columns = false) {
    return "ts::rasterize_blocks(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, " + std::to_string(panel) + ", " +
           (columns ? "true" : "false") + ")";
}

TEST(RasterizeBlocks, GemmSampleGetsPanelsSizedByItsTileOnEveryTarget) {
    const std::string src = ts::e2e::readRepoFile("samples/gemm.py");
    struct Case {
        const char* target;
        std::map<std::string, std::string> params;
        int panel;
    } cases[] = {
        {"cuda:sm_80", {}, 11},  // sqrt(128 * 128 / 128) = 11.3
        {"cuda:sm_90a", {}, 11},
        {"hip:gfx90a", {}, 11},
        {"cuda:sm_90a", {{"block_N", "256"}, {"block_K", "64"}, {"threads", "256"}, {"num_stages", "3"}}, 16},
        {"cuda:sm_80", {{"block_M", "64"}, {"block_N", "64"}}, 11},
        {"cuda:sm_80", {{"block_M", "128"}, {"block_N", "32"}}, 6},  // sqrt(32) = 5.66
    };
    for (auto& c : cases) {
        const char* target = c.target;
        ts::CompileResult r = compileText("samples/gemm.py", src, target, c.params);
        ASSERT_TRUE(r.ok) << target << "\n" << ts::e2e::diagText(r);
        const ts::PassSnapshot* p = pass(r, "rasterize-blocks");
        ASSERT_NE(p, nullptr) << target;
        EXPECT_TRUE(p->changed) << target;
        EXPECT_NE(p->ir.find("use_swizzle(" + std::to_string(c.panel) + ", \"row\")"), std::string::npos) << p->ir;
        EXPECT_NE(r.cuda.find(remap(c.panel)), std::string::npos) << target << "\n" << r.cuda;
        // bx and by come from the remap, not from blockIdx directly.
        EXPECT_EQ(r.cuda.find("= blockIdx.x;"), std::string::npos) << target;
        EXPECT_EQ(r.cuda.find("use_swizzle"), std::string::npos) << target << ": the marker is not code";
    }
}

TEST(RasterizeBlocks, EnvironmentSetsOrTurnsOffTheAutomaticPanel) {
    const std::string src = ts::e2e::readRepoFile("samples/gemm.py");
    {
        ts::e2e::ScopedEnv env("TILESCOPE_RASTER_PANEL", "0");
        ts::CompileResult r = compileText("samples/gemm.py", src, "cuda:sm_90a");
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        EXPECT_EQ(r.cuda.find("rasterize_blocks("), std::string::npos);
        EXPECT_NE(r.cuda.find("= blockIdx.x;"), std::string::npos);
    }
    ts::e2e::ScopedEnv env("TILESCOPE_RASTER_PANEL", "5");
    ts::CompileResult r = compileText("samples/gemm.py", src, "cuda:sm_90a");
    ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
    EXPECT_NE(r.cuda.find(remap(5)), std::string::npos);
}

std::string gemmWith(const std::string& swizzleLine, const std::string& grid = "T.ceildiv(N, 32), T.ceildiv(M, 32)",
                     const std::string& bind = "(bx, by)", bool gemm = true) {
    return std::string(R"(import tilelang.language as T


def matmul(M=96, N=80, K=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel()") + grid + ", threads=128) as " + bind + R"(:
)" + swizzleLine + R"(            A_s = T.alloc_shared((32, 32), "float16")
            B_s = T.alloc_shared((32, 32), "float16")
            C_l = T.alloc_fragment((32, 32), "float32")
            T.clear(C_l)
            for k in T.Pipelined(T.ceildiv(K, 32), num_stages=2):
                T.copy(A[by * 32, k * 32], A_s)
                T.copy(B[k * 32, bx * 32], B_s)
)" + (gemm ? "                T.gemm(A_s, B_s, C_l)\n" : "                T.copy(A_s, C_l)\n") +
           R"(            T.copy(C_l, C[by * 32, bx * 32])
    return main


def ref_program(A, B):
    return A @ B
)";
}

TEST(RasterizeBlocks, ExplicitUseSwizzleIsKeptAndRunsCorrectly) {
    const std::string src = gemmWith("            T.use_swizzle(panel_size=4, order=\"col\")\n");
    for (const char* target : {"cuda:sm_80", "cuda:sm_90a"}) {
        ts::CompileResult r = compileText("swizzled.py", src, target);
        ASSERT_TRUE(r.ok) << ts::e2e::diagText(r);
        EXPECT_NE(r.cuda.find(remap(4, true)), std::string::npos) << r.cuda;
        EXPECT_FALSE(pass(r, "rasterize-blocks")->changed) << "the user's choice stands";
        // 96x80 output in 32x32 tiles: a ragged 3x3 grid, every tile computed once.
        ts::e2e::expectInterpretersMatchReference(r, std::string("use_swizzle col ") + target);
    }
}

TEST(RasterizeBlocks, EnableFalseOneDimensionalGridsAndNonGemmKernelsGetNone) {
    struct Case {
        std::string label, src;
    } cases[] = {
        {"enable=False", gemmWith("            T.use_swizzle(8, enable=False)\n")},
        {"1-D grid", gemmWith("            bx = b % T.ceildiv(N, 32)\n            by = b // T.ceildiv(N, 32)\n",
                              "T.ceildiv(N, 32) * T.ceildiv(M, 32)", "b")},
        {"no gemm", gemmWith("", "T.ceildiv(N, 32), T.ceildiv(M, 32)", "(bx, by)", false)},
    };
    for (auto& c : cases) {
        ts::CompileResult r = compileText("none.py", c.src, "cuda:sm_90a", {{"K", "32"}, {"N", "64"}, {"M", "64"}});
        ASSERT_TRUE(r.ok) << c.label << "\n" << ts::e2e::diagText(r);
        EXPECT_EQ(r.cuda.find("rasterize_blocks("), std::string::npos) << c.label << "\n" << r.cuda;
        EXPECT_FALSE(pass(r, "rasterize-blocks")->changed) << c.label;
    }
}

TEST(RasterizeBlocks, BadArgumentsAreDiagnosedAtTheCall) {
    struct Case {
        std::string line, message;
    } cases[] = {
        {"            T.use_swizzle(0)\n", "panel_size must be a compile-time integer >= 1"},
        {"            T.use_swizzle(4, order=\"diagonal\")\n", "order must be \"row\" or \"col\""},
    };
    for (auto& c : cases) {
        ts::CompileResult r = compileText("bad.py", gemmWith(c.line), "cuda:sm_80");
        ASSERT_FALSE(r.ok);
        const std::string d = ts::e2e::diagText(r);
        EXPECT_NE(d.find(c.message), std::string::npos) << d;
        EXPECT_NE(d.find("bad.py:8:"), std::string::npos) << d;
    }
}

}  // namespace
