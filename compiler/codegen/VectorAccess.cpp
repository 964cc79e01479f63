#include "compiler/codegen/VectorAccess.h"

#include <cstdlib>
#include <functional>
#include <string>
#include <numeric>
#include <optional>
#include <set>

#include "compiler/ir/Builder.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::codegen {
using namespace ts::ir;

namespace {

bool mentions(const Expr& e, const VarNode* v) {
    if (!e) return false;
    switch (e->kind) {
        case ExprKind::Var: return e.get() == v;
        case ExprKind::Binary: {
            auto* b = static_cast<const BinaryNode*>(e.get());
            return mentions(b->a, v) || mentions(b->b, v);
        }
        case ExprKind::Unary: return mentions(static_cast<const UnaryNode*>(e.get())->a, v);
        case ExprKind::Select: {
            auto* s = static_cast<const SelectNode*>(e.get());
            return mentions(s->cond, v) || mentions(s->t, v) || mentions(s->f, v);
        }
        case ExprKind::Cast: return mentions(static_cast<const CastNode*>(e.get())->value, v);
        case ExprKind::Call:
            for (auto& a : static_cast<const CallNode*>(e.get())->args)
                if (mentions(a, v)) return true;
            return false;
        case ExprKind::Load:
            for (auto& a : static_cast<const LoadNode*>(e.get())->indices)
                if (mentions(a, v)) return true;
            return false;
        default: return false;
    }
}

// Value of an integer expression of the loop variable alone (nullopt: it depends on something else).
std::optional<int64_t> evalAt(const Expr& e, const VarNode* v, int64_t r) {
    if (auto c = constInt(e)) return c;
    if (e.get() == v) return r;
    auto* b = as<BinaryNode>(e);
    if (!b) return std::nullopt;
    auto x = evalAt(b->a, v, r), y = evalAt(b->b, v, r);
    if (!x || !y) return std::nullopt;
    return foldInt(b->op, *x, *y);
}

// Terms of a sum, each with a constant factor: (row + j) * 1024 + col flattens to
// row*1024 + j*1024 + col, so a row index that mixes thread and loop parts still splits.
void flattenAdd(const Expr& e, int64_t scale, std::vector<std::pair<Expr, int64_t>>& terms) {
    if (auto* b = as<BinaryNode>(e)) {
        if (b->op == BinOp::Add) {
            flattenAdd(b->a, scale, terms);
            flattenAdd(b->b, scale, terms);
            return;
        }
        if (b->op == BinOp::Mul) {
            if (auto c = constInt(b->b)) return flattenAdd(b->a, scale * *c, terms);
            if (auto c = constInt(b->a)) return flattenAdd(b->b, scale * *c, terms);
        }
    }
    terms.push_back({e, scale});
}

// `e` = g(r) + h with g of r alone and h free of r; true when, for every group k of `width`
// iterations, g(width*k + l) = g(width*k) + l and g(width*k) + h is a multiple of `width`.
enum class GroupShape { Other, Constant, ContiguousAligned };

// How `e` = g(r) + h (g of r alone, h free of r) varies over each group k of `width` iterations:
// Constant when g(width*k + l) = g(width*k) for every l < width (a row index above the columns);
// ContiguousAligned when g(width*k + l) = g(width*k) + l and g(width*k) + h is a multiple of
// `width` (h's known divisor, e.g. tx*8 + bx*4096); Other otherwise.
GroupShape groupShape(const Expr& e, const VarNode* r, int64_t extent, int64_t width) {
    std::vector<std::pair<Expr, int64_t>> terms, gTerms;
    flattenAdd(e, 1, terms);
    int64_t hDiv = 0;
    for (auto& t : terms) {
        if (!mentions(t.first, r)) hDiv = std::gcd(hDiv, knownDivisor(t.first) * (t.second < 0 ? -t.second : t.second));
        else gTerms.push_back(t);
    }
    if (gTerms.empty()) return GroupShape::Constant;
    auto g = [&](int64_t at) -> std::optional<int64_t> {
        int64_t s = 0;
        for (auto& [t, scale] : gTerms) {
            auto x = evalAt(t, r, at);
            if (!x) return std::nullopt;
            s += *x * scale;
        }
        return s;
    };
    bool constant = true, contiguous = hDiv % width == 0;
    for (int64_t k = 0; k < extent / width && (constant || contiguous); ++k) {
        auto base = g(k * width);
        if (!base) return GroupShape::Other;
        if (((*base % width) + width) % width != 0) contiguous = false;
        for (int64_t l = 1; l < width; ++l) {
            auto x = g(k * width + l);
            if (!x) return GroupShape::Other;
            if (*x != *base) constant = false;
            if (*x != *base + l) contiguous = false;
        }
    }
    return constant ? GroupShape::Constant : contiguous ? GroupShape::ContiguousAligned : GroupShape::Other;
}

bool contiguousAligned(const Expr& e, const VarNode* r, int64_t extent, int64_t width) {
    return mentions(e, r) && groupShape(e, r, extent, width) == GroupShape::ContiguousAligned;
}

// A guard is uniform over each group when each conjunct is free of r, or reads `a < C` with `a`
// constant over the group, or contiguous and aligned with C a multiple of the width: then
// a(wk + l) = a(wk) + l and a(wk) < C exactly when a(wk) + l < C for l < width.
bool uniformGuard(const Expr& cond, const VarNode* r, int64_t extent, int64_t width) {
    if (!mentions(cond, r)) return true;
    auto* b = as<BinaryNode>(cond);
    if (!b) return false;
    if (b->op == BinOp::And)
        return uniformGuard(b->a, r, extent, width) && uniformGuard(b->b, r, extent, width);
    if (b->op != BinOp::Lt || mentions(b->b, r)) return false;
    auto shape = groupShape(b->a, r, extent, width);
    return shape == GroupShape::Constant || (shape == GroupShape::ContiguousAligned && knownDivisor(b->b) % width == 0);
}

// Same expression tree (the guarded-load Select of a ragged copy repeats the If's condition).
bool sameExpr(const Expr& x, const Expr& y) {
    if (x.get() == y.get()) return true;
    if (!x || !y || x->kind != y->kind || x->dtype != y->dtype) return false;
    auto all = [](const std::vector<Expr>& a, const std::vector<Expr>& b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!sameExpr(a[i], b[i])) return false;
        return true;
    };
    switch (x->kind) {
        case ExprKind::IntImm: return constInt(x) == constInt(y);
        case ExprKind::Binary: {
            auto *a = static_cast<const BinaryNode*>(x.get()), *b = static_cast<const BinaryNode*>(y.get());
            return a->op == b->op && sameExpr(a->a, b->a) && sameExpr(a->b, b->b);
        }
        case ExprKind::Unary: {
            auto *a = static_cast<const UnaryNode*>(x.get()), *b = static_cast<const UnaryNode*>(y.get());
            return a->op == b->op && sameExpr(a->a, b->a);
        }
        case ExprKind::Cast:
            return sameExpr(static_cast<const CastNode*>(x.get())->value, static_cast<const CastNode*>(y.get())->value);
        case ExprKind::Load: {
            auto *a = static_cast<const LoadNode*>(x.get()), *b = static_cast<const LoadNode*>(y.get());
            return a->buffer == b->buffer && all(a->indices, b->indices);
        }
        default: return false;  // Var handled by identity; others never appear in a bounds guard
    }
}

// A global load of the body: `conditional` when it may be skipped in a way the widening cannot
// follow (never widened); `select` the condition of the one Select arm it sits in (other than
// the loop's guard), widened only when that condition is uniform over each group.
struct BodyLoad {
    const LoadNode* load;
    bool conditional;
    Expr select;
};

void globalLoads(const Expr& e, const Expr& guard, bool conditional, const Expr& select, std::vector<BodyLoad>& out) {
    if (!e) return;
    switch (e->kind) {
        case ExprKind::Binary: {
            auto* b = static_cast<const BinaryNode*>(e.get());
            // && and || short-circuit in C: their right operand is conditional.
            bool sc = b->op == BinOp::And || b->op == BinOp::Or;
            globalLoads(b->a, guard, conditional, select, out);
            globalLoads(b->b, guard, conditional || sc, select, out);
            break;
        }
        case ExprKind::Unary: globalLoads(static_cast<const UnaryNode*>(e.get())->a, guard, conditional, select, out); break;
        case ExprKind::Cast: globalLoads(static_cast<const CastNode*>(e.get())->value, guard, conditional, select, out); break;
        case ExprKind::Select: {
            auto* s = static_cast<const SelectNode*>(e.get());
            globalLoads(s->cond, guard, conditional, select, out);
            if (guard && sameExpr(s->cond, guard)) globalLoads(s->t, guard, conditional, select, out);
            else globalLoads(s->t, guard, conditional || select, s->cond, out);  // one Select level at most
            globalLoads(s->f, guard, true, select, out);
            break;
        }
        case ExprKind::Call:
            for (auto& a : static_cast<const CallNode*>(e.get())->args) globalLoads(a, guard, true, select, out);
            break;
        case ExprKind::Load: {
            auto* l = static_cast<const LoadNode*>(e.get());
            for (auto& i : l->indices) globalLoads(i, guard, true, select, out);
            if (l->buffer->scope == Scope::Global && l->indices.size() == 1) out.push_back({l, conditional, select});
            break;
        }
        default: break;
    }
}

}  // namespace

int64_t knownDivisor(const Expr& e) {
    if (auto c = constInt(e)) return *c < 0 ? -*c : *c;
    auto* b = as<BinaryNode>(e);
    if (!b) return 1;
    switch (b->op) {
        case BinOp::Mul: return knownDivisor(b->a) * knownDivisor(b->b);
        case BinOp::Add:
        case BinOp::Sub: return std::gcd(knownDivisor(b->a), knownDivisor(b->b));
        default: return 1;
    }
}

VectorLoopPlan planVectorLoop(const ForNode& loop) {
    VectorLoopPlan none;
    auto mn = constInt(loop.min), ext = constInt(loop.extent);
    if (loop.forKind != ForKind::Unrolled || !mn || *mn != 0 || !ext || *ext < 2) return none;
    const VarNode* r = loop.var.get();
    Expr guard;
    Stmt element = loop.body;
    if (auto* i = dynamic_cast<const IfNode*>(loop.body.get()); i && !i->otherwise) guard = i->cond, element = i->then;
    auto* st = dynamic_cast<const StoreNode*>(element.get());
    if (!st || st->indices.size() != 1) return none;
    std::vector<BodyLoad> loads;
    globalLoads(st->value, guard, false, nullptr, loads);
    for (auto& i : st->indices) globalLoads(i, guard, true, nullptr, loads);
    if (guard) globalLoads(guard, nullptr, true, nullptr, loads);
    const bool globalStore = st->buffer->scope == Scope::Global;
    if (globalStore)
        for (auto& l : loads)
            if (l.load->buffer == st->buffer) return none;  // read-modify-write of one tensor: keep scalar
    for (int64_t width = 8; width >= 2; width /= 2) {
        if (*ext % width != 0) continue;
        if (guard && !uniformGuard(guard, r, *ext, width)) continue;
        VectorLoopPlan p;
        p.width = width, p.guard = guard, p.element = element;
        auto fits = [&](const BufferNode& b, const Expr& idx) {
            // 4-bit elements are packed two per byte: accessed one nibble at a time.
            return dtypeBits(b.dtype) >= 8 && dtypeBytes(b.dtype) * width <= 16 && contiguousAligned(idx, r, *ext, width);
        };
        if (globalStore && fits(*st->buffer, st->indices[0]))
            p.accesses.push_back({st->buffer.get(), nullptr, st, st->indices[0], nullptr});
        for (auto& l : loads)
            if (!l.conditional && mentions(l.load->indices[0], r) && fits(*l.load->buffer, l.load->indices[0]) &&
                (!l.select || uniformGuard(l.select, r, *ext, width)))
                p.accesses.push_back({l.load->buffer.get(), l.load, nullptr, l.load->indices[0], l.select});
        if (!p.accesses.empty()) return p;
    }
    return none;
}

VectorAtomicPlan planVectorAtomic(const ForNode& loop) {
    VectorAtomicPlan none;
    // TILESCOPE_VECTOR_ATOMICS=0 keeps scalar atomics (A/B measurement on the device).
    if (const char* e = std::getenv("TILESCOPE_VECTOR_ATOMICS"); e && std::string(e) == "0") return none;
    auto mn = constInt(loop.min), ext = constInt(loop.extent);
    if (loop.forKind != ForKind::Unrolled || !mn || *mn != 0 || !ext || *ext < 2) return none;
    const VarNode* r = loop.var.get();
    Expr guard;
    Stmt element = loop.body;
    if (auto* i = dynamic_cast<const IfNode*>(loop.body.get()); i && !i->otherwise) guard = i->cond, element = i->then;
    auto* ev = dynamic_cast<const EvalNode*>(element.get());
    auto* c = ev ? as<CallNode>(ev->call) : nullptr;
    if (!c || c->op != intrin::kAtomic || c->args.size() != 3) return none;
    auto* opName = as<StrImmNode>(c->args[0]);
    auto* addr = as<CallNode>(c->args[1]);
    if (!opName || opName->value != "add" || !addr || addr->op != intrin::kAddressOf || addr->args.size() != 1) return none;
    auto* ld = as<LoadNode>(addr->args[0]);
    if (!ld || ld->indices.size() != 1 || ld->buffer->scope != Scope::Global || ld->buffer->dtype != DType::Float32) return none;
    // The value must not read the destination (its widened evaluation would reorder that read).
    std::vector<BodyLoad> loads;
    globalLoads(c->args[2], nullptr, false, nullptr, loads);
    for (auto& l : loads)
        if (l.load->buffer == ld->buffer) return none;
    for (int64_t width = 4; width >= 2; width /= 2) {
        if (*ext % width != 0) continue;
        if (guard && !uniformGuard(guard, r, *ext, width)) continue;
        if (!contiguousAligned(ld->indices[0], r, *ext, width)) continue;
        VectorAtomicPlan p;
        p.width = width, p.guard = guard, p.buffer = ld->buffer.get(), p.index = ld->indices[0], p.value = c->args[2];
        return p;
    }
    return none;
}

}  // namespace ts::codegen
