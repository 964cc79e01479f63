// inject-pipeline: turns each planned T.Pipelined loop into the cp.async multi-stage schedule
//
//   for p in T.unroll(S-1):                       # prologue: tiles 0..S-2 in flight
//       if p < n: producers(k = p) -> stage p
//       tl.cp_async_commit()
//   for k in T.serial(n):
//       tl.cp_async_wait(S-2)                     # tile k has landed (this thread's groups)
//       T.sync_threads()                          # ... for every thread; stage (k-1)%S is free
//       if k + S-1 < n: producers(k + S-1) -> stage (k+S-1) % S
//       tl.cp_async_commit()
//       consumers(k) read stage k % S
//   tl.cp_async_wait(0)
//
// Each producer's shared tile gets a leading stage dimension of S. Group accounting (PTX ISA
// §9.7.9.25.3, cp.async.wait_group): before the wait of iteration k, S-1+k groups were
// committed; allowing S-2 pending leaves groups 0..k (tiles 0..k) complete.
// Requires: plan-pipelines, infer-layouts. Produces: explicit prologue/main loop, async copies
// (attr "async"), multi-buffered shared tiles. Invalidates: shared layouts (rebuilt here).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "compiler/analysis/Layouts.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Views.h"
#include "compiler/ops/Registry.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/BlockUniform.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/WarpRoles.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

Stmt intrinsic(const std::string& op, std::vector<Expr> args, Span sp) {
    return evaluate(call(op, std::move(args), DType::Int32, sp), sp);
}

/// Rewrites accesses of multi-buffered tiles to their staged copy at `stage`.
class Restage : public Mutator {
public:
    Restage(const std::map<const BufferNode*, Buffer>& m, Expr stage) : m_map(m), m_stage(std::move(stage)) {}

protected:
    Expr visitLoad(const LoadNode* n, const Expr& self) override {
        Expr e = Mutator::visitLoad(n, self);
        auto* l = as<LoadNode>(e);
        auto it = m_map.find(l->buffer.get());
        if (it == m_map.end()) return e;
        std::vector<Expr> idx{m_stage};
        idx.insert(idx.end(), l->indices.begin(), l->indices.end());
        return load(it->second, idx, l->span);
    }
    Stmt visitStore(const StoreNode* n, const Stmt& self) override {
        Stmt s = Mutator::visitStore(n, self);
        auto* st = as<StoreNode>(s);
        auto it = m_map.find(st->buffer.get());
        if (it == m_map.end()) return s;
        std::vector<Expr> idx{m_stage};
        idx.insert(idx.end(), st->indices.begin(), st->indices.end());
        return store(it->second, idx, st->value, st->span);
    }
    Stmt visitTileOp(const TileOpNode* n, const Stmt& self) override {
        Stmt s = Mutator::visitTileOp(n, self);
        auto* t = as<TileOpNode>(s);
        bool changed = false;
        std::vector<TileArg> args = t->args;
        for (auto& a : args) {
            auto* r = std::get_if<Region>(&a);
            if (!r) continue;
            auto it = m_map.find(r->buffer.get());
            if (it == m_map.end()) continue;
            Region nr{it->second, {{m_stage, intImm(1)}}, r->span};
            nr.ranges.insert(nr.ranges.end(), r->ranges.begin(), r->ranges.end());
            a = nr;
            changed = true;
        }
        if (!changed) return s;
        return std::make_shared<TileOpNode>(t->op, args, t->attrs, t->span);
    }

private:
    const std::map<const BufferNode*, Buffer>& m_map;
    Expr m_stage;
};

}  // namespace

Stmt restageTiles(const Stmt& s, const std::map<const BufferNode*, Buffer>& staged, Expr stage) {
    Restage rs(staged, std::move(stage));
    return rs.mutate(s);
}

namespace {

/// The shared buffer whose bytes `name` lies on: itself, or the buffer it views.
std::string sharedTileOf(const Attrs& funcAttrs, const std::string& name) {
    std::string base = sharedViewBase(funcAttrs, name);
    return base.empty() ? name : base;
}

/// The shared tiles `s` writes through the generic proxy (plain stores, copies into a shared
/// tile, atomics into one) into `out`, by the shared buffer they lie on (a view names its base:
/// ir/Views.h); false when that is not known: a call whose effects are
/// not known, a gemm below the top level, an op without an access table.
bool sharedGenericWrites(const Stmt& s, const Attrs& funcAttrs, std::set<std::string>& out) {
    bool known = true;
    walk(s, [&](const Stmt& x) {
        if (!known) return;
        if (auto* op = as<TileOpNode>(x)) {
            if (op->op == TileOpKind::Gemm && x.get() != s.get()) known = false;
            const ops::TileOp* o = ops::find(op->op);
            for (size_t i = 0; i < op->args.size(); ++i) {
                auto* r = std::get_if<Region>(&op->args[i]);
                if (!r || r->buffer->scope != Scope::Shared) continue;
                if (!o) known = false;
                else if (o->access(*op, i) & ops::kWrite) out.insert(sharedTileOf(funcAttrs, r->buffer->name));
            }
        } else if (auto* st = as<StoreNode>(x)) {
            if (st->buffer->scope == Scope::Shared) out.insert(sharedTileOf(funcAttrs, st->buffer->name));
        } else if (as<EvalNode>(x)) {
            known = false;
        }
    });
    return known;
}

/// The fragment-path wgmma gemms (LowerHopper.cpp lowerWgmmaFragment) of a pipelined body each
/// begin with fence.proxy.async + a block barrier, which make the operand tiles' generic-proxy
/// writes (cp.async, plain stores) visible to wgmma. Once one gemm of the body has done that,
/// and been waited to completion, a later top-level gemm with no generic shared write in
/// between needs neither: every write it could read was fenced before that barrier
/// (attr wgmma_operands_ready); nor does one after generic writes only to shared tiles it does
/// not read (MHA backward with dS in registers: dK += dS Q after dS is stored for dQ).
/// `fencedAtTop`: the schedule puts a proxy fence before the
/// barrier at the top of the iteration (after the cp.async wait), which then serves the first
/// gemms too. MHA backward: 5 fence + barrier pairs per iteration and the top barrier became
/// the fenced top barrier and one pair (before dS^T Q, after dS^T is stored).
/// TILESCOPE_WGMMA_FENCE_EVERY=1 keeps them all (and no top fence).
bool wgmmaFenceEvery() {
    const char* e = std::getenv("TILESCOPE_WGMMA_FENCE_EVERY");
    return e && *e == '1';
}

/// TILESCOPE_WGMMA_TOP_FENCE=1: the fence at the top of the iteration even where the body ends
/// clean and every producer is TMA (the code before 2026-12-05d, kept for timing it).
bool wgmmaTopFenceAlways() {
    const char* e = std::getenv("TILESCOPE_WGMMA_TOP_FENCE");
    return e && *e == '1';
}

}  // namespace

bool dropRepeatedWgmmaFences(std::vector<Stmt>& body, bool fencedAtTop, const Attrs& funcAttrs) {
    if (wgmmaFenceEvery()) return false;
    // Since the last proxy fence + barrier: the shared tiles written through the generic proxy,
    // or `unknown` (anything may have been).
    bool unknown = !fencedAtTop;
    std::set<std::string> written;
    for (auto& s : body) {
        auto* g = as<TileOpNode>(s);
        const bool gemm = g && g->op == TileOpKind::Gemm && attrBool(g->attrs, "wgmma_fragment", false);
        if (!gemm) {
            if (!sharedGenericWrites(s, funcAttrs, written)) unknown = true;
            continue;
        }
        const bool waited = attrInt(g->attrs, "wgmma_wait", 0) == 0 && !attrBool(g->attrs, "warpgroup_pass", false);
        bool needs = unknown;
        for (size_t i = 0; i < 2 && !needs; ++i)
            needs = !g->isRegion(i) ||
                    (g->region(i).buffer->scope == Scope::Shared && written.count(sharedTileOf(funcAttrs, g->region(i).buffer->name)));
        if (attrBool(g->attrs, "wgmma_operands_ready", false)) {
            // Marked by the schedule: it emits no fence, so the writes stay unfenced.
        } else if (!needs) {
            Attrs a = g->attrs;
            a["wgmma_operands_ready"] = true;
            s = std::make_shared<TileOpNode>(g->op, g->args, a, g->span);
        } else {
            written.clear();  // its own fence + barrier order every write before it
        }
        // As before: after a gemm left in flight, the next one takes its fence again.
        unknown = !waited;
    }
    return !unknown && written.empty();
}


/// Whether `s` may run while the fragment-path gemm `g` is in flight (pairIndependentWgmmas):
/// it holds no gemm and no call, does not mention g's accumulator nor, with A from registers,
/// g's A fragment (PTX ISA §9.7.15.5: accessing either before the wait_group that retires the
/// wgmma is undefined, reads included), and writes no shared tile g reads.
bool mayRunBesideWgmma(const Stmt& s, const TileOpNode& g, const PrimFuncNode& func) {
    std::set<std::string> shared;
    if (!sharedGenericWrites(s, func.attrs, shared)) return false;
    for (size_t i = 0; i < 2; ++i)
        if (g.region(i).buffer->scope == Scope::Shared && shared.count(sharedTileOf(func.attrs, g.region(i).buffer->name))) return false;
    // The registers g owns until it retires, by the fragment they lie on (a view names its base).
    auto root = [&](const BufferNode& b) { return storageName(func, b); };
    std::set<std::string> owned{root(*g.region(2).buffer)};
    if (g.region(0).buffer->scope == Scope::Fragment) owned.insert(root(*g.region(0).buffer));
    auto touches = [&](const BufferNode& b) { return b.scope == Scope::Fragment && owned.count(root(b)); };
    bool ok = true;
    walk(
        s,
        [&](const Stmt& x) {
            if (auto* op = as<TileOpNode>(x)) {
                if (op->op == TileOpKind::Gemm) ok = false;
                for (size_t i = 0; i < op->args.size(); ++i)
                    if (auto* r = std::get_if<Region>(&op->args[i]); r && touches(*r->buffer)) ok = false;
            } else if (auto* st = as<StoreNode>(x); st && touches(*st->buffer)) {
                ok = false;
            }
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e); l && touches(*l->buffer)) ok = false;
        });
    return ok;
}

/// Two consecutive fragment-path gemms of a pipelined body where neither touches the other's
/// accumulator: the first (ss or rs) is committed with wait_group 1 and stays in flight while
/// the second is issued; the second's wait_group retires it (attr wgmma_retire_acc names the
/// first accumulator, whose registers lowerWgmmaFragment pins after that wait). Between them,
/// statements that touch neither the first's accumulator nor its register A, write no shared
/// tile it reads (wgmma reads them until it retires) and hold no gemm and no call;
/// then the second may need its proxy fence and block barrier (a shared tile written between),
/// which run while the first is in flight. MHA backward: P^T dO with V dO^T, and dS^T Q with
/// dS K (with dS in registers and stored for dQ first, dK += dS Q runs across dQ's fence and
/// barrier): three wgmma round trips per iteration instead of five.
/// Chains: the second may pair with a third in turn -- committed with wait_group 1 it retires
/// only the first and stays in flight itself across the statements up to the third (which read
/// the first's accumulator, not its own): with the backward's dP^T = V dO^T issued right after
/// S^T = K Q^T, the tensor cores compute dP^T while the warps turn S^T into P^T (FlashAttention
/// 3's order). The last gemm of a chain waits to completion, so the body still ends with every
/// group retired. TILESCOPE_WGMMA_PAIRS=0 turns pairing off; TILESCOPE_WGMMA_CHAIN=0 keeps
/// pairs only (each second gemm waits to completion).
void pairIndependentWgmmas(std::vector<Stmt>& body, const PrimFuncNode& func) {
    if (const char* e = std::getenv("TILESCOPE_WGMMA_PAIRS"); e && *e == '0') return;
    const char* chainSwitch = std::getenv("TILESCOPE_WGMMA_CHAIN");
    const bool chain = !(chainSwitch && *chainSwitch == '0');
    std::set<size_t> chained;  // second gemms of a pair made here: they may start the next pair
    auto fragGemm = [&](const Stmt& s, size_t at) -> const TileOpNode* {
        auto* g = as<TileOpNode>(s);
        return g && g->op == TileOpKind::Gemm && attrBool(g->attrs, "wgmma_fragment", false) && g->args.size() >= 3 && g->isRegion(0) &&
                       g->isRegion(1) && g->isRegion(2) && attrInt(g->attrs, "wgmma_wait", 0) == 0 && !attrBool(g->attrs, "warpgroup_pass", false) &&
                       (!g->attrs.count("wgmma_retire_acc") || chained.count(at))
                   ? g
                   : nullptr;
    };
    auto isGemm = [](const Stmt& s) {
        auto* g = as<TileOpNode>(s);
        return g && g->op == TileOpKind::Gemm;
    };
    for (size_t i = 0; i < body.size(); ++i) {
        const TileOpNode* a = fragGemm(body[i], i);
        if (!a) continue;
        const BufferNode* accA = a->region(2).buffer.get();
        size_t j = i + 1;
        bool ok = true;
        for (; j < body.size() && ok && !isGemm(body[j]); ++j) ok = mayRunBesideWgmma(body[j], *a, func);
        if (!ok || j >= body.size()) continue;
        const TileOpNode* b = fragGemm(body[j], j);
        if (!b || b->attrs.count("wgmma_retire_acc")) continue;
        // By storage: a view of the first accumulator (or of its A) is that accumulator.
        auto same = [&](const BufferNode* x, const BufferNode* y) { return x == y || storageName(func, *x) == storageName(func, *y); };
        bool touches = false;
        for (size_t k = 0; k < 3; ++k) touches = touches || same(b->region(k).buffer.get(), accA);
        if (touches || same(a->region(0).buffer.get(), b->region(2).buffer.get()) || same(a->region(1).buffer.get(), b->region(2).buffer.get()))
            continue;
        Attrs aa = a->attrs, ba = b->attrs;
        aa["wgmma_wait"] = int64_t(1);
        if (chained.count(i)) aa["wgmma_retire_wait"] = int64_t(1);  // retires the previous, stays in flight
        ba["wgmma_retire_acc"] = accA->name;
        body[i] = std::make_shared<TileOpNode>(a->op, a->args, aa, a->span);
        body[j] = std::make_shared<TileOpNode>(b->op, b->args, ba, b->span);
        if (chain) {
            chained.insert(j);
            i = j - 1;
        } else {
            i = j;
        }
    }
}

namespace {

Stmt markAsync(const Stmt& s) {
    auto* t = as<TileOpNode>(s);
    Attrs a = t->attrs;
    a["async"] = true;
    return std::make_shared<TileOpNode>(t->op, t->args, a, t->span);
}

class Injector : public Mutator {
public:
    Injector(const PrimFuncNode& f, int64_t threads, const Target& target, DiagnosticEngine* diags)
        : func(f), threads(threads), target(target), attrs(f.attrs), diags(diags) {}
    const PrimFuncNode& func;
    int64_t threads;
    const Target& target;
    Attrs attrs;                                 // + tensor maps of TMA pipelines
    std::map<const BufferNode*, Buffer> staged;  // original tile -> multi-buffered tile
    DiagnosticEngine* diags;
    int roleDepth = 0;  // inside a thread-dependent `if` (a warp role): no TMA there
    int outerLoops = 0;  // loops around the one being rewritten
    bool multiDimBlock = false;  // threads along y/z: no single elected thread for TMA

    /// A TMA GEMM schedule inside another loop: its last wgmma group may still be in flight when
    /// the loop ends (the in-flight schedules leave it to the accumulator's next reader), and the next
    /// trip of the outer loop refills the same stages by TMA -- a write under a wgmma that still
    /// reads them (helper-116: a T.Pipelined gemm in `for ko in T.serial(2)`; the lowered
    /// interpreter saw it, the GPU would have computed with the next tiles). Retire every group
    /// here, pinning each gemm accumulator of the loop.
    Stmt retireInOuterLoop(const Stmt& schedule, const ForNode& n) const {
        if (outerLoops == 0) return schedule;
        std::vector<Stmt> out{schedule};
        std::set<std::string> accs;
        walk(n.body, [&](const Stmt& x) {
            if (auto* g = as<TileOpNode>(x); g && g->op == TileOpKind::Gemm && g->args.size() >= 3 && g->isRegion(2) &&
                                             g->region(2).buffer->scope == Scope::Fragment && accs.insert(g->region(2).buffer->name).second)
                out.push_back(lower::intrinsicStmt(intrin::kWgmmaRetire, {std::make_shared<StrImmNode>(g->region(2).buffer->name, n.span), intImm(0)},
                                                   n.span));
        });
        return seq(out, n.span);
    }

    /// Whether a shared tile a top-level T.copy of the loop loads from global memory is read or
    /// written outside the loop. plan-pipelines keeps such a copy synchronous (its warning says so); the TMA
    /// schedules staged it anyway, and the uses after the loop named the unstaged tile, which no
    /// longer had a declaration (NVRTC: "identifier As_1 is undefined", helper-117).
    bool tileUsedOutside(const ForNode& loop) const {
        std::set<const BufferNode*> tiles;
        auto* sq = as<SeqNode>(loop.body);
        for (const Stmt& st : sq ? sq->stmts : std::vector<Stmt>{loop.body})
            if (auto* t = as<TileOpNode>(st); t && t->op == TileOpKind::Copy && t->args.size() >= 2 && t->isRegion(0) && t->isRegion(1) &&
                                              t->region(0).buffer->scope == Scope::Global && t->region(1).buffer->scope == Scope::Shared)
                tiles.insert(t->region(1).buffer.get());
        if (tiles.empty()) return false;
        // References to the tiles in the whole function against those in the loop.
        auto count = [&](const Stmt& root) {
            int64_t refs = 0;
            walk(root, [&](const Stmt& x) {
                if (auto* st = as<StoreNode>(x)) refs += tiles.count(st->buffer.get());
                if (auto* t = as<TileOpNode>(x))
                    for (size_t i = 0; i < t->args.size(); ++i) refs += t->isRegion(i) && tiles.count(t->region(i).buffer.get());
            }, [&](const Expr& e) {
                if (auto* l = as<LoadNode>(e)) refs += tiles.count(l->buffer.get());
            });
            return refs;
        };
        return count(func.body) > count(loop.body);
    }

protected:
    Stmt visitIf(const IfNode* n, const Stmt& self) override {
        const bool role = mentionsThread(n->cond);
        roleDepth += role;
        Stmt out = Mutator::visitIf(n, self);
        roleDepth -= role;
        return out;
    }
    Stmt visitFor(const ForNode* n, const Stmt& self) override {
        // A T.Pipelined loop nested in this one (TileLang accepts the nesting) is rewritten by
        // the cp.async path below; the TMA schedules take the body as it is and would leave it.
        bool nested = false;
        if (n->forKind == ForKind::Pipelined)
            walk(n->body, [&](const Stmt& x) {
                if (auto* f = as<ForNode>(x); f && f->forKind == ForKind::Pipelined) nested = true;
            });
        // sm_90a: loops feeding wgmma tiles get the TMA + mbarrier schedule (Hopper.h).
        if (n->forKind == ForKind::Pipelined && !nested && !tileUsedOutside(*n)) {
            // (The fragment-path schedules wait their last wgmma in the loop: nothing to retire.)
            if (Stmt tma = injectTmaFragmentPipeline(*n, func, threads, target, attrs, staged)) return tma;
            if (Stmt tma = injectTmaPipeline(*n, func, threads, attrs, staged)) return retireInOuterLoop(tma, *n);
        }
        auto producers = attrInts(n->attrs, "pipeline_producers");
        int64_t S = attrInt(n->attrs, "num_stages", 1);
        if (n->forKind != ForKind::Pipelined || producers.empty() || S < 2) {
            ++outerLoops;
            Stmt body = mutate(n->body);
            --outerLoops;
            if (n->forKind != ForKind::Pipelined) return body == n->body ? self : forLoop(n->var, n->min, n->extent, n->forKind, body, n->attrs, n->span);
            // Not pipelined: an ordinary serial loop (the pass viewer shows the change).
            return forLoop(n->var, n->min, n->extent, ForKind::Serial, body, {}, n->span);
        }
        // plan-pipelines numbered the producers among the body's top-level statements. Each is
        // rewritten on its own, so the numbers still name them: a nested T.Pipelined's prologue,
        // main loop and drain stay one (consumer) statement here, as TVM's InjectSoftwarePipeline
        // rewrites inner loops first. (Rewriting the body as a whole flattened that sequence
        // into this one and shifted the numbers: the loop silently stayed serial, issue 14.)
        // Its cp.async groups are drained by its own final wait, so this loop's accounting
        // (at most S-2 of its own groups pending) still holds, conservatively.
        auto* osq = as<SeqNode>(n->body);
        std::vector<Stmt> stmts;
        ++outerLoops;
        for (const Stmt& st : osq ? osq->stmts : std::vector<Stmt>{n->body}) stmts.push_back(mutate(st));
        --outerLoops;
        auto serial = [&] { return forLoop(n->var, n->min, n->extent, ForKind::Serial, seq(stmts, n->body->span), {}, n->span); };
        // A producer index that names no tile copy after all cannot be staged: the loop stays an
        // ordinary serial loop, which keeps its meaning (was a null dereference, fuzz_pipeline).
        for (int64_t p : producers) {
            if (p < 0 || p >= int64_t(stmts.size())) return serial();
            auto* t = as<TileOpNode>(stmts[size_t(p)]);
            if (!t || t->args.size() < 2 || !std::holds_alternative<Region>(t->args[1])) return serial();
        }
        std::map<const BufferNode*, Buffer> local;
        std::vector<Stmt> prod, cons, hoisted;
        for (size_t i = 0; i < stmts.size(); ++i) {
            if (!stmts[i]) continue;  // rewritten away
            bool isProd = std::find(producers.begin(), producers.end(), int64_t(i)) != producers.end();
            auto* alloc = as<AllocNode>(stmts[i]);
            if (alloc && alloc->buffer->scope == Scope::Shared && !alloc->init) {
                // A shared tile allocated in the loop body (corpus: mHC pre's sqrsum kernel) is
                // the same memory every iteration; the prologue below writes it before the
                // loop, so its declaration moves in front of the prologue.
                hoisted.push_back(stmts[i]);
            } else if (isProd) {
                auto* t = as<TileOpNode>(stmts[i]);
                const Buffer& b = t->region(1).buffer;
                if (!staged.count(b.get())) {
                    std::vector<Expr> shape{intImm(S)};
                    shape.insert(shape.end(), b->shape.begin(), b->shape.end());
                    staged[b.get()] = std::make_shared<BufferNode>(b->name, b->dtype, shape, Scope::Shared, b->span);
                }
                local[b.get()] = staged[b.get()];
                prod.push_back(markAsync(stmts[i]));
            } else {
                cons.push_back(stmts[i]);
            }
        }
        Span sp = n->span;
        // sm_90a: gemms reading a tile the body writes with ordinary stores keep one wgmma
        // group in flight (InjectPipelineWgmmaGeneric.cpp) instead of waiting each to completion.
        // sm_90a: the producers TMA can load take TMA on per-stage mbarriers, the others keep
        // cp.async (InjectPipelineTmaLoads.cpp; each copy gets a note saying which and why).
        PipelineTmaLoads tma(func, *n, prod, cons, S, nested ? "the loop holds a nested T.Pipelined loop"
                                                     : roleDepth > 0 ? "the loop is under a condition on the thread index (the TMA issue is elected from the whole block)"
                                                     : multiDimBlock ? "the block has more than one thread dimension (the TMA issue elects threadIdx.x == 0)"
                                                                     : "",
                             target, attrs, diags);
        if (Stmt s = nested ? nullptr : injectGenericOperandInflight(*n, func, cons, prod, local, staged, S, target, tma)) {
            hoisted.push_back(s);
            return seq(hoisted, sp);
        }
        Expr k = n->var, n0 = n->min, ext = n->extent;
        Expr rel = sub(k, n0);
        const bool cpAsync = tma.anyCpAsync();
        auto producersAt = [&](Expr iter, Expr stage) { return tma.producersAt(prod, local, iter, stage); };
        auto commit = [&]() -> Stmt { return cpAsync ? intrinsic("tl.cp_async_commit", {}, sp) : nullptr; };
        // Prologue.
        Var p = makeVar("ps", DType::Int32, sp);
        Stmt prologue = forLoop(p, intImm(0), intImm(S - 1), ForKind::Unrolled,
                                seq({ifThen(lt(p, ext), producersAt(add(n0, p), p), nullptr, sp), commit()}, sp), {}, sp);
        // Main loop.
        Restage rsCons(local, floormod(rel, intImm(S)));
        std::vector<Stmt> mainBody;
        if (cpAsync) mainBody.push_back(intrinsic("tl.cp_async_wait", {intImm(S - 2)}, sp));
        if (Stmt w = tma.waitFull(rel)) mainBody.push_back(w);
        mainBody.push_back(intrinsic("sync_threads", {}, sp));
        mainBody.push_back(ifThen(lt(add(rel, intImm(S - 1)), ext),
                                  producersAt(add(k, intImm(S - 1)), floormod(add(rel, intImm(S - 1)), intImm(S))), nullptr, sp));
        if (cpAsync) mainBody.push_back(commit());
        // sm_90a, fragment-path wgmma gemms in the body: cp.async-landed tiles and the previous
        // iteration's unfenced stores are fenced for wgmma once, before the top barrier (every gemm
        // of the previous iteration was waited: pairIndependentWgmmas leaves only a pair's first
        // in flight).
        const bool fragmentGemms = !wgmmaFenceEvery() && std::any_of(cons.begin(), cons.end(), [](const Stmt& s) {
            auto* g = as<TileOpNode>(s);
            return g && g->op == TileOpKind::Gemm && attrBool(g->attrs, "wgmma_fragment", false);
        });
        // The gemms below are marked as if the top of the iteration were fenced. It is without a
        // fence when every producer is a TMA load (async-proxy writes, seen by wgmma once the
        // stage's mbarrier completes; tma.setup() fences what the kernel wrote before the loop) and
        // the body ends clean (its generic writes were fenced for a gemm later in the same
        // iteration: MHA backward's dS^T before dQ's gemm). The fence is not only a proxy fence:
        // it compiles to MEMBAR.ALL.CTA + FENCE.VIEW.ASYNC.S (nvdisasm, sm_90a), and the membar
        // waits for the previous iteration's dQ reductions. TILESCOPE_WGMMA_TOP_FENCE=1 keeps it.
        const bool endsClean = fragmentGemms && dropRepeatedWgmmaFences(cons, true, func.attrs);
        const bool topFence = fragmentGemms && (!endsClean || cpAsync || !tma.any() || wgmmaTopFenceAlways());
        if (topFence) {
            auto bar = std::find_if(mainBody.begin(), mainBody.end(), [](const Stmt& s) {
                auto* e = as<EvalNode>(s);
                auto* c = e ? as<CallNode>(e->call) : nullptr;
                return c && c->op == "sync_threads";
            });
            mainBody.insert(bar, intrinsic(intrin::kFenceProxyAsync, {}, sp));
        }
        pairIndependentWgmmas(cons, func);
        for (auto& c : cons) mainBody.push_back(rsCons.mutate(c));
        Attrs la;
        la["num_stages"] = S;
        if (tma.any()) la["tma_loads"] = true, la["tma_pipeline"] = true;  // the static timeline and the trace read its iterations
        Stmt mainLoop = forLoop(n->var, n0, ext, ForKind::Serial, seq(mainBody, sp), la, sp);
        if (Stmt st = tma.setup()) hoisted.push_back(st);
        hoisted.insert(hoisted.end(), {prologue, mainLoop});
        if (cpAsync) hoisted.push_back(intrinsic("tl.cp_async_wait", {intImm(0)}, sp));
        // Inside another loop, the next trip's prologue overwrites stage 0 while other threads may
        // still read the last stage the loop used (no barrier after the last consumer): a block
        // barrier first (helper-118: sm_80 GEMM in `for ko in T.serial(2)` at 3 inner trips).
        if (outerLoops > 0) hoisted.push_back(intrinsic(intrin::kSyncThreads, {}, sp));
        return seq(hoisted, sp);
    }
};

class ReplaceAllocs : public Mutator {
public:
    explicit ReplaceAllocs(const std::map<const BufferNode*, Buffer>& m) : m_map(m) {}

protected:
    Stmt visitAlloc(const AllocNode* n, const Stmt& self) override {
        auto it = m_map.find(n->buffer.get());
        if (it == m_map.end()) return self;
        return std::make_shared<AllocNode>(it->second, n->init, n->span);
    }

private:
    const std::map<const BufferNode*, Buffer>& m_map;
};

}  // namespace

namespace {

/// The block barriers a pipeline schedule put inside a warp role (T.ws, `if tx < 32: ... else:
/// T.Pipelined ...`) become the role's named barrier (bar.sync 1 + first warp, count), as
/// insert-sync and lower-tile-ops name them: the other role's threads never reach them.
class RoleBarriers : public Mutator {
public:
    explicit RoleBarriers(int64_t threads) : m_block{0, threads}, m_role{0, threads} {}

protected:
    Stmt visitIf(const IfNode* n, const Stmt& self) override {
        auto r = mentionsThread(n->cond) ? warpRoleOf(n->cond, m_role) : std::nullopt;
        if (!r) return Mutator::visitIf(n, self);
        Stmt then = inRole(*r, n->then), other = n->otherwise;
        if (other) {
            auto rest = elseRoleOf(*r, m_role);
            other = rest ? inRole(*rest, other) : mutate(other);
        }
        if (then == n->then && other == n->otherwise) return self;
        return ifLike(*n, then, other);
    }
    Stmt visitEval(const EvalNode* n, const Stmt& self) override {
        auto* c = dynamic_cast<const CallNode*>(n->call.get());
        if (!c || c->op != intrin::kSyncThreads || !c->args.empty() || m_role == m_block || 1 + m_role.first / 32 > 15) return self;
        return evaluate(call(intrin::kSyncThreads, {intImm(1 + m_role.first / 32), intImm(m_role.count)}, DType::Int32, n->span), n->span);
    }

private:
    Stmt inRole(const WarpRole& r, const Stmt& s) {
        const WarpRole saved = m_role;
        m_role = r;
        Stmt out = mutate(s);
        m_role = saved;
        return out;
    }
    WarpRole m_block, m_role;
};

}  // namespace

PrimFunc injectPipeline(const PrimFunc& f, PassContext& ctx) {
    const KernelNode* kernel = findKernel(f);
    Injector inj(*f, kernel ? kernel->threadCount() : 1, ctx.target, &ctx.diags);
    // Codegen elects threadIdx.x == 0: with a second thread dimension that is several threads.
    if (kernel)
        for (size_t d = 1; d < kernel->threads.size(); ++d) inj.multiDimBlock |= kernel->threads[d] != 1;
    Stmt body = inj.mutate(f->body);
    if (body == f->body) return f;
    ReplaceAllocs ra(inj.staged);
    body = ra.mutate(body);
    if (kernel) body = RoleBarriers(kernel->threadCount()).mutate(body);
    auto out = std::make_shared<PrimFuncNode>(*f);
    out->body = body;
    out->attrs = inj.attrs;
    for (auto& [old, nb] : inj.staged) {
        auto it = out->layouts.find(old->name);
        // A T.Layout index map keeps its tile shape; lower-to-threads stacks the stages.
        if (it != out->layouts.end() && it->second && it->second->offset) continue;
        int mode = it != out->layouts.end() && it->second ? it->second->swizzleBytes : 0;
        int64_t pad = it != out->layouts.end() && it->second ? it->second->padElems : 0;
        auto shape = constShape(*nb);
        if (shape) out->layouts[old->name] = analysis::makeSharedLayout(*shape, dtypeBytes(nb->dtype), mode, pad);
    }
    return out;
}

}  // namespace ts::xform
