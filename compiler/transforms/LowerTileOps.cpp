// lower-tile-ops: replaces tile-level statements by thread-level code. Fragments become
// per-thread register arrays (Local buffers of the layout's localSize); T.copy, T.gemm,
// T.fill/clear, T.reduce_*, T.atomic_*, T.cumsum are lowered by their ops (compiler/ops/,
// TileOp::lower for the pass's target) and T.Parallel nests by LowerParallel.cpp. Lowered code is wrapped
// in loops tagged "thread_loop" so insert-sync treats each lowered op as one unit.
// Requires: infer-layouts (fragment layouts, gemm warp grid, Parallel layout keys),
// inject-pipeline (async copies). Produces: thread-level IR over shared/global/local buffers
// with logical indices. Invalidates: fragment buffers (replaced by register arrays).
#include <set>

#include "compiler/ir/FragmentViews.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/BlockUniform.h"
#include "compiler/transforms/LowerCommon.h"
#include "compiler/transforms/WarpRoles.h"

namespace ts::xform {
using namespace ts::ir;
using namespace ts::xform::lower;

namespace {

class Lowerer : public Mutator {
public:
    Lowerer(Ctx& c, Var tx) : m_c(c), m_tx(std::move(tx)), m_role{0, c.threads}, m_block(c.threads) {}

protected:
    // A warp role (T.ws, `if tx < 128`): its tile ops and T.Parallel nests are lowered for the
    // role's threads (infer-layouts laid their fragments out over them), with the thread index
    // rebased to the role's first thread; block barriers inside their lowering become a named
    // barrier of the role's threads.
    Stmt visitIf(const IfNode* n, const Stmt& self) override {
        auto r = mentionsThread(n->cond) ? warpRoleOf(n->cond, m_role) : std::nullopt;
        if (!r) {
            const int inLoop = m_c.loopDepth > 0;
            m_c.condInLoop += inLoop;
            Stmt out = Mutator::visitIf(n, self);
            m_c.condInLoop -= inLoop;
            return out;
        }
        Stmt then = inRole(*r, n->then), other = n->otherwise;
        if (other) {
            auto rest = elseRoleOf(*r, m_role);
            other = rest ? inRole(*rest, other) : mutate(other);
        }
        if (then == n->then && other == n->otherwise) return self;
        return ifLike(*n, then, other);
    }
    Stmt visitAlloc(const AllocNode* n, const Stmt& self) override {
        auto it = m_c.frags.find(n->buffer.get());
        if (it == m_c.frags.end()) return self;
        // A view of a fragment declares nothing: it names the base's registers.
        if (fragmentViewBase(m_c.func, *n->buffer)) return seq({}, n->span);
        return std::make_shared<AllocNode>(it->second.regs, nullptr, n->span);
    }
    Stmt visitTileOp(const TileOpNode* n, const Stmt& self) override {
        // Scalar arguments (T.atomic_add(Y[bx], m[0]), T.fill(buf, s[0])) may read replicated
        // fragments: rewrite them to the registers first, or the lowered op keeps a reference
        // to the fragment buffer the Alloc no longer declares (CUDA: an undefined `m_1`).
        // The same for a region's bounds: `a = frag[i]; T.copy(A[a, 0], A_shared)` (TileLang's
        // let_layout test) put `frag[i]` in a TMA box coordinate.
        std::vector<TileArg> args = n->args;
        bool changed = false;
        auto rewrite = [&](Expr& e) {
            if (!e) return;
            Expr m = mutate(e);
            changed |= m != e;
            e = std::move(m);
        };
        for (auto& a : args)
            if (auto* e = std::get_if<Expr>(&a)) rewrite(*e);
            else if (auto* r = std::get_if<Region>(&a))
                for (Range& rg : r->ranges) rewrite(rg.min), rewrite(rg.extent);
        const TileOpNode rewritten(n->op, std::move(args), n->attrs, n->span);
        const TileOpNode& op = changed ? rewritten : *n;
        checkRoleLayouts(self);
        return roleBarriers(ops::get(op.op).lower(m_c, op, m_c.pass.target));
    }
    Stmt visitFor(const ForNode* n, const Stmt& self) override {
        if (n->forKind == ForKind::Parallel && n->attrs.count("layout_key")) {
            checkRoleLayouts(self);
            return roleBarriers(lowerParallel(m_c, *n));
        }
        ++m_c.loopDepth;
        m_c.loops.push_back(n);
        Stmt out = Mutator::visitFor(n, self);
        m_c.loops.pop_back();
        --m_c.loopDepth;
        return out;
    }
    // Element accesses outside T.Parallel: only fragments every thread holds whole (infer-layouts
    // gives them the "replicated" layout) can be addressed by any thread.
    Expr visitLoad(const LoadNode* n, const Expr& self) override {
        if (auto it = m_c.frags.find(n->buffer.get()); it != m_c.frags.end()) {
            if (Expr slot = replicatedSlot(it->second, n->indices))
                return load(it->second.regs, {slot}, n->span);
            m_c.error(n->span, "fragment '" + n->buffer->name + "' can only be read inside T.Parallel loops or by tile ops",
                      "wrap the access in `for i, j in T.Parallel(...)`");
        }
        return Mutator::visitLoad(n, self);
    }
    // tl.wgmma_retire(name, n) (inject-pipeline's softmax overlap) -> tl.wgmma_wait(n) pinning
    // the registers of fragment `name`.
    Stmt visitEval(const EvalNode* n, const Stmt& self) override {
        auto* c = as<CallNode>(n->call);
        if (!c || c->op != intrin::kWgmmaRetire) return Mutator::visitEval(n, self);
        auto* name = c->args.empty() ? nullptr : as<StrImmNode>(c->args[0]);
        const int64_t wait = c->args.size() > 1 ? constInt(c->args[1]).value_or(0) : 0;
        for (auto& [buf, lf] : m_c.frags)
            if (name && buf->name == name->value && buf->scope == Scope::Fragment)
                return lower::intrinsicStmt(intrin::kWgmmaWait, {lower::addressOf(lf.regs, {intImm(0)}), intImm(lf.layout->localSize), intImm(wait)},
                                            n->span);
        m_c.error(n->span, "internal: tl.wgmma_retire names no fragment", "report this with the file");
        return self;
    }
    Stmt visitStore(const StoreNode* n, const Stmt& self) override {
        if (auto it = m_c.frags.find(n->buffer.get()); it != m_c.frags.end()) {
            if (Expr slot = replicatedSlot(it->second, n->indices))
                return store(it->second.regs, {slot}, mutate(n->value), n->span);
            m_c.error(n->span, "fragment '" + n->buffer->name + "' can only be written inside T.Parallel loops or by tile ops",
                      "wrap the access in `for i, j in T.Parallel(...)`");
        }
        return Mutator::visitStore(n, self);
    }

private:
    Stmt inRole(const WarpRole& r, const Stmt& s) {
        const WarpRole saved = m_role;
        const Expr savedTx = m_c.tx;
        const int64_t savedThreads = m_c.threads, savedFirst = m_c.roleFirst;
        if (r.count < m_block) checkRoleHopper(r, s);
        m_role = r;
        m_c.tx = r.first ? sub(m_tx, intImm(r.first)) : Expr(m_tx);
        m_c.threads = r.count;
        m_c.roleFirst = r.first;
        Stmt out = mutate(s);
        m_role = saved;
        m_c.tx = savedTx, m_c.threads = savedThreads, m_c.roleFirst = savedFirst;
        return out;
    }
    // The sm_90a work a warp role cannot do: the TMA + mbarrier schedule of a T.Pipelined loop
    // elects one thread for the whole kernel (thread 0 or the producer warpgroup's first), which
    // may be outside the role -- the loads would never be issued and the waits would hang; and
    // wgmma needs whole, aligned warpgroups (PTX ISA §9.7.15: a warpgroup is 4 contiguous warps,
    // the first warp's rank a multiple of 4).
    void checkRoleHopper(const WarpRole& r, const Stmt& s) {
        // "The condition on the thread index", not "the warp role": T.ws(i) and `if tx >= 64:`
        // alike, neither of which is a producer/consumer role (fresh-user finding).
        const std::string who =
            "the condition on the thread index that selects threads " + std::to_string(r.first) + ".." + std::to_string(r.first + r.count - 1);
        bool tma = false;
        walk(s, [&](const Stmt& st) {
            if (auto* ev = as<EvalNode>(st))
                if (auto* c = dynamic_cast<const CallNode*>(ev->call.get());
                    c && !tma && (c->op == intrin::kTmaLoad || c->op == intrin::kMbarrierInit)) {
                    tma = true;
                    m_c.error(st->span, "T.Pipelined under " + who + " takes the sm_90a TMA + mbarrier schedule, whose loads and "
                                        "barrier setup are issued by one elected thread of the block, outside those threads: the "
                                        "loads would never be issued and the waits would hang",
                              "move the pipelined loop out from under that condition, or write its loads with T.tma_copy / "
                              "T.copy and explicit barriers (T.alloc_barrier, T.mbarrier_wait_parity)");
                }
            auto* t = as<TileOpNode>(st);
            if (!t || t->op != TileOpKind::Gemm || t->args.size() < 3 || !t->isRegion(2)) return;
            if (r.first % 128 == 0 && r.count % 128 == 0) return;
            auto it = m_c.frags.find(t->region(2).buffer.get());
            const bool wgmma = attrBool(t->attrs, "wgmma_fragment", false) ||
                               (it != m_c.frags.end() && it->second.layout && it->second.layout->family == "wgmma_c");
            if (wgmma)
                m_c.error(t->span, "T.gemm on wgmma under " + who + ": wgmma needs whole warpgroups (128 threads starting at a "
                                   "multiple of 128)",
                          "make the condition select whole warpgroups (T.ws(i) or `if tx < 128`), or move the gemm out from under it");
        });
    }
    // The fragments a warp role's statement distributes must be laid out over at most the
    // role's threads: one placed for the whole block (or a wider role) would leave registers
    // of threads outside the role unwritten.
    void checkRoleLayouts(const Stmt& s) {
        if (m_c.threads == m_block) return;
        std::set<const BufferNode*> seen;
        auto check = [&](const Buffer& b, Span at) {
            auto it = m_c.frags.find(b.get());
            if (it == m_c.frags.end() || !seen.insert(b.get()).second) return;
            const LayoutNode& L = *it->second.layout;
            if (L.family == "replicated" || L.threads <= m_c.threads) return;
            m_c.error(at, "fragment '" + b->name + "' is laid out over " + std::to_string(L.threads) + " threads but used here by " +
                              std::to_string(m_c.threads) + " (under the condition on the thread index that selects threads " + std::to_string(m_c.roleFirst) + ".." +
                              std::to_string(m_c.roleFirst + m_c.threads - 1) + ")",
                      "use each fragment either under one condition on the thread index (T.ws, `if tx < 128`) or outside such "
                      "conditions, or copy it through shared memory");
        };
        walk(s, [&](const Stmt& st) {
            if (auto* t = as<TileOpNode>(st))
                for (auto& a : t->args)
                    if (auto* r = std::get_if<Region>(&a)) check(r->buffer, t->span);
            if (auto* x = as<StoreNode>(st)) check(x->buffer, x->span);
        }, [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e)) check(l->buffer, l->span);
        });
    }
    // Inside a warp role of fewer threads than the block: a lowering's block barrier would wait
    // for threads that never reach it, so it becomes bar.sync id, count over the role's threads
    // (id 1 + the role's first warp; 0 is __syncthreads); and the block-level gemm intrinsics,
    // whose device code and interpreters locate warps by thread index, get the role's first
    // thread and thread count as two more arguments (compiler/ir/IntrinsicsUserBarriers.h).
    Stmt roleBarriers(Stmt s) {
        if (m_c.threads == m_block) return s;
        const int64_t id = 1 + m_c.roleFirst / 32;
        struct Fix : Mutator {
            Ctx* c = nullptr;
            int64_t id = 0;
            Stmt visitEval(const EvalNode* n, const Stmt& self) override {
                auto* k = as<CallNode>(n->call);
                if (!k) return self;
                if (k->op == intrin::kSyncThreads && k->args.empty()) {
                    if (id > 15) {
                        c->error(n->span, "a tile op under the condition on the thread index that selects threads " + std::to_string(c->roleFirst) + ".." +
                                              std::to_string(c->roleFirst + c->threads - 1) +
                                              " needs a barrier of those threads, and named barriers stop at id 15",
                                 "select threads that start within the first 480 of the block");
                        return self;
                    }
                    return evaluate(call(intrin::kSyncThreads, {intImm(id), intImm(c->threads)}, k->dtype, k->span), n->span);
                }
                const bool mma = k->op == intrin::kGemmSS || k->op == intrin::kGemmRS;
                if (!mma && k->op != intrin::kWgmmaSS && k->op != intrin::kWgmmaRS) return self;
                // ts::gemm_ss numbers its warps (threadIdx.x / 32) % warps: right in a role that
                // starts at a multiple of its own size (T.ws(g) of 128 threads).
                if (mma && c->roleFirst % c->threads != 0) {
                    c->error(n->span, "T.gemm on the mma.sync path under the condition on the thread index that selects threads " +
                                          std::to_string(c->roleFirst) + ".." + std::to_string(c->roleFirst + c->threads - 1) +
                                          ": TileScope lowers it only for selected threads that start at a multiple of their count",
                             "select whole warp groups for the gemm (T.ws(g)), or compile for cuda:sm_90a where it may use wgmma");
                    return self;
                }
                std::vector<Expr> args = k->args;
                args.push_back(intImm(c->roleFirst));
                args.push_back(intImm(c->threads));
                return evaluate(call(k->op, std::move(args), k->dtype, k->span), n->span);
            }
        } fix;
        fix.c = &m_c, fix.id = id;
        return fix.mutate(s);
    }
    Expr replicatedSlot(const LoweredFragment& f, const std::vector<Expr>& indices) {
        const LayoutNode& L = *f.layout;
        if (L.family != "replicated" || indices.size() != L.inputs.size()) return nullptr;
        std::unordered_map<const VarNode*, Expr> m;
        for (size_t d = 0; d < indices.size(); ++d) m[L.inputs[d].get()] = mutate(indices[d]);
        return substitute(L.local, m);
    }

    Ctx& m_c;
    Var m_tx;          ///< the kernel's thread variable
    WarpRole m_role;   ///< the threads the statement being lowered runs on
    int64_t m_block;   ///< the block's thread count
};

}  // namespace

PrimFunc lowerTileOps(const PrimFunc& f, PassContext& ctx) {
    const KernelNode* k = findKernel(f);
    if (!k) return f;
    SignedVarsScope signedScalars(*f);
    Ctx c{.pass = ctx, .func = *f, .tx = nullptr, .threads = k->threadCount()};
    c.blockThreads = k->threadCount();
    // A multi-dimensional block is fine while every tile op works on per-thread (local) and
    // global buffers only (T.clear / T.copy of a thread's own registers): those lower to loops
    // each thread runs alone, whatever its index. Fragments and shared tiles are distributed
    // over a linear thread index, which such a block does not have yet.
    bool perThreadOnly = true;
    walk(f->body, [&](const Stmt& s) {
        if (auto* a = as<AllocNode>(s); a && a->buffer->scope == Scope::Fragment) perThreadOnly = false;
        if (auto* t = as<TileOpNode>(s))
            for (size_t i = 0; i < t->args.size(); ++i)
                if (t->isRegion(i) && (t->region(i).buffer->scope == Scope::Shared || t->region(i).buffer->scope == Scope::Fragment))
                    perThreadOnly = false;
    });
    if (!perThreadOnly && k->threads.size() > 1 && (k->threads[1] > 1 || (k->threads.size() > 2 && k->threads[2] > 1))) {
        ctx.diags.error(k->span, "multi-dimensional thread blocks (threads=[x, y, z]) are not supported by tile-op lowering yet",
                        "use threads=N", "lower-tile-ops");
        return f;
    }
    Var tx = !k->threadVars.empty() ? k->threadVars[0] : makeVar("tx", DType::Int32, k->span, VarTag::ThreadIdx, 0);
    c.tx = tx;
    walk(f->body, [&](const Stmt& s) {
        auto* a = as<AllocNode>(s);
        if (!a || a->buffer->scope != Scope::Fragment) return;
        Layout l = c.layoutOf(a->buffer->name);
        if (!l || l->kind != LayoutKind::Fragment) {
            ctx.diags.error(a->span, "no layout was inferred for fragment '" + a->buffer->name + "'",
                            "use it in a T.gemm, T.copy, T.reduce or T.Parallel loop, or annotate it", "lower-tile-ops");
            return;
        }
        if (const std::string* base = fragmentViewBase(*f, *a->buffer)) {
            for (auto& [node, lf] : c.frags)
                if (node->name == *base) return void(c.frags[a->buffer.get()] = {lf.regs, l});
            ctx.diags.error(a->span, "view '" + a->buffer->name + "' of fragment '" + *base + "' made before the fragment is allocated", "",
                            "lower-tile-ops");
            return;
        }
        auto regs = std::make_shared<BufferNode>(a->buffer->name, a->buffer->dtype, std::vector<Expr>{intImm(l->localSize)},
                                                 Scope::Local, a->buffer->span);
        c.frags[a->buffer.get()] = {regs, l};
    });
    if (ctx.diags.hasErrors()) return f;
    Lowerer lw(c, tx);
    Stmt body = lw.mutate(f->body);
    if (ctx.diags.hasErrors()) return f;
    if (k->threadVars.empty() || !c.prelude.empty() || !c.epilogue.empty()) {
        // Give the kernel its thread index variable so codegen can bind it; put the prelude of
        // the lowered ops (plain TMA copies' mbarrier setup) first in its body, then a barrier.
        struct AddTx : Mutator {
            Var tx;
            std::vector<Stmt> prelude, epilogue;
            Stmt visitKernel(const KernelNode* n, const Stmt&) override {
                Stmt b = n->body;
                // The epilogue (TMA stores' exit wait) after everything the block does.
                if (!epilogue.empty()) {
                    std::vector<Stmt> all{b};
                    all.insert(all.end(), epilogue.begin(), epilogue.end());
                    b = seq(all, n->span);
                }
                if (!prelude.empty()) {
                    prelude.push_back(intrinsicStmt(intrin::kSyncThreads, {}, n->span));
                    prelude.push_back(b);
                    b = seq(prelude, n->span);
                }
                return std::make_shared<KernelNode>(n->grid, n->threads, n->blockVars,
                                                    n->threadVars.empty() ? std::vector<Var>{tx} : n->threadVars, b, n->span);
            }
        } add;
        add.tx = tx;
        add.prelude = c.prelude;
        add.epilogue = c.epilogue;
        body = add.mutate(body);
    }
    if (!c.funcAttrs.empty()) {
        auto nf = std::make_shared<PrimFuncNode>(*withBody(f, body));
        nf->attrs = c.funcAttrs;
        return nf;
    }
    return withBody(f, body);
}

}  // namespace ts::xform
