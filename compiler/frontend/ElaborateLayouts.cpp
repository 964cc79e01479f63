// The layout half of the T.* vocabulary (LANGUAGE.md §3 "layout"): T.annotate_layout,
// tilelang.layout.make_swizzled_layout, and user layouts T.Layout(shape, fn) /
// T.Fragment(shape, forward_thread_fn=, forward_index_fn=, replicate=).
//
// A user layout's lambdas are called once, at compile time, on fresh index Vars, which turns
// them into IR expressions (the same arithmetic the kernel body uses). Nothing is checked at
// that point: whether a map is valid depends on the buffer it is annotated on (its dtype, and
// for fragments the enclosing kernel's thread count), so T.annotate_layout hands the spec to
// analysis/UserLayouts.h, whose errors point at the T.Layout / T.Fragment call.
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/frontend/ElaborateMmaLayouts.h"
#include "compiler/frontend/ElaborateOpsImpl.h"

namespace ts::fe::elab {

namespace {

std::string plural(size_t n, const std::string& w) {
    return std::to_string(n) + " " + w + (n == 1 ? "" : "s");
}

std::string shapeText(const std::vector<int64_t>& s) {
    std::string t = "(";
    for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + (s.size() == 1 ? ",)" : ")");
}

std::vector<int64_t> constantShape(Elaborator& el, const Value& v, Span s, const std::string& fn) {
    std::vector<int64_t> out;
    for (auto& e : el.shapeArg(v, s, fn + " shape")) {
        auto c = ir::constInt(e);
        if (!c || *c <= 0)
            throw CompileError(s, fn + ": the shape must be positive compile-time constants",
                               "use meta parameters (factory arguments) for the extents");
        out.push_back(*c);
    }
    if (out.empty()) throw CompileError(s, fn + ": the shape must have at least one dimension");
    return out;
}

std::string argList(const std::vector<ir::Var>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i]->name;
    return s;
}

// Calls a user map on `args` (Vars) and returns its outputs (a scalar, or a list/tuple of them)
// as integer IR expressions.
std::vector<ir::Expr> callMap(Elaborator& el, const Value& fn, Span fnSpan,
                              const std::vector<ir::Var>& args, const std::string& what,
                              const std::string& argHint) {
    if (fn.is(ValueKind::Function)) {
        size_t n = 0;
        bool varargs = false;
        for (auto& p : fn.functionObj().params()) {
            if (p.kind == ast::ParamKind::Normal)
                ++n;
            else
                varargs = true;
        }
        if (!varargs && n != args.size())
            throw CompileError(fnSpan,
                               what + " takes " + plural(n, "argument") + ", but needs " +
                                   plural(args.size(), "argument") + ": " + argHint,
                               "write it as lambda " + argList(args) + ": ...");
    } else if (!fn.is(ValueKind::Builtin)) {
        throw CompileError(fnSpan,
                           what + " must be a function (a lambda or def), got " + typeName(fn));
    }
    CallArgs ca;
    for (auto& v : args) {
        ca.pos.push_back(el.wrap(v));
        ca.posSpans.push_back(fnSpan);
    }
    ca.span = fnSpan;
    ca.callee = what;
    Value res = el.call(fn, ca);
    std::vector<Value> items = res.isSequence() ? res.items() : std::vector<Value>{res};
    if (items.empty()) throw CompileError(fnSpan, what + " returned an empty list");
    std::vector<ir::Expr> out;
    for (auto& v : items) {
        ir::Expr e = v.isIntLike() ? ir::intImm(v.asInt()) : el.toExpr(v, fnSpan, what + " result");
        if (ir::isFloat(e->dtype))
            throw CompileError(fnSpan, what + " must return integer indices, got a float",
                               "use // instead of / for integer division");
        out.push_back(e);
    }
    return out;
}

std::vector<ir::Var> indexVars(const Value& fn, size_t rank, Span s) {
    static const char* kNames[] = {"i", "j", "k", "l"};
    std::vector<ir::Var> vars;
    for (size_t d = 0; d < rank; ++d) {
        std::string name = kNames[d % 4];
        if (fn.is(ValueKind::Function) && d < fn.functionObj().params().size())
            name = fn.functionObj().params()[d].name;
        vars.push_back(ir::makeVar(name, ir::DType::Int32, s));
    }
    return vars;
}

Value makeUserLayout(Elaborator& el, CallArgs& a) {
    auto b = a.bind({"shape", "forward_fn"}, 2);
    auto spec = std::make_shared<analysis::UserLayoutSpec>();
    spec->shape = constantShape(el, b[0], b.spans[0], "T.Layout");
    spec->span = a.span;
    spec->inputs = indexVars(b[1], spec->shape.size(), b.spans[1]);
    spec->index = callMap(
        el, b[1], b.spans[1], spec->inputs, "the T.Layout index map",
        "one per dimension of " + shapeText(spec->shape) + " (" + argList(spec->inputs) + ")");
    return Value::ext(std::make_shared<LayoutValue>(spec));
}

Value makeUserFragment(Elaborator& el, CallArgs& a) {
    auto b =
        a.bind({"shape", "forward_fn", "forward_thread_fn", "replicate", "forward_index_fn"}, 1);
    auto spec = std::make_shared<analysis::UserLayoutSpec>();
    spec->fragment = true;
    spec->shape = constantShape(el, b[0], b.spans[0], "T.Fragment");
    spec->span = a.span;
    if (b.has(1))
        throw CompileError(b.spans[1],
                           "T.Fragment(forward_fn=...) is not supported by TileScope yet",
                           "give the maps separately: forward_thread_fn=lambda i, j: ..., "
                           "forward_index_fn=lambda i, j: ...");
    if (!b.has(2) || !b.has(4))
        throw CompileError(
            a.span, "T.Fragment needs forward_thread_fn and forward_index_fn",
            "e.g. T.Fragment((16, 16), forward_thread_fn=lambda i, j: i * 8 + j // 2, "
            "forward_index_fn=lambda i, j: j % 2)");
    Value rep = b.get(3, Value::integer(1));
    if (!rep.isIntLike() || rep.asInt() < 1)
        throw CompileError(b.has(3) ? b.spans[3] : a.span,
                           "T.Fragment: replicate must be a positive integer constant");
    spec->replicate = rep.asInt();
    spec->inputs = indexVars(b[4], spec->shape.size(), b.spans[4]);
    std::vector<ir::Var> threadArgs = spec->inputs;
    if (spec->replicate > 1) {
        spec->rep = ir::makeVar("rep", ir::DType::Int32, b.spans[2]);
        threadArgs.push_back(spec->rep);
    }
    std::string shapeDims = "one per dimension of " + shapeText(spec->shape);
    spec->thread = callMap(el, b[2], b.spans[2], threadArgs, "forward_thread_fn",
                           shapeDims + (spec->replicate > 1 ? " plus the replica index" : "") +
                               " (" + argList(threadArgs) + ")")[0];
    spec->index = callMap(el, b[4], b.spans[4], spec->inputs, "forward_index_fn",
                          shapeDims + " (" + argList(spec->inputs) + ")");
    return Value::ext(std::make_shared<LayoutValue>(spec));
}

// Checks a user layout against the buffer it annotates and finishes it (analysis/UserLayouts.h).
ir::Layout finishUserLayout(Elaborator& el, const analysis::UserLayoutSpec& spec,
                            const ir::Buffer& buf, Span entrySpan) {
    const char* fn = spec.fragment ? "T.Fragment" : "T.Layout";
    if (spec.fragment && buf->scope != ir::Scope::Fragment)
        throw CompileError(entrySpan,
                           "T.annotate_layout: '" + buf->name +
                               "' is not a fragment, but its layout is a T.Fragment",
                           "use T.Layout(shape, lambda i, j: ...) for shared buffers");
    if (!spec.fragment && buf->scope != ir::Scope::Shared)
        throw CompileError(
            entrySpan,
            "T.annotate_layout: T.Layout applies to shared buffers, '" + buf->name + "' is not one",
            buf->scope == ir::Scope::Fragment ? "fragments need a thread map: T.Fragment(shape, "
                                                "forward_thread_fn=..., forward_index_fn=...)"
                                              : "");
    auto shape = ir::constShape(*buf);
    if (!shape || *shape != spec.shape)
        throw CompileError(entrySpan,
                           std::string("T.annotate_layout: the ") + fn + " has shape " +
                               shapeText(spec.shape) + " but '" + buf->name + "' has shape " +
                               (shape ? shapeText(*shape) : std::string("(non-constant)")),
                           "build the layout with the buffer's shape");
    int elt = ir::dtypeBytes(buf->dtype);
    analysis::UserLayoutResult r;
    if (spec.fragment) {
        int64_t threads = el.kernelThreads();
        if (threads <= 0)
            throw CompileError(entrySpan,
                               "T.annotate_layout with a T.Fragment must be inside T.Kernel",
                               "the fragment's threads are the kernel's");
        r = analysis::buildUserFragment(spec, threads, elt, buf->name);
    } else {
        r = analysis::buildUserShared(spec, elt, buf->name);
    }
    if (!r.layout) throw CompileError(spec.span, r.error, r.hint);
    return r.layout;
}

}  // namespace

void Elaborator::installLayouts() {
    auto T = module("tilelang.language");
    auto def = [this](const std::string& n, std::function<Value(Elaborator&, CallArgs&)> fn) {
        defineT(n, std::move(fn));
    };
    def("Layout", makeUserLayout);
    def("Fragment", makeUserFragment);
    def("annotate_layout", [](Elaborator& el, CallArgs& a) {
        a.expectPositional(1, 1);
        if (!a.pos[0].is(ValueKind::Dict))
            throw CompileError(a.argSpan(0), "T.annotate_layout expects a dict {buffer: layout}");
        for (const auto& [k, v] : a.pos[0].dictObj().entries) {
            auto* buf = k.extAs<BufferValue>();
            auto* lay = v.extAs<LayoutValue>();
            if (!buf || !lay)
                throw CompileError(
                    a.argSpan(0),
                    "T.annotate_layout: each entry must map a buffer to a layout, got " +
                        typeName(k) + ": " + typeName(v),
                    "use T.Layout / T.Fragment, or tilelang.layout.make_swizzled_layout(buf) "
                    "for shared tiles");
            if (buf->buffer->scope == ir::Scope::Global) {
                // TileLang reorders a global accumulator (dQ) so that its atomics coalesce; the
                // kernels reading it annotate the same layout, so row-major order in all of
                // them computes the same values.
                el.diags().warning(a.argSpan(0),
                                   "T.annotate_layout of global tensor '" + buf->buffer->name +
                                       "' is ignored: global tensors are row-major in TileScope",
                                   "results are unchanged; only the memory order of '" +
                                       buf->buffer->name + "' differs from TileLang's",
                                   "elaborate");
                continue;
            }
            if (lay->spec) {
                el.setLayout(buf->buffer->name,
                             finishUserLayout(el, *lay->spec, buf->buffer, a.argSpan(0)), a.span);
                continue;
            }
            bool frag = lay->layout->kind == ir::LayoutKind::Fragment;
            if (frag != (buf->buffer->scope == ir::Scope::Fragment))
                throw CompileError(a.argSpan(0), "T.annotate_layout: the layout of '" +
                                                     buf->buffer->name + "' is for " +
                                                     (frag ? "fragments" : "shared tiles"));
            el.setLayout(buf->buffer->name, lay->layout, a.span);
        }
        return Value::none();
    });

    // tilelang.layout: the swizzle helper, and the user layouts under their module names too.
    auto layout = registerModule("tilelang.layout");
    layout->set("Layout", *T->find("Layout"));
    layout->set("Fragment", *T->find("Fragment"));
    layout->set(
        "make_swizzled_layout", Value::builtin("make_swizzled_layout", [](Interp& in, CallArgs& a) {
            a.callee = "make_swizzled_layout";
            a.expectPositional(1, 1);
            auto* buf = a.pos[0].extAs<BufferValue>();
            if (!buf || buf->buffer->scope != ir::Scope::Shared)
                throw CompileError(a.argSpan(0),
                                   "make_swizzled_layout expects a shared-memory buffer");
            auto shape = ir::constShape(*buf->buffer);
            if (!shape || shape->size() < 2)
                throw CompileError(
                    a.argSpan(0),
                    "make_swizzled_layout needs a tile of rank 2 or more with constant extents");
            int elt = ir::dtypeBytes(buf->buffer->dtype);
            int64_t rows = 1;
            for (size_t i = 0; i + 1 < shape->size(); ++i) rows *= (*shape)[i];
            int mode = analysis::chooseSwizzleMode(shape->back() * elt, rows);
            return Value::ext(
                std::make_shared<LayoutValue>(analysis::makeSharedLayout(*shape, elt, mode)));
        }));
    registerMmaSwizzleLayout(*this);  // tilelang.cuda.intrinsics (ElaborateMmaLayouts.h)
}

}  // namespace ts::fe::elab
