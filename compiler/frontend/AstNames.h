// Small syntactic helpers shared by the file-level analyses (Module.cpp, KernelCallSite.cpp).
#pragma once
#include <string>
#include <vector>

#include "compiler/frontend/Ast.h"

namespace ts::fe {

/// `a.b.c` for a Name/Attribute chain; "" for anything else (a call, a subscript).
inline std::string dottedName(const ast::Expr* e) {
    if (auto n = ast::as<ast::Name>(e)) return n->id;
    if (auto a = ast::as<ast::Attribute>(e)) {
        std::string base = dottedName(a->value);
        return base.empty() ? "" : base + "." + a->attr;
    }
    return "";
}

/// `if __name__ == "__main__":` (any comparison of __name__).
inline bool isMainGuard(const ast::Stmt* s) {
    auto i = ast::as<ast::If>(s);
    if (!i) return false;
    auto c = ast::as<ast::Compare>(i->test);
    return c && ast::as<ast::Name>(c->left) && ast::as<ast::Name>(c->left)->id == "__name__";
}

/// The names an assignment target binds: `a`, `a, (b, *c)`, `[a, b]` (not attributes or
/// subscripts, which bind no name).
inline void collectNames(const ast::Expr* t, std::vector<std::string>& out) {
    if (auto n = ast::as<ast::Name>(t))
        out.push_back(n->id);
    else if (auto s = ast::as<ast::Starred>(t))
        collectNames(s->value, out);
    else if (t && (t->kind == ast::ExprKind::Tuple || t->kind == ast::ExprKind::List))
        for (const ast::Expr* x : static_cast<const ast::Sequence*>(t)->elts) collectNames(x, out);
}

}  // namespace ts::fe
