// simplify: folds constants and canonicalises integer index arithmetic using value ranges of
// loop, block and thread variables; drops statically dead branches and empty loops; replaces
// one-trip serial loops by their body (Parallel loops keep their shape: layouts follow it);
// folds `T.clear(C)` right before `T.gemm(A, B, C)` into the gemm (clear_accum).
// Requires: any IR. Produces: equivalent IR. Invalidates: nothing.
#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "compiler/ir/IR.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

struct Interval {
    int64_t lo, hi;  // inclusive
};

class Simplifier : public Mutator {
public:
    std::unordered_map<const VarNode*, Interval> ranges;

    std::optional<Interval> bound(const Expr& e) {
        if (auto c = constInt(e)) return Interval{*c, *c};
        if (auto* v = as<VarNode>(e)) {
            auto it = ranges.find(v);
            if (it != ranges.end()) return it->second;
            return std::nullopt;
        }
        auto* b = as<BinaryNode>(e);
        if (!b || isFloat(b->dtype)) return std::nullopt;
        auto x = bound(b->a), y = bound(b->b);
        switch (b->op) {
            // A bound past int64 (fuzzed huge extents) is no bound: unknown, not wrapped.
            case BinOp::Add: {
                Interval r;
                if (x && y && !__builtin_add_overflow(x->lo, y->lo, &r.lo) && !__builtin_add_overflow(x->hi, y->hi, &r.hi)) return r;
                break;
            }
            case BinOp::Sub: {
                Interval r;
                if (x && y && !__builtin_sub_overflow(x->lo, y->hi, &r.lo) && !__builtin_sub_overflow(x->hi, y->lo, &r.hi)) return r;
                break;
            }
            case BinOp::Mul:
                if (x && y) {
                    int64_t c[4];
                    if (__builtin_mul_overflow(x->lo, y->lo, &c[0]) || __builtin_mul_overflow(x->lo, y->hi, &c[1]) ||
                        __builtin_mul_overflow(x->hi, y->lo, &c[2]) || __builtin_mul_overflow(x->hi, y->hi, &c[3]))
                        break;
                    return Interval{*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
                }
                break;
            case BinOp::FloorDiv:
                if (x && y && y->lo == y->hi && y->lo > 0 && x->lo >= 0)
                    return Interval{x->lo / y->lo, x->hi / y->lo};
                break;
            case BinOp::FloorMod:
                if (y && y->lo == y->hi && y->lo > 0) {
                    if (x && x->lo >= 0 && x->hi < y->lo) return *x;
                    return Interval{0, y->lo - 1};
                }
                break;
            case BinOp::Min:
                if (x && y) return Interval{std::min(x->lo, y->lo), std::min(x->hi, y->hi)};
                break;
            case BinOp::Max:
                if (x && y) return Interval{std::max(x->lo, y->lo), std::max(x->hi, y->hi)};
                break;
            default:
                break;
        }
        return std::nullopt;
    }

protected:
    Expr visitBinary(const BinaryNode* n, const Expr& self) override {
        Expr a = mutate(n->a), b = mutate(n->b);
        // Constants go right in commutative integer ops, so the rules below see `x op c`.
        if ((n->op == BinOp::Add || n->op == BinOp::Mul) && !isFloat(n->dtype) && constInt(a) &&
            !constInt(b))
            std::swap(a, b);
        Expr r = (a == n->a && b == n->b) ? self : binary(n->op, a, b, n->span);
        auto* rb = as<BinaryNode>(r);
        if (!rb) return r;
        if (isFloat(rb->dtype)) return rewriteFloat(rb, r);
        return rewrite(rb, r);
    }

    Stmt visitFor(const ForNode* n, const Stmt& self) override {
        Expr mn = mutate(n->min), ext = mutate(n->extent);
        auto cm = constInt(mn), ce = constInt(ext);
        if (ce && *ce <= 0) return nullptr;
        if (cm && ce && *ce == 1 &&
            (n->forKind == ForKind::Serial || n->forKind == ForKind::Unrolled)) {
            std::unordered_map<const VarNode*, Expr> sub{{n->var.get(), mn}};
            return mutate(substitute(n->body, sub));
        }
        auto lo = bound(mn), e = bound(ext);
        if (lo && e) ranges[n->var.get()] = Interval{lo->lo, lo->hi + e->hi - 1};
        Stmt body = mutate(n->body);
        ranges.erase(n->var.get());
        if (!body) return nullptr;
        if (mn == n->min && ext == n->extent && body == n->body) return self;
        return forLoop(n->var, mn, ext, n->forKind, body, n->attrs, n->span);
    }

    Stmt visitIf(const IfNode* n, const Stmt& self) override {
        Expr c = mutate(n->cond);
        StoreCheck chk = n->check;
        bool chkChanged = n->check && mutateList(n->check.indices, chk.indices);
        if (auto cv = constInt(c)) {
            // A T.Parallel store provably outside the tensor (store_folds_away.py): its guard
            // stays, with the constant condition, so that the thread-level interpreter reports
            // the store wherever it is reached, as the tile-level one does. Codegen drops it
            // (withoutFoldedStoreChecks), which prints what folding it away printed.
            if (!*cv && n->check) {
                Stmt t = mutate(n->then);
                if (!t) return nullptr;
                if (c == n->cond && !chkChanged && t == n->then) return self;
                return ifLike(*n, c, t, nullptr, std::move(chk));
            }
            return mutate(*cv ? n->then : n->otherwise);
        }
        // Inside the then-branch the condition holds: narrow variable ranges it bounds (e.g.
        // `if k + 2 < 128:` gives k <= 125), which lets inner bounds checks fold away.
        std::vector<std::pair<const VarNode*, std::optional<Interval>>> saved;
        narrow(c, saved);
        Stmt t = mutate(n->then);
        for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
            if (it->second)
                ranges[it->first] = *it->second;
            else
                ranges.erase(it->first);
        }
        Stmt e = mutate(n->otherwise);
        if (c == n->cond && !chkChanged && t == n->then && e == n->otherwise) return self;
        if (!t && !e) return nullptr;
        if (!t) return ifThen(unary(UnOp::Not, c), e, nullptr, n->span);
        return ifLike(*n, c, t, e, std::move(chk));
    }

    // `T.clear(C)` right before `T.gemm(A, B, C)` (how TileLang's attention and backward kernels
    // start each score tile): one gemm with clear_accum, C = A B. On sm_90a the wgmma's first
    // k-step then ignores C's registers (scale-d = 0) instead of N/2 moves zeroing them in every
    // iteration; the mma.sync path zeroes them as before. TILESCOPE_FOLD_CLEAR_GEMM=0 keeps the
    // two statements (a measurement switch).
    Stmt visitSeq(const SeqNode* n, const Stmt& self) override {
        Stmt out = Mutator::visitSeq(n, self);
        auto* s = as<SeqNode>(out);
        const char* off = std::getenv("TILESCOPE_FOLD_CLEAR_GEMM");
        if (!s || (off && *off == '0')) return out;
        std::vector<Stmt> stmts;
        bool folded = false;
        for (size_t i = 0; i < s->stmts.size(); ++i) {
            if (i + 1 < s->stmts.size())
                if (Stmt g = clearedGemm(s->stmts[i], s->stmts[i + 1])) {
                    stmts.push_back(std::move(g));
                    folded = true;
                    ++i;
                    continue;
                }
            stmts.push_back(s->stmts[i]);
        }
        return folded ? seq(std::move(stmts), s->span) : out;
    }

    Stmt visitKernel(const KernelNode* n, const Stmt& self) override {
        for (size_t d = 0; d < n->blockVars.size() && d < n->grid.size(); ++d)
            if (auto g = constInt(n->grid[d])) ranges[n->blockVars[d].get()] = Interval{0, *g - 1};
        for (size_t d = 0; d < n->threadVars.size() && d < n->threads.size(); ++d)
            ranges[n->threadVars[d].get()] = Interval{0, n->threads[d] - 1};
        Stmt out = Mutator::visitKernel(n, self);
        // A body that folds away entirely (every store provably out of bounds, `if False:`) is an
        // empty kernel, not a null statement.
        if (auto* k = as<KernelNode>(out); k && !k->body)
            return std::make_shared<KernelNode>(k->grid, k->threads, k->blockVars, k->threadVars, seq({}, n->span), n->span);
        return out;
    }

private:
    /// The gemm `g` with clear_accum when `f` is a T.clear of the whole fragment it accumulates into.
    static Stmt clearedGemm(const Stmt& f, const Stmt& g) {
        auto* fill = as<TileOpNode>(f);
        auto* gemm = as<TileOpNode>(g);
        if (!fill || !gemm || fill->op != TileOpKind::Fill || gemm->op != TileOpKind::Gemm) return nullptr;
        if (!attrBool(fill->attrs, "clear", false) || attrBool(gemm->attrs, "clear_accum", false)) return nullptr;
        if (!fill->isRegion(0) || !gemm->isRegion(2)) return nullptr;
        const Region &dst = fill->region(0), &c = gemm->region(2);
        if (dst.buffer != c.buffer || dst.buffer->scope != Scope::Fragment || !wholeBuffer(dst) || !wholeBuffer(c)) return nullptr;
        // `T.gemm(C, B, C)`: the gemm reads the cleared C as an operand (helper-128 #2).
        if (!gemm->isRegion(0) || !gemm->isRegion(1) || gemm->region(0).buffer == c.buffer || gemm->region(1).buffer == c.buffer)
            return nullptr;
        Attrs attrs = gemm->attrs;
        attrs["clear_accum"] = true;
        return std::make_shared<TileOpNode>(TileOpKind::Gemm, gemm->args, std::move(attrs), gemm->span);
    }

    // For `v + c < d` / `v + c <= d` (and conjunctions of them) tightens v's upper bound.
    void narrow(const Expr& cond,
                std::vector<std::pair<const VarNode*, std::optional<Interval>>>& saved) {
        auto* b = as<BinaryNode>(cond);
        if (!b) return;
        if (b->op == BinOp::And) return narrow(b->a, saved), narrow(b->b, saved);
        if (b->op != BinOp::Lt && b->op != BinOp::Le) return;
        auto rhs = bound(b->b);
        if (!rhs) return;
        const VarNode* v = as<VarNode>(b->a);
        int64_t c = 0;
        if (!v)
            if (auto* s = as<BinaryNode>(b->a); s && s->op == BinOp::Add)
                if (auto k = constInt(s->b)) v = as<VarNode>(s->a), c = *k;
        if (!v) return;
        int64_t hi = rhs->hi - c - (b->op == BinOp::Lt ? 1 : 0);
        auto it = ranges.find(v);
        saved.push_back(
            {v, it == ranges.end() ? std::nullopt : std::optional<Interval>(it->second)});
        if (it == ranges.end()) return;  // unknown lower bound: leave it unknown
        it->second.hi = std::min(it->second.hi, hi);
    }

    // Decides comparisons from ranges (e.g. `tx < 128` with 128 threads).
    std::optional<bool> decide(const BinaryNode* cb) {
        auto x = bound(cb->a), y = bound(cb->b);
        if (!x || !y) return std::nullopt;
        switch (cb->op) {
            case BinOp::Lt:
                if (x->hi < y->lo) return true;
                if (x->lo >= y->hi) return false;
                break;
            case BinOp::Le:
                if (x->hi <= y->lo) return true;
                if (x->lo > y->hi) return false;
                break;
            case BinOp::Gt:
                if (x->lo > y->hi) return true;
                if (x->hi <= y->lo) return false;
                break;
            case BinOp::Ge:
                if (x->lo >= y->hi) return true;
                if (x->hi < y->lo) return false;
                break;
            default:
                break;
        }
        return std::nullopt;
    }

    // x * 1.0 and 1.0 * x are x exactly (IEEE 754: NaN, infinities and -0.0 included) when the
    // product has x's type; additions of 0.0 are not folded (-0.0 + 0.0 is +0.0).
    static Expr rewriteFloat(const BinaryNode* b, const Expr& self) {
        if (b->op != BinOp::Mul) return self;
        auto one = [](const Expr& e) {
            auto* f = as<FloatImmNode>(e);
            return f && f->value == 1.0;
        };
        if (one(b->b) && b->a->dtype == b->dtype) return b->a;
        if (one(b->a) && b->b->dtype == b->dtype) return b->b;
        return self;
    }

    /// x + c as an expression (x - |c| for negative c; x for c == 0), c of x's type.
    static Expr plusConst(const Expr& x, int64_t c, Span s) {
        if (c == 0) return x;
        return c > 0 ? add(x, intImm(c, s, x->dtype), s) : sub(x, intImm(-c, s, x->dtype), s);
    }


    /// (x, c) when e is x + c or x - c with a constant c.
    static std::optional<std::pair<Expr, int64_t>> offsetForm(const Expr& e) {
        auto* s = as<BinaryNode>(e);
        if (!s || (s->op != BinOp::Add && s->op != BinOp::Sub)) return std::nullopt;
        auto c = constInt(s->b);
        if (!c || *c == INT64_MIN) return std::nullopt;
        return std::make_pair(s->a, s->op == BinOp::Add ? *c : -*c);
    }

    /// The additive terms of e (nested Adds flattened).
    static void addTerms(const Expr& e, std::vector<Expr>& out) {
        if (auto* s = as<BinaryNode>(e); s && s->op == BinOp::Add && !isFloat(s->dtype)) {
            addTerms(s->a, out);
            addTerms(s->b, out);
        } else {
            out.push_back(e);
        }
    }

    /// x // c and x % c when some additive terms of x are multiples of c: those terms leave the
    /// remainder unchanged and contribute (term / c) to the quotient for every integer value of
    /// the rest (floor division), so (16*w + y) % 16 -> y % 16 and (8*h + y) // 8 -> h + y // 8;
    /// the range rules then fold y % c / y // c when 0 <= y < c. This keeps register indices of
    /// unrolled lowered loops constant (the row slot of an mma accumulator element), so nvcc
    /// keeps such fragments in registers.
    Expr splitMultiples(const BinaryNode* b, int64_t c) {
        std::vector<Expr> terms, rest;
        addTerms(b->a, terms);
        if (terms.size() < 2) return nullptr;
        Expr quotient;
        for (auto& t : terms) {
            std::optional<int64_t> k;
            Expr x;
            if (auto v = constInt(t)) k = *v, x = nullptr;
            else if (auto* m = as<BinaryNode>(t); m && m->op == BinOp::Mul) {
                if (auto mc = constInt(m->b)) k = *mc, x = m->a;
            }
            if (!k || *k % c != 0) {
                rest.push_back(t);
                continue;
            }
            if (b->op == BinOp::FloorDiv) {
                Expr q = x ? (*k / c == 1 ? x : mul(x, intImm(*k / c, b->span, x->dtype))) : intImm(*k / c, b->span, b->dtype);
                quotient = quotient ? add(quotient, q) : q;
            }
        }
        if (rest.size() == terms.size()) return nullptr;
        Expr r;
        for (auto& t : rest) r = r ? add(r, t) : t;
        if (b->op == BinOp::FloorMod) return r ? mutate(floormod(r, b->b)) : intImm(0, b->span, b->dtype);
        if (r) quotient = add(quotient, floordiv(r, b->b));
        return mutate(quotient);
    }

    Expr rewrite(const BinaryNode* b, const Expr& self) {
        if (isComparison(b->op))
            if (auto v = decide(b)) return boolImm(*v, b->span);
        auto cb = constInt(b->b);
        auto xa = bound(b->a);
        if ((b->op == BinOp::FloorDiv || b->op == BinOp::FloorMod) && cb && *cb > 0 && !isFloat(b->dtype))
            if (Expr e = splitMultiples(b, *cb)) return e;
        switch (b->op) {
            case BinOp::FloorDiv:
                if (cb && *cb > 0 && xa && xa->lo >= 0 && xa->hi < *cb)
                    return intImm(0, b->span, b->dtype);
                if (cb && *cb > 0) {
                    // (x * c) // c -> x ; (x * (c*k)) // c -> x * k
                    if (auto* m = as<BinaryNode>(b->a); m && m->op == BinOp::Mul) {
                        if (auto mc = constInt(m->b); mc && *mc % *cb == 0)
                            return mul(m->a, intImm(*mc / *cb, b->span, m->b->dtype));
                    }
                    // (x // c1) // c2 -> x // (c1*c2). A product the type cannot hold stays unfolded:
                    // an int32 divisor 65536 * 65536 became an int32 immediate of 2^32, which the
                    // generated CUDA's int ts_floordiv truncated to 0 (helper-111).
                    if (auto* d = as<BinaryNode>(b->a); d && d->op == BinOp::FloorDiv) {
                        int64_t prod = 0;
                        if (auto dc = constInt(d->b); dc && *dc > 0 && !__builtin_mul_overflow(*dc, *cb, &prod) &&
                                                      holdsInt(d->b->dtype, prod))
                            return floordiv(d->a, intImm(prod, b->span, d->b->dtype));
                    }
                    // (x*c + y) // c -> x + y // c   when y >= 0
                    if (auto* s = as<BinaryNode>(b->a); s && s->op == BinOp::Add) {
                        auto yb = bound(s->b);
                        if (auto* m = as<BinaryNode>(s->a);
                            m && m->op == BinOp::Mul && yb && yb->lo >= 0) {
                            if (auto mc = constInt(m->b); mc && *mc == *cb)
                                return add(m->a, floordiv(s->b, b->b));
                        }
                    }
                }
                break;
            case BinOp::FloorMod:
                if (cb && *cb > 0 && xa && xa->lo >= 0 && xa->hi < *cb) return b->a;
                if (cb && *cb > 0) {
                    if (auto* m = as<BinaryNode>(b->a); m && m->op == BinOp::Mul) {
                        if (auto mc = constInt(m->b); mc && *mc % *cb == 0)
                            return intImm(0, b->span, b->dtype);
                    }
                    // (x % c1) % c2 -> x % c2 when c2 divides c1
                    if (auto* d = as<BinaryNode>(b->a); d && d->op == BinOp::FloorMod) {
                        if (auto dc = constInt(d->b); dc && *dc % *cb == 0)
                            return floormod(d->a, b->b);
                    }
                }
                break;
            case BinOp::Add:
            case BinOp::Sub:
                // (x +- c1) +- c2 -> x + (+-c1 +- c2)
                if (cb)
                    if (auto f = offsetForm(b->a)) {
                        // Folding must not overflow int64: leave the expression as written then.
                        int64_t c = 0;
                        bool overflow = b->op == BinOp::Add ? __builtin_add_overflow(f->second, *cb, &c)
                                                            : __builtin_sub_overflow(f->second, *cb, &c);
                        if (!overflow && c != INT64_MIN && holdsInt(f->first->dtype, c >= 0 ? c : -c))
                            return mutate(plusConst(f->first, c, b->span));
                    }
                break;
            case BinOp::Mul:
                if (cb) {
                    if (auto* s = as<BinaryNode>(b->a); s && s->op == BinOp::Mul) {
                        int64_t prod = 0;
                        if (auto sc = constInt(s->b); sc && !__builtin_mul_overflow(*sc, *cb, &prod) &&
                                                      holdsInt(s->b->dtype, prod))
                            return mul(s->a, intImm(prod, b->span, s->b->dtype));
                    }
                }
                break;
            case BinOp::Min:
            case BinOp::Max: {
                auto xb = bound(b->b);
                if (xa && xb) {
                    bool aLess = xa->hi <= xb->lo, bLess = xb->hi <= xa->lo;
                    if (b->op == BinOp::Min && aLess) return b->a;
                    if (b->op == BinOp::Min && bLess) return b->b;
                    if (b->op == BinOp::Max && aLess) return b->b;
                    if (b->op == BinOp::Max && bLess) return b->a;
                }
                break;
            }
            default:
                break;
        }
        return self;
    }
};

}  // namespace

PrimFunc simplify(const PrimFunc& f, PassContext&) {
    Simplifier s;
    return withBody(f, s.mutate(f->body));
}

}  // namespace ts::xform
