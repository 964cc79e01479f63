// The math library table (MathLib.h) and the IEEE operations' host evaluation.
#include "compiler/ir/MathLib.h"

#include <cfenv>
#include <cmath>

namespace ts::ir {

namespace {

double roundEven(double x) { return std::nearbyint(x); }  // the default mode is round to nearest even
double roundAway(double x) { return std::round(x); }
double exp10Fn(double x) { return std::pow(10.0, x); }
double rcpFn(double x) { return 1.0 / x; }

#define TS_F1(n, f, cf, cd, self) {n, 1, [](double x) { return f(x); }, nullptr, cf, cd, self}
#define TS_F2(n, f, cf, cd) {n, 2, nullptr, [](double a, double b) { return f(a, b); }, cf, cd, false}
double rsqrtFn(double x) { return 1.0 / std::sqrt(x); }

const MathFn kMathFns[] = {
    // The core calls. T.exp2 is ts::exp2f_fast for float32: ex2.approx.ftz (1 MUFU.EX2); exp2f is
    // the same instruction plus a range test and two multiplies per call to keep results below
    // 2^-126 subnormal (4 instructions instead of 1 in FlashAttention's softmax, 128x128 tile: ~190
    // of its ~540 per thread and tile). Results under 2^-126 become 0 (as under nvcc
    // --use_fast_math); the interpreters' tolerances hold. float64 has the precise exp2.
    TS_F1("exp", std::exp, "expf", "exp", false),
    TS_F1("exp2", std::exp2, "ts::exp2f_fast", "exp2", false),
    TS_F1("log", std::log, "logf", "log", false),
    TS_F1("log2", std::log2, "log2f", "log2", false),
    TS_F1("sqrt", std::sqrt, "sqrtf", "sqrt", false),
    TS_F1("rsqrt", rsqrtFn, "rsqrtf", "rsqrt", false),
    TS_F1("tanh", std::tanh, "tanhf", "tanh", false),
    TS_F1("sin", std::sin, "sinf", "sin", false),
    TS_F1("cos", std::cos, "cosf", "cos", false),
    TS_F1("floor", std::floor, "floorf", "floor", true),
    TS_F1("ceil", std::ceil, "ceilf", "ceil", true),
    // TVM's math library.
    TS_F1("tan", std::tan, "tanf", "tan", false),
    TS_F1("asin", std::asin, "asinf", "asin", false),
    TS_F1("acos", std::acos, "acosf", "acos", false),
    TS_F1("atan", std::atan, "atanf", "atan", false),
    TS_F1("sinh", std::sinh, "sinhf", "sinh", false),
    TS_F1("cosh", std::cosh, "coshf", "cosh", false),
    TS_F1("asinh", std::asinh, "asinhf", "asinh", false),
    TS_F1("acosh", std::acosh, "acoshf", "acosh", false),
    TS_F1("atanh", std::atanh, "atanhf", "atanh", false),
    TS_F1("erf", std::erf, "erff", "erf", false),
    TS_F1("exp10", exp10Fn, "exp10f", "exp10", false),
    TS_F1("log10", std::log10, "log10f", "log10", false),
    TS_F1("log1p", std::log1p, "log1pf", "log1p", false),
    TS_F1("expm1", std::expm1, "expm1f", "expm1", false),
    TS_F1("trunc", std::trunc, "truncf", "trunc", true),
    TS_F1("round", roundEven, "nearbyintf", "nearbyint", true),
    TS_F1("nearbyint", roundEven, "nearbyintf", "nearbyint", true),
    TS_F1("round_away", roundAway, "roundf", "round", true),
    // Fast math: the hardware approximations for float32; float64 has none (the precise function).
    TS_F1("__exp", std::exp, "__expf", "exp", false),
    TS_F1("__exp10", exp10Fn, "__exp10f", "exp10", false),
    TS_F1("__log", std::log, "__logf", "log", false),
    TS_F1("__log2", std::log2, "__log2f", "log2", false),
    TS_F1("__log10", std::log10, "__log10f", "log10", false),
    TS_F1("__sin", std::sin, "__sinf", "sin", false),
    TS_F1("__cos", std::cos, "__cosf", "cos", false),
    TS_F1("__tan", std::tan, "__tanf", "tan", false),
    TS_F1("fast_rcp", rcpFn, "ts::fast_rcp", "ts::fast_rcp", false),
    TS_F2("pow", std::pow, "powf", "pow"),
    TS_F2("fmod", std::fmod, "fmodf", "fmod"),
    TS_F2("atan2", std::atan2, "atan2f", "atan2"),
    TS_F2("hypot", std::hypot, "hypotf", "hypot"),
    TS_F2("copysign", std::copysign, "copysignf", "copysign"),
};
#undef TS_F1
#undef TS_F2

const IeeeOp kIeeeOps[] = {
    {"ieee_add", 2, "__fadd_", "__dadd_", true},   {"ieee_sub", 2, "__fsub_", "__dsub_", true},
    {"ieee_mul", 2, "__fmul_", "__dmul_", true},   {"ieee_fdiv", 2, "__fdiv_", "__ddiv_", true},
    {"ieee_fmaf", 3, "__fmaf_", "__fma_", true},   {"ieee_frcp", 1, "__frcp_", "__drcp_", true},
    {"ieee_fsqrt", 1, "__fsqrt_", "__dsqrt_", true}, {"ieee_frsqrt", 1, "__frsqrt_", "", false},
};

int feMode(std::string_view m) {
    return m == "rz" ? FE_TOWARDZERO : m == "ru" ? FE_UPWARD : m == "rd" ? FE_DOWNWARD : FE_TONEAREST;
}

// The arithmetic runs between the two fesetround calls on volatile operands: the compiler may
// neither fold it nor move it out of the mode (GCC does not model the floating-point environment
// without -frounding-math).
template <typename F>
double inMode(std::string_view mode, const IeeeOp& op, const double* args) {
    const int old = std::fegetround();
    std::fesetround(feMode(mode));
    volatile F a = F(args[0]);
    volatile F b = op.arity > 1 ? F(args[1]) : F(0);
    volatile F c = op.arity > 2 ? F(args[2]) : F(0);
    volatile F r = 0;
    const std::string_view n = op.name;
    if (n == "ieee_add") r = a + b;
    else if (n == "ieee_sub") r = a - b;
    else if (n == "ieee_mul") r = a * b;
    else if (n == "ieee_fdiv") r = a / b;
    else if (n == "ieee_fmaf") r = std::fma(F(a), F(b), F(c));
    else if (n == "ieee_frcp") r = F(1) / a;
    else if (n == "ieee_fsqrt") r = std::sqrt(F(a));
    else r = F(1.0 / std::sqrt(double(a)));  // ieee_frsqrt (round to nearest): one rounding of a float64 value, as __frsqrt_rn's one
    const F out = r;
    std::fesetround(old);
    return double(out);
}

}  // namespace

const MathFn* findMathFn(std::string_view name) {
    for (const MathFn& f : kMathFns)
        if (f.name == name) return &f;
    return nullptr;
}

const IeeeOp* findIeeeOp(std::string_view name) {
    for (const IeeeOp& op : kIeeeOps)
        if (op.name == name) return &op;
    return nullptr;
}

bool isRoundingMode(std::string_view m) { return m == "rn" || m == "rz" || m == "ru" || m == "rd"; }

const IeeeOp* parseIeeeCall(std::string_view op, std::string* mode) {
    const size_t dot = op.find('.');
    if (dot == std::string_view::npos || op.rfind("ieee_", 0) != 0) return nullptr;
    const IeeeOp* o = findIeeeOp(op.substr(0, dot));
    if (!o || !isRoundingMode(op.substr(dot + 1))) return nullptr;
    if (mode) *mode = std::string(op.substr(dot + 1));
    return o;
}

double evalIeee(const IeeeOp& op, std::string_view mode, int bits, const double* args) {
    return bits == 64 ? inMode<double>(mode, op, args) : inMode<float>(mode, op, args);
}

}  // namespace ts::ir
