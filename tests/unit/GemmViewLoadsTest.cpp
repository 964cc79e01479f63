// The ldmatrix addresses of a gemm_ss operand read in place as a sub-tile of a wider shared
// tile (analysis::gemmOperandLoads with GemmSSShape::ldA/offA/ldB/offB, the port of
// ts::GemmTiling's LDA/OFFA/LDB/OFFB in resources/ts_device.cuh), hand-derived: un-swizzling
// each lane's address (the XOR swizzle is an involution) must give the parent-tile element
// off + row * ld + col of exactly the (row, col) the same lane addresses in a standalone,
// unswizzled operand tile; and 8 rows at one 16-byte column of a 128-byte-swizzled parent with
// 384-byte rows hit 8 different bank groups at any 16-byte-aligned column offset.
#include <gtest/gtest.h>

#include "compiler/analysis/Banks.h"
#include "compiler/analysis/Ldmatrix.h"
#include "compiler/analysis/Swizzle.h"

using namespace ts::analysis;

namespace {

void expectViewAddressesParentElements(bool ta, bool tb, int64_t off) {
    const int64_t e = 2, ld = 192;  // parent rows: 192 fp16 = 384 bytes
    GemmSSShape own{64, 64, 64, 2, 2, ta, tb, 0, 0, 2};
    GemmSSShape view = own;
    view.swizzleA = view.swizzleB = 128;
    view.ldA = view.ldB = ld;
    view.offA = off, view.offB = off + 64;
    for (int w = 0; w < 4; ++w) {
        auto a = gemmOperandLoads(own, w), b = gemmOperandLoads(view, w);
        ASSERT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            const int64_t ownRow = 64 * e;  // every operand here is 64 x 64
            const int64_t o = a[i].operand == 'A' ? view.offA : view.offB;
            for (int l = 0; l < 32; ++l) {
                if (a[i].laneOffset[l] < 0) {
                    EXPECT_LT(b[i].laneOffset[l], 0);
                    continue;
                }
                const int64_t row = a[i].laneOffset[l] / ownRow, col = a[i].laneOffset[l] % ownRow / e;
                EXPECT_EQ(swizzleBytes(b[i].laneOffset[l], ld * e, 128), (o + row * ld + col) * e)
                    << "ta " << ta << " tb " << tb << " warp " << w << " issue " << i << " lane " << l;
            }
        }
    }
}

TEST(GemmViewLoads, UnswizzledAddressesAreTheParentElementsOfTheStandaloneTile) {
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            for (int64_t off : {0, 8, 64}) expectViewAddressesParentElements(ta, tb, off);
}

TEST(GemmViewLoads, SwizzledParentStaysConflictFreeAtAnyChunkOffset) {
    for (int64_t off : {0, 8, 24, 64, 120}) {
        GemmSSShape g{64, 64, 64, 2, 2, false, true, 128, 128, 2};
        g.ldA = g.ldB = 192, g.offA = off, g.offB = off;
        for (auto& is : gemmOperandLoads(g, 1)) {
            WarpRequest r;
            r.bytes = 16, r.ldmatrix = is.matrices;
            for (int l = 0; l < 32; ++l) r.addr[l] = is.laneOffset[l];
            EXPECT_EQ(bankCost(r).ways, 1) << "off " << off;
        }
    }
}

}  // namespace
