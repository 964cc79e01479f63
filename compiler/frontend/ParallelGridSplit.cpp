// T.sync_grid inside T.Parallel (TileLang's cooperative-groups test: read a tile, barrier, write
// the tile): the loop's iterations are the block's threads, so every iteration's part before the
// barrier runs before any iteration's part after it. The elaborator therefore cuts the loop body
// at its top-level grid barriers into one loop nest per part, with T.sync_grid between the nests;
// both interpreters and the lowering then see the barrier where every thread of the block runs.
#include "compiler/frontend/Elaborator.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::fe::elab {
namespace {

bool isGridBarrier(const ir::Stmt& s) {
    auto* e = ir::as<ir::EvalNode>(s);
    auto* c = e ? ir::as<ir::CallNode>(e->call) : nullptr;
    return c && c->op == ir::intrin::kSyncGrid;
}

/// The top-level statements of `s` (nested sequences flattened).
void flatten(const ir::Stmt& s, std::vector<ir::Stmt>& out) {
    if (auto* q = ir::as<ir::SeqNode>(s)) {
        for (auto& c : q->stmts) flatten(c, out);
    } else if (s) {
        out.push_back(s);
    }
}

/// Span of the first grid barrier anywhere inside `s`, or an invalid span.
Span nestedGridBarrier(const ir::Stmt& s) {
    Span found;
    ir::walk(
        s,
        [&](const ir::Stmt& x) {
            if (!found.valid() && isGridBarrier(x)) found = x->span;
        },
        [](const ir::Expr&) {});
    return found;
}

}  // namespace

std::vector<ir::Stmt> Elaborator::splitAtGridBarriers(const ir::Stmt& body, std::vector<Span>& barriers) {
    if (!nestedGridBarrier(body).valid()) return {body};
    std::vector<ir::Stmt> flat;
    flatten(body, flat);
    std::vector<ir::Stmt> parts;
    std::vector<ir::Stmt> cur;
    std::vector<const ir::BufferNode*> locals;   // allocated in the current part
    std::vector<const ir::BufferNode*> crossed;  // allocated in an earlier part
    for (auto& st : flat) {
        if (isGridBarrier(st)) {
            parts.push_back(ir::seq(cur, body->span));
            cur.clear();
            barriers.push_back(st->span);
            crossed.insert(crossed.end(), locals.begin(), locals.end());
            locals.clear();
            continue;
        }
        if (Span inner = nestedGridBarrier(st); inner.valid())
            throw CompileError(inner,
                               "T.sync_grid nested inside a statement of a T.Parallel loop: the loop "
                               "can only be split at a grid barrier directly in its body",
                               "put T.sync_grid directly in the T.Parallel body (or outside the loop)");
        if (auto* a = ir::as<ir::AllocNode>(st)) locals.push_back(a->buffer.get());
        const ir::BufferNode* used = nullptr;
        auto check = [&](const ir::BufferNode* b) {
            for (auto* l : crossed)
                if (b == l && !used) used = l;
        };
        ir::walk(
            st,
            [&](const ir::Stmt& x) {
                if (auto* w = ir::as<ir::StoreNode>(x)) check(w->buffer.get());
            },
            [&](const ir::Expr& x) {
                if (auto* ld = ir::as<ir::LoadNode>(x)) check(ld->buffer.get());
            });
        if (used)
            throw CompileError(barriers.back(),
                               "T.sync_grid inside T.Parallel splits the loop here, but '" + used->name +
                                   "', declared in the loop before the barrier, is used after it",
                               "keep values that cross the barrier in a fragment indexed by the "
                               "loop variables (T.alloc_fragment outside the loop)");
        cur.push_back(st);
    }
    parts.push_back(ir::seq(cur, body->span));
    return parts;
}

}  // namespace ts::fe::elab
