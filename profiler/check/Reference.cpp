// evalReference (Reference.h): loads the file's top level into a meta-evaluator whose torch
// modules are the reference vocabulary, binds ref_program's parameters and converts what it
// returns into HostTensors.
#include "profiler/check/Reference.h"

#include "profiler/check/ReferenceCall.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <new>
#include <string_view>

#include "compiler/frontend/AstNames.h"
#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/Module.h"
#include "compiler/frontend/Parser.h"
#include "profiler/check/ReferenceEinops.h"
#include "profiler/check/ReferenceScipy.h"
#include "profiler/check/ReferenceTorch.h"

namespace ts::rt {

namespace ast = fe::ast;
using fe::CallArgs;
using fe::EnvPtr;
using fe::Value;
using fe::ValueKind;

namespace {

constexpr const char* kOrigin = "reference";

/// The meta-evaluator of a reference run: torch modules resolve to the reference vocabulary
/// (also for imports inside functions) and `with torch.no_grad():`-style blocks just run.
class RefInterp final : public fe::Interp {
public:
    explicit RefInterp(DiagnosticEngine& d) : Interp(d) {
        // Module-level torch names become RefModules after the top level ran (loadTopLevel); a
        // function-local `import torch` still gets these namespaces, so they carry the same
        // members. (A namespace has no fallback for unknown names, so those get a generic
        // message instead of naming the call.)
        static const char* const kExtras[] = {"inf",
                                              "nan",
                                              "pi",
                                              "e",
                                              "finfo",
                                              "iinfo",
                                              "no_grad",
                                              "inference_mode",
                                              "enable_grad",
                                              "autocast",
                                              "set_grad_enabled",
                                              "manual_seed",
                                              "__getattribute__",
                                              "GELU",
                                              "ReLU",
                                              "SiLU",
                                              "Sigmoid",
                                              "Tanh",
                                              "Softmax",
                                              "LogSoftmax",
                                              "LeakyReLU",
                                              "Softplus",
                                              "Identity",
                                              "synchronize",
                                              // dtypes (a sibling helper module's torch.uint16)
                                              "float16", "half", "bfloat16", "float32", "float",
                                              "float64", "double", "int8", "int16", "short",
                                              "int32", "int", "int64", "long", "uint8", "uint16",
                                              "uint32", "uint64", "bool", "float8_e4m3fn",
                                              "float8_e5m2"};
        for (const char* path :
             {"torch", "torch.nn", "torch.nn.functional", "torch.special", "torch.cuda"}) {
            auto ns = registerModule(path);
            for (const auto& [name, _] : refTable())
                if (auto v = torchMember(path, name)) ns->set(name, *v);
            for (const char* extra : kExtras)
                if (auto v = torchMember(path, extra)) ns->set(extra, *v);
            ns->opaque = true;
            ns->opaqueReason =
                "ref_program: this torch name is not supported by the reference evaluator";
        }
        registerEinops(*this);
        registerScipy(*this);
        installTileOpNames();  // `if reduce_fn is T.reduce_max:` in a reference
    }

protected:
    Value evalEllipsis(Span) override { return Value::ext(std::make_shared<RefEllipsis>()); }
    fe::Flow execWith(const ast::With& s, const EnvPtr& env) override {
        for (const ast::WithItem& item : s.items) {
            Value c = eval(*item.context, env);
            if (!c.extAs<RefNullContext>())
                throw CompileError(item.context->span,
                                   "ref_program: 'with' supports only torch.no_grad(), "
                                   "torch.inference_mode() and autocast contexts, got " +
                                       fe::typeName(c));
            if (item.target) assign(*item.target, Value::none(), env);
        }
        return execBlock(s.body, env);
    }
};

Diagnostic makeDiag(Span s, std::string msg, std::string hint = {}) {
    return Diagnostic{Severity::Error, s, std::move(msg), std::move(hint), kOrigin};
}

/// Runs the definitions of the file's top level (fe::execTopLevel: imports, defs, assignments;
/// failures poison their names), then makes torch's modules the reference vocabulary.
void loadTopLevel(RefInterp& in, const ast::Module& module, const EnvPtr& env) {
    fe::execTopLevel(in, module, env);
    // Whatever name the file gave torch's modules, they become the reference vocabulary.
    for (auto& [name, v] : env->vars)
        if (v.is(ValueKind::Namespace)) {
            const std::string& path = v.nsObj().name;
            if (path == "torch" || path.rfind("torch.", 0) == 0)
                v = Value::ext(std::make_shared<RefModule>(path));
        }
    // Samples often use torch and F without importing them (the reference is not run by Python).
    if (!env->findLocal("torch"))
        env->vars["torch"] = Value::ext(std::make_shared<RefModule>("torch"));
    if (!env->findLocal("F"))
        env->vars["F"] = Value::ext(std::make_shared<RefModule>("torch.nn.functional"));
    // abs(x), float(x), int(x) on tensors, like Python's dunder methods.
    for (const char* b : {"abs", "float", "int", "bool"}) {
        if (env->findLocal(b)) continue;
        Value* orig = in.builtins()->findLocal(b);
        if (!orig) continue;
        Value original = *orig;
        std::string bname = b;
        env->vars[b] = Value::builtin(b, [original, bname](fe::Interp& i, CallArgs& a) -> Value {
            if (a.pos.size() == 1 && a.kw.empty())
                if (auto t = a.pos[0].extAs<RefTensor>()) {
                    if (bname == "abs") return wrap(unary(UnOp::Abs, t->array()));
                    double x = t->array().numel() == 1 ? t->array().item() : 0;
                    if (t->array().numel() != 1)
                        throw CompileError(a.span,
                                           "ref_program: " + bname + "() of a tensor with " +
                                               std::to_string(t->array().numel()) + " elements");
                    if (bname == "float") return Value::real(x);
                    if (bname == "bool") return Value::boolean(x != 0);
                    a.pos[0] = Value::real(x);
                }
            return i.call(original, a);
        });
    }
    // Python's max/min over tensors (`max(cache_seqlens).item()`: iteration over the first
    // dimension, comparisons of one-element tensors) and range() of an integer tensor
    // (`range(n)` with a 0-d int tensor: torch's __index__).
    for (const char* b : {"max", "min"}) {
        if (env->findLocal(b)) continue;
        Value* orig = in.builtins()->findLocal(b);
        if (!orig) continue;
        Value original = *orig;
        const bool isMax = std::string_view(b) == "max";
        std::string bname = b;
        env->vars[b] = Value::builtin(b, [original, isMax, bname](fe::Interp& i, CallArgs& a) -> Value {
            if (!a.kw.empty()) return i.call(original, a);
            if (a.pos.size() == 1)
                if (auto t = a.pos[0].extAs<RefTensor>()) {
                    const RefArray& x = t->array();
                    if (x.rank() == 0)
                        throw CompileError(a.span, "ref_program: " + bname +
                                                       "() of a 0-d tensor (iteration over a "
                                                       "0-d tensor)");
                    if (x.rank() > 1)
                        throw CompileError(a.span, "ref_program: " + bname + "() of a tensor of " +
                                                       "shape " + shapeText(x.shape) +
                                                       " compares its rows (ambiguous in torch); "
                                                       "use tensor." + bname + "()");
                    return wrap(reduce(isMax ? ReduceOp::Max : ReduceOp::Min, x, {0}, false));
                }
            std::vector<Value> items;
            if (a.pos.size() == 1 && a.pos[0].isSequence())
                items = i.iterate(a.pos[0], a.span);
            else
                items = a.pos;
            bool tensors = false;
            for (const Value& v : items) tensors |= v.extAs<RefTensor>() != nullptr;
            if (!tensors || items.empty()) return i.call(original, a);
            auto number = [&](const Value& v) -> double {
                if (auto t = v.extAs<RefTensor>()) {
                    if (t->array().numel() != 1)
                        throw CompileError(a.span, "ref_program: " + bname +
                                                       "() compares a tensor of shape " +
                                                       shapeText(t->array().shape) +
                                                       " (only one-element tensors compare)");
                    return t->array().item();
                }
                if (v.isNumber()) return v.asFloat();
                throw CompileError(a.span, "ref_program: " + bname + "() of a tensor and " +
                                               fe::typeName(v));
            };
            size_t best = 0;
            double bv = number(items[0]);
            for (size_t k = 1; k < items.size(); ++k) {
                double x = number(items[k]);
                if (isMax ? x > bv : x < bv) best = k, bv = x;
            }
            return items[best];
        });
    }
    // isinstance(x, torch.Tensor) (and the typed torch.LongTensor, ...): naive_nsa's
    // `isinstance(block_counts, torch.Tensor)`. Other types go to the builtin.
    if (!env->findLocal("isinstance"))
        if (Value* orig = in.builtins()->findLocal("isinstance")) {
            Value original = *orig;
            env->vars["isinstance"] = Value::builtin("isinstance", [original](fe::Interp& i, CallArgs& a) -> Value {
                if (a.pos.size() != 2 || !a.kw.empty()) return i.call(original, a);
                std::vector<Value> types = a.pos[1].is(ValueKind::Tuple)
                                               ? a.pos[1].items()
                                               : std::vector<Value>{a.pos[1]};
                std::vector<Value> others;
                const RefTensor* t = a.pos[0].extAs<RefTensor>();
                for (const Value& ty : types) {
                    auto u = ty.extAs<RefUnsupported>();
                    if (!u) {
                        others.push_back(ty);
                        continue;
                    }
                    static const std::pair<const char*, std::optional<ir::DType>> kTypes[] = {
                        {"torch.Tensor", std::nullopt},
                        {"torch.FloatTensor", ir::DType::Float32},
                        {"torch.DoubleTensor", ir::DType::Float64},
                        {"torch.HalfTensor", ir::DType::Float16},
                        {"torch.BFloat16Tensor", ir::DType::BFloat16},
                        {"torch.LongTensor", ir::DType::Int64},
                        {"torch.IntTensor", ir::DType::Int32},
                        {"torch.BoolTensor", ir::DType::Bool}};
                    bool known = false;
                    for (const auto& [name, dt] : kTypes)
                        if (u->name() == name) {
                            known = true;
                            if (t && (!dt || t->array().dtype == *dt)) return Value::boolean(true);
                        }
                    if (!known) u->fail(a.argSpan(1));
                }
                if (others.empty()) return Value::boolean(false);
                CallArgs rest = a;
                rest.pos[1] = others.size() == 1 ? others[0] : Value::tuple(others);
                return i.call(original, rest);
            });
        }
    if (!env->findLocal("range"))
        if (Value* orig = in.builtins()->findLocal("range")) {
            Value original = *orig;
            env->vars["range"] = Value::builtin("range", [original](fe::Interp& i, CallArgs& a) -> Value {
                for (size_t k = 0; k < a.pos.size(); ++k)
                    if (auto t = a.pos[k].extAs<RefTensor>()) {
                        const RefArray& x = t->array();
                        if (x.numel() != 1 || ir::isFloat(x.dtype))
                            throw CompileError(a.argSpan(k),
                                               "range() argument must be an int, not a tensor of "
                                               "shape " + shapeText(x.shape) + " and dtype " +
                                                   std::string(ir::dtypeName(x.dtype)));
                        a.pos[k] = Value::integer(static_cast<int64_t>(x.item()));
                    }
                return i.call(original, a);
            });
        }
}

/// The default of a parameter `name` of some top-level function (the factory), if any; `from`
/// gets that function's name.
std::optional<Value> factoryDefault(RefInterp& in, const ast::Module& module, const EnvPtr& env,
                                    const std::string& name, const ast::FunctionDef* skip,
                                    std::string& from) {
    for (const ast::Stmt* s : module.body) {
        auto def = ast::as<ast::FunctionDef>(s);
        if (!def || def == skip) continue;
        for (const auto& p : def->params)
            if (p.name == name && p.defaultValue) {
                try {
                    Value v = in.eval(*p.defaultValue, env);
                    from = def->name;
                    return v;
                } catch (const CompileError&) {
                }
            }
    }
    return std::nullopt;
}

/// The input tensors a reference's parameters did not take (Leftover), for a reference factory.
struct Leftover {
    size_t taken = 0;                 ///< positional inputs the parameters took
    std::vector<HostTensor> tensors;  ///< the rest, in order
};

/// Values of --ref-param NAME=TEXT: a Python literal (read like --param), else a Python
/// expression over the kernel's input tensors by name (`c.unsqueeze(-1)`, `torch.ones(4, 8)`),
/// the kernel's parameters and the file's globals, evaluated in float64 like the reference. A
/// bare name that is none of those stays a string, as with --param.
class NamedValueEval {
public:
    NamedValueEval(RefInterp& in, EnvPtr scope, const ReferenceCall& call)
        : m_in(in), m_scope(std::move(scope)), m_call(call) {}

    Value value(const std::string& name, const std::string& text, Span at) {
        Value lit = fe::parseParamValue(text);
        if (!lit.is(ValueKind::Str)) return lit;
        DiagnosticEngine d;
        auto src = std::make_shared<SourceFile>("<--ref-param " + name + ">", text);
        fe::ParsedExpr parsed = fe::parseExpression(src, d);
        if (!parsed.expr) return lit;
        EnvPtr env = inputsEnv();
        if (auto n = ast::as<ast::Name>(parsed.expr); n && !env->lookup(n->id)) return lit;
        m_keep.push_back(parsed.module);  // the value may refer to its AST (a lambda)
        try {
            return m_in.eval(*parsed.expr, env);
        } catch (const CompileError& e) {
            throw CompileError(at, "--ref-param " + name + "=" + text + ": " + e.diag.message,
                               "the value is a Python literal or an expression over the "
                               "kernel's inputs by name, its parameters and the file's globals");
        } catch (const RefError& e) {
            throw CompileError(at, "--ref-param " + name + "=" + text + ": " + e.what());
        }
    }

private:
    /// The reference's scope plus the kernel's inputs by name (made on first use).
    EnvPtr inputsEnv() {
        if (m_env) return m_env;
        m_env = std::make_shared<fe::Env>();
        m_env->parent = m_scope;
        for (const auto& [n, t] : m_call.namedInputs)
            if (t && t->hasData())
                m_env->vars[n] = RefTensor::make(makeArray(t->dtype, t->shape, t->data));
        for (const ReferenceScalar& sc : m_call.scalars)
            m_env->vars[sc.name] = sc.integer ? Value::integer(static_cast<int64_t>(sc.value))
                                              : Value::real(sc.value);
        return m_env;
    }

    RefInterp& m_in;
    EnvPtr m_scope, m_env;
    const ReferenceCall& m_call;
    std::vector<std::shared_ptr<ast::Module>> m_keep;
};

/// Builds the call of ref_program (see Reference.h for the binding rule). Parameters that fall
/// back to a default nobody chose for this check add a warning to `warnings`.
/// A kernel parameter's value as the reference sees it: `--param reduce_fn=T.reduce_max` (text)
/// is the op (this interpreter's name for it), so `reduce_fn is T.reduce_max` holds.
Value kernelParamValue(RefInterp& in, const EnvPtr& globals, const Value& v) {
    if (v.is(ValueKind::Str) && v.asStr().rfind("T.", 0) == 0)
        if (auto f = fe::callableNamed(in, globals, v.asStr())) return *f;
    return v;
}

CallArgs bindArguments(RefInterp& in, const ast::Module& module, const EnvPtr& env,
                       const ast::FunctionDef& def, const fe::ParamBindings& params,
                       const std::vector<HostTensor>& tensors, const ReferenceCall& opt,
                       std::vector<Diagnostic>& warnings, NamedValueEval& exprs,
                       Leftover* leftover = nullptr) {
    CallArgs call;
    call.span = def.nameSpan;
    call.callee = def.name;
    // The positional inputs: the tensors, with positioned scalars (--ref-inputs) at their places.
    size_t total = tensors.size();
    for (const ReferenceScalar& sc : opt.scalars) total += sc.position.has_value();
    std::vector<const ReferenceScalar*> scalarAt(total, nullptr);
    for (const ReferenceScalar& sc : opt.scalars)
        if (sc.position && *sc.position < total) scalarAt[*sc.position] = &sc;
    std::vector<size_t> tensorIndex(total, 0);
    for (size_t i = 0, t = 0; i < total; ++i)
        if (!scalarAt[i]) tensorIndex[i] = t++;
    auto scalarValue = [](const ReferenceScalar& sc) {
        return sc.integer ? Value::integer(static_cast<int64_t>(sc.value)) : Value::real(sc.value);
    };
    auto scalarNamed = [&](const std::string& n) -> const ReferenceScalar* {
        for (const ReferenceScalar& sc : opt.scalars)
            if (sc.name == n) return &sc;
        return nullptr;
    };
    size_t next = 0;
    auto input = [&](size_t i) -> Value {
        if (const ReferenceScalar* sc = scalarAt[i]) return scalarValue(*sc);
        const HostTensor& h = tensors[tensorIndex[i]];
        if (!h.hasData())
            throw CompileError(def.nameSpan, "ref_program: input " + std::to_string(i) +
                                                 " of shape " + formatShape(h.shape) +
                                                 " has no data");
        return RefTensor::make(makeArray(h.dtype, h.shape, h.data));
    };
    for (const auto& [name, _] : opt.namedValues) {
        bool found = false;
        for (const ast::Param& p : def.params) found |= p.name == name;
        if (!found)
            throw CompileError(def.nameSpan, "--ref-param " + name + ": " + def.name +
                                                 " has no parameter named '" + name + "'");
    }
    bool positional = true;
    for (const ast::Param& p : def.params) {
        if (p.kind == ast::ParamKind::VarKw) continue;
        if (p.kind == ast::ParamKind::VarArgs) {
            for (; next < total; ++next) {
                call.pos.push_back(input(next));
                call.posSpans.push_back(p.span);
            }
            positional = false;
            continue;
        }
        bool canPos = p.kind != ast::ParamKind::KwOnly;
        auto named = opt.namedValues.find(p.name);
        const ReferenceScalar* scalar = scalarNamed(p.name);
        if (scalar && scalar->position) scalar = nullptr;  // it comes positionally
        if (named == opt.namedValues.end() && !scalar && canPos && positional && next < total) {
            call.pos.push_back(input(next++));
            call.posSpans.push_back(p.span);
            continue;
        }
        std::optional<Value> v;
        std::string from;
        if (named != opt.namedValues.end())
            v = exprs.value(p.name, named->second, p.span);
        else if (scalar)
            v = scalarValue(*scalar);
        else if (const Value* pv = fe::findParam(params, p.name))
            v = kernelParamValue(in, env, *pv);
        else if (!p.defaultValue)
            v = factoryDefault(in, module, env, p.name, &def, from);
        if (v && !from.empty())
            warnings.push_back(Diagnostic{
                Severity::Warning, p.span,
                def.name + ": parameter '" + p.name + "' has no value from the kernel; it takes " +
                    "the default of " + from + "'s parameter of that name (" + fe::repr(*v) + ")",
                "pass --ref-param " + p.name + "=VALUE to choose it", kOrigin});
        if (!v && p.defaultValue)
            warnings.push_back(Diagnostic{
                Severity::Warning, p.span,
                def.name + ": parameter '" + p.name +
                    "' has no value from the kernel; it takes its own default",
                "pass --ref-param " + p.name + "=VALUE to choose it", kOrigin});
        if (!v && !p.defaultValue)
            throw CompileError(
                p.span,
                def.name + ": parameter '" + p.name + "' has no value: the kernel has " +
                    std::to_string(total) + " input" + (total == 1 ? "" : "s") +
                    " and no factory parameter is named '" +
                    p.name + "'",
                "give it a default, name it like a parameter of the kernel factory, or pass "
                "--ref-param " + p.name + "=VALUE");
        if (!v) {
            positional = false;
            continue;
        }
        if (positional && canPos) {
            call.pos.push_back(*v);
            call.posSpans.push_back(p.span);
        } else if (p.kind == ast::ParamKind::PosOnly) {
            throw CompileError(p.span, "ref_program: positional-only parameter '" + p.name +
                                           "' cannot follow a defaulted one");
        } else {
            call.kw.emplace_back(p.name, *v);
            call.kwSpans.push_back(p.span);
        }
    }
    if (next < total && leftover) {
        // Maybe a reference factory (`ref_program(stride, padding, dilation)` returning
        // `main(A, B)`): run() calls what it returns with these.
        bool tensorsOnly = true;
        for (size_t i = next; i < total; ++i) tensorsOnly &= scalarAt[i] == nullptr;
        if (tensorsOnly) {
            leftover->taken = next;
            for (size_t i = next; i < total; ++i) leftover->tensors.push_back(tensors[tensorIndex[i]]);
            return call;
        }
    }
    if (next < total)
        throw CompileError(
            def.nameSpan,
            "ref_program takes " + std::to_string(next) + " tensor parameter" +
                (next == 1 ? "" : "s") + " but the kernel has " + std::to_string(total) +
                " inputs",
            "TileScope calls ref_program(*inputs) with every non-output tensor of the kernel");
    return call;
}

/// The array of one returned value.
RefArray outputArray(const Value& v, Span s) {
    if (auto t = v.extAs<RefTensor>()) return t->array();
    if (v.isNumber()) return toArray(v, s, "");
    throw CompileError(
        s, "ref_program must return tensors, got " + fe::typeName(v) + " (" + fe::repr(v) + ")",
        v.isNone() ? "add a return statement" : "");
}

/// Moves the arrays into HostTensors. Called once the program's values are gone, so storage
/// that nothing else shares is moved, not copied (a 4096 x 8192 result costs no copy).
void takeOutputs(ReferenceResult& r, std::vector<RefArray>& arrays) {
    for (RefArray& a : arrays) {
        std::vector<double> data = a.data.use_count() == 1 ? std::move(*a.data) : *a.data;
        a.data.reset();
        r.outputs.push_back(HostTensor{ir::DType::Float64, a.shape, std::move(data)});
        r.nominalDTypes.push_back(a.weak ? (ir::isFloat(a.dtype) ? ir::DType::Float32 : a.dtype)
                                         : a.dtype);
    }
}

/// The functions enclosing `def` inside `body`, outermost first, appended to `chain`; true when
/// `def` was found. Top-level `if` blocks (the main guard) are searched without adding a level.
bool enclosingChain(const ast::Block& body, const ast::FunctionDef* def,
                    std::vector<const ast::FunctionDef*>& chain, bool topLevel) {
    for (const ast::Stmt* s : body) {
        if (s == def) return true;
        if (auto f = ast::as<ast::FunctionDef>(s)) {
            chain.push_back(f);
            if (enclosingChain(f->body, def, chain, false)) return true;
            chain.pop_back();
        } else if (auto i = ast::as<ast::If>(s); i && topLevel) {
            if (enclosingChain(i->body, def, chain, false)) return true;
        }
    }
    return false;
}

/// `s` and the statements of the blocks nested in it (not nested defs), in order.
void forEachStmtIn(const ast::Stmt* s, const std::function<void(const ast::Stmt*)>& fn) {
    auto block = [&](const ast::Block& b) {
        for (const ast::Stmt* x : b) forEachStmtIn(x, fn);
    };
    fn(s);
    if (auto i = ast::as<ast::If>(s)) block(i->body), block(i->orelse);
    else if (auto f = ast::as<ast::For>(s)) block(f->body), block(f->orelse);
    else if (auto w = ast::as<ast::While>(s)) block(w->body), block(w->orelse);
    else if (auto w = ast::as<ast::With>(s)) block(w->body);
    else if (auto t = ast::as<ast::Try>(s)) block(t->body), block(t->orelse), block(t->finalbody);
}

/// Parameters of `outer` that it passes, as plain names, to the kernel factory whose parameters
/// are bound: `def run_clamp(N, block_N, dtype, min=None, max=None)` calling
/// `clamp_within_bounds(N, block_N, dtype, min, max)` maps min -> min_val and max -> max_val, so a
/// ref_program nested in run_clamp that reads `min` sees the kernel's min_val (it saw min's
/// default None: torch.clamp(A, None, None) was a wrong reference, a false FAIL). The callee is a
/// module-level def taking every bound parameter -- the factory -- so other helpers' arguments
/// are not read as kernel parameters.
struct FactoryAliases {
    std::map<std::string, std::string> kernelParamOf;  ///< helper parameter -> kernel parameter
    const ast::Stmt* callStmt = nullptr;  ///< the statement of outer's body holding the first such call
};
FactoryAliases factoryArgumentNames(const ast::Module& module, const ast::FunctionDef& outer,
                                    const fe::ParamBindings& params) {
    std::map<std::string, const ast::FunctionDef*> defs;
    for (const ast::Stmt* s : module.body)
        if (auto f = ast::as<ast::FunctionDef>(s)) defs[f->name] = f;
    auto takesAll = [&](const ast::FunctionDef& f) {
        if (params.empty()) return false;
        for (const auto& binding : params)  // no structured binding: clang 14 cannot capture one
            if (std::none_of(f.params.begin(), f.params.end(), [&](const ast::Param& p) { return p.name == binding.first; }))
                return false;
        return true;
    };
    auto outerParam = [&](const ast::Expr* e) -> std::string {
        auto n = ast::as<ast::Name>(e);
        if (!n) return {};
        for (const ast::Param& p : outer.params)
            if (p.name == n->id) return n->id;
        return {};
    };
    std::vector<std::pair<std::string, std::string>> out;
    // Every call in an expression tree: a factory call's plain-name arguments map to its params.
    std::function<void(const ast::Expr*)> visit = [&](const ast::Expr* x) {
        if (auto c = ast::as<ast::Call>(x)) {
            auto callee = ast::as<ast::Name>(c->func);
            auto it = callee ? defs.find(callee->id) : defs.end();
            if (it != defs.end() && takesAll(*it->second)) {
                const auto& ps = it->second->params;
                for (size_t i = 0; i < c->args.size() && i < ps.size(); ++i) {
                    if (c->args[i]->kind == ast::ExprKind::Starred) break;
                    if (auto n = outerParam(c->args[i]); !n.empty()) out.emplace_back(n, ps[i].name);
                }
                for (const auto& kw : c->keywords)
                    if (auto n = outerParam(kw.value); !n.empty() && !kw.name.empty()) out.emplace_back(n, kw.name);
            }
        }
        ast::forEachChild(x, visit);
    };
    const ast::Stmt* callStmt = nullptr;
    for (const ast::Stmt* top : outer.body) {
        const size_t before = out.size();
        forEachStmtIn(top, [&](const ast::Stmt* st) { ast::forEachExpr(st, visit); });
        if (out.size() > before && !callStmt) callStmt = top;
    }
    // A helper parameter passed as two different kernel parameters (two factory calls, or one
    // call taking it twice) has no single value: dropped (helper-120).
    FactoryAliases fa;
    fa.callStmt = callStmt;
    std::set<std::string> ambiguous;
    for (const auto& [name, kp] : out) {
        auto [it, fresh] = fa.kernelParamOf.emplace(name, kp);
        if (!fresh && it->second != kp) ambiguous.insert(name);
    }
    for (const auto& n : ambiguous) fa.kernelParamOf.erase(n);
    return fa;
}

/// The scope a ref_program runs in (Reference.h). A top-level one sees the module globals and
/// the bound factory parameters (which shadow globals of the same name), like the module-level
/// `flops = 2 * M * N * K` does. One nested in functions (TileLang tests define it inside
/// `def run_gemm(M, N, K, trans_A, ...)`) also sees, per enclosing function, its parameters'
/// defaults and the simple assignments before the nested def; bound parameters win.
EnvPtr referenceScope(RefInterp& in, const ast::Module& module, const EnvPtr& globals,
                      const ast::FunctionDef* def, const fe::ParamBindings& params) {
    std::vector<const ast::FunctionDef*> chain;
    enclosingChain(module.body, def, chain, true);
    auto scope = std::make_shared<fe::Env>();
    scope->parent = globals;
    for (const auto& [name, v] : params) scope->vars[name] = kernelParamValue(in, globals, v);
    auto bound = [&](const std::string& n) { return fe::findParam(params, n) != nullptr; };
    for (size_t level = 0; level < chain.size(); ++level) {
        const ast::FunctionDef* outer = chain[level];
        const ast::Stmt* stop = level + 1 < chain.size() ? chain[level + 1] : def;
        for (const ast::Param& p : outer->params) {
            if (!p.defaultValue || bound(p.name)) continue;
            try {
                scope->vars[p.name] = in.eval(*p.defaultValue, scope);
            } catch (const CompileError&) {
            }
        }
        // Such a name holds the value it had at the kernel call, so the helper's assignments to
        // it before the call (`lo = lo * 2`) are skipped; those after it run. It wins over a
        // kernel parameter of the same name (`run(N, hi, lo)` calling `clamp(N, hi, lo)` with
        // clamp's (N, lo, hi): run's hi is the kernel's lo).
        const FactoryAliases fa = factoryArgumentNames(module, *outer, params);
        std::set<std::string> aliased;
        for (const auto& [name, kernelParam] : fa.kernelParamOf)
            if (const Value* v = fe::findParam(params, kernelParam)) {
                scope->vars[name] = *v;
                aliased.insert(name);
            }
        bool afterCall = false;
        for (const ast::Stmt* s : outer->body) {
            if (s == stop) break;
            if (s == fa.callStmt) afterCall = true;
            const ast::Expr* value = nullptr;
            std::vector<const ast::Expr*> targets;
            if (auto a = ast::as<ast::Assign>(s))
                value = a->value, targets.assign(a->targets.begin(), a->targets.end());
            if (auto a = ast::as<ast::AnnAssign>(s)) value = a->value, targets = {a->target};
            if (!value || !fe::isSimpleMetaExpr(value)) continue;
            bool plain = !targets.empty();
            for (const ast::Expr* t : targets) {
                auto n = ast::as<ast::Name>(t);
                // `M = 1024` in the test body: the kernel's M wins (an aliased name's value is
                // the call's until the call, then the helper's own assignments apply).
                plain &= n && (aliased.count(n->id) ? afterCall : !bound(n->id));
            }
            if (!plain) continue;
            try {
                in.exec(*s, scope);
            } catch (const CompileError&) {
            }
        }
    }
    return scope;
}

/// The evaluation proper: `def` is the ref_program inside `module`.
ReferenceResult run(const ast::Module& module, const ast::FunctionDef* def,
                    const fe::ParamBindings& params, const std::vector<HostTensor>& inputs,
                    const ReferenceOptions& opt, const ReferenceCall& refCall = {}) {
    ReferenceResult r;
    if (!def) {
        r.diagnostics.push_back(makeDiag(
            Span{}, "no '" + opt.functionName + "' function in " + module.source()->path(),
            "define def " + opt.functionName + "(*inputs) returning the expected outputs"));
        return r;
    }
    // `--ref matmul` naming a kernel: it returns a kernel, not tensors (helper-125 #17 reported
    // "ref_program must return tensors, got function" or a missing parameter instead).
    for (const ast::Expr* d : def->decorators) {
        const ast::Expr* callee = d;
        if (auto c = ast::as<ast::Call>(d)) callee = c->func;
        const std::string n = fe::dottedName(callee);
        const std::string last = n.substr(n.rfind('.') == std::string::npos ? 0 : n.rfind('.') + 1);
        if (last == "jit" || last == "prim_func" || last == "autotune" || last == "macro") {
            r.diagnostics.push_back(makeDiag(
                def->nameSpan,
                "'" + def->name + "' is a kernel (@" + n + "), not a reference: --ref names a Python function "
                "that computes the expected outputs from the inputs",
                "write e.g. def ref_program(A, B): return A @ B (torch code) and pass --ref ref_program"));
            return r;
        }
    }
    DiagnosticEngine diags;
    std::vector<Diagnostic> warnings;  // after the errors: diagnostics[0] is the failure
    try {
        RefInterp in(diags);
        in.limits().maxSteps = opt.maxSteps;
        // `from block_causal_attention import block_causal_attention_ref`: the file's sibling
        // modules load as they do for the compile (MetaEval.h setSiblingDir).
        if (module.source()) in.setSiblingDir(fe::siblingDirOf(*module.source()));
        EnvPtr env = in.newModuleEnv();
        loadTopLevel(in, module, env);
        EnvPtr scope = referenceScope(in, module, env, def, params);
        Value fn = in.makeFunction(*def, scope);
        NamedValueEval exprs(in, scope, refCall);
        Leftover rest;
        CallArgs call =
            bindArguments(in, module, env, *def, params, inputs, refCall, warnings, exprs, &rest);
        std::vector<RefArray> arrays;
        {
            Value ret = in.call(fn, call);
            call = CallArgs{};  // drop the input tensors
            if (!rest.tensors.empty()) {
                // A reference factory: its parameters are the check's settings (--ref-param,
                // the kernel's parameters) and it returns the function of the inputs.
                const ast::FunctionDef* inner =
                    ret.is(ValueKind::Function) ? ret.functionObj().def : nullptr;
                const size_t total = rest.taken + rest.tensors.size();
                if (!inner)
                    throw CompileError(
                        def->nameSpan,
                        "ref_program takes " + std::to_string(rest.taken) + " tensor parameter" +
                            (rest.taken == 1 ? "" : "s") + " but the kernel has " +
                            std::to_string(total) + " inputs",
                        "TileScope calls ref_program(*inputs) with every non-output tensor of the "
                        "kernel (or, when its parameters are all settings, the function it "
                        "returns)");
                ReferenceCall innerCall;
                for (const auto& [n, text] : refCall.namedValues)
                    for (const ast::Param& p : inner->params)
                        if (p.name == n) innerCall.namedValues[n] = text;
                innerCall.namedInputs = refCall.namedInputs;
                NamedValueEval innerExprs(in, scope, innerCall);
                CallArgs c2 = bindArguments(in, module, env, *inner, params, rest.tensors,
                                            innerCall, warnings, innerExprs);
                rest.tensors.clear();
                ret = in.call(ret, c2);
            }
            Span retSpan = def->nameSpan;
            if (ret.is(ValueKind::Tuple) || ret.is(ValueKind::List) || ret.extAs<RefNamedTuple>()) {
                for (const Value& v : in.iterate(ret, retSpan))
                    arrays.push_back(outputArray(v, retSpan));
            } else {
                arrays.push_back(outputArray(ret, retSpan));
            }
        }
        takeOutputs(r, arrays);
        r.ok = !r.outputs.empty();
        if (!r.ok)
            r.diagnostics.push_back(makeDiag(def->nameSpan, "ref_program returned an empty tuple"));
    } catch (const CompileError& e) {
        Diagnostic d = e.diag;
        if (d.origin.empty()) d.origin = kOrigin;
        r.diagnostics.push_back(std::move(d));
    } catch (const RefError& e) {
        r.diagnostics.push_back(makeDiag(def->nameSpan, std::string("ref_program: ") + e.what()));
    } catch (const std::bad_alloc&) {
        r.diagnostics.push_back(
            makeDiag(def->nameSpan, "ref_program: out of memory while evaluating the reference",
                     "try smaller sizes (--param) for the check"));
    } catch (const std::exception& e) {
        r.diagnostics.push_back(
            makeDiag(def->nameSpan, std::string("ref_program: internal error: ") + e.what()));
    }
    for (Diagnostic& w : warnings) r.diagnostics.push_back(std::move(w));
    for (const Diagnostic& d : diags.all()) r.diagnostics.push_back(d);
    if (!r.ok) r.outputs.clear(), r.nominalDTypes.clear();
    return r;
}

}  // namespace

namespace {
/// The last `def name` among the statements of `body`, or null.
const ast::FunctionDef* lastDefIn(const ast::Block& body, std::string_view name) {
    const ast::FunctionDef* found = nullptr;
    for (const ast::Stmt* s : body)
        if (auto def = ast::as<ast::FunctionDef>(s); def && def->name == name) found = def;
    return found;
}
}  // namespace

std::vector<std::string> referenceCandidates(const ast::Module& module, size_t limit) {
    std::vector<std::string> out;
    auto add = [&](std::string n) {
        if (out.size() < limit && std::find(out.begin(), out.end(), n) == out.end())
            out.push_back(std::move(n));
    };
    for (const ast::Stmt* s : module.body)
        if (auto f = ast::as<ast::FunctionDef>(s)) {
            add(f->name);
            for (const ast::Stmt* inner : f->body)
                if (auto g = ast::as<ast::FunctionDef>(inner)) add(f->name + "." + g->name);
        }
    return out;
}

const ast::FunctionDef* findReferenceProgram(const ast::Module& module, const std::string& name) {
    if (name.find('.') != std::string::npos) {
        // A path of defs from the top level: run_gemm.ref_program.
        const ast::Block* body = &module.body;
        const ast::FunctionDef* def = nullptr;
        size_t start = 0;
        while (start <= name.size()) {
            size_t dot = name.find('.', start);
            std::string_view part = std::string_view(name).substr(
                start, dot == std::string::npos ? std::string::npos : dot - start);
            def = part.empty() ? nullptr : lastDefIn(*body, part);
            if (!def) return nullptr;
            body = &def->body;
            if (dot == std::string::npos) break;
            start = dot + 1;
        }
        return def;
    }
    const ast::FunctionDef* found = nullptr;
    for (const ast::Stmt* s : module.body)
        if (auto def = ast::as<ast::FunctionDef>(s); def && def->name == name)
            found = def;  // the last def wins, like Python
    if (found) return found;
    // Like fe::Module::refProgram(): one level down, in a module-level function or the main guard.
    for (const ast::Stmt* s : module.body) {
        const ast::Block* body = nullptr;
        if (auto f = ast::as<ast::FunctionDef>(s))
            body = &f->body;
        else if (auto i = ast::as<ast::If>(s))
            body = &i->body;
        if (!body) continue;
        for (const ast::Stmt* inner : *body)
            if (auto def = ast::as<ast::FunctionDef>(inner); def && def->name == name) return def;
    }
    return nullptr;
}

ReferenceResult evalReference(const fe::Module& module, const fe::ParamBindings& params,
                              const std::vector<HostTensor>& inputs, const ReferenceOptions& opt) {
    const ast::FunctionDef* def = opt.functionName == "ref_program" ? module.refProgram() : nullptr;
    if (!def) def = findReferenceProgram(*module.ast(), opt.functionName);
    return run(*module.ast(), def, params, inputs, opt);
}

ReferenceResult evalReference(const ast::Module& module,
                              const std::map<std::string, std::string>& factoryParams,
                              const std::vector<HostTensor>& inputs, const ReferenceOptions& opt) {
    fe::ParamBindings params;
    for (const auto& [name, text] : factoryParams)
        params.emplace_back(name, fe::parseParamValue(text));
    return run(module, findReferenceProgram(module, opt.functionName), params, inputs, opt);
}

ReferenceResult evalReference(const ast::Module& module,
                              const std::map<std::string, std::string>& factoryParams,
                              const std::vector<HostTensor>& inputs, const ReferenceOptions& opt,
                              const ReferenceCall& call) {
    fe::ParamBindings params;
    for (const auto& [name, text] : factoryParams)
        params.emplace_back(name, fe::parseParamValue(text));
    return run(module, findReferenceProgram(module, opt.functionName), params, inputs, opt, call);
}

ReferenceResult evalReference(const SourcePtr& src,
                              const std::map<std::string, std::string>& factoryParams,
                              const std::vector<HostTensor>& inputs, const ReferenceOptions& opt) {
    DiagnosticEngine diags;
    std::shared_ptr<ast::Module> module = fe::parseModule(src, diags);
    if (diags.hasErrors()) {
        ReferenceResult r;
        r.diagnostics = diags.take();
        return r;
    }
    ReferenceResult r = evalReference(*module, factoryParams, inputs, opt);
    for (const Diagnostic& d : diags.all()) r.diagnostics.push_back(d);
    return r;
}

}  // namespace ts::rt
