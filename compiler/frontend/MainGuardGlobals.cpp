#include "compiler/frontend/MainGuardGlobals.h"

#include <set>

#include "compiler/frontend/AstNames.h"
#include "compiler/frontend/Module.h"

namespace ts::fe {

namespace {

// Every name a statement binds, at any depth (assignment targets, loop variables, with-as
// names, defs): what the main block may leave behind as a module global.
void boundNames(const ast::Stmt* s, std::vector<std::string>& out) {
    auto block = [&](const ast::Block& b) {
        for (const ast::Stmt* x : b) boundNames(x, out);
    };
    if (auto a = ast::as<ast::Assign>(s))
        for (const ast::Expr* t : a->targets) collectNames(t, out);
    if (auto a = ast::as<ast::AnnAssign>(s)) collectNames(a->target, out);
    if (auto a = ast::as<ast::AugAssign>(s)) collectNames(a->target, out);
    if (auto f = ast::as<ast::FunctionDef>(s)) out.push_back(f->name);
    if (auto x = ast::as<ast::If>(s)) {
        block(x->body);
        block(x->orelse);
    }
    if (auto x = ast::as<ast::For>(s)) {
        collectNames(x->target, out);
        block(x->body);
        block(x->orelse);
    }
    if (auto x = ast::as<ast::While>(s)) {
        block(x->body);
        block(x->orelse);
    }
    if (auto x = ast::as<ast::With>(s)) {
        for (const auto& item : x->items) collectNames(item.target, out);
        block(x->body);
    }
    if (auto t = ast::as<ast::Try>(s)) {
        block(t->body);
        for (const auto& h : t->handlers) block(h.body);
        block(t->orelse);
        block(t->finalbody);
    }
}

// A value the script computes at run time (a torch tensor, parsed arguments, a compiled
// kernel): it exists, so `x is None` is False, but its contents are not known at compile time.
Value hostValue(const std::string& name, int line) {
    auto ns = std::make_shared<NamespaceObj>();
    ns->name = "host value '" + name + "'";
    ns->opaque = true;
    ns->opaqueReason = "'" + name + "' is a run-time value the file's __main__ block assigns (line " +
                       std::to_string(line) +
                       "); only its presence (`is None` / `is not None`) is known at compile time";
    return Value::ns(ns);
}

}  // namespace

void bindMainGuardGlobals(Interp& in, const ast::Module& mod, const EnvPtr& globals) {
    if (!globals || !globals->siblingFile.empty()) return;  // an imported module: no main block
    auto scratch = std::make_shared<Env>();
    scratch->parent = globals;
    for (const ast::Stmt* guard : mod.body) {
        if (!isMainGuard(guard)) continue;
        for (const ast::Stmt* s : ast::as<ast::If>(guard)->body) {
            std::vector<std::string> names;
            boundNames(s, names);
            if (names.empty()) continue;
            auto a = ast::as<ast::Assign>(s);
            bool done = false;
            if (a && isSimpleMetaExpr(a->value)) {
                try {
                    in.exec(*s, scratch);
                    done = true;
                } catch (const CompileError&) {
                }
            }
            if (!done)
                for (const auto& n : names) scratch->vars[n] = hostValue(n, s->span.line);
        }
    }
    for (auto& [name, value] : scratch->vars)
        if (!globals->vars.count(name)) globals->vars[name] = value;
}

}  // namespace ts::fe
