// lower-tile-ops: replaces tile-level statements by thread-level code. Fragments become
// per-thread register arrays (Local buffers of the layout's localSize); T.copy, T.gemm,
// T.fill/clear, T.reduce_*, T.atomic_*, T.cumsum are lowered by their ops (compiler/ops/,
// TileOp::lower for the pass's target) and T.Parallel nests by LowerParallel.cpp. Lowered code is wrapped
// in loops tagged "thread_loop" so insert-sync treats each lowered op as one unit.
// Requires: infer-layouts (fragment layouts, gemm warp grid, Parallel layout keys),
// inject-pipeline (async copies). Produces: thread-level IR over shared/global/local buffers
// with logical indices. Invalidates: fragment buffers (replaced by register arrays).
#include "compiler/ir/FragmentViews.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform {
using namespace ts::ir;
using namespace ts::xform::lower;

namespace {

class Lowerer : public Mutator {
public:
    explicit Lowerer(Ctx& c) : m_c(c) {}

protected:
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
        std::vector<TileArg> args = n->args;
        bool changed = false;
        for (auto& a : args)
            if (auto* e = std::get_if<Expr>(&a)) {
                Expr m = mutate(*e);
                changed |= m != *e;
                *e = std::move(m);
            }
        const TileOpNode rewritten(n->op, std::move(args), n->attrs, n->span);
        const TileOpNode& op = changed ? rewritten : *n;
        return ops::get(op.op).lower(m_c, op, m_c.pass.target);
    }
    Stmt visitFor(const ForNode* n, const Stmt& self) override {
        if (n->forKind == ForKind::Parallel && n->attrs.count("layout_key")) return lowerParallel(m_c, *n);
        return Mutator::visitFor(n, self);
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
    Expr replicatedSlot(const LoweredFragment& f, const std::vector<Expr>& indices) {
        const LayoutNode& L = *f.layout;
        if (L.family != "replicated" || indices.size() != L.inputs.size()) return nullptr;
        std::unordered_map<const VarNode*, Expr> m;
        for (size_t d = 0; d < indices.size(); ++d) m[L.inputs[d].get()] = mutate(indices[d]);
        return substitute(L.local, m);
    }

    Ctx& m_c;
};

}  // namespace

PrimFunc lowerTileOps(const PrimFunc& f, PassContext& ctx) {
    const KernelNode* k = findKernel(f);
    if (!k) return f;
    Ctx c{ctx, *f, nullptr, k->threadCount(), {}, 0};
    if (k->threads.size() > 1 && (k->threads[1] > 1 || (k->threads.size() > 2 && k->threads[2] > 1))) {
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
    Lowerer lw(c);
    Stmt body = lw.mutate(f->body);
    if (ctx.diags.hasErrors()) return f;
    if (k->threadVars.empty()) {
        // Give the kernel its thread index variable so codegen can bind it.
        struct AddTx : Mutator {
            Var tx;
            Stmt visitKernel(const KernelNode* n, const Stmt&) override {
                return std::make_shared<KernelNode>(n->grid, n->threads, n->blockVars, std::vector<Var>{tx}, mutate(n->body), n->span);
            }
        } add;
        add.tx = tx;
        body = add.mutate(body);
    }
    return withBody(f, body);
}

}  // namespace ts::xform
