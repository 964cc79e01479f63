#include "compiler/codegen/VectorAccess.h"

#include <cstdlib>
#include <functional>
#include <string>
#include <numeric>
#include <optional>
#include <set>

#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
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

// Whether `s` loads from buffer `b` anywhere (values, indices, guards).
bool readsBuffer(const Stmt& s, const BufferNode* b) {
    bool found = false;
    std::function<void(const Expr&)> ex = [&](const Expr& e) {
        if (!e || found) return;
        switch (e->kind) {
            case ExprKind::Load: {
                auto* l = static_cast<const LoadNode*>(e.get());
                if (l->buffer.get() == b) found = true;
                for (auto& i : l->indices) ex(i);
                return;
            }
            case ExprKind::Binary: {
                auto* x = static_cast<const BinaryNode*>(e.get());
                ex(x->a), ex(x->b);
                return;
            }
            case ExprKind::Unary: return ex(static_cast<const UnaryNode*>(e.get())->a);
            case ExprKind::Cast: return ex(static_cast<const CastNode*>(e.get())->value);
            case ExprKind::Select: {
                auto* x = static_cast<const SelectNode*>(e.get());
                ex(x->cond), ex(x->t), ex(x->f);
                return;
            }
            case ExprKind::Call:
                for (auto& a : static_cast<const CallNode*>(e.get())->args) ex(a);
                return;
            default: return;
        }
    };
    if (auto* i = dynamic_cast<const IfNode*>(s.get())) {
        ex(i->cond);
        return found || readsBuffer(i->then, b) || (i->otherwise && readsBuffer(i->otherwise, b));
    }
    if (auto* st = dynamic_cast<const StoreNode*>(s.get())) {
        ex(st->value);
        for (auto& i : st->indices) ex(i);
        return found;
    }
    return true;  // anything else: assume it may
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
bool constantOverGroups(const Expr& e, const VarNode* r, int64_t extent, int64_t width);

GroupShape groupShape(const Expr& e, const VarNode* r, int64_t extent, int64_t width) {
    std::vector<std::pair<Expr, int64_t>> terms, gTerms;
    flattenAdd(e, 1, terms);
    int64_t hDiv = 0;
    int xors = 0;
    for (auto& t : terms) {
        if (!mentions(t.first, r)) {
            hDiv = std::gcd(hDiv, knownDivisor(t.first) * (t.second < 0 ? -t.second : t.second));
            continue;
        }
        // A swizzled column, a ^ b with b constant over each group and a multiple of the width
        // (the 128-byte swizzle of a wgmma/mma operand tile: col ^ (row % 8) * 8): when a is
        // contiguous and aligned over each group, so is a ^ b (the group's low bits are a's, b only
        // moves the group). At most one such term, with factor 1, beside terms constant over each group.
        auto* x = as<BinaryNode>(t.first);
        if (x && x->op == BinOp::BitXor && t.second == 1) {
            const bool left = mentions(x->a, r);
            const Expr &a = left ? x->a : x->b, &b = left ? x->b : x->a;
            if (!constantOverGroups(b, r, extent, width) || knownDivisor(b) % width != 0 ||
                groupShape(a, r, extent, width) != GroupShape::ContiguousAligned)
                return GroupShape::Other;
            ++xors;
            continue;
        }
        // Terms that mix r with thread or block indices (a swizzled layout's column panel and
        // in-panel column: (c % 64) ^ key, (c / 64) * rows*64 with c = g(r) + h): for v = c at a
        // group's first iteration, a multiple of the width, and M, D multiples of the width,
        // (v + l) % M = v % M + l and (v + l) / D = v / D for every l < width.
        if (x && (x->op == BinOp::FloorMod || x->op == BinOp::FloorDiv) && mentions(x->a, r) && !mentions(x->b, r)) {
            auto m = constInt(x->b);
            if (m && *m > 0 && *m % width == 0 && groupShape(x->a, r, extent, width) == GroupShape::ContiguousAligned) {
                if (x->op == BinOp::FloorDiv && t.second % width == 0) continue;  // constant over each group, aligned
                if (x->op == BinOp::FloorMod && t.second == 1) {
                    ++xors;
                    continue;
                }
            }
        }
        gTerms.push_back(t);
    }
    if (xors > 1) return GroupShape::Other;
    if (gTerms.empty()) return xors ? (hDiv % width == 0 ? GroupShape::ContiguousAligned : GroupShape::Other) : GroupShape::Constant;
    auto g = [&](int64_t at) -> std::optional<int64_t> {
        int64_t s = 0;
        for (auto& [t, scale] : gTerms) {
            auto x = evalAt(t, r, at);
            if (!x) return std::nullopt;
            s += *x * scale;
        }
        return s;
    };
    bool constant = true, contiguous = hDiv % width == 0, aligned = true;
    for (int64_t k = 0; k < extent / width && (constant || contiguous); ++k) {
        auto base = g(k * width);
        if (!base) return GroupShape::Other;
        if (((*base % width) + width) % width != 0) contiguous = false, aligned = false;
        for (int64_t l = 1; l < width; ++l) {
            auto x = g(k * width + l);
            if (!x) return GroupShape::Other;
            if (*x != *base) constant = false;
            if (*x != *base + l) contiguous = false;
        }
    }
    // With the swizzled term: the rest must be constant over each group and keep its alignment.
    if (xors) return constant && aligned && hDiv % width == 0 ? GroupShape::ContiguousAligned : GroupShape::Other;
    return constant ? GroupShape::Constant : contiguous ? GroupShape::ContiguousAligned : GroupShape::Other;
}

// Whether `e` takes one value over each group k of `width` iterations although it may mention r
// through thread-dependent terms that evalAt cannot fold: a quotient floordiv(a, D) of an a that
// is contiguous and aligned over the group with D a multiple of the width (the row key of a view
// placed through its tile's swizzle, SharedViewLayout.h: ((f % T) / rowElems) & 7), and masks,
// shifts, products and remainders of such values by constants.
bool constantOverGroups(const Expr& e, const VarNode* r, int64_t extent, int64_t width) {
    if (!mentions(e, r)) return true;
    if (auto* b = as<BinaryNode>(e)) {
        auto c = constInt(b->b);
        switch (b->op) {
            case BinOp::FloorDiv:
                if (c && *c > 0 && *c % width == 0 && groupShape(b->a, r, extent, width) == GroupShape::ContiguousAligned) return true;
                [[fallthrough]];
            case BinOp::FloorMod:
            case BinOp::BitAnd:
            case BinOp::Shl:
            case BinOp::Mul:
                if (c && constantOverGroups(b->a, r, extent, width)) return true;
                break;
            default: break;
        }
    }
    return groupShape(e, r, extent, width) == GroupShape::Constant;
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
        case BinOp::Shl:
            if (auto c = constInt(b->b); c && *c >= 0 && *c < 31) return knownDivisor(b->a) << *c;
            return 1;
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
    // A shared tile written from registers (dS^T of attention backward into its swizzled wgmma
    // tile): 2-byte stores become one 4-byte store per column pair, unless the body reads the
    // tile (the widened store comes after every element's value).
    const bool sharedStore = st->buffer->scope == Scope::Shared && !readsBuffer(loop.body, st->buffer.get());
    for (int64_t width = 8; width >= 2; width /= 2) {
        if (*ext % width != 0) continue;
        if (guard && !uniformGuard(guard, r, *ext, width)) continue;
        VectorLoopPlan p;
        p.width = width, p.guard = guard, p.element = element;
        auto fits = [&](const BufferNode& b, const Expr& idx) {
            // 4-bit elements are packed two per byte: accessed one nibble at a time.
            return dtypeBits(b.dtype) >= 8 && dtypeBytes(b.dtype) * width <= 16 && contiguousAligned(idx, r, *ext, width);
        };
        if ((globalStore || sharedStore) && fits(*st->buffer, st->indices[0]))
            p.accesses.push_back({st->buffer.get(), nullptr, st, st->indices[0], nullptr});
        for (auto& l : loads)
            if (!l.conditional && mentions(l.load->indices[0], r) && fits(*l.load->buffer, l.load->indices[0]) &&
                (!l.select || uniformGuard(l.select, r, *ext, width)))
                p.accesses.push_back({l.load->buffer.get(), l.load, nullptr, l.load->indices[0], l.select});
        if (!p.accesses.empty()) return p;
    }
    return none;
}

namespace {

// The float32 `T.atomic_add` of an unrolled per-thread loop r in [0, ext): its guard (or null),
// destination load and value; null call when the loop is not one.
struct AtomicLoop {
    int64_t ext = 0;
    Expr guard;
    const LoadNode* dst = nullptr;
    const CallNode* call = nullptr;
};

AtomicLoop atomicLoopOf(const ForNode& loop) {
    AtomicLoop none;
    auto mn = constInt(loop.min), ext = constInt(loop.extent);
    if (loop.forKind != ForKind::Unrolled || !mn || *mn != 0 || !ext || *ext < 2) return none;
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
    return {*ext, guard, ld, c};
}

const char* vectorAtomicsSwitch() { return std::getenv("TILESCOPE_VECTOR_ATOMICS"); }

}  // namespace

VectorAtomicPlan planVectorAtomic(const ForNode& loop) {
    VectorAtomicPlan none;
    // TILESCOPE_VECTOR_ATOMICS=0 keeps scalar atomics (A/B measurement on the device).
    if (const char* e = vectorAtomicsSwitch(); e && std::string(e) == "0") return none;
    AtomicLoop a = atomicLoopOf(loop);
    if (!a.call) return none;
    const VarNode* r = loop.var.get();
    for (int64_t width = 4; width >= 2; width /= 2) {
        if (a.ext % width != 0) continue;
        if (a.guard && !uniformGuard(a.guard, r, a.ext, width)) continue;
        if (!contiguousAligned(a.dst->indices[0], r, a.ext, width)) continue;
        VectorAtomicPlan p;
        p.width = width, p.guard = a.guard, p.buffer = a.dst->buffer.get(), p.index = a.dst->indices[0], p.value = a.call->args[2];
        return p;
    }
    return none;
}

namespace {

// The thread-index variable of `e` (axis 0), or null; `other` is set when another axis appears.
void threadVarOf(const Expr& e, const VarNode*& tx, bool& other) {
    if (!e) return;
    switch (e->kind) {
        case ExprKind::Var: {
            auto* v = static_cast<const VarNode*>(e.get());
            if (v->tag != VarTag::ThreadIdx) return;
            if (v->axis == 0 && (!tx || tx == v)) tx = v;
            else other = true;
            return;
        }
        case ExprKind::Binary: {
            auto* b = static_cast<const BinaryNode*>(e.get());
            threadVarOf(b->a, tx, other), threadVarOf(b->b, tx, other);
            return;
        }
        case ExprKind::Unary: return threadVarOf(static_cast<const UnaryNode*>(e.get())->a, tx, other);
        case ExprKind::Cast: return threadVarOf(static_cast<const CastNode*>(e.get())->value, tx, other);
        case ExprKind::Select: {
            auto* s = static_cast<const SelectNode*>(e.get());
            threadVarOf(s->cond, tx, other), threadVarOf(s->t, tx, other), threadVarOf(s->f, tx, other);
            return;
        }
        case ExprKind::Call:
            for (auto& x : static_cast<const CallNode*>(e.get())->args) threadVarOf(x, tx, other);
            return;
        case ExprKind::Load:
            for (auto& x : static_cast<const LoadNode*>(e.get())->indices) threadVarOf(x, tx, other);
            return;
        default: return;
    }
}

// Value of an integer expression of the loop variable and the thread index alone.
std::optional<int64_t> evalAt2(const Expr& e, const VarNode* r, int64_t rv, const VarNode* tx, int64_t txv) {
    if (auto c = constInt(e)) return c;
    if (e.get() == r) return rv;
    if (e.get() == tx) return txv;
    if (auto* cs = as<CastNode>(e); cs && isInt(cs->dtype) && isInt(cs->value->dtype)) return evalAt2(cs->value, r, rv, tx, txv);
    auto* b = as<BinaryNode>(e);
    if (!b) return std::nullopt;
    auto x = evalAt2(b->a, r, rv, tx, txv), y = evalAt2(b->b, r, rv, tx, txv);
    if (!x || !y) return std::nullopt;
    if ((b->op == BinOp::FloorDiv || b->op == BinOp::FloorMod) && *y == 0) return std::nullopt;
    return foldInt(b->op, *x, *y);
}

// `e` split as g(r, tx) + h: g evaluated by `at` (nullopt when a term of r or tx depends on
// anything else), h's known divisor in *hDiv (0 when h is 0).
struct Split {
    std::vector<std::pair<Expr, int64_t>> g;
    int64_t hDiv = 0;
    std::optional<int64_t> at(const VarNode* r, int64_t rv, const VarNode* tx, int64_t txv) const {
        int64_t s = 0;
        for (auto& [t, scale] : g) {
            auto x = evalAt2(t, r, rv, tx, txv);
            if (!x) return std::nullopt;
            s += *x * scale;
        }
        return s;
    }
};

Split splitIndex(const Expr& e, const VarNode* r, const VarNode* tx) {
    std::vector<std::pair<Expr, int64_t>> terms;
    flattenAdd(e, 1, terms);
    Split s;
    for (auto& t : terms) {
        if (mentions(t.first, r) || mentions(t.first, tx)) s.g.push_back(t);
        else s.hDiv = std::gcd(s.hDiv, knownDivisor(t.first) * (t.second < 0 ? -t.second : t.second));
    }
    return s;
}

int64_t mod4(int64_t v) { return ((v % 4) + 4) % 4; }

}  // namespace

bool lanePairAtomicsOn() {
    const char* e = vectorAtomicsSwitch();
    return e && std::string(e) == "4";
}

PairAtomicPlan planPairAtomic(const ForNode& loop, int64_t threads) {
    PairAtomicPlan none;
    AtomicLoop a = atomicLoopOf(loop);
    if (!a.call || a.ext % 4 != 0 || threads < 32 || threads % 32 != 0 || threads > 1024) return none;
    const VarNode* r = loop.var.get();
    const Expr& index = a.dst->indices[0];
    const VarNode* tx = nullptr;
    bool other = false;
    threadVarOf(index, tx, other);
    threadVarOf(a.guard, tx, other);
    if (!tx || other) return none;
    Split ix = splitIndex(index, r, tx);
    if (ix.hDiv % 4 != 0) return none;
    // Guard conjuncts: free of r and tx, or `x < C` with C free of both and x the same value
    // for both lanes and both elements of each pair.
    std::vector<Split> guards;
    std::vector<Expr> todo{a.guard};
    while (!todo.empty()) {
        Expr g = todo.back();
        todo.pop_back();
        if (!g || (!mentions(g, r) && !mentions(g, tx))) continue;
        auto* b = as<BinaryNode>(g);
        if (!b) return none;
        if (b->op == BinOp::And) {
            todo.push_back(b->a), todo.push_back(b->b);
            continue;
        }
        if (b->op != BinOp::Lt || mentions(b->b, r) || mentions(b->b, tx)) return none;
        guards.push_back(splitIndex(b->a, r, tx));
    }
    for (int64_t t = 0; t < threads; ++t) {
        const int64_t p = t ^ 1;
        const bool odd = t & 1;
        for (int64_t m = 0; m < a.ext / 4; ++m) {
            int64_t v[4], w[4];  // this lane's and its partner's indices at r = 4m .. 4m+3
            for (int l = 0; l < 4; ++l) {
                auto x = ix.at(r, 4 * m + l, tx, t), y = ix.at(r, 4 * m + l, tx, p);
                if (!x || !y) return none;
                v[l] = *x, w[l] = *y;
            }
            if (v[1] != v[0] + 1 || v[3] != v[2] + 1) return none;
            // Even lane: its first pair, then the partner's first pair, 4-aligned. Odd lane: the
            // partner's second pair, then its own second pair, 4-aligned.
            if (!odd && (w[0] != v[0] + 2 || mod4(v[0]) != 0)) return none;
            if (odd && (w[2] != v[2] - 2 || mod4(w[2]) != 0)) return none;
            for (auto& gs : guards)
                for (int half = 0; half < 2; ++half) {
                    std::optional<int64_t> ref;
                    for (int64_t who : {t, p})
                        for (int l = 0; l < 2; ++l) {
                            auto x = gs.at(r, 4 * m + 2 * half + l, tx, who);
                            if (!x || (ref && *x != *ref)) return none;
                            ref = x;
                        }
                }
        }
    }
    PairAtomicPlan plan;
    plan.ok = true, plan.guard = a.guard, plan.buffer = a.dst->buffer.get(), plan.index = index, plan.value = a.call->args[2];
    return plan;
}

PairCastPlan planPairCast(const ForNode& n) {
    PairCastPlan p;
    if (const char* e = std::getenv("TILESCOPE_PAIR_CAST"); e && *e == '0') return p;  // measurement switch
    const auto ext = constInt(n.extent);
    if ((n.forKind != ForKind::Unrolled && n.forKind != ForKind::Vectorized) || constInt(n.min) != 0 || !ext || *ext % 2 != 0)
        return p;
    Stmt body = n.body;
    if (auto* s = as<SeqNode>(body); s && s->stmts.size() == 1) body = s->stmts[0];
    auto* st = as<StoreNode>(body);
    auto* c = st ? as<CastNode>(st->value) : nullptr;
    auto isVar = [&](const std::vector<Expr>& idx) { return idx.size() == 1 && as<VarNode>(idx[0]) == n.var.get(); };
    if (!c || !isVar(st->indices)) return p;
    auto reg = [](const BufferNode& b) { return b.scope == Scope::Local || b.scope == Scope::Fragment; };
    const DType to = st->buffer->dtype;
    if ((to != DType::Float16 && to != DType::BFloat16) || c->dtype != to || c->value->dtype != DType::Float32 || !reg(*st->buffer))
        return p;
    // Pure math only: a pair evaluates E(r) and E(r + 1) together, so E must not read D or do
    // anything a reordering could observe.
    static const std::set<std::string> kPure = {"exp",  "exp2", "log", "log2",  "sqrt",    "rsqrt",     "tanh", "abs", "sin",
                                                "cos",  "floor", "ceil", "sigmoid", "max", "min", "infinity", "ninfinity"};
    bool ok = true;
    walkExpr(c->value, [&](const Expr& e) {
        if (auto* l = as<LoadNode>(e); l && l->buffer == st->buffer) ok = false;
        if (auto* call = as<CallNode>(e); call && !kPure.count(call->op)) ok = false;
    });
    if (!ok) return p;
    p.dst = st->buffer.get();
    p.value = c->value;
    if (auto* ld = as<LoadNode>(c->value); ld && isVar(ld->indices) && reg(*ld->buffer)) p.src = ld->buffer.get();
    return p;
}

}  // namespace ts::codegen
