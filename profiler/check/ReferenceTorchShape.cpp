// The shape half of the ref_program vocabulary (ReferenceTorch.h): reshaping and views,
// permutes, broadcasting, concatenation and splitting, triangular masks, tensor creation
// (zeros/ones/full/arange/eye/tensor and the *_like / new_* forms), dtype conversions (.float(),
// .half(), .to(...)), size queries and the explicit in-place setters (fill_, zero_, copy_).
#include <cmath>
#include <cstring>

#include "compiler/support/HostTensor.h"

#include "profiler/check/ReferenceTorch.h"

namespace ts::rt {

using fe::CallArgs;
using fe::Interp;
using fe::Value;
using fe::ValueKind;
using ir::DType;

namespace {

RefArray self0(const CallArgs& a) {
    return toArray(a.pos.empty() ? Value::none() : a.pos[0], a.argSpan(0), a.callee + "() input");
}

RefArray in0(const CallArgs::Bound& b, const CallArgs& a) { return argArray(b, 0, a.callee); }

Value tupleOf(const std::vector<RefArray>& parts) {
    std::vector<Value> items;
    for (const RefArray& p : parts) items.push_back(wrap(p));
    return Value::tuple(std::move(items));
}

/// The dtype of a creation call: its `dtype=` keyword or `dflt`. Device, layout and autograd
/// keywords are accepted and ignored; any other keyword is an error naming the call.
DType creationKw(const CallArgs& a, DType dflt, std::initializer_list<const char*> extra = {}) {
    DType t = dflt;
    for (size_t k = 0; k < a.kw.size(); ++k) {
        const std::string& n = a.kw[k].first;
        Span s = k < a.kwSpans.size() ? a.kwSpans[k] : a.span;
        if (n == "dtype") {
            if (auto d = argDType(a.kw[k].second, s)) t = *d;
        } else if (n != "device" && n != "requires_grad" && n != "layout" && n != "pin_memory" &&
                   n != "memory_format" && n != "out" &&
                   std::find_if(extra.begin(), extra.end(),
                                [&](const char* e) { return n == e; }) == extra.end()) {
            throw CompileError(s, a.callee + "() got an unexpected keyword argument '" + n + "'");
        }
    }
    return t;
}

const Value* kwArg(const CallArgs& a, const char* name) { return a.keyword(name); }

/// Default dtype of a fill value: bool -> Bool, int -> Int64, float -> Float32.
DType valueDType(const Value& v) {
    if (v.is(ValueKind::Bool)) return DType::Bool;
    if (v.isIntLike()) return DType::Int64;
    if (auto t = v.extAs<RefTensor>()) return t->array().dtype;
    return DType::Float32;
}

// ---- layout ----

Value reshapeFn(Interp&, CallArgs& a) {
    RefArray x = self0(a);
    // Tensor.view(dtype=torch.float32), the keyword form TileLang's view tests use.
    const Value* dtypeKw = a.pos.size() == 1 ? kwArg(a, "dtype") : nullptr;
    if ((a.pos.size() == 2 && a.pos[1].is(ValueKind::DType)) || (dtypeKw && dtypeKw->is(ValueKind::DType))) {
        const Value& dv = dtypeKw ? *dtypeKw : a.pos[1];
        const Span dspan = dtypeKw ? a.span : a.argSpan(1);
        // Tensor.view(dtype): the bits read as the other dtype (torch.uint16 -> torch.bfloat16 in
        // TileLang's dequantize references). Between widths, as torch does for a contiguous
        // tensor: the last dimension scales by the width ratio, bytes little-endian (float16 ->
        // uint8 gives each element's low byte first; TileLang's view tests check a shared view so).
        DType to = dv.asDType();
        const int fb = ir::dtypeBits(x.dtype), tb = ir::dtypeBits(to);
        const std::string what = "ref_program: " + a.callee + "(dtype) " + std::string(ir::dtypeName(x.dtype)) + " -> " +
                                 std::string(ir::dtypeName(to));
        if (fb < 8 || tb < 8) throw CompileError(dspan, what + ": sub-byte dtypes are not supported by the reference evaluator");
        if (fb == tb) {
            std::vector<double> out(static_cast<size_t>(x.numel()));
            for (size_t i = 0; i < out.size(); ++i) out[i] = elementValue(to, elementBits(x.dtype, x.ptr()[i]));
            return wrap(makeArray(to, x.shape, std::move(out)));
        }
        if (x.shape.empty() || (x.shape.back() * fb) % tb)
            throw CompileError(dspan, what + ": the last dimension (" + (x.shape.empty() ? std::string("none: a 0-d tensor") : std::to_string(x.shape.back())) +
                                                 " elements) is not a whole number of " + std::string(ir::dtypeName(to)) + " elements",
                               "view a tensor whose last dimension holds a multiple of the new element size in bytes");
        const int fB = fb / 8, tB = tb / 8;
        std::vector<uint8_t> bytes(static_cast<size_t>(x.numel()) * size_t(fB));
        for (int64_t i = 0; i < x.numel(); ++i) {
            const uint64_t u = elementBits(x.dtype, x.ptr()[i]);
            for (int k = 0; k < fB; ++k) bytes[size_t(i) * size_t(fB) + size_t(k)] = uint8_t(u >> (8 * k));
        }
        std::vector<double> out(bytes.size() / size_t(tB));
        for (size_t i = 0; i < out.size(); ++i) {
            uint64_t u = 0;
            for (int k = 0; k < tB; ++k) u |= uint64_t(bytes[i * size_t(tB) + size_t(k)]) << (8 * k);
            out[i] = elementValue(to, u);
        }
        std::vector<int64_t> shape = x.shape;
        shape.back() = shape.back() * fb / tb;
        return wrap(makeArray(to, shape, std::move(out)));
    }
    const Value* kw = kwArg(a, "shape");
    return wrap(reshape(x, kw ? argShapeValue(*kw, a.span) : argShape(a, 1)));
}

Value viewAsFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "other"}, 2);
    return wrap(reshape(in0(b, a), argArray(b, 1, a.callee).shape));
}

Value expandFn(Interp&, CallArgs& a) {
    const Value* kw = kwArg(a, "size");
    return wrap(expand(self0(a), kw ? argShapeValue(*kw, a.span) : argShape(a, 1)));
}

Value expandAsFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "other"}, 2);
    return wrap(expand(in0(b, a), argArray(b, 1, a.callee).shape));
}

Value broadcastToFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "size"}, 2);
    return wrap(expand(in0(b, a), argShapeValue(b[1], b.spans[1])));
}

Value permuteFn(Interp&, CallArgs& a) {
    const Value* kw = kwArg(a, "dims");
    return wrap(permute(self0(a), kw ? argShapeValue(*kw, a.span) : argShape(a, 1)));
}

Value transposeFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim0", "dim1"}, 3);
    return wrap(
        transpose(in0(b, a), argInt(b[1], b.spans[1], "dim0"), argInt(b[2], b.spans[2], "dim1")));
}

Value tFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input"}, 1);
    RefArray x = in0(b, a);
    if (x.rank() > 2)
        throw RefError("t() expects a tensor with at most 2 dims, got " + shapeText(x.shape) +
                       " (use transpose or mT)");
    return wrap(x.rank() == 2 ? transpose(x, 0, 1) : x);
}

Value unsqueezeFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim"}, 2);
    return wrap(unsqueeze(in0(b, a), argInt(b[1], b.spans[1], "dim")));
}

Value squeezeFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim"}, 1);
    RefArray x = in0(b, a);
    if (!b.has(1) || b[1].isNone()) return wrap(squeeze(x, std::nullopt));
    std::vector<int64_t> dims = argDims(b[1], b.spans[1]);
    for (int64_t& d : dims) d = normDim(d, x.rank());
    std::sort(dims.rbegin(), dims.rend());
    for (int64_t d : dims) x = squeeze(x, d);
    return wrap(x);
}

Value flattenFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "start_dim", "end_dim"}, 1);
    int64_t s = b.has(1) ? argInt(b[1], b.spans[1], "start_dim") : 0,
            e = b.has(2) ? argInt(b[2], b.spans[2], "end_dim") : -1;
    return wrap(flatten(in0(b, a), s, e));
}

/// contiguous, clone, detach, cpu, cuda, requires_grad_, pin_memory: the same values.
Value identityFn(Interp&, CallArgs& a) { return wrap(self0(a)); }

Value repeatFn(Interp&, CallArgs& a) { return wrap(repeatTiles(self0(a), argShape(a, 1))); }

Value tileFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dims"}, 2);
    RefArray x = in0(b, a);
    Shape reps = argShapeValue(b[1], b.spans[1]);
    while (static_cast<int64_t>(reps.size()) < x.rank()) reps.insert(reps.begin(), 1);
    return wrap(repeatTiles(x, reps));
}

Value repeatInterleaveFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "repeats", "dim", "output_size"}, 2);
    RefArray x = in0(b, a);
    if (b[1].extAs<RefTensor>() && b[1].extAs<RefTensor>()->array().numel() != 1)
        throw CompileError(
            b.spans[1],
            "ref_program: repeat_interleave with a tensor of repeat counts is not supported");
    int64_t r = argInt(b[1], b.spans[1], "repeats");
    if (!b.has(2) || b[2].isNone()) return wrap(repeatInterleave(reshape(x, {x.numel()}), r, 0));
    return wrap(repeatInterleave(x, r, argInt(b[2], b.spans[2], "dim")));
}

std::vector<RefArray> tensorList(const Value& v, Span s, const std::string& callee) {
    if (!v.isSequence())
        throw CompileError(s, "ref_program: " + callee +
                                  "() expects a list or tuple of tensors, got " + fe::typeName(v));
    std::vector<RefArray> out;
    for (const Value& x : v.items()) out.push_back(toArray(x, s, callee + "() element"));
    return out;
}

Value catFn(Interp&, CallArgs& a) {
    auto b = a.bind({"tensors", "dim"}, 1);
    return wrap(concat(tensorList(b[0], b.spans[0], a.callee),
                       b.has(1) ? argInt(b[1], b.spans[1], "dim") : 0));
}

Value stackFn(Interp&, CallArgs& a) {
    auto b = a.bind({"tensors", "dim"}, 1);
    return wrap(stack(tensorList(b[0], b.spans[0], a.callee),
                      b.has(1) ? argInt(b[1], b.spans[1], "dim") : 0));
}

Value narrowFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim", "start", "length"}, 4);
    return wrap(narrow(in0(b, a), argInt(b[1], b.spans[1], "dim"),
                       argInt(b[2], b.spans[2], "start"), argInt(b[3], b.spans[3], "length")));
}

Value flipFn(Interp&, CallArgs& a) {
    RefArray x = self0(a);
    const Value* kw = kwArg(a, "dims");
    return wrap(flip(x, kw ? argShapeValue(*kw, a.span) : argShape(a, 1)));
}

/// Splits along dim into pieces of the given sizes.
std::vector<RefArray> splitSizes(const RefArray& x, const Shape& sizes, int64_t dim) {
    std::vector<RefArray> out;
    int64_t start = 0;
    for (int64_t s : sizes) {
        out.push_back(narrow(x, dim, start, s));
        start += s;
    }
    return out;
}

Value chunkFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "chunks", "dim"}, 2);
    RefArray x = in0(b, a);
    int64_t chunks = argInt(b[1], b.spans[1], "chunks"),
            dim = b.has(2) ? argInt(b[2], b.spans[2], "dim") : 0;
    if (chunks <= 0) throw CompileError(b.spans[1], "ref_program: chunks must be positive");
    int64_t len = x.shape[static_cast<size_t>(normDim(dim, x.rank()))],
            each = (len + chunks - 1) / chunks;
    Shape sizes;
    for (int64_t s = 0; s < len; s += each) sizes.push_back(std::min(each, len - s));
    return tupleOf(splitSizes(x, sizes, dim));
}

Value splitFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "split_size_or_sections", "dim"}, 2);
    RefArray x = in0(b, a);
    int64_t dim = b.has(2) ? argInt(b[2], b.spans[2], "dim") : 0;
    int64_t len = x.shape[static_cast<size_t>(normDim(dim, x.rank()))];
    Shape sizes;
    if (b[1].isSequence()) {
        sizes = argShapeValue(b[1], b.spans[1]);
    } else {
        int64_t each = argInt(b[1], b.spans[1], "split_size");
        if (each <= 0) throw CompileError(b.spans[1], "ref_program: split size must be positive");
        for (int64_t s = 0; s < len; s += each) sizes.push_back(std::min(each, len - s));
    }
    return tupleOf(splitSizes(x, sizes, dim));
}

Value unbindFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim"}, 1);
    RefArray x = in0(b, a);
    int64_t dim = normDim(b.has(1) ? argInt(b[1], b.spans[1], "dim") : 0, x.rank());
    std::vector<RefArray> parts;
    for (int64_t i = 0; i < x.shape[static_cast<size_t>(dim)]; ++i)
        parts.push_back(squeeze(narrow(x, dim, i, 1), dim));
    return tupleOf(parts);
}

template <bool lower>
Value triFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "diagonal"}, 1);
    return wrap(triangle(in0(b, a), b.has(1) ? argInt(b[1], b.spans[1], "diagonal") : 0, lower));
}

// ---- queries and conversions ----

Value sizeFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dim"}, 1);
    RefArray x = in0(b, a);
    if (b.has(1) && !b[1].isNone())
        return Value::integer(
            x.shape.empty()
                ? 1
                : x.shape[static_cast<size_t>(normDim(argInt(b[1], b.spans[1], "dim"), x.rank()))]);
    std::vector<Value> dims;
    for (int64_t e : x.shape) dims.push_back(Value::integer(e));
    return Value::tuple(std::move(dims));
}

Value dimFn(Interp&, CallArgs& a) { return Value::integer(self0(a).rank()); }
Value numelFn(Interp&, CallArgs& a) { return Value::integer(self0(a).numel()); }

Value scalarValue(double v, DType t) {
    if (t == DType::Bool) return Value::boolean(v != 0);
    if (!ir::isFloat(t) && std::isfinite(v)) return Value::integer(static_cast<int64_t>(v));
    return Value::real(v);
}

Value itemFn(Interp&, CallArgs& a) {
    RefArray x = self0(a);
    return scalarValue(x.item(), x.dtype);
}

Value tolistRec(const RefArray& x, size_t dim, int64_t& pos) {
    if (dim == x.shape.size()) return scalarValue((*x.data)[static_cast<size_t>(pos++)], x.dtype);
    std::vector<Value> items;
    for (int64_t i = 0; i < x.shape[dim]; ++i) items.push_back(tolistRec(x, dim + 1, pos));
    return Value::list(std::move(items));
}

Value tolistFn(Interp&, CallArgs& a) {
    int64_t pos = 0;
    return tolistRec(self0(a), 0, pos);
}

template <DType t>
Value castFn(Interp&, CallArgs& a) {
    a.expectPositional(1, 1);
    return wrap(convert(self0(a), t));
}

Value toFn(Interp&, CallArgs& a) {
    RefArray x = self0(a);
    std::optional<DType> target;
    for (size_t i = 1; i < a.pos.size(); ++i) {
        const Value& v = a.pos[i];
        if (auto t = v.extAs<RefTensor>())
            target = t->array().dtype;
        else if (auto d = fe::asDType(v))
            target = d;
        else if (v.is(ValueKind::Str)) {
            // A device ("cuda", "cuda:0", "cpu"): the reference runs on the host either way.
            // Anything else torch rejects; so do we (a silent no-op let a wrong reference pass).
            const std::string& d = v.asStr();
            const bool device = d == "cpu" || d == "cuda" || d == "meta" || d.rfind("cuda:", 0) == 0;
            if (!device)
                throw CompileError(a.argSpan(i), "ref_program: Tensor.to(\"" + d + "\"): not a device or a dtype",
                                   "pass a dtype (torch.float16, ...) or a device (\"cuda\", \"cpu\")");
        } else if (!v.is(ValueKind::Bool))  // non_blocking
            throw CompileError(
                a.argSpan(i),
                "ref_program: Tensor.to() expects a dtype, a device or a tensor, got " +
                    fe::typeName(v));
    }
    if (const Value* d = a.keyword("dtype"))
        if (auto t = argDType(*d, a.span)) target = t;
    return wrap(target ? convert(x, *target) : x);
}

Value typeFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "dtype", "non_blocking"}, 1);
    RefArray x = in0(b, a);
    auto t = b.has(1) ? argDType(b[1], b.spans[1]) : std::nullopt;
    if (!t)
        throw CompileError(a.span,
                           "ref_program: Tensor.type() without a dtype (a type-name string) is not "
                           "supported; use .dtype");
    return wrap(convert(x, *t));
}

Value typeAsFn(Interp&, CallArgs& a) {
    auto b = a.bind({"input", "other"}, 2);
    return wrap(convert(in0(b, a), argArray(b, 1, a.callee).dtype));
}

RefTensor& mutableSelf(const CallArgs& a) {
    auto t = a.pos.empty() ? nullptr : a.pos[0].extAs<RefTensor>();
    if (!t) throw CompileError(a.span, "ref_program: " + a.callee + "() needs a tensor");
    return *t;
}

Value fillFn(Interp&, CallArgs& a) {
    RefTensor& t = mutableSelf(a);
    auto b = a.bind({"input", "value"}, 2);
    RefArray& x = t.array();
    x = cast(fullArray(x.dtype, x.shape, argNum(b[1], b.spans[1], "value")), x.dtype);
    return a.pos[0];
}

Value zeroFn(Interp&, CallArgs& a) {
    RefTensor& t = mutableSelf(a);
    a.expectPositional(1, 1);
    t.array() = fullArray(t.array().dtype, t.array().shape, 0.0);
    return a.pos[0];
}

Value copyFn(Interp&, CallArgs& a) {
    RefTensor& t = mutableSelf(a);
    auto b = a.bind({"input", "src", "non_blocking"}, 2);
    RefArray& x = t.array();
    x = cast(expand(argArray(b, 1, a.callee), x.shape), x.dtype);
    return a.pos[0];
}

// ---- creation ----

template <int fill>
Value constantFn(Interp&, CallArgs& a) {
    DType t = creationKw(a, DType::Float32);
    const Value* kw = kwArg(a, "size");
    return wrap(fullArray(t, kw ? argShapeValue(*kw, a.span) : argShape(a, 0), fill));
}

Value fullFn(Interp&, CallArgs& a) {
    if (a.pos.size() < 2)
        throw CompileError(a.span,
                           "ref_program: torch.full(size, fill_value) needs both arguments");
    DType t = creationKw(a, valueDType(a.pos[1]));
    return wrap(cast(fullArray(t, argShapeValue(a.pos[0], a.argSpan(0)),
                               argNum(a.pos[1], a.argSpan(1), "fill_value")),
                     t));
}

template <int fill>
Value likeFn(Interp&, CallArgs& a) {
    RefArray x =
        toArray(a.pos.empty() ? Value::none() : a.pos[0], a.argSpan(0), a.callee + "() input");
    if (a.pos.size() != 1)
        throw CompileError(a.span, a.callee + "() takes one positional argument");
    return wrap(fullArray(creationKw(a, x.dtype), x.shape, fill));
}

Value fullLikeFn(Interp&, CallArgs& a) {
    if (a.pos.size() != 2) throw CompileError(a.span, a.callee + "() takes (input, fill_value)");
    RefArray x = toArray(a.pos[0], a.argSpan(0), a.callee + "() input");
    DType t = creationKw(a, x.dtype);
    return wrap(cast(fullArray(t, x.shape, argNum(a.pos[1], a.argSpan(1), "fill_value")), t));
}

/// x.new_zeros(size) etc.: dtype defaults to x's.
template <int fill>
Value newConstantFn(Interp&, CallArgs& a) {
    RefArray x = self0(a);
    return wrap(fullArray(creationKw(a, x.dtype), argShape(a, 1), fill));
}

Value newFullFn(Interp&, CallArgs& a) {
    RefArray x = self0(a);
    if (a.pos.size() != 3) throw CompileError(a.span, a.callee + "() takes (size, fill_value)");
    DType t = creationKw(a, x.dtype);
    return wrap(cast(fullArray(t, argShapeValue(a.pos[1], a.argSpan(1)),
                               argNum(a.pos[2], a.argSpan(2), "fill_value")),
                     t));
}

Value arangeFn(Interp&, CallArgs& a) {
    if (a.pos.empty() || a.pos.size() > 3)
        throw CompileError(
            a.span, "ref_program: torch.arange takes (end), (start, end) or (start, end, step)");
    std::vector<double> v;
    bool allInt = true;
    for (size_t i = 0; i < a.pos.size(); ++i) {
        v.push_back(argNum(a.pos[i], a.argSpan(i), "arange bound"));
        allInt &= a.pos[i].isIntLike();
    }
    double start = v.size() > 1 ? v[0] : 0, end = v.size() > 1 ? v[1] : v[0],
           step = v.size() > 2 ? v[2] : 1;
    DType t = creationKw(a, allInt ? DType::Int64 : DType::Float32);
    return wrap(arangeArray(start, end, step, t));
}

Value linspaceFn(Interp&, CallArgs& a) {
    if (a.pos.size() != 3)
        throw CompileError(a.span, "ref_program: torch.linspace takes (start, end, steps)");
    double s = argNum(a.pos[0], a.argSpan(0), "start"), e = argNum(a.pos[1], a.argSpan(1), "end");
    int64_t n = argInt(a.pos[2], a.argSpan(2), "steps");
    std::vector<double> v(static_cast<size_t>(std::max<int64_t>(n, 0)));
    for (int64_t i = 0; i < n; ++i)
        v[static_cast<size_t>(i)] =
            n == 1 ? s : s + (e - s) * static_cast<double>(i) / static_cast<double>(n - 1);
    return wrap(makeArray(creationKw(a, DType::Float32), {n}, std::move(v)));
}

Value eyeFn(Interp&, CallArgs& a) {
    if (a.pos.empty() || a.pos.size() > 2)
        throw CompileError(a.span, "ref_program: torch.eye takes (n) or (n, m)");
    int64_t n = argInt(a.pos[0], a.argSpan(0), "n"),
            m = a.pos.size() > 1 ? argInt(a.pos[1], a.argSpan(1), "m") : n;
    return wrap(eyeArray(n, m, creationKw(a, DType::Float32)));
}

Value tensorFn(Interp&, CallArgs& a) {
    if (a.pos.size() != 1)
        throw CompileError(a.span, "ref_program: " + a.callee + "() takes one data argument");
    RefArray x = toArray(a.pos[0], a.argSpan(0), a.callee + "() data");
    if (x.weak) x = cast(x, valueDType(a.pos[0]));
    x.weak = false;
    DType t = creationKw(a, x.dtype);
    return wrap(cast(x, t));
}

/// x.new_tensor(data): data (a list, a range, a tensor) with x's dtype unless dtype= says.
Value newTensorFn(Interp& in, CallArgs& a) {
    RefArray self = self0(a);
    if (a.pos.size() != 2)
        throw CompileError(a.span, "ref_program: " + a.callee + "() takes one data argument");
    Value data = a.pos[1];
    if (data.is(ValueKind::Range)) data = Value::list(in.iterate(data, a.argSpan(1)));
    RefArray x = toArray(data, a.argSpan(1), a.callee + "() data");
    x.weak = false;
    return wrap(cast(x, creationKw(a, self.dtype)));
}

}  // namespace

void addShapeFunctions(RefTable& t) {
    constexpr uint8_t MT = kMethod | kTorch;
    t["reshape"] = {reshapeFn, MT};
    t["view"] = {reshapeFn, kMethod};
    t["view_as"] = t["reshape_as"] = {viewAsFn, kMethod};
    t["expand"] = {expandFn, kMethod};
    t["expand_as"] = {expandAsFn, kMethod};
    t["broadcast_to"] = {broadcastToFn, MT};
    t["permute"] = {permuteFn, MT};
    t["transpose"] = t["swapaxes"] = t["swapdims"] = {transposeFn, MT};
    t["t"] = {tFn, MT};
    t["unsqueeze"] = {unsqueezeFn, MT};
    t["squeeze"] = {squeezeFn, MT};
    t["flatten"] = {flattenFn, MT};
    for (const char* n : {"contiguous", "detach", "cpu", "cuda", "requires_grad_", "pin_memory"})
        t[n] = {identityFn, kMethod};
    t["clone"] = {identityFn, MT};
    t["repeat"] = {repeatFn, kMethod};
    t["tile"] = {tileFn, MT};
    t["repeat_interleave"] = {repeatInterleaveFn, MT};
    t["cat"] = t["concat"] = t["concatenate"] = {catFn, kTorch};
    t["stack"] = {stackFn, kTorch};
    t["narrow"] = {narrowFn, MT};
    t["flip"] = {flipFn, MT};
    t["chunk"] = {chunkFn, MT};
    t["split"] = {splitFn, MT};
    t["unbind"] = {unbindFn, MT};
    t["tril"] = {triFn<true>, MT};
    t["triu"] = {triFn<false>, MT};

    t["size"] = {sizeFn, kMethod};
    t["dim"] = t["ndimension"] = {dimFn, kMethod};
    t["numel"] = {numelFn, MT};
    t["item"] = {itemFn, kMethod};
    t["tolist"] = {tolistFn, kMethod};
    t["float"] = {castFn<DType::Float32>, kMethod};
    t["half"] = {castFn<DType::Float16>, kMethod};
    t["bfloat16"] = {castFn<DType::BFloat16>, kMethod};
    t["double"] = {castFn<DType::Float64>, kMethod};
    t["int"] = {castFn<DType::Int32>, kMethod};
    t["long"] = {castFn<DType::Int64>, kMethod};
    t["short"] = {castFn<DType::Int16>, kMethod};
    t["char"] = {castFn<DType::Int8>, kMethod};
    t["byte"] = {castFn<DType::UInt8>, kMethod};
    t["bool"] = {castFn<DType::Bool>, kMethod};
    t["to"] = {toFn, kMethod};
    t["type"] = {typeFn, kMethod};
    t["type_as"] = {typeAsFn, kMethod};
    t["fill_"] = {fillFn, kMethod};
    t["zero_"] = {zeroFn, kMethod};
    t["copy_"] = {copyFn, kMethod};

    t["zeros"] = t["empty"] = {constantFn<0>, kTorch};
    t["ones"] = {constantFn<1>, kTorch};
    t["full"] = {fullFn, kTorch};
    t["zeros_like"] = t["empty_like"] = {likeFn<0>, kTorch};
    t["ones_like"] = {likeFn<1>, kTorch};
    t["full_like"] = {fullLikeFn, kTorch};
    t["new_zeros"] = t["new_empty"] = {newConstantFn<0>, kMethod};
    t["new_ones"] = {newConstantFn<1>, kMethod};
    t["new_full"] = {newFullFn, kMethod};
    t["new_tensor"] = {newTensorFn, kMethod};
    t["arange"] = {arangeFn, kTorch};
    t["linspace"] = {linspaceFn, kTorch};
    t["eye"] = {eyeFn, kTorch};
    t["tensor"] = t["as_tensor"] = t["scalar_tensor"] = {tensorFn, kTorch};
}

}  // namespace ts::rt
