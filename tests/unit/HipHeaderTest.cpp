// resources/ts_hip.h against compiler/analysis/HwLayouts.h: the MFMA register-layout functions
// the HIP device code uses (ts::mfma16, ts::MfmaTiling) must name exactly the elements that
// makeMfma16Layout's inverse names, for the atom and for block tilings over wave grids. The
// header is included as host C++ (its device part is compiled out), so this needs no HIP
// compiler; RuntimeHiprtcTest compiles the device part for gfx90a.
#include <gtest/gtest.h>

#include "compiler/analysis/HwLayouts.h"
#include "resources/ts_hip.h"

using namespace ts::analysis;

namespace {
std::vector<int64_t> inverse(const ts::ir::Layout& l, int64_t t, int64_t v) {
    return fragmentInverse(*l, t, v).value_or(std::vector<int64_t>{-1, -1});
}

template <int M, int N, int K, int WM, int WN> void expectTilingMatches() {
    using Tiling = ts::MfmaTiling<M, N, K, WM, WN>;
    const int threads = 64 * WM * WN;
    auto c = makeMfma16Layout('C', M, N, {WM, WN});
    auto a = makeMfma16Layout('A', M, K, {WM, WN});
    auto b = makeMfma16Layout('B', K, N, {WM, WN});
    ASSERT_EQ(c->localSize, Tiling::kAcc);
    ASSERT_EQ(c->threads, threads);
    for (int t = 0; t < threads; ++t) {
        for (int v = 0; v < Tiling::kAcc; ++v)
            ASSERT_EQ(inverse(c, t, v), (std::vector<int64_t>{Tiling::accRow(t, v), Tiling::accCol(t, v)}))
                << "C t" << t << " v" << v;
        for (int v = 0; v < a->localSize; ++v)
            ASSERT_EQ(inverse(a, t, v), (std::vector<int64_t>{Tiling::aRow(t, v), Tiling::aCol(t, v)}))
                << "A t" << t << " v" << v;
        for (int v = 0; v < b->localSize; ++v)
            ASSERT_EQ(inverse(b, t, v), (std::vector<int64_t>{Tiling::bRow(t, v), Tiling::bCol(t, v)}))
                << "B t" << t << " v" << v;
    }
}
}  // namespace

TEST(HipHeader, MfmaAtomMatchesHwLayouts) {
    auto a = makeMfma16Layout('A', 16, 16, {1, 1});
    auto b = makeMfma16Layout('B', 16, 16, {1, 1});
    auto c = makeMfma16Layout('C', 16, 16, {1, 1});
    for (int lane = 0; lane < 64; ++lane)
        for (int item = 0; item < 4; ++item) {
            EXPECT_EQ(inverse(a, lane, item),
                      (std::vector<int64_t>{ts::mfma16::aRow(lane, item), ts::mfma16::aCol(lane, item)}));
            EXPECT_EQ(inverse(b, lane, item),
                      (std::vector<int64_t>{ts::mfma16::bRow(lane, item), ts::mfma16::bCol(lane, item)}));
            EXPECT_EQ(inverse(c, lane, item),
                      (std::vector<int64_t>{ts::mfma16::cRow(lane, item), ts::mfma16::cCol(lane, item)}));
        }
    // Two entries read off the AMD Matrix Instruction Calculator (cdna2, v_mfma_f32_16x16x16f16):
    // A[0][4] is v0{16}.lo (lane 16, item 0); D[5][3] is lane 3 + 16*(5/4) = 19, v1 (item 1).
    EXPECT_EQ(ts::mfma16::aRow(16, 0), 0);
    EXPECT_EQ(ts::mfma16::aCol(16, 0), 4);
    EXPECT_EQ(ts::mfma16::cRow(19, 1), 5);
    EXPECT_EQ(ts::mfma16::cCol(19, 1), 3);
}

TEST(HipHeader, BlockTilingsMatchHwLayouts) {
    expectTilingMatches<16, 16, 16, 1, 1>();
    expectTilingMatches<64, 64, 32, 2, 2>();
    expectTilingMatches<128, 128, 32, 2, 2>();
    expectTilingMatches<64, 128, 64, 1, 4>();
    expectTilingMatches<128, 64, 16, 4, 1>();
}

TEST(HipHeader, PortablePartIsSharedWithTheCudaHeader) {
    // The shared part compiles on the host too: the same RNE conversion and swizzle contract.
    EXPECT_EQ(ts::half(1.0f).bits, 0x3c00);
    EXPECT_EQ(ts::bfloat16(-2.0f).bits, 0xc000);
    EXPECT_EQ(float(ts::half::fromBits(0x3555)), 0.333251953125f);
    EXPECT_EQ((ts::swizzle<64, 128>(1 * 128 + 16)), 1 * 128 + (16 ^ (1 << 4)));
    EXPECT_EQ(ts::kWaveSize, 64);
}
