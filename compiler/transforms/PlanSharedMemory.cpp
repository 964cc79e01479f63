// plan-smem: gives every shared buffer a byte offset in the kernel's dynamic shared memory,
// each aligned to 128 bytes (swizzles are computed relative to a buffer's base and assume
// 128-byte lines, analysis/Swizzle.h); wgmma_smem tiles (TMA/wgmma address-bit swizzle,
// analysis/WgmmaLayouts.h) to 1024 bytes. Buffers whose live intervals are disjoint may share bytes
// (the rule of TileLang's MergeSharedMemoryAllocations): liveness is per unit of a block-uniform
// scope (SmemLiveness.h), so a buffer used inside a loop of its scope is live for the whole loop,
// and reduction scratch allocated inside a loop body may reuse bytes within one iteration.
// Placement is first-fit in order of first use (larger first on ties). When that plan exceeds
// the target's shared memory (gfx90a: 64 KiB of LDS), the tiles iteration-smem found to be
// overwritten whole before any read in each iteration of their loop are narrowed to the part of
// the iteration that uses them, and the plan is redone ("smem_iteration_reuse").
// insert-sync (run before) orders hazards per buffer and does not know about the aliasing, so
// when bytes pass from buffer A to buffer B and no __syncthreads of a scope around B lies between
// A's last and B's first use, this pass puts one right before B's first unit; when a loop
// re-enters both, one also goes before A's first unit (iteration i's B precedes iteration i+1's A).
// Requires: iteration-smem, lower-tile-ops, insert-sync. Produces: PrimFunc attrs "smem_bytes",
// "smem_offset.<name>", "smem_live.<name>" ([first, last] unit positions, pre-order over all
// scopes), and "smem_shares.<name>" (the buffers whose bytes overlap it, when any).
// Invalidates: nothing.
#include <algorithm>
#include <set>

#include "compiler/analysis/Layouts.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/Views.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/SmemLiveness.h"
#include "compiler/transforms/BlockUniform.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

struct Slot {
    Buffer buffer;
    int64_t bytes = 0, offset = 0;
    int64_t align = 128;
    SmemInterval live;
    std::vector<std::string> shares;
};

int64_t align128(int64_t v) { return (v + 127) / 128 * 128; }
int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

bool bytesOverlap(const Slot& a, const Slot& b) {
    return a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

/// Lowest 128-aligned offset where `s` does not overlap any placed slot live at the same time.
int64_t firstFit(const Slot& s, const std::vector<Slot*>& placed) {
    std::vector<int64_t> candidates{0};
    for (auto* p : placed)
        if (!p->live.disjoint(s.live)) candidates.push_back(alignUp(p->offset + p->bytes, s.align));
    std::sort(candidates.begin(), candidates.end());
    for (int64_t c : candidates) {
        bool ok = true;
        for (auto* p : placed)
            if (!p->live.disjoint(s.live) && c < p->offset + p->bytes && p->offset < c + s.bytes) ok = false;
        if (ok) return c;
    }
    return candidates.back();  // unreachable: the highest end of the conflicting slots always fits
}

Stmt syncThreads(Span sp) { return evaluate(call(intrin::kSyncThreads, {}, DType::Int32, sp), sp); }

/// Rebuilds the body with a __syncthreads before each unit in `before` (units of uniform scopes
/// are elements of Seqs, or the whole body of a loop, of a uniform if's branch or of the kernel).
Stmt insertBarriers(const Stmt& s, const std::set<const StmtNode*>& before) {
    if (!s) return s;
    auto guarded = [&](const Stmt& body) {
        Stmt b = insertBarriers(body, before);
        return !as<SeqNode>(body) && before.count(body.get()) ? seq({syncThreads(body->span), b}, body->span) : b;
    };
    if (auto* q = as<SeqNode>(s)) {
        std::vector<Stmt> out;
        for (auto& c : q->stmts) {
            if (!as<SeqNode>(c) && before.count(c.get())) out.push_back(syncThreads(c->span));
            out.push_back(insertBarriers(c, before));
        }
        return seq(out, q->span);
    }
    if (auto* f = as<ForNode>(s)) {
        Stmt body = guarded(f->body);
        return body == f->body ? s : forLoop(f->var, f->min, f->extent, f->forKind, body, f->attrs, f->span);
    }
    if (auto* k = as<KernelNode>(s))
        return std::make_shared<KernelNode>(k->grid, k->threads, k->blockVars, k->threadVars, guarded(k->body), k->span);
    if (auto* i = as<IfNode>(s); i && !mentionsThread(i->cond)) {  // branches of a uniform if are scopes too
        Stmt t = guarded(i->then), e = i->otherwise ? guarded(i->otherwise) : nullptr;
        return t == i->then && e == i->otherwise ? s : ifLike(*i, t, e);
    }
    return s;
}

/// Barriers plan-smem has decided to add: before the unit starting at `pos` of `scope`.
struct Barriers {
    const SmemLiveness& live;
    std::vector<SmemBarrier> added;
    std::set<const StmtNode*> before;

    /// A barrier of a scope around `scope` in (lo, hi); an added one may sit right before hi.
    bool between(int scope, int64_t lo, int64_t hi) const {
        for (auto& b : live.barriers)
            if (live.within(scope, b.scope) && lo < b.pos && b.pos < hi) return true;
        for (auto& b : added)
            if (live.within(scope, b.scope) && lo < b.pos && b.pos <= hi) return true;
        return false;
    }
    void addBefore(const SmemInterval& iv) {
        added.push_back({iv.scope, iv.first});
        before.insert(live.unitAt(iv.scope, iv.first).get());
    }
};

/// The innermost loop-body scope around both scopes, or -1.
int commonLoop(const SmemLiveness& live, int a, int b) {
    int common = a;
    while (common >= 0 && !live.within(b, common)) common = live.scopes[static_cast<size_t>(common)].parent;
    while (common >= 0 && !live.scopes[static_cast<size_t>(common)].loopBody)
        common = live.scopes[static_cast<size_t>(common)].parent;
    return common;
}


/// Every shared buffer of `f` with its size and live interval under `liveness`, placed first-fit
/// in order of first use (declaration order among equals; unused buffers first, at 0). Returns
/// the bytes used; false in *ok on a buffer without a constant shape (reported once, when
/// `diags` is given).
int64_t place(const PrimFunc& f, const SmemLiveness& liveness, std::vector<Slot>& slots, std::vector<Slot*>& order,
              DiagnosticEngine* diags, bool* ok) {
    slots.clear();
    order.clear();
    std::set<const BufferNode*> tmaDestinations, mbarriers;
    walk(f->body, [&](const Stmt& s) {
        auto* ev = as<EvalNode>(s);
        auto* c = ev ? as<CallNode>(ev->call) : nullptr;
        if (c && c->op == intrin::kMbarrierInit && !c->args.empty())
            walkExpr(c->args[0], [&](const Expr& e) {
                if (auto* ld = as<LoadNode>(e)) mbarriers.insert(ld->buffer.get());
            });
        // TMA loads write their tile, TMA stores (ops/CopyTma.cpp) read theirs: both at arg 1.
        if (!c || (c->op != intrin::kTmaLoad && c->op != intrin::kTmaStore && c->op != intrin::kTmaReduceAdd) || c->args.size() < 2) return;
        if (auto* ac = as<CallNode>(c->args[1]); ac && !ac->args.empty())
            if (auto* ld = as<LoadNode>(ac->args[0])) tmaDestinations.insert(ld->buffer.get());
    });
    walk(f->body, [&](const Stmt& s) {
        auto* a = as<AllocNode>(s);
        if (!a || a->buffer->scope != Scope::Shared) return;
        auto n = constNumel(*a->buffer);
        if (!n) {
            if (diags)
                diags->error(a->span, "shared buffer '" + a->buffer->name + "' needs a compile-time constant shape",
                             "use meta parameters for its extents", "plan-smem");
            *ok = false;
            return;
        }
        Slot slot;
        slot.buffer = a->buffer;
        slot.bytes = analysis::sharedPhysicalElems(*f, *a->buffer, *n) * dtypeBytes(a->buffer->dtype);
        if (auto l = f->layouts.find(a->buffer->name); l != f->layouts.end() && l->second && l->second->family == "wgmma_smem")
            slot.align = 1024;
        // A swizzled tile that TMA writes or reads (ops/CopyTma.cpp): TMA's swizzle is a function of
        // the shared address, ours of the offset in the tile; they agree on 1024-byte bases.
        if (auto l = f->layouts.find(a->buffer->name);
            tmaDestinations.count(a->buffer.get()) && l != f->layouts.end() && l->second && l->second->swizzleBytes)
            slot.align = 1024;
        if (auto it = liveness.live.find(a->buffer.get()); it != liveness.live.end()) slot.live = it->second;
        // An mbarrier (every buffer a tl.mbarrier_init initialises: a plain TMA copy's, a
        // pipeline's full/empty barriers, T.alloc_barrier's) keeps its bytes for the whole kernel:
        // PTX ISA §9.7.13.15 wants mbarrier.inval before its memory is used for anything else, and
        // a staged epilogue tile (StageEpilogue.cpp) would otherwise take the pipeline's barriers'.
        if (mbarriers.count(a->buffer.get()) ||
            (a->buffer->dtype == DType::UInt64 && a->buffer->name.rfind("tma_copy_bar", 0) == 0))
            slot.live.first = 0, slot.live.last = int64_t(1) << 60, slot.live.scope = 0;
        slots.push_back(std::move(slot));
    });
    // A shared view (T.view of a T.alloc_shared buffer, ir/Views.h) sits on its buffer's bytes:
    // the buffer is live wherever either is, and the view is placed with it, not on its own.
    std::vector<std::pair<Slot*, Slot*>> views;  // (view, base)
    for (auto& v : slots) {
        std::string base = sharedViewBase(f->attrs, v.buffer->name);
        if (base.empty()) continue;
        for (auto& b : slots)
            if (b.buffer->name == base) views.push_back({&v, &b});
    }
    for (auto [v, b] : views) {
        // The view's alignment is its bytes' (a wgmma operand view of a row-major tile: the
        // 128-byte swizzle the tensor core applies is a function of the address, 1024-aligned).
        b->align = std::max(b->align, v->align);
        if (!v->live.used()) continue;
        if (!b->live.used()) {
            b->live = v->live;
        } else {
            b->live.first = std::min(b->live.first, v->live.first);
            b->live.last = std::max(b->live.last, v->live.last);
            if (v->live.scope != b->live.scope) b->live.scope = 0;  // the kernel body spans both
        }
        b->bytes = std::max(b->bytes, v->bytes);
    }
    for (auto& s : slots)
        if (std::none_of(views.begin(), views.end(), [&](auto& p) { return p.first == &s; })) order.push_back(&s);
    std::stable_sort(order.begin(), order.end(), [](const Slot* a, const Slot* b) {
        if (a->live.first != b->live.first) return a->live.first < b->live.first;
        return a->bytes > b->bytes;
    });
    std::vector<Slot*> placed;
    int64_t total = 0;
    for (auto* s : order) {
        s->offset = firstFit(*s, placed);
        placed.push_back(s);
        total = std::max(total, s->offset + s->bytes);
    }
    for (auto [v, b] : views) {
        v->offset = b->offset;
        v->live = b->live;
        order.push_back(v);
    }
    return total;
}

}  // namespace

PrimFunc planSharedMemory(const PrimFunc& f, PassContext& ctx) {
    SmemLiveness liveness = smemLiveness(f->body);
    std::vector<Slot> slots;
    std::vector<Slot*> order;
    bool ok = true;
    int64_t total = place(f, liveness, slots, order, &ctx.diags, &ok);
    if (!ok) return f;
    // Over the target's limit: also reuse the bytes of tiles no value of which crosses a loop
    // iteration (iteration-smem), within the iteration. Only then, because each hand-over of
    // bytes may cost a barrier per iteration.
    bool iterationReuse = false;
    if (align128(total) > ctx.target.maxSharedBytesPerBlock()) {
        SmemLiveness narrow = smemLiveness(f->body, /*iterationLocal=*/true);
        std::vector<Slot> nslots;
        std::vector<Slot*> norder;
        int64_t ntotal = place(f, narrow, nslots, norder, nullptr, &ok);
        if (ntotal < total) {
            liveness = std::move(narrow);
            // Slot pointers in `order` point into `slots`: rebuild both from the new plan.
            total = place(f, liveness, slots, order, nullptr, &ok);
            iterationReuse = true;
        }
    }

    // Bytes handed from buffer A to a later buffer B need a barrier after A's last use and before
    // B's first. When both are re-entered by a loop, iteration i's B also precedes iteration
    // i+1's A: a barrier in that loop before A's first use orders them.
    Barriers barriers{liveness, {}, {}};
    for (auto* a : order)
        for (auto* b : order) {
            if (a == b || !bytesOverlap(*a, *b)) continue;
            a->shares.push_back(b->buffer->name);
            if (!a->live.used() || !b->live.used() || a->live.last >= b->live.first) continue;
            if (!barriers.between(b->live.scope, a->live.last, b->live.first)) barriers.addBefore(b->live);
            int loop = commonLoop(liveness, a->live.scope, b->live.scope);
            if (loop >= 0 &&
                !barriers.between(a->live.scope, liveness.scopes[static_cast<size_t>(loop)].start - 1, a->live.first))
                barriers.addBefore(a->live);
        }

    Attrs attrs = f->attrs;
    for (auto& s : slots) {
        const std::string& name = s.buffer->name;
        attrs["smem_offset." + name] = s.offset;
        // An mbarrier's "whole kernel" (last = 2^60 above) shows as the kernel's last position.
        const int64_t kernelEnd = liveness.scopes.empty() ? s.live.last : liveness.scopes[0].end;
        if (s.live.used())
            attrs["smem_live." + name] = std::vector<int64_t>{s.live.first, std::min(s.live.last, kernelEnd)};
        if (!s.shares.empty()) {
            std::sort(s.shares.begin(), s.shares.end());
            std::string list;
            for (auto& o : s.shares) list += (list.empty() ? "" : ", ") + o;
            attrs["smem_shares." + name] = list;
        }
    }
    attrs["smem_bytes"] = align128(total);
    if (iterationReuse) attrs["smem_iteration_reuse"] = true;
    Stmt body = barriers.before.empty() ? f->body : insertBarriers(f->body, barriers.before);
    auto out = std::make_shared<PrimFuncNode>(*withBody(f, body));
    out->attrs = attrs;
    return out;
}

}  // namespace ts::xform
