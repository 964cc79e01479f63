#include "compiler/ir/Verifier.h"

#include <set>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::ir {
namespace {

/// A block-wide barrier: T.sync_threads() without arguments. (A named barrier with a thread
/// count, T.sync_threads(id, count), is meant for a subset of the threads.)
bool isBarrier(const EvalNode& e) {
    auto* c = as<CallNode>(e.call);
    return c && c->op == intrin::kSyncThreads && c->args.empty();
}

class Checker {
public:
    Checker(const PrimFuncNode& f, const VerifyFacts& facts)
        : m_func(f), m_facts(facts), m_flat(attrBool(f.attrs, "flattened", false)) {}
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
                if (n->extent && isFloat(n->extent->dtype)) problem("loop '" + n->var->name + "' has a float extent");
                if (n->min && isFloat(n->min->dtype)) problem("loop '" + n->var->name + "' has a float start");
                if (isFloat(n->var->dtype)) problem("loop variable '" + n->var->name + "' is a float");
                if (n->forKind == ForKind::Parallel && m_facts.tileOpsLowered)
                    problem("T.Parallel loop '" + n->var->name + "' survived lower-tile-ops");
                // A loop whose bounds read the thread index runs a different count per thread.
                // (A barrier the user put inside T.Parallel is a user error, reported by
                // check-bounds before any lowering.)
                const bool divergent = threadDependent(n->min) || threadDependent(n->extent);
                m_divergent += divergent;
                m_bound.insert(n->var.get());
                stmt(n->body);
                m_bound.erase(n->var.get());
                m_divergent -= divergent;
                break;
            }
            case StmtKind::If: {
                auto* n = static_cast<const IfNode*>(s.get());
                expr(n->cond);
                if (n->cond && isFloat(n->cond->dtype)) problem("'if' condition is a float");
                // The logical element of a guarded T.Parallel store (StoreCheck): never flattened.
                if (n->check && n->check.indices.size() != n->check.buffer->rank())
                    problem("store check of '" + n->check.buffer->name + "' with " +
                            std::to_string(n->check.indices.size()) + " indices (expected " +
                            std::to_string(n->check.buffer->rank()) + ")");
                for (auto& i : n->check.indices) expr(i);
                const bool divergent = threadDependent(n->cond);
                m_divergent += divergent;
                stmt(n->then);
                if (n->otherwise) stmt(n->otherwise);
                m_divergent -= divergent;
                break;
            }
            case StmtKind::Store: {
                auto* n = static_cast<const StoreNode*>(s.get());
                if (!n->buffer) return problem("store without a buffer");
                access(*n->buffer, n->indices);
                expr(n->value);
                if (n->value && n->value->dtype != n->buffer->dtype)
                    problem("store of a " + std::string(dtypeName(n->value->dtype)) + " value into '" +
                            n->buffer->name + "' of dtype " + std::string(dtypeName(n->buffer->dtype)) +
                            " without a cast");
                break;
            }
            case StmtKind::Alloc: {
                auto* a = static_cast<const AllocNode*>(s.get());
                if (!a->buffer) return problem("allocation without a buffer");
                if (a->init) expr(a->init);
                if (m_facts.layoutsInferred && a->buffer->scope == Scope::Fragment &&
                    !m_func.layouts.count(a->buffer->name))
                    problem("fragment '" + a->buffer->name + "' has no layout after layout inference");
                break;
            }
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
                if (m_facts.tileOpsLowered)
                    problem("tile op T." + std::string(tileOpName(n->op)) + " survived lower-tile-ops");
                for (auto& a : n->args) {
                    if (auto* r = std::get_if<Region>(&a)) {
                        if (!r->buffer) {
                            problem("region without a buffer");
                            continue;
                        }
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
            case StmtKind::Eval: {
                auto* n = static_cast<const EvalNode*>(s.get());
                expr(n->call);
                if (isBarrier(*n) && m_divergent > 0)
                    problem("T.sync_threads() at line " + std::to_string(n->span.line) +
                            " is in thread-dependent control flow (not every thread of the block reaches it)");
                break;
            }
        }
    }

private:
    void problem(const std::string& p) { problems.push_back(p); }

    /// Reads a thread index (threads may disagree on it).
    bool threadDependent(const Expr& e) const {
        bool found = false;
        if (e)
            walkExpr(e, [&](const Expr& x) {
                if (auto* v = as<VarNode>(x); v && v->tag == VarTag::ThreadIdx) found = true;
            });
        return found;
    }

    void access(const BufferNode& b, const std::vector<Expr>& idx) {
        size_t n = idx.size(), want = m_flat ? 1 : b.rank();
        if (n != want && !(m_flat && n == b.rank()))
            problem("access to '" + b.name + "' with " + std::to_string(n) + " indices (expected " + std::to_string(want) + ")");
        for (auto& i : idx) {
            if (!i) continue;  // reported by expr()
            if (isFloat(i->dtype)) problem("index of '" + b.name + "' is a float (" + toString(i) + ")");
            expr(i);
        }
    }

    void types(const Expr& x) {
        if (auto* b = as<BinaryNode>(x)) {
            if (!b->a || !b->b) return problem("binary operator with a null operand");
            if (isComparison(b->op)) {
                if (b->dtype != DType::Bool) problem("comparison '" + toString(x) + "' does not yield bool");
                return;
            }
            if (b->op == BinOp::And || b->op == BinOp::Or) return;
            if (isFloat(b->a->dtype) != isFloat(b->b->dtype))
                problem("operands of '" + toString(x) + "' mix " + std::string(dtypeName(b->a->dtype)) + " and " +
                        std::string(dtypeName(b->b->dtype)) + " without a cast");
            else if (isFloat(b->dtype) != isFloat(b->a->dtype))
                problem("'" + toString(x) + "' has dtype " + std::string(dtypeName(b->dtype)) + " but operands of dtype " +
                        std::string(dtypeName(b->a->dtype)));
        } else if (auto* s = as<SelectNode>(x)) {
            if (s->cond && isFloat(s->cond->dtype)) problem("condition of '" + toString(x) + "' is a float");
        }
    }

    void expr(const Expr& e) {
        if (!e) return problem("null expression");
        walkExpr(e, [&](const Expr& x) {
            if (!x) return problem("null expression");
            if (auto* v = as<VarNode>(x); v && !m_bound.count(v)) problem("variable '" + v->name + "' is used outside its scope");
            if (x->kind != ExprKind::Load) types(x);
            else if (auto* l = as<LoadNode>(x); l && l->buffer) {
                // Indices are walked by walkExpr itself; check only the rank and index types here.
                size_t n = l->indices.size(), want = m_flat ? 1 : l->buffer->rank();
                if (n != want && !(m_flat && n == l->buffer->rank()))
                    problem("access to '" + l->buffer->name + "' with " + std::to_string(n) + " indices (expected " +
                            std::to_string(want) + ")");
                for (auto& i : l->indices)
                    if (i && isFloat(i->dtype)) problem("index of '" + l->buffer->name + "' is a float (" + toString(i) + ")");
            } else {
                problem("load without a buffer");
            }
        });
    }

    const PrimFuncNode& m_func;
    VerifyFacts m_facts;
    bool m_flat;
    int m_divergent = 0;
    std::set<const VarNode*> m_bound;
};

}  // namespace

std::vector<std::string> verify(const PrimFunc& f, const VerifyFacts& facts) {
    if (!f) return {"null function"};
    Checker c(*f, facts);
    for (auto& v : f->scalars) c.bindArgument(v.get());
    c.stmt(f->body);
    return c.problems;
}

}  // namespace ts::ir
