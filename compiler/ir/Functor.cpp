#include "compiler/ir/Functor.h"

#include "compiler/ir/NonNegative.h"

namespace ts::ir {

Expr Mutator::mutate(const Expr& e) {
    if (!e) return e;
    switch (e->kind) {
        case ExprKind::Binary: return visitBinary(static_cast<const BinaryNode*>(e.get()), e);
        case ExprKind::Unary: return visitUnary(static_cast<const UnaryNode*>(e.get()), e);
        case ExprKind::Select: return visitSelect(static_cast<const SelectNode*>(e.get()), e);
        case ExprKind::Call: return visitCall(static_cast<const CallNode*>(e.get()), e);
        case ExprKind::Load: return visitLoad(static_cast<const LoadNode*>(e.get()), e);
        case ExprKind::Cast: return visitCast(static_cast<const CastNode*>(e.get()), e);
        case ExprKind::Var: return visitVar(static_cast<const VarNode*>(e.get()), e);
        default: return e;
    }
}

bool Mutator::mutateList(const std::vector<Expr>& in, std::vector<Expr>& out) {
    bool changed = false;
    out.clear();
    out.reserve(in.size());
    for (auto& x : in) {
        out.push_back(mutate(x));
        changed |= out.back() != x;
    }
    return changed;
}

Expr Mutator::visitBinary(const BinaryNode* n, const Expr& self) {
    Expr a = mutate(n->a), b = mutate(n->b);
    if (a == n->a && b == n->b) return self;
    return binary(n->op, a, b, n->span);
}
Expr Mutator::visitUnary(const UnaryNode* n, const Expr& self) {
    Expr a = mutate(n->a);
    return a == n->a ? self : unary(n->op, a, n->span);
}
Expr Mutator::visitSelect(const SelectNode* n, const Expr& self) {
    Expr c = mutate(n->cond), t = mutate(n->t), f = mutate(n->f);
    if (c == n->cond && t == n->t && f == n->f) return self;
    return select(c, t, f, n->span);
}
Expr Mutator::visitCall(const CallNode* n, const Expr& self) {
    std::vector<Expr> args;
    if (!mutateList(n->args, args)) return self;
    return call(n->op, std::move(args), n->dtype, n->span);
}
Expr Mutator::visitLoad(const LoadNode* n, const Expr& self) {
    std::vector<Expr> idx;
    if (!mutateList(n->indices, idx)) return self;
    return std::make_shared<LoadNode>(n->buffer, std::move(idx), n->dtype, n->span);
}
Expr Mutator::visitCast(const CastNode* n, const Expr& self) {
    Expr v = mutate(n->value);
    return v == n->value ? self : cast(n->dtype, v, n->span);
}

Stmt Mutator::mutate(const Stmt& s) {
    if (!s) return s;
    switch (s->kind) {
        case StmtKind::Seq: return visitSeq(static_cast<const SeqNode*>(s.get()), s);
        case StmtKind::For: return visitFor(static_cast<const ForNode*>(s.get()), s);
        case StmtKind::If: return visitIf(static_cast<const IfNode*>(s.get()), s);
        case StmtKind::Store: return visitStore(static_cast<const StoreNode*>(s.get()), s);
        case StmtKind::Alloc: return visitAlloc(static_cast<const AllocNode*>(s.get()), s);
        case StmtKind::Kernel: return visitKernel(static_cast<const KernelNode*>(s.get()), s);
        case StmtKind::TileOp: return visitTileOp(static_cast<const TileOpNode*>(s.get()), s);
        case StmtKind::Eval: return visitEval(static_cast<const EvalNode*>(s.get()), s);
    }
    return s;
}

Stmt Mutator::visitSeq(const SeqNode* n, const Stmt& self) {
    std::vector<Stmt> out;
    bool changed = false;
    for (auto& st : n->stmts) {
        Stmt m = mutate(st);
        changed |= m != st;
        if (m) out.push_back(std::move(m));
    }
    if (!changed) return self;
    if (out.empty()) return nullptr;
    return seq(std::move(out), n->span);
}
Stmt Mutator::visitFor(const ForNode* n, const Stmt& self) {
    Expr mn = mutate(n->min), ext = mutate(n->extent);
    Stmt body = mutate(n->body);
    if (mn == n->min && ext == n->extent && body == n->body) return self;
    if (!body) return nullptr;
    return forLoop(n->var, mn, ext, n->forKind, body, n->attrs, n->span);
}
Stmt Mutator::visitIf(const IfNode* n, const Stmt& self) {
    Expr c = mutate(n->cond);
    StoreCheck chk = n->check;
    bool chkChanged = n->check && mutateList(n->check.indices, chk.indices);
    Stmt t = mutate(n->then), e = mutate(n->otherwise);
    if (c == n->cond && !chkChanged && t == n->then && e == n->otherwise) return self;
    if (!t && !e) return nullptr;
    if (!t) return ifThen(unary(UnOp::Not, c), e, nullptr, n->span);
    return ifLike(*n, c, t, e, std::move(chk));
}
Stmt Mutator::visitStore(const StoreNode* n, const Stmt& self) {
    std::vector<Expr> idx;
    bool ch = mutateList(n->indices, idx);
    Expr v = mutate(n->value);
    if (!ch && v == n->value) return self;
    return store(n->buffer, std::move(idx), v, n->span);
}
Stmt Mutator::visitKernel(const KernelNode* n, const Stmt& self) {
    std::vector<Expr> grid;
    bool ch = mutateList(n->grid, grid);
    Stmt body = mutate(n->body);
    if (!ch && body == n->body) return self;
    return std::make_shared<KernelNode>(grid, n->threads, n->blockVars, n->threadVars, body, n->span);
}
Region Mutator::mutateRegion(const Region& r) {
    Region out = r;
    for (auto& rg : out.ranges) {
        rg.min = mutate(rg.min);
        rg.extent = mutate(rg.extent);
    }
    return out;
}
Stmt Mutator::visitTileOp(const TileOpNode* n, const Stmt& self) {
    std::vector<TileArg> args;
    bool changed = false;
    for (auto& a : n->args) {
        if (auto* r = std::get_if<Region>(&a)) {
            Region m = mutateRegion(*r);
            for (size_t i = 0; i < m.ranges.size(); ++i)
                changed |= m.ranges[i].min != r->ranges[i].min || m.ranges[i].extent != r->ranges[i].extent;
            args.emplace_back(std::move(m));
        } else {
            Expr e = mutate(std::get<Expr>(a));
            changed |= e != std::get<Expr>(a);
            args.emplace_back(e);
        }
    }
    if (!changed) return self;
    return std::make_shared<TileOpNode>(n->op, std::move(args), n->attrs, n->span);
}
Stmt Mutator::visitEval(const EvalNode* n, const Stmt& self) {
    Expr c = mutate(n->call);
    return c == n->call ? self : evaluate(c, n->span);
}

void walkExpr(const Expr& e, const std::function<void(const Expr&)>& f) {
    if (!e) return;
    f(e);
    switch (e->kind) {
        case ExprKind::Binary: {
            auto* n = static_cast<const BinaryNode*>(e.get());
            walkExpr(n->a, f), walkExpr(n->b, f);
            break;
        }
        case ExprKind::Unary: walkExpr(static_cast<const UnaryNode*>(e.get())->a, f); break;
        case ExprKind::Select: {
            auto* n = static_cast<const SelectNode*>(e.get());
            walkExpr(n->cond, f), walkExpr(n->t, f), walkExpr(n->f, f);
            break;
        }
        case ExprKind::Call:
            for (auto& a : static_cast<const CallNode*>(e.get())->args) walkExpr(a, f);
            break;
        case ExprKind::Load:
            for (auto& a : static_cast<const LoadNode*>(e.get())->indices) walkExpr(a, f);
            break;
        case ExprKind::Cast: walkExpr(static_cast<const CastNode*>(e.get())->value, f); break;
        default: break;
    }
}

void walk(const Stmt& s, const std::function<void(const Stmt&)>& onStmt, const std::function<void(const Expr&)>& onExpr) {
    if (!s) return;
    if (onStmt) onStmt(s);
    auto ex = [&](const Expr& e) {
        if (onExpr) walkExpr(e, onExpr);
    };
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) walk(c, onStmt, onExpr);
            break;
        case StmtKind::For: {
            auto* n = static_cast<const ForNode*>(s.get());
            ex(n->min), ex(n->extent);
            walk(n->body, onStmt, onExpr);
            break;
        }
        case StmtKind::If: {
            auto* n = static_cast<const IfNode*>(s.get());
            ex(n->cond);
            walk(n->then, onStmt, onExpr), walk(n->otherwise, onStmt, onExpr);
            break;
        }
        case StmtKind::Store: {
            auto* n = static_cast<const StoreNode*>(s.get());
            for (auto& i : n->indices) ex(i);
            ex(n->value);
            break;
        }
        case StmtKind::Alloc: ex(static_cast<const AllocNode*>(s.get())->init); break;
        case StmtKind::Kernel: {
            auto* n = static_cast<const KernelNode*>(s.get());
            for (auto& g : n->grid) ex(g);
            walk(n->body, onStmt, onExpr);
            break;
        }
        case StmtKind::TileOp:
            for (auto& a : static_cast<const TileOpNode*>(s.get())->args) {
                if (auto* r = std::get_if<Region>(&a)) {
                    for (auto& rg : r->ranges) ex(rg.min), ex(rg.extent);
                } else ex(std::get<Expr>(a));
            }
            break;
        case StmtKind::Eval: ex(static_cast<const EvalNode*>(s.get())->call); break;
    }
}

namespace {
class DropFoldedStoreChecks : public Mutator {
protected:
    Stmt visitIf(const IfNode* n, const Stmt& self) override {
        if (auto c = constInt(n->cond); c && !*c && n->check && !n->otherwise) return nullptr;
        return Mutator::visitIf(n, self);
    }
    Stmt visitKernel(const KernelNode* n, const Stmt& self) override {
        Stmt out = Mutator::visitKernel(n, self);
        if (auto* k = as<KernelNode>(out); k && !k->body)
            return std::make_shared<KernelNode>(k->grid, k->threads, k->blockVars, k->threadVars, seq({}, n->span), n->span);
        return out;
    }
};
}  // namespace

PrimFunc withoutFoldedStoreChecks(const PrimFunc& f) {
    bool any = false;
    walk(f->body, [&](const Stmt& s) {
        if (auto* i = as<IfNode>(s); i && i->check)
            if (auto c = constInt(i->cond); c && !*c) any = true;
    });
    if (!any) return f;
    Stmt body = DropFoldedStoreChecks().mutate(f->body);
    return withBody(f, body ? body : seq({}, f->body->span));
}

namespace {
class Substituter : public Mutator {
public:
    explicit Substituter(const std::unordered_map<const VarNode*, Expr>& m) : m_map(m) {}

protected:
    Expr visitVar(const VarNode* n, const Expr& self) override {
        auto it = m_map.find(n);
        return it == m_map.end() ? self : it->second;
    }

private:
    const std::unordered_map<const VarNode*, Expr>& m_map;
};
}  // namespace

Expr substitute(const Expr& e, const std::unordered_map<const VarNode*, Expr>& map) {
    Substituter s(map);
    return s.mutate(e);
}
Stmt substitute(const Stmt& st, const std::unordered_map<const VarNode*, Expr>& map) {
    Substituter s(map);
    return s.mutate(st);
}

PrimFunc withBody(const PrimFunc& f, Stmt body) {
    if (body == f->body) return f;
    auto n = std::make_shared<PrimFuncNode>(*f);
    n->body = std::move(body);
    return n;
}

std::vector<std::pair<int, int>> scalarSources(const PrimFuncNode& f) {
    std::vector<std::pair<int, int>> out;
    for (const auto& v : f.scalars) {
        std::pair<int, int> src{-1, -1};
        for (size_t i = 0; i < f.params.size() && src.first < 0; ++i)
            for (size_t d = 0; d < f.params[i]->shape.size(); ++d)
                if (f.params[i]->shape[d].get() == v.get()) {
                    src = {static_cast<int>(i), static_cast<int>(d)};
                    break;
                }
        out.push_back(src);
    }
    return out;
}

std::unordered_set<const VarNode*> signedScalars(const PrimFuncNode& f) {
    std::unordered_set<const VarNode*> out;
    auto src = scalarSources(f);
    for (size_t i = 0; i < f.scalars.size(); ++i)
        if (src[i].first < 0) out.insert(f.scalars[i].get());
    // A loop variable is as signed as its start: `T.serial(-1, 3)`, `T.serial(lo, 3)` with a scalar
    // argument lo, or `T.serial(k, 3)` nested in such a k (fresh-user helper, 2026-12-04: taken as
    // >= 0, floor division printed as C's `/`, bounds guards lost their `>= 0` half and a TMA store
    // was chosen for a box starting at column -64). Until nothing changes, so the order in which
    // nested loops are visited does not matter.
    for (bool changed = true; changed;) {
        changed = false;
        walk(f.body, [&](const Stmt& s) {
            if (auto* l = as<ForNode>(s); l && !out.count(l->var.get()) && !nonNegativeByForm(l->min, &out)) {
                out.insert(l->var.get());
                changed = true;
            }
        });
    }
    return out;
}

const KernelNode* findKernel(const PrimFunc& f) {
    const KernelNode* k = nullptr;
    walk(f->body, [&](const Stmt& s) {
        if (!k) k = as<KernelNode>(s);
    });
    return k;
}

}  // namespace ts::ir
