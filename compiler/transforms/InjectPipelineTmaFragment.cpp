// injectTmaFragmentPipeline (Hopper.h): the sm_90a schedule of a T.Pipelined loop whose gemms run
// wgmma on the mma.sync fragment layouts (FlashAttention: S = Q K^T, then the online softmax in
// registers, then O += P V with P from registers), with the K/V tiles loaded by TMA
// (fragmentTmaCopies chose the copies). S = max(1, num_stages) stages, n iterations, T threads:
//
//   full = alloc_shared((S,), uint64);  empty = alloc_shared((S,), uint64)
//   tl.mbarrier_init(full[0], S)          # one arrival per phase: the elected expect_tx
//   tl.mbarrier_init(empty[0], S, T)      # T arrivals per phase: every thread done with the stage
//   tl.fence_proxy_async(); T.sync_threads()   # operand tiles written before the loop (Q) -> wgmma
//   for p in T.unroll(S-1): if p < n: issue(p) into stage p
//   for k in T.serial(n):
//       if k + S-1 < n:                                   # refill, S-1 tiles ahead
//           if k >= 1: elected wait empty[(k-1) % S], parity ((k-1)/S) % 2   # tile k-1 released
//           issue(k + S-1) into stage (k+S-1) % S           # = tile k-1's stage
//       tl.mbarrier_wait(full[k % S], (k/S) % 2)             # tile k landed
//       consumers(k) on stage k % S                           # gemms: no fence, no barrier
//       tl.mbarrier_arrive(empty[k % S])                      # this thread is done with it
//
// issue(j) = elected expect_tx(full[stage], bytes of one stage) + one TMA load per tile.
// Why no block barrier in the loop: the tiles are written by the async proxy (TMA) and read by
// the async proxy (wgmma), so no proxy fence is needed; the full barrier's wait orders the landed
// data before the reads, and each fragment-path wgmma is waited to completion before its thread
// arrives on the empty barrier, so the refill (issued only after every thread arrived) cannot
// overwrite a stage a wgmma still reads. Without a __syncthreads the warpgroups drift apart by up
// to an iteration: one warpgroup's softmax overlaps the other's wgmma (the cp.async schedule
// needed three block barriers per iteration). Any trip count (1 included) and any S work: every
// issued load is waited for in the loop, and stage s's two barriers complete one phase per use.
#include <algorithm>

#include "compiler/analysis/WgmmaLayouts.h"
#include "compiler/transforms/Hopper.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using lower::intrinsicStmt;
Expr addr(const Buffer& b, std::vector<Expr> idx) { return lower::addressOf(b, std::move(idx)); }

struct Producer {
    FragmentTmaCopy c;
    analysis::WgmmaTileGeometry geo;
    int64_t map = 0;
};

/// Marks the fragment-path gemms of `s` (restaged consumers) as having their operands ready:
/// lowerWgmmaFragment then emits neither the proxy fence nor the block barrier.
Stmt markOperandsReady(const Stmt& s) {
    auto* g = as<TileOpNode>(s);
    if (!g || g->op != TileOpKind::Gemm || !attrBool(g->attrs, "wgmma_fragment", false)) return s;
    Attrs a = g->attrs;
    a["wgmma_operands_ready"] = true;
    return std::make_shared<TileOpNode>(g->op, g->args, a, g->span);
}

}  // namespace

Stmt injectTmaFragmentPipeline(const ForNode& n, const PrimFuncNode& f, int64_t threads, const Target& target, Attrs& attrs,
                               std::map<const BufferNode*, Buffer>& staged) {
    auto copies = fragmentTmaCopies(f, n, threads, target);
    if (!copies) return nullptr;
    std::vector<Producer> producers;
    for (auto& c : *copies) {
        const Buffer& b = c.copy->region(1).buffer;
        auto it = f.layouts.find(b->name);
        auto geo = it != f.layouts.end() && it->second ? analysis::wgmmaGeometryOf(*it->second, dtypeBytes(b->dtype)) : std::nullopt;
        if (!geo) return nullptr;  // infer-layouts gave every operand tile the wgmma_smem layout
        producers.push_back({c, *geo, tensorMapFor(attrs, c.param, *geo, c.rowDim)});
    }
    const Span sp = n.span;
    const int64_t S = std::max<int64_t>(1, attrInt(n.attrs, "num_stages", 1));
    std::map<const BufferNode*, Buffer> local;
    int64_t stageBytes = 0;
    for (auto& p : producers) {
        const Buffer& b = p.c.copy->region(1).buffer;
        if (!staged.count(b.get()))
            staged[b.get()] = std::make_shared<BufferNode>(b->name, b->dtype, std::vector<Expr>{intImm(S), intImm(p.geo.rows), intImm(p.geo.cols)},
                                                           Scope::Shared, b->span);
        local[b.get()] = staged[b.get()];
        stageBytes += p.geo.bytes();
    }
    Buffer full = std::make_shared<BufferNode>("tma_full", DType::UInt64, std::vector<Expr>{intImm(S)}, Scope::Shared, sp);
    Buffer empty = std::make_shared<BufferNode>("tma_empty", DType::UInt64, std::vector<Expr>{intImm(S)}, Scope::Shared, sp);
    const Var& k = n.var;
    Expr rel = sub(k, n.min);
    auto issue = [&](Expr iter, Expr stage) {
        std::vector<Stmt> out{intrinsicStmt(intrin::kMbarrierExpectTx, {addr(full, {stage}), intImm(stageBytes)}, sp)};
        std::unordered_map<const VarNode*, Expr> at{{k.get(), iter}};
        for (auto& p : producers) {
            const Buffer& tile = local.at(p.c.copy->region(1).buffer.get());
            std::vector<Expr> args{intImm(p.map), addr(tile, {stage, intImm(0), intImm(0)}), addr(full, {stage}),
                                   intImm(p.geo.rows), intImm(p.geo.panelElems), intImm(p.geo.panels)};
            for (Expr& c : tmaCoordinates(p.c.copy->region(0), at)) args.push_back(c);
            out.push_back(intrinsicStmt(intrin::kTmaLoad, args, p.c.copy->span));
        }
        return seq(out, sp);
    };
    Var ps = makeVar("ps", DType::Int32, sp);
    Stmt prologue = forLoop(ps, intImm(0), intImm(S - 1), ForKind::Unrolled,
                            ifThen(lt(ps, n.extent), issue(add(n.min, ps), ps), nullptr, sp), {}, sp);

    auto* sq = as<SeqNode>(n.body);
    std::vector<Stmt> stmts = sq ? sq->stmts : std::vector<Stmt>{n.body};
    const Expr stage = floormod(rel, intImm(S));
    const Expr prev = sub(rel, intImm(1));
    Stmt refill = seq({ifThen(binary(BinOp::Ge, rel, intImm(1)),
                              intrinsicStmt(intrin::kMbarrierWait,
                                            {addr(empty, {floormod(prev, intImm(S))}), floormod(floordiv(prev, intImm(S)), intImm(2)), intImm(1)}, sp),
                              nullptr, sp),
                       issue(add(k, intImm(S - 1)), floormod(add(rel, intImm(S - 1)), intImm(S)))},
                      sp);
    std::vector<Stmt> body{ifThen(lt(add(rel, intImm(S - 1)), n.extent), refill, nullptr, sp),
                           intrinsicStmt(intrin::kMbarrierWait, {addr(full, {stage}), floormod(floordiv(rel, intImm(S)), intImm(2))}, sp)};
    for (auto& s : stmts) {
        bool isCopy = false;
        for (auto& c : *copies) isCopy = isCopy || s.get() == c.copy;
        if (!isCopy) body.push_back(markOperandsReady(restageTiles(s, local, stage)));
    }
    body.push_back(intrinsicStmt(intrin::kMbarrierArrive, {addr(empty, {stage})}, sp));
    Attrs la;
    la["num_stages"] = S;
    la["tma_pipeline"] = true;
    la["ws_candidate"] = true;  // warp-specialize may give the refill a producer warpgroup
    Stmt mainLoop = forLoop(k, n.min, n.extent, ForKind::Serial, seq(body, sp), la, sp);
    return seq({std::make_shared<AllocNode>(full, nullptr, sp), std::make_shared<AllocNode>(empty, nullptr, sp),
                intrinsicStmt(intrin::kMbarrierInit, {addr(full, {intImm(0)}), intImm(S)}, sp),
                intrinsicStmt(intrin::kMbarrierInit, {addr(empty, {intImm(0)}), intImm(S), intImm(threads)}, sp),
                intrinsicStmt(intrin::kFenceProxyAsync, {}, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp), prologue, mainLoop},
               sp);
}

}  // namespace ts::xform
