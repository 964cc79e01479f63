// See WarpRoles.h.
#include "compiler/transforms/WarpRoles.h"

#include "compiler/transforms/BlockUniform.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

constexpr int64_t kWarp = 32;

/// Value of `e` with every thread-index variable equal to `tx`; nullopt when it reads anything
/// else (a loop variable, a buffer, a block index).
std::optional<int64_t> evalAt(const Expr& e, int64_t tx) {
    if (!e) return std::nullopt;
    switch (e->kind) {
        case ExprKind::IntImm:
            return static_cast<const IntImmNode*>(e.get())->value;
        case ExprKind::Var: {
            auto* v = static_cast<const VarNode*>(e.get());
            if (v->tag == VarTag::ThreadIdx && v->axis == 0) return tx;
            return std::nullopt;
        }
        case ExprKind::Cast:
            return ir::isInt(e->dtype) || e->dtype == DType::Bool
                       ? evalAt(static_cast<const CastNode*>(e.get())->value, tx)
                       : std::nullopt;
        case ExprKind::Unary: {
            auto* u = static_cast<const UnaryNode*>(e.get());
            auto a = evalAt(u->a, tx);
            if (!a) return std::nullopt;
            if (u->op == UnOp::Not) return int64_t(*a == 0);
            if (u->op == UnOp::Neg) return -*a;
            return ~*a;
        }
        case ExprKind::Binary: {
            auto* b = static_cast<const BinaryNode*>(e.get());
            auto x = evalAt(b->a, tx);
            if (!x) return std::nullopt;
            auto y = evalAt(b->b, tx);
            if (!y) return std::nullopt;
            if (b->op == BinOp::And) return int64_t(*x && *y);
            if (b->op == BinOp::Or) return int64_t(*x || *y);
            return foldInt(b->op, *x, *y);
        }
        case ExprKind::Select: {
            auto* s = static_cast<const SelectNode*>(e.get());
            auto c = evalAt(s->cond, tx);
            if (!c) return std::nullopt;
            return evalAt(*c ? s->t : s->f, tx);
        }
        default:
            return std::nullopt;
    }
}

void collect(const Stmt& s, const WarpRole& role, bool inRole, bool underOther,
             std::unordered_map<const StmtNode*, WarpRole>& out) {
    if (!s) return;
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) collect(c, role, inRole, underOther, out);
            return;
        case StmtKind::For: {
            auto* f = static_cast<const ForNode*>(s.get());
            if (f->forKind == ForKind::Parallel) {
                if (inRole && !underOther) out[s.get()] = role;
                return;
            }
            return collect(f->body, role, inRole, underOther, out);
        }
        case StmtKind::If: {
            auto* i = static_cast<const IfNode*>(s.get());
            if (!underOther && mentionsThread(i->cond)) {
                if (auto r = warpRoleOf(i->cond, role)) {
                    collect(i->then, *r, true, false, out);
                    // The else branch is the rest of the enclosing role (elseRoleOf).
                    auto rest = elseRoleOf(*r, role);
                    if (i->otherwise) collect(i->otherwise, rest.value_or(role), true, !rest, out);
                    return;
                }
                collect(i->then, role, inRole, true, out);
                collect(i->otherwise, role, inRole, true, out);
                return;
            }
            collect(i->then, role, inRole, underOther, out);
            collect(i->otherwise, role, inRole, underOther, out);
            return;
        }
        case StmtKind::Kernel:
            return collect(static_cast<const KernelNode*>(s.get())->body, role, inRole, underOther, out);
        case StmtKind::TileOp:
            if (inRole && !underOther) out[s.get()] = role;
            return;
        default:
            return;
    }
}

}  // namespace

std::optional<WarpRole> warpRoleOf(const Expr& cond, const WarpRole& outer) {
    if (!cond || !mentionsThread(cond) || outer.count <= 0 || outer.count > (1 << 16)) return std::nullopt;
    int64_t first = -1, last = -1;
    for (int64_t t = outer.first; t < outer.first + outer.count; ++t) {
        auto v = evalAt(cond, t);
        if (!v) return std::nullopt;
        if (!*v) continue;
        if (first < 0) first = t;
        else if (last != t - 1) return std::nullopt;  // a second range
        last = t;
    }
    if (first < 0) return std::nullopt;
    const int64_t count = last - first + 1;
    if (first % kWarp || count % kWarp) return std::nullopt;
    return WarpRole{first, count};
}

std::optional<WarpRole> elseRoleOf(const WarpRole& r, const WarpRole& outer) {
    const bool atStart = r.first == outer.first, atEnd = r.first + r.count == outer.first + outer.count;
    WarpRole rest{atStart ? r.first + r.count : outer.first, outer.count - r.count};
    if (!(atStart || atEnd) || rest.count <= 0) return std::nullopt;
    return rest;
}

std::unordered_map<const StmtNode*, WarpRole> warpRolesOf(const Stmt& body, const WarpRole& block) {
    std::unordered_map<const StmtNode*, WarpRole> out;
    collect(body, block, false, false, out);
    return out;
}

}  // namespace ts::xform
