// sink-tma-waits (sm_90a): a plain TMA copy (ops/CopyTma.cpp) is lowered as
//
//   fence.proxy.async; T.sync_threads(); elected: expect_tx(bar) + tma_load(tile, bar); mbarrier_wait(bar)
//
// so every thread waits for the tile right where the T.copy stood. Two copies in a row, and a
// pipeline prologue after them, then cost one global-memory round trip each, one after the
// other: MHA backward's K and V tiles and the first Q/dO stage were three round trips before
// the first wgmma of each block (about 1 us each under load, against ~34 us of a 128x128 block).
// This pass moves each such wait down its statement sequence to just before the first
// statement that touches the tile (its storage: views included), the barrier, or a buffer the
// wait's parity reads; a wait with no such statement after it goes to the end of the sequence
// (the same loop iteration, still before the kernel's exit). The copies behind it are then
// issued while the tile is in flight.
//
// Why this is enough: the wait only makes the TMA's writes of the tile visible to the thread
// that waits (PTX ISA 9.7.13.15.16, mbarrier.try_wait: completing the phase makes the async
// writes the barrier tracks visible to the waiting threads). Every thread runs its own wait, so
// each thread still waits before its own first access of the tile; nothing another thread does
// depends on this thread's wait. Statements the wait passes do not touch the tile, and the
// barrier is not reused before the wait. The tile's bytes stay its own until the wait: plan-smem
// runs after this pass and keeps a plain TMA load's tile live from its issue to its wait
// (SmemLiveness.cpp tmaEvent; a fresh-user helper found a scratch tile given the bytes of a
// copied tile that nothing read, while the copy was still in flight). Only waits whose TMA load is in the same statement
// sequence move (a pipeline's waits stay where inject-pipeline put them), and never out of it.
// $TILESCOPE_SINK_TMA_WAITS=0 keeps the waits in place (measurement switch).
// Requires: lower-tile-ops (and insert-sync: the barriers it places are final). Produces: nothing new.
// Invalidates: nothing (plan-smem computes liveness after it).
#include <cstdlib>
#include <set>
#include <string>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/Views.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/SmemLiveness.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

const CallNode* callOf(const Stmt& s) {
    auto* e = as<EvalNode>(s);
    return e ? dynamic_cast<const CallNode*>(e->call.get()) : nullptr;
}

/// Storage names of every buffer `e` mentions (a load, or address_of's operand).
void buffersOf(const PrimFuncNode& f, const Expr& e, std::set<std::string>& out) {
    if (!e) return;
    walkExpr(e, [&](const Expr& x) {
        if (auto* l = dynamic_cast<const LoadNode*>(x.get())) out.insert(storageName(f, *l->buffer));
    });
}

/// Whether `s` mentions any storage in `names` (loads, stores, allocations, address_of), or is
/// (or holds) a tile op, which this pass does not look into.
bool touches(const PrimFuncNode& f, const Stmt& s, const std::set<std::string>& names) {
    bool hit = false;
    walk(
        s,
        [&](const Stmt& x) {
            if (hit) return;
            if (as<TileOpNode>(x)) hit = true;
            else if (auto* st = as<StoreNode>(x)) hit = names.count(storageName(f, *st->buffer)) > 0;
            else if (auto* a = as<AllocNode>(x)) hit = names.count(storageName(f, *a->buffer)) > 0;
        },
        [&](const Expr& x) {
            if (hit) return;
            if (auto* l = dynamic_cast<const LoadNode*>(x.get())) hit = names.count(storageName(f, *l->buffer)) > 0;
        });
    return hit;
}

class Sinker : public Mutator {
public:
    explicit Sinker(const PrimFuncNode& f) : m_f(f) {}
    int moved = 0;

    Stmt visitSeq(const SeqNode* n, const Stmt& self) override {
        Stmt inner = Mutator::visitSeq(n, self);
        auto* q = as<SeqNode>(inner);
        if (!q) return inner;
        std::vector<Stmt> xs;
        flattenSeq(inner, xs);
        bool any = false;
        std::set<const StmtNode*> done;  // each wait moves once (two waits would pass each other forever)
        for (size_t i = 0; i < xs.size(); ++i) {
            const CallNode* w = callOf(xs[i]);
            if (!w || w->op != intrin::kMbarrierWait || w->args.empty() || done.count(xs[i].get())) continue;
            std::set<std::string> bar;
            buffersOf(m_f, w->args[0], bar);
            // A plain copy's own barrier has one element; a pipeline's stage barriers have one
            // per stage and their waits stay put.
            if (bar.size() != 1 || !plainCopyBarrier(w->args[0])) continue;
            // The tiles this barrier's TMA loads (earlier in this sequence) write.
            std::set<std::string> stop;
            for (size_t j = 0; j < i; ++j) {
                const CallNode* c = callOf(xs[j]);
                if (!c || c->op != intrin::kTmaLoad || c->args.size() < 3) continue;
                std::set<std::string> b;
                buffersOf(m_f, c->args[2], b);
                if (b == bar) buffersOf(m_f, c->args[1], stop);
            }
            if (stop.empty()) continue;
            for (auto& a : w->args) buffersOf(m_f, a, stop);  // the barrier, a phase the parity reads
            size_t to = i + 1;
            while (to < xs.size() && !touches(m_f, xs[to], stop)) ++to;
            if (to == i + 1) continue;
            Stmt wait = xs[i];
            done.insert(wait.get());
            xs.erase(xs.begin() + long(i));
            xs.insert(xs.begin() + long(to - 1), wait);
            ++moved;
            any = true;
            --i;  // the statement now at i has not been looked at (unsigned wrap at 0 is defined)
        }
        if (!any) return inner;
        return std::make_shared<SeqNode>(std::move(xs), q->span);
    }

private:
    const PrimFuncNode& m_f;
};

}  // namespace

PrimFunc sinkTmaWaits(const PrimFunc& f, PassContext& ctx) {
    if (!ctx.target.hasWgmma()) return f;
    if (const char* e = std::getenv("TILESCOPE_SINK_TMA_WAITS"); e && *e == '0') return f;
    Sinker s(*f);
    Stmt body = s.mutate(f->body);
    return s.moved ? withBody(f, body) : f;
}

}  // namespace ts::xform
