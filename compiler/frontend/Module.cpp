#include "compiler/frontend/Module.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "compiler/frontend/AstNames.h"
#include "compiler/frontend/ImportCheck.h"
#include "compiler/frontend/MainGuardGlobals.h"
#include "compiler/frontend/Parser.h"

namespace ts::fe {

namespace {

// ---- syntactic helpers -------------------------------------------------------------------------

/// Import aliases of a file: local name -> canonical dotted module path.
class Aliases {
public:
    explicit Aliases(const ast::Module& mod) {
        for (const ast::Stmt* s : mod.body) {
            if (auto imp = ast::as<ast::Import>(s)) {
                for (const auto& a : imp->names) {
                    if (!a.asname.empty())
                        m_map[a.asname] = a.name;
                    else
                        m_map[a.name.substr(0, a.name.find('.'))] =
                            a.name.substr(0, a.name.find('.'));
                }
            } else if (auto from = ast::as<ast::ImportFrom>(s); from && from->level == 0) {
                for (const auto& a : from->names)
                    if (a.name != "*")
                        m_map[a.asname.empty() ? a.name : a.asname] = from->module + "." + a.name;
            }
        }
        m_map.emplace("T",
                      "tilelang.language");  // the universal convention, even if imported oddly
    }
    std::string canonical(const std::string& dotted) const {
        size_t dot = dotted.find('.');
        std::string head = dotted.substr(0, dot);
        auto it = m_map.find(head);
        if (it == m_map.end()) return dotted;
        return it->second + (dot == std::string::npos ? "" : dotted.substr(dot));
    }

private:
    std::map<std::string, std::string> m_map;
};

bool endsWithName(const std::string& dotted, std::string_view last) {
    size_t dot = dotted.rfind('.');
    return std::string_view(dotted).substr(dot == std::string::npos ? 0 : dot + 1) == last;
}
// Decorators of other kernel languages: real TileLang files keep Triton baselines (`@triton.jit`,
// `@triton.autotune`) and torch/numba helpers beside the TileLang kernels; those are not ours.
bool isForeignKernelDecorator(const std::string& c) {
    for (std::string_view m : {"triton.", "torch.", "numba.", "jax.", "cupy."})
        if (c.rfind(m, 0) == 0) return true;
    return false;
}
bool isJit(const std::string& c) {
    if (isForeignKernelDecorator(c)) return false;
    return c == "tilelang.jit" || c == "tilelang.lazy_jit" || endsWithName(c, "jit");
}
bool isAutotune(const std::string& c) {
    return !isForeignKernelDecorator(c) && endsWithName(c, "autotune");
}
bool isPrimFuncName(const std::string& c) { return endsWithName(c, "prim_func"); }

DecoratorInfo decoratorInfo(const ast::Expr* d, const Aliases& al) {
    DecoratorInfo info;
    info.span = d->span;
    const ast::Expr* target = d;
    if (auto c = ast::as<ast::Call>(d)) {
        info.isCall = true;
        info.args.assign(c->args.begin(), c->args.end());
        info.keywords = c->keywords;
        target = c->func;
    }
    info.name = al.canonical(dottedName(target));
    return info;
}

bool hasPrimFuncDecorator(const ast::FunctionDef* f, const Aliases& al) {
    for (const ast::Expr* d : f->decorators)
        if (isPrimFuncName(decoratorInfo(d, al).name)) return true;
    return false;
}

// Visits every statement of a block, descending into compound statements (and nested defs).
void walkStmts(const ast::Block& b, const std::function<void(const ast::Stmt*)>& fn) {
    for (const ast::Stmt* s : b) {
        fn(s);
        switch (s->kind) {
            case ast::StmtKind::FunctionDef:
                walkStmts(ast::as<ast::FunctionDef>(s)->body, fn);
                break;
            case ast::StmtKind::If:
                walkStmts(ast::as<ast::If>(s)->body, fn);
                walkStmts(ast::as<ast::If>(s)->orelse, fn);
                break;
            case ast::StmtKind::For:
                walkStmts(ast::as<ast::For>(s)->body, fn);
                walkStmts(ast::as<ast::For>(s)->orelse, fn);
                break;
            case ast::StmtKind::While:
                walkStmts(ast::as<ast::While>(s)->body, fn);
                break;
            case ast::StmtKind::With:
                walkStmts(ast::as<ast::With>(s)->body, fn);
                break;
            case ast::StmtKind::Try: {
                auto t = ast::as<ast::Try>(s);
                walkStmts(t->body, fn);
                for (const auto& h : t->handlers) walkStmts(h.body, fn);
                walkStmts(t->orelse, fn);
                walkStmts(t->finalbody, fn);
                break;
            }
            default:
                break;
        }
    }
}

bool isCallTo(const ast::Expr* e, const Aliases& al, std::string_view last) {
    auto c = ast::as<ast::Call>(e);
    if (!c) return false;
    std::string name = al.canonical(dottedName(c->func));
    return name.rfind("tilelang.language.", 0) == 0 && endsWithName(name, last);
}

// Expressions safe to evaluate while looking for flops/bytes: arithmetic over names and
// literals, plus calls of a few pure builtins (never user functions or kernels).
bool isSimpleExpr(const ast::Expr* e) {
    using K = ast::ExprKind;
    if (!e) return true;
    switch (e->kind) {
        case K::Name:
        case K::Constant:
        case K::Str:
            return true;
        case K::Attribute:
            return isSimpleExpr(ast::as<ast::Attribute>(e)->value);
        case K::BinOp:
            return isSimpleExpr(ast::as<ast::BinOp>(e)->left) &&
                   isSimpleExpr(ast::as<ast::BinOp>(e)->right);
        case K::UnaryOp:
            return isSimpleExpr(ast::as<ast::UnaryOp>(e)->operand);
        case K::IfExp: {
            auto i = ast::as<ast::IfExp>(e);
            return isSimpleExpr(i->test) && isSimpleExpr(i->body) && isSimpleExpr(i->orelse);
        }
        case K::Compare: {
            auto c = ast::as<ast::Compare>(e);
            return isSimpleExpr(c->left) &&
                   std::all_of(c->comparators.begin(), c->comparators.end(), isSimpleExpr);
        }
        case K::BoolOp: {
            auto b = ast::as<ast::BoolOp>(e);
            return std::all_of(b->values.begin(), b->values.end(), isSimpleExpr);
        }
        case K::Tuple:
        case K::List: {
            const auto& elts = static_cast<const ast::Sequence*>(e)->elts;
            return std::all_of(elts.begin(), elts.end(), isSimpleExpr);
        }
        case K::Dict: {  // `config = {"block_M": 128, ...}` passed as `**config`
            auto d = ast::as<ast::Dict>(e);
            return std::all_of(d->keys.begin(), d->keys.end(), isSimpleExpr) &&
                   std::all_of(d->values.begin(), d->values.end(), isSimpleExpr);
        }
        case K::Subscript:
            return isSimpleExpr(ast::as<ast::Subscript>(e)->value) &&
                   isSimpleExpr(ast::as<ast::Subscript>(e)->index);
        case K::Call: {
            auto c = ast::as<ast::Call>(e);
            static const char* kPure[] = {"int",   "float", "min",       "max",          "abs",
                                          "round", "len",   "T.ceildiv", "tilelang.cdiv"};
            std::string n = dottedName(c->func);
            bool pure = n.rfind("math.", 0) == 0;
            for (const char* p : kPure) pure |= n == p;
            return pure && c->keywords.empty() &&
                   std::all_of(c->args.begin(), c->args.end(), isSimpleExpr);
        }
        default:
            return false;
    }
}

std::optional<Value> literalValue(const ast::Expr* e) {
    if (auto c = ast::as<ast::Constant>(e)) {
        switch (c->type) {
            case ast::Constant::Type::None:
                return Value::none();
            case ast::Constant::Type::Bool:
                return Value::boolean(c->boolValue);
            case ast::Constant::Type::Int:
                return Value::integer(c->intValue);
            case ast::Constant::Type::Float:
                return Value::real(c->floatValue);
            default:
                return std::nullopt;
        }
    }
    if (auto s = ast::as<ast::Str>(e); s && !s->isFString) return Value::str(s->value);
    if (auto u = ast::as<ast::UnaryOp>(e);
        u && (u->op == ast::UnaryOpKind::Neg || u->op == ast::UnaryOpKind::Pos)) {
        auto v = literalValue(u->operand);
        if (!v || !v->isNumber()) return std::nullopt;
        if (u->op == ast::UnaryOpKind::Pos) return v;
        return v->is(ValueKind::Float) ? Value::real(-v->asFloat()) : Value::integer(-v->asInt());
    }
    if (e && (e->kind == ast::ExprKind::Tuple || e->kind == ast::ExprKind::List)) {
        std::vector<Value> items;
        for (const ast::Expr* x : static_cast<const ast::Sequence*>(e)->elts) {
            auto v = literalValue(x);
            if (!v) return std::nullopt;
            items.push_back(*v);
        }
        return e->kind == ast::ExprKind::Tuple ? Value::tuple(std::move(items))
                                               : Value::list(std::move(items));
    }
    return std::nullopt;
}

void bindFunctionAtTopLevel(Interp& in, const ast::FunctionDef& def, const EnvPtr& g) {
    Value f;
    try {
        f = in.makeFunction(def, g);
    } catch (const CompileError&) {
        // Keep the function; a default that failed only matters if the call relies on it.
        auto fo = std::make_shared<FunctionObj>();
        fo->name = def.name;
        fo->def = &def;
        fo->closure = g;
        for (const auto& p : def.params) {
            if (!p.defaultValue) {
                fo->defaults.push_back(std::nullopt);
                continue;
            }
            try {
                fo->defaults.push_back(in.eval(*p.defaultValue, g));
            } catch (const CompileError& e) {
                fo->defaults.push_back(Value::poison(e.diag));
            }
        }
        f = Value::function(fo);
    }
    // Only decorators with compile-time meaning are applied; tilelang.jit, autotune and unknown
    // ones are recognised syntactically by Module and never executed.
    for (auto it = def.decorators.rbegin(); it != def.decorators.rend(); ++it) {
        try {
            Value d = in.eval(**it, g);
            if (!d.is(ValueKind::Builtin)) continue;
            const std::string& n = d.builtinObj().name;
            if (n.rfind("T.prim_func", 0) != 0 && n.rfind("T.macro", 0) != 0 &&
                n.rfind("functools.", 0) != 0)
                continue;
            CallArgs a;
            a.pos.push_back(f);
            a.posSpans.push_back(def.nameSpan);
            a.span = (*it)->span;
            a.callee = n;
            f = in.call(d, a);
        } catch (const CompileError&) {
        }
    }
    in.bindName(g, def.name, f);
}

}  // namespace

// ---- public helpers
// -------------------------------------------------------------------------------

const ast::Expr* DecoratorInfo::keyword(std::string_view key) const {
    for (const auto& k : keywords)
        if (k.name == key) return k.value;
    return nullptr;
}

const KernelParam* KernelEntry::param(std::string_view n) const {
    for (const auto& p : params)
        if (p.name == n) return &p;
    return nullptr;
}

bool isSimpleMetaExpr(const ast::Expr* e) { return isSimpleExpr(e); }

const Value* findParam(const ParamBindings& b, std::string_view name) {
    for (const auto& [k, v] : b)
        if (k == name) return &v;
    return nullptr;
}

Value parseParamValue(std::string_view text) {
    std::string t(text);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.erase(t.begin());
    DiagnosticEngine d;
    auto parsed = parseExpression(std::make_shared<SourceFile>("<param>", t), d);
    if (parsed.expr)
        if (auto v = literalValue(parsed.expr)) return *v;
    size_t dot = t.rfind('.');
    if (dot != std::string::npos)
        if (auto dt = ir::parseDType(t.substr(dot + 1))) return Value::dtype(*dt);
    return Value::str(t);
}

namespace {
// Names a statement binds anywhere inside it (targets, loop variables, nested defs), for
// poisoning them when the statement fails.
void assignedNames(const ast::Stmt* s, std::vector<std::string>& out) {
    if (auto a = ast::as<ast::Assign>(s))
        for (const ast::Expr* t : a->targets) collectNames(t, out);
    if (auto a = ast::as<ast::AnnAssign>(s)) collectNames(a->target, out);
    if (auto a = ast::as<ast::AugAssign>(s)) collectNames(a->target, out);
    if (auto f = ast::as<ast::FunctionDef>(s)) out.push_back(f->name);
    auto block = [&](const ast::Block& b) {
        for (const ast::Stmt* x : b) assignedNames(x, out);
    };
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
}
}  // namespace

void execTopLevel(Interp& in, const ast::Module& mod, const EnvPtr& g, DiagnosticEngine* errors) {
    // A compiled file is imported, never run as a script.
    g->vars["__name__"] = Value::str("__tilescope__");
    for (const ast::Stmt* s : mod.body) {
        try {
            switch (s->kind) {
                case ast::StmtKind::Import:
                case ast::StmtKind::ImportFrom:
                    in.execImport(*s, g);
                    break;
                case ast::StmtKind::FunctionDef:
                    bindFunctionAtTopLevel(in, *ast::as<ast::FunctionDef>(s), g);
                    break;
                case ast::StmtKind::ClassDef:
                case ast::StmtKind::Assign:
                case ast::StmtKind::AnnAssign:
                case ast::StmtKind::AugAssign:
                case ast::StmtKind::If:
                case ast::StmtKind::For:
                case ast::StmtKind::While:
                    in.exec(*s, g);
                    break;
                default:
                    break;  // calls, with, try: not part of the kernel's meta code
            }
        } catch (const CompileError& e) {
            std::vector<std::string> names;
            assignedNames(s, names);
            for (const auto& n : names) g->vars[n] = Value::poison(e.diag);
            // Python would never get past an endless loop: that is the file's error, used or not.
            if (errors && in.stepsUsed() > in.limits().maxSteps) {
                errors->add(e.diag);
                return;
            }
        }
    }
    // Globals only the script's main block defines (MainGuardGlobals.h).
    bindMainGuardGlobals(in, mod, g);
}

namespace {
/// The first top-level function with a Triton/torch kernel decorator, or "".
std::string foreignKernel(const ast::Module& m) {
    Aliases al(m);
    for (const ast::Stmt* s : m.body)
        if (auto f = ast::as<ast::FunctionDef>(s))
            for (const ast::Expr* d : f->decorators)
                if (isForeignKernelDecorator(decoratorInfo(d, al).name)) return f->name;
    return {};
}
}  // namespace

std::string siblingDirOf(const SourceFile& src) {
    std::error_code ec;
    if (src.path().empty() || !std::filesystem::is_regular_file(src.path(), ec)) return {};
    return std::filesystem::absolute(src.path(), ec).parent_path().string();
}

// ---- Module ----------------------------------------------------------------------------------

Module::~Module() = default;

std::shared_ptr<Module> Module::analyze(SourcePtr src, DiagnosticEngine& diags) {
    std::shared_ptr<Module> info(new Module());
    size_t before = diags.all().size();
    info->m_ast = parseModule(src, diags);
    if (!diags.hasErrors()) checkLanguageImport(*src, diags);
    info->m_interp = std::make_unique<Interp>(info->m_evalDiags);
    info->m_interp->installTileOpNames();
    info->m_interp->setSiblingDir(siblingDirOf(*src));
    info->m_globals = info->m_interp->newModuleEnv();
    execTopLevel(*info->m_interp, *info->m_ast, info->m_globals, &diags);
    info->findEntries();
    for (auto& e : info->m_entries)
        e.callSite = findKernelCallSite(*info->m_ast, e, *info->m_interp, info->m_globals);
    info->findSites();
    bool parseErrors = false;
    for (size_t i = before; i < diags.all().size(); ++i)
        parseErrors |= diags.all()[i].severity == Severity::Error;
    if (info->m_entries.empty() && !parseErrors)
        diags.error(Span{1, 1, 1, 1}, "no kernel found in this file",
                    (foreignKernel(*info->m_ast).empty()
                         ? std::string()
                         : "'" + foreignKernel(*info->m_ast) +
                               "' is a Triton (or torch) kernel, which TileScope does not "
                               "compile; ") +
                        "write a function decorated with @tilelang.jit, a factory returning an "
                        "inner @T.prim_func, or a module-level @T.prim_func",
                    "module");
    return info;
}

const KernelEntry* Module::entry(std::string_view name) const {
    if (name.empty()) return m_entries.empty() ? nullptr : &m_entries.front();
    for (const auto& e : m_entries)
        if (e.name() == name) return &e;
    return nullptr;
}

const KernelEntry* Module::selectEntry(std::string_view name, DiagnosticEngine& diags,
                                       Span where) const {
    if (m_entries.empty()) return nullptr;  // analyze() already reported "no kernel found"
    if (name.empty()) return &m_entries.front();
    if (const KernelEntry* e = entry(name)) return e;
    // The name of an inner prim_func (any of a factory's, which then selects the factory; its
    // parameters decide which one it returns), when it identifies one factory (several factories
    // often name theirs `main`).
    std::vector<const KernelEntry*> byInner;
    Aliases al(*m_ast);
    for (const auto& e : m_entries) {
        // A kernel defined in a test function by its bare name (`--kernel copy1` for
        // `test_copy.copy1`).
        if (e.enclosing && e.func->name == name) {
            byInner.push_back(&e);
            continue;
        }
        if (e.primFunc == e.func) continue;  // a bare prim_func is named by its def
        bool found = false;
        walkStmts(e.func->body, [&](const ast::Stmt* st) {
            if (auto inner = ast::as<ast::FunctionDef>(st);
                inner && !found && inner->name == name && hasPrimFuncDecorator(inner, al))
                found = true;
        });
        if (found) byInner.push_back(&e);
    }
    if (byInner.size() == 1) return byInner.front();
    std::vector<std::string> names;
    for (const auto& e : m_entries) names.push_back(e.name());
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    if (byInner.size() > 1) {
        std::string which;
        for (const KernelEntry* e : byInner) which += (which.empty() ? "" : ", ") + e->name();
        diags.error(
            where,
            "kernel name '" + std::string(name) + "' is ambiguous: it is " +
                (byInner.front()->enclosing ? "a kernel of " : "the prim_func of ") + which,
            std::string(byInner.front()->enclosing ? "name one with its test: " : "name the factory instead: ") + which,
            "kernel");
        return nullptr;
    }
    std::string near = closestMatch(name, names);
    diags.error(where, "no kernel named '" + std::string(name) + "' in this file",
                (near.empty() ? std::string() : "did you mean '" + near + "'? ") +
                    "kernels in this file: " + list,
                "kernel");
    return nullptr;
}

std::vector<const KernelEntry*> Module::otherEntriesWithParam(const KernelEntry& e,
                                                              std::string_view name) const {
    std::vector<const KernelEntry*> out;
    for (const auto& o : m_entries)
        if (&o != &e)
            if (const KernelParam* p = o.param(name); p && p->settable()) out.push_back(&o);
    std::sort(out.begin(), out.end(), [](const KernelEntry* a, const KernelEntry* b) {
        return a->func->span.line < b->func->span.line;
    });
    return out;
}

namespace {
/// The @tilelang.jit / @autotune def directly in `outer`'s body whose body holds `primFunc`.
bool jitDefHolding(const ast::FunctionDef& outer, const ast::FunctionDef* primFunc, const Aliases& al) {
    for (const ast::Stmt* st : outer.body) {
        auto inner = ast::as<ast::FunctionDef>(st);
        if (!inner) continue;
        bool jit = false;
        for (const ast::Expr* d : inner->decorators) {
            const std::string n = decoratorInfo(d, al).name;
            jit |= isJit(n) || isAutotune(n);
        }
        if (!jit) continue;
        bool holds = false;
        walkStmts(inner->body, [&](const ast::Stmt* s) { holds |= s == primFunc; });
        if (holds) return true;
    }
    return false;
}
}  // namespace

void Module::findEntries() {
    Aliases al(*m_ast);
    std::vector<std::pair<int, KernelEntry>> ranked;
    // Module-level functions, then kernels defined one level inside a module-level function that
    // is no entry itself (a test's own @tilelang.jit / @T.prim_func; Python keeps the last def
    // of a name in a body).
    std::vector<std::pair<const ast::FunctionDef*, const ast::FunctionDef*>> defs;  // (def, enclosing)
    for (const ast::Stmt* s : m_ast->body)
        if (auto f = ast::as<ast::FunctionDef>(s)) defs.emplace_back(f, nullptr);
    const size_t moduleLevel = defs.size();
    for (size_t d = 0; d < moduleLevel; ++d) {
        const ast::FunctionDef* outer = defs[d].first;
        std::map<std::string, const ast::FunctionDef*> last;
        for (const ast::Stmt* st : outer->body)
            if (auto inner = ast::as<ast::FunctionDef>(st); inner && !inner->decorators.empty()) last[inner->name] = inner;
        for (const ast::Stmt* st : outer->body)
            if (auto inner = ast::as<ast::FunctionDef>(st); inner && last[inner->name] == inner)
                defs.emplace_back(inner, outer);
    }
    std::set<const ast::FunctionDef*> entryFuncs;
    for (const auto& [f, enclosing] : defs) {
        if (enclosing && entryFuncs.count(enclosing)) continue;  // a factory's own prim_func
        if (enclosing) {
            // Only decorated kernels: a nested helper or reference is not a kernel.
            bool decorated = hasPrimFuncDecorator(f, al);
            for (const ast::Expr* d : f->decorators) {
                const std::string n = decoratorInfo(d, al).name;
                decorated |= isJit(n) || isAutotune(n);
            }
            if (!decorated) continue;
        }
        KernelEntry e;
        e.func = f;
        e.enclosing = enclosing;
        if (enclosing) e.qualifiedName = enclosing->name + "." + f->name;
        bool foreign = false;
        for (const ast::Expr* d : f->decorators) {
            DecoratorInfo info = decoratorInfo(d, al);
            foreign |= isForeignKernelDecorator(info.name);
            e.isJit |= isJit(info.name);
            e.isAutotune |= isAutotune(info.name);
            if (const ast::Expr* v = info.keyword("out_idx")) e.outIdx = v;
            if (const ast::Expr* v = info.keyword("configs")) e.configs = v;
            if (const ast::Expr* v = info.keyword("pass_configs")) e.passConfigs = v;
            e.decorators.push_back(std::move(info));
        }
        if (foreign) continue;  // a @triton.jit kernel: not a TileLang entry, whatever its body
        // `A: T.Tensor[[128, 128], T.float32]` (or `T.Tensor((M, K), dtype)`) in the signature.
        auto isTensorAnnotation = [&](const ast::Expr* ann) {
            if (auto c = ast::as<ast::Call>(ann)) ann = c->func;
            if (auto s = ast::as<ast::Subscript>(ann)) ann = s->value;
            std::string an = al.canonical(dottedName(ann));
            return endsWithName(an, "Tensor") || endsWithName(an, "Buffer") || endsWithName(an, "StridedTensor");
        };
        // A jit function whose tensors are declared in its signature is eager even when its
        // T.Kernel is in a @T.macro it calls (TileLang's eager_jit test: copy2).
        bool kernelBody = std::any_of(f->params.begin(), f->params.end(),
                                      [&](const ast::Param& p) { return p.annotation && isTensorAnnotation(p.annotation); });
        for (const ast::Stmt* st : f->body)  // `A: T.Tensor[[128, 128], T.float32]` declared in the body
            if (auto a = ast::as<ast::AnnAssign>(st); a && !a->value && isTensorAnnotation(a->annotation)) kernelBody = true;
        bool hasConst = false;
        walkStmts(f->body, [&](const ast::Stmt* st) {
            if (auto inner = ast::as<ast::FunctionDef>(st);
                inner && !e.primFunc && hasPrimFuncDecorator(inner, al))
                e.primFunc = inner;
            if (auto w = ast::as<ast::With>(st))
                for (const auto& it : w->items) kernelBody |= isCallTo(it.context, al, "Kernel");
            if (auto a = ast::as<ast::Assign>(st)) hasConst |= isCallTo(a->value, al, "const");
        });
        int rank;
        if (hasPrimFuncDecorator(f, al)) {
            e.pattern = EntryPattern::PrimFunc;
            e.primFunc = f;
            rank = 3;
        } else if (e.primFunc && !enclosing && !e.isJit && !e.isAutotune && jitDefHolding(*f, e.primFunc, al)) {
            // `def test_x(): @tilelang.jit def k(N): @T.prim_func ...; k(1024)`: the kernel is the
            // test's own jit factory `test_x.k` (its parameters, its call in the test), not the
            // test run as a factory (helper-125 #12).
            continue;
        } else if (e.primFunc) {
            e.pattern = EntryPattern::Factory;
            rank = e.isJit || e.isAutotune ? 0 : 1;
        } else if ((e.isJit || e.isAutotune) && (kernelBody || hasConst)) {
            e.pattern = EntryPattern::Eager;
            rank = 2;
        } else if (e.isJit || e.isAutotune) {
            e.pattern = EntryPattern::Factory;  // builds its prim_func through a helper
            rank = 1;
        } else if (const ast::FunctionDef* builder = autoTunerBuilder(*m_ast, *f)) {
            e.pattern = EntryPattern::Factory;  // returns a tuner or its result (MetaAutoTuner.h)
            if (builder != f) e.tunerBuilder = builder;
            rank = 1;
        } else {
            continue;
        }
        e.tuner = tunerSiteOf(*f);
        // Parameters: the signature (tensor parameters of an eager kernel are those declared by
        // `A: T.Tensor(...)` in the body or annotated with T.Tensor in the signature).
        std::vector<std::string> tensorNames;
        if (e.pattern == EntryPattern::Eager)
            for (const ast::Stmt* st : f->body)
                if (auto a = ast::as<ast::AnnAssign>(st);
                    a && !a->value && ast::as<ast::Name>(a->target))
                    tensorNames.push_back(ast::as<ast::Name>(a->target)->id);
        for (const auto& p : f->params) {
            KernelParam kp;
            kp.name = p.name;
            kp.span = p.span;
            kp.annotation = p.annotation;
            kp.defaultExpr = p.defaultValue;
            kp.variadic = p.kind == ast::ParamKind::VarArgs || p.kind == ast::ParamKind::VarKw;
            if (e.pattern == EntryPattern::PrimFunc) kp.role = KernelParam::Role::Tensor;
            if (e.pattern == EntryPattern::Eager) {
                if ((p.annotation && isTensorAnnotation(p.annotation)) ||
                    std::find(tensorNames.begin(), tensorNames.end(), p.name) != tensorNames.end())
                    kp.role = KernelParam::Role::Tensor;
            }
            if (p.defaultValue) {
                try {
                    kp.defaultValue = m_interp->eval(*p.defaultValue, m_globals);
                } catch (const CompileError& err) {
                    kp.defaultError = err.diag.message;
                }
            }
            e.params.push_back(std::move(kp));
        }
        if (e.pattern == EntryPattern::Eager) {
            // `M, N = T.const("M, N")`: each size is a parameter without a default.
            for (const ast::Stmt* st : f->body) {
                auto a = ast::as<ast::Assign>(st);
                if (!a || !isCallTo(a->value, al, "const")) continue;
                auto call = ast::as<ast::Call>(a->value);
                if (call->args.empty() || !ast::as<ast::Str>(call->args[0])) continue;
                std::string names = ast::as<ast::Str>(call->args[0])->value;
                std::replace(names.begin(), names.end(), ',', ' ');
                size_t i = 0;
                while (i < names.size()) {
                    while (i < names.size() && names[i] == ' ') ++i;
                    size_t j = i;
                    while (j < names.size() && names[j] != ' ') ++j;
                    if (j > i && !e.param(names.substr(i, j - i))) {
                        KernelParam kp;
                        kp.name = names.substr(i, j - i);
                        kp.span = call->args[0]->span;
                        kp.role = KernelParam::Role::Const;
                        e.params.push_back(std::move(kp));
                    }
                    i = j;
                }
            }
        }
        entryFuncs.insert(f);
        ranked.emplace_back(enclosing ? rank + 4 : rank, std::move(e));
    }
    // A driver that only runs the tuner another entry builds compiles the same kernel (through
    // its own parameters): the builder's listing names it.
    for (auto& [_, e] : ranked) {
        if (!e.tunerBuilder) continue;
        for (auto& [__, b] : ranked)
            if (b.func == e.tunerBuilder) b.tunerRunners.push_back(e.func);
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [_, e] : ranked) m_entries.push_back(std::move(e));
}

void Module::findSites() {
    static const char* kFlops[] = {"flops", "total_flops"};
    static const char* kBytes[] = {"bytes", "total_bytes"};
    auto scan = [&](const ast::Block& b, const ast::FunctionDef* fn) {
        for (size_t i = 0; i < b.size(); ++i) {
            const ast::Expr* target = nullptr;
            const ast::Expr* value = nullptr;
            if (auto a = ast::as<ast::Assign>(b[i]); a && a->targets.size() == 1)
                target = a->targets[0], value = a->value;
            if (auto a = ast::as<ast::AnnAssign>(b[i]); a && a->value)
                target = a->target, value = a->value;
            auto n = ast::as<ast::Name>(target);
            if (!n) continue;
            for (const char* k : kFlops)
                if (!m_flops && n->id == k) m_flops = MetaSite{n->id, value, &b, i, fn};
            for (const char* k : kBytes)
                if (!m_bytes && n->id == k) m_bytes = MetaSite{n->id, value, &b, i, fn};
        }
    };
    // `def flops(M, N, K): return 2 * M * N * K` at module level: valid Python that TileLang
    // ignores (a module-level `flops = 2 * M * N * K` would name undefined M, N, K). The site is
    // the final `return`; evalSite binds the function's parameters to the kernel's values of the
    // same names (its own defaults for the others) and runs the simple assignments before it.
    auto scanFunctionSites = [&](const ast::Block& b) {
        for (const ast::Stmt* s : b) {
            auto f = ast::as<ast::FunctionDef>(s);
            if (!f || f->body.empty() || !f->decorators.empty()) continue;
            auto ret = ast::as<ast::Return>(f->body.back());
            if (!ret || !ret->value) continue;
            MetaSite site{f->name, ret->value, &f->body, f->body.size() - 1, f};
            for (const char* k : kFlops)
                if (!m_flops && f->name == k) m_flops = site;
            for (const char* k : kBytes)
                if (!m_bytes && f->name == k) m_bytes = site;
        }
    };
    // Module level first (assignments, then flops/bytes functions), then other functions and
    // the main guard. A site in a kernel's own factory body is that kernel's (Elaborate.cpp),
    // not the file's: it comes first for its kernel and never counts another kernel's work.
    scan(m_ast->body, nullptr);
    scanFunctionSites(m_ast->body);
    for (const ast::Stmt* s : m_ast->body) {
        if (auto f = ast::as<ast::FunctionDef>(s)) {
            bool isFactory = false;
            for (const auto& e : m_entries) isFactory |= e.func == f && e.pattern == EntryPattern::Factory;
            if (!isFactory) scan(f->body, f);
            if (!m_refProgram)
                for (const ast::Stmt* inner : f->body)
                    if (auto r = ast::as<ast::FunctionDef>(inner); r && r->name == "ref_program")
                        m_refProgram = r;
        }
        if (isMainGuard(s)) scan(ast::as<ast::If>(s)->body, nullptr);
    }
    for (const ast::Stmt* s : m_ast->body)
        if (auto f = ast::as<ast::FunctionDef>(s); f && f->name == "ref_program") m_refProgram = f;
    if (!m_refProgram)
        for (const ast::Stmt* s : m_ast->body)
            if (isMainGuard(s))
                for (const ast::Stmt* inner : ast::as<ast::If>(s)->body)
                    if (auto r = ast::as<ast::FunctionDef>(inner); r && r->name == "ref_program")
                        m_refProgram = r;
}

std::optional<ParamBindings> Module::bindParams(
    const KernelEntry& e, const std::vector<std::pair<std::string, std::string>>& overrides,
    DiagnosticEngine& diags) const {
    bool ok = true;
    std::vector<const KernelParam*> missing;  // parameters without a value (one error each)
    std::vector<std::string> known;
    for (const auto& p : e.params)
        if (p.settable()) known.push_back(p.name);
    for (const auto& [name, _] : overrides) {
        const KernelParam* p = e.param(name);
        if (p && p->settable()) continue;
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        if (!p)
            if (auto owners = otherEntriesWithParam(e, name); !owners.empty()) {
                // A parameter of another kernel of the file (DESIGN.md §2b): say which one.
                std::string which;
                for (const KernelEntry* o : owners)
                    which += (which.empty() ? "" : "', '") + o->name();
                diags.error(
                    e.func->nameSpan,
                    "parameter '" + name + "' belongs to kernel" +
                        (owners.size() > 1 ? "s '" : " '") + which +
                        "', not to the selected kernel '" + e.name() + "'",
                    "select that kernel with --kernel " + owners.front()->name() +
                        (list.empty() ? std::string("; '") + e.name() + "' has no parameters"
                                      : "; parameters of '" + e.name() + "': " + list),
                    "params");
                ok = false;
                continue;
            }
        std::string near = closestMatch(name, known);
        std::string msg =
            p ? "parameter '" + name + "' of '" + e.name() + "' is a tensor and cannot be set"
              : "unknown parameter '" + name + "' for kernel '" + e.name() + "'";
        diags.error(
            e.func->nameSpan, msg,
            (near.empty() ? std::string() : "did you mean '" + near + "'? ") +
                (list.empty() ? "the kernel has no parameters" : "known parameters: " + list),
            "params");
        ok = false;
    }
    ParamBindings out;
    for (const auto& p : e.params) {
        if (!p.settable()) continue;
        auto it = std::find_if(overrides.rbegin(), overrides.rend(),
                               [&](const auto& o) { return o.first == p.name; });
        if (it != overrides.rend()) {
            Value v = parseParamValue(it->second);
            // A word where the default is a number is a typo (`--param M=abc`), and left alone
            // it would surface far away ("T.Tensor shape entry must be an integer").
            const Value* d = p.defaultValue ? &*p.defaultValue : nullptr;
            // `--param is_causal=false` would bind the string 'false', which Python's `if` reads
            // as true: the causal kernel, silently. Python spells booleans True and False.
            if (v.is(ValueKind::Str)) {
                std::string low = it->second;
                for (char& ch : low) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                const bool boolDefault = d && d->is(ValueKind::Bool);
                if (low == "true" || low == "false" || boolDefault) {
                    const std::string want = low == "false" ? "False" : "True";
                    diags.error(p.span,
                                p.name + " = " + repr(v) + " (from --param " + p.name + "=" + it->second +
                                    ") is a string, not a boolean" +
                                    (boolDefault ? "; the default of '" + p.name + "' is " + repr(*d) : std::string()),
                                "Python spells booleans True and False: --param " + p.name + "=" +
                                    (boolDefault && low != "true" && low != "false" ? std::string("True or False") : want),
                                "params");
                    ok = false;
                    continue;
                }
            }
            // All digits but no int64: a number, only too large (Python's ints are unbounded,
            // the kernel's sizes and offsets are 64-bit).
            const std::string& raw = it->second;
            const size_t digits0 = !raw.empty() && (raw[0] == '-' || raw[0] == '+') ? 1 : 0;
            if (v.is(ValueKind::Str) && raw.size() > digits0 &&
                raw.find_first_not_of("0123456789_", digits0) == std::string::npos) {
                diags.error(p.span,
                            p.name + " = " + raw + " (from --param " + p.name + "=" + raw +
                                ") is too large: TileScope's integers are 64-bit (at most 9223372036854775807)",
                            "pass a smaller value" + (d ? ", e.g. the default --param " + p.name + "=" + repr(*d) : std::string()),
                            "params");
                ok = false;
                continue;
            }
            if (v.is(ValueKind::Str) && d &&
                (d->is(ValueKind::Int) || d->is(ValueKind::Float) || d->is(ValueKind::Bool))) {
                diags.error(p.span,
                            p.name + " = " + repr(v) + " (from --param " + p.name + "=" +
                                it->second + ") is not a number; the default of '" + p.name +
                                "' is " + repr(*d),
                            "pass a number, e.g. --param " + p.name + "=" + repr(*d), "params");
                ok = false;
                continue;
            }
            out.emplace_back(p.name, std::move(v));
        } else if (p.defaultValue && !p.defaultValue->is(ValueKind::Poison)) {
            out.emplace_back(p.name, *p.defaultValue);
        } else if (!p.defaultError.empty()) {
            diags.error(
                p.defaultExpr ? p.defaultExpr->span : p.span,
                "the default value of '" + p.name + "' could not be evaluated: " + p.defaultError,
                "pass --param " + p.name + "=<value>", "params");
            ok = false;
        } else {
            // A T.const size cannot have a default: its value comes from the tensors passed in.
            bool isConst = p.role == KernelParam::Role::Const;
            std::string what =
                isConst ? "size '" + p.name + "' (T.const)" : "parameter '" + p.name + "'";
            missing.push_back(&p);
            diags.error(p.span, what + " of '" + e.name() + "' has no value",
                        (isConst ? "pass --param " + p.name +
                                       "=<value> (a T.const size has no default; no call of '" +
                                       e.name() + "' in the file gives it)"
                                 : "give it a default or pass --param " + p.name + "=<value>") +
                            (e.callSite.found() || !e.callSite.raisesCall.valid()
                                 ? std::string()
                                 : "; the file calls '" + e.name() + "' only inside `pytest.raises(...)` (line " +
                                       std::to_string(e.callSite.raisesCall.line) + "): a kernel meant to fail, so its values are not taken"),
                        "params");
            // The file's call passes something for it that the search could not read (helper-122:
            // a lambda or functools.partial for an op parameter was dropped without a word).
            if (const auto* u = e.callSite.unreadFor(p.name))
                diags.add({Severity::Note, u->span,
                           "this argument for '" + p.name + "' of '" + e.name() + "' is " + u->what +
                               ", which TileScope does not evaluate outside a kernel",
                           "pass --param " + p.name + "=<value> (a number, string, dtype, T.* op or module-level function)",
                           "params"});
            ok = false;
        }
    }
    if (missing.size() >= 2) {
        // One error per parameter; the command line that gives them all (helper-108: 18 errors
        // for a corpus autotune example, each with its own hint).
        std::string all;
        for (const KernelParam* p : missing) all += (all.empty() ? "" : " ") + std::string("--param ") + p->name + "=<value>";
        diags.warning(missing.front()->span, std::to_string(missing.size()) + " parameters of '" + e.name() + "' have no value",
                      "pass them all: " + all, "params");
    }
    if (!ok) return std::nullopt;
    return out;
}

EnvPtr Module::scopeWith(const ParamBindings* params) const {
    auto env = std::make_shared<Env>();
    env->parent = m_globals;
    if (params)
        for (const auto& [k, v] : *params) env->vars[k] = v;
    return env;
}

std::optional<Value> Module::evalInGlobals(const ast::Expr& e, const ParamBindings* params,
                                           DiagnosticEngine& diags) const {
    try {
        return m_interp->eval(e, scopeWith(params));
    } catch (const CompileError& err) {
        Diagnostic d = err.diag;
        if (d.origin.empty()) d.origin = "module";
        diags.add(d);
        return std::nullopt;
    }
}

std::optional<double> Module::evalSite(const MetaSite& site, const ParamBindings& params,
                                       DiagnosticEngine& diags) const {
    auto env = std::make_shared<Env>();
    env->parent = m_globals;
    // The site's own context (a `def main(M=4096, ...)` default, `flops_per_matmul = 2 * M * ...`)
    // evaluated with the kernel's parameter values, which always win: assignments to a
    // parameter's name (`M, N = 1024, 512` in main) are skipped.
    if (site.inFunction)
        for (const auto& p : site.inFunction->params)
            if (p.defaultValue) try {
                    env->vars[p.name] = m_interp->eval(*p.defaultValue, m_globals);
                } catch (const CompileError&) {
                }
    for (const auto& [k, v] : params) env->vars[k] = v;
    // Names whose assignment before the site could not run here (it reads argparse results or
    // other host values): the site failing on one of them is expected, not worth a warning
    // (`total_flops = qk_flops + pv_flops` after `qk_flops = 2 * batch * ... * args.kv_ctx`).
    std::set<std::string> unevaluated;
    for (size_t i = 0; i < site.index; ++i) {
        const ast::Stmt* s = (*site.block)[i];
        const ast::Expr* value = nullptr;
        std::vector<std::string> targets;
        if (auto a = ast::as<ast::Assign>(s)) {
            value = a->value;
            for (const ast::Expr* t : a->targets) collectNames(t, targets);
        }
        if (auto a = ast::as<ast::AnnAssign>(s)) value = a->value, collectNames(a->target, targets);
        if (!value || targets.empty()) continue;
        if (std::any_of(targets.begin(), targets.end(),
                        [&](const std::string& n) { return findParam(params, n); }))
            continue;
        if (!isSimpleExpr(value)) {
            unevaluated.insert(targets.begin(), targets.end());
            continue;
        }
        try {
            m_interp->exec(*s, env);
            for (const auto& n : targets) unevaluated.erase(n);
        } catch (const CompileError&) {
            unevaluated.insert(targets.begin(), targets.end());
        }
    }
    try {
        Value v = m_interp->eval(*site.expr, env);
        if (!v.isNumber()) {
            diags.error(site.expr->span, "'" + site.name + "' must be a number, got " + typeName(v),
                        {}, "module");
            return std::nullopt;
        }
        return v.asFloat();
    } catch (const CompileError& err) {
        for (const auto& n : unevaluated)
            if (err.diag.message.find("name '" + n + "' is not defined") != std::string::npos) return std::nullopt;
        // `total_flops = ...` inside a benchmark or main function or under the main guard usually
        // reads that code's own inputs (argparse results, its parameters, names set under an if):
        // no figure then, and no warning (it was noise on 6 corpus files). A `def flops(...)` site
        // (its return) or a top-level assignment still reports why it cannot be evaluated.
        if (site.block != &m_ast->body && !ast::as<ast::Return>((*site.block)[site.index])) return std::nullopt;
        Diagnostic d = err.diag;
        d.origin = "module";
        d.message = "cannot evaluate '" + site.name + "': " + d.message;
        diags.add(d);
        return std::nullopt;
    }
}

}  // namespace ts::fe
