#include "compiler/frontend/AutotuneDrivers.h"

#include <functional>
#include <vector>

#include "compiler/frontend/AstNames.h"

namespace ts::fe {

namespace {

// Every statement of `b`, nested bodies and nested defs included.
void walk(const ast::Block& b, const std::function<void(const ast::Stmt*)>& fn) {
    for (const ast::Stmt* s : b) {
        fn(s);
        if (auto x = ast::as<ast::FunctionDef>(s)) walk(x->body, fn);
        if (auto x = ast::as<ast::If>(s)) walk(x->body, fn), walk(x->orelse, fn);
        if (auto x = ast::as<ast::For>(s)) walk(x->body, fn), walk(x->orelse, fn);
        if (auto x = ast::as<ast::While>(s)) walk(x->body, fn);
        if (auto x = ast::as<ast::With>(s)) walk(x->body, fn);
        if (auto x = ast::as<ast::Try>(s)) {
            walk(x->body, fn);
            for (const auto& h : x->handlers) walk(h.body, fn);
            walk(x->orelse, fn);
        }
    }
}

// Every call expression in `f`'s body (nested ones too), in source order.
void forEachCall(const ast::FunctionDef& f, const std::function<void(const ast::Call&)>& fn) {
    std::function<void(const ast::Expr*)> visit = [&](const ast::Expr* e) {
        if (!e) return;
        if (auto c = ast::as<ast::Call>(e)) fn(*c);
        ast::forEachChild(e, visit);
    };
    walk(f.body, [&](const ast::Stmt* st) { ast::forEachExpr(st, visit); });
}

bool isFromKernel(const ast::Call& c) {
    const std::string name = dottedName(c.func);
    return name.size() > 12 && name.ends_with(".from_kernel");
}

// `f` returns a value itself (a `return <expr>` not in a nested def).
bool returnsValue(const ast::FunctionDef& f) {
    bool found = false;
    std::function<void(const ast::Block&)> scan = [&](const ast::Block& b) {
        for (const ast::Stmt* st : b) {
            if (auto r = ast::as<ast::Return>(st); r && r->value) found = true;
            if (auto x = ast::as<ast::If>(st)) scan(x->body), scan(x->orelse);
            if (auto x = ast::as<ast::For>(st)) scan(x->body);
            if (auto x = ast::as<ast::While>(st)) scan(x->body);
            if (auto x = ast::as<ast::With>(st)) scan(x->body);
            if (auto x = ast::as<ast::Try>(st)) scan(x->body);
        }
    };
    scan(f.body);
    return found;
}

}  // namespace

TunerSite tunerSiteOf(const ast::FunctionDef& f) {
    TunerSite site;
    forEachCall(f, [&](const ast::Call& c) {
        if (site.fromKernel || !isFromKernel(c)) return;
        site.fromKernel = &c;
        const ast::Expr* kernel = c.args.empty() ? nullptr : c.args[0];
        for (const auto& k : c.keywords)
            if (k.name == "kernel") kernel = k.value;
        if (auto n = ast::as<ast::Name>(kernel)) site.kernelText = n->id;
        if (auto call = ast::as<ast::Call>(kernel); call && !dottedName(call->func).empty())
            site.kernelText = dottedName(call->func) + "()";
    });
    site.runs = site.fromKernel && callsRun(f);
    return site;
}

bool callsRun(const ast::FunctionDef& f) {
    bool found = false;
    forEachCall(f, [&](const ast::Call& c) {
        if (auto a = ast::as<ast::Attribute>(c.func); a && a->attr == "run") found = true;
    });
    return found;
}

const ast::FunctionDef* autoTunerBuilder(const ast::Module& mod, const ast::FunctionDef& f) {
    if (!returnsValue(f)) return nullptr;
    if (tunerSiteOf(f).fromKernel) return &f;
    const ast::FunctionDef* builder = nullptr;
    forEachCall(f, [&](const ast::Call& c) {
        auto n = ast::as<ast::Name>(c.func);
        if (builder || !n) return;
        for (const ast::Stmt* s : mod.body)
            if (auto g = ast::as<ast::FunctionDef>(s);
                g && g != &f && g->name == n->id && tunerSiteOf(*g).fromKernel)
                builder = g;
    });
    return builder;
}

}  // namespace ts::fe
