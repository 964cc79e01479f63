// Meta-evaluator core: environments, modules, expression evaluation, calls and comprehensions.
// Statements are in MetaEvalStmt.cpp, operators in MetaOps.cpp, builtins in MetaBuiltins.cpp.
#include "compiler/frontend/MetaEval.h"

#include <algorithm>

#include "compiler/frontend/MetaGc.h"

namespace ts::fe {


Interp::Interp(DiagnosticEngine& diags) : m_diags(diags) {
    m_builtins = std::make_shared<Env>();
    installBuiltins();
    installModules();
}

Interp::~Interp() {
    // Closures reference their defining scope, which usually holds the function itself: a
    // shared_ptr cycle. Clearing the scopes we created breaks it.
    for (auto& w : m_closureEnvs)
        if (auto e = w.lock()) e->vars.clear();
    // Lists/tuples/dicts that contain themselves (`a.append(a)`): freed once unreachable.
    collectCycles();
}

void Interp::registerClosure(const EnvPtr& env) {
    // Each scope once: a `def` in a loop registers the same scope every iteration, and the list
    // (swept of expired scopes whenever it has doubled) grew by one entry per `def` -- with a
    // sweep every 1024 entries, quadratic (a quarter of the CPU time of a factory's endless
    // `while` loop defining a function under ASan, fuzz_meta, issue 14).
    if (env->closureOwner == this) return;
    env->closureOwner = this;
    if (m_closureEnvs.size() >= m_closureSweepAt) {
        std::erase_if(m_closureEnvs, [](const std::weak_ptr<Env>& w) { return w.expired(); });
        m_closureSweepAt = std::max<size_t>(1024, 2 * m_closureEnvs.size());
    }
    m_closureEnvs.push_back(env);
}

EnvPtr Interp::newModuleEnv() {
    auto env = std::make_shared<Env>();
    env->parent = m_builtins;
    env->isModule = true;
    env->vars["__name__"] = Value::str("__tilescope__");
    registerClosure(env);
    return env;
}

std::shared_ptr<NamespaceObj> Interp::module(const std::string& dotted) const {
    auto it = m_modules.find(dotted);
    return it == m_modules.end() ? nullptr : it->second;
}

std::shared_ptr<NamespaceObj> Interp::registerModule(const std::string& dotted) {
    if (auto m = module(dotted)) return m;
    auto ns = std::make_shared<NamespaceObj>();
    ns->name = dotted;
    m_modules[dotted] = ns;
    size_t dot = dotted.rfind('.');
    if (dot != std::string::npos)
        registerModule(dotted.substr(0, dot))->set(dotted.substr(dot + 1), Value::ns(ns));
    return ns;
}

/// Why TileScope cannot model module `dotted` when it knows (TileLang's hand-written tensor-core
/// macro emitters, BitBLAS's tvm.tl), as ": reason" to append to "is not available"; else "".
std::string unsupportedModuleNote(const std::string& dotted) {
    auto has = [&](const char* part) { return dotted.find(part) != std::string::npos; };
    // TileLang's (and BitBLAS's) hand-written tensor-core emitters build ldmatrix / mma.sync
    // TIR macros from Python classes (TensorCoreIntrinEmitter, INT4TensorCoreIntrinEmitter) over
    // TVM's TIR builder: a second kernel language below T.*, which TileScope does not model.
    if (has("mma_macro_generator") || has("intrinsics.macro") || has("intrinsics.layout"))
        return ": TileLang's hand-written tensor-core macro emitters (ldmatrix/mma.sync TIR "
               "builders) are not supported; TileScope lowers T.gemm to those instructions itself";
    if (dotted == "tvm.tl" || dotted.rfind("tvm.tl.", 0) == 0 || dotted == "bitblas" ||
        dotted.rfind("bitblas.", 0) == 0)
        return ": BitBLAS's TVM fork (tvm.tl) is not TileLang; TileScope reads programs written "
               "with tilelang.language";
    return "";
}

std::shared_ptr<NamespaceObj> Interp::resolveModule(const std::string& dotted) {
    if (auto m = module(dotted)) return m;
    if (auto m = loadSibling(dotted)) return m;
    // An import we do not model (numpy, argparse, tilelang.profiler...): fine to import, an
    // error only if the kernel's meta code actually uses it.
    auto ns = registerModule(dotted);
    ns->opaque = true;
    ns->opaqueReason = "module '" + dotted + "' is not available at compile time" + unsupportedModuleNote(dotted);
    return ns;
}


void Interp::step(Span s, uint64_t cost) {
    if (m_steps + cost <= m_limits.maxSteps) {
        m_steps += cost;
        return;
    }
    // Exactly one over: rethrowAtLoop (MetaEvalStmt.cpp) recognises an error not yet placed at
    // its loop by that count, whatever the cost of the step that crossed the limit.
    m_steps = m_limits.maxSteps + 1;
    throw CompileError(
        s, "compile-time evaluation exceeded " + std::to_string(m_limits.maxSteps) + " steps",
        "check the meta-level Python code for an endless loop or recursion");
}

Value Interp::lookupName(const std::string& name, const EnvPtr& env, Span s) {
    Value* v = env->lookup(name);
    if (!v) {
        std::vector<std::string> visible;
        for (Env* e = env.get(); e; e = e->parent.get())
            for (const auto& [k, _] : e->vars) visible.push_back(k);
        std::string near = closestMatch(name, visible);
        throw CompileError(s, "name '" + name + "' is not defined",
                           near.empty() ? "define it before this line, or pass it as a parameter"
                                        : "did you mean '" + near + "'?");
    }
    if (v->is(ValueKind::Poison)) {
        const Diagnostic& d = v->poisonObj().diag;
        std::string where = d.span.valid() ? " (line " + std::to_string(d.span.line) + ")" : "";
        throw CompileError(s, "'" + name + "' could not be evaluated" + where + ": " + d.message,
                           d.hint);
    }
    return *v;
}

namespace {
std::string calleeText(const ast::Expr* e) {
    if (auto n = ast::as<ast::Name>(e)) return n->id;
    if (auto a = ast::as<ast::Attribute>(e)) return calleeText(a->value) + "." + a->attr;
    return "<expression>";
}
}  // namespace

Value Interp::eval(const ast::Expr& e, const EnvPtr& env) {
    using K = ast::ExprKind;
    step(e.span);  // every expression node is work (MetaLimits::maxSteps)
    switch (e.kind) {
        case K::Name:
            return lookupName(static_cast<const ast::Name&>(e).id, env, e.span);
        case K::Constant: {
            const auto& c = static_cast<const ast::Constant&>(e);
            switch (c.type) {
                case ast::Constant::Type::None:
                    return Value::none();
                case ast::Constant::Type::Bool:
                    return Value::boolean(c.boolValue);
                case ast::Constant::Type::Int:
                    return Value::integer(c.intValue);
                case ast::Constant::Type::Float:
                    return Value::real(c.floatValue);
                case ast::Constant::Type::Ellipsis:
                    return evalEllipsis(e.span);
                case ast::Constant::Type::Imaginary:
                    throw CompileError(e.span, "complex numbers are not supported");
            }
            return Value::none();
        }
        case K::Str: {
            const auto& s = static_cast<const ast::Str&>(e);
            if (s.isFString && !s.isBytes) return evalFString(s.value, e.span, env);
            return Value::str(s.value);
        }
        case K::Attribute: {
            const auto& a = static_cast<const ast::Attribute&>(e);
            return getAttr(eval(*a.value, env), a.attr, e.span);
        }
        case K::Subscript: {
            const auto& sub = static_cast<const ast::Subscript&>(e);
            Value obj = eval(*sub.value, env);
            return getItem(obj, evalSubscriptIndex(*sub.index, env), e.span);
        }
        case K::Slice:
            return evalSubscriptIndex(e, env);
        case K::Call:
            return evalCall(static_cast<const ast::Call&>(e), env);
        case K::BinOp: {
            const auto& b = static_cast<const ast::BinOp&>(e);
            Value l = eval(*b.left, env);
            Value r = eval(*b.right, env);
            return binaryOp(b.op, l, r, e.span);
        }
        case K::UnaryOp: {
            const auto& u = static_cast<const ast::UnaryOp&>(e);
            return unaryOp(u.op, eval(*u.operand, env), e.span);
        }
        case K::BoolOp:
            return evalBoolOp(static_cast<const ast::BoolOp&>(e), env);
        case K::Compare:
            return evalCompare(static_cast<const ast::Compare&>(e), env);
        case K::IfExp: {
            const auto& i = static_cast<const ast::IfExp&>(e);
            Value c = eval(*i.test, env);
            if (auto t = truthOrDynamic(c, i.test->span))
                return eval(*(*t ? i.body : i.orelse), env);
            Value a = eval(*i.body, env);
            Value b = eval(*i.orelse, env);
            return dynamicIfExp(c, a, b, e.span);
        }
        case K::Lambda:
            return makeLambda(static_cast<const ast::Lambda&>(e), env);
        case K::Tuple:
        case K::List: {
            std::vector<Value> items;
            for (const ast::Expr* x : static_cast<const ast::Sequence&>(e).elts) {
                if (auto st = ast::as<ast::Starred>(x)) {
                    for (auto& v : iterate(eval(*st->value, env), x->span))
                        items.push_back(std::move(v));
                } else {
                    items.push_back(eval(*x, env));
                }
            }
            return e.kind == K::Tuple ? Value::tuple(std::move(items))
                                      : Value::list(std::move(items));
        }
        case K::Set:
        case K::SetComp:
            throw CompileError(e.span, "sets are not supported at compile time",
                               "use a list or a tuple");
        case K::Dict: {
            const auto& d = static_cast<const ast::Dict&>(e);
            Value out = Value::dict();
            for (size_t i = 0; i < d.keys.size(); ++i) {
                if (!d.keys[i]) {
                    Value other = eval(*d.values[i], env);
                    if (!other.is(ValueKind::Dict))
                        throw CompileError(d.values[i]->span,
                                           "'**' needs a dict, got " + typeName(other));
                    for (auto& [k, v] : other.dictObj().entries) out.dictObj().set(k, v);
                    continue;
                }
                Value k = eval(*d.keys[i], env);
                if (k.is(ValueKind::List) || k.is(ValueKind::Dict))
                    throw CompileError(d.keys[i]->span, "unhashable type: '" + typeName(k) + "'");
                out.dictObj().set(k, eval(*d.values[i], env));
            }
            return out;
        }
        case K::ListComp:
        case K::GeneratorExp:
        case K::DictComp:
            return evalComprehension(e, env);
        case K::Starred:
            throw CompileError(
                e.span,
                "a starred expression is only allowed in calls, displays and assignment targets");
        case K::NamedExpr: {
            const auto& n = static_cast<const ast::NamedExpr&>(e);
            Value v = eval(*n.value, env);
            bindName(env, static_cast<const ast::Name*>(n.target)->id, v);
            return v;
        }
        case K::Yield:
        case K::Await:
            throw CompileError(e.span, std::string("'") + (e.kind == K::Yield ? "yield" : "await") +
                                           "' is not supported at compile time");
    }
    return Value::none();
}

Value Interp::evalSubscriptIndex(const ast::Expr& index, const EnvPtr& env) {
    if (auto s = ast::as<ast::Slice>(&index)) {
        auto part = [&](const ast::Expr* x) { return x ? eval(*x, env) : Value::none(); };
        Value lo = part(s->lower), hi = part(s->upper), st = part(s->step);
        return Value::slice(lo, hi, st);
    }
    if (auto t = ast::as<ast::Tuple>(&index); t && !t->parenthesized) {
        std::vector<Value> items;
        for (const ast::Expr* x : t->elts) {
            if (auto st = ast::as<ast::Starred>(x)) {
                for (auto& v : iterate(eval(*st->value, env), x->span))
                    items.push_back(std::move(v));
            } else {
                items.push_back(evalSubscriptIndex(*x, env));
            }
        }
        return Value::tuple(std::move(items));
    }
    return eval(index, env);
}

Value Interp::evalBoolOp(const ast::BoolOp& b, const EnvPtr& env) {
    Value v = eval(*b.values[0], env);
    for (size_t i = 1; i < b.values.size(); ++i) {
        auto t = truthOrDynamic(v, b.values[i - 1]->span);
        if (!t) {
            Value rest = eval(*b.values[i], env);
            v = dynamicBoolOp(b.op, v, rest, b.span);
            continue;
        }
        if ((b.op == ast::BoolOpKind::And) != *t) return v;  // short circuit
        v = eval(*b.values[i], env);
    }
    return v;
}

Value Interp::evalCompare(const ast::Compare& c, const EnvPtr& env) {
    Value left = eval(*c.left, env);
    std::optional<Value> acc;
    for (size_t i = 0; i < c.ops.size(); ++i) {
        Value right = eval(*c.comparators[i], env);
        Span s =
            Span::merge(i == 0 ? c.left->span : c.comparators[i - 1]->span, c.comparators[i]->span);
        Value r = compareOp(c.ops[i], left, right, s);
        if (!acc) {
            acc = r;
        } else if (auto t = truthOrDynamic(*acc, c.span); t && *t) {
            acc = r;
        } else if (!t) {
            acc = dynamicBoolOp(ast::BoolOpKind::And, *acc, r, c.span);
        }
        if (i + 1 < c.ops.size()) {
            auto t = truthOrDynamic(*acc, c.span);
            if (t && !*t) return *acc;
        }
        left = right;
    }
    return *acc;
}

Value Interp::evalCall(const ast::Call& c, const EnvPtr& env) {
    Value f = eval(*c.func, env);
    CallArgs a;
    a.span = c.span;
    a.callee = calleeText(c.func);
    for (const ast::Expr* x : c.args) {
        if (auto st = ast::as<ast::Starred>(x)) {
            for (auto& v : iterate(eval(*st->value, env), x->span)) {
                a.pos.push_back(std::move(v));
                a.posSpans.push_back(x->span);
            }
        } else {
            a.pos.push_back(eval(*x, env));
            a.posSpans.push_back(x->span);
        }
    }
    for (const auto& k : c.keywords) {
        Value v = eval(*k.value, env);
        if (k.name.empty()) {
            if (!v.is(ValueKind::Dict))
                throw CompileError(k.span, "argument after ** must be a dict, not " + typeName(v));
            for (auto& [key, val] : v.dictObj().entries) {
                if (!key.is(ValueKind::Str)) throw CompileError(k.span, "keywords must be strings");
                a.kw.emplace_back(key.asStr(), val);
                a.kwSpans.push_back(k.span);
            }
        } else {
            a.kw.emplace_back(k.name, std::move(v));
            a.kwSpans.push_back(k.span);
        }
    }
    return call(f, a);
}

Value Interp::call(const Value& callee, CallArgs& args) {
    switch (callee.kind()) {
        case ValueKind::Function: {
            const FunctionObj& f = callee.functionObj();
            if (f.tag == FunctionTag::Macro) return callMacro(f, args);
            return callUserFunction(f, args);
        }
        case ValueKind::Builtin:
            step(args.span);
            return callee.builtinObj().fn(*this, args);
        case ValueKind::DType:
            return callDType(callee.asDType(), args);
        case ValueKind::Ext:
            if (auto r = callee.extObj().call(*this, args)) return *r;
            break;
        default:
            break;
    }
    // `--param reduce_fn=T.nope`: a name that names no op stays a string (Module.h callableNamed).
    if (callee.is(ValueKind::Str) && callee.asStr().find_first_of(" ()[]{},'\"") == std::string::npos)
        throw CompileError(args.span, "'str' object is not callable: '" + callee.asStr() + "' names no tile-language op or module-level function",
                           "a value that names one becomes it, e.g. --param NAME=T.reduce_max or --param NAME=my_function "
                           "(the T.* ops are listed in compiler/frontend/LanguageRegistry.h)");
    throw CompileError(args.span, "'" + typeName(callee) + "' object is not callable",
                       callee.is(ValueKind::Namespace) ? "'" + args.callee + "' is a module" : "");
}

namespace {
struct CallDepthGuard {
    int& depth;
    CallDepthGuard(int& d, int max, Span s, const std::string& name) : depth(d) {
        if (++depth > max) {
            --depth;
            throw CompileError(s,
                               "maximum compile-time recursion depth (" + std::to_string(max) +
                                   ") exceeded calling '" + name + "'",
                               "make sure the recursion terminates");
        }
    }
    ~CallDepthGuard() { --depth; }
};
}  // namespace

namespace {
// "defined at line 12 as double(buf, n, scale=2.0)"
std::string signatureHint(const FunctionObj& f) {
    std::string sig;
    for (const auto& p : f.params()) {
        if (!sig.empty()) sig += ", ";
        if (p.kind == ast::ParamKind::VarArgs) sig += "*";
        if (p.kind == ast::ParamKind::VarKw) sig += "**";
        sig += p.name;
        if (p.defaultValue) sig += "=...";
    }
    return "defined at line " + std::to_string(f.span().line) + " as " + f.name + "(" + sig + ")";
}
}  // namespace

EnvPtr Interp::bindParameters(const FunctionObj& f, CallArgs& args) {
    const auto& ps = f.params();
    auto env = std::make_shared<Env>();
    env->parent = f.closure;
    std::vector<bool> filled(ps.size(), false);
    std::vector<size_t> slots;
    int varArgs = -1, varKw = -1;
    for (size_t i = 0; i < ps.size(); ++i) {
        if (ps[i].kind == ast::ParamKind::PosOnly || ps[i].kind == ast::ParamKind::Normal)
            slots.push_back(i);
        if (ps[i].kind == ast::ParamKind::VarArgs) varArgs = static_cast<int>(i);
        if (ps[i].kind == ast::ParamKind::VarKw) varKw = static_cast<int>(i);
    }
    std::vector<Value> extra;
    for (size_t i = 0; i < args.pos.size(); ++i) {
        if (i < slots.size()) {
            env->vars[ps[slots[i]].name] = args.pos[i];
            filled[slots[i]] = true;
        } else if (varArgs >= 0) {
            extra.push_back(args.pos[i]);
        } else {
            throw CompileError(args.argSpan(i),
                               f.name + "() takes " + std::to_string(slots.size()) +
                                   " positional argument" + (slots.size() == 1 ? "" : "s") +
                                   " but " + std::to_string(args.pos.size()) + " were given",
                               signatureHint(f));
        }
    }
    if (varArgs >= 0) {
        env->vars[ps[static_cast<size_t>(varArgs)].name] = Value::tuple(std::move(extra));
        filled[static_cast<size_t>(varArgs)] = true;
    }
    Value kwExtra = Value::dict();
    for (size_t k = 0; k < args.kw.size(); ++k) {
        // Not a structured binding: the lambda below captures `name` (clang < 16, used by the
        // fuzz build, cannot capture structured bindings).
        const std::string& name = args.kw[k].first;
        const Value& v = args.kw[k].second;
        Span ks = k < args.kwSpans.size() ? args.kwSpans[k] : args.span;
        auto it = std::find_if(ps.begin(), ps.end(), [&](const ast::Param& p) {
            return p.name == name &&
                   (p.kind == ast::ParamKind::Normal || p.kind == ast::ParamKind::KwOnly);
        });
        if (it != ps.end()) {
            size_t i = static_cast<size_t>(it - ps.begin());
            if (filled[i])
                throw CompileError(ks,
                                   f.name + "() got multiple values for argument '" + name + "'");
            env->vars[name] = v;
            filled[i] = true;
        } else if (varKw >= 0) {
            kwExtra.dictObj().set(Value::str(name), v);
        } else {
            std::vector<std::string> names;
            for (const auto& p : ps) names.push_back(p.name);
            std::string near = closestMatch(name, names);
            std::string all;
            for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
            throw CompileError(ks, f.name + "() got an unexpected keyword argument '" + name + "'",
                               near.empty() ? "parameters of " + f.name + ": " + all
                                            : "did you mean '" + near + "'?");
        }
    }
    if (varKw >= 0) {
        env->vars[ps[static_cast<size_t>(varKw)].name] = kwExtra;
        filled[static_cast<size_t>(varKw)] = true;
    }
    for (size_t i = 0; i < ps.size(); ++i) {
        if (filled[i]) continue;
        if (i < f.defaults.size() && f.defaults[i]) {
            env->vars[ps[i].name] = *f.defaults[i];
            continue;
        }
        throw CompileError(
            args.span, f.name + "() missing required argument '" + ps[i].name + "'",
            "'" + ps[i].name + "' is declared at line " + std::to_string(ps[i].span.line));
    }
    return env;
}

Value Interp::callFunction(const FunctionObj& f, CallArgs& args) {
    Env* home = f.closure ? f.closure->moduleEnv() : nullptr;
    if (home && !home->siblingFile.empty()) {
        // A sibling module's function (SiblingModules.cpp): its spans are lines of another file,
        // so an error inside it is reported here, at the call, naming where it arose.
        try {
            return callFunctionBody(f, args);
        } catch (const CompileError& e) {
            Diagnostic d = e.diag;
            d.message = "in '" + f.name + "' (" + home->siblingFile +
                        (e.diag.span.valid() ? ", line " + std::to_string(e.diag.span.line) : "") +
                        "): " + d.message;
            d.span = args.span;
            throw CompileError(std::move(d));
        }
    }
    return callFunctionBody(f, args);
}

Value Interp::callFunctionBody(const FunctionObj& f, CallArgs& args) {
    CallDepthGuard guard(m_callDepth, m_limits.maxCallDepth, args.span, f.name);
    step(args.span);
    EnvPtr env = bindParameters(f, args);
    if (f.lambda) return eval(*f.lambda->body, env);
    Flow fl = execBlock(f.def->body, env);
    if (fl != Flow::Return) return Value::none();
    Value r = std::move(m_returnValue);
    m_returnValue = Value::none();
    return r;
}

Value Interp::makeFunction(const ast::FunctionDef& def, const EnvPtr& env) {
    auto f = std::make_shared<FunctionObj>();
    f->name = def.name;
    f->def = &def;
    f->closure = env;
    // Building the function object (its allocations, defaults slots, closure, and the old
    // value it replaces) is measured at ~8 expression steps plus one per parameter (defaults
    // are charged as they are evaluated): an endless loop whose body defines a function took
    // 3x the CPU of one that assigns for the same step count under ASan (issue 14).
    step(def.nameSpan, kFunctionSteps + def.params.size());
    for (const auto& p : def.params)
        f->defaults.push_back(p.defaultValue ? std::optional(eval(*p.defaultValue, env))
                                             : std::nullopt);
    registerClosure(env);
    return Value::function(std::move(f));
}

Value Interp::makeLambda(const ast::Lambda& l, const EnvPtr& env) {
    auto f = std::make_shared<FunctionObj>();
    f->name = "<lambda>";
    f->lambda = &l;
    f->closure = env;
    for (const auto& p : l.params)
        f->defaults.push_back(p.defaultValue ? std::optional(eval(*p.defaultValue, env))
                                             : std::nullopt);
    registerClosure(env);
    return Value::function(std::move(f));
}

void Interp::forEach(const Value& iterable, Span s, const std::function<bool(const Value&)>& fn) {
    if (iterable.is(ValueKind::Range)) {
        const RangeObj& r = iterable.rangeObj();
        int64_t n = r.size();
        for (int64_t i = 0; i < n; ++i) {
            step(s);
            if (!fn(Value::integer(r.at(i)))) return;
        }
        return;
    }
    for (const Value& v : iterate(iterable, s)) {
        step(s);
        if (!fn(v)) return;
    }
}

Value Interp::evalComprehension(const ast::Expr& e, const EnvPtr& env) {
    const std::vector<ast::Comprehension>* gens;
    const ast::DictComp* dc = ast::as<ast::DictComp>(&e);
    const ast::Comp* lc = dc ? nullptr : static_cast<const ast::Comp*>(&e);
    gens = dc ? &dc->generators : &lc->generators;
    auto scope = std::make_shared<Env>();
    scope->parent = env;
    std::vector<Value> items;
    Value dict = Value::dict();
    std::function<void(size_t)> run = [&](size_t k) {
        const ast::Comprehension& g = (*gens)[k];
        // The first iterable is evaluated in the enclosing scope, like Python.
        Value it = eval(*g.iter, k == 0 ? env : scope);
        forEach(it, g.iter->span, [&](const Value& v) {
            assign(*g.target, v, scope);
            for (const ast::Expr* cond : g.ifs)
                if (!truthy(eval(*cond, scope), cond->span)) return true;
            if (k + 1 < gens->size()) {
                run(k + 1);
            } else if (dc) {
                Value key = eval(*dc->key, scope);
                dict.dictObj().set(key, eval(*dc->value, scope));
            } else {
                items.push_back(eval(*lc->elt, scope));
                if (items.size() > m_limits.maxSequence)
                    throw CompileError(e.span, "comprehension produces more than " +
                                                   std::to_string(m_limits.maxSequence) +
                                                   " elements");
            }
            return true;
        });
    };
    run(0);
    return dc ? dict : Value::list(std::move(items));
}

}  // namespace ts::fe
