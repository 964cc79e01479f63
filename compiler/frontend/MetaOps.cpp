// Meta-evaluator operators with Python semantics: arithmetic (checked 64-bit ints, floor
// division/modulo toward -inf, int/float promotion), comparisons, truthiness, iteration,
// indexing and slicing. ExtValue hooks get the first chance whenever an operand is one.
#include <cmath>

#include <set>

#include "compiler/frontend/MetaEval.h"

namespace ts::fe {

int64_t pyFloorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

int64_t pyMod(int64_t a, int64_t b) {
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

double pyFloatMod(double a, double b) {
    double m = std::fmod(a, b);
    if (m != 0) {
        if ((b < 0) != (m < 0)) m += b;
    } else {
        m = std::copysign(0.0, b);
    }
    return m;
}

namespace {

[[noreturn]] void overflow(Span s, ast::BinOpKind op, int64_t a, int64_t b) {
    throw CompileError(s,
                       "integer overflow in compile-time arithmetic: " + std::to_string(a) + " " +
                           ast::spelling(op) + " " + std::to_string(b),
                       "TileScope's compile-time integers are signed 64-bit");
}

Value intOp(ast::BinOpKind op, int64_t a, int64_t b, bool bothBool, Span s) {
    using B = ast::BinOpKind;
    int64_t r = 0;
    switch (op) {
        case B::Add:
            if (__builtin_add_overflow(a, b, &r)) overflow(s, op, a, b);
            return Value::integer(r);
        case B::Sub:
            if (__builtin_sub_overflow(a, b, &r)) overflow(s, op, a, b);
            return Value::integer(r);
        case B::Mul:
            if (__builtin_mul_overflow(a, b, &r)) overflow(s, op, a, b);
            return Value::integer(r);
        case B::Div:
            if (b == 0) throw CompileError(s, "division by zero", "check the values (--param ...) the divisor is computed from");
            return Value::real(static_cast<double>(a) / static_cast<double>(b));
        case B::FloorDiv:
            if (b == 0) throw CompileError(s, "integer division by zero", "check the values (--param ...) the divisor is computed from");
            if (a == INT64_MIN && b == -1) overflow(s, op, a, b);
            return Value::integer(pyFloorDiv(a, b));
        case B::Mod:
            if (b == 0) throw CompileError(s, "integer modulo by zero");
            if (b == -1) return Value::integer(0);
            return Value::integer(pyMod(a, b));
        case B::Pow: {
            if (b < 0) {
                if (a == 0) throw CompileError(s, "0 cannot be raised to a negative power");
                return Value::real(std::pow(static_cast<double>(a), static_cast<double>(b)));
            }
            int64_t result = 1, base = a, e = b;
            while (e > 0) {
                if (e & 1)
                    if (__builtin_mul_overflow(result, base, &result)) overflow(s, op, a, b);
                e >>= 1;
                if (e > 0 && __builtin_mul_overflow(base, base, &base)) overflow(s, op, a, b);
            }
            return Value::integer(result);
        }
        case B::LShift:
            if (b < 0) throw CompileError(s, "negative shift count");
            if (a == 0) return Value::integer(0);
            if (b >= 63 || __builtin_mul_overflow(a, int64_t{1} << b, &r)) overflow(s, op, a, b);
            return Value::integer(r);
        case B::RShift:
            if (b < 0) throw CompileError(s, "negative shift count");
            return Value::integer(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
        case B::BitAnd:
            return bothBool ? Value::boolean(a & b) : Value::integer(a & b);
        case B::BitOr:
            return bothBool ? Value::boolean(a | b) : Value::integer(a | b);
        case B::BitXor:
            return bothBool ? Value::boolean(a ^ b) : Value::integer(a ^ b);
        case B::MatMul:
            break;
    }
    throw CompileError(
        s, std::string("unsupported operand types for ") + ast::spelling(op) + ": 'int' and 'int'");
}

Value floatOp(ast::BinOpKind op, double a, double b, Span s) {
    using B = ast::BinOpKind;
    switch (op) {
        case B::Add:
            return Value::real(a + b);
        case B::Sub:
            return Value::real(a - b);
        case B::Mul:
            return Value::real(a * b);
        case B::Div:
            if (b == 0) throw CompileError(s, "float division by zero");
            return Value::real(a / b);
        case B::FloorDiv:
            if (b == 0) throw CompileError(s, "float floor division by zero");
            {
                // CPython's float_floor_div, exact for the cases where floor(a / b) rounds badly.
                double mod = std::fmod(a, b);
                double div = (a - mod) / b;
                if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
                if (div == 0) return Value::real(std::copysign(0.0, a / b));
                double fl = std::floor(div);
                if (div - fl > 0.5) fl += 1.0;
                return Value::real(fl);
            }
        case B::Mod:
            if (b == 0) throw CompileError(s, "float modulo by zero");
            return Value::real(pyFloatMod(a, b));
        case B::Pow:
            if (a == 0 && b < 0) throw CompileError(s, "0.0 cannot be raised to a negative power");
            if (a < 0 && b != std::floor(b))
                throw CompileError(s,
                                   "negative number raised to a fractional power (complex result)");
            return Value::real(std::pow(a, b));
        default:
            break;
    }
    throw CompileError(
        s, std::string("unsupported operand types for ") + ast::spelling(op) + ": 'float'");
}

Value repeat(Interp& in, const Value& seq, int64_t n, size_t limit, Span s) {
    if (n < 0) n = 0;
    size_t len = seq.is(ValueKind::Str) ? seq.asStr().size() : seq.items().size();
    if (len != 0 && static_cast<uint64_t>(n) > limit / len)
        throw CompileError(s, "sequence repetition is too large (" + std::to_string(len) + " * " +
                                  std::to_string(n) + ")",
                           "the compile-time interpreter builds the whole list in memory; check the repeat count");
    if (len == 0) n = 0;  // '' * 10**12: nothing to repeat (was a loop of 10**12 empty appends)
    uint64_t total = len * static_cast<uint64_t>(n);
    // A string is appended n times (n pieces, `total` bytes).
    if (seq.is(ValueKind::Str)) in.step(s, static_cast<uint64_t>(n) / 4 + total / 64);
    else in.chargeItems(s, total);
    if (seq.is(ValueKind::Str)) {
        std::string out;
        for (int64_t i = 0; i < n; ++i) out += seq.asStr();
        return Value::str(out);
    }
    std::vector<Value> out;
    for (int64_t i = 0; i < n; ++i) out.insert(out.end(), seq.items().begin(), seq.items().end());
    return seq.is(ValueKind::Tuple) ? Value::tuple(std::move(out)) : Value::list(std::move(out));
}

}  // namespace

Value Interp::binaryOp(ast::BinOpKind op, const Value& a, const Value& b, Span s) {
    using B = ast::BinOpKind;
    if (a.is(ValueKind::Ext))
        if (auto r = a.extObj().binaryOp(*this, op, b, true, s)) return *r;
    if (b.is(ValueKind::Ext))
        if (auto r = b.extObj().binaryOp(*this, op, a, false, s)) return *r;
    if (a.isIntLike() && b.isIntLike())
        return intOp(op, a.asInt(), b.asInt(), a.is(ValueKind::Bool) && b.is(ValueKind::Bool), s);
    if (a.isNumber() && b.isNumber()) {
        if (op == B::LShift || op == B::RShift || op == B::BitAnd || op == B::BitOr ||
            op == B::BitXor || op == B::MatMul)
            throw CompileError(s, std::string("unsupported operand types for ") +
                                      ast::spelling(op) + ": '" + typeName(a) + "' and '" +
                                      typeName(b) + "'");
        return floatOp(op, a.asFloat(), b.asFloat(), s);
    }
    if (op == B::Add && a.kind() == b.kind()) {
        if (a.is(ValueKind::Str)) {
            chargeChars(s, a.asStr().size() + b.asStr().size());
            return Value::str(a.asStr() + b.asStr());
        }
        if (a.isSequence()) {
            size_t total = a.items().size() + b.items().size();
            if (total > m_limits.maxSequence)
                throw CompileError(s, "sequence concatenation is too large (" +
                                          std::to_string(total) + " elements)");
            chargeItems(s, total);
            std::vector<Value> out = a.items();
            out.insert(out.end(), b.items().begin(), b.items().end());
            return a.is(ValueKind::Tuple) ? Value::tuple(std::move(out))
                                          : Value::list(std::move(out));
        }
    }
    if (op == B::Mul) {
        if ((a.is(ValueKind::Str) || a.isSequence()) && b.isIntLike())
            return repeat(*this, a, b.asInt(), m_limits.maxSequence, s);
        if ((b.is(ValueKind::Str) || b.isSequence()) && a.isIntLike())
            return repeat(*this, b, a.asInt(), m_limits.maxSequence, s);
    }
    if (op == B::BitOr && a.is(ValueKind::Dict) && b.is(ValueKind::Dict)) {
        Value out = Value::dict(a.dictObj().entries);
        for (auto& [k, v] : b.dictObj().entries) out.dictObj().set(k, v);
        return out;
    }
    std::string hint;
    if (op == B::Mod && a.is(ValueKind::Str))
        hint = "%-formatting is not supported; use str.format()";
    else if ((a.is(ValueKind::Str) && b.isNumber()) || (b.is(ValueKind::Str) && a.isNumber()))
        hint = "convert with str(x) or int(x) first";
    throw CompileError(s,
                       std::string("unsupported operand types for ") + ast::spelling(op) + ": '" +
                           typeName(a) + "' and '" + typeName(b) + "'",
                       hint);
}

Value Interp::unaryOp(ast::UnaryOpKind op, const Value& a, Span s) {
    using U = ast::UnaryOpKind;
    if (a.is(ValueKind::Ext))
        if (auto r = a.extObj().unaryOp(*this, op, s)) return *r;
    switch (op) {
        case U::Not:
            return Value::boolean(!truthy(a, s));
        case U::Neg:
            if (a.isIntLike()) {
                if (a.asInt() == INT64_MIN) overflow(s, ast::BinOpKind::Sub, 0, a.asInt());
                return Value::integer(-a.asInt());
            }
            if (a.is(ValueKind::Float)) return Value::real(-a.asFloat());
            break;
        case U::Pos:
            if (a.isIntLike()) return Value::integer(a.asInt());
            if (a.is(ValueKind::Float)) return a;
            break;
        case U::Invert:
            if (a.isIntLike()) return Value::integer(~a.asInt());
            break;
    }
    throw CompileError(s, std::string("bad operand type for unary ") + ast::spelling(op) + ": '" +
                              typeName(a) + "'");
}

namespace {
// Three-way comparison for ordering; nullopt if the kinds do not order.
std::optional<int> order(const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) {
        if (a.isIntLike() && b.isIntLike())
            return a.asInt() < b.asInt() ? -1 : a.asInt() > b.asInt() ? 1 : 0;
        double x = a.asFloat(), y = b.asFloat();
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (a.is(ValueKind::Str) && b.is(ValueKind::Str)) {
        int c = a.asStr().compare(b.asStr());
        return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    if (a.isSequence() && a.kind() == b.kind()) {
        const auto &x = a.items(), &y = b.items();
        for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
            if (metaEquals(x[i], y[i])) continue;
            return order(x[i], y[i]);
        }
        return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
    }
    return std::nullopt;
}

bool identical(const Value& a, const Value& b) {
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
        case ValueKind::None:
            return true;
        case ValueKind::Bool:
        case ValueKind::Int:
            return a.asInt() == b.asInt();
        case ValueKind::Float:
            return a.asFloat() == b.asFloat();
        case ValueKind::DType:
            return a.asDType() == b.asDType();
        default:
            return a.identity() == b.identity();
    }
}
}  // namespace

namespace {
Value compareOpAt(Interp& in, ast::CmpOpKind op, const Value& a, const Value& b, Span s) {
    using C = ast::CmpOpKind;
    switch (op) {
        case C::Is:
            return Value::boolean(identical(a, b));
        case C::IsNot:
            return Value::boolean(!identical(a, b));
        case C::In:
        case C::NotIn: {
            bool neg = op == C::NotIn;
            bool found = false;
            if (b.is(ValueKind::Str)) {
                if (!a.is(ValueKind::Str))
                    throw CompileError(
                        s, "'in <string>' requires a string as left operand, not " + typeName(a));
                found = b.asStr().find(a.asStr()) != std::string::npos;
            } else if (b.isSequence()) {
                in.chargeItems(s, b.items().size());
                for (const Value& x : b.items()) found = found || metaEquals(a, x);
            } else if (b.is(ValueKind::Dict)) {
                in.chargeItems(s, b.dictObj().entries.size());
                found = b.dictObj().find(a) != nullptr;
            } else if (b.is(ValueKind::Range)) {
                const RangeObj& r = b.rangeObj();
                if (a.isIntLike()) {
                    int64_t v = a.asInt();
                    bool inside =
                        r.step > 0 ? (v >= r.start && v < r.stop) : (v <= r.start && v > r.stop);
                    found = inside && pyMod(v - r.start, r.step < 0 ? -r.step : r.step) == 0;
                }
            } else {
                throw CompileError(s, "argument of type '" + typeName(b) + "' is not iterable");
            }
            return Value::boolean(found != neg);
        }
        default:
            break;
    }
    if (a.is(ValueKind::Ext))
        if (auto r = a.extObj().compare(in, op, b, true, s)) return *r;
    if (b.is(ValueKind::Ext))
        if (auto r = b.extObj().compare(in, op, a, false, s)) return *r;
    if ((op == C::Eq || op == C::NotEq) && a.kind() == b.kind()) {
        if (a.isSequence()) in.chargeItems(s, std::min(a.items().size(), b.items().size()));
        if (a.is(ValueKind::Str)) in.chargeChars(s, std::min(a.asStr().size(), b.asStr().size()));
        if (a.is(ValueKind::Dict)) in.chargeItems(s, a.dictObj().entries.size() * b.dictObj().entries.size());
    }
    if (op == C::Eq) return Value::boolean(metaEquals(a, b));
    if (op == C::NotEq) return Value::boolean(!metaEquals(a, b));
    auto o = order(a, b);
    if (!o)
        throw CompileError(s, std::string("'") + ast::spelling(op) +
                                  "' not supported between instances of '" + typeName(a) +
                                  "' and '" + typeName(b) + "'");
    switch (op) {
        case C::Lt:
            return Value::boolean(*o < 0);
        case C::LtE:
            return Value::boolean(*o <= 0);
        case C::Gt:
            return Value::boolean(*o > 0);
        case C::GtE:
            return Value::boolean(*o >= 0);
        default:
            return Value::boolean(false);
    }
}
}  // namespace

Value Interp::compareOp(ast::CmpOpKind op, const Value& a, const Value& b, Span s) {
    try {
        return compareOpAt(*this, op, a, b, s);
    } catch (CompileError& e) {
        if (!e.diag.span.valid()) e.diag.span = s;  // metaEquals()'s limits know no location
        throw;
    }
}

std::optional<bool> Interp::truthOrDynamic(const Value& v, Span s) {
    switch (v.kind()) {
        case ValueKind::None:
            return false;
        case ValueKind::Bool:
        case ValueKind::Int:
            return v.asInt() != 0;
        case ValueKind::Float:
            return v.asFloat() != 0;
        case ValueKind::Str:
            return !v.asStr().empty();
        case ValueKind::Tuple:
        case ValueKind::List:
            return !v.items().empty();
        case ValueKind::Dict:
            return !v.dictObj().entries.empty();
        case ValueKind::Range:
            return v.rangeObj().size() > 0;
        case ValueKind::Ext:
            return v.extObj().truth(*this, s);
        default:
            return true;
    }
}

bool Interp::truthy(const Value& v, Span s) {
    if (auto t = truthOrDynamic(v, s)) return *t;
    throw CompileError(
        s, "this condition is a " + typeName(v) + " known only at run time",
        "Python 'if', 'while', 'and', 'or' and 'not' need compile-time values here; use "
        "T.if_then_else(...) or move the condition into the kernel body");
}

std::vector<Value> Interp::iterate(const Value& v, Span s) {
    // The copy is work in proportion to its length (ranges: charged before they expand).
    if (v.is(ValueKind::Str)) chargeItems(s, v.asStr().size());
    if (v.isSequence()) chargeItems(s, v.items().size());
    if (v.is(ValueKind::Dict)) chargeItems(s, v.dictObj().entries.size());
    switch (v.kind()) {
        case ValueKind::Str: {
            std::vector<Value> out;
            for (char c : v.asStr()) out.push_back(Value::str(std::string(1, c)));
            return out;
        }
        case ValueKind::DType: {  // TileLang dtypes are str subclasses: iterate the name
            std::vector<Value> out;
            for (char c : ir::dtypeName(v.asDType())) out.push_back(Value::str(std::string(1, c)));
            return out;
        }
        case ValueKind::Tuple:
        case ValueKind::List:
            return v.items();
        case ValueKind::Dict: {
            std::vector<Value> out;
            for (const auto& [k, _] : v.dictObj().entries) out.push_back(k);
            return out;
        }
        case ValueKind::Range: {
            const RangeObj& r = v.rangeObj();
            if (static_cast<uint64_t>(r.size()) > m_limits.maxSequence)
                throw CompileError(s, "range of " + std::to_string(r.size()) +
                                          " elements is too large to expand at compile time");
            chargeItems(s, static_cast<uint64_t>(r.size()));
            std::vector<Value> out;
            out.reserve(static_cast<size_t>(r.size()));
            for (int64_t i = 0; i < r.size(); ++i) out.push_back(Value::integer(r.at(i)));
            return out;
        }
        case ValueKind::Ext:
            if (auto items = v.extObj().iterate(*this, s)) return *items;
            break;
        default:
            break;
    }
    throw CompileError(s, "'" + typeName(v) + "' object is not iterable");
}

int64_t Interp::length(const Value& v, Span s) {
    switch (v.kind()) {
        case ValueKind::Str:
            return static_cast<int64_t>(v.asStr().size());
        case ValueKind::Tuple:
        case ValueKind::List:
            return static_cast<int64_t>(v.items().size());
        case ValueKind::Dict:
            return static_cast<int64_t>(v.dictObj().entries.size());
        case ValueKind::Range:
            return v.rangeObj().size();
        case ValueKind::Ext:
            if (auto n = v.extObj().length(*this, s)) return *n;
            break;
        default:
            break;
    }
    throw CompileError(s, "object of type '" + typeName(v) + "' has no len()");
}

Value Interp::getAttr(const Value& obj, const std::string& name, Span s) {
    if (obj.is(ValueKind::Namespace)) {
        NamespaceObj& ns = obj.nsObj();
        if (Value* v = ns.find(name)) {
            if (v->is(ValueKind::Poison))
                throw CompileError(s, v->poisonObj().diag.message, v->poisonObj().diag.hint);
            return *v;
        }
        if (ns.opaque) {
            // BitBLAS's `import tvm.tl.language as T`: the fix is TileLang's own module.
            const bool tvmTl = ns.name == "tvm.tl" || ns.name.rfind("tvm.tl.", 0) == 0;
            throw CompileError(s, ns.opaqueReason + " (no attribute '" + name + "' is known)",
                               tvmTl ? "write the kernel with TileLang's language module: `import "
                                       "tilelang.language as T`"
                                     : "only the kernel's meta-level Python is evaluated by TileScope");
        }
        bool isT = ns.name == "tilelang.language";
        // TileLang names TileScope lacks (its testing/python uses them): "did you mean" would point
        // at a different op (T.warp_reduce_sum -> T.reduce_sum).
        static const std::set<std::string> kTileLangOnly = {
            "warp_reduce_sum", "warp_reduce_max", "warp_reduce_min", "any_of", "all_of", "func_attr",
            "ClusterKernel", "alloc_tmem", "alloc_buffer",
            "alloc_reducer", "decl_buffer", "Persistent", "tvm_storage_sync",
            "tvm_access_ptr", "transpose", "tma_store_wait", "shuffle_elect", "handle",
            "get_lane_idx", "any_sync", "mma_gemm_blockscaled", "float4_e2m1_unpacked",
            "annotate_safe_value", "annotate_restrict_buffers", "annotate_min_blocks_per_sm",
            "reduce_bitand", "reduce_bitor", "reduce_bitxor", "__ldg"};
        if (isT && kTileLangOnly.count(name))
            throw CompileError(s, "T." + name + " is TileLang's, but TileScope does not support it yet",
                               "the T.* names TileScope knows are in compiler/frontend/LanguageRegistry.h "
                               "(in the IDE, type `T.` for completions)");
        std::vector<std::string> names;
        for (const auto& [k, _] : ns.members) names.push_back(k);
        std::string near = closestMatch(name, names);
        std::string shortName = isT ? "T" : ns.name;
        throw CompileError(s,
                           isT ? "unknown tile-language name T." + name
                               : "module '" + shortName + "' has no attribute '" + name + "'",
                           near.empty() ? (isT ? "the T.* names TileScope knows are in "
                                                 "compiler/frontend/LanguageRegistry.h "
                                                 "(in the IDE, type `T.` for completions)"
                                               : "")
                                        : "did you mean '" + shortName + "." + near + "'?");
    }
    if (obj.is(ValueKind::Ext)) {
        if (auto r = obj.extObj().getAttr(*this, name, s)) return *r;
        throw CompileError(s, "'" + typeName(obj) + "' object has no attribute '" + name + "'");
    }
    if (obj.is(ValueKind::Function) && name == "__name__")
        return Value::str(obj.functionObj().name);
    if (obj.is(ValueKind::Builtin) && name == "__name__") {  // T.reduce_max.__name__ is 'reduce_max'
        const std::string& q = obj.builtinObj().name;
        return Value::str(q.substr(q.rfind('.') + 1));
    }
    // A dtype given as text (`--param dtype=float16`) stands for TileLang's dtype, a str
    // subclass that also has .bits.
    if (obj.is(ValueKind::Str) && name == "bits")
        if (auto t = asDType(obj)) return Value::integer(ir::dtypeBits(*t));
    if (obj.is(ValueKind::DType)) {
        if (name == "bits") return Value::integer(ir::dtypeBits(obj.asDType()));
        if (name == "name") return Value::str(std::string(ir::dtypeName(obj.asDType())));
        // T.dtype(x).as_torch(): torch's dtype of the same name, which is this value here (torch.float16
        // and T.float16 are one dtype value; TileLang's tests build their reference's dtype this way).
        if (name == "as_torch")
            return Value::builtin("as_torch", [obj](Interp&, CallArgs& a) {
                a.expectPositional(0, 0);
                return obj;
            });
    }
    return methodOf(obj, name, s);
}

namespace {
// CPython's PySlice_AdjustIndices.
struct SliceIdx {
    int64_t start, stop, step, count;
};
SliceIdx sliceIndices(const SliceObj& sl, int64_t len, Span s) {
    auto intOr = [&](const Value& v, int64_t dflt) {
        if (v.isNone()) return dflt;
        if (!v.isIntLike())
            throw CompileError(s, "slice indices must be integers or None, not " + typeName(v));
        return v.asInt();
    };
    int64_t step = intOr(sl.step, 1);
    if (step == 0) throw CompileError(s, "slice step cannot be zero");
    auto adjust = [&](const Value& v, int64_t dflt) {
        if (v.isNone()) return dflt;
        int64_t i = intOr(v, 0);
        if (i < 0) {
            i += len;
            if (i < 0) i = step < 0 ? -1 : 0;
        } else if (i >= len) {
            i = step < 0 ? len - 1 : len;
        }
        return i;
    };
    int64_t start = adjust(sl.lower, step < 0 ? len - 1 : 0);
    int64_t stop = adjust(sl.upper, step < 0 ? -1 : len);
    int64_t count = 0;
    if (step > 0 && start < stop) count = (stop - start - 1) / step + 1;
    if (step < 0 && stop < start) count = (start - stop - 1) / (-step) + 1;
    return {start, stop, step, count};
}

int64_t normIndex(const Value& idx, int64_t len, const char* what, Span s) {
    int64_t i = idx.asInt();
    if (i < 0) i += len;
    if (i < 0 || i >= len)
        throw CompileError(s, std::string(what) + " index " + std::to_string(idx.asInt()) +
                                  " is out of range (length " + std::to_string(len) + ")");
    return i;
}
}  // namespace

Value Interp::getItem(const Value& obj, const Value& index, Span s) {
    if (obj.is(ValueKind::Ext)) {
        if (auto r = obj.extObj().getItem(*this, index, s)) return *r;
        throw CompileError(s, "'" + typeName(obj) + "' object is not subscriptable");
    }
    if (obj.isSequence() || obj.is(ValueKind::Str) || obj.is(ValueKind::Range)) {
        int64_t len = length(obj, s);
        if (index.isIntLike()) {
            int64_t i = normIndex(index, len, typeName(obj).c_str(), s);
            if (obj.is(ValueKind::Str))
                return Value::str(std::string(1, obj.asStr()[static_cast<size_t>(i)]));
            if (obj.is(ValueKind::Range)) return Value::integer(obj.rangeObj().at(i));
            return obj.items()[static_cast<size_t>(i)];
        }
        if (index.is(ValueKind::Slice)) {
            SliceIdx si = sliceIndices(index.sliceObj(), len, s);
            if (obj.is(ValueKind::Str)) chargeChars(s, static_cast<uint64_t>(si.count));
            else if (!obj.is(ValueKind::Range)) chargeItems(s, static_cast<uint64_t>(si.count));
            if (obj.is(ValueKind::Range)) {
                const RangeObj& r = obj.rangeObj();
                return Value::range(r.at(si.start), r.at(si.start) + si.count * si.step * r.step,
                                    si.step * r.step);
            }
            if (obj.is(ValueKind::Str)) {
                std::string out;
                for (int64_t k = 0, i = si.start; k < si.count; ++k, i += si.step)
                    out += obj.asStr()[static_cast<size_t>(i)];
                return Value::str(out);
            }
            std::vector<Value> out;
            for (int64_t k = 0, i = si.start; k < si.count; ++k, i += si.step)
                out.push_back(obj.items()[static_cast<size_t>(i)]);
            return obj.is(ValueKind::Tuple) ? Value::tuple(std::move(out))
                                            : Value::list(std::move(out));
        }
        throw CompileError(s, typeName(obj) +
                                  " indices must be compile-time integers or slices, not " +
                                  typeName(index));
    }
    if (obj.is(ValueKind::Dict)) {
        chargeItems(s, obj.dictObj().entries.size());  // a linear search
        if (Value* v = obj.dictObj().find(index)) return *v;
        std::string keys;
        size_t n = 0;
        for (const auto& [k, _] : obj.dictObj().entries) {
            if (n++ == 8) {
                keys += ", ...";
                break;
            }
            keys += (keys.empty() ? "" : ", ") + repr(k);
        }
        throw CompileError(s, "key " + repr(index) + " not found in dict",
                           keys.empty() ? "the dict is empty" : "keys: " + keys);
    }
    throw CompileError(s, "'" + typeName(obj) + "' object is not subscriptable");
}

void Interp::setItem(const Value& obj, const Value& index, const Value& v, Span s) {
    if (obj.is(ValueKind::Ext)) {
        if (obj.extObj().setItem(*this, index, v, s)) return;
        throw CompileError(s, "'" + typeName(obj) + "' object does not support item assignment");
    }
    if (obj.is(ValueKind::List) && index.isIntLike()) {
        auto& items = obj.mutableItems();
        items[static_cast<size_t>(
            normIndex(index, static_cast<int64_t>(items.size()), "list", s))] = v;
        return;
    }
    if (obj.is(ValueKind::Dict)) {
        if (index.is(ValueKind::List) || index.is(ValueKind::Dict))
            throw CompileError(s, "unhashable type: '" + typeName(index) + "'");
        chargeItems(s, obj.dictObj().entries.size());  // a linear search
        obj.dictObj().set(index, v);
        return;
    }
    throw CompileError(s, "'" + typeName(obj) + "' object does not support item assignment");
}

}  // namespace ts::fe
