// The meta-level values of ref_program (ReferenceValue.h): tensor operators and indexing on top
// of ReferenceArray, torch named tuples, torch modules and unsupported-name stand-ins.
#include "profiler/check/ReferenceValue.h"

#include <cmath>

#include "compiler/support/HostTensor.h"
#include "profiler/check/ReferenceTorch.h"

namespace ts::rt {

using fe::Value;
using fe::ValueKind;
namespace ast = fe::ast;

namespace {

/// Runs f, turning a RefError into a diagnostic at `s` ("ref_program: <what>: <message>").
template <class F>
auto guarded(Span s, const std::string& what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const RefError& e) {
        throw CompileError(s, "ref_program: " + what + ": " + e.what());
    }
}

std::optional<BinOp> mapBinOp(ast::BinOpKind op) {
    using B = ast::BinOpKind;
    switch (op) {
        case B::Add:
            return BinOp::Add;
        case B::Sub:
            return BinOp::Sub;
        case B::Mul:
            return BinOp::Mul;
        case B::Div:
            return BinOp::Div;
        case B::FloorDiv:
            return BinOp::FloorDiv;
        case B::Mod:
            return BinOp::Mod;
        case B::Pow:
            return BinOp::Pow;
        case B::BitAnd:
            return BinOp::And;
        case B::BitOr:
            return BinOp::Or;
        case B::BitXor:
            return BinOp::Xor;
        case B::LShift:
            return BinOp::Shl;
        case B::RShift:
            return BinOp::Shr;
        default:
            return std::nullopt;
    }
}

std::optional<BinOp> mapCmpOp(ast::CmpOpKind op) {
    using C = ast::CmpOpKind;
    switch (op) {
        case C::Eq:
            return BinOp::Eq;
        case C::NotEq:
            return BinOp::Ne;
        case C::Lt:
            return BinOp::Lt;
        case C::LtE:
            return BinOp::Le;
        case C::Gt:
            return BinOp::Gt;
        case C::GtE:
            return BinOp::Ge;
        default:
            return std::nullopt;
    }
}

/// Converts one subscript entry (int, slice, None) into an IndexItem.
IndexItem indexItem(const Value& v, Span s) {
    auto bound = [&](const Value& x) -> std::optional<int64_t> {
        if (x.isNone()) return std::nullopt;
        if (x.isIntLike()) return x.asInt();
        if (auto t = x.extAs<RefTensor>();
            t && t->array().numel() == 1 && !ir::isFloat(t->array().dtype))
            return static_cast<int64_t>(t->array().item());
        throw CompileError(
            s, "ref_program: slice bounds must be integers or None, got " + fe::typeName(x));
    };
    IndexItem it;
    if (v.isNone()) {
        it.kind = IndexItem::Kind::NewAxis;
    } else if (v.extAs<RefEllipsis>()) {
        it.kind = IndexItem::Kind::Ellipsis;
    } else if (v.is(ValueKind::Slice)) {
        it.kind = IndexItem::Kind::Slice;
        it.start = bound(v.sliceObj().lower);
        it.stop = bound(v.sliceObj().upper);
        it.step = bound(v.sliceObj().step);
    } else if (v.isIntLike() && !v.is(ValueKind::Bool)) {
        it.index = v.asInt();
    } else if (auto t = v.extAs<RefTensor>(); t && t->array().rank() == 0 &&
                                              !ir::isFloat(t->array().dtype) &&
                                              t->array().dtype != ir::DType::Bool) {
        it.index = static_cast<int64_t>(t->array().item());
    } else if (v.extAs<RefTensor>()) {
        throw CompileError(s,
                           "ref_program: indexing with a tensor (advanced or boolean-mask "
                           "indexing) is not supported "
                           "by the reference evaluator",
                           "use torch.where(mask, a, b) or x.masked_fill(mask, value)");
    } else {
        throw CompileError(s, "ref_program: tensor indices must be integers, slices or None, got " +
                                  fe::typeName(v));
    }
    return it;
}

std::vector<IndexItem> indexItems(const Value& index, Span s) {
    std::vector<IndexItem> items;
    if (index.is(ValueKind::Tuple))
        for (const Value& v : index.items()) items.push_back(indexItem(v, s));
    else
        items.push_back(indexItem(index, s));
    return items;
}

void nestedShape(const Value& v, size_t depth, Shape& shape, Span s) {
    if (!v.isSequence()) return;
    int64_t n = static_cast<int64_t>(v.items().size());
    if (shape.size() == depth)
        shape.push_back(n);
    else if (shape[depth] != n)
        throw CompileError(s, "ref_program: a nested list has rows of different lengths");
    if (n > 0) nestedShape(v.items()[0], depth + 1, shape, s);
}

void flattenNested(const Value& v, std::vector<double>& out, int& cat, Span s) {
    if (v.isSequence()) {
        for (const Value& x : v.items()) flattenNested(x, out, cat, s);
        return;
    }
    if (v.is(ValueKind::Bool))
        cat = std::max(cat, 0);
    else if (v.isIntLike())
        cat = std::max(cat, 1);
    else if (v.is(ValueKind::Float))
        cat = std::max(cat, 2);
    else if (auto t = v.extAs<RefTensor>(); t && t->array().numel() == 1)
        cat = std::max(cat, ir::isFloat(t->array().dtype) ? 2 : 1);
    else
        throw CompileError(
            s, "ref_program: a tensor literal may only contain numbers, got " + fe::typeName(v));
    out.push_back(v.is(ValueKind::Ext) ? v.extAs<RefTensor>()->array().item() : v.asFloat());
}

}  // namespace

std::string unsupportedMessage(const std::string& name) {
    return "ref_program: " + name + " is not supported by the reference evaluator";
}

Value RefTensor::make(RefArray a) { return Value::ext(std::make_shared<RefTensor>(std::move(a))); }

Value wrap(RefArray a) { return RefTensor::make(std::move(a)); }

bool isArrayLike(const Value& v) { return v.isNumber() || v.extAs<RefTensor>() != nullptr; }

RefArray toArray(const Value& v, Span s, const std::string& what) {
    if (auto t = v.extAs<RefTensor>()) return t->array();
    if (v.is(ValueKind::Bool)) return scalarArray(ir::DType::Bool, v.asBool() ? 1.0 : 0.0, true);
    if (v.isIntLike()) return scalarArray(ir::DType::Int64, static_cast<double>(v.asInt()), true);
    if (v.is(ValueKind::Float)) return scalarArray(ir::DType::Float64, v.asFloat(), true);
    if (v.isSequence()) {
        Shape shape;
        nestedShape(v, 0, shape, s);
        std::vector<double> data;
        int cat = 0;
        flattenNested(v, data, cat, s);
        if (static_cast<int64_t>(data.size()) != numelOf(shape))
            throw CompileError(s, "ref_program: a nested list has rows of different lengths");
        ir::DType t = cat == 2 ? ir::DType::Float32 : cat == 1 ? ir::DType::Int64 : ir::DType::Bool;
        return makeArray(t, shape, std::move(data));
    }
    throw CompileError(
        s, "ref_program: " + what + " must be a tensor or a number, got " + fe::typeName(v));
}

std::string RefTensor::repr() const {
    return "tensor(shape=" + shapeText(m_array.shape) +
           ", dtype=" + std::string(ir::dtypeName(m_array.dtype)) + ")";
}

std::optional<Value> RefTensor::getAttr(fe::Interp&, const std::string& name, Span s) {
    return guarded(s, "Tensor." + name, [&]() -> std::optional<Value> {
        if (name == "T" || name == "H") return wrap(reverseDims(m_array));
        if (name == "mT" || name == "mH") return wrap(transpose(m_array, -2, -1));
        if (name == "shape") {
            std::vector<Value> dims;
            for (int64_t e : m_array.shape) dims.push_back(Value::integer(e));
            return Value::tuple(std::move(dims));
        }
        if (name == "dtype") return Value::dtype(m_array.dtype);
        if (name == "ndim") return Value::integer(m_array.rank());
        if (name == "device") return Value::str("cpu");
        if (name == "data" || name == "real") return wrap(m_array);
        if (name == "requires_grad" || name == "is_cuda") return Value::boolean(false);
        if (name == "grad") return Value::none();
        auto self = std::static_pointer_cast<RefTensor>(shared_from_this());
        if (auto m = tensorMethod(self, name)) return m;
        return Value::ext(std::make_shared<RefUnsupported>("Tensor." + name));
    });
}

std::optional<Value> RefTensor::binaryOp(fe::Interp&, ast::BinOpKind op, const Value& other,
                                         bool selfOnLeft, Span s) {
    if (!isArrayLike(other)) return std::nullopt;
    RefArray o = toArray(other, s, "operand");
    const RefArray& a = selfOnLeft ? m_array : o;
    const RefArray& b = selfOnLeft ? o : m_array;
    if (op == ast::BinOpKind::MatMul) {
        if (!other.extAs<RefTensor>()) return std::nullopt;
        return guarded(s, "operator @", [&] { return wrap(matmul(a, b)); });
    }
    auto k = mapBinOp(op);
    if (!k) return std::nullopt;
    return guarded(s, std::string("operator ") + ast::spelling(op),
                   [&] { return wrap(binary(*k, a, b)); });
}

std::optional<Value> RefTensor::unaryOp(fe::Interp&, ast::UnaryOpKind op, Span s) {
    return guarded(s, std::string("operator ") + ast::spelling(op), [&]() -> std::optional<Value> {
        switch (op) {
            case ast::UnaryOpKind::Neg:
                return wrap(unary(UnOp::Neg, m_array));
            case ast::UnaryOpKind::Pos:
                return wrap(m_array);
            case ast::UnaryOpKind::Invert:
                return wrap(unary(UnOp::BitNot, m_array));
            default:
                return std::nullopt;
        }
    });
}

std::optional<Value> RefTensor::compare(fe::Interp&, ast::CmpOpKind op, const Value& other,
                                        bool selfOnLeft, Span s) {
    auto k = mapCmpOp(op);
    if (!k || !isArrayLike(other)) return std::nullopt;
    RefArray o = toArray(other, s, "operand");
    return guarded(s, std::string("operator ") + ast::spelling(op), [&] {
        return wrap(selfOnLeft ? binary(*k, m_array, o) : binary(*k, o, m_array));
    });
}

namespace {
/// An index array of advanced indexing: an integer tensor of rank >= 1 or a boolean tensor.
const RefTensor* advancedPart(const Value& v) {
    auto t = v.extAs<RefTensor>();
    if (!t) return nullptr;
    const RefArray& a = t->array();
    if (a.dtype == ir::DType::Bool || (a.rank() >= 1 && !ir::isFloat(a.dtype))) return t;
    return nullptr;
}

/// Where advanced indexing (`x[idx]`, `x[rows, cols]` with integer tensors, `x[mask]` with a
/// boolean one; torch's rules for indices that are all tensors) selects: per element of the
/// broadcast index shape, the offset of a contiguous run of the trailing dims.
struct Advanced {
    Shape shape;                 ///< broadcast index shape + the trailing dims
    std::vector<int64_t> bases;  ///< per index element, the offset of its run
    int64_t run = 1;             ///< elements of the trailing dims
};

std::optional<Advanced> advancedIndex(const RefArray& a, const Value& index) {
    std::vector<const RefTensor*> parts;
    if (index.is(ValueKind::Tuple)) {
        for (const Value& v : index.items()) {
            const RefTensor* t = advancedPart(v);
            if (!t) return std::nullopt;  // mixed with slices/ints: not modelled
            parts.push_back(t);
        }
    } else if (const RefTensor* t = advancedPart(index)) {
        parts.push_back(t);
    }
    if (parts.empty()) return std::nullopt;
    // A boolean mask stands for the coordinates of its true elements (torch's nonzero()).
    std::vector<RefArray> idx;
    for (const RefTensor* t : parts) {
        const RefArray& x = t->array();
        if (x.dtype != ir::DType::Bool) {
            idx.push_back(x);
            continue;
        }
        const size_t d0 = idx.size();
        if (d0 + x.shape.size() > a.shape.size() ||
            !std::equal(x.shape.begin(), x.shape.end(), a.shape.begin() + long(d0)))
            throw RefError("boolean mask of shape " + shapeText(x.shape) +
                           " does not match the indexed dims of a tensor of shape " +
                           shapeText(a.shape));
        std::vector<std::vector<double>> coords(x.shape.size());
        Shape st = stridesOf(x.shape);
        for (int64_t f = 0; f < x.numel(); ++f)
            if (x.ptr()[f] != 0)
                for (size_t d = 0; d < x.shape.size(); ++d)
                    coords[d].push_back(double((f / st[d]) % x.shape[d]));
        for (auto& c : coords) {
            int64_t n = int64_t(c.size());
            idx.push_back(makeArray(ir::DType::Int64, {n}, std::move(c)));
        }
    }
    if (idx.size() > a.shape.size())
        throw RefError("too many indices for a tensor of rank " + std::to_string(a.rank()));
    Shape b;
    for (const RefArray& x : idx) b = broadcastShapes(b, x.shape);
    const int64_t n = numelOf(b);
    std::vector<std::vector<double>> full;
    for (const RefArray& x : idx) full.push_back(gather(x.ptr(), 0, b, broadcastStrides(x.shape, b)));
    Shape st = stridesOf(a.shape);
    Advanced adv;
    adv.shape = b;
    for (size_t d = idx.size(); d < a.shape.size(); ++d) {
        adv.shape.push_back(a.shape[d]);
        adv.run *= a.shape[d];
    }
    adv.bases.resize(size_t(n));
    for (int64_t e = 0; e < n; ++e) {
        int64_t off = 0;
        for (size_t d = 0; d < idx.size(); ++d) {
            int64_t i = static_cast<int64_t>(full[d][size_t(e)]);
            if (i < -a.shape[d] || i >= a.shape[d])
                throw RefError("index " + std::to_string(i) + " is out of bounds for dimension " +
                               std::to_string(d) + " with size " + std::to_string(a.shape[d]));
            off += (i < 0 ? i + a.shape[d] : i) * st[d];
        }
        adv.bases[size_t(e)] = off;
    }
    return adv;
}
}  // namespace

std::optional<Value> RefTensor::getItem(fe::Interp&, const Value& index, Span s) {
    if (advancedPart(index) || index.is(ValueKind::Tuple))
        if (auto adv = guarded(s, "indexing", [&] { return advancedIndex(m_array, index); })) {
            std::vector<double> out;
            out.reserve(adv->bases.size() * size_t(adv->run));
            for (int64_t base : adv->bases)
                out.insert(out.end(), m_array.ptr() + base, m_array.ptr() + base + adv->run);
            return wrap(makeArray(m_array.dtype, adv->shape, std::move(out)));
        }
    std::vector<IndexItem> items = indexItems(index, s);
    return guarded(s, "indexing", [&] { return wrap(indexArray(m_array, items)); });
}

bool RefTensor::setItem(fe::Interp&, const Value& index, const Value& v, Span s) {
    if (advancedPart(index) || index.is(ValueKind::Tuple))
        if (auto adv = guarded(s, "item assignment", [&] { return advancedIndex(m_array, index); })) {
            RefArray value = toArray(v, s, "the assigned value");
            guarded(s, "item assignment", [&] {
                if (broadcastShapes(value.shape, adv->shape) != adv->shape)
                    throw RefError("cannot assign a value of shape " + shapeText(value.shape) +
                                   " to a selection of shape " + shapeText(adv->shape));
                std::vector<double> vals = gather(value.ptr(), 0, adv->shape,
                                                  broadcastStrides(value.shape, adv->shape));
                if (!ir::isFloat(m_array.dtype))
                    for (double& x : vals) x = roundTo(m_array.dtype, x);
                if (m_array.data.use_count() > 1)
                    m_array.data = std::make_shared<std::vector<double>>(*m_array.data);
                size_t k = 0;
                for (int64_t base : adv->bases)  // later writes to the same place win
                    for (int64_t j = 0; j < adv->run; ++j) (*m_array.data)[size_t(base + j)] = vals[k++];
                return 0;
            });
            return true;
        }
    std::vector<IndexItem> items = indexItems(index, s);
    RefArray value = toArray(v, s, "the assigned value");
    guarded(s, "item assignment", [&] {
        assignIndex(m_array, items, value);
        return 0;
    });
    return true;
}

std::optional<bool> RefTensor::truth(fe::Interp&, Span s) {
    if (m_array.numel() != 1)
        throw CompileError(s,
                           "ref_program: the truth value of a tensor with " +
                               std::to_string(m_array.numel()) + " elements is ambiguous",
                           "use .any() or .all()");
    return m_array.item() != 0;
}

std::optional<std::vector<Value>> RefTensor::iterate(fe::Interp&, Span s) {
    if (m_array.rank() == 0) throw CompileError(s, "ref_program: iteration over a 0-d tensor");
    std::vector<Value> rows;
    for (int64_t i = 0; i < m_array.shape[0]; ++i)
        rows.push_back(wrap(indexArray(m_array, {IndexItem{IndexItem::Kind::Int, i, {}, {}, {}}})));
    return rows;
}

std::optional<int64_t> RefTensor::length(fe::Interp&, Span s) {
    if (m_array.rank() == 0) throw CompileError(s, "ref_program: len() of a 0-d tensor");
    return m_array.shape[0];
}

std::optional<Value> RefNamedTuple::getAttr(fe::Interp&, const std::string& name, Span) {
    for (size_t i = 0; i < m_names.size(); ++i)
        if (m_names[i] == name) return m_items[i];
    return std::nullopt;
}

std::optional<Value> RefNamedTuple::getItem(fe::Interp&, const Value& index, Span s) {
    if (!index.isIntLike())
        throw CompileError(s, m_type + " indices must be integers, got " + fe::typeName(index));
    int64_t n = static_cast<int64_t>(m_items.size()),
            i = index.asInt() < 0 ? index.asInt() + n : index.asInt();
    if (i < 0 || i >= n)
        throw CompileError(s,
                           m_type + " index " + std::to_string(index.asInt()) + " is out of range");
    return m_items[static_cast<size_t>(i)];
}

std::optional<Value> RefModule::getAttr(fe::Interp&, const std::string& name, Span) {
    if (auto v = torchMember(m_path, name)) return v;
    return Value::ext(std::make_shared<RefUnsupported>(m_path + "." + name));
}

void RefUnsupported::fail(Span s) const { throw CompileError(s, unsupportedMessage(m_name)); }

std::optional<Value> RefUnsupported::getAttr(fe::Interp&, const std::string& name, Span) {
    return Value::ext(std::make_shared<RefUnsupported>(m_name + "." + name));
}
std::optional<Value> RefUnsupported::call(fe::Interp&, fe::CallArgs& a) { fail(a.span); }
bool RefUnsupported::setAttr(fe::Interp&, const std::string&, const Value&, Span) {
    return m_name == "torch.backends" || m_name.rfind("torch.backends.", 0) == 0;
}
std::optional<Value> RefUnsupported::binaryOp(fe::Interp&, ast::BinOpKind, const Value&, bool,
                                              Span s) {
    fail(s);
}
std::optional<Value> RefUnsupported::unaryOp(fe::Interp&, ast::UnaryOpKind, Span s) { fail(s); }
std::optional<Value> RefUnsupported::compare(fe::Interp&, ast::CmpOpKind, const Value&, bool,
                                             Span s) {
    fail(s);
}
std::optional<Value> RefUnsupported::getItem(fe::Interp&, const Value&, Span s) { fail(s); }
std::optional<bool> RefUnsupported::truth(fe::Interp&, Span s) { fail(s); }
std::optional<std::vector<Value>> RefUnsupported::iterate(fe::Interp&, Span s) { fail(s); }

}  // namespace ts::rt
