// Hopper operand tiles, descriptors and the sm_90a gemm plan (WgmmaLayouts.h).
#include "compiler/analysis/WgmmaLayouts.h"

#include <sstream>

#include "compiler/analysis/LayoutBuild.h"

namespace ts::analysis {
using namespace ts::ir;
using namespace ts::analysis::lb;

namespace {
bool setWhy(std::string* why, const std::string& s) {
    if (why) *why = s;
    return false;
}
}  // namespace

std::optional<WgmmaTileGeometry> wgmmaTileGeometry(int64_t rows, int64_t cols, int eltBytes, std::string* why, int maxPanelBytes) {
    const int64_t rowBytes = cols * eltBytes;
    if (eltBytes <= 0 || rows <= 0 || cols <= 0) return setWhy(why, "empty tile"), std::nullopt;
    if (rowBytes != 32 && rowBytes != 64 && rowBytes % 128 != 0) {
        setWhy(why, "a row of " + std::to_string(rowBytes) + " bytes is not 32, 64 or a multiple of 128 (TMA/wgmma swizzle span)");
        return std::nullopt;
    }
    if (rows % 8 != 0 || rows > 256) {
        setWhy(why, std::to_string(rows) + " rows are not a multiple of 8 up to 256 (core-matrix groups, TMA box)");
        return std::nullopt;
    }
    WgmmaTileGeometry g;
    g.rows = rows, g.cols = cols, g.eltBytes = eltBytes;
    g.panelBytes = rowBytes < 128 ? rowBytes : 128;
    // A narrower swizzle (64 or 32 bytes) where a consumer reads whole panels of that width
    // (SelectHopperFragment.cpp: warpgroups side by side along an MN-major operand).
    if ((maxPanelBytes == 32 || maxPanelBytes == 64) && g.panelBytes > maxPanelBytes) g.panelBytes = maxPanelBytes;
    g.panelElems = g.panelBytes / eltBytes;
    g.panels = cols / g.panelElems;
    return g;
}

int64_t wgmmaSharedOffset(const WgmmaTileGeometry& g, int64_t r, int64_t c) {
    const int64_t W = g.panelElems, P = g.panelBytes;
    const int64_t key = ((r * P) / 128) % (P / 16);
    return (c / W) * g.rows * W + r * W + ((c % W) ^ (key * (16 / g.eltBytes)));
}

Layout makeWgmmaSharedLayout(const WgmmaTileGeometry& g) {
    auto l = std::make_shared<LayoutNode>();
    l->kind = LayoutKind::Shared;
    l->shape = {g.rows, g.cols};
    l->inputs = {makeVar("i"), makeVar("j")};
    const Expr i = l->inputs[0], j = l->inputs[1];
    const int64_t W = g.panelElems, P = g.panelBytes;
    Expr key = mod(div(mulc(i, P), 128), P / 16);
    Expr inPanel = binary(BinOp::BitXor, mod(j, W), mulc(key, 16 / g.eltBytes));
    l->offset = add(add(mulc(div(j, W), g.rows * W), mulc(i, W)), inPanel);
    l->physicalElems = g.rows * g.cols;
    l->swizzleBytes = 0;  // the offset map carries the swizzle (the row-major fields are unused)
    l->rowBytes = g.cols * g.eltBytes;
    std::ostringstream os;
    // Rows first, then columns, as the TMA notes print the boxes (one box per panel, Hopper.h
    // tmaBoxesText); the panel's bytes in parentheses.
    os << "wgmma/TMA operand tile, " << g.panels << (g.panels == 1 ? " panel of " : " panels of ") << g.rows << " rows x "
       << g.panelElems << " columns (" << g.panelBytes << " B), " << g.panelBytes << "-byte swizzle (PTX ISA 9.7.15.5.1.2)";
    l->description = os.str();
    l->family = "wgmma_smem";
    l->familyParams = {g.rows, g.cols, g.panelBytes};
    return l;
}

bool accumulatorStagesConflictFree(const LayoutNode& l, int eltBytes) {
    return eltBytes == 2 && (l.family == "wgmma_c" || l.family == "mma_c");
}

std::optional<WgmmaTileGeometry> wgmmaGeometryOf(const LayoutNode& l, int eltBytes) {
    if (l.family != "wgmma_smem" || l.familyParams.size() != 3) return std::nullopt;
    return wgmmaTileGeometry(l.familyParams[0], l.familyParams[1], eltBytes, nullptr, static_cast<int>(l.familyParams[2]));
}

WgmmaDescFields wgmmaDescriptor(const WgmmaTileGeometry& g, bool kMajor, int64_t kk, int64_t mn0) {
    const int64_t P = g.panelBytes, e = g.eltBytes;
    WgmmaDescFields d;
    d.swizzleBytes = P;
    d.sboBytes = 8 * P;
    if (kMajor) {
        const int64_t kByte = kk * 16 * e;
        d.startByte = (kByte / P) * g.rows * P + mn0 * P + kByte % P;
        d.lboBytes = 16;  // unused by swizzled K-major layouts; CUTLASS writes 1 (x 16 bytes)
    } else {
        d.startByte = (mn0 / g.panelElems) * g.rows * P + kk * 16 * P;
        d.lboBytes = g.rows * P;
    }
    return d;
}

std::optional<HopperGemmPlan> hopperGemmPlan(int64_t M, int64_t N, int64_t K, int64_t threads, DType ab, DType c,
                                             bool transA, bool transB, std::string* why, int maxPanelA, int maxPanelB) {
    auto no = [&](const std::string& s) {
        setWhy(why, s);
        return std::nullopt;
    };
    if ((ab != DType::Float16 && ab != DType::BFloat16) || c != DType::Float32)
        return no("wgmma is used for float16/bfloat16 operands with a float32 accumulator");
    if (threads % 128 != 0) return no("threads=" + std::to_string(threads) + " is not a whole number of warpgroups (128)");
    const int wg = static_cast<int>(threads / 128);
    if (M % (64 * wg) != 0)
        return no("its " + std::to_string(M) + " rows do not split into m64 tiles over " + std::to_string(wg) + (wg == 1 ? " warpgroup" : " warpgroups"));
    // PTX ISA 9.7.15.5.1 allows n = 8..256 in steps of 8 for f16/bf16; TileScope's wgmma
    // fragment tables are built for whole 16-column groups, so the limit is ours, said as such.
    if (N % 16 != 0 || N < 16 || N > 256)
        return no("N=" + std::to_string(N) + ": TileScope issues wgmma with n a multiple of 16 in 16..256 (the hardware also takes "
                  "multiples of 8)");
    if (K % 16 != 0) return no("K=" + std::to_string(K) + " is not a multiple of 16");
    if ((M / wg / 64) * (N / 2) > 128) return no("more than 128 accumulator registers per thread");
    const int e = dtypeBytes(ab);
    std::string w;
    auto a = transA ? wgmmaTileGeometry(K, M, e, &w, maxPanelA) : wgmmaTileGeometry(M, K, e, &w, maxPanelA);
    if (!a) return no("A tile: " + w);
    auto b = transB ? wgmmaTileGeometry(N, K, e, &w, maxPanelB) : wgmmaTileGeometry(K, N, e, &w, maxPanelB);
    if (!b) return no("B tile: " + w);
    // MN-major A: each warpgroup's m64 tiles must start on a panel boundary.
    if (transA && ((M / wg) * e) % a->panelBytes != 0) return no("A (transposed) warpgroup rows do not start on a swizzle panel");
    HopperGemmPlan p;
    p.M = M, p.N = N, p.K = K, p.warpgroups = wg, p.transA = transA, p.transB = transB, p.a = *a, p.b = *b;
    p.aTile = *a, p.bTile = *b;
    return p;
}

std::optional<HopperGemmPlan> hopperGemmPlanGrid(int64_t M, int64_t N, int64_t K, int wgm, int wgn, DType ab, DType c, bool transA,
                                                 bool transB, std::string* why, int maxPanelA, int maxPanelB) {
    if (wgm < 1 || wgn < 1 || N % wgn != 0) return setWhy(why, "N=" + std::to_string(N) + " does not split over " + std::to_string(wgn) + " warpgroup columns"), std::nullopt;
    auto plan = hopperGemmPlan(M, N / wgn, K, 128LL * wgm, ab, c, transA, transB, why, maxPanelA, maxPanelB);
    if (!plan || wgn == 1) return plan;
    std::string w;
    const int e = dtypeBytes(ab);
    auto b = transB ? wgmmaTileGeometry(N, K, e, &w, maxPanelB) : wgmmaTileGeometry(K, N, e, &w, maxPanelB);
    if (!b) return setWhy(why, "B tile: " + w), std::nullopt;
    if (!transB && (N / wgn) % b->panelElems != 0)
        return setWhy(why, "each of the " + std::to_string(wgn) + " warpgroup columns reads " + std::to_string(N / wgn) +
                               " columns of B (stored K x N), not whole " + std::to_string(b->panelElems) + "-element swizzle panels"),
               std::nullopt;
    plan->N = N, plan->b = plan->bTile = *b, plan->wgn = wgn;
    return plan;
}

bool wgmmaColumnSlice(const WgmmaTileGeometry& parent, const WgmmaTileGeometry& sub, int64_t col0, std::string* why) {
    auto no = [&](const std::string& s) {
        if (why) *why = s;
        return false;
    };
    if (sub.rows != parent.rows) return no("it does not span the tile's " + std::to_string(parent.rows) + " rows");
    if (sub.eltBytes != parent.eltBytes || col0 < 0 || col0 + sub.cols > parent.cols) return no("it leaves the tile");
    if (sub.panelBytes != parent.panelBytes)
        return no("its " + std::to_string(sub.cols) + " columns are narrower than the tile's " + std::to_string(parent.panelElems) +
                  "-element swizzle atom");
    if (col0 % parent.panelElems != 0)
        return no("its first column " + std::to_string(col0) + " is not a multiple of the " + std::to_string(parent.panelElems) +
                  "-element (" + std::to_string(parent.panelBytes) + "-byte) swizzle atom");
    return true;
}

}  // namespace ts::analysis
