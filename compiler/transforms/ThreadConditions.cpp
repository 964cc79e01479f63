// See BlockUniform.h (refuseTileWorkUnderThreadCondition).
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/BlockUniform.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/WarpRoles.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using Roles = std::unordered_map<const StmtNode*, WarpRole>;

// Tile work inside a warp role (WarpRoles.h: T.ws, `if tx < 128`) is lowered for the role's
// threads: only other thread conditions are refused.
void refuseUnder(const Stmt& s, const IfNode* guard, PassContext& ctx, const Roles& roles) {
    if (!s) return;
    auto refuse = [&](const std::string& what) {
        ctx.diags.error(s->span,
                        what + " under a condition on the thread index (the 'if' at line " +
                            std::to_string(guard->span.line) +
                            "): TileScope lowers it for all the block's threads, not for a subset",
                        "move it out of the 'if', or write it as a per-thread loop over the "
                        "thread index",
                        "check-bounds");
    };
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s.get())->stmts)
                refuseUnder(c, guard, ctx, roles);
            return;
        case StmtKind::For: {
            auto* f = static_cast<const ForNode*>(s.get());
            if (guard && f->forKind == ForKind::Parallel && !roles.count(f)) return refuse("a T.Parallel loop");
            if (roles.count(f)) return;  // a nest of a warp role: its inner loops go with it
            return refuseUnder(f->body, guard, ctx, roles);
        }
        case StmtKind::If: {
            auto* i = static_cast<const IfNode*>(s.get());
            const IfNode* g = guard ? guard : mentionsThread(i->cond) ? i : nullptr;
            refuseUnder(i->then, g, ctx, roles);
            refuseUnder(i->otherwise, g, ctx, roles);
            return;
        }
        case StmtKind::Kernel:
            return refuseUnder(static_cast<const KernelNode*>(s.get())->body, guard, ctx, roles);
        case StmtKind::TileOp: {
            auto* op = static_cast<const TileOpNode*>(s.get());
            // A one-element atomic by a scalar is per-thread work: every thread that reaches it
            // issues it (AtomicOp.cpp), as the top-k histogram's T.atomic_add(h[bin], 1) wants.
            if (op->op == TileOpKind::Atomic && !op->isRegion(1)) return;
            if (guard && !roles.count(op)) refuse(std::string("T.") + tileOpName(op->op));
            return;
        }
        default:
            return;
    }
}


/// Where not every thread of the block runs: the outermost `if` or loop reading the thread index
/// (warp roles, T.ws), and separately the outermost T.Parallel loop (its iterations are spread
/// over the threads; the elaborator splits such loops at a T.sync_grid, so one left there was not
/// split).
struct Guard {
    const StmtNode* at = nullptr;
    const char* why = "";
};

/// Barriers below such a statement: T.sync_grid under either guard (the grid barrier needs every
/// thread of every block), T.sync_threads() (the block barrier, no arguments) under a
/// thread-dependent one -- the IR verifier's rule (ir/Verifier.cpp), reported in the user's terms
/// before any pass runs (the elaborator refuses both for front-end input; this covers IR from
/// elsewhere and names the guard's line). A barrier inside T.Parallel is check-bounds' own
/// diagnostic.
void refuseBarriers(const Stmt& s, Guard thread, Guard par, PassContext& ctx) {
    if (!s) return;
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) refuseBarriers(c, thread, par, ctx);
            return;
        case StmtKind::For: {
            auto* f = static_cast<const ForNode*>(s.get());
            if (!thread.at && (mentionsThread(f->min) || mentionsThread(f->extent)))
                thread = {f, "a loop whose bounds read the thread index"};
            if (!par.at && f->forKind == ForKind::Parallel)
                par = {f, "a T.Parallel loop (its iterations are spread over the threads)"};
            return refuseBarriers(f->body, thread, par, ctx);
        }
        case StmtKind::If: {
            auto* i = static_cast<const IfNode*>(s.get());
            if (!thread.at && mentionsThread(i->cond)) thread = {i, "an 'if' on the thread index"};
            refuseBarriers(i->then, thread, par, ctx);
            refuseBarriers(i->otherwise, thread, par, ctx);
            return;
        }
        case StmtKind::Kernel:
            return refuseBarriers(static_cast<const KernelNode*>(s.get())->body, thread, par, ctx);
        case StmtKind::Eval: {
            auto* c = as<CallNode>(static_cast<const EvalNode*>(s.get())->call);
            if (!c) return;
            const Guard& g = thread.at ? thread : par;
            if (g.at && c->op == intrin::kSyncGrid)
                ctx.diags.error(s->span,
                                std::string("T.sync_grid inside ") + g.why + " (line " + std::to_string(g.at->span.line) +
                                    "): the grid barrier must be reached by every thread of every block, "
                                    "in control flow that is uniform across the block",
                                "move T.sync_grid to where every thread of the block runs it", "check-bounds");
            if (thread.at && c->op == intrin::kSyncThreads && c->args.empty())
                ctx.diags.error(s->span,
                                std::string("T.sync_threads() inside ") + thread.why + " (line " +
                                    std::to_string(thread.at->span.line) +
                                    "): a block barrier must be reached by every thread of the block, or the block "
                                    "deadlocks (the threads that skip it never arrive)",
                                "move T.sync_threads() to where every thread runs it, or synchronise only the "
                                "threads that take this path with a named barrier: T.sync_threads(barrier_id, thread_count)",
                                "check-bounds");
            return;
        }
        default:
            return;
    }
}

}  // namespace

void refuseBarriersInDivergentFlow(const ir::PrimFunc& f, PassContext& ctx) {
    refuseBarriers(f->body, {}, {}, ctx);
}

void refuseTileWorkUnderThreadCondition(const ir::PrimFunc& f, PassContext& ctx) {
    const KernelNode* k = findKernel(f);
    const Roles roles = k ? warpRolesOf(f->body, WarpRole{0, k->threadCount()}) : Roles{};
    refuseUnder(f->body, nullptr, ctx, roles);
}

void refuseExplicitBarriersWithoutSm90(const ir::PrimFunc& f, PassContext& ctx) {
    // T.tma_copy (ElaborateBarriers.cpp: a copy + fence.proxy.async, attr explicit_tma).
    if (attrInt(f->attrs, "explicit_tma", 0) && !(ctx.target.hasMbarrierTx() && !ctx.target.isHip())) {
        Span at = f->span;
        walk(f->body, [](const Stmt&) {}, [&](const Expr& e) {
            if (auto* c = as<CallNode>(e); c && c->op == intrin::kFenceProxyAsync && at == f->span) at = c->span;
        });
        ctx.diags.error(at, "T.tma_copy: TMA transfers need sm_90; this kernel is compiled for " + ctx.target.name,
                        "compile for cuda:sm_90a, or use T.copy (cp.async on sm_80)", "check-bounds");
        if (attrInt(f->attrs, "explicit_mbarriers", 0)) return;  // one diagnostic for the Hopper-only kernel
    }
    if (!attrInt(f->attrs, "explicit_mbarriers", 0) || (ctx.target.hasMbarrierTx() && !ctx.target.isHip())) return;
    Span at = f->span;
    walk(f->body, [](const Stmt&) {}, [&](const Expr& e) {
        if (auto* c = as<CallNode>(e); c && c->op == intrin::kMbarrierInit && at == f->span) at = c->span;
    });
    ctx.diags.error(at,
                    "T.alloc_barrier: mbarrier phase waits (mbarrier.try_wait.parity) need sm_90; this kernel is compiled for " +
                        ctx.target.name,
                    "compile for cuda:sm_90a, or synchronise the roles with T.sync_threads() / named barriers", "check-bounds");
}

}  // namespace ts::xform
