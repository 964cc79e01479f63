// check-bounds: reports statically out-of-bounds regions and element accesses of on-chip
// buffers (shared, fragment, local): constant indices, and affine indices over loop variables
// whose range provably leaves the buffer (outside any `if`, which may guard the access). Global
// regions are not errors: copies predicate them (out-of-bounds source lanes read 0, destination
// lanes are skipped), which is what makes non-divisible problem sizes work. Also a barrier inside
// T.Parallel (not every thread reaches it), a store that every iteration of a parallel variable
// makes to one element (a race), and a constant element index outside a global tensor. Then each
// tile op's own check (ops::TileOp::check).
// Requires: elaborated IR. Produces: diagnostics only (IR unchanged). Invalidates: nothing.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/BlockUniform.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

std::string shapeText(const BufferNode& b) {
    std::string s = "(";
    for (size_t i = 0; i < b.shape.size(); ++i) s += (i ? ", " : "") + toString(b.shape[i]);
    return s + (b.shape.size() == 1 ? ",)" : ")");
}

/// Value range of a loop/block variable (inclusive) and where it comes from (for the message).
struct VarRange {
    int64_t lo, hi;
    std::string origin;  // "T.Parallel at line 12"
};
using Ranges = std::unordered_map<const VarNode*, VarRange>;

/// idx as c0 + sum c_k * v_k over distinct variables with known ranges, or nullopt. For such an
/// affine index the interval bounds are attained (each variable runs over its whole range
/// independently), so an out-of-range bound is a real out-of-bounds access, not an artefact.
struct Affine {
    int64_t c0 = 0;
    std::map<const VarNode*, int64_t> terms;
};
std::optional<Affine> affine(const Expr& e, const Ranges& ranges) {
    if (auto c = constInt(e)) return Affine{*c, {}};
    if (auto* v = as<VarNode>(e)) {
        if (!ranges.count(v)) return std::nullopt;
        Affine a;
        a.terms[v] = 1;
        return a;
    }
    auto* b = as<BinaryNode>(e);
    if (!b || isFloat(b->dtype)) return std::nullopt;
    auto x = affine(b->a, ranges), y = affine(b->b, ranges);
    if (!x || !y) return std::nullopt;
    switch (b->op) {
        case BinOp::Add:
        case BinOp::Sub: {
            int64_t sg = b->op == BinOp::Add ? 1 : -1;
            x->c0 += sg * y->c0;
            for (auto& [v, c] : y->terms) x->terms[v] += sg * c;
            return x;
        }
        case BinOp::Mul: {
            if (!x->terms.empty() && !y->terms.empty()) return std::nullopt;
            Affine& var = x->terms.empty() ? *y : *x;
            int64_t k = x->terms.empty() ? x->c0 : y->c0;
            var.c0 *= k;
            for (auto& [v, c] : var.terms) c *= k;
            return var;
        }
        default:
            return std::nullopt;
    }
}

/// The least and greatest value of `a` over its variables' ranges (attained: see Affine).
std::pair<int64_t, int64_t> affineBounds(const Affine& a, const Ranges& ranges) {
    int64_t lo = a.c0, hi = a.c0;
    for (auto& [v, c] : a.terms) {
        if (c == 0) continue;
        const VarRange& r = ranges.at(v);
        lo += c > 0 ? c * r.lo : c * r.hi;
        hi += c > 0 ? c * r.hi : c * r.lo;
    }
    return {lo, hi};
}

/// "k in [0, 2] (T.serial at line 9)" for each variable of `a`.
std::string rangeOrigins(const Affine& a, const Ranges& ranges) {
    std::ostringstream where;
    for (auto& [v, c] : a.terms)
        if (c)
            where << (where.tellp() ? ", " : "") << v->name << " in [" << ranges.at(v).lo << ", "
                  << ranges.at(v).hi << "] (" << ranges.at(v).origin << ")";
    return where.str();
}

/// An interval holding every value of an integer index over its variables' ranges (min, max,
/// floordiv and floormod by a positive constant too: `T.min(i, 3) - 4`), or nullopt. Not attained
/// as Affine's bounds are -- enough to prove that every value lies outside a dimension.
std::optional<std::pair<int64_t, int64_t>> interval(const Expr& e, const Ranges& ranges, std::set<const VarNode*>& vars) {
    if (auto c = constInt(e)) return std::pair{*c, *c};
    if (auto* v = as<VarNode>(e)) {
        auto r = ranges.find(v);
        if (r == ranges.end()) return std::nullopt;
        vars.insert(v);
        return std::pair{r->second.lo, r->second.hi};
    }
    auto* b = as<BinaryNode>(e);
    if (!b || isFloat(b->dtype)) return std::nullopt;
    auto x = interval(b->a, ranges, vars), y = interval(b->b, ranges, vars);
    if (!x || !y) return std::nullopt;
    auto [a0, a1] = *x;
    auto [b0, b1] = *y;
    switch (b->op) {
        case BinOp::Add: return std::pair{a0 + b0, a1 + b1};
        case BinOp::Sub: return std::pair{a0 - b1, a1 - b0};
        case BinOp::Mul: {
            const int64_t p[4] = {a0 * b0, a0 * b1, a1 * b0, a1 * b1};
            return std::pair{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
        }
        case BinOp::Min: return std::pair{std::min(a0, b0), std::min(a1, b1)};
        case BinOp::Max: return std::pair{std::max(a0, b0), std::max(a1, b1)};
        case BinOp::FloorDiv:  // floor division is monotone in the dividend for a positive divisor
            if (b0 == b1 && b0 > 0)
                return std::pair{a0 >= 0 ? a0 / b0 : -((-a0 + b0 - 1) / b0), a1 >= 0 ? a1 / b0 : -((-a1 + b0 - 1) / b0)};
            return std::nullopt;
        case BinOp::FloorMod:
            if (b0 == b1 && b0 > 0) return std::pair{int64_t(0), b0 - 1};
            return std::nullopt;
        default: return std::nullopt;
    }
}

// A non-constant index affine in loop / block / thread variables of known range, else nullopt.
std::optional<Affine> loopAffine(const Expr& e, const Ranges& ranges) {
    if (constInt(e)) return std::nullopt;
    auto a = affine(e, ranges);
    if (!a || a->terms.empty()) return std::nullopt;
    return a;
}

/// As affine(), but a variable without a known range (a symbolic size such as M) is a term of its
/// own: `M + i` minus the dimension `M` leaves `i`.
std::optional<Affine> affineSymbolic(const Expr& e, const Ranges& ranges) {
    if (auto c = constInt(e)) return Affine{*c, {}};
    if (auto* v = as<VarNode>(e)) {
        Affine a;
        a.terms[v] = 1;
        return a;
    }
    auto* b = as<BinaryNode>(e);
    if (!b || isFloat(b->dtype) || (b->op != BinOp::Add && b->op != BinOp::Sub && b->op != BinOp::Mul)) return std::nullopt;
    auto x = affineSymbolic(b->a, ranges), y = affineSymbolic(b->b, ranges);
    if (!x || !y) return std::nullopt;
    if (b->op == BinOp::Mul) {
        if (!x->terms.empty() && !y->terms.empty()) return std::nullopt;
        Affine& var = x->terms.empty() ? *y : *x;
        const int64_t k = x->terms.empty() ? x->c0 : y->c0;
        var.c0 *= k;
        for (auto& [v, c] : var.terms) c *= k;
        return var;
    }
    const int64_t sg = b->op == BinOp::Add ? 1 : -1;
    x->c0 += sg * y->c0;
    for (auto& [v, c] : y->terms) x->terms[v] += sg * c;
    return x;
}

/// A symbolic dimension (`A: T.Tensor((M,), ...)`): an index that is the dimension plus loop
/// terms that are never negative (`A[M + i]`) reads past the end for every value (helper-133).
void symbolicDimCheck(const BufferNode& b, size_t d, const Expr& index, Span span, DiagnosticEngine& diags,
                      const Ranges& ranges) {
    auto x = affineSymbolic(index, ranges), dim = affineSymbolic(b.shape[d], ranges);
    if (!x || !dim || dim->terms.empty()) return;
    Affine diff = *x;
    diff.c0 -= dim->c0;
    for (auto& [v, c] : dim->terms) diff.terms[v] -= c;
    Affine known;
    known.c0 = diff.c0;
    for (auto& [v, c] : diff.terms) {
        if (c == 0) continue;
        if (!ranges.count(v)) return;  // a symbol left over: its value decides
        known.terms[v] = c;
    }
    if (known.terms.empty()) return;  // a constant offset from the end: the constant-index rules' case
    auto [lo, hi] = affineBounds(known, ranges);
    if (lo < 0) return;
    diags.error(span,
                "index " + toString(index) + " of tensor '" + b.name + "' is at least dimension " + std::to_string(d) + " (" +
                    toString(b.shape[d]) + ") for every " + rangeOrigins(known, ranges) + ": no access of it is in bounds",
                "valid indices are 0.." + toString(b.shape[d]) + " - 1; adjust the index (the GPU would read 0 and skip the stores)",
                "check-bounds");
}

void checkAccess(const BufferNode& b, const std::vector<Expr>& idx, Span span,
                 DiagnosticEngine& diags, const Ranges& ranges, bool guarded) {
    if (b.scope == Scope::Global) {
        // A constant element index outside a tensor of known shape, outside any `if`: the GPU
        // reads or writes out of bounds (lowering's guard turns a T.Parallel load into 0). A
        // kernel index is not Python's: X[-1] is not the last element (helper-130 #4).
        // An affine index whose every value lies outside the tensor (`A[M + i, j]` over a
        // T.Parallel i) likewise: lowering's guard turned each such load into 0 and dropped each
        // store, silently (helper-132 #1). Partly outside is a ragged edge tile: guarded, legal.
        for (size_t d = 0; d < idx.size() && d < b.shape.size() && !guarded; ++d) {
            auto i = constInt(idx[d]), dim = constInt(b.shape[d]);
            if (!dim) {
                symbolicDimCheck(b, d, idx[d], span, diags, ranges);
                continue;
            }
            if (i) {
                if (*i >= 0 && *i < *dim) continue;
                diags.error(span,
                            "index " + std::to_string(*i) + " is out of bounds for dimension " + std::to_string(d) + " of tensor '" +
                                b.name + "' (shape " + shapeText(b) + ")",
                            "valid indices are 0.." + std::to_string(*dim - 1) + (*i < 0 ? "; a negative index does not count from the end in a kernel: write " + b.name + "[" + std::to_string(*dim + *i) + "] for that element" : ""),
                            "check-bounds");
                continue;
            }
            auto a = loopAffine(idx[d], ranges);
            std::string origins;
            int64_t lo = 0, hi = 0;
            if (a) {
                std::tie(lo, hi) = affineBounds(*a, ranges);
                origins = rangeOrigins(*a, ranges);
            } else {
                // Not affine (T.min(i, 3) - 4, i // 2 + M): an interval that holds every value.
                std::set<const VarNode*> vars;
                auto iv = interval(idx[d], ranges, vars);
                if (!iv || vars.empty()) continue;
                std::tie(lo, hi) = *iv;
                Affine names;
                for (auto* v : vars) names.terms[v] = 1;
                origins = rangeOrigins(names, ranges);
            }
            if (hi >= 0 && lo < *dim) continue;
            diags.error(span,
                        "index " + toString(idx[d]) + " of tensor '" + b.name + "' ranges " + (a ? "over [" : "within [") + std::to_string(lo) + ", " +
                            std::to_string(hi) + "], wholly outside dimension " + std::to_string(d) + " of shape " + shapeText(b) +
                            " for " + origins + ": no access of it is in bounds",
                        "valid indices are 0.." + std::to_string(*dim - 1) + "; adjust the index (the GPU would read 0 and skip the stores)",
                        "check-bounds");
        }
        return;
    }
    for (size_t d = 0; d < idx.size() && d < b.shape.size(); ++d) {
        auto i = constInt(idx[d]), dim = constInt(b.shape[d]);
        if (!dim) continue;
        if (i && (*i < 0 || *i >= *dim)) {
            std::ostringstream msg;
            msg << "index " << *i << " is out of bounds for dimension " << d << " of '" << b.name
                << "' (shape " << shapeText(b) << ")";
            diags.error(span, msg.str(), "valid indices are 0.." + std::to_string(*dim - 1),
                        "check-bounds");
            continue;
        }
        // Symbolic: an affine index over loop variables, outside any `if` (a guard may exclude
        // the out-of-range iterations).
        if (guarded) continue;
        auto a = loopAffine(idx[d], ranges);
        if (!a) continue;
        auto [lo, hi] = affineBounds(*a, ranges);
        if (lo >= 0 && hi < *dim) continue;
        std::ostringstream msg;
        msg << "index " << toString(idx[d]) << " of '" << b.name << "' ranges over [" << lo << ", "
            << hi << "], outside dimension " << d << " of shape " << shapeText(b);
        diags.error(span, msg.str() + " for " + rangeOrigins(*a, ranges),
                    "valid indices are 0.." + std::to_string(*dim - 1) +
                        "; adjust the index or the loop extent, or guard the access with an if",
                    "check-bounds");
    }
}

/// Reports a region of an on-chip buffer that leaves it: constant bounds, or (outside any `if`)
/// a start affine in loop variables whose range makes some iteration's slice leave the buffer
/// (`buf[k * 24 : k * 24 + 32]` for k < 3 writes past 72 elements on the last iteration).
void checkRegion(const Region& r, const std::string& op, DiagnosticEngine& diags, Span opSpan,
                 const Ranges& ranges, bool guarded) {
    const BufferNode& b = *r.buffer;
    if (b.scope == Scope::Global) return;
    for (size_t d = 0; d < r.ranges.size() && d < b.shape.size(); ++d) {
        auto ext = constInt(r.ranges[d].extent), mn = constInt(r.ranges[d].min),
             dim = constInt(b.shape[d]);
        if (!dim || !ext) continue;
        bool bad = false;
        std::ostringstream why;
        if (mn && (*mn < 0 || *mn + *ext > *dim)) {
            bad = true;
            why << "[" << *mn << ":" << *mn + *ext << "] exceeds [0:" << *dim << "]";
        } else if (*ext > *dim) {
            bad = true;
            why << "extent " << *ext << " exceeds " << *dim;
        } else if (!mn && !guarded) {
            auto a = affine(r.ranges[d].min, ranges);
            if (a && !a->terms.empty()) {
                auto [lo, hi] = affineBounds(*a, ranges);
                if (lo < 0 || hi + *ext > *dim) {
                    bad = true;
                    why << "start " << toString(r.ranges[d].min) << " ranges over [" << lo << ", "
                        << hi << "] for " << rangeOrigins(*a, ranges) << ", so the slice reaches ["
                        << (lo < 0 ? lo : hi) << ":" << (lo < 0 ? lo : hi) + *ext
                        << "], outside [0:" << *dim << "]";
                }
            }
        }
        if (!bad) continue;
        std::ostringstream msg;
        msg << "T." << op << ": region of '" << b.name << "' is out of bounds in dimension " << d
            << ": " << why.str() << " (" << scopeName(b.scope) << " buffer of shape "
            << shapeText(b) << ")";
        diags.error(
            r.span.valid() ? r.span : opSpan, msg.str(),
            "on-chip buffers are not bounds-checked at run time; shrink the slice or enlarge '" +
                b.name + "'",
            "check-bounds");
    }
}

/// The statement walk with the ranges of enclosing loops, block indices and `if` nesting.
class Checker {
public:
    explicit Checker(DiagnosticEngine& d) : m_diags(d) {}

    void stmt(const Stmt& s) {
        if (!s) return;
        switch (s->kind) {
            case StmtKind::Seq:
                for (auto& c : static_cast<const SeqNode*>(s.get())->stmts) stmt(c);
                return;
            case StmtKind::Kernel: {
                auto* k = static_cast<const KernelNode*>(s.get());
                for (size_t d = 0; d < k->blockVars.size() && d < k->grid.size(); ++d)
                    if (auto g = constInt(k->grid[d]); g && *g > 0)
                        m_ranges[k->blockVars[d].get()] = {0, *g - 1, "block index"};
                for (size_t d = 0; d < k->threadVars.size() && d < k->threads.size(); ++d)
                    m_ranges[k->threadVars[d].get()] = {0, k->threads[d] - 1, "thread index"};
                stmt(k->body);
                return;
            }
            case StmtKind::For: {
                auto* n = static_cast<const ForNode*>(s.get());
                expr(n->min);
                expr(n->extent);
                m_parallel += n->forKind == ForKind::Parallel;
                if (n->forKind == ForKind::Parallel) m_parallelVars.push_back(n);
                if (n->forKind == ForKind::Parallel && m_parallelVars.size() == 1) m_resetLocals.clear();
                auto mn = constInt(n->min), ext = constInt(n->extent);
                if (mn && ext && *ext > 0)
                    m_ranges[n->var.get()] = {
                        *mn, *mn + *ext - 1,
                        "T." + std::string(forKindName(n->forKind)) +
                            (n->span.valid() ? " at line " + std::to_string(n->span.line) : "")};
                stmt(n->body);
                m_ranges.erase(n->var.get());
                m_parallel -= n->forKind == ForKind::Parallel;
                if (n->forKind == ForKind::Parallel) m_parallelVars.pop_back();
                return;
            }
            case StmtKind::If: {
                auto* n = static_cast<const IfNode*>(s.get());
                expr(n->cond);
                ++m_guarded;
                stmt(n->then);
                stmt(n->otherwise);
                --m_guarded;
                // Reset in both arms (`if c: t = 0 else: t = 1`): reset whichever runs.
                if (!m_parallelVars.empty() && n->otherwise)
                    for (const BufferNode* b : resetsIn(n->then))
                        if (resetsIn(n->otherwise).count(b)) m_resetLocals.insert(b);
                return;
            }
            case StmtKind::Store: {
                auto* n = static_cast<const StoreNode*>(s.get());
                exprs(n->indices);
                expr(n->value);
                checkAccess(*n->buffer, n->indices, n->span, m_diags, m_ranges, m_guarded > 0);
                if (m_guarded == 0) checkParallelWrite(*n);
                return;
            }
            case StmtKind::Alloc: {
                auto* n = static_cast<const AllocNode*>(s.get());
                expr(n->init);
                m_allocLevel[n->buffer.get()] = m_parallelVars.size();
                return;
            }
            case StmtKind::Eval: {
                auto* e = static_cast<const EvalNode*>(s.get());
                auto* c = as<CallNode>(e->call);
                if (m_parallel > 0 && c && c->op == intrin::kSyncThreads && c->args.empty())
                    m_diags.error(e->span,
                                  "T.sync_threads() inside T.Parallel: the loop's iterations are spread over "
                                  "the threads, so not every thread reaches this barrier",
                                  "end the T.Parallel loop before the barrier and start a new one after it",
                                  "check-bounds");
                return expr(e->call);
            }
            case StmtKind::TileOp: {
                auto* t = static_cast<const TileOpNode*>(s.get());
                // T.clear / T.fill of a per-thread local buffer resets it like a plain write.
                if (!m_parallelVars.empty()) m_resetLocals.merge(resetsIn(s));
                const ops::TileOp* op = ops::find(t->op);
                if (!op) return;  // the verifier reports unknown kinds
                for (auto& a : t->args)
                    if (auto* r = std::get_if<Region>(&a))
                        checkRegion(*r, op->spelling(*t), m_diags, t->span, m_ranges, m_guarded > 0);
                ops::CheckContext cc{m_diags};
                op->check(cc, *t);
                return;
            }
        }
    }

private:
    /// Per-thread local buffers that `s` surely resets (plain write or T.clear / T.fill) each time
    /// it runs: straight-line code and both arms of an if; not loop bodies (they may not run).
    static std::set<const BufferNode*> resetsIn(const Stmt& s) {
        std::set<const BufferNode*> out;
        if (!s) return out;
        if (auto* q = as<SeqNode>(s)) {
            for (auto& c : q->stmts) out.merge(resetsIn(c));
        } else if (auto* st = as<StoreNode>(s); st && st->buffer->scope == Scope::Local) {
            bool reads = false;
            walkExpr(st->value, [&](const Expr& x) {
                auto* l = as<LoadNode>(x);
                reads = reads || (l && l->buffer == st->buffer);
            });
            if (!reads) out.insert(st->buffer.get());
        } else if (auto* t = as<TileOpNode>(s); t && t->op == TileOpKind::Fill && !t->args.empty() && t->isRegion(0) &&
                                                  t->region(0).buffer->scope == Scope::Local) {
            out.insert(t->region(0).buffer.get());
        } else if (auto* f = as<IfNode>(s); f && f->otherwise) {
            std::set<const BufferNode*> b = resetsIn(f->otherwise);
            for (const BufferNode* x : resetsIn(f->then))
                if (b.count(x)) out.insert(x);
        }
        return out;
    }

    /// A store every iteration of an enclosing T.Parallel variable v makes to the same element
    /// (its index does not use v), outside any `if`: iterations run on different threads, so
    /// `s[i] += x[i, j]` over a parallel j is a race (each thread adds its own part and one
    /// wins), and so is `s[i] = x[i, j]` (the last writer is any thread). The tile interpreter
    /// runs the iterations in order and would pass it (helper-130 #1). A per-thread local
    /// buffer written from v's value is a temporary of each iteration; accumulating into it
    /// (read-modify-write) is still wrong: each thread keeps its own partial sum.
    void checkParallelWrite(const StoreNode& n) {
        if (m_parallelVars.empty()) return;
        auto mentions = [](const Expr& e, const VarNode* v) {
            bool found = false;
            walkExpr(e, [&](const Expr& x) { found = found || as<VarNode>(x) == v; });
            return found;
        };
        auto text = [](const std::vector<Expr>& idx) {
            std::string t;
            for (size_t k = 0; k < idx.size(); ++k) t += (k ? ", " : "") + toString(idx[k]);
            return t;
        };
        const std::string at = text(n.indices);
        bool rmw = false;
        walkExpr(n.value, [&](const Expr& x) {
            auto* l = as<LoadNode>(x);
            rmw = rmw || (l && l->buffer.get() == n.buffer.get() && text(l->indices) == at);
        });
        // A plain write to a per-thread local buffer resets it for the iterations after it in
        // the same loop body (`acc = 0; for k in T.serial: acc += ...`): accumulating then is
        // one iteration's own work.
        if (!rmw && n.buffer->scope == Scope::Local) m_resetLocals.insert(n.buffer.get());
        for (size_t level = 0; level < m_parallelVars.size(); ++level) {
            const ForNode* loop = m_parallelVars[level];
            const VarNode* v = loop->var.get();
            if (constInt(loop->extent) == std::optional<int64_t>(1)) continue;  // one iteration: no other writer
            // Allocated inside this loop: each iteration has its own.
            if (auto it = m_allocLevel.find(n.buffer.get()); it != m_allocLevel.end() && it->second > level) continue;
            if (rmw && n.buffer->scope == Scope::Local && m_resetLocals.count(n.buffer.get())) continue;
            bool used = false;
            for (auto& i : n.indices) used = used || mentions(i, v);
            if (used) continue;
            const bool fromV = mentions(n.value, v);
            if (!rmw && !(fromV && n.buffer->scope != Scope::Local)) continue;
            const std::string line = loop->span.valid() ? " at line " + std::to_string(loop->span.line) : "";
            std::string elem = n.buffer->name;
            const bool scalar = n.buffer->scope == Scope::Local && n.indices.size() == 1 && constInt(n.indices[0]) == std::optional<int64_t>(0) &&
                                n.buffer->shape.size() == 1 && constInt(n.buffer->shape[0]) == std::optional<int64_t>(1);
            if (!n.indices.empty() && !scalar) elem += "[" + at + "]";
            m_diags.error(n.span,
                          std::string(rmw ? "updating " : "writing ") + elem + (rmw ? " from its own value" : "") + " in every iteration of '" +
                              v->name + "' (T.Parallel" + line + "), whose iterations run on different threads: " +
                              (rmw ? "each thread updates it from its own iterations only, and one thread's result is kept"
                                   : "which iteration's value is kept is undefined"),
                          rmw ? "reduce with T.reduce_sum / T.reduce_max (..., dim=...) into '" + n.buffer->name + "', or loop over '" + v->name +
                                    "' with T.serial inside the T.Parallel of the other dimensions"
                              : "index '" + n.buffer->name + "' by '" + v->name + "' too, or write it under an if that picks one iteration",
                          "check-bounds");
            return;
        }
    }

    void expr(const Expr& e) {
        if (!e) return;
        walkExpr(e, [&](const Expr& x) {
            if (auto* l = as<LoadNode>(x))
                checkAccess(*l->buffer, l->indices, l->span, m_diags, m_ranges, m_guarded > 0);
        });
    }
    void exprs(const std::vector<Expr>& es) {
        for (auto& e : es) expr(e);
    }

    DiagnosticEngine& m_diags;
    Ranges m_ranges;
    int m_guarded = 0;
    int m_parallel = 0;  ///< enclosing T.Parallel loops
    std::vector<const ForNode*> m_parallelVars;  ///< those loops, outermost first
    std::map<const BufferNode*, size_t> m_allocLevel;  ///< T.Parallel loops around each allocation
    std::set<const BufferNode*> m_resetLocals;  ///< local buffers plainly written in the current T.Parallel body
};

}  // namespace

PrimFunc checkBounds(const PrimFunc& f, PassContext& ctx) {
    // Also here, the first checking pass: tile work that only some threads would reach.
    refuseTileWorkUnderThreadCondition(f, ctx);
    refuseBarriersInDivergentFlow(f, ctx);
    refuseExplicitBarriersWithoutSm90(f, ctx);
    warnBlocksWritingOneRegion(f, ctx);
    Checker(ctx.diags).stmt(f->body);
    return f;
}

}  // namespace ts::xform
