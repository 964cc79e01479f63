// selectHopperGemm (Hopper.h): whether a T.gemm takes the sm_90a path (TMA + mbarrier + wgmma).
// The checks are conservative on purpose: anything the TMA/wgmma schedule would have to order
// that it does not (generic-proxy writes to an operand tile, a second reader, an accumulator
// used element-wise) keeps the sm_80 path, which handles every case.
#include <algorithm>
#include <set>

#include "compiler/ir/Views.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

/// Region arguments of a tile op that it writes (the op's output operands; ops::TileOp::access).
bool writesArg(const TileOpNode& t, size_t i) {
    const ops::TileOp* op = ops::find(t.op);
    return op && (op->access(t, i) & ops::kWrite);
}

bool wholeTile(const Region& r, int64_t rows, int64_t cols) {
    auto shape = constShape(*r.buffer);
    if (!shape || shape->size() != 2 || (*shape)[0] != rows || (*shape)[1] != cols || r.ranges.size() != 2) return false;
    for (size_t d = 0; d < 2; ++d)
        if (constInt(r.ranges[d].min) != 0 || constInt(r.ranges[d].extent) != (*shape)[d]) return false;
    return true;
}

}  // namespace

std::optional<int> tmaCopyRowDim(const TileOpNode& copy, const analysis::WgmmaTileGeometry& g, std::string& why) {
    const Region &src = copy.region(0), &dst = copy.region(1);
    if (src.buffer->scope != Scope::Global) return why = "the copy into '" + dst.buffer->name + "' does not read global memory", std::nullopt;
    return tmaBoxRowDim(src, dst, g, false, why);
}

std::optional<int> tmaBoxRowDim(const Region& global, const Region& tile, const analysis::WgmmaTileGeometry& g, bool store, std::string& why,
                                bool reduce) {
    const Region &src = global, &dst = tile;
    // The op in the reasons' words: a T.atomic_add(..., use_tma=True) is no copy (fresh-user finding).
    const std::string op = reduce ? "the atomic add" : "the copy";
    const std::string copy = op + (store || reduce ? " from '" : " into '") + tile.buffer->name + "'";
    if (src.buffer->dtype != dst.buffer->dtype) return why = copy + " converts dtypes", std::nullopt;
    auto shape = constShape(*src.buffer);
    const int rank = shape ? static_cast<int>(shape->size()) : 0;
    if (!shape || rank < 2 || rank > 5)
        return why = "'" + src.buffer->name + "' is not a tensor of rank 2..5 with a constant shape", std::nullopt;
    // Every stride above the contiguous dimension is a multiple of the last dimension's bytes.
    if (((*shape)[size_t(rank - 1)] * g.eltBytes) % 16 != 0)
        return why = "rows of '" + src.buffer->name + "' are not a multiple of 16 bytes (TMA global stride)", std::nullopt;
    if (g.rows > 256) return why = "the tile has more than 256 rows (TMA box)", std::nullopt;
    // Whole tile first: a copy of part of a tile (t[0:32, :] of a 64-row tile) was told "the region
    // of 'Out' is not the tile's shape", though that region is exactly the part's shape.
    auto dsh = constShape(*dst.buffer);
    // A 1-D tile is one row (tmaDestGeometry's rowTile): the region is the whole row.
    const bool rowTile = dsh && dsh->size() == 1 && g.rows == 1 && dst.ranges.size() == 1;
    if (rowTile ? (*dsh)[0] != g.cols || constInt(dst.ranges[0].min) != 0 || constInt(dst.ranges[0].extent) != g.cols
                : !dsh || dsh->size() != 2 || (*dsh)[0] != g.rows || (*dsh)[1] != g.cols || dst.ranges.size() != 2 ||
                      constInt(dst.ranges[0].min) != 0 || constInt(dst.ranges[1].min) != 0 || constInt(dst.ranges[0].extent) != g.rows ||
                      constInt(dst.ranges[1].extent) != g.cols)
        return why = op + (store || reduce ? " does not read the whole tile '" : " does not fill the whole tile '") + dst.buffer->name + "'",
               std::nullopt;
    if (src.ranges.size() != size_t(rank) || constInt(src.ranges.back().extent) != g.cols)
        return why = "the region of '" + src.buffer->name + "' does not span the tile's columns along its last dimension", std::nullopt;
    // The box's start along the contiguous dimension must be 16-byte aligned: measured on the
    // H200 (bench/h200_tma_plain.sh, 2026-12-03), a TMA load of int32 rows from column 1, 2, 3,
    // 5, 6 or 7 faults with CUDA_ERROR_ILLEGAL_INSTRUCTION while columns 0, 4 and 8 copy
    // exactly. The start must be a multiple of 16 bytes for every value of its variables
    // (divisibleBy: sums and products with a constant factor), else the copy keeps cp.async.
    // A store addresses global memory through the same tensor map coordinates: the same rule.
    if (const int64_t unit = 16 / std::max<int64_t>(1, g.eltBytes); g.eltBytes < 16 && !lower::divisibleBy(src.ranges.back().min, unit))
        return why = "the region of '" + src.buffer->name + "' may start at a column that is not a multiple of " +
                     std::to_string(unit) + " elements (16 bytes; a TMA box's start must be 16-byte aligned)",
               std::nullopt;
    int rowDim = -1;
    for (int d = 0; d + 1 < rank; ++d) {
        auto ext = constInt(src.ranges[size_t(d)].extent);
        if (ext == 1 && !(rowDim < 0 && g.rows == 1 && d == rank - 2)) continue;
        if (ext != g.rows || rowDim >= 0) return why = "the region of '" + src.buffer->name + "' is not the tile's shape", std::nullopt;
        rowDim = d;
    }
    if (rowDim < 0) return why = "the region of '" + src.buffer->name + "' is not the tile's shape", std::nullopt;
    return rowDim;
}

std::string tmaBoxesText(const analysis::WgmmaTileGeometry& g) {
    return std::to_string(g.panels) + (g.panels == 1 ? " box of " : " boxes of ") + std::to_string(g.rows) + (g.rows == 1 ? " row x " : " rows x ") +
           std::to_string(g.panelElems) + " columns" + (g.panelBytes ? ", " + std::to_string(g.panelBytes) + "-byte swizzle" : std::string());
}

std::vector<Expr> tmaCoordinates(const Region& src, const std::unordered_map<const VarNode*, Expr>& at) {
    std::vector<Expr> c;
    for (size_t i = src.ranges.size(); i-- > 0;) c.push_back(substitute(src.ranges[i].min, at));
    return c;
}

namespace {
/// A global -> shared copy TMA can do as one tile load (tmaCopyRowDim).
bool tmaLoadable(const TileOpNode& copy, const analysis::WgmmaTileGeometry& g, std::string& why) {
    return tmaCopyRowDim(copy, g, why).has_value();
}

}  // namespace

bool targetHasWgmma(const Target& t) { return t.hasWgmma(); }

std::string wgmmaOperandScopeWhy(const TileOpNode& gemm, bool registerA) {
    auto scope = [](const BufferNode& b) -> std::string {
        switch (b.scope) {
            case Scope::Fragment: return "a fragment";
            case Scope::Local: return "a local buffer";
            case Scope::Global: return "a global tensor";
            case Scope::Shared: return "a shared tile";
        }
        return scopeName(b.scope);
    };
    const BufferNode &A = *gemm.region(0).buffer, &B = *gemm.region(1).buffer, &C = *gemm.region(2).buffer;
    if (A.scope != Scope::Shared && !(registerA && A.scope == Scope::Fragment))
        return "A ('" + A.name + "') is " + scope(A) + ": wgmma reads A from shared memory" + (registerA ? " or registers (a fragment)" : "") +
               "; copy it into a T.alloc_shared tile";
    if (B.scope != Scope::Shared)
        return "B ('" + B.name + "') is " + scope(B) + ": wgmma reads B from shared memory; copy it into a T.alloc_shared tile";
    if (C.scope != Scope::Fragment)
        return "the accumulator C ('" + C.name + "') is " + scope(C) + ": wgmma accumulates in registers; make it a T.alloc_fragment";
    return {};
}

std::optional<analysis::HopperGemmPlan> selectHopperGemm(const PrimFuncNode& f, const TileOpNode& gemm, int64_t threads,
                                                         const Target& target, std::string* why) {
    std::string w;
    auto no = [&](const std::string& s) {
        if (why) *why = s;
        return std::nullopt;
    };
    if (!targetHasWgmma(target)) return no("the target is not sm_90a");
    if (gemm.args.size() < 3 || !gemm.isRegion(0) || !gemm.isRegion(1) || !gemm.isRegion(2)) return no("not a region gemm");
    const Region &A = gemm.region(0), &B = gemm.region(1), &C = gemm.region(2);
    if (A.buffer->scope == Scope::Fragment)
        return no("A ('" + A.buffer->name + "') is a fragment; the TMA path reads both operands from shared tiles");
    if (std::string scopes = wgmmaOperandScopeWhy(gemm, false); !scopes.empty()) return no(scopes);
    if (A.buffer->dtype != B.buffer->dtype) return no("A and B dtypes differ");
    auto ash = constShape(*A.buffer), bsh = constShape(*B.buffer), cs = constShape(*C.buffer);
    if (!ash || !bsh || !cs || ash->size() != 2 || bsh->size() != 2 || cs->size() != 2) return no("tiles are not 2-D constant shapes");
    const bool ta = attrBool(gemm.attrs, "transpose_A", false), tb = attrBool(gemm.attrs, "transpose_B", false);
    const int64_t M = (*cs)[0], N = (*cs)[1], K = ta ? (*ash)[0] : (*ash)[1];
    auto plan = analysis::hopperGemmPlan(M, N, K, threads, A.buffer->dtype, C.buffer->dtype, ta, tb, &w);
    if (!plan) return no(w);
    if (!wholeTile(A, plan->a.rows, plan->a.cols) || !wholeTile(B, plan->b.rows, plan->b.cols) || !wholeTile(C, M, N))
        return no("operands are not whole tiles of the gemm's shape");
    if (f.layouts.count(A.buffer->name) || f.layouts.count(B.buffer->name) || f.layouts.count(C.buffer->name))
        return no("an operand has a user layout");

    // The T.Pipelined loop whose body (top level) holds the gemm.
    const ForNode* loop = nullptr;
    size_t gi = 0;
    walk(f.body, [&](const Stmt& s) {
        auto* fr = as<ForNode>(s);
        if (!fr || fr->forKind != ForKind::Pipelined || loop) return;
        auto* sq = as<SeqNode>(fr->body);
        std::vector<Stmt> stmts = sq ? sq->stmts : std::vector<Stmt>{fr->body};
        for (size_t i = 0; i < stmts.size(); ++i)
            if (stmts[i].get() == &gemm) loop = fr, gi = i;
    });
    if (!loop) return no("the gemm is not directly in a T.Pipelined loop body");
    auto* sq = as<SeqNode>(loop->body);
    std::vector<Stmt> body = sq ? sq->stmts : std::vector<Stmt>{loop->body};

    // Operand producers: one TMA-loadable copy each, before the gemm. Buffers are compared by
    // the storage they lie on (ir/Views.h storageName): a copy into a view of an operand tile
    // writes the operand, and the TMA schedule, which multi-buffers the operand, does not see it.
    auto key = [&](const BufferNode& b) { return storageName(f, b); };
    const std::string kA = key(*A.buffer), kB = key(*B.buffer), kC = key(*C.buffer);
    std::set<const StmtNode*> allowed{&gemm};
    std::set<std::string> sources;
    for (auto [op, geo] : {std::pair{&A, &plan->a}, std::pair{&B, &plan->b}}) {
        const TileOpNode* producer = nullptr;
        int writers = 0;
        const std::string k = key(*op->buffer);
        for (size_t i = 0; i < gi; ++i) {
            auto* t = as<TileOpNode>(body[i]);
            if (t && t->op == TileOpKind::Copy && t->isRegion(0) && t->isRegion(1) && key(*t->region(1).buffer) == k)
                producer = t, ++writers;
        }
        if (writers != 1)
            return no("'" + op->buffer->name + "' is " +
                      (writers == 0 ? std::string("not loaded by a T.copy in the gemm's T.Pipelined loop (a tile written before the loop, "
                                                  "like a loop-invariant Q, takes the fragment path)")
                                    : std::to_string(writers) + " T.copy's in the gemm's loop, not one"));
        if (producer->region(1).buffer != op->buffer)
            return no("'" + op->buffer->name + "' is loaded through a view ('" + producer->region(1).buffer->name + "')");
        if (!tmaLoadable(*producer, *geo, w)) return no(w);
        allowed.insert(producer);
        sources.insert(key(*producer->region(0).buffer));
    }
    // Nothing else touches the operand tiles, writes the copy sources, or uses the accumulator
    // other than clear/fill and copies out of it.
    bool ok = true;
    walk(
        f.body,
        [&](const Stmt& s) {
            if (auto* st = as<StoreNode>(s)) {
                const std::string k = key(*st->buffer);
                if (k == kA || k == kB || k == kC || sources.count(k)) ok = false;
            }
            auto* t = as<TileOpNode>(s);
            if (!t || allowed.count(t)) return;
            for (size_t i = 0; i < t->args.size(); ++i) {
                auto* r = std::get_if<Region>(&t->args[i]);
                if (!r) continue;
                const std::string k = key(*r->buffer);
                if (k == kA || k == kB) ok = false;
                if (writesArg(*t, i) && sources.count(k)) ok = false;
                if (k == kC) {
                    const bool clear = t->op == TileOpKind::Fill && i == 0 && r->buffer == C.buffer;
                    const bool out = t->op == TileOpKind::Copy && i == 0 && r->buffer == C.buffer && t->isRegion(1) &&
                                     t->region(1).buffer->scope != Scope::Fragment;
                    if (!clear && !out) ok = false;
                }
            }
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e)) {
                const std::string k = key(*l->buffer);
                if (k == kA || k == kB || k == kC) ok = false;
            }
        });
    if (!ok) return no("an operand tile or the accumulator is used by other statements");
    return plan;
}

}  // namespace ts::xform
