// injectTmaPipeline (Hopper.h): the sm_90a schedule of a T.Pipelined loop whose copies fill
// wgmma_smem tiles (chosen by infer-layouts). With S = max(1, num_stages) stages, n iterations:
//
//   tma_bar = alloc_shared((S,), uint64)
//   tl.mbarrier_init(tma_bar[0], S)                # one arrival (the elected expect_tx) per phase
//   T.sync_threads()
//   for p in T.unroll(S):                          # prologue: tiles 0..S-1 in flight
//       if p < n: tl.mbarrier_expect_tx(tma_bar[p], B); tl.tma_load(..., stage p, tma_bar[p])
//   for k in T.serial(n):
//       tl.mbarrier_wait(tma_bar[k % S], (k / S) % 2)    # tile k landed (use k/S of this stage)
//       consumers(k) read stage k % S                    # wgmma waits for its own groups
//       T.sync_threads()                                  # every thread is done with stage k % S
//       if k + S < n: expect_tx + tma_load(k + S) into stage k % S
//
// B is the bytes of all tiles of one stage (TMA counts out-of-bounds box elements too). Each
// stage's barrier completes one phase per use, so use u = k / S waits on parity u % 2; any trip
// count (1 included) and any S work, since every issued load is waited for in the same loop.
// The async proxy writes the tiles and wgmma reads them (both async proxy), so no proxy fence is
// needed; the barrier before a refill orders every thread's last (completed) wgmma read.
// When the body is just the gemm (and S >= 2), the gemm of iteration k is left in flight (wgmma
// wait 1 retires k-1's group) and iteration k refills k-1's stage instead: S-1 tiles ahead,
// tensor cores busy across iterations; the accumulator's next reader waits (lowerWgmmaWait).
// Requires: infer-layouts (wgmma_smem tiles), plan-pipelines. Produces: the schedule above,
// PrimFunc attrs "tma_maps" and "tma_map.<i>" = {param index, box inner (panel elements), box
// outer (rows), swizzle bytes}.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <set>
#include <string>

#include "compiler/analysis/WgmmaLayouts.h"
#include "compiler/transforms/Hopper.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using lower::intrinsicStmt;
Expr addr(const Buffer& b, std::vector<Expr> idx) { return lower::addressOf(b, std::move(idx)); }

struct TmaProducer {
    const TileOpNode* copy = nullptr;
    analysis::WgmmaTileGeometry geo;
    int64_t map = 0;
};

}  // namespace

int64_t tensorMapFor(Attrs& attrs, int64_t param, const analysis::WgmmaTileGeometry& g, int rowDim) {
    const std::vector<int64_t> want{param, g.panelElems, g.rows, g.panelBytes, rowDim};
    int64_t n = attrInt(attrs, "tma_maps", 0);
    for (int64_t i = 0; i < n; ++i)
        if (attrInts(attrs, "tma_map." + std::to_string(i)) == want) return i;
    attrs["tma_map." + std::to_string(n)] = want;
    attrs["tma_maps"] = n + 1;
    return n;
}

namespace {


/// The loop body beyond its TMA copies is one wgmma gemm and there are >= 2 stages: the gemm may
/// stay in flight into the next iteration (a single stage would be refilled under it).
/// TILESCOPE_HOPPER_SYNC_WGMMA=1 turns this off (measurement switch: the synchronous schedule).
/// Off until the H200 shows it faster than the block-barrier schedule (bench/h200_tune4096.sh).
constexpr bool kEmptyBarrierGemmByDefault = false;

bool asyncWgmma(const std::vector<Stmt>& consumers, const PrimFuncNode& f, int64_t S) {
    if (S < 2 || consumers.size() != 1) return false;
    if (const char* e = std::getenv("TILESCOPE_HOPPER_SYNC_WGMMA"); e && *e == '1') return false;
    auto* g = as<TileOpNode>(consumers[0]);
    if (!g || g->op != TileOpKind::Gemm || !g->isRegion(2)) return false;
    auto it = f.layouts.find(g->region(2).buffer->name);
    return it != f.layouts.end() && it->second && it->second->family == "wgmma_c";
}

/// The empty-barrier schedule of an in-flight gemm (S >= 3; TILESCOPE_HOPPER_GEMM_SCHEDULE=sync
/// keeps the block-barrier one above, =empty forces this one): no block barrier in the loop.
bool emptyBarrierSchedule(int64_t S) {
    if (S < 3) return false;  // lag 2 with 2 stages would have no tile ahead
    const char* e = std::getenv("TILESCOPE_HOPPER_GEMM_SCHEDULE");
    if (e && std::string(e) == "sync") return false;
    if (e && std::string(e) == "empty") return true;
    return kEmptyBarrierGemmByDefault;
}

/// With the gemm of iteration k in flight (wgmma wait 1 retires k-1's group), every thread
/// releases tile k-1's stage in iteration k by arriving on its empty barrier; the elected thread
/// refills it two iterations later, lag 2 as the ping-pong schedule (InjectPipelineTmaFragment.cpp):
///
///   full[S] (1 arrival: expect_tx), empty[S] (T/32 arrivals: one per warp); fence; sync; tiles 0..S-2 issued
///   for k in T.serial(n):
///       if k >= 1 and k + S-2 < n:
///           if k >= 2: elected wait empty[(k-2) % S], parity ((k-2)/S) % 2   # tile k-2 released
///           issue(k + S-2) into stage (k-2) % S
///       wait full[k % S], parity (k/S) % 2;  gemm k (wait 1)
///       if k >= 1: arrive empty[(k-1) % S]                          # gemm k-1 retired
///
/// The elected thread never waits for an arrival of its own iteration, so the lockstep
/// interpreters and a block without a producer warpgroup cannot deadlock; no warpgroup waits for
/// another except through the refill. The loop is a warp-specialize candidate (the refill is
/// elected work only). S-2 tiles are loading while gemm k runs and gemm k-1 retires, as in the
/// block-barrier schedule.
Stmt emptyBarrierLoop(const ForNode& n, const std::vector<Stmt>& consumers, const std::map<const BufferNode*, Buffer>& local,
                      std::vector<Stmt> hoisted, const Buffer& full, const std::function<Stmt(Expr, Expr)>& issue, int64_t threads) {
    const Span sp = n.span;
    const int64_t S = std::max<int64_t>(1, attrInt(n.attrs, "num_stages", 1));
    const Var& k = n.var;
    const Expr rel = sub(k, n.min);
    Buffer empty = std::make_shared<BufferNode>("tma_empty", DType::UInt64, std::vector<Expr>{intImm(S)}, Scope::Shared, sp);
    Var ps = makeVar("ps", DType::Int32, sp);
    Stmt prologue = forLoop(ps, intImm(0), intImm(S - 1), ForKind::Unrolled,
                            ifThen(lt(ps, n.extent), issue(add(n.min, ps), ps), nullptr, sp), {}, sp);
    const Expr lag2 = sub(rel, intImm(2));
    Stmt refill = seq({ifThen(binary(BinOp::Ge, rel, intImm(2)),
                              intrinsicStmt(intrin::kMbarrierWait,
                                            {addr(empty, {floormod(lag2, intImm(S))}), floormod(floordiv(lag2, intImm(S)), intImm(2)), intImm(1)}, sp),
                              nullptr, sp),
                       issue(add(k, intImm(S - 2)), floormod(lag2, intImm(S)))},
                      sp);
    const Expr stage = floormod(rel, intImm(S));
    auto* g = as<TileOpNode>(consumers[0]);
    Attrs ga = g->attrs;
    ga["wgmma_wait"] = int64_t(1);
    const Expr prev = sub(rel, intImm(1));
    std::vector<Stmt> body{
        ifThen(logicalAnd(binary(BinOp::Ge, rel, intImm(1)), lt(add(rel, intImm(S - 2)), n.extent)), refill, nullptr, sp),
        intrinsicStmt(intrin::kMbarrierWait, {addr(full, {stage}), floormod(floordiv(rel, intImm(S)), intImm(2))}, sp),
        restageTiles(std::make_shared<TileOpNode>(g->op, g->args, ga, g->span), local, stage),
        ifThen(binary(BinOp::Ge, rel, intImm(1)), releaseStage(addr(empty, {floormod(prev, intImm(S))}), threads, sp), nullptr, sp)};
    Attrs la;
    la["num_stages"] = S;
    la["tma_pipeline"] = true;
    la["ws_candidate"] = true;
    Stmt mainLoop = forLoop(k, n.min, n.extent, ForKind::Serial, seq(body, sp), la, sp);
    hoisted.insert(hoisted.end(), {std::make_shared<AllocNode>(full, nullptr, sp), std::make_shared<AllocNode>(empty, nullptr, sp),
                                   intrinsicStmt(intrin::kMbarrierInit, {addr(full, {intImm(0)}), intImm(S)}, sp),
                                   intrinsicStmt(intrin::kMbarrierInit, {addr(empty, {intImm(0)}), intImm(S), intImm(stageReleaseCount(threads))}, sp),
                                   intrinsicStmt(intrin::kFenceProxyAsync, {}, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp), prologue, mainLoop});
    return seq(hoisted, sp);
}

}  // namespace

namespace {
bool warpArrivals(int64_t threads) {
    const char* e = std::getenv("TILESCOPE_HOPPER_WARP_ARRIVE");
    // Off by default: timed on the H200 (2026-12-03, bench/results/h200-session-2026-12-03g) the
    // per-warp release gained nothing (GEMM 4096 0.2040 vs 0.2039 ms, attention fwd 0.2376 vs
    // 0.2411 ms, causal 1.162 vs 1.196 ms per-thread vs per-warp), so it stays a measurement switch.
    return threads % 32 == 0 && e && *e == '1';
}
}  // namespace

int64_t stageReleaseCount(int64_t threads) { return warpArrivals(threads) ? threads / 32 : threads; }

Stmt releaseStage(Expr bar, int64_t threads, Span sp) {
    if (!warpArrivals(threads)) return intrinsicStmt(intrin::kMbarrierArrive, {std::move(bar)}, sp);
    return intrinsicStmt(intrin::kMbarrierArrive, {std::move(bar), intImm(1)}, sp);
}

Stmt injectTmaPipeline(const ForNode& n, const PrimFuncNode& f, int64_t threads, Attrs& attrs, std::map<const BufferNode*, Buffer>& staged) {
    auto* sq = as<SeqNode>(n.body);
    std::vector<Stmt> stmts = sq ? sq->stmts : std::vector<Stmt>{n.body};
    // A copy the user kept off TMA keeps the whole loop on the cp.async schedule, where each
    // producer's TMA choice is its own (InjectPipelineTmaLoads.cpp) and says why in a note.
    bool userOff = false;
    walk(n.body, [&](const Stmt& s) {
        if (auto* t = as<TileOpNode>(s); t && t->op == TileOpKind::Copy && !tmaDisabledWhy(f, *t).empty()) userOff = true;
    });
    if (userOff) return nullptr;
    std::vector<TmaProducer> producers;
    std::vector<Stmt> consumers;
    // Tiles of gemms on wgmma with the sm_80 loads (selectHopperFragmentGemm, attr wgmma_fragment)
    // are wgmma_smem tiles too, but their copies stay cp.async: the sm_80 schedule runs them.
    std::set<const BufferNode*> fragmentPathTiles;
    walk(f.body, [&](const Stmt& s) {
        auto* g = as<TileOpNode>(s);
        if (g && g->op == TileOpKind::Gemm && attrBool(g->attrs, "wgmma_fragment", false))
            for (size_t i = 0; i < 2 && i < g->args.size(); ++i)
                if (g->isRegion(i)) fragmentPathTiles.insert(g->region(i).buffer.get());
    });
    std::vector<Stmt> hoisted;  // shared tiles allocated in the body: declared before the prologue
    for (auto& s : stmts) {
        if (auto* a = as<AllocNode>(s); a && a->buffer->scope == Scope::Shared && !a->init) {
            hoisted.push_back(s);
            continue;
        }
        auto* t = as<TileOpNode>(s);
        const Buffer* dst = t && t->op == TileOpKind::Copy && t->isRegion(0) && t->isRegion(1) ? &t->region(1).buffer : nullptr;
        if (dst && fragmentPathTiles.count(dst->get())) dst = nullptr;
        auto it = dst ? f.layouts.find((*dst)->name) : f.layouts.end();
        auto geo = it != f.layouts.end() && it->second ? analysis::wgmmaGeometryOf(*it->second, dtypeBytes((*dst)->dtype))
                                                      : std::nullopt;
        if (!geo) {
            consumers.push_back(s);
            continue;
        }
        int64_t param = -1;
        for (size_t i = 0; i < f.params.size(); ++i)
            if (f.params[i] == t->region(0).buffer) param = int64_t(i);
        std::string why;
        auto rowDim = tmaCopyRowDim(*t, *geo, why);
        if (param < 0 || !rowDim) {  // infer-layouts only picks copies from kernel tensors TMA can load
            consumers.push_back(s);
            continue;
        }
        producers.push_back({t, *geo, tensorMapFor(attrs, param, *geo, *rowDim)});
    }
    if (producers.empty()) return nullptr;

    const Span sp = n.span;
    const int64_t S = std::max<int64_t>(1, attrInt(n.attrs, "num_stages", 1));
    std::map<const BufferNode*, Buffer> local;
    int64_t stageBytes = 0;
    for (auto& p : producers) {
        const Buffer& b = p.copy->region(1).buffer;
        if (!staged.count(b.get()))
            staged[b.get()] = std::make_shared<BufferNode>(b->name, b->dtype, std::vector<Expr>{intImm(S), intImm(p.geo.rows), intImm(p.geo.cols)},
                                                           Scope::Shared, b->span);
        local[b.get()] = staged[b.get()];
        stageBytes += p.geo.bytes();
    }
    Buffer bars = std::make_shared<BufferNode>("tma_bar", DType::UInt64, std::vector<Expr>{intImm(S)}, Scope::Shared, sp);
    const Var& k = n.var;
    Expr rel = sub(k, n.min);
    auto issue = [&](Expr iter, Expr stage) {
        std::vector<Stmt> out{intrinsicStmt(intrin::kMbarrierExpectTx, {addr(bars, {stage}), intImm(stageBytes)}, sp)};
        std::unordered_map<const VarNode*, Expr> at{{k.get(), iter}};
        for (auto& p : producers) {
            const Region& src = p.copy->region(0);
            const Buffer& tile = local.at(p.copy->region(1).buffer.get());
            std::vector<Expr> args{intImm(p.map), addr(tile, {stage, intImm(0), intImm(0)}), addr(bars, {stage}),
                                   intImm(p.geo.rows), intImm(p.geo.panelElems), intImm(p.geo.panels)};
            for (Expr& c : tmaCoordinates(src, at)) args.push_back(c);
            out.push_back(intrinsicStmt(intrin::kTmaLoad, args, p.copy->span));
        }
        return seq(out, sp);
    };
    Var ps = makeVar("ps", DType::Int32, sp);
    Stmt prologue = forLoop(ps, intImm(0), intImm(S), ForKind::Unrolled,
                            ifThen(lt(ps, n.extent), issue(add(n.min, ps), ps), nullptr, sp), {}, sp);
    Expr stage = floormod(rel, intImm(S));
    if (asyncWgmma(consumers, f, S) && emptyBarrierSchedule(S))
        return emptyBarrierLoop(n, consumers, local, hoisted, bars, issue, threads);
    std::vector<Stmt> body{intrinsicStmt(intrin::kMbarrierWait, {addr(bars, {stage}), floormod(floordiv(rel, intImm(S)), intImm(2))}, sp)};
    if (asyncWgmma(consumers, f, S)) {
        // The gemm of iteration k stays in flight while the loop goes on (wgmma wait 1 retires
        // k-1's), so the stage refilled in iteration k is k-1's: S-1 tiles ahead. The
        // accumulator's next reader waits for the last group (lowerWgmmaWait).
        Attrs ga = as<TileOpNode>(consumers[0])->attrs;
        ga["wgmma_wait"] = int64_t(1);
        auto* g = as<TileOpNode>(consumers[0]);
        body.push_back(restageTiles(std::make_shared<TileOpNode>(g->op, g->args, ga, g->span), local, stage));
        body.push_back(intrinsicStmt(intrin::kSyncThreads, {}, sp));
        Expr prev = sub(rel, intImm(1));
        body.push_back(ifThen(logicalAnd(binary(BinOp::Ge, rel, intImm(1)), lt(add(prev, intImm(S)), n.extent)),
                              issue(add(sub(k, intImm(1)), intImm(S)), floormod(prev, intImm(S))), nullptr, sp));
    } else {
        for (auto& c : consumers) body.push_back(restageTiles(c, local, stage));
        body.push_back(intrinsicStmt(intrin::kSyncThreads, {}, sp));
        body.push_back(ifThen(lt(add(rel, intImm(S)), n.extent), issue(add(k, intImm(S)), stage), nullptr, sp));
    }
    Attrs la;
    la["num_stages"] = S;
    la["tma_pipeline"] = true;
    Stmt mainLoop = forLoop(k, n.min, n.extent, ForKind::Serial, seq(body, sp), la, sp);
    hoisted.insert(hoisted.end(), {std::make_shared<AllocNode>(bars, nullptr, sp), intrinsicStmt(intrin::kMbarrierInit, {addr(bars, {intImm(0)}), intImm(S)}, sp),
                                   intrinsicStmt(intrin::kSyncThreads, {}, sp), prologue, mainLoop});
    return seq(hoisted, sp);
}

}  // namespace ts::xform
