// The scalar half of the T.* vocabulary: math (T.max/min/abs/exp/exp2/log/log2/sqrt/rsqrt/
// sigmoid/tanh), T.if_then_else, T.infinity, T.cast, T.sync_threads, T.print (layouts are in
// ElaborateLayouts.cpp), eager-mode T.const/T.empty,
// symbolic sizes, and "not supported yet" stubs for every registered name the IR cannot
// express yet (so users get a clear message instead of an unknown-name error).
#include <algorithm>
#include <cctype>
#include <cmath>

#include "compiler/frontend/ElaborateBitOps.h"
#include "compiler/frontend/ElaborateMathLib.h"
#include "compiler/frontend/ElaborateDeviceAssert.h"
#include "compiler/frontend/ElaborateOpsImpl.h"
#include "compiler/frontend/ElaborateAllreduce.h"
#include "compiler/frontend/ElaborateExtern.h"
#include "compiler/frontend/ElaboratePointers.h"
#include "compiler/frontend/ElaborateWarpShuffle.h"
#include "compiler/ir/IntrinsicsAssert.h"
#include "compiler/frontend/LanguageRegistry.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/MathLib.h"

namespace ts::fe::elab {

using ir::DType;

namespace {

struct UnaryMath {
    const char* name;
    double (*fold)(double);
};

double sigmoidFn(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// "m, n" / "m n" -> {"m", "n"} (T.dynamic and T.const name lists).
std::vector<std::string> splitNames(std::string names) {
    std::replace(names.begin(), names.end(), ',', ' ');
    std::vector<std::string> out;
    size_t i = 0;
    while (i < names.size()) {
        while (i < names.size() && names[i] == ' ') ++i;
        size_t j = i;
        while (j < names.size() && names[j] != ' ') ++j;
        if (j > i) out.push_back(names.substr(i, j - i));
        i = j;
    }
    return out;
}

bool isIdentifier(const std::string& n) {
    if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) return false;
    return std::all_of(n.begin(), n.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

Value minMax(Elaborator& el, CallArgs& a, bool isMax) {
    a.expectPositional(2, 2);
    const Value &x = a.pos[0], &y = a.pos[1];
    if (x.isNumber() && y.isNumber()) {
        bool yWins = isMax ? el.truthy(el.compareOp(ast::CmpOpKind::Lt, x, y, a.span), a.span)
                           : el.truthy(el.compareOp(ast::CmpOpKind::Lt, y, x, a.span), a.span);
        return yWins ? y : x;
    }
    auto [ex, ey] = el.operands(x, y, a.span);
    return el.wrap(ir::binary(isMax ? ir::BinOp::Max : ir::BinOp::Min, ex, ey, a.span));
}

}  // namespace

void Elaborator::installMath() {
    auto T = module("tilelang.language");
    auto def = [this](const std::string& n, std::function<Value(Elaborator&, CallArgs&)> fn) {
        defineT(n, std::move(fn));
    };

    def("max", [](Elaborator& el, CallArgs& a) { return minMax(el, a, true); });
    def("min", [](Elaborator& el, CallArgs& a) { return minMax(el, a, false); });
    def("abs", [](Elaborator& el, CallArgs& a) {
        a.expectPositional(1, 1);
        const Value& x = a.pos[0];
        if (x.isIntLike()) return Value::integer(std::llabs(x.asInt()));
        if (x.is(ValueKind::Float)) return Value::real(std::fabs(x.asFloat()));
        ir::Expr e = el.toExpr(x, a.argSpan(0), "T.abs() argument");
        return el.wrap(ir::call("abs", {e}, e->dtype, a.span));
    });
    // Folds with ir/MathLib.h's float64 values (T.sigmoid is not a library call: its own).
    auto lib = [](const char* n) { return ir::findMathFn(n)->f1; };
    static const UnaryMath kUnary[] = {
        {"exp", lib("exp")},     {"exp2", lib("exp2")}, {"log", lib("log")},         {"log2", lib("log2")},
        {"sqrt", lib("sqrt")},   {"rsqrt", lib("rsqrt")}, {"sigmoid", sigmoidFn},    {"tanh", lib("tanh")},
        // TileLang exports these too; codegen and the interpreters had them, the front end did not (helper-113).
        {"floor", lib("floor")}, {"ceil", lib("ceil")}, {"sin", lib("sin")},         {"cos", lib("cos")}};
    for (const auto& m : kUnary) {
        std::string name = m.name;
        auto fold = m.fold;
        def(name, [name, fold](Elaborator& el, CallArgs& a) {
            a.expectPositional(1, 1);
            // A number folds as the float32 call TileLang makes of it (T.sqrt(2.0) is a float32
            // PrimExpr): the argument rounded to float32 first (1e40 is inf, 16777217.5 is
            // 16777218), the result too. In double, T.sqrt(1e40) was 1e20 and T.floor(16777217.5)
            // 16777217 (then 16777216 in a float32 store) where the GPU's float32 gives inf and
            // 16777218 (helper-114). An integer is its own floor and ceiling, as below.
            if (a.pos[0].isIntLike() && (name == "floor" || name == "ceil")) return a.pos[0];
            if (a.pos[0].isNumber()) {
                const double x = static_cast<float>(a.pos[0].asFloat());  // IEEE: past the range -> inf
                return Value::real(static_cast<float>(fold(x)));
            }
            ir::Expr e = el.toExpr(a.pos[0], a.argSpan(0), "T." + name + "() argument");
            // An integer is its own floor and ceiling (as TVM): through float32 16777217 was 16777216.
            if ((name == "floor" || name == "ceil") && ir::isInt(e->dtype)) return el.wrap(e);
            if (!ir::isFloat(e->dtype)) e = ir::cast(DType::Float32, e, a.argSpan(0));
            return el.wrap(ir::call(name, {e}, e->dtype, a.span));
        });
    }
    // T.isnan / isinf / isfinite (TVM's): comparisons in float32 or float64 (a 16-bit float widens
    // exactly; CUDA's __heq/__hne are false for NaN), so the interpreters and the GPU agree.
    for (const char* n : {"isnan", "isinf", "isfinite"}) {
        std::string name = n;
        def(name, [name](Elaborator& el, CallArgs& a) {
            a.expectPositional(1, 1);
            if (a.pos[0].isNumber()) {
                const double x = a.pos[0].asFloat();
                return Value::boolean(name == "isnan" ? std::isnan(x) : name == "isinf" ? std::isinf(x) : std::isfinite(x));
            }
            ir::Expr e = el.toExpr(a.pos[0], a.argSpan(0), "T." + name + "() argument");
            if (!ir::isFloat(e->dtype))  // an integer is finite
                return el.wrap(ir::boolImm(name == "isfinite", a.span));
            if (e->dtype != DType::Float64 && e->dtype != DType::Float32) e = ir::cast(DType::Float32, e, a.argSpan(0));
            if (name == "isnan") return el.wrap(ir::binary(ir::BinOp::Ne, e, e, a.span));
            ir::Expr mag = ir::call("abs", {e}, e->dtype, a.span), inf = ir::call("infinity", {}, e->dtype, a.span);
            return el.wrap(ir::binary(name == "isinf" ? ir::BinOp::Eq : ir::BinOp::Lt, mag, inf, a.span));
        });
    }
    auto select = [](Elaborator& el, CallArgs& a) {
        a.expectPositional(3, 3);
        if (auto t = el.truthOrDynamic(a.pos[0], a.argSpan(0))) return *t ? a.pos[1] : a.pos[2];
        ir::Expr c = el.condition(a.pos[0], a.argSpan(0));
        auto [x, y] = el.operands(a.pos[1], a.pos[2], a.span);
        return el.wrap(ir::select(c, x, y, a.span));
    };
    def("if_then_else", select);
    // TVM's T.Select(cond, a, b) evaluates both operands; the same select here (a load of the
    // arm not taken is not made, which only removes out-of-bounds reads TVM would make).
    def("Select", select);
    // T.assume(cond): a promise TileLang's simplifier may use (e.g. to drop bounds checks),
    // which TileScope's passes do not use. TileLang checks one that only reads launch values at
    // launch ("Assume: N % 4 == 0", its assume test); here that check is a device assert, which
    // the interpreters and the GPU report. Any other (per thread or element) is not checked: a
    // check there would cost what the promise is meant to save.
    def("assume", [](Elaborator& el, CallArgs& a) {
        a.expectPositional(1, 1);
        if (auto t = el.truthOrDynamic(a.pos[0], a.argSpan(0))) {
            if (!*t) throw CompileError(a.argSpan(0), "T.assume: the condition is False at compile time");
            return Value::none();
        }
        el.requireKernel(a.span, "T.assume");
        ir::Expr c = el.condition(a.pos[0], a.argSpan(0));
        if (el.isLaunchInvariant(c)) {
            std::string text = el.sourceText(a.argSpan(0));
            el.emit(ir::evaluate(ir::call(ir::intrin::kDeviceAssert,
                                          {c, std::make_shared<ir::StrImmNode>(
                                                  "Assume: " + (text.empty() ? ir::toString(c) : text), a.span)},
                                          ir::DType::Int32, a.span),
                                 a.span));
        }
        return Value::none();
    });
    def("infinity", [](Elaborator& el, CallArgs& a) {
        a.expectPositional(1, 1);
        DType t = el.dtypeArg(a.pos[0], a.argSpan(0), "T.infinity dtype");
        if (!ir::isFloat(t))
            throw CompileError(a.argSpan(0),
                               "T.infinity needs a floating-point dtype, got " +
                                   std::string(ir::dtypeName(t)) + " (integers have no infinity)",
                               "for an integer bound use the type's limit, e.g. 2147483647 for "
                               "int32");
        return el.wrap(ir::call("infinity", {}, t, a.span));
    });
    def("cast", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"value", "dtype"}, 2);
        DType t = el.dtypeArg(b[1], b.spans[1], "T.cast dtype");
        ir::Expr v = el.toExprLike(b[0], t, b.spans[0], "T.cast value");
        rejectPointer(el, v, b.spans[0], "T.cast");
        return el.wrap(ir::cast(t, v, a.span));
    });
    def("Cast", [](Elaborator& el, CallArgs& a) {  // TVM's spelling: T.Cast(dtype, value)
        auto b = a.bind({"dtype", "value"}, 2);
        DType t = el.dtypeArg(b[0], b.spans[0], "T.Cast dtype");
        ir::Expr v = el.toExprLike(b[1], t, b.spans[1], "T.Cast value");
        rejectPointer(el, v, b.spans[1], "T.Cast");
        return el.wrap(ir::cast(t, v, a.span));
    });
    // T.reinterpret(value, dtype): the value's bits read as dtype (a bit cast, same width), as
    // TileLang's tir.reinterpret. TileLang still accepts TVM's older order (dtype, value).
    def("reinterpret", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"value", "dtype"}, 2);
        int vi = 0, ti = 1;
        if (asDType(b[0]) && !asDType(b[1])) std::swap(vi, ti);
        // T.reinterpret(T.uint64(0), dtype="handle"): TVM's null handle, the third argument of
        // T.attr(..., "reduce_scope", ...) (ElaborateAllreduce.h); it carries no value.
        if (b[ti].is(ValueKind::Str) && b[ti].asStr() == "handle") return Value::none();
        DType t = el.dtypeArg(b[ti], b.spans[ti], "T.reinterpret dtype");
        ir::Expr e = el.toExpr(b[vi], b.spans[vi], "T.reinterpret value");
        rejectPointer(el, e, b.spans[vi], "T.reinterpret");
        auto bitCastable = [](DType d) {
            return (ir::isFloat(d) || ir::isInt(d)) && ir::dtypeBits(d) >= 8;
        };
        if (!bitCastable(t) || !bitCastable(e->dtype))
            throw CompileError(a.span,
                               "T.reinterpret from " + std::string(ir::dtypeName(e->dtype)) +
                                   " to " + std::string(ir::dtypeName(t)) +
                                   " is not supported: only scalar float and integer dtypes of "
                                   "8 to 64 bits can be bit cast",
                               "use T.cast for a value conversion");
        if (ir::dtypeBits(t) != ir::dtypeBits(e->dtype))
            throw CompileError(a.span,
                               "T.reinterpret keeps the width: the value is " +
                                   std::string(ir::dtypeName(e->dtype)) + " (" +
                                   std::to_string(ir::dtypeBits(e->dtype)) + " bits) but " +
                                   std::string(ir::dtypeName(t)) + " has " +
                                   std::to_string(ir::dtypeBits(t)) + " bits",
                               "T.cast the value to a " + std::to_string(ir::dtypeBits(t)) +
                                   "-bit dtype first");
        if (e->dtype == t) return el.wrap(e);
        return el.wrap(ir::call("reinterpret", {e}, t, a.span));
    });
    // T.floordiv / T.floormod: Python's `//` and `%` (floor semantics) as calls.
    for (auto [n, op] : {std::pair{"floordiv", ast::BinOpKind::FloorDiv},
                         std::pair{"floormod", ast::BinOpKind::Mod}}) {
        const ast::BinOpKind k = op;
        def(n, [k](Elaborator& el, CallArgs& a) {
            a.expectPositional(2, 2);
            return el.binaryOp(k, a.pos[0], a.pos[1], a.span);
        });
    }
    def("clamp", [](Elaborator& el, CallArgs& a) {  // T.clamp(x, lo, hi) = min(max(x, lo), hi)
        auto b = a.bind({"x", "min_val", "max_val"}, 3);
        CallArgs lo = a;
        lo.pos = {b[0], b[1]};
        lo.kw.clear();
        Value low = minMax(el, lo, true);
        CallArgs hi = a;
        hi.pos = {low, b[2]};
        hi.kw.clear();
        return minMax(el, hi, false);
    });
    // A compiler hint of TileLang's warp-specialized Hopper pipeline; nothing to do here.
    for (const char* hint : {"disable_warp_group_reg_alloc", "no_set_max_nreg"})
        def(hint, [](Elaborator&, CallArgs& a) {
            a.expectPositional(0, 0);
            return Value::none();
        });
    // T.sync_threads(barrier_id=None, arrive_count=None): __syncthreads, or the named barrier
    // bar.sync id, count that TileLang emits as tl::__sync_thread_partial.
    def("sync_threads", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"barrier_id", "arrive_count"}, 0);
        el.requireKernel(a.span, "T.sync_threads()");
        // The block barrier where not every thread arrives deadlocks the block: refused here, so
        // elaborated IR always passes the verifier's rule (check-bounds repeats the check, naming
        // the guard's line, for IR that does not come from the front end).
        if (!b.has(0) && !b.has(1) && el.threadDivergent())
            throw CompileError(a.span,
                               "T.sync_threads() inside thread-dependent control flow (an `if` or loop that "
                               "reads the thread index): a block barrier must be reached by every thread of "
                               "the block, or the block deadlocks",
                               "move T.sync_threads() to where every thread runs it, or synchronise only the "
                               "threads that take this path with a named barrier: "
                               "T.sync_threads(barrier_id, thread_count)");
        std::vector<ir::Expr> args;
        if (b.has(0)) args.push_back(el.toExpr(b[0], b.spans[0], "barrier id"));
        if (b.has(1)) args.push_back(el.toExpr(b[1], b.spans[1], "arrive count"));
        el.emit(ir::evaluate(ir::call("sync_threads", std::move(args), DType::Int32, a.span), a.span));
        return Value::none();
    });
    // T.named_barrier_arrive(barrier_id, arrive_count): bar.arrive id, count (does not wait).
    def("named_barrier_arrive", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"barrier_id", "arrive_count"}, 2);
        el.requireKernel(a.span, "T.named_barrier_arrive");
        std::vector<ir::Expr> args{el.toExpr(b[0], b.spans[0], "barrier id"),
                                   el.toExpr(b[1], b.spans[1], "arrive count")};
        el.emit(ir::evaluate(ir::call("named_barrier_arrive", std::move(args), DType::Int32, a.span),
                             a.span));
        return Value::none();
    });
    def("print", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"obj", "msg"}, 1);
        el.requireKernel(a.span, "T.print");
        std::string msg = b.has(1) ? str(b[1]) : "";
        if (auto* bv = b[0].extAs<BufferValue>(); bv && !bv->isVar) {
            // A whole buffer: print(element, msg, index...) for every element, in a T.Parallel
            // nest (a fragment's elements printed by the threads that hold them, a shared or
            // global tile's spread over the block) or, for a per-thread local array, a serial
            // one that every thread runs. TileLang prints shared tiles from one thread.
            const ir::Buffer& buf = bv->buffer;
            const Span sp = a.span;
            std::string shape;
            bool fixed = true;
            for (auto& e : buf->shape) shape += (shape.empty() ? "" : ", ") + ir::toString(e), fixed = fixed && ir::constInt(e);
            if (!fixed)
                throw CompileError(b.spans[0], "T.print of a whole buffer needs a shape known at compile time; '" + buf->name +
                                                       "' has shape (" + shape + ")",
                                       "print a tile of it (copy a block into a shared or fragment buffer) or one element: " +
                                           buf->name + "[i, j]");
            const std::string text = (msg.empty() ? "" : msg + " ") + buf->name;  // "msg s[i, j] value"
            std::vector<ir::Expr> args{nullptr, std::make_shared<ir::StrImmNode>(text, sp)};
            std::vector<ir::Var> vars;
            for (size_t d = 0; d < buf->shape.size(); ++d) {
                vars.push_back(ir::makeVar(el.uniqueName("print_i"), ir::DType::Int32, sp));
                args.push_back(vars.back());
            }
            args[0] = ir::load(buf, std::vector<ir::Expr>(args.begin() + 2, args.end()), sp);
            ir::Stmt body = ir::evaluate(ir::call("print", std::move(args), ir::DType::Int32, sp), sp);
            const auto kind = buf->scope == ir::Scope::Local ? ir::ForKind::Serial : ir::ForKind::Parallel;
            for (size_t d = buf->shape.size(); d-- > 0;)
                body = ir::forLoop(vars[d], ir::intImm(0, sp), buf->shape[d], kind, body, {}, sp);
            el.emit(body);
            return Value::none();
        }
        ir::Expr v = el.toExpr(b[0], b.spans[0], "T.print value");
        el.emit(ir::evaluate(ir::call("print", {v, std::make_shared<ir::StrImmNode>(msg, a.span)},
                                      DType::Int32, a.span),
                             a.span));
        return Value::none();
    });
    def("use_swizzle", [](Elaborator& el, CallArgs& a) {
        // TileLang: T.use_swizzle(panel_size, order="row", enable=True), a kernel-wide choice of
        // block rasterization (resources/ts_device/raster.cuh). Kept as a marker statement that
        // codegen turns into the block-index remap; the interpreters run every block anyway.
        auto b = a.bind({"panel_size", "order", "enable"}, 1);
        el.requireKernel(a.span, "T.use_swizzle");
        if (!b[0].isIntLike() || b[0].asInt() < 1)
            throw CompileError(b.spans[0], "T.use_swizzle: panel_size must be a compile-time integer >= 1, got " +
                                               typeName(b[0]),
                               "the number of block rows (order=\"row\") or columns (\"col\") walked together, e.g. 8");
        std::string order = "row";
        if (b.has(1) && !b[1].isNone()) {
            if (!b[1].is(ValueKind::Str) || (b[1].asStr() != "row" && b[1].asStr() != "col"))
                throw CompileError(b.spans[1], "T.use_swizzle: order must be \"row\" or \"col\"",
                                   "\"row\" walks panels of block rows, \"col\" panels of block columns");
            order = b[1].asStr();
        }
        // enable=False is kept as panel 0: the kernel opted out, so rasterize-blocks adds none.
        const bool enable = !b.has(2) || b[2].isNone() || el.truthy(b[2], b.spans[2]);
        el.emit(ir::evaluate(ir::call(ir::intrin::kUseSwizzle,
                                      {ir::intImm(enable ? b[0].asInt() : 0), std::make_shared<ir::StrImmNode>(order, a.span)},
                                      DType::Int32, a.span),
                             a.span));
        return Value::none();
    });
    def("dynamic", [](Elaborator& el, CallArgs& a) {
        // T.dynamic("n") is one symbolic size; T.dynamic("m, n") a tuple of them.
        auto b = a.bind({"name", "dtype"}, 1);
        DType t = b.has(1) && !b[1].isNone() ? el.dtypeArg(b[1], b.spans[1], a.callee + " dtype")
                                             : DType::Int32;
        if (!b[0].is(ValueKind::Str))
            throw CompileError(b.spans[0], a.callee + " takes the size's name as a string, got " +
                                               typeName(b[0]));
        if (!ir::isInt(t))
            throw CompileError(b.spans[1], a.callee + ": a symbolic size must have an integer "
                                                      "dtype, got " +
                                               std::string(ir::dtypeName(t)));
        std::vector<std::string> names = splitNames(b[0].asStr());
        if (names.empty())
            throw CompileError(b.spans[0], a.callee + " needs a name, e.g. T.dynamic(\"n\")");
        std::vector<Value> out;
        for (const auto& n : names) {
            if (!isIdentifier(n))
                throw CompileError(b.spans[0], a.callee + ": '" + n + "' is not a valid name");
            out.push_back(el.wrap(el.symbol(n, t, a.span)));
        }
        return out.size() == 1 ? out[0] : Value::tuple(std::move(out));
    });
    T->set("symbolic", *T->find("dynamic"));
    def("const", [](Elaborator& el, CallArgs& a) {
        a.expectPositional(1, 1);
        if (!el.eagerMode())
            throw CompileError(a.span,
                               "T.const is only available in eager kernels (a @tilelang.jit "
                               "function with tensor parameters)",
                               "in a factory, make the size a factory parameter");
        std::vector<Value> out;
        for (const auto& n : splitNames(str(a.pos[0]))) {
            const Value* v = findParam(el.bindings(), n);
            if (!v)
                throw CompileError(a.argSpan(0), "size '" + n + "' has no value",
                                   "pass --param " + n + "=<value>");
            out.push_back(*v);
        }
        if (out.size() == 1) return out[0];
        return Value::tuple(std::move(out));
    });
    def("empty", [](Elaborator& el, CallArgs& a) {
        if (!el.eagerMode())
            throw CompileError(a.span, "T.empty is only available in eager kernels");
        TensorType t;
        // TileLang's `empty(*shape, dtype=float32)`: T.empty((M, N), dtype), T.empty((M, N), "float16")
        // or the extents themselves, T.empty(M, N, dtype=A.dtype) (its eager_jit test).
        const bool extents = !a.pos.empty() && !a.pos[0].isSequence() &&
                             (a.pos.size() > 2 || (a.pos.size() == 2 && !a.pos[1].is(ValueKind::Str) && !a.pos[1].is(ValueKind::DType)));
        if (extents) {
            for (size_t i = 0; i < a.pos.size(); ++i) t.shape.push_back(el.extentArg(a.pos[i], a.argSpan(i), "T.empty extent"));
            a.pos.clear();
        }
        auto b = a.bind({"shape", "dtype"}, extents ? 0 : 1);
        if (!extents) t.shape = el.shapeArg(b[0], b.spans[0], "T.empty shape");
        const size_t dt = 1;
        t.dtype = b.has(dt) ? el.dtypeArg(b[dt], b.spans[dt], "T.empty dtype") : DType::Float32;
        std::string name = el.takePendingName();
        ir::Buffer buf = el.addParam(name.empty() ? "out" : name, t, a.span, true);
        return Value::ext(std::make_shared<BufferValue>(buf, false));
    });

    installLayouts();  // T.Layout, T.Fragment, T.annotate_layout, tilelang.layout
    installThreads();  // T.get_thread_binding, T.thread_binding, T.get_block_binding
    installViews();    // T.reshape, T.view (T.Tensor(shape, dtype, A.data): ElabValues.cpp)
    installBarriers();  // T.alloc_barrier, T.barrier_arrive/wait, T.mbarrier_*, T.ws, ...
    installPtx();       // T.access_ptr, T.ptx_cp_async, T.cp_async_barrier_noinc
    installRandom();    // T.rng_init, T.rng_rand, T.rng_rand_float (ElaborateRandom.cpp)
    registerDeviceAssert(*this);  // T.device_assert (ElaborateDeviceAssert.h)
    registerBitOps(*this);        // T.shift_left, T.bitwise_and, ... (ElaborateBitOps.h)
    registerMathLib(*this);       // T.erf, T.pow, T.round, T.__exp, T.ieee_add, ... (ElaborateMathLib.h)
    registerWarpShuffle(*this);   // T.tvm_warp_shuffle (ElaborateWarpShuffle.h)
    registerAllreduce(*this);       // T.attr reduce_scope + T.tvm_thread_allreduce
    registerExternDecoders(*this);  // T.import_source/access_ptr/call_extern (ElaborateExtern.h)
    registerPointers(*this);        // T.make_tensor, T.ptr (ElaboratePointers.h)

    // Registered names the IR cannot express yet: a clear "not supported" instead of "unknown".
    for (const auto& e : kLanguage) {
        std::string n(e.name);
        if (T->find(n)) continue;
        std::string hint =
            n == "import_source"
                ? "inline CUDA source cannot run on TileScope's interpreters; write the function "
                  "in the tile language"
            : n == "alloc_global"
                ? "pass the scratch tensor as a kernel parameter instead (e.g. `S: "
                  "T.Tensor((64,), \"float32\")`; the caller allocates it and `tilec run` "
                  "treats it as an output), or use T.alloc_shared / T.alloc_fragment for "
                  "scratch that lives within one block"
            : n == "atomic_load"
                ? "for an int32/uint32 flag, T.atomic_add(flag[i], 0, return_prev=True, memory_order=\"acquire\") reads it "
                  "with acquire order (one atom.acquire.gpu)"
            : n == "atomic_store"
                ? "for an int32/uint32 counter, publish with an ordered add: T.atomic_add(flag[i], delta, "
                  "memory_order=\"release\")"
            : e.kind == LangKind::Sync
                ? "Hopper (sm_90) synchronization and warp specialization are planned"
            : e.kind == LangKind::Layout ? "layouts are inferred meanwhile"
                                         : "";
        T->set(n, Value::builtin("T." + n, [n, hint](Interp&, CallArgs& a) -> Value {
                   throw CompileError(a.span, "T." + n + " is not supported by TileScope yet",
                                      hint);
               }));
    }
}

}  // namespace ts::fe::elab
