// Predicates insert-sync and plan-smem share about where a __syncthreads may go: barriers are
// statements `T.sync_threads()`, and they are legal only where every thread of the block runs
// (no dependence on the thread index); and where tile work may go (not under a condition on
// the thread index). Internal to compiler/transforms.
#pragma once
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {

/// True for the statement `T.sync_threads()` (a block-wide barrier).
inline bool isSyncThreads(const ir::Stmt& s) {
    auto* e = ir::as<ir::EvalNode>(s);
    auto* c = e ? ir::as<ir::CallNode>(e->call) : nullptr;
    return c && c->op == ir::intrin::kSyncThreads;
}

/// True when `e` reads a thread index (threads may then disagree on it).
inline bool mentionsThread(const ir::Expr& e) {
    bool found = false;
    ir::walkExpr(e, [&](const ir::Expr& x) {
        if (auto* v = ir::as<ir::VarNode>(x); v && v->tag == ir::VarTag::ThreadIdx) found = true;
    });
    return found;
}

/// Reports (at the op, naming the guard's line) every tile op and T.Parallel nest under an `if`
/// whose condition reads a thread index (`if T.get_thread_binding() < 32:`). They are lowered
/// for every thread of the block (work and fragments spread over all threads, reductions and
/// pipelines exchange values and barriers between them), so under such a guard part of the
/// work would silently never run, or a barrier would deadlock. TileLang lowers such code for
/// the thread subset; TileScope refuses it. Called by check-bounds, before layout inference and
/// pipelining see the code (ThreadConditions.cpp).
void refuseTileWorkUnderThreadCondition(const ir::PrimFunc& f, PassContext& ctx);

/// Reports every T.sync_grid (the grid barrier) that not every thread of the block reaches (under
/// an `if` or loop reading the thread index, warp roles included, or inside a T.Parallel loop),
/// and every T.sync_threads() (the block barrier) under an `if` or loop reading the thread index
/// (the IR verifier's rule), at the barrier naming the guard's line. Called by check-bounds
/// (ThreadConditions.cpp).
void refuseBarriersInDivergentFlow(const ir::PrimFunc& f, PassContext& ctx);

/// Reports hand-written mbarriers (T.alloc_barrier: function attr "explicit_mbarriers") on a
/// target without mbarrier.try_wait.parity (below sm_90, HIP): their waits have no lowering
/// there (ThreadConditions.cpp).
void refuseExplicitBarriersWithoutSm90(const ir::PrimFunc& f, PassContext& ctx);

/// Warns at a store (or tile op) writing a global tensor at an element that does not depend on the
/// block index along a grid dimension of more than one block: every block along it writes the
/// same elements (a forgotten `by`). Not under an `if` on the block index; indices read from
/// memory are not judged. Called by check-bounds (CheckBlockWrites.cpp).
void warnBlocksWritingOneRegion(const ir::PrimFunc& f, PassContext& ctx);

}  // namespace ts::xform
