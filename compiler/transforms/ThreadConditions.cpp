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


/// T.sync_grid below a statement that not every thread of the block runs: an `if` or loop
/// reading the thread index (warp roles, T.ws) or a T.Parallel loop (whose iterations are
/// spread over the threads; the elaborator splits such loops, so one left here was not split).
void refuseGridBarriers(const Stmt& s, const StmtNode* guard, const char* why, PassContext& ctx) {
    if (!s) return;
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) refuseGridBarriers(c, guard, why, ctx);
            return;
        case StmtKind::For: {
            auto* f = static_cast<const ForNode*>(s.get());
            const bool thread = mentionsThread(f->min) || mentionsThread(f->extent);
            const bool par = f->forKind == ForKind::Parallel;
            if (!guard && (thread || par))
                return refuseGridBarriers(f->body, f, par ? "a T.Parallel loop (its iterations are spread over the threads)"
                                                          : "a loop whose bounds read the thread index", ctx);
            return refuseGridBarriers(f->body, guard, why, ctx);
        }
        case StmtKind::If: {
            auto* i = static_cast<const IfNode*>(s.get());
            const bool thread = !guard && mentionsThread(i->cond);
            const StmtNode* g = thread ? i : guard;
            const char* w = thread ? "an 'if' on the thread index" : why;
            refuseGridBarriers(i->then, g, w, ctx);
            refuseGridBarriers(i->otherwise, g, w, ctx);
            return;
        }
        case StmtKind::Kernel:
            return refuseGridBarriers(static_cast<const KernelNode*>(s.get())->body, guard, why, ctx);
        case StmtKind::Eval: {
            auto* c = as<CallNode>(static_cast<const EvalNode*>(s.get())->call);
            if (guard && c && c->op == intrin::kSyncGrid)
                ctx.diags.error(s->span,
                                std::string("T.sync_grid inside ") + why + " (line " + std::to_string(guard->span.line) +
                                    "): the grid barrier must be reached by every thread of every block, "
                                    "in control flow that is uniform across the block",
                                "move T.sync_grid to where every thread of the block runs it", "check-bounds");
            return;
        }
        default:
            return;
    }
}

/// T.sync_threads() (the block barrier, no arguments) below an `if` or loop that reads the thread
/// index: the IR verifier's rule (ir/Verifier.cpp), reported here in the user's terms before any
/// pass runs, instead of as invalid IR after the first one. (Inside T.Parallel is check-bounds'
/// own diagnostic.)
void refuseBlockBarriers(const Stmt& s, const StmtNode* guard, const char* why, PassContext& ctx) {
    if (!s) return;
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) refuseBlockBarriers(c, guard, why, ctx);
            return;
        case StmtKind::For: {
            auto* f = static_cast<const ForNode*>(s.get());
            if (!guard && (mentionsThread(f->min) || mentionsThread(f->extent)))
                return refuseBlockBarriers(f->body, f, "a loop whose bounds read the thread index", ctx);
            return refuseBlockBarriers(f->body, guard, why, ctx);
        }
        case StmtKind::If: {
            auto* i = static_cast<const IfNode*>(s.get());
            const bool thread = !guard && mentionsThread(i->cond);
            const StmtNode* g = thread ? i : guard;
            const char* w = thread ? "an 'if' whose condition reads the thread index" : why;
            refuseBlockBarriers(i->then, g, w, ctx);
            refuseBlockBarriers(i->otherwise, g, w, ctx);
            return;
        }
        case StmtKind::Kernel:
            return refuseBlockBarriers(static_cast<const KernelNode*>(s.get())->body, guard, why, ctx);
        case StmtKind::Eval: {
            auto* c = as<CallNode>(static_cast<const EvalNode*>(s.get())->call);
            if (guard && c && c->op == intrin::kSyncThreads && c->args.empty())
                ctx.diags.error(s->span,
                                std::string("T.sync_threads() inside ") + why + " (line " + std::to_string(guard->span.line) +
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

void refuseBlockBarrierInDivergentFlow(const ir::PrimFunc& f, PassContext& ctx) {
    refuseBlockBarriers(f->body, nullptr, "", ctx);
}

void refuseGridBarrierInDivergentFlow(const ir::PrimFunc& f, PassContext& ctx) {
    refuseGridBarriers(f->body, nullptr, "", ctx);
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
