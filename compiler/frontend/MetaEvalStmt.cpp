// Meta-evaluator statements: control flow, assignment targets, imports, and the default
// (meta-level) implementations of the statement hooks the elaborator overrides.
#include "compiler/frontend/MetaEval.h"

namespace ts::fe {

/// MetaEval.cpp: why TileScope cannot model module `dotted`, as ": reason" (else "").
std::string unsupportedModuleNote(const std::string& dotted);

Flow Interp::execBlock(const ast::Block& b, const EnvPtr& env) {
    for (const ast::Stmt* s : b) {
        Flow f;
        try {
            f = exec(*s, env);
        } catch (CompileError& e) {
            // An error raised without a location (a limit of metaEquals() in list.index, a
            // dict lookup...) is reported at the innermost statement that ran into it.
            if (!e.diag.span.valid()) e.diag.span = s->span;
            throw;
        }
        if (f != Flow::Normal) return f;
    }
    return Flow::Normal;
}

Flow Interp::exec(const ast::Stmt& s, const EnvPtr& env) {
    using K = ast::StmtKind;
    step(s.span);
    switch (s.kind) {
        case K::FunctionDef:
            return execFunctionDef(static_cast<const ast::FunctionDef&>(s), env);
        case K::ClassDef: {
            const auto& c = static_cast<const ast::ClassDef&>(s);
            bindName(env, c.name,
                     Value::poison(Diagnostic{Severity::Error,
                                              c.nameSpan,
                                              "classes are not supported at compile time",
                                              {},
                                              "meta"}));
            return Flow::Normal;
        }
        case K::Return:
            return execReturn(static_cast<const ast::Return&>(s), env);
        case K::Assign:
            return execAssign(static_cast<const ast::Assign&>(s), env);
        case K::AugAssign:
            return execAugAssign(static_cast<const ast::AugAssign&>(s), env);
        case K::AnnAssign:
            return execAnnAssign(static_cast<const ast::AnnAssign&>(s), env);
        case K::If:
            return execIf(static_cast<const ast::If&>(s), env);
        case K::For:
            return execFor(static_cast<const ast::For&>(s), env);
        case K::While:
            return execWhile(static_cast<const ast::While&>(s), env);
        case K::With:
            return execWith(static_cast<const ast::With&>(s), env);
        case K::ExprStmt:
            return execExprStmt(static_cast<const ast::ExprStmt&>(s), env);
        case K::Pass:
            return Flow::Normal;
        case K::Break:
            return Flow::Break;
        case K::Continue:
            return Flow::Continue;
        case K::Import:
        case K::ImportFrom:
            execImport(s, env);
            return Flow::Normal;
        case K::Assert: {
            const auto& a = static_cast<const ast::Assert&>(s);
            if (!truthy(eval(*a.test, env), a.test->span)) {
                std::string msg = a.msg ? str(eval(*a.msg, env)) : "";
                throw CompileError(
                    a.test->span, "assertion failed" + (msg.empty() ? "" : ": " + msg),
                    "the assert is evaluated at compile time with the current parameter values");
            }
            return Flow::Normal;
        }
        case K::Global:
            for (const auto& n : static_cast<const ast::Global&>(s).names) env->globals.insert(n);
            return Flow::Normal;
        case K::Nonlocal:
            for (const auto& n : static_cast<const ast::Nonlocal&>(s).names)
                env->nonlocals.insert(n);
            return Flow::Normal;
        case K::Try:
            m_diags.warning(Span{s.span.line, s.span.col, s.span.line, s.span.col + 3},
                            "'try' statement skipped at compile time",
                            "exceptions are not modelled by the meta-evaluator", "meta");
            return Flow::Normal;
        case K::Del: {
            for (const ast::Expr* t : static_cast<const ast::Del&>(s).targets) {
                if (auto n = ast::as<ast::Name>(t)) {
                    if (!env->vars.erase(n->id))
                        throw CompileError(t->span, "name '" + n->id + "' is not defined");
                } else if (auto sub = ast::as<ast::Subscript>(t)) {
                    Value obj = eval(*sub->value, env);
                    Value idx = eval(*sub->index, env);
                    if (obj.is(ValueKind::Dict)) {
                        if (!obj.dictObj().erase(idx))
                            throw CompileError(t->span, "key " + repr(idx) + " not found");
                    } else if (obj.is(ValueKind::List) && idx.isIntLike()) {
                        auto& items = obj.mutableItems();
                        int64_t i = idx.asInt() < 0
                                        ? idx.asInt() + static_cast<int64_t>(items.size())
                                        : idx.asInt();
                        if (i < 0 || i >= static_cast<int64_t>(items.size()))
                            throw CompileError(t->span, "list index out of range");
                        items.erase(items.begin() + i);
                    } else {
                        throw CompileError(t->span, "cannot delete items of " + typeName(obj));
                    }
                } else {
                    throw CompileError(t->span, "unsupported 'del' target at compile time");
                }
            }
            return Flow::Normal;
        }
        case K::Raise: {
            const auto& r = static_cast<const ast::Raise&>(s);
            std::string msg = r.exc ? str(eval(*r.exc, env)) : "exception re-raised";
            throw CompileError(r.span, msg, "raised by the program at compile time");
        }
    }
    return Flow::Normal;
}

Flow Interp::execFunctionDef(const ast::FunctionDef& s, const EnvPtr& env) {
    Value f = makeFunction(s, env);
    // Decorators apply bottom-up: @a @b def f  ==  a(b(f)).
    for (auto it = s.decorators.rbegin(); it != s.decorators.rend(); ++it) {
        Value d = eval(**it, env);
        step((*it)->span, kDecoratorSteps);  // the application: a call with its argument lists
        CallArgs a;
        a.pos.push_back(f);
        a.posSpans.push_back(s.nameSpan);
        a.span = (*it)->span;
        a.callee = "decorator";
        f = call(d, a);
    }
    bindName(env, s.name, f);
    return Flow::Normal;
}

Flow Interp::execReturn(const ast::Return& s, const EnvPtr& env) {
    m_returnValue = s.value ? eval(*s.value, env) : Value::none();
    return Flow::Return;
}

Flow Interp::execAssign(const ast::Assign& s, const EnvPtr& env) {
    Value v = eval(*s.value, env);
    for (const ast::Expr* t : s.targets) assign(*t, v, env);
    return Flow::Normal;
}

Flow Interp::execAugAssign(const ast::AugAssign& s, const EnvPtr& env) {
    Value rhs = eval(*s.value, env);
    auto combine = [&](const Value& cur) {
        // `lst += other` extends in place (aliases see it), like Python's list.__iadd__.
        if (cur.is(ValueKind::List) && s.op == ast::BinOpKind::Add && rhs.isSequence()) {
            auto add = iterate(rhs, s.value->span);
            cur.mutableItems().insert(cur.mutableItems().end(), add.begin(), add.end());
            return cur;
        }
        return binaryOp(s.op, cur, rhs, s.span);
    };
    if (auto n = ast::as<ast::Name>(s.target)) {
        bindName(env, n->id, combine(lookupName(n->id, env, n->span)));
    } else if (auto sub = ast::as<ast::Subscript>(s.target)) {
        Value obj = eval(*sub->value, env);
        Value idx = evalSubscriptIndex(*sub->index, env);
        setItem(obj, idx, combine(getItem(obj, idx, s.target->span)), s.target->span);
    } else if (auto a = ast::as<ast::Attribute>(s.target)) {
        Value obj = eval(*a->value, env);
        Value nv = combine(getAttr(obj, a->attr, a->attrSpan));
        if (!obj.is(ValueKind::Ext) || !obj.extObj().setAttr(*this, a->attr, nv, s.target->span))
            throw CompileError(s.target->span,
                               "cannot set attribute '" + a->attr + "' of " + typeName(obj));
    }
    return Flow::Normal;
}

Flow Interp::execAnnAssign(const ast::AnnAssign& s, const EnvPtr& env) {
    if (s.value) assign(*s.target, eval(*s.value, env), env);
    return Flow::Normal;
}

Flow Interp::execExprStmt(const ast::ExprStmt& s, const EnvPtr& env) {
    eval(*s.value, env);
    return Flow::Normal;
}

Flow Interp::execIf(const ast::If& s, const EnvPtr& env) {
    if (truthy(eval(*s.test, env), s.test->span)) return execBlock(s.body, env);
    return execBlock(s.orelse, env);
}

namespace {
/// The step limit hit inside a loop is reported at the innermost loop that was running (its
/// condition or iterable), not at whichever statement of its body took the last step: an endless
/// `while t > 1:` in a factory reads as that loop's error (found by fuzz_meta). `steps` is bumped
/// once more (still above the limit, as Module.cpp checks) to mark the error as placed, so outer
/// loops pass it on unchanged.
[[noreturn]] void rethrowAtLoop(const CompileError& e, uint64_t& steps, uint64_t maxSteps,
                                Span head, const char* kind) {
    if (steps != maxSteps + 1) throw;  // called in the handler: rethrows e unchanged
    ++steps;
    throw CompileError(head, e.diag.message + " in this '" + kind + "' loop", e.diag.hint);
}
}  // namespace

Flow Interp::execFor(const ast::For& s, const EnvPtr& env) {
    try {
        Value it = eval(*s.iter, env);
        Flow result = Flow::Normal;
        bool broke = false;
        forEach(it, s.iter->span, [&](const Value& v) {
            assign(*s.target, v, env);
            Flow f = execBlock(s.body, env);
            if (f == Flow::Break) {
                broke = true;
                return false;
            }
            if (f == Flow::Return) {
                result = Flow::Return;
                return false;
            }
            return true;
        });
        if (result == Flow::Return) return result;
        if (!broke) return execBlock(s.orelse, env);
        return Flow::Normal;
    } catch (const CompileError& e) {
        rethrowAtLoop(e, m_steps, m_limits.maxSteps, s.iter->span, "for");
    }
}

Flow Interp::execWhile(const ast::While& s, const EnvPtr& env) {
    try {
        while (truthy(eval(*s.test, env), s.test->span)) {
            step(s.span);
            Flow f = execBlock(s.body, env);
            if (f == Flow::Break) return Flow::Normal;
            if (f == Flow::Return) return f;
        }
    } catch (const CompileError& e) {
        rethrowAtLoop(e, m_steps, m_limits.maxSteps, s.test->span, "while");
    }
    return execBlock(s.orelse, env);
}

Flow Interp::execWith(const ast::With& s, const EnvPtr& env) {
    throw CompileError(s.items.empty() ? s.span : s.items[0].context->span,
                       "'with' is only supported inside a kernel body (T.Kernel, T.ws, ...)");
}

Value Interp::dynamicBoolOp(ast::BoolOpKind op, const Value& a, const Value& b, Span s) {
    throw CompileError(
        s,
        std::string("'") + ast::spelling(op) + "' needs a value known at compile time, got " +
            typeName(a),
        "inside a kernel, combine run-time conditions with '&' and '|' or T.And/T.Or");
}

Value Interp::dynamicIfExp(const Value& cond, const Value& a, const Value& b, Span s) {
    throw CompileError(s, "the condition of 'a if c else b' is known only at run time",
                       "use T.if_then_else(c, a, b) for run-time conditions");
}

Value Interp::callDType(ir::DType t, CallArgs& args) {
    args.expectPositional(1, 1);
    const Value& v = args.pos[0];
    if (!v.isNumber())
        throw CompileError(args.argSpan(0),
                           std::string(ir::dtypeName(t)) + "() needs a number, got " + typeName(v));
    if (t == ir::DType::Bool) return Value::boolean(truthy(v, args.span));
    if (ir::isFloat(t)) return Value::real(v.asFloat());
    if (v.is(ValueKind::Float)) return Value::integer(static_cast<int64_t>(v.asFloat()));
    return Value::integer(v.asInt());
}

void Interp::bindName(const EnvPtr& env, const std::string& name, Value v) {
    if (env->globals.count(name)) {
        env->moduleEnv()->vars[name] = std::move(v);
        return;
    }
    if (env->nonlocals.count(name)) {
        for (Env* e = env->parent.get(); e && !e->isModule; e = e->parent.get())
            if (Value* slot = e->findLocal(name)) {
                *slot = std::move(v);
                return;
            }
    }
    env->vars[name] = std::move(v);
}

void Interp::assign(const ast::Expr& target, const Value& v, const EnvPtr& env) {
    using K = ast::ExprKind;
    switch (target.kind) {
        case K::Name:
            bindName(env, static_cast<const ast::Name&>(target).id, v);
            return;
        case K::Tuple:
        case K::List: {
            const auto& elts = static_cast<const ast::Sequence&>(target).elts;
            std::vector<Value> items = iterate(v, target.span);
            size_t star = elts.size();
            for (size_t i = 0; i < elts.size(); ++i)
                if (elts[i]->kind == K::Starred) star = i;
            if (star == elts.size()) {
                if (items.size() != elts.size())
                    throw CompileError(target.span,
                                       items.size() > elts.size()
                                           ? "too many values to unpack (expected " +
                                                 std::to_string(elts.size()) + ", got " +
                                                 std::to_string(items.size()) + ")"
                                           : "not enough values to unpack (expected " +
                                                 std::to_string(elts.size()) + ", got " +
                                                 std::to_string(items.size()) + ")");
                for (size_t i = 0; i < elts.size(); ++i) assign(*elts[i], items[i], env);
                return;
            }
            size_t after = elts.size() - star - 1;
            if (items.size() < star + after)
                throw CompileError(target.span, "not enough values to unpack (expected at least " +
                                                    std::to_string(star + after) + ", got " +
                                                    std::to_string(items.size()) + ")");
            for (size_t i = 0; i < star; ++i) assign(*elts[i], items[i], env);
            std::vector<Value> rest(items.begin() + static_cast<long>(star),
                                    items.end() - static_cast<long>(after));
            assign(*static_cast<const ast::Starred*>(elts[star])->value,
                   Value::list(std::move(rest)), env);
            for (size_t i = 0; i < after; ++i)
                assign(*elts[star + 1 + i], items[items.size() - after + i], env);
            return;
        }
        case K::Subscript: {
            const auto& sub = static_cast<const ast::Subscript&>(target);
            Value obj = eval(*sub.value, env);
            setItem(obj, evalSubscriptIndex(*sub.index, env), v, target.span);
            return;
        }
        case K::Attribute: {
            const auto& a = static_cast<const ast::Attribute&>(target);
            Value obj = eval(*a.value, env);
            if (obj.is(ValueKind::Ext) && obj.extObj().setAttr(*this, a.attr, v, target.span))
                return;
            throw CompileError(target.span, "cannot set attribute '" + a.attr + "' of " +
                                                typeName(obj) + " at compile time");
        }
        default:
            throw CompileError(target.span, "cannot assign to this expression");
    }
}

void Interp::execImport(const ast::Stmt& s, const EnvPtr& env) {
    if (auto imp = ast::as<ast::Import>(&s)) {
        for (const auto& a : imp->names) {
            auto mod = resolveModule(a.name);
            if (!a.asname.empty()) {
                bindName(env, a.asname, Value::ns(mod));
            } else {
                std::string root = a.name.substr(0, a.name.find('.'));
                bindName(env, root, Value::ns(resolveModule(root)));
            }
        }
        return;
    }
    const auto& from = static_cast<const ast::ImportFrom&>(s);
    // A relative import inside a sibling package (SiblingModules.cpp) names a module of it.
    std::string relative;
    if (from.level > 0) {
        const Env* me = env->moduleEnv();
        std::string pkg = me ? me->siblingPackage : std::string();
        for (int up = 1; up < from.level && !pkg.empty(); ++up) {
            size_t dot = pkg.rfind('.');
            pkg = dot == std::string::npos ? std::string() : pkg.substr(0, dot);
        }
        if (!pkg.empty()) relative = from.module.empty() ? pkg : pkg + "." + from.module;
    }
    const std::string& modName = relative.empty() ? from.module : relative;
    for (const auto& a : from.names) {
        const std::string& bound = a.asname.empty() ? a.name : a.asname;
        if (from.level > 0 && relative.empty()) {
            bindName(env, bound,
                     Value::poison(Diagnostic{Severity::Error,
                                              a.span,
                                              "relative imports are not available at compile time",
                                              {},
                                              "meta"}));
            continue;
        }
        auto mod = resolveModule(modName);
        if (a.name == "*") {
            for (const auto& [k, v] : mod->members) bindName(env, k, v);
            continue;
        }
        if (Value* v = mod->find(a.name)) {
            if (v->is(ValueKind::Poison) && !mod->siblingFile.empty()) {
                // A sibling's value that failed there: reported at this import (its own span
                // is a line of the sibling file).
                Diagnostic d = v->poisonObj().diag;
                d.message = "in " + mod->siblingFile +
                            (d.span.valid() ? ", line " + std::to_string(d.span.line) : "") +
                            ": " + d.message;
                d.span = a.span;
                bindName(env, bound, Value::poison(std::move(d)));
                continue;
            }
            bindName(env, bound, *v);
        } else if (auto sub = module(modName + "." + a.name)) {
            bindName(env, bound, Value::ns(sub));
        } else if (auto sub = loadSibling(modName + "." + a.name)) {  // from . import lop3
            bindName(env, bound, Value::ns(sub));
        } else {
            std::string msg =
                mod->opaque
                    ? "'" + a.name + "' (from " + modName + ") is not available at compile time" + unsupportedModuleNote(modName)
                    : "module '" + modName + "' has no attribute '" + a.name + "'";
            std::vector<std::string> names;
            for (const auto& [k, _] : mod->members) names.push_back(k);
            std::string near = mod->opaque ? "" : closestMatch(a.name, names);
            bindName(env, bound,
                     Value::poison(Diagnostic{Severity::Error, a.span, msg,
                                              near.empty() ? "" : "did you mean '" + near + "'?",
                                              "meta"}));
        }
    }
}

}  // namespace ts::fe
