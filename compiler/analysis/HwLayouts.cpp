// Hardware register layouts (HwLayouts.h): mma.sync A/B operands, wgmma D, MFMA 16x16 A/B/C,
// built as expression layouts from the PTX ISA / AMD figures cited in the header.
#include "compiler/analysis/HwLayouts.h"

#include <cstdlib>
#include <sstream>

#include "compiler/analysis/LayoutBuild.h"
#include "compiler/analysis/Ldmatrix.h"
#include "compiler/ir/Builder.h"

namespace ts::analysis {
using namespace ts::ir;

namespace {
using namespace lb;
Expr add3(Expr a, Expr b, Expr d) { return add(add(std::move(a), std::move(b)), std::move(d)); }

std::shared_ptr<LayoutNode> newFragment(std::vector<int64_t> shape, const char* rowName,
                                        const char* colName) {
    return lb::newFragment(std::move(shape), {rowName, colName});
}
}  // namespace

// A atom (16x16): lane = 4*(r%8) + (c%8)/2, a-index = c%2 + 2*(r/8) + 4*(c/8) (§9.7.14.5.8).
Layout makeMmaOperandA(int64_t M, int64_t K, WarpPartition wp) {
    auto l = newFragment({M, K}, "i", "k");
    const int64_t mw = M / wp.wm, MI = mw / 16;
    Expr i = l->inputs[0], k = l->inputs[1];
    Expr lane = add(mulc(mod(i, 8), 4), div(mod(k, 8), 2));
    Expr e = add3(mod(k, 2), mulc(div(mod(i, 16), 8), 2), mulc(div(mod(k, 16), 8), 4));
    l->thread = add(mulc(div(i, mw), 32LL * wp.wn), lane);
    l->local = add(mulc(add(mulc(div(k, 16), MI), div(mod(i, mw), 16)), 8), e);
    l->threads = 32LL * wp.wm * wp.wn;
    l->localSize = MI * (K / 16) * 8;
    l->replicate = wp.wn;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 32), ln = mod(t, 32), a = div(r, 8), ei = mod(r, 8);
    l->inverse = {
        add(add3(mulc(div(w, wp.wn), mw), mulc(mod(a, MI), 16), div(ln, 4)),
            mulc(mod(div(ei, 2), 2), 8)),
        add(add3(mulc(div(a, MI), 16), mulc(mod(ln, 4), 2), mod(ei, 2)), mulc(div(ei, 4), 8)),
    };
    std::ostringstream os;
    os << "mma.sync m16n8k16 operand A (PTX ISA 9.7.14.5.8), warps " << wp.wm << "x" << wp.wn
       << ", " << l->localSize << " halves/thread, shared by the " << wp.wn
       << " warp(s) of a warp row";
    l->description = os.str();
    l->family = "mma_a";
    l->familyParams = {M, K, wp.wm, wp.wn};
    return l;
}

// B atom (16x8, row k, col n): lane = 4*(n%8) + (k%8)/2, b-index = k%2 + 2*(k/8).
Layout makeMmaOperandB(int64_t K, int64_t N, WarpPartition wp) {
    auto l = newFragment({K, N}, "k", "j");
    const int64_t nw = N / wp.wn, NI = nw / 8;
    Expr k = l->inputs[0], j = l->inputs[1];
    Expr lane = add(mulc(mod(j, 8), 4), div(mod(k, 8), 2));
    Expr e = add(mod(k, 2), mulc(div(mod(k, 16), 8), 2));
    l->thread = add(mulc(div(j, nw), 32), lane);
    l->local = add(mulc(add(mulc(div(k, 16), NI), div(mod(j, nw), 8)), 4), e);
    l->threads = 32LL * wp.wm * wp.wn;
    l->localSize = NI * (K / 16) * 4;
    l->replicate = wp.wm;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 32), ln = mod(t, 32), a = div(r, 4), ei = mod(r, 4);
    l->inverse = {
        add(add3(mulc(div(a, NI), 16), mulc(mod(ln, 4), 2), mod(ei, 2)), mulc(div(ei, 2), 8)),
        add3(mulc(mod(w, wp.wn), nw), mulc(mod(a, NI), 8), div(ln, 4)),
    };
    std::ostringstream os;
    os << "mma.sync m16n8k16 operand B (PTX ISA 9.7.14.5.8), warps " << wp.wm << "x" << wp.wn
       << ", " << l->localSize << " halves/thread, shared by the " << wp.wm
       << " warp(s) of a warp column";
    l->description = os.str();
    l->family = "mma_b";
    l->familyParams = {K, N, wp.wm, wp.wn};
    return l;
}

std::string wgmmaLayoutError(int64_t M, int64_t N, WarpgroupPartition wg) {
    std::ostringstream os;
    if (wg.wgm < 1 || wg.wgn < 1) return "the warpgroup grid must be at least 1x1";
    if (M % wg.wgm || N % wg.wgn) {
        os << "tile " << M << "x" << N << " does not divide over " << wg.wgm << "x" << wg.wgn
           << " warpgroups";
        return os.str();
    }
    const int64_t mw = M / wg.wgm, nw = N / wg.wgn, n = wg.instN ? wg.instN : nw;
    if (mw % 64 != 0)
        os << "warpgroup tile rows " << mw << " are not a multiple of 64 (wgmma m64)";
    else if (n < 8 || n > 256 || n % 8 != 0)
        os << "wgmma n = " << n << " is not one of 8, 16, ..., 256";
    else if (nw % n != 0)
        os << "warpgroup tile cols " << nw << " are not a multiple of n = " << n;
    return os.str();
}

// Atom (64 x n): thread = 32*(i/16) + 4*(i%8) + (j%8)/2, d-index = j%2 + 2*((i%16)/8) + 4*(j/8).
Layout makeWgmmaAccumulator(int64_t M, int64_t N, WarpgroupPartition wg) {
    auto l = newFragment({M, N}, "i", "j");
    const int64_t mw = M / wg.wgm, nw = N / wg.wgn, n = wg.instN ? wg.instN : nw;
    const int64_t NI = nw / n, R = n / 2;
    Expr i = l->inputs[0], j = l->inputs[1];
    Expr group = add(mulc(div(i, mw), wg.wgn), div(j, nw));
    Expr inGroup = add3(mulc(div(mod(i, 64), 16), 32), mulc(mod(i, 8), 4), div(mod(j, 8), 2));
    Expr d = add3(mod(j, 2), mulc(div(mod(i, 16), 8), 2), mulc(div(mod(j, n), 8), 4));
    l->thread = add(mulc(group, 128), inGroup);
    l->local = add(mulc(add(mulc(div(mod(i, mw), 64), NI), div(mod(j, nw), n)), R), d);
    l->threads = 128LL * wg.wgm * wg.wgn;
    l->localSize = (mw / 64) * NI * R;
    Expr t = l->invThread, r = l->invLocal;
    Expr g = div(t, 128), w = div(mod(t, 128), 32), ln = mod(t, 32), a = div(r, R), q = mod(r, R);
    l->inverse = {
        add(add3(mulc(div(g, wg.wgn), mw), mulc(div(a, NI), 64), mulc(w, 16)),
            add(div(ln, 4), mulc(mod(div(q, 2), 2), 8))),
        add(add3(mulc(mod(g, wg.wgn), nw), mulc(mod(a, NI), n), mulc(div(q, 4), 8)),
            add(mulc(mod(ln, 4), 2), mod(q, 2))),
    };
    std::ostringstream os;
    os << "wgmma.mma_async m64n" << n
       << "k16 f32 accumulator D (PTX ISA 9.7.15.5.1.1.1), warpgroups " << wg.wgm << "x" << wg.wgn
       << ", " << l->localSize << " regs/thread";
    l->description = os.str();
    l->family = "wgmma_c";
    l->familyParams = {M, N, wg.wgm, wg.wgn, n};
    return l;
}

// Every 16x16 MFMA operand is "lane = x%16 + 16*((y%16)/4), item = y%4" for (x, y) = (i, k)
// for A, (j, k) for B and (j, i) for C; they differ only in which axis is tiled over which
// wave-grid dimension and which operand is replicated.
Layout makeMfma16Layout(char operand, int64_t rows, int64_t cols, WarpPartition wp) {
    auto l = newFragment({rows, cols}, operand == 'B' ? "k" : "i", operand == 'A' ? "k" : "j");
    Expr r0 = l->inputs[0], c0 = l->inputs[1];
    const bool isA = operand == 'A', isB = operand == 'B';
    // Tiled extents per wave: A tiles rows over wm; B tiles cols over wn; C both.
    const int64_t rw = isB ? rows : rows / wp.wm, cw = isA ? cols : cols / wp.wn;
    const int64_t RI = rw / 16, CI = cw / 16;
    Expr x = isA ? r0 : c0, y = isA ? c0 : r0;  // lane index dim, item dim
    Expr lane = add(mod(x, 16), mulc(div(mod(y, 16), 4), 16));
    Expr item = mod(y, 4);
    Expr waveRow = isB ? c(0) : div(r0, rw), waveCol = isA ? c(0) : div(c0, cw);
    l->thread = add(mulc(add(mulc(waveRow, wp.wn), waveCol), 64), lane);
    // Atom order: A (kk, mi), B (kk, ni), C (mi, ni); atom index = major*minorCount + minor.
    Expr atom = isA   ? add(mulc(div(c0, 16), RI), div(mod(r0, rw), 16))
                : isB ? add(mulc(div(r0, 16), CI), div(mod(c0, cw), 16))
                      : add(mulc(div(mod(r0, rw), 16), CI), div(mod(c0, cw), 16));
    l->local = add(mulc(atom, 4), item);
    l->threads = 64LL * wp.wm * wp.wn;
    l->localSize = RI * CI * 4;
    l->replicate = isA ? wp.wn : isB ? wp.wm : 1;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 64), ln = mod(t, 64), a = div(r, 4), it = mod(r, 4);
    Expr lx = mod(ln, 16), ly = add(mulc(div(ln, 16), 4), it);  // in-atom (x, y)
    if (isA) {
        l->inverse = {add3(mulc(div(w, wp.wn), rw), mulc(mod(a, RI), 16), lx),
                      add(mulc(div(a, RI), 16), ly)};
    } else if (isB) {
        l->inverse = {add(mulc(div(a, CI), 16), ly),
                      add3(mulc(mod(w, wp.wn), cw), mulc(mod(a, CI), 16), lx)};
    } else {
        l->inverse = {add3(mulc(div(w, wp.wn), rw), mulc(div(a, CI), 16), ly),
                      add3(mulc(mod(w, wp.wn), cw), mulc(mod(a, CI), 16), lx)};
    }
    std::ostringstream os;
    os << "v_mfma_f32_16x16x16f16 "
       << (isA   ? "operand A"
           : isB ? "operand B"
                 : "accumulator C/D (f32)")
       << " (CDNA2, 64-lane waves), waves " << wp.wm << "x" << wp.wn << ", " << l->localSize
       << " elements/lane";
    l->description = os.str();
    l->family = isA ? "mfma_a" : isB ? "mfma_b" : "mfma_c";
    l->familyParams = {rows, cols, wp.wm, wp.wn};
    return l;
}

const std::vector<BuiltinLayoutInfo>& builtinLayouts() {
    static const std::vector<BuiltinLayoutInfo> k = {
        {"mma_a", "mma_a", "mma.sync m16n8k16 operand A, 16x16 fp16 per warp (a0..a7)"},
        {"mma_b", "mma_b", "mma.sync m16n8k16 operand B, 16x8 (k x n) fp16 per warp (b0..b3)"},
        {"mma_c", "mma_c", "mma.sync m16n8k16 accumulator C/D, 16x8 f32 per warp (c0..c3)"},
        {"wgmma_c", "wgmma_c:N",
         "wgmma m64nNk16 accumulator D, 64xN f32 per warpgroup (N = 8..256 step 8)"},
        {"mfma_a", "mfma_a", "v_mfma_f32_16x16x16f16 operand A, 16x16 fp16 per 64-lane wave"},
        {"mfma_b", "mfma_b",
         "v_mfma_f32_16x16x16f16 operand B, 16x16 (k x n) fp16 per 64-lane wave"},
        {"mfma_c", "mfma_c", "v_mfma_f32_16x16x16f16 accumulator C/D, 16x16 f32 per 64-lane wave"},
        {"ldmatrix", "ldmatrix:N", "ldmatrix.m8n8.xN destination, (8N)x8 b16 (N = 1, 2, 4)"},
        {"ldmatrix_t", "ldmatrix_t:N",
         "ldmatrix.m8n8.xN.trans destination, (8N)x8 b16 (N = 1, 2, 4)"},
    };
    return k;
}

namespace {
Layout fail(std::string* why, const std::string& s) {
    if (why) *why = s;
    return nullptr;
}
std::string shapeError(const char* what, int64_t extent, int64_t grid, int64_t unit) {
    if (grid < 1 || extent <= 0 || extent % grid != 0 || (extent / grid) % unit != 0) {
        std::ostringstream os;
        os << what << " " << extent << " must divide into " << grid << " part(s) of a multiple of "
           << unit;
        return os.str();
    }
    return {};
}
}  // namespace

Layout makeBuiltinLayout(const std::string& spec, const std::vector<int64_t>& shape,
                         const std::vector<int>& grid, std::string* why) {
    std::string name = spec;
    int64_t param = -1;
    if (auto colon = spec.find(':'); colon != std::string::npos) {
        name = spec.substr(0, colon);
        const std::string num = spec.substr(colon + 1);
        char* end = nullptr;
        param = num.empty() ? -1 : std::strtoll(num.c_str(), &end, 10);
        if (num.empty() || *end != 0 || param < 0)
            return fail(why, "bad parameter in '" + spec + "' (expected NAME:N, N >= 0)");
    }
    bool known = false;
    for (auto& b : builtinLayouts()) known |= b.name == name;
    if (!known) {
        std::string list;
        for (auto& b : builtinLayouts()) list += (list.empty() ? "" : ", ") + b.usage;
        return fail(why, "unknown builtin layout '" + name + "' (known: " + list + ")");
    }
    if (!shape.empty() && shape.size() != 2)
        return fail(why, "a builtin layout's shape has two extents (ROWSxCOLS)");
    if (!grid.empty() && grid.size() != 2) return fail(why, "the warp grid has two extents (AxB)");
    const int gm = grid.empty() ? 1 : grid[0], gn = grid.empty() ? 1 : grid[1];
    if (gm < 1 || gn < 1) return fail(why, "the warp grid must be at least 1x1");
    if (param >= 0 && name != "wgmma_c" && name != "ldmatrix" && name != "ldmatrix_t")
        return fail(why, "'" + name + "' takes no :N parameter");

    if (name == "ldmatrix" || name == "ldmatrix_t") {
        int x = param < 0 ? 4 : int(param);
        if (x != 1 && x != 2 && x != 4) return fail(why, "ldmatrix takes :1, :2 or :4 matrices");
        if (!shape.empty() || !grid.empty())
            return fail(why, "ldmatrix is a single-warp layout (no --shape/--warps)");
        return makeLdmatrixFragment(x, name == "ldmatrix_t");
    }
    if (name == "wgmma_c") {
        WarpgroupPartition wg{gm, gn, param < 0 ? 64 : param};
        int64_t M = shape.empty() ? 64LL * gm : shape[0];
        int64_t N = shape.empty() ? wg.instN * gn : shape[1];
        if (auto e = wgmmaLayoutError(M, N, wg); !e.empty()) return fail(why, e);
        return makeWgmmaAccumulator(M, N, wg);
    }
    WarpPartition wp{gm, gn};
    const bool mfma = name.rfind("mfma", 0) == 0;
    const char op = name.back() == 'a' ? 'A' : name.back() == 'b' ? 'B' : 'C';
    // Atom extents (rows x cols) of one warp / wave, and which dims the grid tiles.
    int64_t ar = 16, ac = mfma ? 16 : (op == 'A' ? 16 : 8);
    const bool tileRows = op != 'B', tileCols = op != 'A';
    int64_t rows = shape.empty() ? ar * (tileRows ? gm : 1) : shape[0];
    int64_t cols = shape.empty() ? ac * (tileCols ? gn : 1) : shape[1];
    std::string e = shapeError("rows", rows, tileRows ? gm : 1, ar);
    if (e.empty()) e = shapeError("cols", cols, tileCols ? gn : 1, ac);
    if (!e.empty()) return fail(why, name + ": " + e);
    if (mfma) return makeMfma16Layout(op, rows, cols, wp);
    if (op == 'A') return makeMmaOperandA(rows, cols, wp);
    if (op == 'B') return makeMmaOperandB(rows, cols, wp);
    return makeMmaAccumulator(rows, cols, wp);
}

}  // namespace ts::analysis
