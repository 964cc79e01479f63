// handWrittenWarpRoles (HopperWarpRoles.h): the warp roles of a hand-written warp-specialized
// kernel, from its thread-index conditions.
#include "compiler/analysis/HopperWarpRoles.h"

#include <algorithm>
#include <map>
#include <optional>

#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"

namespace ts::analysis {
using namespace ts::ir;

namespace {

/// Value of `e` with the thread index `tx` bound to `v` (nullopt when it reads anything else).
std::optional<int64_t> evalAtThread(const Expr& e, const VarNode* tx, int64_t v) {
    if (!e) return std::nullopt;
    switch (e->kind) {
        case ExprKind::IntImm: return as<IntImmNode>(e)->value;
        case ExprKind::Var:
            if (e.get() == tx) return v;
            return std::nullopt;
        case ExprKind::Binary: {
            auto* b = static_cast<const BinaryNode*>(e.get());
            auto x = evalAtThread(b->a, tx, v), y = evalAtThread(b->b, tx, v);
            if (!x || !y) return std::nullopt;
            if (b->op == BinOp::And) return int64_t(*x && *y);
            if (b->op == BinOp::Or) return int64_t(*x || *y);
            return foldInt(b->op, *x, *y);
        }
        case ExprKind::Unary: {
            auto* u = static_cast<const UnaryNode*>(e.get());
            auto x = evalAtThread(u->a, tx, v);
            if (!x) return std::nullopt;
            if (u->op == UnOp::Neg) return -*x;
            if (u->op == UnOp::Not) return int64_t(!*x);
            return ~*x;
        }
        default: return std::nullopt;
    }
}


}  // namespace

/// Warp roles of a hand-written warp-specialized kernel (T.ws, explicit `if tx >= 128` splits):
/// the ifs whose condition reads only the thread index and is uniform over each warpgroup
/// (the same at its first and last thread) partition the warpgroups by their outcomes; each
/// class is one role, represented by its first warpgroup's thread 0. One class: no roles.
std::vector<WarpRole> handWrittenWarpRoles(const KernelNode& kn, int64_t T) {
    if (kn.threadVars.empty() || T % 128 != 0 || T <= 128) return {};
    const VarNode* tx = kn.threadVars[0].get();
    std::vector<Expr> conds;
    walk(kn.body, [&](const Stmt& st) {
        if (auto* i = as<IfNode>(st)) conds.push_back(i->cond);
    });
    const int64_t G = T / 128;
    std::vector<Expr> uniform;
    for (auto& c : conds) {
        bool ok = true, varies = false;
        std::optional<int64_t> first;
        for (int64_t g = 0; g < G && ok; ++g) {
            auto a = evalAtThread(c, tx, 128 * g), b = evalAtThread(c, tx, 128 * g + 127);
            ok = a && b && (*a != 0) == (*b != 0);
            if (ok && first && (*first != 0) != (*a != 0)) varies = true;
            if (ok && !first) first = a;
        }
        if (ok && varies) uniform.push_back(c);
    }
    if (uniform.empty()) return {};
    std::map<std::vector<bool>, std::vector<int64_t>> classes;
    for (int64_t g = 0; g < G; ++g) {
        std::vector<bool> sig;
        for (auto& c : uniform) sig.push_back(*evalAtThread(c, tx, 128 * g) != 0);
        classes[sig].push_back(g);
    }
    if (classes.size() < 2) return {};
    std::vector<WarpRole> roles;
    for (auto& [sig, gs] : classes) {
        std::string name = gs.size() == 1 ? "warpgroup " : "warpgroups ";
        for (size_t i = 0; i < gs.size(); ++i) name += (i ? "," : "") + std::to_string(gs[i]);
        name += " (threads " + std::to_string(128 * gs.front()) + "..)";
        roles.push_back({name, 128 * gs.front(), int64_t(128 * gs.size())});
    }
    std::sort(roles.begin(), roles.end(), [](const WarpRole& a, const WarpRole& b) { return a.tx < b.tx; });
    return roles;
}

}  // namespace ts::analysis
