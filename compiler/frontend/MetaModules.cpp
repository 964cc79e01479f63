// The modules the meta level knows: math, itertools, functools, tilelang (jit/autotune
// decorators), tilelang.language as `T` (ceildiv, dtypes, prim_func/macro markers; the
// elaborator adds the kernel vocabulary), and torch (dtypes only; everything else in torch
// belongs to ref_program, which the meta-evaluator does not run).
#include <cmath>
#include <numeric>

#include "compiler/frontend/MetaBuiltins.h"
#include "compiler/frontend/MetaAutoTuner.h"
#include "compiler/frontend/MetaDevice.h"
#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/LanguageRegistry.h"

namespace ts::fe {

using namespace meta;

namespace {

void defn(NamespaceObj& ns, const std::string& shortName, const std::string& name, BuiltinFn fn) {
    ns.set(name, Value::builtin(shortName + "." + name, std::move(fn)));
}

BuiltinFn unaryMath(double (*f)(double), const char* domain = nullptr, bool positive = false) {
    return [f, domain, positive](Interp&, CallArgs& a) {
        a.expectPositional(1, 1);
        double x = needFloat(a, 0);
        if (domain && (positive ? x <= 0 : x < 0))
            throw CompileError(a.argSpan(0), a.callee + "(): math domain error", domain);
        const double r = f(x);
        if (std::isinf(r) && std::isfinite(x))  // CPython raises OverflowError (math.exp(1000))
            throw CompileError(a.argSpan(0), a.callee + "(): math range error", "the result is too large for a float");
        return Value::real(r);
    };
}

BuiltinFn roundingMath(double (*f)(double)) {
    return [f](Interp&, CallArgs& a) {
        a.expectPositional(1, 1);
        if (a.pos[0].isIntLike()) return Value::integer(a.pos[0].asInt());
        return Value::integer(floatToInt(f(needFloat(a, 0)), a.argSpan(0)));
    };
}

// `@deco` and `@deco(key=value, ...)` both return the function unchanged: tilelang.jit and
// autotune are read syntactically by Module.cpp, not executed.
BuiltinFn passThroughDecorator(const std::string& name) {
    return [name](Interp&, CallArgs& a) -> Value {
        if (a.kw.empty() && a.pos.size() == 1 && a.pos[0].is(ValueKind::Function)) return a.pos[0];
        return Value::builtin(name + "(...)", [](Interp&, CallArgs& b) {
            b.expectPositional(1, 1);
            return b.pos[0];
        });
    };
}

// T.prim_func / T.macro: copy the function with a tag (works bare and as `@T.macro(...)`).
BuiltinFn tagDecorator(const std::string& name, FunctionTag tag) {
    auto apply = [name, tag](const Value& f, const CallArgs& a, std::vector<Value> kw) {
        if (!f.is(ValueKind::Function))
            throw CompileError(a.span, name + " must decorate a function, got " + typeName(f));
        auto copy = std::make_shared<FunctionObj>(f.functionObj());
        copy->tag = tag;
        copy->decoratorArgs = std::move(kw);
        return Value::function(copy);
    };
    auto noted = [tag](Interp& in, Value v) {
        if (tag == FunctionTag::PrimFunc) in.notePrimFunc(v);
        return v;
    };
    return [name, apply, noted](Interp& in, CallArgs& a) -> Value {
        if (a.kw.empty() && a.pos.size() == 1) return noted(in, apply(a.pos[0], a, {}));
        std::vector<Value> kw;
        for (auto& [k, v] : a.kw) kw.push_back(Value::tuple({Value::str(k), v}));
        return Value::builtin(name + "(...)", [apply, noted, kw](Interp& in2, CallArgs& b) {
            b.expectPositional(1, 1);
            return noted(in2, apply(b.pos[0], b, kw));
        });
    };
}

}  // namespace

void Interp::installModules() {
    // ---- math ----
    auto math = registerModule("math");
    NamespaceObj& m = *math;
    defn(m, "math", "ceil", roundingMath(std::ceil));
    defn(m, "math", "floor", roundingMath(std::floor));
    defn(m, "math", "trunc", roundingMath(std::trunc));
    defn(m, "math", "sqrt", unaryMath(std::sqrt, "sqrt of a negative number"));
    defn(m, "math", "log2", unaryMath(std::log2, "log of a non-positive number", true));
    defn(m, "math", "log10", unaryMath(std::log10, "log of a non-positive number", true));
    // Functions defined on every real (no domain error to mirror), as CPython computes them.
    static const std::pair<const char*, double (*)(double)> kEverywhere[] = {
        {"exp", std::exp},   {"fabs", std::fabs}, {"sin", std::sin},     {"cos", std::cos},    {"tan", std::tan},
        {"tanh", std::tanh}, {"erf", std::erf},   {"erfc", std::erfc},   {"atan", std::atan},  {"sinh", std::sinh},
        {"cosh", std::cosh}, {"asinh", std::asinh}, {"expm1", std::expm1}};
    for (auto [name, fn] : kEverywhere) defn(m, "math", name, unaryMath(fn));
    defn(m, "math", "atan2", [](Interp&, CallArgs& a) {
        a.expectPositional(2, 2);
        return Value::real(std::atan2(needFloat(a, 0), needFloat(a, 1)));
    });
    defn(m, "math", "hypot", [](Interp&, CallArgs& a) {  // any number of coordinates, as Python 3.8+
        double h = 0;
        for (size_t i = 0; i < a.pos.size(); ++i) h = std::hypot(h, needFloat(a, i));
        return Value::real(h);
    });
    defn(m, "math", "log", [](Interp&, CallArgs& a) {
        a.expectPositional(1, 2);
        double x = needFloat(a, 0);
        if (x <= 0)
            throw CompileError(a.argSpan(0), "math.log(): math domain error",
                               "log of a non-positive number");
        if (a.pos.size() == 1) return Value::real(std::log(x));
        double base = needFloat(a, 1);
        if (base <= 0 || base == 1) throw CompileError(a.argSpan(1), "math.log(): invalid base");
        return Value::real(std::log(x) / std::log(base));
    });
    defn(m, "math", "pow", [](Interp&, CallArgs& a) {
        a.expectPositional(2, 2);
        return Value::real(std::pow(needFloat(a, 0), needFloat(a, 1)));
    });
    defn(m, "math", "fmod", [](Interp&, CallArgs& a) {  // C's fmod: the sign of x (Python's % takes y's)
        a.expectPositional(2, 2);
        const double x = needFloat(a, 0), y = needFloat(a, 1);
        if (y == 0 || std::isinf(x)) throw CompileError(a.span, "math.fmod(): math domain error", "fmod(x, y) needs y != 0 and a finite x");
        return Value::real(std::fmod(x, y));
    });
    defn(m, "math", "copysign", [](Interp&, CallArgs& a) {
        a.expectPositional(2, 2);
        return Value::real(std::copysign(needFloat(a, 0), needFloat(a, 1)));
    });
    defn(m, "math", "isinf", [](Interp&, CallArgs& a) {
        a.expectPositional(1, 1);
        return Value::boolean(std::isinf(needFloat(a, 0)));
    });
    defn(m, "math", "isnan", [](Interp&, CallArgs& a) {
        a.expectPositional(1, 1);
        return Value::boolean(std::isnan(needFloat(a, 0)));
    });
    defn(m, "math", "isfinite", [](Interp&, CallArgs& a) {
        a.expectPositional(1, 1);
        return Value::boolean(std::isfinite(needFloat(a, 0)));
    });
    defn(m, "math", "gcd", [](Interp&, CallArgs& a) {
        int64_t g = 0;
        for (size_t i = 0; i < a.pos.size(); ++i) g = std::gcd(g, needInt(a, i, "argument"));
        return Value::integer(g);
    });
    defn(m, "math", "lcm", [](Interp&, CallArgs& a) {
        int64_t l = 1;
        for (size_t i = 0; i < a.pos.size(); ++i) {
            int64_t x = needInt(a, i, "argument");
            if (x == 0) return Value::integer(0);
            int64_t r;
            if (__builtin_mul_overflow(l / std::gcd(l, x), x < 0 ? -x : x, &r))
                throw CompileError(a.span, "integer overflow in math.lcm()");
            l = r;
        }
        return Value::integer(l);
    });
    defn(m, "math", "isqrt", [](Interp&, CallArgs& a) {
        a.expectPositional(1, 1);
        int64_t n = needInt(a, 0, "argument");
        if (n < 0) throw CompileError(a.argSpan(0), "isqrt() argument must be nonnegative");
        int64_t r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
        while (r > 0 && r > n / r) --r;
        while ((r + 1) <= n / (r + 1)) ++r;
        return Value::integer(r);
    });
    defn(m, "math", "prod", [](Interp& in, CallArgs& a) {
        auto b = a.bind({"iterable", "start"}, 1);
        Value acc = b.get(1, Value::integer(1));
        for (const Value& v : in.iterate(b[0], b.spans[0]))
            acc = in.binaryOp(ast::BinOpKind::Mul, acc, v, a.span);
        return acc;
    });
    m.set("inf", Value::real(INFINITY));
    m.set("nan", Value::real(NAN));
    m.set("pi", Value::real(M_PI));
    m.set("e", Value::real(M_E));
    m.set("tau", Value::real(2 * M_PI));

    // ---- itertools ----
    auto it = registerModule("itertools");
    defn(*it, "itertools", "product", [](Interp& in, CallArgs& a) {
        auto repeatV = a.keyword("repeat");
        for (size_t k = 0; k < a.kw.size(); ++k)
            if (a.kw[k].first != "repeat")
                throw CompileError(a.kwSpans[k], "product() got an unexpected keyword argument '" +
                                                     a.kw[k].first + "'");
        int64_t repeat = repeatV ? (repeatV->isIntLike() ? repeatV->asInt() : -1) : 1;
        if (repeat < 0) throw CompileError(a.span, "product() repeat must be a non-negative int");
        std::vector<std::vector<Value>> pools;
        for (int64_t r = 0; r < repeat; ++r)
            for (size_t i = 0; i < a.pos.size(); ++i)
                pools.push_back(in.iterate(a.pos[i], a.argSpan(i)));
        uint64_t total = 1;
        for (auto& p : pools) {
            if (p.empty()) return Value::list({});
            if (total > in.limits().maxSequence / p.size())
                throw CompileError(a.span,
                                   "itertools.product() is too large to expand at compile time");
            total *= p.size();
        }
        std::vector<Value> out;
        std::vector<size_t> idx(pools.size(), 0);
        for (uint64_t n = 0; n < total; ++n) {
            std::vector<Value> row;
            for (size_t i = 0; i < pools.size(); ++i) row.push_back(pools[i][idx[i]]);
            out.push_back(Value::tuple(std::move(row)));
            for (size_t i = pools.size(); i-- > 0;) {  // odometer: last pool varies fastest
                if (++idx[i] < pools[i].size()) break;
                idx[i] = 0;
            }
        }
        return Value::list(std::move(out));
    });
    defn(*it, "itertools", "chain", [](Interp& in, CallArgs& a) {
        std::vector<Value> out;
        for (size_t i = 0; i < a.pos.size(); ++i)
            for (auto& v : in.iterate(a.pos[i], a.argSpan(i))) out.push_back(v);
        return Value::list(std::move(out));
    });
    defn(*it, "itertools", "combinations", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, 2);
        auto pool = in.iterate(a.pos[0], a.argSpan(0));
        int64_t r = needInt(a, 1, "r");
        std::vector<Value> out;
        if (r < 0 || r > static_cast<int64_t>(pool.size())) return Value::list({});
        std::vector<size_t> idx(static_cast<size_t>(r));
        std::iota(idx.begin(), idx.end(), 0);
        while (true) {
            std::vector<Value> row;
            for (size_t i : idx) row.push_back(pool[i]);
            out.push_back(Value::tuple(std::move(row)));
            if (out.size() > in.limits().maxSequence)
                throw CompileError(a.span, "combinations() is too large");
            int64_t i = r - 1;
            while (i >= 0 && idx[static_cast<size_t>(i)] ==
                                 static_cast<size_t>(i) + pool.size() - static_cast<size_t>(r))
                --i;
            if (i < 0) break;
            ++idx[static_cast<size_t>(i)];
            for (size_t j = static_cast<size_t>(i) + 1; j < idx.size(); ++j)
                idx[j] = idx[j - 1] + 1;
        }
        return Value::list(std::move(out));
    });

    // ---- functools ----
    auto ft = registerModule("functools");
    defn(*ft, "functools", "reduce", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, 3);
        auto items = in.iterate(a.pos[1], a.argSpan(1));
        size_t i = 0;
        Value acc;
        if (a.pos.size() == 3) {
            acc = a.pos[2];
        } else {
            if (items.empty())
                throw CompileError(a.span, "reduce() of empty iterable with no initial value");
            acc = items[i++];
        }
        for (; i < items.size(); ++i)
            acc = callWith(in, a.pos[0], {acc, items[i]}, a.span, "reduce function");
        return acc;
    });
    defn(*ft, "functools", "partial", [](Interp&, CallArgs& a) {
        if (a.pos.empty()) throw CompileError(a.span, "partial() needs a function");
        CallArgs bound = a;
        return Value::builtin("functools.partial", [bound](Interp& in, CallArgs& c) {
            CallArgs full = c;
            full.pos.insert(full.pos.begin(), bound.pos.begin() + 1, bound.pos.end());
            full.posSpans.insert(full.posSpans.begin(), bound.posSpans.begin() + 1,
                                 bound.posSpans.end());
            for (size_t k = 0; k < bound.kw.size(); ++k)
                if (!c.keyword(bound.kw[k].first)) {
                    full.kw.push_back(bound.kw[k]);
                    full.kwSpans.push_back(bound.kwSpans[k]);
                }
            return in.call(bound.pos[0], full);
        });
    });
    for (const char* cacheName : {"lru_cache", "cache"})
        defn(*ft, "functools", cacheName,
             passThroughDecorator(std::string("functools.") + cacheName));

    // ---- tilelang.language (T) ----
    auto T = registerModule("tilelang.language");
    defn(*T, "T", "ceildiv", [](Interp& in, CallArgs& a) {
        a.expectPositional(2, 2);
        const Value &x = a.pos[0], &y = a.pos[1];
        if (x.isIntLike() && y.isIntLike()) {
            if (y.asInt() == 0)
                throw CompileError(a.argSpan(1), "T.ceildiv() by zero",
                                   "the divisor is a tile size or count that came out 0: check the factory's default and any "
                                   "--param / -p value for it");
            if (x.asInt() == INT64_MIN)
                throw CompileError(a.span, "integer overflow in T.ceildiv()");
            return Value::integer(-pyFloorDiv(-x.asInt(), y.asInt()));
        }
        // Run-time operands: (x + y - 1) // y through the ExtValue operators.
        Value num = in.binaryOp(ast::BinOpKind::Sub, in.binaryOp(ast::BinOpKind::Add, x, y, a.span),
                                Value::integer(1), a.span);
        return in.binaryOp(ast::BinOpKind::FloorDiv, num, y, a.span);
    });
    for (int i = 0; i <= static_cast<int>(ir::kLastDType); ++i) {
        auto t = static_cast<ir::DType>(i);
        T->set(std::string(ir::dtypeName(t)), Value::dtype(t));
    }
    T->set("float8_e4m3fn", Value::dtype(ir::DType::Float8E4M3));
    // T.GemmWarpPolicy at module level too: a test passing `GemmWarpPolicy.FullRow` to its kernel
    // factory gives the policy from there (helper-119/120: "policy has no value"); the elaborator
    // reads the same namespace (policyArg, ElaborateOps.cpp).
    {
        auto policy = std::make_shared<NamespaceObj>();
        policy->name = "T.GemmWarpPolicy";
        for (const char* p : {"Square", "FullRow", "FullCol"}) policy->set(p, Value::str(p));
        T->set("GemmWarpPolicy", Value::ns(policy));
    }
    // TF32 values live in 32-bit float storage (TVM's tfloat32 buffers are float32 in memory);
    // what TF32 changes is the tensor-core product, which a float32 T.gemm already computes in.
    T->set("tfloat32", Value::dtype(ir::DType::Float32));
    T->set("float", Value::dtype(ir::DType::Float32));  // TileLang's alias: T.float is float32
    T->set("double", Value::dtype(ir::DType::Float64));
    T->set("half", Value::dtype(ir::DType::Float16));
    // TVM's canonical C names (dtypes.py: int -> int32, uint -> uint32, long, ulong, short).
    for (const char* alias : {"int", "uint", "long", "ulong", "short"})
        T->set(alias, Value::dtype(*ir::parseDType(alias)));
    T->set("dtype", Value::builtin("T.dtype", [](Interp&, CallArgs& a) {
               a.expectPositional(1, 1);
               auto t = asDType(a.pos[0]);
               if (!t) throw CompileError(a.argSpan(0), "unknown dtype " + repr(a.pos[0]));
               return Value::dtype(*t);
           }));
    T->set("prim_func",
           Value::builtin("T.prim_func", tagDecorator("T.prim_func", FunctionTag::PrimFunc)));
    T->set("macro", Value::builtin("T.macro", tagDecorator("T.macro", FunctionTag::Macro)));
    // `T` without the import: printed IR snapshots (which start at @T.prim_func) re-parse as
    // they are. A file's own binding of T shadows this one.
    m_builtins->vars["T"] = Value::ns(T);

    // ---- tilelang ----
    auto tl = registerModule("tilelang");
    tl->set("jit", Value::builtin("tilelang.jit", passThroughDecorator("tilelang.jit")));
    tl->set("autotune",
            Value::builtin("tilelang.autotune", passThroughDecorator("tilelang.autotune")));
    tl->set("lazy_jit",
            Value::builtin("tilelang.lazy_jit", passThroughDecorator("tilelang.lazy_jit")));
    tl->set("cdiv", *T->find("ceildiv"));
    // tilelang.disable_cache() / enable_cache() (TileLang's kernel cache, its tests call them at
    // module level): TileScope's compile cache keys on the generated code, nothing to switch.
    for (const char* n : {"disable_cache", "enable_cache"})
        defn(*tl, "tilelang", n, [](Interp&, CallArgs& a) {
            a.expectPositional(0, 0);
            return Value::none();
        });
    // tilelang.math: the integer helpers real factories use for padded sizes.
    auto tlMath = registerModule("tilelang.math");
    defn(*tlMath, "tilelang.math", "next_power_of_2", [](Interp&, CallArgs& a) {
        a.expectPositional(1, 1);
        if (!a.pos[0].isIntLike())
            throw CompileError(a.argSpan(0), "next_power_of_2() needs an integer, got " +
                                                 typeName(a.pos[0]));
        int64_t x = a.pos[0].asInt(), p = 1;
        while (p < x && p < (int64_t(1) << 62)) p <<= 1;
        return Value::integer(x <= 0 ? 1 : p);
    });
    tlMath->set("cdiv", *T->find("ceildiv"));
    // DataType(dtype).bits: TVM's dtype object as factories use it to size vector loads.
    Value dataType = Value::builtin("DataType", [](Interp&, CallArgs& a) {
        a.expectPositional(1, 1);
        auto t = asDType(a.pos[0]);
        if (!t) throw CompileError(a.argSpan(0), "DataType(): unknown dtype " + repr(a.pos[0]));
        auto obj = std::make_shared<NamespaceObj>();
        obj->name = "DataType";
        obj->set("bits", Value::integer(ir::dtypeBits(*t)));
        obj->set("lanes", Value::integer(1));
        obj->set("dtype", Value::dtype(*t));
        return Value::ns(obj);
    });
    tl->set("DataType", dataType);
    auto tvm = registerModule("tvm");
    tvm->opaque = true;
    tvm->opaqueReason = "module 'tvm' is not available at compile time";
    tvm->set("DataType", dataType);
    // `from tilelang import tvm`: TileLang re-exports its TVM; the quantize helpers of its
    // examples build typed constants with tvm.tirx.const(value, dtype) (the T.<dtype>(value)
    // constructor) and annotate parameters with tirx.PrimExpr. Nothing else of TVM is modelled.
    tl->set("tvm", Value::ns(tvm));
    auto tirx = registerModule("tvm.tirx");
    tirx->opaque = true;
    tirx->opaqueReason = "module 'tvm.tirx' is not available at compile time (TileScope models "
                         "tvm.tirx.const only)";
    tirx->set("const", Value::builtin("tvm.tirx.const", [](Interp& in, CallArgs& a) {
                  auto b = a.bind({"value", "dtype"}, 1);
                  std::optional<ir::DType> t;
                  if (b.has(1)) {
                      t = asDType(b[1]);
                      if (!t) throw CompileError(b.spans[1], "tvm.tirx.const: unknown dtype " + repr(b[1]));
                  } else {
                      t = b[0].is(ValueKind::Float) ? ir::DType::Float32 : ir::DType::Int32;
                  }
                  CallArgs c;
                  c.pos = {b[0]};
                  c.posSpans = {b.spans[0]};
                  c.span = a.span;
                  c.callee = "tvm.tirx.const";
                  return in.callDType(*t, c);
              }));
    for (const char* typeName : {"PrimExpr", "Var", "Buffer"}) {
        auto cls = std::make_shared<NamespaceObj>();
        cls->name = std::string("tvm.tirx.") + typeName;
        tirx->set(typeName, Value::ns(cls));  // annotations only
    }
    tl->set("next_power_of_2", *tlMath->find("next_power_of_2"));
    registerModule("tilelang.autotuner")->set("autotune", *tl->find("autotune"));
    registerModule("tilelang.layout");
    // tilelang.tools.cuda.iket: trace markers for an external tool (TileLang's instrumentation
    // kit). They do not change what a kernel computes and TileScope emits no trace events, so
    // they elaborate to nothing: mark/payload are no-ops, range is a `with` item the kernel
    // scope skips (InstrumentationScope). Host-side session/output helpers stay unavailable.
    auto iket = std::make_shared<NamespaceObj>();
    iket->name = "tilelang.tools.cuda.iket";
    defn(*iket, "iket", "range", [](Interp&, CallArgs&) {
        return Value::ext(std::make_shared<InstrumentationScope>("iket"));
    });
    defn(*iket, "iket", "mark", [](Interp&, CallArgs&) { return Value::none(); });
    defn(*iket, "iket", "payload", [](Interp&, CallArgs&) { return Value::none(); });
    for (const char* path : {"tilelang.tools", "tilelang.tools.cuda"}) {
        auto m = registerModule(path);  // the rest of them stays unavailable, as before
        m->opaque = true;
        m->opaqueReason = std::string("module '") + path + "' is not available at compile time";
    }
    registerModule("tilelang.tools.cuda")->set("iket", Value::ns(iket));

    // ---- torch (dtypes only) ----
    auto torch = registerModule("torch");
    torch->opaque = true;
    torch->opaqueReason = "torch is evaluated only in ref_program, not in kernel code";
    // Factories pick tile configs by the GPU they run on: TileScope's answer is the Hopper
    // target (sm_90a, which also runs the sm_80 code path).
    auto cuda = registerModule("torch.cuda");
    defn(*cuda, "torch.cuda", "get_device_capability", [](Interp&, CallArgs& a) {
        a.expectPositional(0, 1);
        return Value::tuple({Value::integer(9), Value::integer(0)});
    });
    // Module-level `if torch.cuda.is_available():` guards in real files: the target is a GPU.
    defn(*cuda, "torch.cuda", "is_available", [](Interp&, CallArgs& a) {
        a.expectPositional(0, 0);
        return Value::boolean(true);
    });
    defn(*cuda, "torch.cuda", "get_device_properties", [](Interp& in, CallArgs& a) {
        a.expectPositional(0, 1);
        auto props = std::make_shared<NamespaceObj>();
        props->name = "torch.cuda.get_device_properties()";
        props->set("major", Value::integer(9));
        props->set("minor", Value::integer(0));
        props->set("name", Value::str("NVIDIA H200 (TileScope target sm_90a)"));
        props->set("multi_processor_count", Value::integer(deviceSmCount(in)));
        return Value::ns(props);
    });
    torch->set("cuda", Value::ns(cuda));
    const std::pair<const char*, ir::DType> kTorch[] = {
        {"float16", ir::DType::Float16},
        {"half", ir::DType::Float16},
        {"bfloat16", ir::DType::BFloat16},
        {"float32", ir::DType::Float32},
        {"float", ir::DType::Float32},
        {"float64", ir::DType::Float64},
        {"double", ir::DType::Float64},
        {"int8", ir::DType::Int8},
        {"int16", ir::DType::Int16},
        {"int32", ir::DType::Int32},
        {"int", ir::DType::Int32},
        {"int64", ir::DType::Int64},
        {"long", ir::DType::Int64},
        {"uint8", ir::DType::UInt8},
        {"bool", ir::DType::Bool},
        {"float8_e4m3fn", ir::DType::Float8E4M3},
        {"float8_e5m2", ir::DType::Float8E5M2},
    };
    for (const auto& [n, t] : kTorch) torch->set(n, Value::dtype(t));

    registerAutoTuner(*this);      // tilelang.autotuner.AutoTuner (MetaAutoTuner.h)
    registerDeviceModules(*this);  // tilelang.carver.arch.driver, sparse_layout (MetaDevice.h)
}

}  // namespace ts::fe

namespace ts::fe {

void Interp::installTileOpNames() {
    auto T = module("tilelang.language");
    for (const LangEntry& e : kLanguage) {
        const std::string name(e.name);
        if (T->find(name)) continue;
        const std::string q = "T." + name;
        T->set(name, Value::builtin(q, [q](Interp&, CallArgs& a) -> Value {
                   throw CompileError(a.span, q + " runs only inside a kernel",
                                      "call it in the body of a @T.prim_func, inside `with T.Kernel(...)`");
               }));
    }
}

}  // namespace ts::fe
