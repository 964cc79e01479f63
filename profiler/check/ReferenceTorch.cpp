// The function table of ref_program (ReferenceTorch.h), its lookup from torch modules and tensor
// methods, the argument helpers, and the math half of the vocabulary: elementwise functions,
// reductions, softmax, normalisations, matmul/einsum and scaled dot-product attention.
#include "profiler/check/ReferenceTorch.h"

#include <cmath>
#include <limits>

namespace ts::rt {

using fe::CallArgs;
using fe::Interp;
using fe::Value;
using fe::ValueKind;
using ir::DType;

// ---- argument helpers -----------------------------------------------------------------------

RefArray argArray(const CallArgs::Bound& b, size_t i, const std::string& callee) {
    return toArray(b[i], b.spans[i], callee + "() argument");
}

int64_t argInt(const Value& v, Span s, const std::string& what) {
    if (v.isIntLike()) return v.asInt();
    if (auto t = v.extAs<RefTensor>();
        t && t->array().numel() == 1 && !ir::isFloat(t->array().dtype))
        return static_cast<int64_t>(t->array().item());
    throw CompileError(s, "ref_program: " + what + " must be an int, got " + fe::typeName(v));
}

double argNum(const Value& v, Span s, const std::string& what) {
    if (v.isNumber()) return v.asFloat();
    if (auto t = v.extAs<RefTensor>(); t && t->array().numel() == 1) return t->array().item();
    throw CompileError(s, "ref_program: " + what + " must be a number, got " + fe::typeName(v));
}

bool argBool(Interp& in, const Value& v, Span s) { return in.truthy(v, s); }

std::optional<DType> argDType(const Value& v, Span s) {
    if (v.isNone()) return std::nullopt;
    if (auto t = fe::asDType(v)) return t;
    // Python's types as torch takes them: dtype=bool -> torch.bool, int -> int64, float ->
    // float32 (torch's default dtype).
    if (v.is(ValueKind::Builtin)) {
        const std::string& n = v.builtinObj().name;
        if (n == "bool") return DType::Bool;
        if (n == "int") return DType::Int64;
        if (n == "float") return DType::Float32;
    }
    throw CompileError(
        s, "ref_program: expected a dtype (torch.float16, \"float32\", ...), got " + fe::repr(v));
}

std::vector<int64_t> argDims(const Value& v, Span s) {
    if (v.isNone()) return {};
    if (v.isSequence()) {
        std::vector<int64_t> d;
        for (const Value& x : v.items()) d.push_back(argInt(x, s, "dim"));
        return d;
    }
    return {argInt(v, s, "dim")};
}

Shape argShapeValue(const Value& v, Span s) {
    if (v.isSequence()) {
        Shape out;
        for (const Value& x : v.items()) out.push_back(argInt(x, s, "size"));
        return out;
    }
    return {argInt(v, s, "size")};
}

Shape argShape(const CallArgs& a, size_t first) {
    if (a.pos.size() == first + 1 && a.pos[first].isSequence())
        return argShapeValue(a.pos[first], a.argSpan(first));
    Shape out;
    for (size_t i = first; i < a.pos.size(); ++i)
        out.push_back(argInt(a.pos[i], a.argSpan(i), "size"));
    return out;
}

namespace {

RefArray in0(const CallArgs::Bound& b, const CallArgs& a) { return argArray(b, 0, a.callee); }

std::optional<int64_t> optInt(const CallArgs::Bound& b, size_t i, const char* what) {
    if (!b.has(i) || b[i].isNone()) return std::nullopt;
    return argInt(b[i], b.spans[i], what);
}

bool flag(Interp& in, const CallArgs::Bound& b, size_t i, bool dflt = false) {
    return b.has(i) ? argBool(in, b[i], b.spans[i]) : dflt;
}

RefArray withDType(RefArray r, const CallArgs::Bound& b, size_t i) {
    if (b.has(i))
        if (auto t = argDType(b[i], b.spans[i])) return cast(r, *t);
    return r;
}

// ---- elementwise ----

template <UnOp op>
Value unaryFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input"}, 1);
    return wrap(unary(op, in0(b, a)));
}

template <BinOp op>
Value binaryFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "other"}, 2);
    return wrap(binary(op, in0(b, a), argArray(b, 1, a.callee)));
}

template <BinOp op>
Value logicalFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "other"}, 2);
    return wrap(
        binary(op, cast(in0(b, a), DType::Bool), cast(argArray(b, 1, a.callee), DType::Bool)));
}

template <BinOp op>
Value addSubFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "other", "alpha"}, 2);
    RefArray other = argArray(b, 1, a.callee);
    if (b.has(2)) other = binary(BinOp::Mul, other, toArray(b[2], b.spans[2], "alpha"));
    return wrap(binary(op, in0(b, a), other));
}

Value divFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "other", "rounding_mode"}, 2);
    RefArray q = binary(BinOp::Div, in0(b, a), argArray(b, 1, a.callee));
    if (b.has(2) && !b[2].isNone()) {
        std::string mode = b[2].is(ValueKind::Str) ? b[2].asStr() : "";
        if (mode != "trunc" && mode != "floor")
            throw CompileError(b.spans[2],
                               "ref_program: rounding_mode must be None, 'trunc' or 'floor'");
        q = unary(mode == "trunc" ? UnOp::Trunc : UnOp::Floor, q);
        q.dtype = promote(in0(b, a), argArray(b, 1, a.callee));
    }
    return wrap(q);
}

Value powFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "exponent"}, 2);
    return wrap(binary(BinOp::Pow, in0(b, a), argArray(b, 1, a.callee)));
}

Value geluFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "approximate"}, 1);
    std::string mode = b.has(1) && b[1].is(ValueKind::Str) ? b[1].asStr() : "none";
    if (mode != "none" && mode != "tanh")
        throw CompileError(b.spans[1], "ref_program: gelu approximate must be 'none' or 'tanh'");
    return wrap(unary(mode == "tanh" ? UnOp::GeluTanh : UnOp::GeluErf, in0(b, a)));
}

Value softplusFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "beta", "threshold"}, 1);
    double beta = b.has(1) ? argNum(b[1], b.spans[1], "beta") : 1.0;
    double thr = b.has(2) ? argNum(b[2], b.spans[2], "threshold") : 20.0;
    RefArray x = in0(b, a), r = x;
    r.data = std::make_shared<std::vector<double>>(*x.data);
    for (double& v : *r.data) v = v * beta > thr ? v : std::log1p(std::exp(v * beta)) / beta;
    return wrap(ir::isFloat(r.dtype) ? r : cast(r, DType::Float32));
}

Value leakyReluFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "negative_slope", "inplace"}, 1);
    double slope = b.has(1) ? argNum(b[1], b.spans[1], "negative_slope") : 0.01;
    RefArray x = in0(b, a);
    RefArray pos = binary(BinOp::Gt, x, scalarArray(DType::Float64, 0.0, true));
    return wrap(where(pos, x, binary(BinOp::Mul, x, scalarArray(DType::Float64, slope, true))));
}

Value whereFn(Interp&, CallArgs& a) {
    auto b = a.bind({"condition", "input", "other"}, 3);
    return wrap(
        where(argArray(b, 0, a.callee), argArray(b, 1, a.callee), argArray(b, 2, a.callee)));
}

/// x.where(condition, other) == torch.where(condition, x, other).
Value whereMethod(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "condition", "other"}, 3);
    return wrap(where(argArray(b, 1, a.callee), in0(b, a), argArray(b, 2, a.callee)));
}

Value clampFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "min", "max"}, 1);
    RefArray x = in0(b, a);
    for (size_t i : {1u, 2u}) {
        if (!b.has(i) || b[i].isNone()) continue;
        if (b[i].isNumber()) {
            double v = b[i].asFloat();
            x = i == 1 ? clamp(x, v, std::nullopt) : clamp(x, std::nullopt, v);
        } else {
            x = binary(i == 1 ? BinOp::Maximum : BinOp::Minimum, x, argArray(b, i, a.callee));
        }
    }
    return wrap(x);
}

Value maskedFillFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "mask", "value"}, 3);
    RefArray x = in0(b, a), mask = argArray(b, 1, a.callee);
    if (mask.dtype != DType::Bool)
        throw CompileError(b.spans[1],
                           "ref_program: masked_fill expects a bool mask, got " +
                               std::string(ir::dtypeName(mask.dtype)),
                           "compare to build one, e.g. mask = scores > 0 or torch.tril(...) == 0");
    RefArray v = argArray(b, 2, a.callee);
    if (v.numel() != 1)
        throw CompileError(b.spans[2],
                           "ref_program: masked_fill value must be a number or a 0-d tensor");
    RefArray r = where(mask, v, x);
    if (r.shape != x.shape)
        throw RefError("mask of shape " + shapeText(mask.shape) +
                       " does not broadcast to the input " + shapeText(x.shape));
    return wrap(cast(r, x.dtype));
}

// ---- reductions ----

template <ReduceOp op>
Value reduceFn(Interp& in, CallArgs& a) {
    auto b = a.bind({"input", "dim", "keepdim", "dtype"}, 1);
    RefArray x = withDType(in0(b, a), b, 3);
    return wrap(reduce(op, x, b.has(1) ? argDims(b[1], b.spans[1]) : std::vector<int64_t>{},
                       flag(in, b, 2)));
}

template <ReduceOp op>
Value varFn(Interp& in, CallArgs& a) {
    auto b = a.bind({"input", "dim", "unbiased", "keepdim", "correction"}, 1);
    int correction = 1;
    if (b.has(2) && !b[2].isNone()) correction = argBool(in, b[2], b.spans[2]) ? 1 : 0;
    if (b.has(4) && !b[4].isNone())
        correction = static_cast<int>(argInt(b[4], b.spans[4], "correction"));
    return wrap(reduce(op, in0(b, a), b.has(1) ? argDims(b[1], b.spans[1]) : std::vector<int64_t>{},
                       flag(in, b, 3), correction));
}

/// torch.max / torch.min: full reduction, (values, indices) along a dim, or elementwise with a
/// second tensor.
template <bool isMax>
Value maxMinFn(Interp& in, CallArgs& a) {
    auto b = a.bind({"input", "dim", "keepdim", "other"}, 1);
    RefArray x = in0(b, a);
    if (b.has(3) || (b.has(1) && b[1].extAs<RefTensor>()))
        return wrap(binary(isMax ? BinOp::Maximum : BinOp::Minimum, x,
                           argArray(b, b.has(3) ? 3 : 1, a.callee)));
    if (!b.has(1) || b[1].isNone())
        return wrap(reduce(isMax ? ReduceOp::Max : ReduceOp::Min, x, {}, false));
    auto [v, i] = argReduce(x, argInt(b[1], b.spans[1], "dim"), flag(in, b, 2), isMax);
    return Value::ext(std::make_shared<RefNamedTuple>(
        isMax ? "torch.return_types.max" : "torch.return_types.min",
        std::vector<std::string>{"values", "indices"}, std::vector<Value>{wrap(v), wrap(i)}));
}

template <bool isMax>
Value argMaxMinFn(Interp& in, CallArgs& a) {
    auto b = a.bind({"input", "dim", "keepdim"}, 1);
    RefArray x = in0(b, a);
    auto dim = optInt(b, 1, "dim");
    if (!dim) return wrap(reshape(argReduce(reshape(x, {x.numel()}), 0, false, isMax).second, {}));
    return wrap(argReduce(x, *dim, flag(in, b, 2), isMax).second);
}

/// Implicit softmax dim of old torch (dim=None): 0 for 0/1/3-D inputs, else 1.
int64_t softmaxDim(const CallArgs::Bound& b, const RefArray& x) {
    if (b.has(1) && !b[1].isNone()) return argInt(b[1], b.spans[1], "dim");
    return (x.rank() == 0 || x.rank() == 1 || x.rank() == 3) ? 0 : 1;
}

template <bool log>
Value softmaxFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim", "_stacklevel", "dtype"}, 1);
    RefArray x = withDType(in0(b, a), b, 3);
    return wrap(softmax(x, softmaxDim(b, x), log));
}

Value logsumexpFn(Interp& in, CallArgs& a) {
    auto b = a.bind({"input", "dim", "keepdim"}, 2);
    return wrap(logsumexp(in0(b, a), argInt(b[1], b.spans[1], "dim"), flag(in, b, 2)));
}

template <bool product>
Value cumFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim", "dtype"}, 2);
    return wrap(cumulative(withDType(in0(b, a), b, 2), argInt(b[1], b.spans[1], "dim"), product));
}

RefArray pnorm(const RefArray& x, const Value& p, Span ps, const std::vector<int64_t>& dims,
               bool keepdim) {
    double order = 2.0;
    if (p.is(ValueKind::Str)) {
        if (p.asStr() != "fro")
            throw CompileError(ps, "ref_program: norm p='" + p.asStr() +
                                       "' is not supported (use 'fro' or a number)");
    } else if (!p.isNone()) {
        order = argNum(p, ps, "p");
    }
    RefArray ax = unary(UnOp::Abs, x);
    if (std::isinf(order))
        return reduce(order > 0 ? ReduceOp::Max : ReduceOp::Min, ax, dims, keepdim);
    if (order == 1) return reduce(ReduceOp::Sum, ax, dims, keepdim);
    RefArray s =
        reduce(ReduceOp::Sum, binary(BinOp::Pow, ax, scalarArray(DType::Float64, order, true)),
               dims, keepdim);
    return binary(BinOp::Pow, s, scalarArray(DType::Float64, 1.0 / order, true));
}

Value normFn(Interp& in, CallArgs& a) {
    auto b = a.bind({"input", "p", "dim", "keepdim", "dtype"}, 1);
    RefArray x = withDType(in0(b, a), b, 4);
    return wrap(pnorm(x, b.get(1, Value::str("fro")), b.spans[1],
                      b.has(2) ? argDims(b[2], b.spans[2]) : std::vector<int64_t>{},
                      flag(in, b, 3)));
}

Value normalizeFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "p", "dim", "eps"}, 1);
    RefArray x = in0(b, a);
    int64_t dim = b.has(2) ? argInt(b[2], b.spans[2], "dim") : 1;
    double eps = b.has(3) ? argNum(b[3], b.spans[3], "eps") : 1e-12;
    RefArray n = pnorm(x, b.get(1, Value::real(2.0)), b.spans[1], {dim}, true);
    return wrap(binary(BinOp::Div, x, clamp(n, eps, std::nullopt)));
}

/// Dims covered by normalized_shape (the trailing ones), checked against the input.
std::vector<int64_t> trailingDims(const RefArray& x, const Value& shapeV, Span s) {
    Shape ns = argShapeValue(shapeV, s);
    if (static_cast<int64_t>(ns.size()) > x.rank() ||
        !std::equal(ns.begin(), ns.end(), x.shape.end() - static_cast<int64_t>(ns.size())))
        throw CompileError(s, "ref_program: normalized_shape " + shapeText(ns) +
                                  " does not match the end of the input shape " +
                                  shapeText(x.shape));
    std::vector<int64_t> dims;
    for (size_t i = 0; i < ns.size(); ++i)
        dims.push_back(x.rank() - static_cast<int64_t>(ns.size()) + static_cast<int64_t>(i));
    return dims;
}

RefArray affine(RefArray y, const CallArgs::Bound& b, size_t w, size_t bias,
                const std::string& callee) {
    if (b.has(w) && !b[w].isNone()) y = binary(BinOp::Mul, y, argArray(b, w, callee));
    if (bias < b.values.size() && b.has(bias) && !b[bias].isNone())
        y = binary(BinOp::Add, y, argArray(b, bias, callee));
    return y;
}

Value layerNormFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "normalized_shape", "weight", "bias", "eps"}, 2);
    RefArray x = in0(b, a);
    std::vector<int64_t> dims = trailingDims(x, b[1], b.spans[1]);
    double eps = b.has(4) ? argNum(b[4], b.spans[4], "eps") : 1e-5;
    RefArray mean = reduce(ReduceOp::Mean, x, dims, true),
             var = reduce(ReduceOp::Var, x, dims, true, 0);
    RefArray inv =
        unary(UnOp::Rsqrt, binary(BinOp::Add, var, scalarArray(DType::Float64, eps, true)));
    return wrap(affine(binary(BinOp::Mul, binary(BinOp::Sub, x, mean), inv), b, 2, 3, a.callee));
}

double machineEps(DType t) {
    switch (t) {
        case DType::Float16:
            return 0.0009765625;
        case DType::BFloat16:
            return 0.0078125;
        case DType::Float64:
            return std::numeric_limits<double>::epsilon();
        default:
            return std::numeric_limits<float>::epsilon();
    }
}

Value rmsNormFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "normalized_shape", "weight", "eps"}, 2);
    RefArray x = in0(b, a);
    std::vector<int64_t> dims = trailingDims(x, b[1], b.spans[1]);
    double eps = b.has(3) && !b[3].isNone() ? argNum(b[3], b.spans[3], "eps") : machineEps(x.dtype);
    RefArray ms = reduce(ReduceOp::Mean, binary(BinOp::Mul, x, x), dims, true);
    RefArray inv =
        unary(UnOp::Rsqrt, binary(BinOp::Add, ms, scalarArray(DType::Float64, eps, true)));
    return wrap(affine(binary(BinOp::Mul, x, inv), b, 2, 99, a.callee));
}

// ---- products ----

Value matmulFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "other"}, 2);
    return wrap(matmul(in0(b, a), argArray(b, 1, a.callee)));
}

// torch._scaled_mm(a, b, scale_a, scale_b, bias, scale_result, out_dtype, use_fast_accum): the
// FP8 GEMM with dequantisation scales, (a @ b) * scale_a * scale_b (+ bias); scales broadcast
// as torch documents them (per tensor (1,), per row (M, 1), per column (1, N)). Exact here:
// out_dtype and fast accumulation only change the rounding the tolerances absorb.
Value scaledMmFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "mat2", "scale_a", "scale_b", "bias", "scale_result", "out_dtype",
                     "use_fast_accum"},
                    4);
    RefArray y = matmul(in0(b, a), argArray(b, 1, a.callee));
    y = binary(BinOp::Mul, y, argArray(b, 2, a.callee));
    y = binary(BinOp::Mul, y, argArray(b, 3, a.callee));
    if (b.has(4) && !b[4].isNone()) y = binary(BinOp::Add, y, argArray(b, 4, a.callee));
    return wrap(y);
}

Value linearFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "weight", "bias"}, 2);
    RefArray y = matmul(in0(b, a), transpose(argArray(b, 1, a.callee), -2, -1));
    if (b.has(2) && !b[2].isNone()) y = binary(BinOp::Add, y, argArray(b, 2, a.callee));
    return wrap(y);
}

Value addmmFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "mat1", "mat2", "beta", "alpha"}, 3);
    RefArray prod = matmul(argArray(b, 1, a.callee), argArray(b, 2, a.callee));
    if (b.has(4)) prod = binary(BinOp::Mul, prod, toArray(b[4], b.spans[4], "alpha"));
    RefArray base = in0(b, a);
    if (b.has(3)) base = binary(BinOp::Mul, base, toArray(b[3], b.spans[3], "beta"));
    return wrap(binary(BinOp::Add, base, prod));
}

Value outerFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "vec2"}, 2);
    RefArray x = in0(b, a), y = argArray(b, 1, a.callee);
    return wrap(matmul(reshape(x, {x.numel(), 1}), reshape(y, {1, y.numel()})));
}

Value einsumFn(Interp&, CallArgs& a) {
    if (a.pos.empty() || !a.pos[0].is(ValueKind::Str))
        throw CompileError(a.span,
                           "ref_program: torch.einsum expects an equation string first, e.g. "
                           "einsum(\"ij,jk->ik\", a, b)");
    std::vector<RefArray> ops;
    if (a.pos.size() == 2 && a.pos[1].isSequence()) {
        for (const Value& v : a.pos[1].items())
            ops.push_back(toArray(v, a.argSpan(1), "einsum operand"));
    } else {
        for (size_t i = 1; i < a.pos.size(); ++i)
            ops.push_back(toArray(a.pos[i], a.argSpan(i), "einsum operand"));
    }
    return wrap(einsum(a.pos[0].asStr(), ops));
}

Value sdpaFn(Interp& in, CallArgs& a) {
    auto b = a.bind(
        {"query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa"}, 3);
    if (b.has(4) && argNum(b[4], b.spans[4], "dropout_p") != 0.0)
        throw CompileError(b.spans[4],
                           "ref_program: dropout is random; a reference needs dropout_p=0.0");
    std::optional<RefArray> mask;
    if (b.has(3) && !b[3].isNone()) mask = argArray(b, 3, a.callee);
    std::optional<double> scale;
    if (b.has(6) && !b[6].isNone()) scale = argNum(b[6], b.spans[6], "scale");
    return wrap(attention(in0(b, a), argArray(b, 1, a.callee), argArray(b, 2, a.callee),
                          mask ? &*mask : nullptr, flag(in, b, 5), scale, flag(in, b, 7)));
}

}  // namespace

void addMathFunctions(RefTable& t) {
    constexpr uint8_t MT = kMethod | kTorch, MTF = kMethod | kTorch | kFunctional;
    t["exp"] = {unaryFn<UnOp::Exp>, MT};
    t["exp2"] = {unaryFn<UnOp::Exp2>, MT};
    t["expm1"] = {unaryFn<UnOp::Expm1>, MT};
    t["log"] = {unaryFn<UnOp::Log>, MT};
    t["log2"] = {unaryFn<UnOp::Log2>, MT};
    t["log10"] = {unaryFn<UnOp::Log10>, MT};
    t["log1p"] = {unaryFn<UnOp::Log1p>, MT};
    t["sqrt"] = {unaryFn<UnOp::Sqrt>, MT};
    t["rsqrt"] = {unaryFn<UnOp::Rsqrt>, MT};
    t["sigmoid"] = {unaryFn<UnOp::Sigmoid>, MTF};
    t["expit"] = {unaryFn<UnOp::Sigmoid>, kTorch};
    t["tanh"] = {unaryFn<UnOp::Tanh>, MTF};
    t["sin"] = {unaryFn<UnOp::Sin>, MT};
    t["cos"] = {unaryFn<UnOp::Cos>, MT};
    t["erf"] = {unaryFn<UnOp::Erf>, MT};
    t["tan"] = {unaryFn<UnOp::Tan>, MT};
    t["asin"] = t["arcsin"] = {unaryFn<UnOp::Asin>, MT};
    t["acos"] = t["arccos"] = {unaryFn<UnOp::Acos>, MT};
    t["atan"] = t["arctan"] = {unaryFn<UnOp::Atan>, MT};
    t["sinh"] = {unaryFn<UnOp::Sinh>, MT};
    t["cosh"] = {unaryFn<UnOp::Cosh>, MT};
    t["asinh"] = t["arcsinh"] = {unaryFn<UnOp::Asinh>, MT};
    t["acosh"] = t["arccosh"] = {unaryFn<UnOp::Acosh>, MT};
    t["atanh"] = t["arctanh"] = {unaryFn<UnOp::Atanh>, MT};
    t["relu"] = {unaryFn<UnOp::Relu>, MTF};
    t["silu"] = {unaryFn<UnOp::Silu>, kFunctional};
    t["gelu"] = {geluFn, kFunctional};
    t["softplus"] = {softplusFn, kFunctional};
    t["leaky_relu"] = {leakyReluFn, kFunctional};
    t["abs"] = t["absolute"] = {unaryFn<UnOp::Abs>, MT};
    t["neg"] = t["negative"] = {unaryFn<UnOp::Neg>, MT};
    t["floor"] = {unaryFn<UnOp::Floor>, MT};
    t["ceil"] = {unaryFn<UnOp::Ceil>, MT};
    t["round"] = {unaryFn<UnOp::Round>, MT};
    t["trunc"] = {unaryFn<UnOp::Trunc>, MT};
    t["sign"] = {unaryFn<UnOp::Sign>, MT};
    t["reciprocal"] = {unaryFn<UnOp::Reciprocal>, MT};
    t["square"] = {unaryFn<UnOp::Square>, MT};
    t["logical_not"] = {unaryFn<UnOp::LogicalNot>, MT};
    t["bitwise_not"] = {unaryFn<UnOp::BitNot>, MT};
    t["isnan"] = {unaryFn<UnOp::IsNan>, MT};
    t["isinf"] = {unaryFn<UnOp::IsInf>, MT};
    t["isfinite"] = {unaryFn<UnOp::IsFinite>, MT};

    t["add"] = {addSubFn<BinOp::Add>, MT};
    t["sub"] = t["subtract"] = {addSubFn<BinOp::Sub>, MT};
    t["mul"] = t["multiply"] = {binaryFn<BinOp::Mul>, MT};
    t["div"] = t["divide"] = {divFn, MT};
    t["true_divide"] = {binaryFn<BinOp::Div>, MT};
    t["floor_divide"] = {binaryFn<BinOp::FloorDiv>, MT};
    t["remainder"] = {binaryFn<BinOp::Mod>, MT};
    t["pow"] = {powFn, MT};
    t["maximum"] = {binaryFn<BinOp::Maximum>, MT};
    t["minimum"] = {binaryFn<BinOp::Minimum>, MT};
    t["fmax"] = {binaryFn<BinOp::FMax>, MT};
    t["fmin"] = {binaryFn<BinOp::FMin>, MT};
    t["atan2"] = {binaryFn<BinOp::Atan2>, MT};
    t["fmod"] = {binaryFn<BinOp::Fmod>, MT};
    t["hypot"] = {binaryFn<BinOp::Hypot>, MT};
    t["copysign"] = {binaryFn<BinOp::Copysign>, MT};
    t["eq"] = {binaryFn<BinOp::Eq>, MT};
    t["ne"] = {binaryFn<BinOp::Ne>, MT};
    t["lt"] = {binaryFn<BinOp::Lt>, MT};
    t["le"] = {binaryFn<BinOp::Le>, MT};
    t["gt"] = {binaryFn<BinOp::Gt>, MT};
    t["ge"] = {binaryFn<BinOp::Ge>, MT};
    t["logical_and"] = {logicalFn<BinOp::And>, MT};
    t["logical_or"] = {logicalFn<BinOp::Or>, MT};
    t["logical_xor"] = {logicalFn<BinOp::Xor>, MT};
    t["bitwise_and"] = {binaryFn<BinOp::And>, MT};
    t["bitwise_or"] = {binaryFn<BinOp::Or>, MT};
    t["bitwise_xor"] = {binaryFn<BinOp::Xor>, MT};
    t["where"] = {whereFn, kTorch};
    t["Tensor.where"] = {whereMethod, kMethod};
    t["clamp"] = t["clip"] = {clampFn, MT};
    t["masked_fill"] = {maskedFillFn, MT};

    t["sum"] = {reduceFn<ReduceOp::Sum>, MT};
    t["mean"] = {reduceFn<ReduceOp::Mean>, MT};
    t["prod"] = {reduceFn<ReduceOp::Prod>, MT};
    t["amax"] = {reduceFn<ReduceOp::Max>, MT};
    t["amin"] = {reduceFn<ReduceOp::Min>, MT};
    t["any"] = {reduceFn<ReduceOp::Any>, MT};
    t["all"] = {reduceFn<ReduceOp::All>, MT};
    t["var"] = {varFn<ReduceOp::Var>, MT};
    t["std"] = {varFn<ReduceOp::Std>, MT};
    t["max"] = {maxMinFn<true>, MT};
    t["min"] = {maxMinFn<false>, MT};
    t["argmax"] = {argMaxMinFn<true>, MT};
    t["argmin"] = {argMaxMinFn<false>, MT};
    t["softmax"] = {softmaxFn<false>, MTF};
    t["log_softmax"] = {softmaxFn<true>, MTF};
    t["logsumexp"] = {logsumexpFn, MT};
    t["cumsum"] = {cumFn<false>, MT};
    t["cumprod"] = {cumFn<true>, MT};
    t["norm"] = {normFn, MT};
    t["normalize"] = {normalizeFn, kFunctional};
    t["layer_norm"] = {layerNormFn, kFunctional};
    t["rms_norm"] = {rmsNormFn, kFunctional};

    t["matmul"] = t["mm"] = t["bmm"] = {matmulFn, MT};
    t["dot"] = t["inner"] = {matmulFn, MT};
    t["outer"] = t["ger"] = {outerFn, MT};
    t["addmm"] = t["baddbmm"] = {addmmFn, MT};
    t["_scaled_mm"] = {scaledMmFn, kTorch};
    t["linear"] = {linearFn, kFunctional};
    t["einsum"] = {einsumFn, kTorch};
    t["scaled_dot_product_attention"] = {sdpaFn, kFunctional};
}

}  // namespace ts::rt
