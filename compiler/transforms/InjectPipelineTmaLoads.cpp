// PipelineTmaLoads (Hopper.h): on sm_90a, the producer copies of the cp.async pipeline schedules
// (InjectPipeline.cpp's S-stage schedule, InjectPipelineWgmmaGeneric.cpp's in-flight one) that TMA
// can load (pipelinedTmaWhyNot, CopyTma.cpp: the one legality rule) become TMA loads completing on
// a per-stage mbarrier; the others stay cp.async. With S stages and a stage's TMA bytes B (the sum
// over its TMA tiles: several tiles per stage share one barrier and one expect_tx):
//
//   tma_full = alloc_shared((S,), uint64)
//   T.sync_threads(); tl.mbarrier_init(tma_full[0], S)     # elected; one arrival per phase
//   tl.fence_proxy_async(); T.sync_threads()               # generic writes before -> async writes
//   prologue / refill of tile j into stage s:
//       elected: tl.mbarrier_expect_tx(tma_full[s], B); tl.tma_load(map, tile[s], tma_full[s], ...)
//       <cp.async copies of the other producers>; tl.cp_async_commit()
//   iteration k (relative):
//       tl.cp_async_wait(...)                               # the cp.async producers' groups
//       tl.mbarrier_wait(tma_full[k % S], (k / S) % 2)      # tile k's TMA bytes landed
//       T.sync_threads()                                    # the schedule's own barrier
//       <refill>; <consumers>
//
// Why this is enough: the stage a refill overwrites was last read by the consumers of an earlier
// iteration, which every thread finished before the block barrier the refill follows (the
// in-flight schedule's wgmma reads of it retired before that barrier too); a TMA write after a
// barrier that orders the generic reads is the usual producer/consumer handoff (no proxy fence
// is needed for reads). Tiles the body also writes (a generic write the refill would race with)
// and tiles written by more than one producer keep cp.async. Out-of-bounds box elements read 0
// (PTX ISA 9.7.9.25.5.1), T.copy's own rule for ragged tails; the expect_tx counts whole boxes,
// which is what TMA delivers. Stage s's barrier completes one phase per use of the stage, so
// parity (k / S) % 2 holds for any trip count (1 included).
#include <cstdlib>
#include <set>

#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/Hopper.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using lower::intrinsicStmt;
Expr addr(const Buffer& b, std::vector<Expr> idx) { return lower::addressOf(b, std::move(idx)); }

/// Buffers a statement writes (tile-op write regions, stores).
std::set<const BufferNode*> writesOf(const Stmt& s) {
    std::set<const BufferNode*> w;
    walk(s, [&](const Stmt& x) {
        if (auto* op = as<TileOpNode>(x)) {
            const ops::TileOp* o = ops::find(op->op);
            for (size_t i = 0; i < op->args.size(); ++i)
                if (auto* r = std::get_if<Region>(&op->args[i]); r && (!o || (o->access(*op, i) & ops::kWrite))) w.insert(r->buffer.get());
        } else if (auto* st = as<StoreNode>(x)) {
            w.insert(st->buffer.get());
        } else if (auto* ev = as<EvalNode>(x)) {
            walkExpr(ev->call, [&](const Expr& e) {  // an intrinsic taking a tile's address may write it
                if (auto* c = as<CallNode>(e); c && c->op == intrin::kAddressOf && !c->args.empty())
                    if (auto* l = as<LoadNode>(c->args[0])) w.insert(l->buffer.get());
            });
        }
    });
    return w;
}

}  // namespace

PipelineTmaLoads::PipelineTmaLoads(const PrimFuncNode& f, const ForNode& loop, const std::vector<Stmt>& prod, const std::vector<Stmt>& cons,
                                   int64_t S, const std::string& noTma, const Target& target, Attrs& attrs, DiagnosticEngine* diags)
    : m_loop(loop), m_S(S), m_plans(prod.size()), m_maps(prod.size(), -1) {
    if (!target.hasWgmma()) return;  // sm_80 and older: the cp.async schedule as it was, no notes
    const char* off = std::getenv("TILESCOPE_PIPELINE_TMA");  // measurement switch: 0 = every producer cp.async
    const bool disabled = off && *off == '0';
    std::set<const BufferNode*> consWrites;
    for (auto& c : cons)
        for (auto* b : writesOf(c)) consWrites.insert(b);
    std::map<const BufferNode*, int> writers;
    for (auto& p : prod)
        if (auto* t = as<TileOpNode>(p); t && t->isRegion(1)) ++writers[t->region(1).buffer.get()];
    for (size_t i = 0; i < prod.size(); ++i) {
        auto* t = as<TileOpNode>(prod[i]);
        if (!t || !t->isRegion(0) || !t->isRegion(1)) continue;
        const Buffer& dst = t->region(1).buffer;
        TmaLoadPlan plan;
        std::string why;
        if (disabled) why = "TILESCOPE_PIPELINE_TMA=0";
        else if (!noTma.empty()) why = noTma;
        else if (writers[dst.get()] > 1) why = "'" + dst->name + "' is written by more than one copy of the loop";
        else if (consWrites.count(dst.get())) why = "the loop body also writes '" + dst->name + "' (a generic write the TMA refill would race with)";
        else why = pipelinedTmaWhyNot(f, *t, target, &plan);
        if (!why.empty()) {
            if (diags)
                diags->add({Severity::Note, t->span, "T.copy into '" + dst->name + "' keeps cp.async in the T.Pipelined schedule: " + why,
                            tmaWhyNotHint(why, false, false, /*cpAsync=*/true), "inject-pipeline"});
            continue;
        }
        m_plans[i] = plan;
        m_maps[i] = tensorMapFor(attrs, plan.param, plan.geo, plan.rowDim);
        m_bytes += plan.geo.bytes();
        if (diags) {
            const auto& g = plan.geo;
            diags->add({Severity::Note, t->span,
                        "T.copy into '" + dst->name + "' is loaded by TMA in the T.Pipelined schedule (" + tmaBoxesText(g) + ", " +
                            std::to_string(g.bytes()) + " bytes per stage on the stage's mbarrier; out-of-bounds elements read 0)",
                        "disable_tma=True keeps cp.async", "inject-pipeline"});
        }
    }
    if (m_bytes > 0) {
        // One barrier array per loop of the kernel, named apart from the other schedules' tma_full.
        const int64_t n = attrInt(attrs, "tma_load_loops", 0);
        attrs["tma_load_loops"] = n + 1;
        m_full = std::make_shared<BufferNode>("tma_stage_full_" + std::to_string(n), DType::UInt64, std::vector<Expr>{intImm(S)}, Scope::Shared,
                                              loop.span);
    }
}

bool PipelineTmaLoads::anyCpAsync() const {
    for (auto& p : m_plans)
        if (!p) return true;
    return false;
}

Stmt PipelineTmaLoads::producersAt(const std::vector<Stmt>& prod, const std::map<const BufferNode*, Buffer>& local, Expr iter,
                                   Expr stage) const {
    const Span sp = m_loop.span;
    std::unordered_map<const VarNode*, Expr> at{{m_loop.var.get(), iter}};
    std::vector<Stmt> out;
    if (m_bytes > 0) out.push_back(intrinsicStmt(intrin::kMbarrierExpectTx, {addr(m_full, {stage}), intImm(m_bytes)}, sp));
    for (size_t i = 0; i < prod.size(); ++i) {
        if (!m_plans[i]) {
            out.push_back(restageTiles(substitute(prod[i], at), local, stage));
            continue;
        }
        auto* t = as<TileOpNode>(prod[i]);
        const auto& g = m_plans[i]->geo;
        const Buffer& tile = local.at(t->region(1).buffer.get());
        std::vector<Expr> first{stage, intImm(0)};  // the staged tile's first element: [stage, 0(, 0)]
        if (tile->shape.size() == 3) first.push_back(intImm(0));
        std::vector<Expr> args{intImm(m_maps[i]), addr(tile, first), addr(m_full, {stage}),
                               intImm(g.rows), intImm(g.panelElems), intImm(g.panels)};
        for (Expr& c : tmaCoordinates(t->region(0), at)) args.push_back(c);
        out.push_back(intrinsicStmt(intrin::kTmaLoad, args, t->span));
    }
    return seq(out, sp);
}

Stmt PipelineTmaLoads::setup() const {
    if (!m_full) return nullptr;
    const Span sp = m_loop.span;
    return seq({std::make_shared<AllocNode>(m_full, nullptr, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp),
                intrinsicStmt(intrin::kMbarrierInit, {addr(m_full, {intImm(0)}), intImm(m_S)}, sp),
                intrinsicStmt(intrin::kFenceProxyAsync, {}, sp), intrinsicStmt(intrin::kSyncThreads, {}, sp)},
               sp);
}

Stmt PipelineTmaLoads::waitFull(Expr rel) const {
    if (!m_full) return nullptr;
    return intrinsicStmt(intrin::kMbarrierWait,
                         {addr(m_full, {floormod(rel, intImm(m_S))}), floormod(floordiv(rel, intImm(m_S)), intImm(2))}, m_loop.span);
}

}  // namespace ts::xform
