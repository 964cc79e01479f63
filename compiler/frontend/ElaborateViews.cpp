// Views of a kernel tensor's memory: T.Tensor(shape, dtype, A.data), T.reshape(A, shape) and
// T.view(A, shape, dtype) (TileLang: a new Buffer over `src.data`). A view is a Global buffer
// with its own row-major shape recorded as a view of the parameter (compiler/ir/Views.h): the interpreters
// address the parameter's storage through it, codegen declares it as a pointer to the same
// memory, and index lowering flattens through its own shape, so a T.copy of a region of the
// view (conv's kernel_flat[k * bK, bx * bN]) is an ordinary rectangular copy. Views of on-chip
// memory (local) are diagnostics; a view of a tensor may change the dtype (whole-byte elements:
// the same bytes); a view of a fragment
// with its dtype is fragmentView below, a view of a shared buffer (any dtype) sharedView.
// T.im2col reads a tile of the im2col matrix of an NHWC image through index arithmetic: it is
// elaborated into a T.Parallel nest over the tile (TileLang lowers it to a TMA im2col load on
// Hopper only; the element loop compiles for every target).
#include "compiler/frontend/ElaborateOpsImpl.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Views.h"

#include <algorithm>
#include <unordered_map>

namespace ts::fe::elab {

namespace {

/// With symbolic extents the bytes are checked at launch (LaunchArgs.cpp checkSymbolicViews), but
/// a view whose bytes are the same multiple (not 1) of its tensor's at every size can never
/// launch: `T.view(A, (2 * n,), "float16")` of a float16 A of n elements. The extents are
/// evaluated at a spread of sizes (each symbolic variable a different one); a constant ratio over
/// all of them -- != 1 for another dtype, > 1 for the same dtype -- is the error, said here with
/// one sample. Anything else (a ratio that varies, an extent that does not evaluate) is left to the
/// launch. Sizes up to 2^24: `T.min(2 * n, 10000)` fits from n = 10000 on (helper-113). Empty when the view may fit.
std::string symbolicViewNeverFits(const std::vector<ir::Expr>& viewShape, ir::DType viewT, const ir::BufferNode& base) {
    std::vector<const ir::VarNode*> vars;
    auto collect = [&](const ir::Expr& e) {
        ir::walkExpr(e, [&](const ir::Expr& x) {
            if (auto* v = ir::as<ir::VarNode>(x); v && std::find(vars.begin(), vars.end(), v) == vars.end()) vars.push_back(v);
        });
    };
    for (auto& e : viewShape) collect(e);
    for (auto& e : base.shape) collect(e);
    if (vars.empty()) return {};
    static const int64_t kSizes[] = {1, 2, 3, 5, 8, 13, 64, 100, 1000, 4097, 5003, 65537, 1048583, 16777259};
    const int n = static_cast<int>(std::size(kSizes));
    auto numel = [](const std::vector<ir::Expr>& shape, const std::unordered_map<const ir::VarNode*, ir::Expr>& at) -> std::optional<int64_t> {
        int64_t p = 1;
        for (auto& e : shape) {
            auto c = ir::constInt(ir::substitute(e, at));
            if (!c || *c <= 0 || __builtin_mul_overflow(p, *c, &p)) return std::nullopt;
        }
        return p;
    };
    const int64_t vb = ir::dtypeBits(viewT), bb = ir::dtypeBits(base.dtype);
    int64_t v0 = 0, b0 = 0;
    std::string sample;
    for (int k = 0; k < n; ++k) {
        std::unordered_map<const ir::VarNode*, ir::Expr> at;
        std::string where;
        for (size_t i = 0; i < vars.size(); ++i) {
            const int64_t size = kSizes[(k + 3 * i) % n];
            at[vars[i]] = ir::intImm(size, {}, vars[i]->dtype);
            where += (where.empty() ? "" : ", ") + vars[i]->name + " = " + std::to_string(size);
        }
        auto ve = numel(viewShape, at), be = numel(base.shape, at);
        if (!ve || !be) return {};
        __int128 v = static_cast<__int128>(*ve) * vb, b = static_cast<__int128>(*be) * bb;
        if (viewT != base.dtype ? v == b : v <= b) return {};
        if (k == 0) {
            v0 = *ve, b0 = *be;
            sample = "at " + where + " the view has " + std::to_string(*ve) + " " + std::string(ir::dtypeName(viewT)) + " (" +
                     std::to_string(static_cast<int64_t>(v / 8)) + " bytes), '" + base.name + "' " + std::to_string(*be) + " " +
                     std::string(ir::dtypeName(base.dtype)) + " (" + std::to_string(static_cast<int64_t>(b / 8)) + " bytes)";
        } else if (static_cast<__int128>(*ve) * b0 != static_cast<__int128>(*be) * v0) {
            return {};  // the ratio varies with the sizes: some may fit
        }
    }
    if (viewT == base.dtype)
        return "the view's extents give it more elements than '" + base.name + "' at every size, a fixed multiple (" + sample + ")";
    return "the view's extents give it a fixed multiple of the bytes of '" + base.name + "' at every size, never the same (" + sample + ")";
}

// A view of a fragment (fp8_lighting_indexer's `T.reshape(s, (block_N, block_Q, heads))` of a
// gemm accumulator): a fragment buffer of the new shape with no storage of its own, allocated
// where the view is made and recorded as "view_of.<view>" = the viewed fragment (a view of a
// view names the first one; ir/FragmentViews.h).
Value fragmentView(Elaborator& el, const ir::Buffer& base, const Value& shape, Span shapeSpan, Span s,
                   const std::string& fn) {
    std::string root = base->name;
    if (auto it = el.funcAttrs().find(ir::viewAttrKey(base->name)); it != el.funcAttrs().end())
        if (auto* n = std::get_if<std::string>(&it->second)) root = *n;
    std::vector<ir::Expr> sh = el.shapeArg(shape, shapeSpan, fn + " shape");
    int64_t viewElems = 1, baseElems = 1;
    for (auto& e : sh) {
        auto c = ir::constInt(e);
        if (!c || *c <= 0)
            throw CompileError(shapeSpan, fn + ": a view of fragment '" + base->name + "' needs constant positive extents",
                               "use the tile sizes (block_N, ...)");
        viewElems *= *c;
    }
    for (auto& e : base->shape) baseElems *= ir::constInt(e).value_or(0);
    if (viewElems != baseElems)
        throw CompileError(shapeSpan,
                           fn + ": the view has " + std::to_string(viewElems) + " elements but fragment '" +
                               base->name + "' has " + std::to_string(baseElems),
                           "a view covers the whole fragment with another shape");
    std::string name = el.takePendingName();
    auto view = std::make_shared<ir::BufferNode>(el.uniqueName(name.empty() ? base->name + "_view" : name),
                                                 base->dtype, std::move(sh), ir::Scope::Fragment, s);
    el.funcAttrs()[ir::viewAttrKey(view->name)] = root;
    el.emit(std::make_shared<ir::AllocNode>(view, nullptr, s));
    return Value::ext(std::make_shared<BufferValue>(view, false));
}

// A view of a shared buffer (sparse MLA backward's `T.view(KV_shared, shape=[BS // 2, D],
// dtype=accum_dtype)`: float32 scratch on the bytes of a bfloat16 tile): a Shared buffer of the
// new shape and dtype, allocated where the view is made and recorded as "smem_view_of.<view>" =
// the viewed buffer (a view of a view names the first; ir/Views.h). Its bytes must fit in the
// viewed buffer's. The two names are one set of bytes: data written through one reads back
// through the other, reinterpreted (the interpreters: interp/SharedViews.h; the generated code
// places the elements of both through the layout one of them has: analysis/SharedViewLayout.h).
Value sharedView(Elaborator& el, const ir::Buffer& base, const Value& shape, Span shapeSpan, ir::DType t, Span s,
                 const std::string& fn) {
    std::string root = ir::sharedViewBase(el.funcAttrs(), base->name);
    if (root.empty()) root = base->name;
    std::vector<ir::Expr> sh = el.shapeArg(shape, shapeSpan, fn + " shape");
    int64_t viewElems = 1, baseElems = 1;
    for (auto& e : sh) {
        auto c = ir::constInt(e);
        if (!c || *c <= 0)
            throw CompileError(shapeSpan, fn + ": a view of shared '" + base->name + "' needs constant positive extents",
                               "use the tile sizes (block_N, ...)");
        viewElems *= *c;
    }
    for (auto& e : base->shape) baseElems *= ir::constInt(e).value_or(0);
    const int64_t viewBits = viewElems * ir::dtypeBits(t), baseBits = baseElems * ir::dtypeBits(base->dtype);
    if (viewBits > baseBits || viewBits % 8)
        throw CompileError(shapeSpan,
                           fn + ": the view needs " + std::to_string(viewBits / 8) + " bytes (" + std::to_string(viewElems) + " " +
                               std::string(ir::dtypeName(t)) + ") but shared '" + base->name + "' has " +
                               std::to_string(baseBits / 8) + " (" + std::to_string(baseElems) + " " +
                               std::string(ir::dtypeName(base->dtype)) + ")",
                           "a view of a shared buffer lies on its bytes: make it no larger");
    std::string name = el.takePendingName();
    auto view = std::make_shared<ir::BufferNode>(el.uniqueName(name.empty() ? base->name + "_view" : name), t, std::move(sh),
                                                 ir::Scope::Shared, s);
    el.funcAttrs()[ir::sharedViewAttrKey(view->name)] = root;
    el.emit(std::make_shared<ir::AllocNode>(view, nullptr, s));
    return Value::ext(std::make_shared<BufferValue>(view, false));
}

}  // namespace

Value Elaborator::tensorView(const ir::Buffer& base, const Value& shape, Span shapeSpan,
                             ir::DType t, Span s, const std::string& fn) {
    ir::Buffer root = base;  // a view of a view views the same tensor
    if (auto it = m_funcAttrs.find(ir::viewAttrKey(base->name)); it != m_funcAttrs.end())
        for (auto& p : m_params)
            if (auto* n = std::get_if<std::string>(&it->second); n && p->name == *n) root = p;
    if (base->scope == ir::Scope::Fragment && t == base->dtype) return fragmentView(*this, base, shape, shapeSpan, s, fn);
    if (base->scope == ir::Scope::Fragment)
        throw CompileError(s,
                           fn + ": a view of fragment '" + base->name + "' with another dtype (" +
                               std::string(ir::dtypeName(base->dtype)) + " as " + std::string(ir::dtypeName(t)) +
                               ") is not supported yet (registers hold values, not bytes)",
                           "views of fragments keep the dtype; convert values with T.Cast into a fragment of the other dtype");
    if (base->scope == ir::Scope::Shared) return sharedView(*this, base, shape, shapeSpan, t, s, fn);
    if (base->scope != ir::Scope::Global)
        throw CompileError(s,
                           fn + ": a view of " + std::string(ir::scopeName(base->scope)) + " '" +
                               base->name + "' is not supported yet (only of kernel tensors and shared buffers)",
                           "index the buffer with the other shape's arithmetic, or copy it into a "
                           "buffer of that shape");
    if (!root->strides.empty())
        throw CompileError(s, fn + ": '" + root->name + "' has explicit strides; a view needs a "
                                                          "contiguous tensor");
    // Another dtype: the same bytes read as that dtype (torch's Tensor.view(dtype)), element i
    // of the view at bit i * bits; 4-bit elements two to a byte, the even one in the low nibble
    // (as the host packs them, support/HostTensor.cpp encode).
    std::vector<ir::Expr> sh = shapeArg(shape, shapeSpan, fn + " shape");
    for (size_t d = 0; d < sh.size(); ++d)
        if (auto c = ir::constInt(sh[d]); c && *c <= 0)
            throw CompileError(shapeSpan, fn + ": extent " + std::to_string(d) + " of the view is " + std::to_string(*c) + "; extents must be positive",
                               "a view covers the whole tensor with another shape of positive extents");
    // TileLang asserts equal sizes (in bytes when the dtype changes); when both are compile-time
    // constants, so do we.
    std::optional<int64_t> viewElems = 1, baseElems = 1;
    for (auto& e : sh)
        viewElems = viewElems && ir::constInt(e) ? std::optional(*viewElems * *ir::constInt(e)) : std::nullopt;
    for (auto& e : base->shape)
        baseElems = baseElems && ir::constInt(e) ? std::optional(*baseElems * *ir::constInt(e)) : std::nullopt;
    const int64_t viewBits = ir::dtypeBits(t), baseBits = ir::dtypeBits(base->dtype);
    // In 128 bits: a tensor of 2^62 float16 has 2^66 bits (fuzz_pipeline, helper-118: int64 overflow,
    // and the message said 'W' has 0 bytes).
    auto bytesOf = [](int64_t elems, int64_t bits) {
        const __int128 b = static_cast<__int128>(elems) * bits;
        std::string digits;
        for (__int128 q = b / 8; q > 0 || digits.empty(); q /= 10) digits.insert(digits.begin(), char('0' + int(q % 10)));
        return digits + (b % 8 ? ".5" : "");
    };
    if (viewElems && baseElems && static_cast<__int128>(*viewElems) * viewBits != static_cast<__int128>(*baseElems) * baseBits)
        throw CompileError(shapeSpan,
                           t == base->dtype ? fn + ": the view has " + std::to_string(*viewElems) + " elements but '" + base->name +
                                                  "' has " + std::to_string(*baseElems)
                                            : fn + ": the view has " + bytesOf(*viewElems, viewBits) + " bytes (" +
                                                  std::to_string(*viewElems) + " " + std::string(ir::dtypeName(t)) + ") but '" +
                                                  base->name + "' has " + bytesOf(*baseElems, baseBits) + " (" +
                                                  std::to_string(*baseElems) + " " + std::string(ir::dtypeName(base->dtype)) + ")",
                           t == base->dtype ? "a view covers the whole tensor with another shape"
                                            : "a view covers the whole tensor: scale the last extent by the ratio of the element sizes");
    if (!viewElems || !baseElems)
        if (std::string never = symbolicViewNeverFits(sh, t, *base); !never.empty())
            throw CompileError(shapeSpan, fn + ": " + never,
                               t == base->dtype ? "a view of the same dtype may not be larger than its tensor"
                                                : "a view covers the whole tensor: scale the last extent by the ratio of the element sizes");
    std::string name = takePendingName();
    auto view = std::make_shared<ir::BufferNode>(uniqueName(name.empty() ? base->name + "_view" : name),
                                                 t, std::move(sh), ir::Scope::Global, s);
    m_funcAttrs[ir::viewAttrKey(view->name)] = root->name;
    return Value::ext(std::make_shared<BufferValue>(view, false));
}

namespace {

/// An int32 compile-time-or-expression argument of T.im2col.
ir::Expr intExpr(Elaborator& el, const Value& v, Span s, const std::string& what) {
    ir::Expr e = el.toExpr(v, s, what);
    if (!ir::isInt(e->dtype)) throw CompileError(s, "T.im2col: " + what + " must be an integer");
    return ir::cast(ir::DType::Int32, e, s);
}
int64_t staticInt(const Value& v, Span s, const std::string& what, int64_t min) {
    if (!v.isIntLike() || v.asInt() < min)
        throw CompileError(s, "T.im2col: " + what + " must be a compile-time integer >= " +
                                  std::to_string(min) + ", got " + repr(v));
    return v.asInt();
}

/// T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad): col[m, k] = the im2col
/// matrix of img (N, H, W, C) at row nhw_step * bM + m (output pixel n, oh, ow; OH/OW from
/// the convolution arithmetic) and column c_step * bK + k (kh, kw, c, channel fastest), i.e.
/// img[n, oh*stride + kh*dilation - pad, ow*stride + kw*dilation - pad, c], 0 outside the image
/// or past the last pixel.
Value opIm2col(Elaborator& el, CallArgs& a) {
    auto b = a.bind({"img", "col", "nhw_step", "c_step", "kernel", "stride", "dilation", "pad",
                     "eviction_policy", "annotations"},
                    8);
    el.requireKernel(a.span, "T.im2col");
    auto* img = b[0].extAs<BufferValue>();
    auto* col = b[1].extAs<BufferValue>();
    if (!img || img->isVar || img->buffer->scope != ir::Scope::Global || img->buffer->rank() != 4)
        throw CompileError(b.spans[0], "T.im2col: img must be a 4-D kernel tensor (N, H, W, C)");
    if (!col || col->isVar || col->buffer->rank() != 2 || col->buffer->scope == ir::Scope::Global)
        throw CompileError(b.spans[1], "T.im2col: col must be a 2-D shared or fragment tile "
                                       "(output pixels x kernel taps)");
    const ir::Buffer I = img->buffer, C = col->buffer;
    auto bM = ir::constInt(C->shape[0]), bK = ir::constInt(C->shape[1]);
    if (!bM || !bK) throw CompileError(b.spans[1], "T.im2col: col must have a constant shape");
    const int64_t KH = staticInt(b[4], b.spans[4], "kernel", 1);
    const int64_t S = staticInt(b[5], b.spans[5], "stride", 1);
    const int64_t D = staticInt(b[6], b.spans[6], "dilation", 1);
    const int64_t P = staticInt(b[7], b.spans[7], "pad", 0);
    const Span sp = a.span;
    auto imm = [&](int64_t v) { return ir::intImm(v, sp); };
    auto bin = [&](ir::BinOp op, ir::Expr x, ir::Expr y) { return ir::binary(op, std::move(x), std::move(y), sp); };
    using O = ir::BinOp;
    ir::Expr N = I->shape[0], H = I->shape[1], W = I->shape[2], Ch = I->shape[3];
    // Output extent of a dimension of `n` pixels: (n + 2P - D(KH-1) - 1) // S + 1.
    auto outDim = [&](const ir::Expr& n) {
        return bin(O::Add, bin(O::FloorDiv, bin(O::Add, n, imm(2 * P - D * (KH - 1) - 1)), imm(S)), imm(1));
    };
    ir::Expr OH = outDim(H), OW = outDim(W);
    ir::Var m = ir::makeVar(el.uniqueName("im2col_m"), ir::DType::Int32, sp);
    ir::Var k = ir::makeVar(el.uniqueName("im2col_k"), ir::DType::Int32, sp);
    ir::Expr p = bin(O::Add, bin(O::Mul, intExpr(el, b[2], b.spans[2], "nhw_step"), imm(*bM)), m);
    ir::Expr q = bin(O::Add, bin(O::Mul, intExpr(el, b[3], b.spans[3], "c_step"), imm(*bK)), k);
    ir::Expr ow = bin(O::FloorMod, p, OW), oh = bin(O::FloorMod, bin(O::FloorDiv, p, OW), OH);
    ir::Expr n = bin(O::FloorDiv, p, bin(O::Mul, OW, OH));
    ir::Expr c = bin(O::FloorMod, q, Ch), kw = bin(O::FloorMod, bin(O::FloorDiv, q, Ch), imm(KH));
    ir::Expr kh = bin(O::FloorDiv, q, bin(O::Mul, Ch, imm(KH)));
    ir::Expr h = bin(O::Sub, bin(O::Add, bin(O::Mul, oh, imm(S)), bin(O::Mul, kh, imm(D))), imm(P));
    ir::Expr w = bin(O::Sub, bin(O::Add, bin(O::Mul, ow, imm(S)), bin(O::Mul, kw, imm(D))), imm(P));
    auto within = [&](const ir::Expr& x, const ir::Expr& hi) {
        return ir::logicalAnd(bin(O::Ge, x, imm(0)), bin(O::Lt, x, hi), sp);
    };
    ir::Expr inside = ir::logicalAnd(ir::logicalAnd(within(h, H), within(w, W), sp),
                                     ir::logicalAnd(bin(O::Lt, n, N), bin(O::Lt, kh, imm(KH)), sp), sp);
    // Clamped indices: the load stays inside the image even where the select discards it.
    auto clamp = [&](const ir::Expr& x, const ir::Expr& hi) {
        return bin(O::Min, bin(O::Max, x, imm(0)), bin(O::Sub, hi, imm(1)));
    };
    ir::Expr v = ir::load(I, {clamp(n, N), clamp(h, H), clamp(w, W), c}, sp);
    ir::Expr zero = ir::isFloat(I->dtype) ? ir::floatImm(0.0, I->dtype, sp) : ir::intImm(0, sp, I->dtype);
    ir::Stmt st = ir::store(C, {m, k}, ir::cast(C->dtype, ir::select(inside, v, zero, sp), sp), sp);
    el.emit(ir::forLoop(m, imm(0), imm(*bM), ir::ForKind::Parallel,
                        ir::forLoop(k, imm(0), imm(*bK), ir::ForKind::Parallel, st, {}, sp), {}, sp));
    el.noteWrite(C);
    return Value::none();
}

}  // namespace

void Elaborator::installViews() {
    defineT("im2col", opIm2col);
    defineT("c2d_im2col", opIm2col);
    defineT("reshape", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"src", "shape"}, 2);
        auto* src = b[0].extAs<BufferValue>();
        if (!src || src->isVar)
            throw CompileError(b.spans[0], "T.reshape: src must be a buffer, got " + typeName(b[0]),
                               "reshape the whole buffer and index the result, or T.copy the slice into a buffer of its own");
        return el.tensorView(src->buffer, b[1], b.spans[1], src->buffer->dtype, a.span, "T.reshape");
    });
    defineT("view", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"src", "shape", "dtype"}, 1);
        auto* src = b[0].extAs<BufferValue>();
        if (!src || src->isVar) {
            // A slice of a buffer (a region) and a scalar need different advice.
            const bool region = b[0].extAs<BufferAccess>() != nullptr;
            throw CompileError(b.spans[0], "T.view: src must be a buffer, got " + typeName(b[0]),
                               region ? "view the whole buffer and index the view (a view lies on its buffer's bytes from "
                                        "the first), or T.copy the slice into a buffer of its own"
                                      : "T.view takes a kernel tensor or an allocated buffer; a scalar's bits read as another dtype "
                                        "are T.reinterpret(value, dtype)");
        }
        const ir::Buffer& buf = src->buffer;
        Value shape = b.has(1) && !b[1].isNone() ? b[1] : Value();
        if (shape.isNone()) {
            std::vector<Value> dims;
            for (auto& d : buf->shape) dims.push_back(el.wrap(d));
            shape = Value::tuple(std::move(dims));
        }
        ir::DType t = b.has(2) && !b[2].isNone() ? el.dtypeArg(b[2], b.spans[2], "T.view dtype")
                                                 : buf->dtype;
        return el.tensorView(buf, shape, b.has(1) ? b.spans[1] : a.span, t, a.span, "T.view");
    });
}

}  // namespace ts::fe::elab
