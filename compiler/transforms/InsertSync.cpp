// insert-sync: places the fewest __syncthreads() that order every cross-thread shared-memory
// hazard of the lowered code: RAW (a unit reads a tile another thread wrote since the last
// barrier) and WAR/WAW (a unit writes a tile read or written since the last barrier). Loop
// bodies are analysed twice so loop-carried hazards (the next iteration overwriting what this
// one read) put a barrier at the top of the body. Barriers are only placed at block-uniform
// points (sequence level of kernel code and of loops/ifs whose bounds do not depend on the
// thread index); each lowered tile op (a "thread_loop") is one unit.
// cp.async and TMA destinations are ordered by the pipeline's own protocol (wait_group +
// barrier, mbarrier wait + barrier; inject-pipeline) and are not tracked here.
// Hand-written mbarrier schedules (function attr "explicit_mbarriers", T.alloc_barrier): a warp
// role's region (an `if` on the thread index) that waits on an mbarrier is ordered against the
// other such regions by the user's arrive/wait protocol, as in TileLang: no block barrier is put
// between two of them (one there would make the roles run in lockstep). Their accesses still
// order against all other code.
// Inside a warp role (WarpRoles.h: T.ws, `if tx < 128`) the hazards between the role's own
// statements are ordered by a named barrier of its threads (bar.sync 1 + first warp, count), as
// TileLang orders them with its thread bounds; the role's region is one unit for the block.
// Roles nest: the arms of an if/elif chain of roles after the first are roles inside the first
// arm's else role, each with its own named barrier (before, only the first arm got barriers and
// the later arms' fragment-layout conversions and epilogues raced on the GPU: issue 8).
// Requires: lower-tile-ops. Produces: EvalNode(sync_threads) statements. Invalidates: nothing.
#include <map>
#include <optional>
#include <set>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/Views.h"
#include "compiler/transforms/BlockUniform.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/WarpRoles.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

using BufSet = std::set<const BufferNode*>;

struct State {
    BufSet written, read;
    BufSet roleWritten, roleRead;  ///< of mbarrier-ordered role regions (header comment)
    /// Inside each warp role (first thread, count): accesses since the role's last barrier.
    std::map<std::pair<int64_t, int64_t>, std::pair<BufSet, BufSet>> inRole;
    void clear() { written.clear(), read.clear(), roleWritten.clear(), roleRead.clear(), inRole.clear(); }
    void merge(const State& o) {
        written.insert(o.written.begin(), o.written.end());
        read.insert(o.read.begin(), o.read.end());
        roleWritten.insert(o.roleWritten.begin(), o.roleWritten.end());
        roleRead.insert(o.roleRead.begin(), o.roleRead.end());
        for (auto& [k, v] : o.inRole) {
            auto& mine = inRole[k];
            mine.first.insert(v.first.begin(), v.first.end());
            mine.second.insert(v.second.begin(), v.second.end());
        }
    }
};

const BufferNode* sharedOfAddress(const Expr& addr) {
    auto* c = as<CallNode>(addr);
    if (!c || c->op != intrin::kAddressOf || c->args.empty()) return nullptr;
    auto* l = as<LoadNode>(c->args[0]);
    return l && l->buffer->scope == Scope::Shared ? l->buffer.get() : nullptr;
}

// Reads of shared tiles in an expression. Destination addresses of vector copies count as
// writes; cp.async destinations are skipped (see the header comment).
void exprAccesses(const Expr& e, State& st) {
    if (!e) return;
    if (auto* c = as<CallNode>(e)) {
        bool dstFirst = c->op == intrin::kCpAsync || c->op == intrin::kCopyVec || c->op == intrin::kZeroVec;
        for (size_t i = 0; i < c->args.size(); ++i) {
            if (c->op == intrin::kTmaLoad && i == 1) continue;  // async proxy, ordered by its mbarrier
            if (dstFirst && i == 0) {
                if (c->op != intrin::kCpAsync)
                    if (auto* b = sharedOfAddress(c->args[0])) st.written.insert(b);
                continue;
            }
            if (c->op == intrin::kAtomic && i == 1)
                if (auto* b = sharedOfAddress(c->args[1])) st.written.insert(b);
            if (c->op == intrin::kAtomicPrev && i == 1)  // the place: read and written
                if (auto* l = as<LoadNode>(c->args[1]); l && l->buffer->scope == Scope::Shared)
                    st.written.insert(l->buffer.get());
            exprAccesses(c->args[i], st);
        }
        return;
    }
    if (auto* l = as<LoadNode>(e)) {
        if (l->buffer->scope == Scope::Shared) st.read.insert(l->buffer.get());
        for (auto& i : l->indices) exprAccesses(i, st);
        return;
    }
    if (auto* b = as<BinaryNode>(e)) return exprAccesses(b->a, st), exprAccesses(b->b, st);
    if (auto* u = as<UnaryNode>(e)) return exprAccesses(u->a, st);
    if (auto* s = as<SelectNode>(e)) return exprAccesses(s->cond, st), exprAccesses(s->t, st), exprAccesses(s->f, st);
    if (auto* c = as<CastNode>(e)) return exprAccesses(c->value, st);
}

void accessesOf(const Stmt& s, State& st) {
    walk(s, [&](const Stmt& x) {
        if (auto* w = as<StoreNode>(x)) {
            if (w->buffer->scope == Scope::Shared) st.written.insert(w->buffer.get());
            for (auto& i : w->indices) exprAccesses(i, st);
            exprAccesses(w->value, st);
        } else if (auto* e = as<EvalNode>(x)) {
            exprAccesses(e->call, st);
        } else if (auto* f = as<ForNode>(x)) {
            exprAccesses(f->min, st), exprAccesses(f->extent, st);
        } else if (auto* i = as<IfNode>(x)) {
            exprAccesses(i->cond, st);
        }
    });
}

bool conflicts(const State& cur, const State& unit, bool roleUnit) {
    auto hit = [](const BufSet& a, const BufSet& b) {
        for (auto* x : a)
            if (b.count(x)) return true;
        return false;
    };
    const BufSet& r = roleUnit ? unit.roleRead : unit.read;
    const BufSet& w = roleUnit ? unit.roleWritten : unit.written;
    if (hit(r, cur.written) || hit(w, cur.written) || hit(w, cur.read)) return true;
    // A role region is ordered against other role regions by their mbarriers; other code is not.
    return !roleUnit && (hit(r, cur.roleWritten) || hit(w, cur.roleWritten) || hit(w, cur.roleRead));
}

/// A warp role's region ordered by a hand-written mbarrier: an `if` on the thread index whose
/// body waits on one (header comment).
bool isMbarrierRole(const Stmt& s) {
    auto* i = as<IfNode>(s);
    if (!i || !mentionsThread(i->cond)) return false;
    bool waits = false;
    walk(s, [](const Stmt&) {}, [&](const Expr& e) {
        if (auto* c = as<CallNode>(e); c && c->op == intrin::kMbarrierWait) waits = true;
    });
    return waits;
}

Stmt syncStmt(Span sp) { return evaluate(call(intrin::kSyncThreads, {}, DType::Int32, sp), sp); }

class Syncer {
public:
    bool explicitBarriers = false;  ///< function attr "explicit_mbarriers"
    /// Shared views (T.view of a shared buffer, ir/Views.h) -> the buffer they view.
    std::map<const BufferNode*, const BufferNode*> viewBases;
    WarpRole block{0, 1};           ///< the kernel's threads
    WarpRole role{0, 1};            ///< the threads of the code being analysed (a warp role's)

    /// The barrier of the current threads: __syncthreads(), or in a warp role bar.sync id, count
    /// (id 1 + its first warp, as lower-tile-ops names the barriers inside a role's tile ops).
    /// A role whose first warp is 15 or later has no named barrier id left (bar.sync takes
    /// 0..15): a hazard there is an error at the statement (before, such a role's body was not
    /// analysed at all, so its races went through silently).
    Stmt barrierStmt(Span sp) const {
        if (role == block) return syncStmt(sp);
        if (1 + role.first / 32 > 15) {
            if (diags)
                diags->error(sp, "this statement under the condition on the thread index that selects threads " + std::to_string(role.first) +
                                     ".." + std::to_string(role.first + role.count - 1) +
                                     " needs a barrier of those threads (a shared-memory access of another of them "
                                     "comes before it), and named barriers stop at id 15",
                             "select threads that start within the first 480 of the block", "insert-sync");
            return evaluate(call(intrin::kSyncThreads, {intImm(15), intImm(role.count)}, DType::Int32, sp), sp);
        }
        return evaluate(call(intrin::kSyncThreads, {intImm(1 + role.first / 32), intImm(role.count)}, DType::Int32, sp), sp);
    }
    DiagnosticEngine* diags = nullptr;

    // The body of a warp role, with the accesses its threads made since their last barrier:
    // hazards between its statements are ordered by the role's named barrier.
    Stmt runRole(const WarpRole& r, const Stmt& body, State& st) {
        if (r == block) return body;
        State inner;
        auto& mine = st.inRole[{r.first, r.count}];
        inner.written = mine.first, inner.read = mine.second;
        const WarpRole saved = role;
        role = r;
        Stmt out = run(body, inner);
        role = saved;
        auto& after = st.inRole[{r.first, r.count}];
        after.first = inner.written, after.second = inner.read;
        return out;
    }
    // Returns the rewritten statement; `st` is the hazard state flowing through.
    Stmt run(const Stmt& s, State& st) {
        if (!s) return s;
        if (isSyncThreads(s)) {
            st.clear();
            return s;
        }
        if (auto* q = as<SeqNode>(s)) {
            std::vector<Stmt> out;
            bool changed = false;
            for (auto& c : q->stmts) {
                Stmt r = run(c, st);
                changed |= r != c;
                out.push_back(r);
            }
            return changed ? seq(out, q->span) : s;
        }
        if (auto* f = as<ForNode>(s); f && !attrBool(f->attrs, "thread_loop", false) && !mentionsThread(f->extent) && !mentionsThread(f->min)) {
            State entry = st;
            State first = entry;
            run(f->body, first);  // what one iteration leaves behind
            // Tiles with one copy per iteration parity (InjectPipelineTmaFragment.cpp, loop attr
            // "two_copy_tiles"): iteration k + 1 touches the other copy, and the copy iteration
            // k + 2 writes was last read before iteration k + 1's gemm barrier, so nothing of
            // them carries into the next iteration.
            if (std::string two = attrStr(f->attrs, "two_copy_tiles", ""); !two.empty()) {
                std::set<std::string> names;
                for (size_t a = 0, b; a <= two.size(); a = b + 1) {
                    b = two.find(',', a);
                    if (b == std::string::npos) b = two.size();
                    names.insert(two.substr(a, b - a));
                }
                auto drop = [&](BufSet& set) {
                    for (auto it = set.begin(); it != set.end();) it = names.count((*it)->name) ? set.erase(it) : std::next(it);
                };
                drop(first.written), drop(first.read), drop(first.roleWritten), drop(first.roleRead);
                for (auto& [k, v] : first.inRole) drop(v.first), drop(v.second);
            }
            State loopIn = entry;
            loopIn.merge(first);
            State second = loopIn;
            Stmt body = run(f->body, second);
            st = entry;
            st.merge(second);
            return body == f->body ? s : forLoop(f->var, f->min, f->extent, f->forKind, body, f->attrs, f->span);
        }
        // A warp role within the current threads: at the block level, or nested in a role (the
        // arms of `if tx >= 256: ... elif tx < 128: ... else: ...` after the first are roles
        // inside the first one's else role; lower-tile-ops and inject-pipeline split them the
        // same way). Each arm's own hazards get its named barrier.
        std::optional<WarpRole> r;
        if (auto* i = as<IfNode>(s); i && mentionsThread(i->cond)) r = warpRoleOf(i->cond, role);
        if (auto* i = as<IfNode>(s); i && r && *r != role) {
            // The region is one unit for the enclosing threads' hazards (below); inside, the role's own.
            Stmt t = runRole(*r, i->then, st);
            Stmt e = i->otherwise;
            if (auto rest = elseRoleOf(*r, role); e && rest) e = runRole(*rest, e, st);
            Stmt rebuilt = (t == i->then && e == i->otherwise) ? s : ifLike(*i, t, e);
            return blockUnit(rebuilt, st);
        }
        // An `if` that every thread of the current role takes alike (`elif tx >= 256` in the
        // role of threads 256..383, or a condition without the thread index): both branches
        // under the current threads.
        if (auto* i = as<IfNode>(s); i && (!mentionsThread(i->cond) || (r && *r == role))) {
            State a = st, b = st;
            Stmt t = run(i->then, a);
            Stmt e = i->otherwise ? run(i->otherwise, b) : nullptr;
            st = a;
            st.merge(b);
            return (t == i->then && e == i->otherwise) ? s : ifLike(*i, t, e);
        }
        if (auto* k = as<KernelNode>(s)) {
            Stmt body = run(k->body, st);
            return body == k->body ? s : std::make_shared<KernelNode>(k->grid, k->threads, k->blockVars, k->threadVars, body, k->span);
        }
        return blockUnit(s, st);
    }

    // `s` as one unit of the current threads: a barrier before it when it conflicts with what
    // they accessed since their last one.
    Stmt blockUnit(const Stmt& s, State& st) {
        State unit;
        accessesOf(s, unit);
        for (BufSet* set : {&unit.written, &unit.read})  // a shared view is its buffer's bytes
            for (auto& [view, base] : viewBases)
                if (set->erase(view)) set->insert(base);
        // (Also a role region nested in a role: two arms of an elif chain of roles run at once,
        // ordered by the user's mbarriers, not by the enclosing role's barrier.)
        const bool mbarrierRole = explicitBarriers && isMbarrierRole(s);
        if (mbarrierRole) {
            unit.roleWritten = std::move(unit.written), unit.roleRead = std::move(unit.read);
            unit.written.clear(), unit.read.clear();
        }
        if (conflicts(st, unit, mbarrierRole)) {
            // A block barrier also orders every role's earlier accesses; a role's barrier only its own.
            st.clear();
            st.merge(unit);
            return seq({barrierStmt(s->span), s}, s->span);
        }
        st.merge(unit);
        return s;
    }
};

}  // namespace

PrimFunc insertSync(const PrimFunc& f, PassContext& ctx) {
    Syncer s;
    s.diags = &ctx.diags;
    if (const KernelNode* k = findKernel(f)) s.block = s.role = WarpRole{0, k->threadCount()};
    s.explicitBarriers = attrInt(f->attrs, "explicit_mbarriers", 0) != 0;
    std::map<std::string, const BufferNode*> shared;
    walk(f->body, [&](const Stmt& x) {
        if (auto* a = as<AllocNode>(x); a && a->buffer->scope == Scope::Shared) shared[a->buffer->name] = a->buffer.get();
    });
    for (auto& [name, b] : shared)
        if (auto base = sharedViewBase(f->attrs, name); !base.empty() && shared.count(base)) s.viewBases[b] = shared[base];
    State st;
    // A warpgroup ping-pong (InjectPipelineTmaFragment.cpp) cannot hold a block barrier.
    return withBody(f, dropUnsafeWarpgroupTurns(s.run(f->body, st)));
}

}  // namespace ts::xform
