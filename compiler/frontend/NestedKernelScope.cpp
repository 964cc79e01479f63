// The scope of a kernel defined inside a module-level function (Module.h, nestedKernelScope).
#include "compiler/frontend/Module.h"

#include <map>

#include "compiler/frontend/AstNames.h"
#include "compiler/frontend/MetaEval.h"

namespace ts::fe {

namespace {

/// Every binding of a name in `body` (not inside nested defs, whose own names are bound by the
/// def statement): name -> the statements that bind it, in source order.
void bindings(const ast::Block& body, std::map<std::string, std::vector<const ast::Stmt*>>& out) {
    for (const ast::Stmt* s : body) {
        std::vector<std::string> names;
        if (auto a = ast::as<ast::Assign>(s))
            for (const ast::Expr* t : a->targets) collectNames(t, names);
        if (auto a = ast::as<ast::AnnAssign>(s); a && a->value) collectNames(a->target, names);
        if (auto a = ast::as<ast::AugAssign>(s)) collectNames(a->target, names);
        if (auto f = ast::as<ast::FunctionDef>(s)) names.push_back(f->name);
        if (auto f = ast::as<ast::For>(s)) {
            collectNames(f->target, names);
            bindings(f->body, out), bindings(f->orelse, out);
        }
        if (auto i = ast::as<ast::If>(s)) bindings(i->body, out), bindings(i->orelse, out);
        if (auto w = ast::as<ast::While>(s)) bindings(w->body, out), bindings(w->orelse, out);
        if (auto w = ast::as<ast::With>(s)) {
            for (const auto& it : w->items) collectNames(it.target, names);
            bindings(w->body, out);
        }
        if (auto t = ast::as<ast::Try>(s)) {
            bindings(t->body, out), bindings(t->orelse, out), bindings(t->finalbody, out);
            for (const auto& h : t->handlers) bindings(h.body, out);
        }
        for (const auto& n : names) out[n].push_back(s);
    }
}

}  // namespace

EnvPtr nestedKernelScope(Interp& in, const EnvPtr& globals, const KernelEntry& e) {
    auto env = std::make_shared<Env>();
    env->parent = globals;
    if (!e.enclosing) return env;
    const ast::FunctionDef& fn = *e.enclosing;
    // A name the enclosing function binds more than once, in a branch or loop, after the kernel's
    // def, or from anything but a simple expression has the value Python's closure would see at
    // the call, which TileScope does not compute: it is poison (an error naming the line at its
    // use), never the module-level variable of the same name (helper-125: `factor = helper()`
    // compiled the module's `factor`).
    std::map<std::string, std::vector<const ast::Stmt*>> bound;
    bindings(fn.body, bound);
    auto unknown = [&](const std::string& name, Span at, const std::string& why) {
        env->vars[name] = Value::poison(Diagnostic{
            Severity::Error, at,
            "'" + name + "', a local of " + fn.name + "() (line " + std::to_string(at.line) + "), " + why +
                ": TileScope does not evaluate it for the kernel '" + e.name() + "'",
            "give the kernel the value another way: a module-level constant, a parameter default, or --param", "elaborate"});
    };
    for (const auto& p : fn.params) {
        if (bound.count(p.name)) continue;
        if (!p.defaultValue) {
            unknown(p.name, p.span, "is a parameter without a default");
            continue;
        }
        try {
            env->vars[p.name] = in.eval(*p.defaultValue, globals);
        } catch (const CompileError&) {
            unknown(p.name, p.span, "has a default");
        }
    }
    std::map<const ast::Stmt*, bool> topLevel;
    bool beforeDef = true;
    for (const ast::Stmt* s : fn.body) {
        topLevel[s] = beforeDef;
        if (s == e.func) beforeDef = false;
    }
    for (const auto& entry : bound) {
        // Not a structured binding: clang 14 (the fuzz build) cannot capture one in the lambda.
        const auto& name = entry.first;
        const auto& stmts = entry.second;
        if (name == e.func->name) continue;
        const ast::Stmt* s = stmts.front();
        const bool simple = [&] {
            if (stmts.size() != 1 || !topLevel.count(s) || !topLevel.at(s)) return false;
            if (ast::as<ast::FunctionDef>(s)) return true;
            const ast::Expr* value = nullptr;
            if (auto a = ast::as<ast::Assign>(s)) value = a->value;
            if (auto a = ast::as<ast::AnnAssign>(s)) value = a->value;
            return value && isSimpleMetaExpr(value);
        }();
        if (!simple)
            unknown(name, s->span,
                    stmts.size() > 1 ? "is assigned more than once"
                    : !topLevel.count(s) ? "is assigned in a branch, loop or with block"
                    : !topLevel.at(s)    ? "is assigned after the kernel's def"
                                         : "is assigned from an expression that is not a simple one");
    }
    for (const ast::Stmt* s : fn.body) {
        if (s == e.func) {
            // The kernel's own def without its decorators (a @tilelang.jit(pass_configs={...}) whose
            // keys the meta level cannot evaluate must not lose the kernel); defaults that fail
            // are the parameters' own errors.
            try {
                env->vars[e.func->name] = in.makeFunction(*e.func, env);
            } catch (const CompileError&) {
            }
            break;
        }
        // The simple bindings before the def, in order (a poisoned name stays poisoned).
        std::vector<std::string> names;
        if (auto a = ast::as<ast::Assign>(s))
            for (const ast::Expr* t : a->targets) collectNames(t, names);
        if (auto a = ast::as<ast::AnnAssign>(s); a && a->value) collectNames(a->target, names);
        if (auto f = ast::as<ast::FunctionDef>(s)) names.push_back(f->name);
        if (names.empty()) continue;
        bool skip = false;
        for (const auto& n : names)
            if (auto it = env->vars.find(n); it != env->vars.end() && it->second.is(ValueKind::Poison)) skip = true;
        if (skip) continue;
        try {
            in.exec(*s, env);
        } catch (const CompileError& err) {
            for (const auto& n : names) unknown(n, s->span, "could not be evaluated (" + err.diag.message + ")");
        }
    }
    return env;
}

}  // namespace ts::fe
