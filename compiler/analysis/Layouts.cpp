#include "compiler/analysis/Layouts.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/LayoutBuild.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/ir/Builder.h"

namespace ts::analysis {
using namespace ts::ir;

namespace {
using namespace lb;
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

namespace {
// The rows of an mma accumulator's warp grid in either warp order (WarpPartition): which warp of
// warp column wc holds row i, which of its atom rows (16 rows each) row i is, and back.
struct WarpRows {
    int64_t mw;  ///< rows per warp (M / wm)
    WarpPartition wp;
    int64_t span() const { return wp.byWarpgroup ? 4 * mw : mw; }  ///< rows of one warp-grid row (of warpgroups)
    Expr warp(const Expr& i, const Expr& wc) const {
        if (!wp.byWarpgroup) return add(mulc(div(i, mw), wp.wn), wc);
        return add(mulc(add(mulc(div(i, span()), wp.wn), wc), 4), div(mod(i, 64), 16));
    }
    Expr atomRow(const Expr& i) const { return wp.byWarpgroup ? div(mod(i, span()), 64) : div(mod(i, mw), 16); }
    Expr warpCol(const Expr& w) const { return wp.byWarpgroup ? mod(div(w, 4), wp.wn) : mod(w, wp.wn); }
    /// First row of atom row mi of warp w (the lane adds lane/4, the register half 8).
    Expr rowBase(const Expr& w, const Expr& mi) const {
        if (!wp.byWarpgroup) return add(mulc(div(w, wp.wn), mw), mulc(mi, 16));
        return add(add(mulc(div(div(w, 4), wp.wn), span()), mulc(mi, 64)), mulc(mod(w, 4), 16));
    }
    std::vector<int64_t> params(std::vector<int64_t> p) const {
        if (wp.byWarpgroup) p.push_back(1);
        return p;
    }
    const char* order() const { return wp.byWarpgroup ? " (warpgroup order: wgmma's D fragment)" : ""; }
};

// Both orders place the same way when each warpgroup is one m64 tile of one warp column.
WarpRows warpRows(int64_t M, WarpPartition wp) {
    const int64_t mw = M / wp.wm;
    if (wp.byWarpgroup && wp.wn == 1 && mw == 16) wp.byWarpgroup = false;
    return {mw, wp};
}
}  // namespace

Layout makeMmaAccumulator(int64_t M, int64_t N, WarpPartition wp0) {
    auto l = newFragment({M, N});
    const WarpRows R = warpRows(M, wp0);
    const WarpPartition wp = R.wp;
    int64_t mw = R.mw, nw = N / wp.wn, NI = nw / 8;
    Expr i = l->inputs[0], j = l->inputs[1];
    l->thread = add(mulc(R.warp(i, div(j, nw)), 32), add(mulc(mod(i, 8), 4), div(mod(j, 8), 2)));
    l->local = add(add(mulc(add(mulc(R.atomRow(i), NI), div(mod(j, nw), 8)), 4), mulc(div(mod(i, 16), 8), 2)), mod(j, 2));
    l->threads = 32LL * wp.wm * wp.wn;
    l->localSize = (mw / 16) * NI * 4;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 32), lane = mod(t, 32), a = div(r, 4), e = mod(r, 4);
    l->inverse = {
        add(add(R.rowBase(w, div(a, NI)), div(lane, 4)), mulc(div(e, 2), 8)),
        add(add(add(mulc(R.warpCol(w), nw), mulc(mod(a, NI), 8)), mulc(mod(lane, 4), 2)), mod(e, 2)),
    };
    std::ostringstream os;
    os << "mma.sync m16n8k16 accumulator, warps " << wp.wm << "x" << wp.wn << R.order();
    if (wp.byWarpgroup && mw > 16)  // a warp's rows are 16-row strips of its warpgroup's m64 tiles
        os << ", per warp " << mw / 16 << " strips of 16 rows 64 apart x " << nw << " columns";
    else
        os << ", warp tile " << mw << "x" << nw;
    os << ", " << l->localSize << " regs/thread";
    l->description = os.str();
    l->family = "mma_c";
    l->familyParams = R.params({M, N, wp.wm, wp.wn});
    return l;
}

Layout makeMmaAccumulatorRows(int64_t M, WarpPartition wp0) {
    auto l = newFragment({M});
    const WarpRows R = warpRows(M, wp0);
    const WarpPartition wp = R.wp;
    int64_t mw = R.mw;
    Expr i = l->inputs[0];
    l->thread = add(mulc(R.warp(i, c(0)), 32), mulc(mod(i, 8), 4));
    l->local = add(mulc(R.atomRow(i), 2), div(mod(i, 16), 8));
    l->threads = 32LL * wp.wm * wp.wn;
    l->localSize = (mw / 16) * 2;
    l->replicate = 4LL * wp.wn;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 32), lane = mod(t, 32);
    l->inverse = {add(add(R.rowBase(w, div(r, 2)), div(lane, 4)), mulc(mod(r, 2), 8))};
    std::ostringstream os;
    os << "row values of an mma.sync accumulator, warps " << wp.wm << "x" << wp.wn << R.order() << ", replicated over "
       << l->replicate << " threads (a lane quad per warp column)";
    l->description = os.str();
    l->family = "mma_c_rows";
    l->familyParams = R.params({M, wp.wm, wp.wn});
    return l;
}

Layout makeMmaRowsSpread(int64_t M, int64_t N, WarpPartition wp0) {
    auto l = newFragment({M, N});
    const WarpRows R = warpRows(M, wp0);
    const WarpPartition wp = R.wp;
    const int64_t mw = R.mw, holders = 4LL * wp.wn, C = ceilDiv(N, holders);
    Expr i = l->inputs[0], j = l->inputs[1];
    Expr hq = mod(j, holders);
    Expr rowslot = add(mulc(R.atomRow(i), 2), div(mod(i, 16), 8));
    l->thread = add(mulc(R.warp(i, div(hq, 4)), 32), add(mulc(mod(i, 8), 4), mod(hq, 4)));
    l->local = add(mulc(rowslot, C), div(j, holders));
    l->threads = 32LL * wp.wm * wp.wn;
    l->localSize = (mw / 16) * 2 * C;
    Expr t = l->invThread, r = l->invLocal;
    Expr w = div(t, 32), lane = mod(t, 32), slot = div(r, C);
    l->inverse = {
        add(add(R.rowBase(w, div(slot, 2)), div(lane, 4)), mulc(mod(slot, 2), 8)),
        add(add(mulc(mod(r, C), holders), mulc(R.warpCol(w), 4)), mod(lane, 4)),
    };
    std::ostringstream os;
    os << "columns spread over the " << holders << " holders of each accumulator row, warps " << wp.wm << "x" << wp.wn
       << R.order() << ", " << l->localSize << " regs/thread";
    if (N % holders != 0) os << " (padded tail)";
    l->description = os.str();
    l->family = "mma_c_rows_spread";
    l->familyParams = R.params({M, N, wp.wm, wp.wn});
    return l;
}

std::optional<WarpPartition> mmaWarpPartitionOf(const LayoutNode& l) {
    const auto& p = l.familyParams;
    if ((l.family == "mma_c" || l.family == "mma_c_rows_spread") && (p.size() == 4 || p.size() == 5))
        return WarpPartition{int(p[2]), int(p[3]), p.size() == 5 && p[4] != 0};
    if (l.family == "mma_c_rows" && (p.size() == 3 || p.size() == 4)) return WarpPartition{int(p[1]), int(p[2]), p.size() == 4 && p[3] != 0};
    return std::nullopt;
}

Layout makeReplicated(const std::vector<int64_t>& shape, int64_t threads) {
    auto l = newFragment(shape);
    Expr lin = c(0);
    int64_t numel = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
        lin = d == 0 ? Expr(l->inputs[0]) : add(mulc(lin, shape[d]), l->inputs[d]);
        numel *= shape[d];
    }
    l->thread = c(0);
    l->local = lin;
    l->threads = threads;
    l->localSize = numel;
    l->replicate = threads;
    int64_t stride = numel;
    for (size_t d = 0; d < shape.size(); ++d) {
        stride /= shape[d];
        Expr q = div(l->invLocal, stride);
        l->inverse.push_back(d == 0 ? q : mod(q, shape[d]));
    }
    std::ostringstream os;
    os << "replicated in every thread, " << numel << " regs/thread";
    l->description = os.str();
    l->family = "replicated";
    l->familyParams = shape;
    return l;
}

Layout rowCompanion(const LayoutNode& l) {
    if (l.family == "block")
        if (auto p = blockParamsOf(l)) return makeRowReduced(*p);
    if (l.family == "mma_c" || l.family == "mma_c_rows_spread")
        if (auto wp = mmaWarpPartitionOf(l)) {
            Layout rows = makeMmaAccumulatorRows(l.familyParams[0], *wp);
            // The rows of a wgmma accumulator (GemmSm90.cpp labels it; the same registers as the
            // mma.sync C layout) say so: on sm_90a no mma.sync computes them.
            const std::string mma = "row values of an mma.sync accumulator";
            if (l.description.rfind("wgmma", 0) == 0 && rows->description.rfind(mma, 0) == 0) {
                auto n = std::make_shared<LayoutNode>(*rows);
                n->description = "row values of a wgmma accumulator (the mma.sync m16n8k16 C layout)" + rows->description.substr(mma.size());
                rows = n;
            }
            return rows;
        }
    if (l.family == "mfma_c" && l.familyParams.size() == 4)
        return makeMfma16AccumulatorRows(l.familyParams[0], {int(l.familyParams[2]), int(l.familyParams[3])});
    return nullptr;
}

Layout layoutWithRowCompanion(const LayoutNode& rowLayout, int64_t rows, int64_t cols) {
    if (rowLayout.family == "row_reduced") {
        auto p = blockParamsOf(rowLayout);
        if (p && p->rows == rows && p->cols == cols) return makeBlockFragment(*p);
        return nullptr;
    }
    if (rowLayout.family == "mma_c_rows" && !rowLayout.familyParams.empty() && rowLayout.familyParams[0] == rows)
        if (auto wp = mmaWarpPartitionOf(rowLayout)) {
            if (cols % (8LL * wp->wn) == 0) return makeMmaAccumulator(rows, cols, *wp);
            return makeMmaRowsSpread(rows, cols, *wp);
        }
    if (rowLayout.family == "mfma_c_rows" && rowLayout.familyParams.size() == 3 &&
        rowLayout.familyParams[0] == rows) {
        WarpPartition wp{int(rowLayout.familyParams[1]), int(rowLayout.familyParams[2])};
        if (cols % (16LL * wp.wn) == 0) return makeMfma16Layout('C', rows, cols, wp);
    }
    return nullptr;
}

int64_t BlockFragmentParams::colChunksPerThread() const { return ceilDiv(cols, vec * gc); }
int64_t BlockFragmentParams::rowsPerThread() const { return ceilDiv(rows, gr); }

BlockFragmentParams chooseBlockFragment(int64_t rows, int64_t cols, int64_t threads, int eltBytes) {
    rows = std::max<int64_t>(rows, 1);
    cols = std::max<int64_t>(cols, 1);
    // Candidates (vec, gc): vec a power of two dividing the row, at most 16 bytes; gc keeps
    // reductions cheap: <= 32 lanes a power of two (xor shuffles), more than a warp whole warps
    // (shuffle, then shared memory across warps), dividing `threads`, at most the row's vector
    // count. Cost, in order: (1) threads holding data -- an idle thread is lost bandwidth and
    // latency hiding; (2) wider vectors (fewer, wider memory instructions); (3) larger gc (the
    // previous rule, so tiles that already occupy every thread keep their layout).
    BlockFragmentParams best;
    int64_t bestActive = -1;
    const int64_t maxVec = std::max(1, 16 / std::max(1, eltBytes));
    for (int64_t vec = maxVec; vec >= 1; vec /= 2) {
        if (cols % vec != 0) continue;
        const int64_t chunks = ceilDiv(cols, vec);
        for (int64_t g = 1; g <= threads; ++g) {
            if (threads % g != 0) continue;
            if (!(g <= 32 ? (g & (g - 1)) == 0 : g % 32 == 0)) continue;
            if (g > chunks && g != 1) continue;
            const int64_t gr = threads / g;
            const int64_t active = std::min(gr, rows) * std::min(g, chunks);
            const bool better =
                active > bestActive || (active == bestActive && vec == best.vec && g > best.gc);
            if (!better) continue;
            bestActive = active;
            best.rows = rows, best.cols = cols, best.threads = threads;
            best.vec = vec, best.gc = g, best.gr = gr;
        }
    }
    return best;
}

Layout makeBlockFragment(const BlockFragmentParams& p, bool oneD) {
    auto l =
        newFragment(oneD ? std::vector<int64_t>{p.cols} : std::vector<int64_t>{p.rows, p.cols});
    int64_t cpt = p.colChunksPerThread();
    Expr i = oneD ? c(0) : l->inputs[0];
    Expr j = oneD ? l->inputs[0] : l->inputs[1];
    l->thread = add(mulc(mod(i, p.gr), p.gc), mod(div(j, p.vec), p.gc));
    l->local = add(mulc(add(mulc(div(i, p.gr), cpt), div(j, p.vec * p.gc)), p.vec), mod(j, p.vec));
    l->threads = p.threads;
    l->localSize = (oneD ? 1 : p.rowsPerThread()) * cpt * p.vec;
    Expr t = l->invThread, r = l->invLocal;
    Expr ii = add(mulc(div(r, cpt * p.vec), p.gr), div(t, p.gc));
    Expr jj = add(add(mulc(mod(div(r, p.vec), cpt), p.vec * p.gc), mulc(mod(t, p.gc), p.vec)),
                  mod(r, p.vec));
    // 1-D: threads of row groups >= 1 hold padding; push their column past the padded width so
    // the usual `j < cols` guard excludes them.
    if (oneD)
        l->inverse = {add(jj, mulc(ii, cpt * p.vec * p.gc))};
    else
        l->inverse = {ii, jj};
    std::ostringstream os;
    os << "block fragment: " << p.gr << " row groups x " << p.gc << " threads/row, " << p.vec
       << "-wide vectors, " << l->localSize << " regs/thread";
    if ((!oneD && p.rows % p.gr != 0) || p.cols % (p.vec * p.gc) != 0) os << " (padded tail)";
    l->description = os.str();
    l->family = oneD ? "block1d" : "block";
    l->familyParams = {p.rows, p.cols, p.threads, p.vec, p.gc, p.gr};
    return l;
}

Layout makeRowReduced(const BlockFragmentParams& p) {
    auto l = newFragment({p.rows});
    Expr i = l->inputs[0];
    l->thread = mulc(mod(i, p.gr), p.gc);
    l->local = div(i, p.gr);
    l->threads = p.threads;
    l->localSize = p.rowsPerThread();
    l->replicate = p.gc;
    l->inverse = {add(mulc(l->invLocal, p.gr), div(l->invThread, p.gc))};
    std::ostringstream os;
    os << "row values of a block fragment: " << p.gr << " row groups, replicated over " << p.gc
       << " threads";
    l->description = os.str();
    l->family = "row_reduced";
    l->familyParams = {p.rows, p.cols, p.threads, p.vec, p.gc, p.gr};
    return l;
}

Layout makeSharedLayout(const std::vector<int64_t>& shape, int eltBytes, int swizzleMode,
                        int64_t padElems) {
    auto l = std::make_shared<LayoutNode>();
    l->kind = LayoutKind::Shared;
    l->shape = shape;
    l->swizzleBytes = swizzleMode;
    l->rowBytes = (shape.empty() ? 1 : shape.back()) * eltBytes;
    l->padElems = padElems;
    std::ostringstream os;
    os << "shared, row " << l->rowBytes << " B";
    if (swizzleMode) os << ", " << swizzleMode << "-byte XOR swizzle";
    if (padElems) os << ", padded by " << padElems << " elements";
    if (!swizzleMode && !padElems) os << ", row-major";
    l->description = os.str();
    l->family = "shared";
    l->familyParams = {swizzleMode, padElems};
    return l;
}

std::optional<BlockFragmentParams> blockParamsOf(const LayoutNode& l) {
    if ((l.family != "block" && l.family != "block1d" && l.family != "row_reduced") ||
        l.familyParams.size() != 6)
        return std::nullopt;
    BlockFragmentParams p;
    p.rows = l.familyParams[0], p.cols = l.familyParams[1], p.threads = l.familyParams[2];
    p.vec = l.familyParams[3], p.gc = l.familyParams[4], p.gr = l.familyParams[5];
    return p;
}

std::optional<int64_t> evalInt(const Expr& e,
                               const std::vector<std::pair<const VarNode*, int64_t>>& env) {
    switch (e->kind) {
        case ExprKind::IntImm:
            return static_cast<const IntImmNode*>(e.get())->value;
        case ExprKind::Var:
            for (auto it = env.rbegin(); it != env.rend(); ++it)  // innermost binding wins
                if (it->first == e.get()) return it->second;
            return std::nullopt;
        case ExprKind::Cast: {
            auto* n = static_cast<const CastNode*>(e.get());
            if (isFloat(n->dtype) || isFloat(n->value->dtype)) return std::nullopt;
            return evalInt(n->value, env);
        }
        case ExprKind::Select: {
            auto* n = static_cast<const SelectNode*>(e.get());
            auto c = evalInt(n->cond, env);
            if (!c) return std::nullopt;
            return evalInt(*c ? n->t : n->f, env);
        }
        case ExprKind::Unary: {
            auto* n = static_cast<const UnaryNode*>(e.get());
            auto a = evalInt(n->a, env);
            if (!a) return std::nullopt;
            if (n->op == UnOp::Neg) return -*a;
            if (n->op == UnOp::Not) return int64_t(!*a);
            return ~*a;
        }
        case ExprKind::Binary: {
            auto* n = static_cast<const BinaryNode*>(e.get());
            if (isFloat(n->a->dtype) || isFloat(n->b->dtype)) return std::nullopt;
            auto a = evalInt(n->a, env);
            if (!a) return std::nullopt;
            if (n->op == BinOp::And && !*a) return 0;  // short circuit, as the generated C++ does
            if (n->op == BinOp::Or && *a) return 1;
            auto b = evalInt(n->b, env);
            if (!b) return std::nullopt;
            if (n->op == BinOp::Div)
                return *b ? std::optional<int64_t>(*a / *b) : std::nullopt;  // C `/`
            return foldInt(n->op, *a, *b);
        }
        default:
            return std::nullopt;
    }
}

std::optional<std::pair<int64_t, int64_t>> fragmentLocate(const LayoutNode& l,
                                                          const std::vector<int64_t>& idx) {
    if (l.kind != LayoutKind::Fragment || idx.size() != l.inputs.size()) return std::nullopt;
    std::vector<std::pair<const VarNode*, int64_t>> env;
    for (size_t d = 0; d < idx.size(); ++d) env.push_back({l.inputs[d].get(), idx[d]});
    auto t = evalInt(l.thread, env), r = evalInt(l.local, env);
    if (!t || !r) return std::nullopt;
    return std::make_pair(*t, *r);
}

std::optional<std::vector<int64_t>> fragmentInverse(const LayoutNode& l, int64_t thread,
                                                    int64_t local) {
    if (l.kind != LayoutKind::Fragment) return std::nullopt;
    std::vector<std::pair<const VarNode*, int64_t>> env{{l.invThread.get(), thread},
                                                        {l.invLocal.get(), local}};
    std::vector<int64_t> out;
    for (auto& e : l.inverse) {
        auto v = evalInt(e, env);
        if (!v) return std::nullopt;
        out.push_back(*v);
    }
    return out;
}

int64_t sharedPhysicalElems(const ir::PrimFuncNode& f, const ir::BufferNode& b, int64_t numel) {
    auto it = f.layouts.find(b.name);
    if (it == f.layouts.end() || !it->second || it->second->kind != ir::LayoutKind::Shared) return numel;
    const ir::LayoutNode& l = *it->second;
    if (l.offset) {
        int64_t tile = 1;
        for (int64_t e : l.shape) tile *= e;
        return numel / std::max<int64_t>(1, tile) * l.physicalElems;
    }
    if (l.padElems) return numel + numel / std::max<int64_t>(1, l.shape.empty() ? 1 : l.shape.back()) * l.padElems;
    return numel;
}

}  // namespace ts::analysis
