#include "compiler/frontend/ElaborateAllreduce.h"

#include "compiler/frontend/ElabValues.h"
#include "compiler/frontend/Elaborator.h"
#include "compiler/frontend/MetaBuiltins.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/IntrinsicsWarp.h"

namespace ts::fe::elab {

namespace {
/// T.comm_reducer(fn, identities): the combiner of a reduction scope.
class CommReducer final : public ExtValue {
public:
    explicit CommReducer(Value f) : fn(std::move(f)) {}
    std::string typeName() const override { return "CommReducer"; }
    Value fn;
};
}  // namespace

void registerAllreduce(Interp& in) {
    auto T = in.registerModule("tilelang.language");
    T->set("comm_reducer", Value::builtin("T.comm_reducer", [](Interp&, CallArgs& a) {
               auto b = a.bind({"fcombine", "identity_element"}, 1);
               return Value::ext(std::make_shared<CommReducer>(b[0]));
           }));
    T->set("attr", Value::builtin("T.attr", [](Interp&, CallArgs& a) {
               auto b = a.bind({"node", "attr_key", "value"}, 2);
               auto* r = b[0].extAs<CommReducer>();
               if (!r || !b[1].is(ValueKind::Str) || b[1].asStr() != "reduce_scope")
                   throw CompileError(a.span, "T.attr is supported only as TVM's reduction scope",
                                      "write: with T.attr(T.comm_reducer(fn, [identity]), "
                                      "\"reduce_scope\", ...):");
               return Value::ext(std::make_shared<ReduceScope>(r->fn));
           }));
    T->set("evaluate", Value::builtin("T.evaluate", [](Interp&, CallArgs& a) {
               a.expectPositional(1, 1);
               return Value::none();  // the call it wraps has run (and emitted) already
           }));
    T->set("tvm_thread_allreduce", Value::builtin("T.tvm_thread_allreduce", [](Interp& i,
                                                                              CallArgs& a) {
               auto& el = dynamic_cast<Elaborator&>(i);
               el.requireKernel(a.span, "T.tvm_thread_allreduce");
               for (size_t k = 0; k < a.kw.size(); ++k)
                   if (a.kw[k].first != "dtype")
                       throw CompileError(a.kwSpans[k], "T.tvm_thread_allreduce: unexpected "
                                                        "keyword '" + a.kw[k].first + "'");
               if (el.reduceScopes.empty())
                   throw CompileError(a.span, "T.tvm_thread_allreduce needs an enclosing "
                                              "'with T.attr(T.comm_reducer(...), "
                                              "\"reduce_scope\", ...)'");
               if (a.pos.size() != 5 || (!a.pos[0].isIntLike() && !a.pos[0].is(ValueKind::Ext)))
                   throw CompileError(a.span, "T.tvm_thread_allreduce(size, value, cond, dst, "
                                              "thread) is supported for one value and one "
                                              "reduced thread index");
               Span s = a.span;
               auto* dst = a.pos[3].extAs<BufferAccess>();
               if (!dst || !dst->isElement())
                   throw CompileError(a.argSpan(3), "T.tvm_thread_allreduce: the destination "
                                                    "must be a buffer element");
               ir::Expr tvar = el.toExpr(a.pos[4], a.argSpan(4), "reduced thread index");
               const auto& tvs = el.kernelThreadVars();
               if (tvs.empty() || tvar.get() != static_cast<const ir::ExprNode*>(tvs[0].get()))
                   throw CompileError(a.argSpan(4), "T.tvm_thread_allreduce reduces over "
                                                    "threadIdx.x only");
               int64_t w = el.kernelBlockExtents()[0];
               if (w < 1 || w > 32 || (w & (w - 1)))
                   throw CompileError(a.argSpan(4), "T.tvm_thread_allreduce: threadIdx.x has " +
                                                        std::to_string(w) +
                                                        " threads; a power of two up to 32 is "
                                                        "supported (one warp)");
               if (!(a.pos[2].isIntLike() && a.pos[2].asInt() == 1))
                   throw CompileError(a.argSpan(2), "T.tvm_thread_allreduce: only cond=True is "
                                                    "supported");
               ir::Expr value = el.toExpr(a.pos[1], a.argSpan(1), "allreduce value");
               ir::DType t = dst->buffer->dtype;
               ir::Buffer r = el.allocate(ir::Scope::Local, {ir::intImm(1)}, t, s,
                                          "T.tvm_thread_allreduce");
               el.storeTo(r, {ir::intImm(0)}, el.wrap(value), s);
               Value fn = el.reduceScopes.back();
               for (int64_t off = w / 2; off >= 1; off /= 2) {
                   ir::Expr cur = ir::load(r, {ir::intImm(0)}, s);
                   ir::Expr lane = ir::binary(ir::BinOp::BitXor, tvs[0], ir::intImm(off, s), s);
                   ir::Expr other = ir::call(ir::intrin::kWarpShuffle,
                                             {ir::intImm(0xFFFFFFFFLL, s, ir::DType::UInt32), cur,
                                              lane, ir::intImm(w, s)},
                                             t, s);
                   Value combined = meta::callWith(el, fn, {el.wrap(cur), el.wrap(other)}, s,
                                                   "comm_reducer");
                   el.storeTo(r, {ir::intImm(0)}, combined, s);
               }
               std::vector<ir::Expr> idx;
               for (const auto& c : dst->indices) idx.push_back(c.point);
               el.storeTo(dst->buffer, idx, el.wrap(ir::load(r, {ir::intImm(0)}, s)), s);
               return Value::none();
           }));
}

}  // namespace ts::fe::elab
