#include "compiler/frontend/MetaAutoTuner.h"

#include <cctype>
#include <functional>

#include "compiler/frontend/AstNames.h"

namespace ts::fe {

namespace {

/// `AutoTuner.from_kernel(kernel=fn, configs=[...])`, or the result of its `.run(...)`.
class AutoTunerValue final : public ExtValue {
public:
    AutoTunerValue(Value kernel, Value configs, bool ran)
        : kernel(std::move(kernel)), configs(std::move(configs)), ran(ran) {}
    std::string typeName() const override { return ran ? "AutotuneResult" : "AutoTuner"; }
    std::optional<Value> getAttr(Interp&, const std::string& name, Span) override {
        if (name == "configs") return configs;
        if (ran) return std::nullopt;  // latency, config, kernel: results of timing on a GPU
        std::shared_ptr<AutoTunerValue> self = weakSelf.lock();
        if (name == "set_compile_args" || name == "set_profile_args" ||
            name == "set_kernel_parameters")
            // Compile and profiling options: the chain returns the same tuner.
            return Value::builtin("AutoTuner." + name,
                                  [self](Interp&, CallArgs&) { return Value::ext(self); });
        if (name == "run")
            return Value::builtin("AutoTuner.run", [self](Interp&, CallArgs&) {
                return Value::ext(std::make_shared<AutoTunerValue>(self->kernel, self->configs, true));
            });
        return std::nullopt;
    }
    Value kernel, configs;
    bool ran;
    std::weak_ptr<AutoTunerValue> weakSelf;  ///< set by makeTuner: the chain returns itself
};

Value makeTuner(Value kernel, Value configs) {
    auto t = std::make_shared<AutoTunerValue>(std::move(kernel), std::move(configs), false);
    t->weakSelf = t;
    return Value::ext(t);
}

/// The AutoTuner class: `AutoTuner.from_kernel(kernel=, configs=)` and `AutoTuner(fn, configs)`.
class AutoTunerClass final : public ExtValue {
public:
    std::string typeName() const override { return "type"; }
    std::optional<Value> getAttr(Interp&, const std::string& name, Span) override {
        if (name != "from_kernel") return std::nullopt;
        return Value::builtin("AutoTuner.from_kernel", [](Interp&, CallArgs& a) {
            auto b = a.bind({"kernel", "configs"}, 2);
            return makeTuner(b[0], b[1]);
        });
    }
    std::optional<Value> call(Interp&, CallArgs& a) override {
        auto b = a.bind({"fn", "configs"}, 2);
        return makeTuner(b[0], b[1]);
    }
};

bool isPrimFunc(const Value& v) {
    return v.is(ValueKind::Function) && v.functionObj().tag == FunctionTag::PrimFunc;
}

std::string configText(const Value& cfg) {
    std::string s;
    for (const auto& [k, v] : cfg.dictObj().entries)
        s += (s.empty() ? "" : ", ") + (k.is(ValueKind::Str) ? k.asStr() : repr(k)) + "=" + repr(v);
    return s;
}

// Calls the tunable kernel function with the first of `configs` (a list of dicts).
Value callWithFirstConfig(Interp& in, const Value& fn, const Value& configs,
                          const std::string& factory, Span where) {
    if (!configs.isSequence() || configs.items().empty())
        throw CompileError(where, "'" + factory + "': the autotuner's configs are " +
                                      (configs.isSequence() ? "empty" : "not a list"),
                           "give AutoTuner a non-empty list of dicts of kernel parameters");
    const Value& cfg = configs.items().front();
    if (!cfg.is(ValueKind::Dict))
        throw CompileError(where, "'" + factory + "': an autotuner config must be a dict, got " +
                                      typeName(cfg));
    CallArgs a;
    a.span = where;
    a.callee = fn.is(ValueKind::Function) ? fn.functionObj().name : "kernel";
    for (const auto& [k, v] : cfg.dictObj().entries) {
        if (!k.is(ValueKind::Str))
            throw CompileError(where, "'" + factory + "': autotuner config keys must be strings");
        // TileLang's tuner takes a config's pass_configs as compile options, not kernel
        // arguments; TileScope's passes do not read them.
        if (k.asStr() == "pass_configs") continue;
        a.kw.emplace_back(k.asStr(), v);
        a.kwSpans.push_back(where);
    }
    in.diags().add(Diagnostic{
        Severity::Note, where,
        "'" + factory + "' builds an autotuner over " + std::to_string(configs.items().size()) +
            " configs; TileScope compiles its kernel at the first one (" + configText(cfg) + ")",
        "pass the config you want with --param, or write the kernel as a factory of those "
        "parameters",
        "elaborate"});
    return in.call(fn, a);
}

// The `configs=` of the file's `AutoTuner.from_kernel(kernel=factory(...), configs=...)` call,
// and the function body that contains it (null at module level).
struct FromKernelSite {
    const ast::Expr* configs = nullptr;
    const ast::FunctionDef* enclosing = nullptr;
    uint32_t line = 0;
};

std::optional<FromKernelSite> findFromKernel(const ast::Module& mod, const std::string& factory) {
    std::optional<FromKernelSite> found;
    std::function<void(const ast::Block&, const ast::FunctionDef*)> walk;
    auto visitExpr = [&](const ast::Expr* root, const ast::FunctionDef* fn) {
        std::function<void(const ast::Expr*)> visit = [&](const ast::Expr* e) {
            if (found || !e) return;
            if (auto c = ast::as<ast::Call>(e)) {
                std::string name = dottedName(c->func);
                if (name == "from_kernel" || (name.size() > 12 && name.ends_with(".from_kernel"))) {
                    const ast::Expr *kernel = nullptr, *configs = nullptr;
                    for (const auto& k : c->keywords) {
                        if (k.name == "kernel") kernel = k.value;
                        if (k.name == "configs") configs = k.value;
                    }
                    if (!kernel && !c->args.empty()) kernel = c->args[0];
                    if (!configs && c->args.size() > 1) configs = c->args[1];
                    auto kc = ast::as<ast::Call>(kernel);
                    if (kc && dottedName(kc->func) == factory && configs) {
                        found = FromKernelSite{configs, fn, e->span.line};
                        return;
                    }
                }
            }
            ast::forEachChild(e, visit);
        };
        visit(root);
    };
    walk = [&](const ast::Block& b, const ast::FunctionDef* fn) {
        for (const ast::Stmt* s : b) {
            if (found) return;
            if (auto f = ast::as<ast::FunctionDef>(s)) {
                walk(f->body, f);
                continue;
            }
            ast::forEachExpr(s, [&](const ast::Expr* e) { visitExpr(e, fn); });
            if (auto x = ast::as<ast::If>(s)) walk(x->body, fn), walk(x->orelse, fn);
            if (auto x = ast::as<ast::For>(s)) walk(x->body, fn), walk(x->orelse, fn);
            if (auto x = ast::as<ast::While>(s)) walk(x->body, fn);
            if (auto x = ast::as<ast::With>(s)) walk(x->body, fn);
            if (auto x = ast::as<ast::Try>(s)) {
                walk(x->body, fn);
                for (const auto& h : x->handlers) walk(h.body, fn);
            }
        }
    };
    walk(mod.body, nullptr);
    return found;
}

// The right-hand side of the last plain `name = <expr>` before `line` in `body` (any depth).
const ast::Expr* lastAssignment(const ast::Block& body, const std::string& name, uint32_t line) {
    const ast::Expr* rhs = nullptr;
    std::function<void(const ast::Block&)> walk = [&](const ast::Block& b) {
        for (const ast::Stmt* s : b) {
            if (s->span.line >= line) return;
            if (auto a = ast::as<ast::Assign>(s); a && a->targets.size() == 1)
                if (auto n = ast::as<ast::Name>(a->targets[0]); n && n->id == name) rhs = a->value;
            if (auto x = ast::as<ast::If>(s)) walk(x->body);
            if (auto x = ast::as<ast::For>(s)) walk(x->body);
            if (auto x = ast::as<ast::With>(s)) walk(x->body);
        }
    };
    walk(body);
    return rhs;
}

}  // namespace

/// `PassConfigKey.TL_DISABLE_WARP_SPECIALIZED` and the like: TileLang's pass option keys
/// ("tl.disable_warp_specialized"), usable as dict keys of a tuner config's pass_configs.
class PassConfigKeys final : public ExtValue {
public:
    std::string typeName() const override { return "PassConfigKey"; }
    std::optional<Value> getAttr(Interp&, const std::string& name, Span) override {
        for (const char* prefix : {"TL_", "TIR_"}) {
            std::string p(prefix);
            if (name.rfind(p, 0) != 0 || name.size() == p.size()) continue;
            std::string key = (p == "TL_" ? "tl." : "tir.");
            for (char c : name.substr(p.size()))
                key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return Value::str(key);
        }
        return std::nullopt;
    }
};

void registerAutoTuner(Interp& in) {
    Value cls = Value::ext(std::make_shared<AutoTunerClass>());
    in.registerModule("tilelang.autotuner")->set("AutoTuner", cls);
    in.registerModule("tilelang.autotuner.tuner")->set("AutoTuner", cls);
    // How the profiler fills a kernel's inputs: a run-time option, its name at compile time.
    auto supply = std::make_shared<NamespaceObj>();
    supply->name = "tilelang.TensorSupplyType";
    for (const char* k : {"Integer", "Uniform", "Normal", "Randn", "Zero", "One", "Auto"})
        supply->set(k, Value::str(std::string("TensorSupplyType.") + k));
    in.registerModule("tilelang")->set("TensorSupplyType", Value::ns(supply));
    in.registerModule("tilelang.utils.tensor")->set("TensorSupplyType", Value::ns(supply));
    Value keys = Value::ext(std::make_shared<PassConfigKeys>());
    bool known = in.module("tilelang.transform") != nullptr;
    auto transform = in.registerModule("tilelang.transform");
    if (!known) {  // the passes themselves stay unavailable
        transform->opaque = true;
        transform->opaqueReason = "module 'tilelang.transform' is not available at compile time";
    }
    transform->set("PassConfigKey", keys);
    in.registerModule("tilelang")->set("PassConfigKey", keys);
}

Value resolveTunedKernel(Interp& in, Value result, const std::string& factory,
                         const ast::Module& mod, const EnvPtr& globals, Span where) {
    for (int depth = 0; depth < 4; ++depth) {
        if (isPrimFunc(result)) return result;
        if (result.isSequence()) {
            // `return autotuner, configs, kernel`: the element that stands for a kernel.
            std::optional<Value> pick;
            for (const Value& v : result.items())
                if (!pick && (isPrimFunc(v) || v.extAs<AutoTunerValue>())) pick = v;
            if (!pick) return result;
            result = *pick;
            continue;
        }
        if (auto* t = result.extAs<AutoTunerValue>()) {
            result = callWithFirstConfig(in, t->kernel, t->configs, factory, where);
            continue;
        }
        if (result.is(ValueKind::Function) && result.functionObj().tag == FunctionTag::Plain) {
            // The tunable function alone: its configs are those the file tunes it with.
            auto site = findFromKernel(mod, factory);
            if (!site) return result;
            const ast::Expr* cfgExpr = site->configs;
            if (auto n = ast::as<ast::Name>(cfgExpr); n && site->enclosing)
                if (auto rhs = lastAssignment(site->enclosing->body, n->id, site->line))
                    cfgExpr = rhs;
            Value configs = in.eval(*cfgExpr, globals);
            result = callWithFirstConfig(in, result, configs, factory, where);
            continue;
        }
        return result;
    }
    return result;
}

}  // namespace ts::fe
