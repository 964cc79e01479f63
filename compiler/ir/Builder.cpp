#include "compiler/ir/Builder.h"
#include "compiler/ir/IntWrap.h"

#include <cmath>

#include "compiler/ir/Intrinsics.h"

namespace ts::ir {

Expr intImm(int64_t v, Span s, DType t) { return std::make_shared<IntImmNode>(v, t, s); }
Expr floatImm(double v, DType t, Span s) { return std::make_shared<FloatImmNode>(v, t, s); }
Expr boolImm(bool v, Span s) { return std::make_shared<IntImmNode>(v ? 1 : 0, DType::Bool, s); }
Var makeVar(std::string name, DType t, Span s, VarTag tag, int axis) {
    return std::make_shared<VarNode>(std::move(name), t, s, tag, axis);
}

bool perWarpArrive(const CallNode* c) {
    return c && c->op == intrin::kMbarrierArrive && c->args.size() > 1 && constInt(c->args[1]).value_or(0) != 0;
}

std::optional<int64_t> constInt(const Expr& e) {
    if (auto* i = as<IntImmNode>(e)) return i->value;
    return std::nullopt;
}

DType promote(DType a, DType b) {
    if (a == b) return a;
    if (isFloat(a) && !isFloat(b)) return a;
    if (isFloat(b) && !isFloat(a)) return b;
    if (isFloat(a) && isFloat(b)) return dtypeBits(a) >= dtypeBits(b) ? a : b;
    if (a == DType::Bool) return b;
    if (b == DType::Bool) return a;
    // Same width, one unsigned: C's usual conversions -- the unsigned type for 32/64 bits, int for
    // 8/16 bits (both promoted); it was the left operand's, so T.max(A, U) and T.max(U, A) of an
    // int8 -1 and a uint8 200 differed (helper-114).
    if (dtypeBits(a) == dtypeBits(b) && isInt(a) && isInt(b) && isSigned(a) != isSigned(b))
        return dtypeBits(a) >= 32 ? (isSigned(a) ? b : a) : DType::Int32;
    return dtypeBits(a) >= dtypeBits(b) ? a : b;
}

namespace {
int64_t pyFloorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
int64_t pyFloorMod(int64_t a, int64_t b) { return a - pyFloorDiv(a, b) * b; }

}  // namespace

std::optional<int64_t> foldInt(BinOp op, int64_t x, int64_t y) {
    switch (op) {
        case BinOp::Add: return x + y;
        case BinOp::Sub: return x - y;
        case BinOp::Mul: return x * y;
        case BinOp::FloorDiv: if (y == 0) return std::nullopt; return pyFloorDiv(x, y);
        case BinOp::FloorMod: if (y == 0) return std::nullopt; return pyFloorMod(x, y);
        case BinOp::Min: return std::min(x, y);
        case BinOp::Max: return std::max(x, y);
        case BinOp::Eq: return x == y;
        case BinOp::Ne: return x != y;
        case BinOp::Lt: return x < y;
        case BinOp::Le: return x <= y;
        case BinOp::Gt: return x > y;
        case BinOp::Ge: return x >= y;
        case BinOp::And: return (x && y) ? 1 : 0;
        case BinOp::Or: return (x || y) ? 1 : 0;
        case BinOp::BitAnd: return x & y;
        case BinOp::BitOr: return x | y;
        case BinOp::BitXor: return x ^ y;
        case BinOp::Shl: if (y < 0 || y > 62) return std::nullopt; return x << y;
        case BinOp::Shr: if (y < 0 || y > 62) return std::nullopt; return x >> y;
        default: return std::nullopt;
    }
}

Expr binary(BinOp op, Expr a, Expr b, Span s) {
    if (!s.valid()) s = Span::merge(a->span, b->span);
    DType t = (isComparison(op) || op == BinOp::And || op == BinOp::Or) ? DType::Bool : promote(a->dtype, b->dtype);
    auto ca = constInt(a), cb = constInt(b);
    bool intOp = !isFloat(a->dtype) && !isFloat(b->dtype);
    if (intOp && ca && cb)
        if (auto v = foldInt(op, *ca, *cb)) return intImm(*v, s, t == DType::Bool ? DType::Bool : t);
    if (intOp) {
        switch (op) {
            case BinOp::Add:
                if (ca && *ca == 0) return b;
                if (cb && *cb == 0) return a;
                break;
            case BinOp::Sub:
                if (cb && *cb == 0) return a;
                break;
            case BinOp::Mul:
                if (ca && *ca == 1) return b;
                if (cb && *cb == 1) return a;
                if ((ca && *ca == 0) || (cb && *cb == 0)) return intImm(0, s, t);
                break;
            case BinOp::FloorDiv:
                if (cb && *cb == 1) return a;
                break;
            case BinOp::FloorMod:
                if (cb && *cb == 1) return intImm(0, s, t);
                break;
            case BinOp::And:
                if (ca) return *ca ? b : intImm(0, s, DType::Bool);
                if (cb) return *cb ? a : intImm(0, s, DType::Bool);
                break;
            default: break;
        }
    }
    return std::make_shared<BinaryNode>(op, std::move(a), std::move(b), t, s);
}

Expr logicalAnd(Expr a, Expr b, Span s) {
    if (!a) return b;
    if (!b) return a;
    return binary(BinOp::And, std::move(a), std::move(b), s);
}

Expr unary(UnOp op, Expr a, Span s) {
    if (!s.valid()) s = a->span;
    if (auto c = constInt(a)) {
        if (op == UnOp::Neg) return intImm(-*c, s, a->dtype);
        if (op == UnOp::Not) return boolImm(!*c, s);
    }
    if (auto* f = as<FloatImmNode>(a); f && op == UnOp::Neg) return floatImm(-f->value, a->dtype, s);
    DType t = op == UnOp::Not ? DType::Bool : a->dtype;
    return std::make_shared<UnaryNode>(op, std::move(a), t, s);
}

Expr select(Expr c, Expr t, Expr f, Span s) {
    if (auto cv = constInt(c)) return *cv ? t : f;
    DType ty = promote(t->dtype, f->dtype);
    return std::make_shared<SelectNode>(std::move(c), std::move(t), std::move(f), ty, s);
}

Expr call(std::string op, std::vector<Expr> args, DType t, Span s) {
    return std::make_shared<CallNode>(std::move(op), std::move(args), t, s);
}

Expr load(Buffer b, std::vector<Expr> idx, Span s) {
    DType t = b->dtype;
    return std::make_shared<LoadNode>(std::move(b), std::move(idx), t, s);
}

Expr cast(DType t, Expr v, Span s) {
    if (v->dtype == t) return v;
    if (!s.valid()) s = v->span;
    if (auto* i = as<IntImmNode>(v)) {
        if (isFloat(t)) return floatImm(static_cast<double>(i->value), t, s);
        // The value of that type, as C converts: T.cast(-1, "uint32") is 4294967295 (it stayed -1,
        // which the interpreters and the CUDA read differently; helper-114).
        return intImm(isInt(t) || t == DType::Bool ? wrapInt(t, i->value) : i->value, s, t);
    }
    if (auto* f = as<FloatImmNode>(v); f && isFloat(t) && dtypeBits(t) >= 32) return floatImm(f->value, t, s);
    return std::make_shared<CastNode>(t, std::move(v), s);
}

void flattenSeq(const Stmt& s, std::vector<Stmt>& out) {
    if (!s) return;
    if (auto* q = as<SeqNode>(s)) {
        for (auto& c : q->stmts) flattenSeq(c, out);
        return;
    }
    out.push_back(s);
}

Stmt seq(std::vector<Stmt> stmts, Span s) {
    std::vector<Stmt> flat;
    for (auto& st : stmts) {
        if (!st) continue;
        if (auto* q = as<SeqNode>(st)) flat.insert(flat.end(), q->stmts.begin(), q->stmts.end());
        else flat.push_back(st);
    }
    if (flat.size() == 1) return flat[0];
    if (!s.valid())
        for (auto& st : flat) s = Span::merge(s, st->span);
    return std::make_shared<SeqNode>(std::move(flat), s);
}

Stmt forLoop(Var v, Expr min, Expr extent, ForKind k, Stmt body, Attrs a, Span s) {
    return std::make_shared<ForNode>(std::move(v), std::move(min), std::move(extent), k, std::move(a), std::move(body), s);
}
Stmt ifThen(Expr c, Stmt t, Stmt e, Span s) { return std::make_shared<IfNode>(std::move(c), std::move(t), std::move(e), s); }
Stmt ifLike(const IfNode& n, Expr c, Stmt t, Stmt e, StoreCheck chk) {
    return std::make_shared<IfNode>(std::move(c), std::move(t), std::move(e), n.span, std::move(chk));
}
Stmt ifLike(const IfNode& n, Stmt t, Stmt e) { return ifLike(n, n.cond, std::move(t), std::move(e), n.check); }
Stmt store(Buffer b, std::vector<Expr> idx, Expr v, Span s) {
    return std::make_shared<StoreNode>(std::move(b), std::move(idx), std::move(v), s);
}
Stmt evaluate(Expr c, Span s) {
    if (!s.valid()) s = c->span;
    return std::make_shared<EvalNode>(std::move(c), s);
}

std::optional<int64_t> constNumel(const BufferNode& b) {
    int64_t n = 1;
    for (auto& e : b.shape) {
        auto c = constInt(e);
        // A product past int64 (a fuzzed 2^54-element dimension) has no element count: callers
        // treat it as unknown, as they do a symbolic extent.
        if (!c || __builtin_mul_overflow(n, *c, &n)) return std::nullopt;
    }
    return n;
}
std::optional<std::vector<int64_t>> constShape(const BufferNode& b) {
    std::vector<int64_t> out;
    for (auto& e : b.shape) {
        auto c = constInt(e);
        if (!c) return std::nullopt;
        out.push_back(*c);
    }
    return out;
}
std::optional<std::vector<int64_t>> constExtents(const Region& r) {
    std::vector<int64_t> out;
    for (auto& rg : r.ranges) {
        auto c = constInt(rg.extent);
        if (!c) return std::nullopt;
        out.push_back(*c);
    }
    return out;
}

bool wholeBuffer(const Region& r) {
    auto shape = constShape(*r.buffer);
    if (!shape || shape->size() != r.ranges.size()) return false;
    for (size_t d = 0; d < r.ranges.size(); ++d) {
        auto mn = constInt(r.ranges[d].min), ext = constInt(r.ranges[d].extent);
        if (!mn || *mn != 0 || !ext || *ext != (*shape)[d]) return false;
    }
    return true;
}

}  // namespace ts::ir
