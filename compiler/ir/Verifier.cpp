#include "compiler/ir/Verifier.h"

#include <set>

#include "compiler/ir/IR.h"

namespace ts::ir {
namespace {

class Checker {
public:
    explicit Checker(const PrimFuncNode& f) : m_flat(attrBool(f.attrs, "flattened", false)) {}
    std::vector<std::string> problems;
    /// A scalar kernel argument: in scope everywhere.
    void bindArgument(const VarNode* v) { m_bound.insert(v); }

    void stmt(const Stmt& s) {
        if (!s) return problem("null statement");
        switch (s->kind) {
            case StmtKind::Seq:
                for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) stmt(c);
                break;
            case StmtKind::For: {
                auto* n = static_cast<const ForNode*>(s.get());
                expr(n->min), expr(n->extent);
                if (isFloat(n->extent->dtype)) problem("loop '" + n->var->name + "' has a float extent");
                m_bound.insert(n->var.get());
                stmt(n->body);
                m_bound.erase(n->var.get());
                break;
            }
            case StmtKind::If: {
                auto* n = static_cast<const IfNode*>(s.get());
                expr(n->cond);
                stmt(n->then);
                if (n->otherwise) stmt(n->otherwise);
                break;
            }
            case StmtKind::Store: {
                auto* n = static_cast<const StoreNode*>(s.get());
                access(*n->buffer, n->indices.size());
                for (auto& i : n->indices) expr(i);
                expr(n->value);
                break;
            }
            case StmtKind::Alloc:
                if (auto* a = static_cast<const AllocNode*>(s.get()); a->init) expr(a->init);
                break;
            case StmtKind::Kernel: {
                auto* n = static_cast<const KernelNode*>(s.get());
                for (auto& g : n->grid) expr(g);
                for (auto& v : n->blockVars) m_bound.insert(v.get());
                for (auto& v : n->threadVars) m_bound.insert(v.get());
                stmt(n->body);
                break;
            }
            case StmtKind::TileOp: {
                auto* n = static_cast<const TileOpNode*>(s.get());
                for (auto& a : n->args) {
                    if (auto* r = std::get_if<Region>(&a)) {
                        if (r->ranges.size() != r->buffer->rank())
                            problem("region of '" + r->buffer->name + "' has " + std::to_string(r->ranges.size()) +
                                    " ranges for a rank-" + std::to_string(r->buffer->rank()) + " buffer");
                        for (auto& rg : r->ranges) expr(rg.min), expr(rg.extent);
                    } else {
                        expr(std::get<Expr>(a));
                    }
                }
                break;
            }
            case StmtKind::Eval: expr(static_cast<const EvalNode*>(s.get())->call); break;
        }
    }

private:
    void problem(const std::string& p) { problems.push_back(p); }
    void access(const BufferNode& b, size_t n) {
        size_t want = m_flat ? 1 : b.rank();
        if (n != want && !(m_flat && n == b.rank()))
            problem("access to '" + b.name + "' with " + std::to_string(n) + " indices (expected " + std::to_string(want) + ")");
    }
    void expr(const Expr& e) {
        if (!e) return problem("null expression");
        walkExpr(e, [&](const Expr& x) {
            if (auto* v = as<VarNode>(x); v && !m_bound.count(v)) problem("variable '" + v->name + "' is used outside its scope");
            if (auto* l = as<LoadNode>(x)) access(*l->buffer, l->indices.size());
        });
    }

    bool m_flat;
    std::set<const VarNode*> m_bound;
};

}  // namespace

std::vector<std::string> verify(const PrimFunc& f) {
    Checker c(*f);
    for (auto& v : f->scalars) c.bindArgument(v.get());
    c.stmt(f->body);
    return c.problems;
}

}  // namespace ts::ir
