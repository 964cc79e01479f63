#include "compiler/frontend/ElaborateMathLib.h"

#include <cmath>
#include <optional>

#include "compiler/frontend/Elaborator.h"
#include "compiler/ir/MathLib.h"

namespace ts::fe::elab {

using ir::DType;

namespace {

// A number folds as TileLang's float32 call does (as ElaborateMath.cpp's unary math): the
// arguments rounded to float32 first, the result too.
double f32(double x) { return static_cast<float>(x); }

// Float operands of one dtype: integers become float32 (TVM's math calls take floats), and every
// operand takes the widest float among them (T.ieee_fmaf(f32, f64, f32) is a float64 fma, as
// T.ieee_add(f32, f64) is a float64 add; pairing operand 0 with each other one narrowed y).
std::vector<ir::Expr> floatOperands(Elaborator& el, CallArgs& a, size_t n, const std::string& callee) {
    std::vector<ir::Expr> es;
    if (n == 2) {
        auto [x, y] = el.operands(a.pos[0], a.pos[1], a.span);
        es = {x, y};
    } else {
        for (size_t i = 0; i < n; ++i) es.push_back(el.toExpr(a.pos[i], a.argSpan(i), callee + "() argument"));
    }
    DType wide = DType::Float32;
    bool anyFloat = false;
    for (auto& e : es)
        if (ir::isFloat(e->dtype)) wide = anyFloat ? ir::promote(wide, e->dtype) : e->dtype, anyFloat = true;
    for (size_t i = 0; i < n; ++i)
        if (es[i]->dtype != wide) es[i] = ir::cast(wide, es[i], a.argSpan(i));
    return es;
}

Value mathCall(Elaborator& el, CallArgs& a, const ir::MathFn& f, const std::string& op) {
    const std::string callee = "T." + std::string(f.name);
    if (f.arity == 1) {
        if (f.integerIsItself && a.pos[0].isIntLike()) return a.pos[0];
        if (a.pos[0].isNumber()) return Value::real(f32(f.f1(f32(a.pos[0].asFloat()))));
        ir::Expr e = el.toExpr(a.pos[0], a.argSpan(0), callee + "() argument");
        if (f.integerIsItself && ir::isInt(e->dtype)) return el.wrap(e);
        if (!ir::isFloat(e->dtype)) e = ir::cast(DType::Float32, e, a.argSpan(0));
        return el.wrap(ir::call(op, {e}, e->dtype, a.span));
    }
    if (a.pos[0].isNumber() && a.pos[1].isNumber())
        return Value::real(f32(f.f2(f32(a.pos[0].asFloat()), f32(a.pos[1].asFloat()))));
    auto es = floatOperands(el, a, 2, callee);
    const DType t = es[0]->dtype;
    return el.wrap(ir::call(op, es, t, a.span));
}

// The call's arguments bound to `names` (positionals or keywords); the first `n` become the
// positional arguments of the result, the one after them (if named and given) is the mode.
struct Bound {
    CallArgs args;
    std::optional<Value> mode;
    Span modeSpan;
};
Bound bindWithMode(CallArgs& a, const std::vector<std::string>& names, size_t n) {
    auto b = a.bind(names, n);
    Bound out{a, std::nullopt, a.span};
    out.args.pos.clear();
    out.args.posSpans.clear();
    out.args.kw.clear();
    out.args.kwSpans.clear();
    for (size_t i = 0; i < n; ++i) out.args.pos.push_back(b[i]), out.args.posSpans.push_back(b.spans[i]);
    if (names.size() > n && b.has(n)) out.mode = b[n], out.modeSpan = b.spans[n];
    return out;
}

std::string modeText(const Bound& b, const std::string& fallback, const std::string& callee) {
    if (!b.mode) return fallback;
    if (!b.mode->is(ValueKind::Str))
        throw CompileError(b.modeSpan, callee + ": the rounding mode must be a string",
                           callee == "T.round" ? "T.round rounds to an integer value: \"ties-to-even\" (the default) or \"ties-away-from-zero\" (no decimals)"
                                               : "one of \"rn\", \"rz\", \"ru\", \"rd\"");
    return b.mode->asStr();
}

}  // namespace

void registerMathLib(Interp& in) {
    auto T = in.registerModule("tilelang.language");
    auto def = [&](const std::string& name, std::function<Value(Elaborator&, CallArgs&)> fn) {
        T->set(name, Value::builtin("T." + name, [fn, name](Interp& i, CallArgs& a) {
                   a.callee = "T." + name;  // bind()'s messages name the call
                   return fn(dynamic_cast<Elaborator&>(i), a);
               }));
    };
    for (const char* n : {"tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "exp10", "log10", "log1p",
                          "expm1", "trunc", "nearbyint", "__exp", "__exp10", "__log", "__log2", "__log10", "__sin", "__cos", "__tan", "fast_rcp",
                          "pow", "fmod", "atan2", "hypot", "copysign"}) {
        const ir::MathFn* f = ir::findMathFn(n);
        // TVM's parameter names (tilelang/language/tir/ir.pyi), so T.erf(x=v) and
        // T.atan2(x1=a, x2=b) bind as in TileLang.
        const std::string name = n;
        const std::vector<std::string> params = f->arity == 1                           ? std::vector<std::string>{"x"}
                                                : name == "pow" || name == "fmod" ? std::vector<std::string>{"x", "y"}
                                                                                  : std::vector<std::string>{"x1", "x2"};
        def(n, [f, params](Elaborator& el, CallArgs& a) {
            Bound b = bindWithMode(a, params, params.size());
            return mathCall(el, b.args, *f, std::string(f->name));
        });
    }
    // T.round(x, rounding_mode="ties-to-even"): TVM's round is ties to even (CUDA's nearbyint);
    // "ties-away-from-zero" is C's round.
    def("round", [](Elaborator& el, CallArgs& a) {
        Bound b = bindWithMode(a, {"x", "rounding_mode"}, 1);
        const std::string m = modeText(b, "ties-to-even", "T.round");
        if (m != "ties-to-even" && m != "ties-away-from-zero")
            throw CompileError(b.modeSpan, "T.round: rounding mode '" + m + "' is not one TileLang has",
                               "use \"ties-to-even\" (the default, CUDA's nearbyint) or \"ties-away-from-zero\" (C's round)");
        const ir::MathFn* f = ir::findMathFn(m == "ties-to-even" ? "round" : "round_away");
        CallArgs& one = b.args;
        return mathCall(el, one, *f, std::string(f->name));
    });
    for (const char* n : {"ieee_add", "ieee_sub", "ieee_mul", "ieee_fdiv", "ieee_fmaf", "ieee_frcp", "ieee_fsqrt", "ieee_frsqrt"}) {
        const ir::IeeeOp* op = ir::findIeeeOp(n);
        def(n, [op](Elaborator& el, CallArgs& a) {
            const std::string callee = "T." + std::string(op->name);
            if (!op->modeArgument && (a.pos.size() > size_t(op->arity) || a.keyword("rounding_mode")))
                throw CompileError(a.pos.size() > size_t(op->arity) ? a.argSpan(size_t(op->arity)) : a.span,
                                   callee + " takes no rounding mode: it rounds to nearest (CUDA's __frsqrt_rn)",
                                   "drop the mode, or use T.ieee_frcp(T.ieee_fsqrt(x, mode), mode) (two roundings)");
            std::vector<std::string> names = {"x", "y", "z"};
            names.resize(size_t(op->arity));
            if (op->modeArgument) names.push_back("rounding_mode");
            Bound b = bindWithMode(a, names, size_t(op->arity));
            const std::string m = modeText(b, "rn", callee);
            const Span ms = b.modeSpan;
            if (!ir::isRoundingMode(m))
                throw CompileError(ms, callee + ": invalid rounding mode '" + m + "'",
                                   "use \"rn\" (to nearest even), \"rz\" (toward zero), \"ru\" (toward +inf) or \"rd\" (toward -inf)");
            CallArgs& args = b.args;
            auto es = floatOperands(el, args, size_t(op->arity), callee);
            const DType t = es[0]->dtype;
            if (!op->modeArgument && t == DType::Float64)
                throw CompileError(a.span, callee + ": float64 has no correctly rounded reciprocal square root (CUDA has __frsqrt_rn for float32 only; TileLang refuses it too)",
                                   "use 1.0 / T.sqrt(x) (two roundings), or cast x to float32");
            if (t != DType::Float32 && t != DType::Float64 && m != "rn")
                throw CompileError(ms, callee + ": rounding mode '" + m + "' needs float32 or float64 operands (these are " +
                                           std::string(ir::dtypeName(t)) + ")",
                                   "16-bit floats have round to nearest (\"rn\") only: cast the operands to float32 for another mode");
            return el.wrap(ir::call(std::string(op->name) + "." + m, es, t, a.span));
        });
    }
}

}  // namespace ts::fe::elab
