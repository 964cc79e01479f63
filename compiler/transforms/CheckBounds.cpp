// check-bounds: reports statically out-of-bounds regions and element accesses of on-chip
// buffers (shared, fragment, local). Global regions are not errors: copies predicate them
// (out-of-bounds source lanes read 0, destination lanes are skipped), which is what makes
// non-divisible problem sizes work.
// Requires: elaborated IR. Produces: diagnostics only (IR unchanged). Invalidates: nothing.
#include <sstream>

#include "compiler/ir/IR.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

std::string shapeText(const BufferNode& b) {
    std::string s = "(";
    for (size_t i = 0; i < b.shape.size(); ++i) s += (i ? ", " : "") + toString(b.shape[i]);
    return s + (b.shape.size() == 1 ? ",)" : ")");
}

void checkRegion(const Region& r, const std::string& op, DiagnosticEngine& diags, Span opSpan) {
    const BufferNode& b = *r.buffer;
    if (b.scope == Scope::Global) return;
    for (size_t d = 0; d < r.ranges.size() && d < b.shape.size(); ++d) {
        auto ext = constInt(r.ranges[d].extent), mn = constInt(r.ranges[d].min), dim = constInt(b.shape[d]);
        if (!dim || !ext) continue;
        bool bad = false;
        std::ostringstream why;
        if (mn && (*mn < 0 || *mn + *ext > *dim)) {
            bad = true;
            why << "[" << *mn << ":" << *mn + *ext << "] exceeds [0:" << *dim << "]";
        } else if (*ext > *dim) {
            bad = true;
            why << "extent " << *ext << " exceeds " << *dim;
        }
        if (!bad) continue;
        std::ostringstream msg;
        msg << "T." << op << ": region of '" << b.name << "' is out of bounds in dimension " << d << ": "
            << why.str() << " (" << scopeName(b.scope) << " buffer of shape " << shapeText(b) << ")";
        diags.error(r.span.valid() ? r.span : opSpan, msg.str(),
                    "on-chip buffers are not bounds-checked at run time; shrink the slice or enlarge '" + b.name + "'",
                    "check-bounds");
    }
}

void checkAccess(const BufferNode& b, const std::vector<Expr>& idx, Span span, DiagnosticEngine& diags) {
    if (b.scope == Scope::Global) return;
    for (size_t d = 0; d < idx.size() && d < b.shape.size(); ++d) {
        auto i = constInt(idx[d]), dim = constInt(b.shape[d]);
        if (i && dim && (*i < 0 || *i >= *dim)) {
            std::ostringstream msg;
            msg << "index " << *i << " is out of bounds for dimension " << d << " of '" << b.name << "' (shape "
                << shapeText(b) << ")";
            diags.error(span, msg.str(), "valid indices are 0.." + std::to_string(*dim - 1), "check-bounds");
        }
    }
}

std::string opName(const TileOpNode& n) {
    switch (n.op) {
        case TileOpKind::Fill: return attrBool(n.attrs, "clear", false) ? "clear" : "fill";
        case TileOpKind::Reduce: return "reduce_" + attrStr(n.attrs, "op", "sum");
        case TileOpKind::Atomic: return "atomic_" + attrStr(n.attrs, "op", "add");
        default: return tileOpName(n.op);
    }
}

}  // namespace

PrimFunc checkBounds(const PrimFunc& f, PassContext& ctx) {
    walk(
        f->body,
        [&](const Stmt& s) {
            if (auto* t = as<TileOpNode>(s)) {
                for (auto& a : t->args)
                    if (auto* r = std::get_if<Region>(&a)) checkRegion(*r, opName(*t), ctx.diags, t->span);
            } else if (auto* st = as<StoreNode>(s)) {
                checkAccess(*st->buffer, st->indices, st->span, ctx.diags);
            }
        },
        [&](const Expr& e) {
            if (auto* l = as<LoadNode>(e)) checkAccess(*l->buffer, l->indices, l->span, ctx.diags);
        });
    return f;
}

}  // namespace ts::xform
