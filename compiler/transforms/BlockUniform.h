// Predicates insert-sync and plan-smem share about where a __syncthreads may go: barriers are
// statements `T.sync_threads()`, and they are legal only where every thread of the block runs
// (no dependence on the thread index). Internal to compiler/transforms.
#pragma once
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"

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

}  // namespace ts::xform
