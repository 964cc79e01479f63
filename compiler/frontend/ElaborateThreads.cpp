// Thread-level names of the T.* vocabulary: T.get_thread_binding(dim), T.get_thread_bindings(),
// T.thread_binding(start, stop, thread) used as a value, and T.get_block_binding(dim). They give
// the enclosing T.Kernel's own index variables (TileLang: the KernelLaunchFrame's thread and
// block vars), so code that uses them is thread-level (SIMT) code: every thread of the block
// runs it with its own index. Lowering keeps such code per thread as it is; the tile-level
// interpreter runs a kernel that reads a thread index thread by thread (Interpreter.h), and
// tile ops under a condition on the thread index are refused (lower-tile-ops), since TileScope
// lowers a tile op for the whole block.
#include "compiler/frontend/ElaborateOpsImpl.h"

namespace ts::fe::elab {

namespace {

const char* const kAxis[] = {"x", "y", "z"};

/// The `dim` argument (0, 1 or 2) of T.get_thread_binding / T.get_block_binding.
int dimArg(const CallArgs::Bound& b, const CallArgs& a) {
    if (!b.has(0)) return 0;
    if (!b[0].isIntLike() || b[0].asInt() < 0 || b[0].asInt() > 2)
        throw CompileError(b.spans[0], a.callee + ": dim must be 0, 1 or 2 (x, y or z), got " +
                                           (b[0].isIntLike() ? std::to_string(b[0].asInt())
                                                             : typeName(b[0])));
    return static_cast<int>(b[0].asInt());
}

/// threadIdx along `dim` of the enclosing kernel; 0 where the block has extent 1 there (CUDA's
/// threadIdx.y of a one-dimensional block).
Value threadIndex(Elaborator& el, int dim, Span s) {
    const auto& vars = el.kernelThreadVars();
    if (dim < static_cast<int>(vars.size())) return el.wrap(vars[dim]);
    return el.wrap(ir::intImm(0, s));
}

/// The thread index named by `tag` ("threadIdx.x", .y, .z) over [start, stop), which must span
/// the whole block dimension (TileScope does not launch sub-blocks); `callee` names the form.
Value boundThreadIndex(Elaborator& el, const std::string& callee, const Value& start, const Value& stop,
                       const std::string& tag, Span tagSpan, Span span) {
    int axis = -1;
    for (int d = 0; d < 3; ++d)
        if (tag == std::string("threadIdx.") + kAxis[d]) axis = d;
    if (axis < 0)
        throw CompileError(tagSpan, callee + ": '" + tag + "' is not a thread index",
                           "use threadIdx.x, threadIdx.y or threadIdx.z (block indices come "
                           "from T.Kernel's `as` names or T.get_block_binding)");
    if (!start.isIntLike() || !stop.isIntLike())
        throw CompileError(span, callee + ": the thread range must be compile-time integers");
    const auto& ext = el.kernelBlockExtents();
    const int64_t blockExt = axis < static_cast<int>(ext.size()) ? ext[axis] : 1;
    const int64_t count = stop.asInt() - start.asInt();
    if (count != blockExt)
        throw CompileError(span,
                           callee + " over " + std::to_string(count) + " threads of " + tag +
                               ", but the T.Kernel has " + std::to_string(blockExt) + " along " +
                               kAxis[axis],
                           "bind the whole block dimension, or use T.get_thread_binding() "
                           "and guard the code with an if");
    Value idx = threadIndex(el, axis, span);
    if (start.asInt() == 0) return idx;
    return el.wrap(ir::binary(ir::BinOp::Add, el.toExpr(idx, span, "thread index"),
                              ir::intImm(start.asInt(), span), span));
}

}  // namespace

void Elaborator::installThreads() {
    defineT("get_thread_binding", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"dim"}, 0);
        el.requireKernel(a.span, "T.get_thread_binding");
        return threadIndex(el, dimArg(b, a), a.span);
    });
    defineT("get_thread_bindings", [](Elaborator& el, CallArgs& a) {
        a.expectPositional(0, 0);
        el.requireKernel(a.span, "T.get_thread_bindings");
        std::vector<Value> out;
        for (int d = 0; d < 3; ++d) out.push_back(threadIndex(el, d, a.span));
        return Value::tuple(std::move(out));
    });
    defineT("get_block_binding", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"dim"}, 0);
        el.requireKernel(a.span, "T.get_block_binding");
        int d = dimArg(b, a);
        const auto& vars = el.kernelBlockVars();
        if (d < static_cast<int>(vars.size())) return el.wrap(vars[d]);
        return el.wrap(ir::intImm(0, a.span));
    });
    // `tx = T.thread_binding(0, threads, thread="threadIdx.x")` (TVM's thread-bound loop used as
    // a value, also spelled T.thread_binding(threads, "threadIdx.x")): the kernel's own thread
    // index, which must span the whole block dimension (TileScope does not launch sub-blocks).
    defineT("thread_binding", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"start", "stop", "thread"}, 1);
        el.requireKernel(a.span, "T.thread_binding");
        Value start = b[0], stop = b.has(1) ? b[1] : Value::none();
        Value thread = b.has(2) ? b[2] : Value::none();
        Span threadSpan = b.has(2) ? b.spans[2] : a.span;
        if (stop.is(ValueKind::Str) && thread.isNone()) {
            thread = stop;
            threadSpan = b.spans[1];
            stop = Value::none();
        }
        if (stop.isNone()) stop = start, start = Value::integer(0);
        if (!thread.is(ValueKind::Str))
            throw CompileError(a.span, "T.thread_binding needs thread=\"threadIdx.x\" (or .y, .z)");
        return boundThreadIndex(el, "T.thread_binding", start, stop, thread.asStr(), threadSpan, a.span);
    });
    // `tx = T.launch_thread("threadIdx.x", 256)` inside a T.Kernel (TVM's launch_thread as TileLang
    // keeps it): the kernel's own thread index, over the whole block dimension like thread_binding.
    defineT("launch_thread", [](Elaborator& el, CallArgs& a) {
        auto b = a.bind({"thread", "extent"}, 2);
        el.requireKernel(a.span, "T.launch_thread");
        if (!b[0].is(ValueKind::Str))
            throw CompileError(b.spans[0], "T.launch_thread needs the thread's name first: "
                                           "T.launch_thread(\"threadIdx.x\", extent)");
        return boundThreadIndex(el, "T.launch_thread", Value::integer(0), b[1], b[0].asStr(), b.spans[0],
                                a.span);
    });
}

}  // namespace ts::fe::elab
