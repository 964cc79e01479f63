// Lowering of T.Parallel nests: the nest's layout (chosen by infer-layouts) assigns each
// iteration (i, j) to a thread and a register slot; every thread runs its slots in an unrolled
// loop (registers must be indexed by constants after unrolling, or they spill to local
// memory), recovering (i, j) through the layout's inverse. Fragments indexed by the loop
// variables become their register slot; row values X[i] become the row-reduced slot; global
// accesses are bounds-guarded.
#include <algorithm>
#include <optional>

#include "compiler/analysis/LayoutViews.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform::lower {
using namespace ts::ir;

namespace {

class FragmentAccess : public Mutator {
public:
    FragmentAccess(Ctx& c, const std::vector<const VarNode*>& vars, const LayoutNode& loop, Expr slot,
                   const std::vector<Expr>& idx)
        : m_c(c), m_vars(vars), m_loop(loop), m_slot(std::move(slot)), m_idx(idx) {}

protected:
    Expr visitLoad(const LoadNode* n, const Expr& self) override {
        auto it = m_c.frags.find(n->buffer.get());
        if (it == m_c.frags.end()) return Mutator::visitLoad(n, self);
        if (auto local = localIndex(it->second, n->indices, n->span)) return load(it->second.regs, {local}, n->span);
        return self;
    }
    Stmt visitStore(const StoreNode* n, const Stmt& self) override {
        auto it = m_c.frags.find(n->buffer.get());
        if (it == m_c.frags.end()) return Mutator::visitStore(n, self);
        Expr v = mutate(n->value);
        if (auto local = localIndex(it->second, n->indices, n->span)) return store(it->second.regs, {local}, v, n->span);
        return self;
    }

private:
    Expr localIndex(const LoweredFragment& f, const std::vector<Expr>& indices, Span sp) {
        bool aligned = indices.size() == m_vars.size();
        for (size_t d = 0; aligned && d < indices.size(); ++d) aligned = indices[d].get() == m_vars[d];
        if (aligned && analysis::sameMapping(*f.layout, m_loop)) return m_slot;
        if (auto perm = permutation(indices, f.layout->shape); perm && !aligned) {
            // `t[j, i]` in a nest over (i, j), `t[i, 0]` of an (N, 1) fragment in a nest over i:
            // infer-layouts gave t the loop layout through the permutation and t's unit dims,
            // so the element is in this iteration's register slot.
            Layout want = analysis::reshapeLayout(analysis::permuteLayout(std::make_shared<LayoutNode>(m_loop), *perm), f.layout->shape);
            if (want && analysis::sameMapping(*f.layout, *want)) return m_slot;
        }
        bool fixed = !indices.empty();
        for (auto& e : indices) fixed &= constInt(e).has_value();
        if (fixed) {  // a broadcast read: infer-layouts checked that the loop's threads hold it
            std::unordered_map<const VarNode*, Expr> m;
            for (size_t d = 0; d < indices.size() && d < f.layout->inputs.size(); ++d) m[f.layout->inputs[d].get()] = indices[d];
            return substitute(f.layout->local, m);
        }
        if (!aligned && indices.size() == m_vars.size() && analysis::sameMapping(*f.layout, m_loop)) {
            // `acc[i + s * 16, j]`: infer-layouts checked that the loop's (= the fragment's)
            // layout keeps the shifted element in this thread; its register is the layout's
            // local index of the shifted element.
            std::unordered_map<const VarNode*, Expr> m;
            for (size_t d = 0; d < indices.size(); ++d) m[f.layout->inputs[d].get()] = mutate(indices[d]);
            return substitute(f.layout->local, m);
        }
        if (f.layout->family == "replicated" && indices.size() == f.layout->inputs.size()) {
            // Every thread holds every element (infer-layouts chose it for reads at other
            // indices): the register is the element's row-major index, whatever the loop.
            std::unordered_map<const VarNode*, Expr> m;
            for (size_t d = 0; d < indices.size(); ++d) m[f.layout->inputs[d].get()] = mutate(indices[d]);
            return substitute(f.layout->local, m);
        }
        if (indices.size() == 1 && m_vars.size() == 2 && indices[0].get() == m_vars[0] && rowCompanionOfLoop(*f.layout)) {
            std::unordered_map<const VarNode*, Expr> m{{f.layout->inputs[0].get(), m_idx[0]}};
            return substitute(f.layout->local, m);
        }
        m_c.error(sp, "fragment '" + f.regs->name + "' is accessed with a layout that does not match its T.Parallel loop",
                  "index fragments by the loop variables in order");
        return nullptr;
    }

    // d -> v with indices[d] the loop variable m_vars[v], when the indices (without unit dims
    // indexed by 0) name every loop variable once.
    std::optional<std::vector<size_t>> permutation(const std::vector<Expr>& indices, const std::vector<int64_t>& shape) const {
        std::vector<Expr> sq = indices;
        if (shape.size() == indices.size() && indices.size() > m_vars.size()) {  // unit dims indexed by 0 dropped
            sq.clear();
            for (size_t d = 0; d < indices.size(); ++d)
                if (shape[d] != 1 || constInt(indices[d]) != 0) sq.push_back(indices[d]);
        }
        if (sq.size() != m_vars.size()) return std::nullopt;
        std::vector<size_t> p;
        for (auto& e : sq)
            for (size_t v = 0; v < m_vars.size(); ++v)
                if (e.get() == m_vars[v] && std::find(p.begin(), p.end(), v) == p.end()) {
                    p.push_back(v);
                    break;
                }
        if (p.size() != m_vars.size()) return std::nullopt;
        return p;
    }

    // Row values X[i] read in a nest over (i, j): X must hold row i in every thread that holds
    // (i, j) of the loop layout, i.e. be the loop layout's row companion (row_reduced of a block
    // fragment, mma_c_rows of an accumulator).
    bool rowCompanionOfLoop(const LayoutNode& l) {
        if (!m_rows) m_rows = analysis::rowCompanion(m_loop);
        return m_rows && analysis::sameMapping(l, *m_rows);
    }

    Ctx& m_c;
    Layout m_rows;
    const std::vector<const VarNode*>& m_vars;
    const LayoutNode& m_loop;
    Expr m_slot;
    const std::vector<Expr>& m_idx;
};

// Global accesses inside T.Parallel are bounds-guarded: stores outside the tensor are skipped and
// loads outside it read 0, so tiles that overhang a non-divisible problem size stay safe. Both are
// still errors of the program (the tile-level interpreter reports them; TileLang leaves them
// undefined): the store's guard carries a StoreCheck and the load's select the load's own span,
// by which the thread-level interpreter reports them too (T.copy's tail guards carry neither).
class GuardGlobal : public Mutator {
protected:
    Expr visitCall(const CallNode* n, const Expr& self) override {
        if (n->op != intrin::kAtomicPrev || n->args.size() < 3) return Mutator::visitCall(n, self);
        // The atomic's place is an address, not a value: it is not replaced by 0 out of bounds.
        auto* place = as<LoadNode>(n->args[1]);
        if (!place) return Mutator::visitCall(n, self);
        std::vector<Expr> idx;
        bool changed = mutateList(place->indices, idx);
        Expr v = mutate(n->args[2]);
        if (!changed && v == n->args[2]) return self;
        Expr p = changed ? load(place->buffer, idx, place->span) : n->args[1];
        std::vector<Expr> args{n->args[0], p, v};
        args.insert(args.end(), n->args.begin() + 3, n->args.end());  // the memory order
        return call(n->op, std::move(args), n->dtype, n->span);
    }
    Expr visitLoad(const LoadNode* n, const Expr& self) override {
        Expr e = Mutator::visitLoad(n, self);
        auto* l = as<LoadNode>(e);
        Expr in = inBounds(l->buffer, l->indices);
        return in ? select(in, e, cast(l->dtype, intImm(0)), l->span) : e;
    }
    Stmt visitStore(const StoreNode* n, const Stmt& self) override {
        Stmt s = Mutator::visitStore(n, self);
        auto* st = as<StoreNode>(s);
        Expr in = inBounds(st->buffer, st->indices);
        if (!in) return s;
        return std::make_shared<IfNode>(in, s, nullptr, st->span, StoreCheck{st->buffer, st->indices});
    }
};

// Element atomics written inside the loop (`T.atomic_add(dQ[.., i, j], dq[i, j])`, the dQ
// accumulation of attention backward) are per-iteration scalar atomics: after the loop variables
// are replaced by each register slot's (i, j), they lower like any scalar atomic.
class LowerElementAtomics : public Mutator {
public:
    explicit LowerElementAtomics(Ctx& c) : m_c(c) {}

protected:
    Stmt visitTileOp(const TileOpNode* n, const Stmt& self) override {
        const ops::TileOp& op = ops::get(n->op);
        if (op.elementwise(*n)) return op.lower(m_c, *n, m_c.pass.target);
        m_c.error(n->span, "T." + op.spelling(*n) + " inside a T.Parallel loop is not supported",
                  "move the tile operation out of the loop");
        return self;
    }

private:
    Ctx& m_c;
};

}  // namespace

Stmt lowerParallel(Ctx& c, const ForNode& outer) {
    std::string key = attrStr(outer.attrs, "layout_key", "");
    Layout L = c.layoutOf(key);
    if (!L) {
        c.error(outer.span, "internal: T.Parallel loop has no layout (infer-layouts did not run?)");
        return nullptr;
    }
    std::vector<const ForNode*> nest{&outer};
    while (nest.size() < L->shape.size()) {
        auto* inner = as<ForNode>(nest.back()->body);
        if (!inner || inner->forKind != ForKind::Parallel) break;
        nest.push_back(inner);
    }
    if (nest.size() != L->shape.size()) {
        c.error(outer.span, "T.Parallel nest depth does not match its layout");
        return nullptr;
    }
    Var r = makeVar(c.fresh("r"), DType::Int32, outer.span);
    std::unordered_map<const VarNode*, Expr> inv{{L->invThread.get(), c.tx}, {L->invLocal.get(), r}};
    std::vector<Expr> idx;
    std::vector<const VarNode*> vars;
    Expr guard;
    int64_t numel = 1;
    for (size_t d = 0; d < nest.size(); ++d) {
        idx.push_back(substitute(L->inverse[d], inv));
        vars.push_back(nest[d]->var.get());
        numel *= L->shape[d];
    }
    if (L->localSize * L->threads != numel * L->replicate)
        for (size_t d = 0; d < nest.size(); ++d) guard = logicalAnd(guard, lt(idx[d], intImm(L->shape[d])));
    FragmentAccess fa(c, vars, *L, r, idx);
    Stmt body = fa.mutate(nest.back()->body);
    if (!body) return nullptr;
    std::unordered_map<const VarNode*, Expr> sub;
    for (size_t d = 0; d < nest.size(); ++d) sub[vars[d]] = idx[d];
    body = substitute(body, sub);
    body = GuardGlobal().mutate(body);
    body = LowerElementAtomics(c).mutate(body);
    if (guard) body = ifThen(guard, body, nullptr, outer.span);
    return forLoop(r, intImm(0), intImm(L->localSize), ForKind::Unrolled, body, {{"thread_loop", true}}, outer.span);
}

}  // namespace ts::xform::lower
