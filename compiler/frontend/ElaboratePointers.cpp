#include "compiler/frontend/ElaboratePointers.h"

#include "compiler/frontend/Elaborator.h"
#include "compiler/ir/PointerTensors.h"

namespace ts::fe::elab {

bool isPointerDType(const Value& v) {
    if (v.is(ValueKind::Builtin)) return v.builtinObj().name == "T.ptr";
    return v.is(ValueKind::Str) && (v.asStr() == "ptr" || v.asStr() == "handle");
}

void rejectPointer(Elaborator& el, const ir::Expr& e, Span s, const std::string& what) {
    auto* l = ir::as<ir::LoadNode>(e);
    if (!l || !ir::isPointerTable(el.funcAttrs(), *l->buffer)) return;
    const std::string src = " (an element of pointer table '" + l->buffer->name + "')";
    throw CompileError(s, what + " of a raw device pointer" + src + " is not supported by TileScope",
                       "a T.ptr value can only be the first argument of T.make_tensor(ptr, shape, dtype); "
                       "index the tensor it makes instead of offsetting the pointer");
}

namespace {

/// A positive extent or stride list of T.make_tensor.
std::vector<ir::Expr> dims(Elaborator& el, const Value& v, Span s, const std::string& what) {
    std::vector<ir::Expr> out = el.shapeArg(v, s, "T.make_tensor " + what);
    if (out.empty()) throw CompileError(s, "T.make_tensor: the " + what + " must have at least one entry");
    for (size_t d = 0; d < out.size(); ++d)
        if (auto c = ir::constInt(out[d]); c && (*c < 0 || (*c == 0 && what == "shape")))
            throw CompileError(s, "T.make_tensor " + what + ": entry " + std::to_string(d) + " is " +
                                      std::to_string(*c) + ", it must be " + (what == "shape" ? "positive" : "non-negative"));
    return out;
}

Value makeTensor(Elaborator& el, CallArgs& a) {
    auto b = a.bind({"ptr", "shape", "dtype", "strides"}, 2);
    // T.make_tensor(A.data, shape[, dtype]): a view of a kernel tensor, as T.Tensor(shape, dtype, A.data).
    if (auto* ref = b[0].extAs<TensorDataRef>()) {
        if (b.has(3) && !b[3].isNone())
            throw CompileError(b.spans[3], "T.make_tensor(" + ref->buffer->name + ".data, ...): strides on a view are not supported",
                               "a view of a kernel tensor is row-major");
        ir::DType t = b.has(2) ? el.dtypeArg(b[2], b.spans[2], "T.make_tensor dtype") : ref->buffer->dtype;
        return el.tensorView(ref->buffer, b[1], b.spans[1], t, a.span, "T.make_tensor(" + ref->buffer->name + ".data, ...)");
    }
    if (auto* bv = b[0].extAs<BufferValue>(); bv && !bv->isVar) {
        const bool table = ir::isPointerTable(el.funcAttrs(), *bv->buffer);
        throw CompileError(b.spans[0],
                           "T.make_tensor: the pointer must be one element" +
                               std::string(table ? " of pointer table '" + bv->buffer->name + "'" : "") +
                               ", got the whole buffer '" + bv->buffer->name + "'",
                           table ? "index the table: T.make_tensor(" + bv->buffer->name + "[g], shape, dtype)"
                                 : "T.make_tensor takes a T.ptr value: an element of a `T.Tensor([G], T.ptr)` parameter");
    }
    if (!el.isRuntime(b[0]))
        throw CompileError(b.spans[0], "T.make_tensor: the pointer must be a T.ptr value, got " + typeName(b[0]) + " (" + repr(b[0]) + ")",
                           "pass an element of a pointer table parameter `P: T.Tensor([G], T.ptr)`: T.make_tensor(P[g], shape, dtype)");
    el.requireKernel(a.span, "T.make_tensor of a pointer");
    ir::Expr p = el.toExpr(b[0], b.spans[0], "T.make_tensor pointer");
    auto* load = ir::as<ir::LoadNode>(p);
    if (!load || !ir::isPointerTable(el.funcAttrs(), *load->buffer))
        throw CompileError(b.spans[0],
                           "T.make_tensor: the pointer must be an element of a pointer table, got " +
                               (load ? "an element of '" + load->buffer->name + "' (" + std::string(ir::dtypeName(p->dtype)) + ", not a T.ptr tensor)"
                                     : "a " + std::string(ir::dtypeName(p->dtype)) + " expression"),
                           "integers are not pointers in TileScope: declare `P: T.Tensor([G], T.ptr)` and pass P[g] "
                           "(choose the index, not the pointer, e.g. P[T.if_then_else(c, i, j)])");
    ir::DType t = b.has(2) ? el.dtypeArg(b[2], b.spans[2], "T.make_tensor dtype") : ir::DType::Float32;
    std::vector<ir::Expr> shape = dims(el, b[1], b.spans[1], "shape");
    std::vector<ir::Expr> strides;
    if (b.has(3) && !b[3].isNone()) {
        strides = dims(el, b[3], b.spans[3], "strides");
        if (strides.size() != shape.size())
            throw CompileError(b.spans[3], "T.make_tensor: " + std::to_string(strides.size()) + " strides for a rank-" +
                                               std::to_string(shape.size()) + " shape");
    }
    std::string name = el.takePendingName();
    auto buf = std::make_shared<ir::BufferNode>(el.uniqueName(name.empty() ? load->buffer->name + "_tensor" : name), t,
                                                std::move(shape), ir::Scope::Global, a.span, std::move(strides));
    el.funcAttrs()[ir::ptrTensorAttrKey(buf->name)] = load->buffer->name;
    el.emit(std::make_shared<ir::AllocNode>(buf, p, a.span));
    return Value::ext(std::make_shared<BufferValue>(buf, false));
}

}  // namespace

void registerPointers(Interp& in) {
    auto T = in.registerModule("tilelang.language");
    T->set("make_tensor", Value::builtin("T.make_tensor", [](Interp& i, CallArgs& a) {
               return makeTensor(dynamic_cast<Elaborator&>(i), a);
           }));
    // T.ptr is the element type of pointer tables (makeTensorType, ElabValues.cpp: uint64);
    // called (TileLang's eager `T.ptr()` argument placeholder) it is not a value TileScope has.
    T->set("ptr", Value::builtin("T.ptr", [](Interp&, CallArgs& a) -> Value {
               throw CompileError(a.span, "T.ptr() is not supported by TileScope",
                                  "T.ptr is the element type of a pointer table: `P: T.Tensor([G], T.ptr)`");
           }));
}

}  // namespace ts::fe::elab
