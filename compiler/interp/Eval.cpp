// Expression evaluation of the tile-level interpreter: C-like typing (every node is evaluated
// in the domain of its own dtype: floats as double, integers and bools as int64), Python floor
// semantics for integer // and %, float results rounded to their dtype after every operation and
// call (as the generated CUDA computes them) and at every Cast, and bounds-checked
// element loads. Integer arithmetic wraps (two's complement) instead of invoking undefined
// behaviour, and every trap (division by zero, INT64_MIN / -1, bad shifts) is a diagnostic.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "compiler/ir/Functor.h"
#include "compiler/ir/IntWrap.h"
#include "compiler/interp/Machine.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/MathLib.h"

namespace ts::interp::detail {
using namespace ts::ir;

namespace {

/// Truncates toward zero; doubles in [2^63, 2^64) wrap (uint64 values held as doubles).
bool toInt(double d, int64_t& out) {
    if (!std::isfinite(d)) return false;
    d = std::trunc(d);
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
        out = static_cast<int64_t>(d);
        return true;
    }
    if (d >= 0 && d < 18446744073709551616.0) {
        out = static_cast<int64_t>(static_cast<uint64_t>(d));
        return true;
    }
    return false;
}


/// T.cast of a float to integer type t as the GPU computes it (measured on the H100, 2026-12-06,
/// bench/results/h100-2026-12-06e/gpu-check-2.txt): truncation toward zero, NaN to 0, saturated
/// to the 32-bit type of t's signedness (cvt.rzi.s32/u32.f32, PTX ISA 9.7.9.21), then the low bits
/// kept for an 8- or 16-bit t (int8(-236.8) = 20, int16(-4e8) = 31744, int16(3.6e9) = -1);
/// 64-bit types saturate at 64 bits. The interpreters wrapped instead (int32(1e10) = 1410065408).
int64_t floatToInt(DType t, double v) {
    if (t == DType::Bool) return v != 0.0;
    if (std::isnan(v)) return 0;
    v = std::trunc(v);
    const bool sign = isSigned(t);
    if (dtypeBits(t) >= 64) {
        if (sign) return v <= -9223372036854775808.0 ? INT64_MIN : v >= 9223372036854775808.0 ? INT64_MAX : static_cast<int64_t>(v);
        return v <= 0 ? 0 : v >= 18446744073709551616.0 ? -1 : static_cast<int64_t>(static_cast<uint64_t>(v));
    }
    const double lo = sign ? -2147483648.0 : 0.0, hi = sign ? 2147483647.0 : 4294967295.0;
    return wrapInt(t, static_cast<int64_t>(std::clamp(v, lo, hi)));
}

int64_t wrapAdd(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapSub(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

struct Fn1 {
    std::string_view name;
    double (*fn)(double);
};
const Fn1 kUnary[] = {  // the rest are ir/MathLib.h's
    {"sigmoid", sigmoid},
    {"abs", [](double x) { return std::fabs(x); }},
    {"fabs", [](double x) { return std::fabs(x); }},
};

struct Fn2 {
    std::string_view name;
    double (*fn)(double, double);
};
const Fn2 kBinary[] = {
    {"max", [](double a, double b) { return std::fmax(a, b); }},
    {"min", [](double a, double b) { return std::fmin(a, b); }},
};

std::string_view baseName(std::string_view op) {
    if (op.substr(0, 2) == "T.") op.remove_prefix(2);
    return op;
}

/// Called when a select's condition is false.
void reportGuardedLoad(Machine& m, const SelectNode& n) {
    // The bounds guard lowering puts around a global element load inside T.Parallel
    // (LowerParallel.cpp GuardGlobal: select(in-bounds, A[i], 0) carrying the load's own span;
    // T.copy's zero-fill selects carry none). On the GPU the guard makes an out-of-bounds read
    // give 0, but the program read outside the tensor, which the tile-level interpreter reports:
    // so does this one, by performing the load (loadValue fails with "out-of-bounds load ...").
    if (!n.span.valid() || !n.t || n.t->kind != ExprKind::Load || !(n.t->span == n.span)) return;
    const ExprNode* f = n.f.get();
    if (f && f->kind == ExprKind::Cast) f = static_cast<const CastNode*>(f)->value.get();
    bool zero = f && ((f->kind == ExprKind::IntImm && static_cast<const IntImmNode*>(f)->value == 0) ||
                      (f->kind == ExprKind::FloatImm && static_cast<const FloatImmNode*>(f)->value == 0));
    if (zero) m.loadValue(static_cast<const LoadNode*>(n.t.get()));
}

/// T.reinterpret's source: the bits of `e`'s value in its own dtype (low dtypeBits bits), as the
/// device holds them (floats through the exact encoders of support/HostTensor.h).
uint64_t sourceBits(Machine& m, const ExprNode* e) {
    const DType t = e->dtype;
    if (t == DType::Float64) {
        double d = m.evalF(e);
        uint64_t u;
        std::memcpy(&u, &d, sizeof u);
        return u;
    }
    if (isFloatType(t)) return floatBits(t, m.evalF(e));
    const int bits = dtypeBits(t);
    const uint64_t u = static_cast<uint64_t>(m.evalI(e));
    return bits >= 64 ? u : u & ((uint64_t{1} << bits) - 1);
}

/// The float of dtype `t` whose bits are `u` (T.reinterpret to a float dtype).
double floatOfBits(DType t, uint64_t u) {
    if (t == DType::Float64) {
        double d;
        std::memcpy(&d, &u, sizeof d);
        return d;
    }
    return floatFromBits(t, static_cast<uint32_t>(u));
}

}  // namespace

int64_t floorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

const Binding& Machine::lookupVar(const VarNode* v) const {
    for (size_t i = m_bindings.size(); i-- > 0;)
        if (m_bindings[i].var == v) return m_bindings[i];
    std::string hint;
    if (v->tag == VarTag::ThreadIdx)
        hint =
            "thread indices have no meaning in tile-level IR; interpret the program before "
            "lower-to-threads";
    else if (v->tag == VarTag::BlockIdx)
        hint = "block indices only exist inside T.Kernel";
    else
        hint =
            "it is used outside the loop that binds it, or it is a symbolic extent no argument "
            "shape binds";
    fail(v->span, "variable '" + v->name + "' has no value here", hint);
}

namespace {
/// A float immediate has its expression's dtype: `x * 0.0883883476` with x bfloat16 multiplies by
/// the bfloat16 constant 0.08837890625, as the CUDA does (`ts::cast<ts::bfloat16>(0.0883883476f)`,
/// CudaCodegen floatLit: the literal is a float, then converted) and TileLang (tir.const of the
/// operand's dtype). Unrounded, a bfloat16 Q scaled in place by dim**-0.5 differed from the GPU in
/// one element of ~40 (dsa_sparse_finetune indexer kernels: top-k order, dIndexQ).
double floatImmValue(const ExprNode* e) {
    const double v = static_cast<const FloatImmNode*>(e)->value;
    if (e->dtype == DType::Float64 || !std::isfinite(v)) return v;
    return roundValue(e->dtype, static_cast<double>(static_cast<float>(v)));
}
}  // namespace

double Machine::evalF(const ExprNode* e) {
    if (!e) fail(m_stmtSpan, "malformed IR: missing expression");
    if (!isFloatType(e->dtype)) return static_cast<double>(evalI(e));
    if (e->kind == ExprKind::FloatImm) return floatImmValue(e);
    DepthGuard g(*this, e->span);
    switch (e->kind) {
        case ExprKind::IntImm:
            return static_cast<double>(static_cast<const IntImmNode*>(e)->value);
        case ExprKind::FloatImm:
            return floatImmValue(e);
        case ExprKind::StrImm:
            fail(e->span, "a string cannot be used as a number");
        case ExprKind::Var:
            return lookupVar(static_cast<const VarNode*>(e)).f;
        case ExprKind::Binary:
            // The generated CUDA computes a float op in its own dtype (16/8-bit types in float,
            // rounded back; float32 in float): round here too, or the GPU and the interpreters
            // disagree on e.g. acc += o * do with fp16 o, do (the product is rounded to fp16).
            return roundValue(e->dtype, binaryF(static_cast<const BinaryNode*>(e)));
        case ExprKind::Unary: {
            auto* n = static_cast<const UnaryNode*>(e);
            if (n->op == UnOp::Neg) return -evalF(n->a.get());
            if (n->op == UnOp::Not) return evalCond(n->a.get()) ? 0.0 : 1.0;
            fail(e->span, "bitwise not (~) of a floating-point value");
        }
        case ExprKind::Select: {
            auto* n = static_cast<const SelectNode*>(e);
            if (evalCond(n->cond.get())) return evalF(n->t.get());
            reportGuardedLoad(*this, *n);
            return evalF(n->f.get());
        }
        case ExprKind::Call:
            return roundValue(e->dtype, callF(static_cast<const CallNode*>(e)));
        case ExprKind::Load:
            return loadValue(static_cast<const LoadNode*>(e));
        case ExprKind::Cast: {
            const ExprNode* src = static_cast<const CastNode*>(e)->value.get();
            if (src && ir::isInt(src->dtype) && dtypeBits(src->dtype) == 64) {
                // One conversion, as the CUDA's static_cast: through double an int64 rounded twice
                // on its way to float32, and a uint64 >= 2^63 read as negative (helper-112).
                const int64_t i = evalI(src);
                const bool u = src->dtype == DType::UInt64;
                if (e->dtype == DType::Float32)
                    return static_cast<double>(u ? static_cast<float>(static_cast<uint64_t>(i)) : static_cast<float>(i));
                return roundValue(e->dtype, u ? static_cast<double>(static_cast<uint64_t>(i)) : static_cast<double>(i));
            }
            return roundValue(e->dtype, evalValue(src));
        }
    }
    fail(e->span, "malformed IR: unknown expression kind");
}

int64_t Machine::evalI(const ExprNode* e) {
    if (!e) fail(m_stmtSpan, "malformed IR: missing expression");
    if (e->kind == ExprKind::IntImm) return static_cast<const IntImmNode*>(e)->value;
    if (e->kind == ExprKind::Var && !isFloatType(e->dtype))
        return lookupVar(static_cast<const VarNode*>(e)).i;
    if (isFloatType(e->dtype)) {
        double d = evalF(e);
        int64_t out;
        if (!toInt(d, out))
            fail(e->span,
                 "value " + std::to_string(d) + " used as an integer (index or integer operand)");
        return out;
    }
    DepthGuard g(*this, e->span);
    switch (e->kind) {
        case ExprKind::IntImm:
            return static_cast<const IntImmNode*>(e)->value;
        case ExprKind::FloatImm: {
            int64_t out;
            if (!toInt(static_cast<const FloatImmNode*>(e)->value, out))
                fail(e->span, "non-finite integer constant");
            return out;
        }
        case ExprKind::StrImm:
            fail(e->span, "a string cannot be used as a number");
        case ExprKind::Var:
            return lookupVar(static_cast<const VarNode*>(e)).i;
        case ExprKind::Binary:
            return binaryI(static_cast<const BinaryNode*>(e));
        case ExprKind::Unary: {
            auto* n = static_cast<const UnaryNode*>(e);
            if (n->op == UnOp::Not) return evalCond(n->a.get()) ? 0 : 1;
            int64_t a = evalI(n->a.get());
            const int64_t r = n->op == UnOp::Neg ? wrapSub(0, a) : ~a;
            if (e->dtype == DType::Int32 || e->dtype == DType::UInt32) return wrapInt(e->dtype, r);  // as binaryI
            return ir::isInt(e->dtype) && dtypeBits(e->dtype) < 32 ? wrapInt(DType::Int32, r) : r;
        }
        case ExprKind::Select: {
            auto* n = static_cast<const SelectNode*>(e);
            if (evalCond(n->cond.get())) return evalI(n->t.get());
            reportGuardedLoad(*this, *n);
            return evalI(n->f.get());
        }
        case ExprKind::Call: {
            auto* n = static_cast<const CallNode*>(e);
            auto name = baseName(n->op);
            bool allInt = true;
            for (auto& a : n->args) allInt &= a && !isFloatType(a->dtype);
            if (allInt && name == "abs" && n->args.size() == 1) {
                int64_t a = evalI(n->args[0].get());
                const int64_t r = a < 0 ? wrapSub(0, a) : a;
                // 32-bit results wrap as binaryI's: abs(INT_MIN) is INT_MIN on the GPU (abs.s32),
                // as -A already was here (helper-115). 8/16-bit values compute in C's int (128).
                return e->dtype == DType::Int32 || e->dtype == DType::UInt32 ? wrapInt(e->dtype, r) : r;
            }
            if (name == "reinterpret" && n->args.size() == 1 && n->args[0])
                return wrapInt(e->dtype, static_cast<int64_t>(sourceBits(*this, n->args[0].get())));
            if (allInt && (name == "min" || name == "max") && n->args.size() == 2) {
                int64_t a = evalI(n->args[0].get()), b = evalI(n->args[1].get());
                return name == "min" ? std::min(a, b) : std::max(a, b);
            }
            double d = callF(n);
            int64_t out;
            if (!toInt(d, out))
                fail(e->span, "T." + std::string(name) + " gives a non-finite integer value");
            return wrapInt(e->dtype, out);
        }
        case ExprKind::Load: {
            double d = loadValue(static_cast<const LoadNode*>(e));
            // An int64 element near INT64_MAX is held as the double 2^63 (its rounding), which the
            // uint64 rule of toInt would wrap to INT64_MIN: T.reduce_min's identity
            // 9223372036854775807 then won every row (helper-115). Only uint64 reaches 2^63.
            if (e->dtype == DType::Int64 && d >= 9223372036854775808.0 && std::isfinite(d)) return INT64_MAX;
            int64_t out;
            if (!toInt(d, out)) {
                // A global integer element without a value is an output nobody wrote yet (inputs
                // hold integers): the kernel updates it in place (`B[i] += ...` without out_idx).
                const ir::Buffer& buf = static_cast<const LoadNode*>(e)->buffer;
                if (buf && buf->scope == ir::Scope::Global && std::isnan(d))
                    fail(e->span, "'" + buf->name + "' is read before it is written: it is an output (the kernel writes it), and outputs start without values",
                         "to update '" + buf->name + "' in place from initial values, run with --inout " + buf->name +
                             " (tilec run) -- it is then filled like an input");
                if (buf && std::isnan(d))
                    fail(e->span, "an element of '" + buf->name + "' is read with no value: nothing wrote it (or it was copied from an output the kernel had not written yet)",
                         "write it before reading it; an output updated in place needs --inout NAME (tilec run)");
                fail(e->span, "non-finite value loaded as an integer");
            }
            return out;
        }
        case ExprKind::Cast: {
            auto* src = static_cast<const CastNode*>(e)->value.get();
            if (src && isFloatType(src->dtype)) return floatToInt(e->dtype, evalF(src));
            return wrapInt(e->dtype, evalI(src));
        }
    }
    fail(e->span, "malformed IR: unknown expression kind");
}

bool Machine::evalCond(const ExprNode* e) {
    if (e && isFloatType(e->dtype)) return evalF(e) != 0.0;
    return evalI(e) != 0;
}

double Machine::binaryF(const BinaryNode* n) {
    if (isComparison(n->op) || n->op == BinOp::And || n->op == BinOp::Or)
        return static_cast<double>(binaryI(n));
    double a = evalF(n->a.get()), b = evalF(n->b.get());
    switch (n->op) {
        case BinOp::Add:
            return a + b;
        case BinOp::Sub:
            return a - b;
        case BinOp::Mul:
            return a * b;
        case BinOp::Div:
            return a / b;
        case BinOp::FloorDiv:
            return std::floor(a / b);
        case BinOp::FloorMod: {
            double r = std::fmod(a, b);
            if (r != 0 && ((r < 0) != (b < 0))) r += b;
            return r;
        }
        case BinOp::Min:
            return std::fmin(a, b);
        case BinOp::Max:
            return std::fmax(a, b);
        case BinOp::Pow:
            return std::pow(a, b);
        default:
            break;
    }
    fail(n->span, std::string("operator '") + binOpSymbol(n->op) +
                      "' is not defined on floating-point values");
}

int64_t Machine::binaryI(const BinaryNode* n) {
    const ExprNode *ea = n->a.get(), *eb = n->b.get();
    if (!ea || !eb) fail(n->span, "malformed IR: binary operator with a missing operand");
    bool anyFloat = isFloatType(ea->dtype) || isFloatType(eb->dtype);
    switch (n->op) {
        case BinOp::And:
            return evalCond(ea) && evalCond(eb);
        case BinOp::Or:
            return evalCond(ea) || evalCond(eb);
        case BinOp::Eq:
        case BinOp::Ne:
        case BinOp::Lt:
        case BinOp::Le:
        case BinOp::Gt:
        case BinOp::Ge: {
            int c;  // -1, 0, 1; 2 = unordered (NaN)
            if (anyFloat) {
                double a = evalF(ea), b = evalF(eb);
                c = a < b ? -1 : a > b ? 1 : a == b ? 0 : 2;
            } else if (ea->dtype == DType::UInt64 && eb->dtype == DType::UInt64) {
                // uint64 values at and above 2^63 are held as negative int64: compare the bits unsigned.
                const uint64_t a = static_cast<uint64_t>(evalI(ea)), b = static_cast<uint64_t>(evalI(eb));
                c = a < b ? -1 : a > b ? 1 : 0;
            } else {
                int64_t a = evalI(ea), b = evalI(eb);
                c = a < b ? -1 : a > b ? 1 : 0;
            }
            switch (n->op) {
                case BinOp::Eq:
                    return c == 0;
                case BinOp::Ne:
                    return c != 0;
                case BinOp::Lt:
                    return c == -1;
                case BinOp::Le:
                    return c == -1 || c == 0;
                case BinOp::Gt:
                    return c == 1;
                default:
                    return c == 1 || c == 0;
            }
        }
        default:
            break;
    }
    if (anyFloat) {
        int64_t out;
        double d = binaryF(n);
        if (!toInt(d, out)) fail(n->span, "non-finite value used as an integer");
        return out;
    }
    int64_t a = evalI(ea), b = evalI(eb);
    // As the generated C++ computes: 32-bit results wrap at 32 bits (s32/u32 add, mul, shl on the
    // GPU; A - 1 of a uint32 0 is 4294967295, not -1, helper-112), 8- and 16-bit operands are
    // promoted to int (C's integer promotions: no wrap at their own width, at int's), 64-bit wraps at 64.
    const DType t = n->dtype;
    if (t == DType::Int32 || t == DType::UInt32) return wrapInt(t, intBinary(n, a, b));
    // Narrower operands compute in C's int: a uint16 65535 * 65535 is int -131071 on the GPU.
    if (ir::isInt(t) && dtypeBits(t) < 32) return wrapInt(DType::Int32, intBinary(n, a, b));
    if (t == DType::UInt64 && (n->op == BinOp::Div || n->op == BinOp::FloorDiv || n->op == BinOp::FloorMod ||
                               n->op == BinOp::Shr || n->op == BinOp::Min || n->op == BinOp::Max)) {
        const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
        if (n->op == BinOp::Shr) return b < 0 || b > 63 ? intBinary(n, a, b) : static_cast<int64_t>(ua >> b);
        if (n->op == BinOp::Min || n->op == BinOp::Max) return static_cast<int64_t>((n->op == BinOp::Min) == (ua < ub) ? ua : ub);
        if (ub == 0) return intBinary(n, a, b);  // its division-by-zero error
        return static_cast<int64_t>(n->op == BinOp::FloorMod ? ua % ub : ua / ub);
    }
    return intBinary(n, a, b);
}

int64_t Machine::intBinary(const BinaryNode* n, int64_t a, int64_t b) {
    switch (n->op) {
        case BinOp::Add:
            return wrapAdd(a, b);
        case BinOp::Sub:
            return wrapSub(a, b);
        case BinOp::Mul:
            return wrapMul(a, b);
        case BinOp::Div:
        case BinOp::FloorDiv:
        case BinOp::FloorMod:
            if (b == 0)
                fail(n->span, std::string("integer division by zero (operator '") +
                                  binOpSymbol(n->op) + "')");
            if (b == -1) return n->op == BinOp::FloorMod ? 0 : wrapSub(0, a);
            if (n->op == BinOp::Div) return a / b;  // C truncation, as `/` on ints in TIR
            return n->op == BinOp::FloorDiv ? floorDiv(a, b) : floorMod(a, b);
        case BinOp::Min:
            return std::min(a, b);
        case BinOp::Max:
            return std::max(a, b);
        case BinOp::Pow: {
            if (b < 0) fail(n->span, "negative integer exponent");
            int64_t r = 1;
            for (; b; b >>= 1, a = wrapMul(a, a))
                if (b & 1) r = wrapMul(r, a);
            return r;
        }
        case BinOp::BitAnd:
            return a & b;
        case BinOp::BitOr:
            return a | b;
        case BinOp::BitXor:
            return a ^ b;
        case BinOp::Shl:
        case BinOp::Shr:
            if (b < 0 || b > 63)
                fail(n->span, "shift by " + std::to_string(b) + " bits (must be in [0, 63])");
            return n->op == BinOp::Shl ? static_cast<int64_t>(static_cast<uint64_t>(a) << b)
                                       : a >> b;
        default:
            break;
    }
    fail(n->span, "malformed IR: unknown binary operator");
}

double Machine::callF(const CallNode* n) {
    std::string_view name = baseName(n->op);
    // The sm_90a schedules of inject-pipeline (InjectPipelineTma*.cpp) put TMA loads and mbarriers
    // into tile-level IR: loads land at issue here, so the barriers have nothing to order.
    if (n->op == intrin::kTmaLoad) return tileTmaLoad(n);
    if (n->op == intrin::kTmaStore) return tileTmaStore(n);
    if (n->op == intrin::kTmaStoreWait) return 0;
    if (n->op == intrin::kMbarrierInit || n->op == intrin::kMbarrierExpectTx || n->op == intrin::kMbarrierWait ||
        n->op == intrin::kMbarrierArrive || n->op == intrin::kFenceProxyAsync || n->op == intrin::kWarpgroupTurn ||
        n->op == intrin::kWgmmaRetire)
        return 0;
    if (name.substr(0, 3) == "tl.")
        fail(n->span, "lowered intrinsic '" + n->op + "' cannot run in the tile-level interpreter",
             "interpret the IR before the lowering passes");
    if (n->op == intrin::kAtomicPrev) return atomicPrev(n);
    if (n->op == intrin::kRngInit || n->op == intrin::kRngRand || n->op == intrin::kRngRandFloat)
        return rngCall(n);
    if (name == "reinterpret") {  // to a float dtype (integer results: evalI)
        if (n->args.size() != 1 || !n->args[0]) fail(n->span, "T.reinterpret takes 1 value");
        const uint64_t u = sourceBits(*this, n->args[0].get());
        return isFloatType(n->dtype) ? floatOfBits(n->dtype, u)
                                     : static_cast<double>(wrapInt(n->dtype, static_cast<int64_t>(u)));
    }
    if (name == "infinity") return std::numeric_limits<double>::infinity();
    if (name == "ninfinity") return -std::numeric_limits<double>::infinity();
    // TVM's math library and the IEEE operations (ir/MathLib.h): T.erf, T.pow, T.ieee_add(x, y, "rz"), ...
    if (const ir::MathFn* f = ir::findMathFn(name)) {
        if (n->args.size() != size_t(f->arity)) fail(n->span, "T." + std::string(name) + " takes " + std::to_string(f->arity) + " argument(s)");
        return f->arity == 1 ? f->f1(evalF(n->args[0].get())) : f->f2(evalF(n->args[0].get()), evalF(n->args[1].get()));
    }
    std::string mode;
    if (const ir::IeeeOp* op = ir::parseIeeeCall(name, &mode)) {
        if (n->args.size() != size_t(op->arity)) fail(n->span, "T." + std::string(op->name) + " takes " + std::to_string(op->arity) + " argument(s)");
        double a[3] = {0, 0, 0};
        for (size_t i = 0; i < n->args.size(); ++i) a[i] = evalF(n->args[i].get());
        return ir::evalIeee(*op, mode, n->dtype == DType::Float64 ? 64 : 32, a);
    }
    for (auto& f : kUnary) {
        if (f.name != name) continue;
        if (n->args.size() != 1) fail(n->span, "T." + std::string(name) + " takes 1 argument");
        return f.fn(evalF(n->args[0].get()));
    }
    for (auto& f : kBinary) {
        if (f.name != name) continue;
        if (n->args.size() != 2) fail(n->span, "T." + std::string(name) + " takes 2 arguments");
        return f.fn(evalF(n->args[0].get()), evalF(n->args[1].get()));
    }
    fail(n->span, "the interpreter does not support the function '" + n->op + "'");
}

std::pair<std::string, const LoadNode*> Machine::atomicPrevParts(const CallNode* n) const {
    // A fourth argument, the memory order, changes nothing here: the interpreter runs one
    // operation at a time, in an order every memory order allows.
    const bool arity = n->args.size() == 3 || n->args.size() == 4;
    auto* op = arity ? dynamic_cast<const StrImmNode*>(n->args[0].get()) : nullptr;
    auto* place = arity ? dynamic_cast<const LoadNode*>(n->args[1].get()) : nullptr;
    if (!op || !place || (op->value != "add" && op->value != "max" && op->value != "min"))
        fail(n->span, "malformed IR: atomic_prev takes (\"add\"|\"max\"|\"min\", element, value)");
    return {op->value, place};
}

double atomicCombine(const std::string& op, double old, double v) {  // NaN loses, as on the GPU
    return op == "add" ? old + v : op == "max" ? std::fmax(old, v) : std::fmin(old, v);
}

double Machine::atomicPrev(const CallNode* n) {
    auto [op, place] = atomicPrevParts(n);
    BufferState& b = lookup(place->buffer.get(), place->span);
    const int64_t off = elementOffset(b, place->indices, place->span, "atomic");
    const double v = roundValue(b.node->dtype, evalValue(n->args[2].get()));
    const double old = b.data[off];
    b.data[off] = roundValue(b.node->dtype, atomicCombine(op, old, v));
    return old;
}

double Machine::tileTmaLoad(const CallNode* n) { return tileTmaBox(n, false); }
double Machine::tileTmaStore(const CallNode* n) { return tileTmaBox(n, true); }

double Machine::tileTmaBox(const CallNode* n, bool store) {
    // load:  map, address_of(tile[stage, 0, 0]), bar, rows, panel_elems, panels, coords (innermost first)
    // store: map, address_of(tile[.., 0, 0]), rows, panel_elems, panels, coords
    const char* what = store ? "tl.tma_store" : "tl.tma_load";
    const size_t first = store ? 2 : 3;  // rows (a load's mbarrier comes before it)
    auto* a = n->args.size() >= first + 4 ? dynamic_cast<const CallNode*>(n->args[1].get()) : nullptr;
    auto* at = a && a->op == intrin::kAddressOf && !a->args.empty() ? dynamic_cast<const LoadNode*>(a->args[0].get()) : nullptr;
    if (!at || !m_tileFunc)
        fail(n->span, std::string("malformed IR: ") + what + "(map, address_of(tile), " + (store ? "" : "bar, ") +
                          "rows, panel_elems, panels, coords...)");
    const int64_t map = evalI(n->args[0].get());
    auto desc = attrInts(m_tileFunc->attrs, "tma_map." + std::to_string(map));
    if ((desc.size() != 4 && desc.size() != 5) || desc[0] < 0 || size_t(desc[0]) >= m_tileFunc->params.size())
        fail(n->span, std::string(what) + ": tensor map " + std::to_string(map) + " is not described by the kernel");
    BufferState& tensor = lookup(m_tileFunc->params[size_t(desc[0])].get(), n->span);
    BufferState& tile = lookup(at->buffer.get(), at->span);
    const int64_t base = elementOffset(tile, at->indices, at->span, store ? "TMA store" : "TMA load");
    const int64_t rows = evalI(n->args[first].get()), cols = evalI(n->args[first + 1].get()) * evalI(n->args[first + 2].get());
    std::vector<int64_t> coord;
    for (size_t i = first + 3; i < n->args.size(); ++i) coord.push_back(evalI(n->args[i].get()));
    const int64_t rank = static_cast<int64_t>(tensor.shape.size()), tr = static_cast<int64_t>(tile.shape.size());
    const int64_t rowDim = desc.size() == 5 && desc[4] >= 0 ? desc[4] : rank - 2;
    if (rank != static_cast<int64_t>(coord.size()) || tr < 2 || rowDim >= rank - 1)
        fail(n->span, std::string(what) + ": coordinates do not match '" + tensor.node->name + "'");
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            bool in = true;
            int64_t flat = 0;
            for (int64_t d = 0; d < rank; ++d) {
                const int64_t i = coord[size_t(rank - 1 - d)] + (d == rank - 1 ? c : d == rowDim ? r : 0);
                in = in && i >= 0 && i < tensor.shape[size_t(d)];
                flat += i * tensor.strides[size_t(d)];
            }
            // PTX ISA §9.7.9.25.5.2: box elements outside the tensor read 0 and are not written.
            if (store && !in) continue;
            const int64_t o = base + r * tile.strides[size_t(tr - 2)] + c * tile.strides[size_t(tr - 1)];
            if (o < 0 || o >= tile.size)
                fail(n->span, std::string(store ? "TMA store" : "TMA load") + " outside '" + tile.node->name + "'");
            if (store)
                tensor.data[flat] = tile.data[o];
            else
                tile.data[o] = in ? tensor.data[flat] : 0.0;
        }
    return 0;
}

double Machine::loadValue(const LoadNode* n) {
    BufferState& b = lookup(n->buffer.get(), n->span);
    return b.data[elementOffset(b, n->indices, n->span, "load")];
}

namespace {
/// What the user can change when an out-of-bounds index comes from the kernel's arguments: a
/// scalar passed by value (--param) or an integer tensor read in the index (--input).
std::string indexSourceHint(const ir::PrimFuncNode* f, const std::vector<Expr>& idx) {
    std::vector<std::string> params, inputs;
    auto add = [](std::vector<std::string>& to, const std::string& n) {
        if (std::find(to.begin(), to.end(), n) == to.end()) to.push_back(n);
    };
    if (f) {
        const auto sources = ir::scalarSources(*f);
        for (const Expr& e : idx)
            ir::walkExpr(e, [&](const Expr& x) {
                if (auto* l = ir::as<LoadNode>(x); l && l->buffer->scope == ir::Scope::Global) add(inputs, l->buffer->name);
                if (auto* v = ir::as<VarNode>(x))
                    for (size_t i = 0; i < f->scalars.size() && i < sources.size(); ++i)
                        if (f->scalars[i].get() == v && sources[i].first < 0) add(params, v->name);
            });
    }
    std::string h;
    for (const std::string& p : params) h += (h.empty() ? "" : " ") + std::string("--param ") + p + "=VALUE";
    for (const std::string& i : inputs) h += (h.empty() ? "" : " ") + std::string("--input ") + i + "=RULE";
    if (h.empty())
        return "If the index comes from an input (offsets, sentinel indices such as -1), give valid "
               "ones: tilec run --input NAME=RULE; otherwise guard the access or fix its arithmetic";
    return "The index reads the kernel's arguments: give values that keep it inside the tensor (tilec run " + h +
           (inputs.empty() ? "" : "; integer input rules: offsets:TOTAL, int:LO:HI, distinct:N, fill:V, arange, values:V1,V2,...") +
           ") or guard the access";
}
}  // namespace

int64_t Machine::elementOffset(const BufferState& b, const std::vector<Expr>& idx, const Span& at,
                               const char* what) {
    size_t rank = b.shape.size();
    if (idx.empty() && b.size == 1) return 0;  // scalar (alloc_var) read without an index
    if (idx.size() != rank)
        fail(at, std::string(what) + " of '" + b.node->name + "' with " +
                     std::to_string(idx.size()) + " indices, but the buffer has rank " +
                     std::to_string(rank));
    int64_t small[8];
    std::vector<int64_t> big;
    int64_t* vals = small;
    if (rank > 8) {
        big.resize(rank);
        vals = big.data();
    }
    int64_t off = 0;
    bool oob = false;
    for (size_t d = 0; d < rank; ++d) {
        vals[d] = evalI(idx[d].get());
        bool out = vals[d] < 0 || vals[d] >= b.shape[d];
        oob |= out;
        if (!out) off += vals[d] * b.strides[d];  // in bounds: no overflow (extents <= 2^28)
    }
    if (oob || off < 0 || off >= b.size) {
        std::vector<int64_t> v(vals, vals + rank);
        // TileLang predicates T.copy regions (out-of-bounds lanes read 0 and are not written,
        // which the tile operations here follow) but not element accesses: this one reads or
        // writes outside the tensor on the GPU, which TileLang leaves undefined.
        std::string hint;
        if (b.node->scope == ir::Scope::Global)
            hint = "TileLang guards only T.copy regions; an element access outside the tensor "
                   "is undefined on the GPU (even when the kernel masks the value later). " +
                   indexSourceHint(m_tileFunc, idx);
        fail(at, std::string("out-of-bounds ") + what + " " + b.node->name + formatIndex(v) + ": " +
                     scopeName(b.node->scope) + " buffer '" + b.node->name + "' has shape " +
                     formatShape(b.shape),
             hint);
    }
    return off;
}

std::string formatIndex(const std::vector<int64_t>& idx) {
    std::string s = "[";
    for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
    return s + "]";
}

}  // namespace ts::interp::detail
