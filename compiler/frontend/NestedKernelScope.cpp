// The scope of a kernel defined inside a module-level function (Module.h, nestedKernelScope).
#include "compiler/frontend/Module.h"

#include "compiler/frontend/MetaEval.h"

namespace ts::fe {

EnvPtr nestedKernelScope(Interp& in, const EnvPtr& globals, const KernelEntry& e) {
    auto env = std::make_shared<Env>();
    env->parent = globals;
    if (!e.enclosing) return env;
    for (const auto& p : e.enclosing->params)
        if (p.defaultValue) try {
                env->vars[p.name] = in.eval(*p.defaultValue, globals);
            } catch (const CompileError&) {
            }
    for (const ast::Stmt* s : e.enclosing->body) {
        const ast::Expr* value = nullptr;
        if (auto a = ast::as<ast::Assign>(s)) value = a->value;
        if (auto a = ast::as<ast::AnnAssign>(s)) value = a->value;
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
        const bool def = ast::as<ast::FunctionDef>(s) != nullptr;
        if (!def && !(value && isSimpleMetaExpr(value))) continue;
        try {
            in.exec(*s, env);
        } catch (const CompileError&) {
        }
    }
    return env;
}

}  // namespace ts::fe
