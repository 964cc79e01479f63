// Hand-written cp.async of TileLang's warp-specialized kernels (issue 8): T.access_ptr,
// T.ptx_cp_async and T.cp_async_barrier_noinc (alias T.ptx_cp_async_barrier_noinc).
//
//   T.ptx_cp_async(T.access_ptr(S[stage, r, c], "w", 8), T.access_ptr(G[b, i, c], "r", 8), 8)
//   ...
//   T.cp_async_barrier_noinc(bar_ready[stage])
//
// T.access_ptr(base, access_type, *extents, offset=0, extent=None) is TileLang's pointer to an
// element (or a region's first element, or a buffer's start) with the number of elements it may
// touch; here it is a value that only T.ptx_cp_async consumes (AccessPtr below). T.ptx_cp_async
// (dst, src, num_elems[, predicate]) copies num_elems elements (4, 8 or 16 bytes) from global to
// shared memory asynchronously (cp.async, PTX ISA §9.7.9.25.3.1): it elaborates to the tl.cp_async
// intrinsic that TileScope's own pipelines use, so codegen, insert-sync, the bank analysis and
// both interpreters (pending copies land at a wait, a read before it is reported) already know
// it. T.cp_async_barrier_noinc(bar) is every executing thread's arrival on bar once its earlier
// cp.async copies completed (cp.async.mbarrier.arrive.noinc, §9.7.9.25.3.4), tl.cp_async_arrive_noinc.
#include "compiler/frontend/ElaborateOpsImpl.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/IntrinsicsUserBarriers.h"

namespace ts::fe::elab {
using ir::DType;

namespace {

/// T.access_ptr(...): the element it points at (a Load, whose indices later passes rewrite like
/// any load's), the elements it covers and the access mask (1 read, 2 write, 3 both).
class AccessPtr final : public ExtValue {
public:
    ir::Expr element;  ///< Load of the first element
    ir::Expr extent;   ///< elements the pointer may touch
    int64_t rw = 1;
    Span span;
    std::string typeName() const override { return "PrimExpr"; }
    std::string repr() const override { return "T.access_ptr(...)"; }
};

ir::Stmt intrinsic(const char* op, std::vector<ir::Expr> args, Span s) {
    return ir::evaluate(ir::call(op, std::move(args), DType::Int32, s), s);
}

/// The first element of `v`: an element access A[i, j], a region A[a:b, c] (its minima) or a
/// whole buffer (its start).
ir::Expr firstElement(Elaborator& el, const Value& v, Span s) {
    if (auto* b = v.extAs<BufferValue>(); b && !b->isVar) {
        std::vector<ir::Expr> zeros(b->buffer->rank(), ir::intImm(0, s));
        return ir::load(b->buffer, std::move(zeros), s);
    }
    if (auto* acc = v.extAs<BufferAccess>()) {
        if (acc->isElement()) return el.loadOf(*acc, s);
        if (acc->indices.size() == acc->buffer->rank()) {
            std::vector<ir::Expr> idx;
            for (auto& i : acc->indices) idx.push_back(i.isSlice ? (i.lower ? i.lower : ir::intImm(0, s)) : i.point);
            return ir::load(acc->buffer, std::move(idx), s);
        }
    }
    throw CompileError(s, "T.access_ptr: the base must be a buffer, an element A[i, j] or a region A[a:b, c] "
                          "with one index per dimension, got " + typeName(v),
                       "T.access_ptr(A_shared[stage, row, col], \"w\", 8)");
}

int64_t rwMask(const Value& v, Span s) {
    if (v.isIntLike() && v.asInt() >= 1 && v.asInt() <= 3) return v.asInt();
    if (v.is(ValueKind::Str)) {
        const std::string& m = v.asStr();
        if (m == "r") return 1;
        if (m == "w") return 2;
        if (m == "rw") return 3;
    }
    throw CompileError(s, "T.access_ptr: access_type must be \"r\", \"w\" or \"rw\" (or 1, 2, 3), got " + repr(v));
}

const AccessPtr& accessPtrArg(const Value& v, Span s, const std::string& what) {
    auto* p = v.extAs<AccessPtr>();
    if (!p)
        throw CompileError(s, "T.ptx_cp_async: the " + what + " must be a T.access_ptr(...), got " + typeName(v),
                           "T.ptx_cp_async(T.access_ptr(S[i, j], \"w\", 8), T.access_ptr(A[y, x], \"r\", 8), 8)");
    return *p;
}

/// T.access_ptr(base, access_type="r", *extents, offset=0, extent=None).
Value makeAccessPtr(Elaborator& el, CallArgs& a) {
    el.requireKernel(a.span, "T.access_ptr");
    if (a.pos.empty()) throw CompileError(a.span, "T.access_ptr needs a base (a buffer or an element of one)");
    auto p = std::make_shared<AccessPtr>();
    p->span = a.span;
    ir::Expr elem = firstElement(el, a.pos[0], a.argSpan(0));
    p->rw = a.pos.size() > 1 ? rwMask(a.pos[1], a.argSpan(1)) : 1;
    ir::Expr extent = ir::intImm(1, a.span), offset;
    bool explicitExtent = false;
    if (a.pos.size() > 2) {
        std::vector<Value> ext;
        if (a.pos.size() == 3 && a.pos[2].isSequence())
            ext = a.pos[2].items();
        else
            ext.assign(a.pos.begin() + 2, a.pos.end());
        for (size_t i = 0; i < ext.size(); ++i) {
            ir::Expr e = el.toExpr(ext[i], a.argSpan(std::min(i + 2, a.pos.size() - 1)), "T.access_ptr extent");
            extent = i == 0 ? e : ir::mul(extent, e);
        }
    }
    for (size_t i = 0; i < a.kw.size(); ++i) {
        const auto& [k, v] = a.kw[i];
        const Span at = i < a.kwSpans.size() ? a.kwSpans[i] : a.span;
        if (k == "offset") {
            offset = el.toExpr(v, at, "T.access_ptr offset");
        } else if (k == "extent") {
            if (!v.isNone()) extent = el.toExpr(v, at, "T.access_ptr extent"), explicitExtent = true;
        } else if (k == "access_type") {
            p->rw = rwMask(v, at);
        } else if (k == "ignore_last_ndim") {
            if (!(v.isIntLike() && v.asInt() == 0))
                throw CompileError(at, "T.access_ptr: ignore_last_ndim is not supported yet");
        } else {
            throw CompileError(at, "T.access_ptr got an unexpected keyword argument '" + k + "'");
        }
    }
    (void)explicitExtent;
    if (offset) {  // `offset` more elements along the flattened buffer: the last index moves
        auto* l = ir::as<ir::LoadNode>(elem);
        std::vector<ir::Expr> idx = l->indices;
        if (idx.empty()) throw CompileError(a.span, "T.access_ptr: offset of a 0-d buffer");
        idx.back() = ir::add(idx.back(), offset);
        elem = ir::load(l->buffer, std::move(idx), a.span);
    }
    p->element = elem;
    p->extent = extent;
    return Value::ext(p);
}

}  // namespace

Value accessPtrMethod(const Value& self) {
    // buf.access_ptr(access_mask, ptr_type="handle", content_lanes=1, offset=0, extent=None): TVM's
    // Buffer method, a pointer to the buffer's start (plus `offset` elements).
    return Value::builtin("access_ptr", [self](Interp& in, CallArgs& a) {
        CallArgs c;
        c.callee = "access_ptr";
        c.span = a.span;
        c.pos.push_back(self);
        c.posSpans.push_back(a.span);
        if (!a.pos.empty()) c.pos.push_back(a.pos[0]), c.posSpans.push_back(a.argSpan(0));
        for (size_t i = 0; i < a.kw.size(); ++i) {
            const Span at = i < a.kwSpans.size() ? a.kwSpans[i] : a.span;
            if (a.kw[i].first == "ptr_type" || a.kw[i].first == "content_lanes") continue;
            c.kw.push_back(a.kw[i].first == "access_mask" ? std::make_pair(std::string("access_type"), a.kw[i].second) : a.kw[i]);
            c.kwSpans.push_back(at);
        }
        // Without an extent the pointer covers the buffer (TVM's default).
        bool hasExtent = false;
        for (auto& kv : c.kw) hasExtent |= kv.first == "extent";
        if (auto* b = self.extAs<BufferValue>(); b && !hasExtent) {
            int64_t n = 1;
            for (auto& d : b->buffer->shape) n *= ir::constInt(d).value_or(1);
            c.kw.push_back({"extent", Value::integer(n)});
            c.kwSpans.push_back(a.span);
        }
        return makeAccessPtr(elaboratorOf(in), c);
    });
}

void Elaborator::installPtx() {
    // T.access_ptr(base, access_type="r", *extents, offset=0, extent=None)
    defineT("access_ptr", makeAccessPtr);
    // T.ptx_cp_async(dst_access_ptr, src_access_ptr, num_elems, predicate=None)
    defineT("ptx_cp_async", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"dst_access_ptr", "src_access_ptr", "num_elems", "predicate"}, 3);
        el.requireKernel(a.span, "T.ptx_cp_async");
        const AccessPtr& dst = accessPtrArg(b[0], b.spans[0], "destination");
        const AccessPtr& src = accessPtrArg(b[1], b.spans[1], "source");
        auto* dl = ir::as<ir::LoadNode>(dst.element);
        auto* sl = ir::as<ir::LoadNode>(src.element);
        if (dl->buffer->scope != ir::Scope::Shared)
            throw CompileError(b.spans[0], "T.ptx_cp_async: the destination '" + dl->buffer->name + "' is " +
                                               ir::scopeName(dl->buffer->scope) + " memory; cp.async writes shared memory",
                               "copy into a T.alloc_shared buffer");
        if (sl->buffer->scope != ir::Scope::Global)
            throw CompileError(b.spans[1], "T.ptx_cp_async: the source '" + sl->buffer->name + "' is " +
                                               ir::scopeName(sl->buffer->scope) + " memory; cp.async reads global memory",
                               "read a kernel tensor");
        if (dl->buffer->dtype != sl->buffer->dtype)
            throw CompileError(a.span, "T.ptx_cp_async between '" + sl->buffer->name + "' (" +
                                           std::string(ir::dtypeName(sl->buffer->dtype)) + ") and '" + dl->buffer->name +
                                           "' (" + std::string(ir::dtypeName(dl->buffer->dtype)) +
                                           ") copies bytes of different dtypes",
                               "copy between buffers of one dtype");
        if (!(dst.rw & 2))
            throw CompileError(b.spans[0], "T.ptx_cp_async: the destination pointer is read-only (access_type \"r\")",
                               "T.access_ptr(dst, \"w\", n)");
        if (!b[2].isIntLike())
            throw CompileError(b.spans[2], "T.ptx_cp_async: the element count must be a compile-time int");
        const int64_t n = b[2].asInt();
        const int bits = ir::dtypeBits(dl->buffer->dtype);
        const int64_t bytes = n * bits / 8;
        if (n <= 0 || (n * bits) % 8 || (bytes != 4 && bytes != 8 && bytes != 16))
            throw CompileError(b.spans[2], "T.ptx_cp_async: " + std::to_string(n) + " " +
                                               std::string(ir::dtypeName(dl->buffer->dtype)) + " elements are " +
                                               std::to_string(n * bits) + " bits; cp.async copies 4, 8 or 16 bytes",
                               "copy " + std::to_string(std::max<int64_t>(1, 128 / bits)) + " elements (16 bytes)");
        for (const AccessPtr* p : {&dst, &src})
            if (auto e = ir::constInt(p->extent); e && *e < n)
                throw CompileError(p->span, "T.ptx_cp_async copies " + std::to_string(n) + " elements but this T.access_ptr covers " +
                                                std::to_string(*e),
                                   "give the pointer the copy's extent: T.access_ptr(buf[...], \"w\", " + std::to_string(n) + ")");
        ir::Expr pred = b.has(3) && !b[3].isNone() ? el.toExprLike(b[3], DType::Bool, b.spans[3], "T.ptx_cp_async predicate")
                                                   : ir::boolImm(true, a.span);
        el.emit(intrinsic(ir::intrin::kCpAsync,
                          {ir::call(ir::intrin::kAddressOf, {dst.element}, DType::Int64, a.span),
                           ir::call(ir::intrin::kAddressOf, {src.element}, DType::Int64, a.span),
                           ir::intImm(bytes, a.span), pred},
                          a.span));
        el.noteWrite(dl->buffer);
        return Value::none();
    });
    // T.cp_async_barrier_noinc(barrier): cp.async.mbarrier.arrive.noinc of every executing thread.
    for (const char* n : {"cp_async_barrier_noinc", "ptx_cp_async_barrier_noinc"}) {
        std::string name = n;
        defineT(n, [name](Elaborator& el, CallArgs& a) {
            auto b = a.bind({"barrier"}, 1);
            el.requireKernel(a.span, "T." + name);
            el.emit(intrinsic(ir::intrin::kCpAsyncArriveNoinc, {barrierAddress(el, b[0], b.spans[0], "T." + name)}, a.span));
            return Value::none();
        });
    }
}

}  // namespace ts::fe::elab
