// Lookup of the ref_program vocabulary (ReferenceTorch.h): what `torch.X`, `F.X` and `x.X`
// resolve to. Functions become meta builtins that bind `self` for methods, name the call in
// their messages and turn a RefError into a diagnostic at the call's span. Also the small
// non-tensor members: dtypes, constants, torch.finfo/iinfo and the autograd/autocast context
// managers, which a reference can use but which change nothing in float64.
#include <cmath>
#include <limits>

#include "compiler/support/HostTensor.h"
#include "profiler/check/ReferenceTorch.h"

namespace ts::rt {

using fe::CallArgs;
using fe::Interp;
using fe::Value;
using ir::DType;

const RefTable& refTable() {
    static const RefTable table = [] {
        RefTable t;
        addMathFunctions(t);
        addShapeFunctions(t);
        addIndexFunctions(t);
        return t;
    }();
    return table;
}

namespace {

/// A builtin calling `fn`, with `self` prepended when given.
Value makeBuiltin(const std::string& qualified, RefFn fn, std::optional<Value> self) {
    return Value::builtin(qualified, [qualified, fn, self](Interp& in, CallArgs& a) -> Value {
        if (self) {
            a.pos.insert(a.pos.begin(), *self);
            a.posSpans.insert(a.posSpans.begin(), a.span);
        }
        a.callee = qualified;
        try {
            return fn(in, a);
        } catch (const RefError& e) {
            throw CompileError(a.span, "ref_program: " + qualified + ": " + e.what());
        }
    });
}

/// `x.name_(...)`: runs the out-of-place `name` and stores the result in x.
Value inPlaceBuiltin(const std::string& qualified, RefFn fn,
                     const std::shared_ptr<RefTensor>& self) {
    Value selfV = Value::ext(self);
    Value inner = makeBuiltin(qualified, fn, selfV);
    return Value::builtin(
        qualified, [inner, self, selfV, qualified](Interp& in, CallArgs& a) -> Value {
            Value r = in.call(inner, a);
            RefArray& dst = self->array();
            RefArray v = toArray(r, a.span, qualified + "() result");
            try {
                if (v.shape != dst.shape) v = expand(v, dst.shape);
            } catch (const RefError&) {
                throw CompileError(a.span,
                                   "ref_program: " + qualified + ": the result of shape " +
                                       shapeText(v.shape) +
                                       " cannot be stored in place into a tensor of shape " +
                                       shapeText(dst.shape));
            }
            dst = cast(v, dst.dtype);
            return selfV;
        });
}

Value contextFactory(const std::string& name) {
    return Value::builtin(
        name, [](Interp&, CallArgs&) { return Value::ext(std::make_shared<RefNullContext>()); });
}

/// torch.finfo(dtype) / torch.iinfo(dtype): bits, max, min (and eps, tiny for floats).
Value typeInfo(Interp&, CallArgs& a) {
    a.expectPositional(0, 1);
    DType t = DType::Float32;
    if (!a.pos.empty())
        if (auto d = argDType(a.pos[0], a.argSpan(0))) t = *d;
    bool isF = a.callee == "torch.finfo";
    if (isF != ir::isFloat(t))
        throw CompileError(a.span, "ref_program: " + a.callee + "() needs a " +
                                       (isF ? "floating-point" : "integer") + " dtype, got " +
                                       std::string(ir::dtypeName(t)));
    std::vector<std::string> names{"bits", "max", "min", "dtype"};
    std::vector<Value> items{Value::integer(ir::dtypeBits(t))};
    if (isF) {
        double mx = t == DType::Float64   ? std::numeric_limits<double>::max()
                    : t == DType::Float32 ? std::numeric_limits<float>::max()
                                          : floatFromBits(t, t == DType::Float16      ? 0x7BFF
                                                             : t == DType::BFloat16   ? 0x7F7F
                                                             : t == DType::Float8E4M3 ? 0x7E
                                                                                      : 0x7B);
        // eps: the distance from 1.0 to the next value of t (2^-mantissa bits).
        int mant = t == DType::Float64      ? 52
                   : t == DType::Float32    ? 23
                   : t == DType::Float16    ? 10
                   : t == DType::BFloat16   ? 7
                   : t == DType::Float8E4M3 ? 3
                                            : 2;
        double eps = std::ldexp(1.0, -mant);
        double tiny = t == DType::Float64      ? std::numeric_limits<double>::min()
                      : t == DType::Float32    ? std::numeric_limits<float>::min()
                      : t == DType::Float16    ? std::ldexp(1.0, -14)
                      : t == DType::BFloat16   ? std::ldexp(1.0, -126)
                      : t == DType::Float8E4M3 ? std::ldexp(1.0, -6)
                                               : std::ldexp(1.0, -14);
        items.insert(items.end(), {Value::real(mx), Value::real(-mx), Value::dtype(t),
                                   Value::real(eps), Value::real(tiny)});
        names.insert(names.end(), {"eps", "tiny"});
    } else {
        int bits = ir::dtypeBits(t);
        bool sgn = ir::isSigned(t);
        double mx = sgn ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
        items.insert(items.end(),
                     {Value::integer(static_cast<int64_t>(mx)),
                      Value::integer(sgn ? -static_cast<int64_t>(mx) - 1 : 0), Value::dtype(t)});
    }
    return Value::ext(
        std::make_shared<RefNamedTuple>(isF ? "torch.finfo" : "torch.iinfo", names, items));
}

std::optional<Value> torchDType(const std::string& name) {
    static const std::pair<const char*, DType> kTypes[] = {
        {"float16", DType::Float16},
        {"half", DType::Float16},
        {"bfloat16", DType::BFloat16},
        {"float32", DType::Float32},
        {"float", DType::Float32},
        {"float64", DType::Float64},
        {"double", DType::Float64},
        {"int8", DType::Int8},
        {"int16", DType::Int16},
        {"short", DType::Int16},
        {"int32", DType::Int32},
        {"int", DType::Int32},
        {"int64", DType::Int64},
        {"long", DType::Int64},
        {"uint8", DType::UInt8},
        {"uint16", DType::UInt16},
        {"uint32", DType::UInt32},
        {"uint64", DType::UInt64},
        {"bool", DType::Bool},
        {"float8_e4m3fn", DType::Float8E4M3},
        {"float8_e5m2", DType::Float8E5M2},
    };
    for (const auto& [n, t] : kTypes)
        if (name == n) return Value::dtype(t);
    return std::nullopt;
}

std::optional<Value> tableMember(const std::string& path, const std::string& name, uint8_t where) {
    const RefTable& t = refTable();
    auto it = t.find(name);
    if (it == t.end() || !(it->second.where & where)) return std::nullopt;
    return makeBuiltin(path + "." + name, it->second.fn, std::nullopt);
}

Value module(const std::string& path) { return Value::ext(std::make_shared<RefModule>(path)); }

/// torch.nn activation modules and the functional each one applies: `nn.Softmax(dim=-1)(x)` is
/// `F.softmax(x, dim=-1)` (constructor arguments follow the input).
std::optional<std::string> nnModuleFunction(const std::string& name) {
    static const std::pair<const char*, const char*> kModules[] = {
        {"GELU", "gelu"},
        {"ReLU", "relu"},
        {"SiLU", "silu"},
        {"Sigmoid", "sigmoid"},
        {"Tanh", "tanh"},
        {"Softmax", "softmax"},
        {"LogSoftmax", "log_softmax"},
        {"LeakyReLU", "leaky_relu"},
        {"Softplus", "softplus"},
    };
    for (const auto& [cls, fn] : kModules)
        if (name == cls) return std::string(fn);
    return std::nullopt;
}

Value nnModule(const std::string& cls, const std::string& fnName) {
    RefFn fn = refTable().at(fnName).fn;
    std::string qualified = "torch.nn." + cls;
    return Value::builtin(qualified, [fn, qualified](Interp&, CallArgs& ctor) {
        CallArgs stored = ctor;
        return Value::builtin(
            qualified + "(...)", [fn, stored, qualified](Interp& in, CallArgs& a) -> Value {
                a.expectPositional(1, 1);
                CallArgs c = stored;
                c.pos.insert(c.pos.begin(), a.pos[0]);
                c.posSpans.insert(c.posSpans.begin(), a.argSpan(0));
                c.span = a.span;
                c.callee = qualified;
                try {
                    return fn(in, c);
                } catch (const RefError& e) {
                    throw CompileError(a.span, "ref_program: " + qualified + ": " + e.what());
                }
            });
    });
}

}  // namespace

std::optional<Value> torchMember(const std::string& path, const std::string& name) {
    if (name ==
        "__getattribute__")  // torch.__getattribute__("float16"), as TileLang tests write it
        return Value::builtin(path + ".__getattribute__", [path](Interp& in, CallArgs& a) {
            a.expectPositional(1, 1);
            if (a.pos[0].is(fe::ValueKind::DType))
                return a.pos[0];  // T.float16 passed as out_dtype
            if (!a.pos[0].is(fe::ValueKind::Str))
                throw CompileError(a.argSpan(0),
                                   "ref_program: __getattribute__ needs an attribute name");
            return in.getAttr(module(path), a.pos[0].asStr(), a.span);
        });
    if (path == "torch" || path == "torch.special") {
        if (auto v = tableMember(path, name, kTorch)) return v;
        if (path == "torch.special") return std::nullopt;
        if (auto d = torchDType(name)) return d;
        if (name == "inf") return Value::real(std::numeric_limits<double>::infinity());
        if (name == "nan") return Value::real(std::numeric_limits<double>::quiet_NaN());
        if (name == "pi") return Value::real(M_PI);
        if (name == "e") return Value::real(M_E);
        if (name == "nn" || name == "cuda" || name == "special" || name == "amp")
            return module(path + "." + name);
        if (name == "finfo" || name == "iinfo") return Value::builtin("torch." + name, typeInfo);
        if (name == "no_grad" || name == "inference_mode" || name == "enable_grad" ||
            name == "autocast" || name == "set_grad_enabled")
            return contextFactory("torch." + name);
        if (name == "manual_seed")
            return Value::builtin("torch.manual_seed",
                                  [](Interp&, CallArgs&) { return Value::none(); });
        return std::nullopt;
    }
    if (path == "torch.nn") {
        if (name == "functional") return module("torch.nn.functional");
        if (auto fn = nnModuleFunction(name)) return nnModule(name, *fn);
        if (name == "Identity")
            return Value::builtin("torch.nn.Identity", [](Interp&, CallArgs&) {
                return Value::builtin("torch.nn.Identity(...)", [](Interp&, CallArgs& a) {
                    a.expectPositional(1, 1);
                    return a.pos[0];
                });
            });
        return std::nullopt;
    }
    if (path == "torch.nn.functional") return tableMember(path, name, kFunctional);
    if (path == "torch.cuda") {
        if (name == "synchronize")
            return Value::builtin("torch.cuda.synchronize",
                                  [](Interp&, CallArgs&) { return Value::none(); });
        if (name == "amp") return module("torch.cuda.amp");
        return std::nullopt;
    }
    if ((path == "torch.cuda.amp" || path == "torch.amp") && name == "autocast")
        return contextFactory(path + ".autocast");
    return std::nullopt;
}

std::optional<Value> tensorMethod(const std::shared_ptr<RefTensor>& self, const std::string& name) {
    const RefTable& t = refTable();
    Value selfV = Value::ext(self);
    std::string qualified = "Tensor." + name;
    if (auto it = t.find(qualified); it != t.end())
        return makeBuiltin(qualified, it->second.fn, selfV);
    if (auto it = t.find(name); it != t.end() && (it->second.where & kMethod))
        return makeBuiltin(qualified, it->second.fn, selfV);
    if (name.size() > 1 && name.back() == '_') {
        std::string base = name.substr(0, name.size() - 1);
        auto it = t.find("Tensor." + base);
        if (it == t.end()) it = t.find(base);
        if (it != t.end() && (it->second.where & kMethod))
            return inPlaceBuiltin(qualified, it->second.fn, self);
    }
    return std::nullopt;
}

}  // namespace ts::rt
