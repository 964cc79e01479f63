#include "compiler/analysis/UserLayouts.h"

#include <algorithm>
#include <functional>
#include <sstream>

#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Printer.h"

namespace ts::analysis {
using namespace ts::ir;

namespace {

using Env = std::vector<std::pair<const VarNode*, int64_t>>;
// Largest dynamic shared memory per block (sm_90: 227 KB; CUDA C++ Programming Guide,
// "Technical Specifications per Compute Capability").
constexpr int64_t kMaxSharedBytes = 232448;

int64_t product(const std::vector<int64_t>& v) {
    int64_t p = 1;
    for (auto e : v) p *= e;
    return p;
}

std::vector<int64_t> unflatten(int64_t lin, const std::vector<int64_t>& shape) {
    std::vector<int64_t> idx(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        idx[d] = lin % shape[d];
        lin /= shape[d];
    }
    return idx;
}

// Whether `e` divides by zero at this element: the one way evalInt fails on a map that is
// otherwise integer arithmetic (`j // (i - 3)` at i = 3), worth its own message.
bool dividesByZero(const Expr& e, const Env& env) {
    if (auto* b = as<BinaryNode>(e)) {
        if (b->op == BinOp::FloorDiv || b->op == BinOp::FloorMod || b->op == BinOp::Div)
            if (auto d = evalInt(b->b, env); d && *d == 0) return true;
        return dividesByZero(b->a, env) || dividesByZero(b->b, env);
    }
    if (auto* u = as<UnaryNode>(e)) return dividesByZero(u->a, env);
    if (auto* x = as<SelectNode>(e))
        return dividesByZero(x->cond, env) || dividesByZero(x->t, env) || dividesByZero(x->f, env);
    if (auto* c = as<CastNode>(e)) return dividesByZero(c->value, env);
    return false;
}

std::string tupleText(const std::vector<int64_t>& v) {
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + ")";
}

std::string lineText(Span s) { return s.valid() ? " at line " + std::to_string(s.line) : ""; }

bool inShape(const std::vector<int64_t>& idx, const std::vector<int64_t>& shape) {
    for (size_t d = 0; d < idx.size(); ++d)
        if (idx[d] < 0 || idx[d] >= shape[d]) return false;
    return true;
}

// The inverse table of a fragment layout: slot t*localSize + r -> logical index (empty: none).
std::optional<std::vector<std::vector<int64_t>>> inverseTable(const LayoutNode& l) {
    std::vector<std::vector<int64_t>> out(static_cast<size_t>(l.threads * l.localSize));
    Env env{{l.invThread.get(), 0}, {l.invLocal.get(), 0}};
    for (int64_t t = 0; t < l.threads; ++t)
        for (int64_t r = 0; r < l.localSize; ++r) {
            env[0].second = t, env[1].second = r;
            std::vector<int64_t> idx;
            for (auto& e : l.inverse) {
                auto v = evalInt(e, env);
                if (!v) return std::nullopt;
                idx.push_back(*v);
            }
            if (inShape(idx, l.shape))
                out[static_cast<size_t>(t * l.localSize + r)] = std::move(idx);
        }
    return out;
}

std::vector<int64_t> primeFactors(int64_t n) {
    std::vector<int64_t> f;
    for (int64_t p = 2; p * p <= n; ++p)
        while (n % p == 0) f.push_back(p), n /= p;
    if (n > 1) f.push_back(n);
    return f;
}

// Fragment families a user layout may coincide with, the compiler's own choice first.
std::vector<Layout> fragmentCandidates(const std::vector<int64_t>& shape, int64_t threads,
                                       int64_t replicate, int eltBytes) {
    std::vector<Layout> out;
    std::vector<int64_t> groups;
    for (int64_t g = 1; g <= threads; ++g)
        if (threads % g == 0 && (g <= 32 ? (g & (g - 1)) == 0 : g % 32 == 0)) groups.push_back(g);
    if (shape.size() == 1 && replicate > 1) {
        for (int64_t gc : groups) {
            if (gc != replicate) continue;
            BlockFragmentParams p{shape[0], gc, threads, 1, gc, threads / gc};
            out.push_back(makeRowReduced(p));
        }
        return out;
    }
    if (replicate != 1 || shape.empty() || shape.size() > 2) return out;
    int64_t rows = shape.size() == 2 ? shape[0] : 1, cols = shape.back();
    bool oneD = shape.size() == 1;
    out.push_back(makeBlockFragment(chooseBlockFragment(rows, cols, threads, eltBytes), oneD));
    for (int64_t vec : {1, 2, 4, 8, 16}) {
        if (cols % vec != 0) continue;
        for (int64_t gc : groups)
            out.push_back(makeBlockFragment({rows, cols, threads, vec, gc, threads / gc}, oneD));
    }
    if (oneD) {
        for (int64_t gc : groups)
            out.push_back(makeRowReduced({cols, gc, threads, 1, gc, threads / gc}));
        return out;
    }
    for (int64_t wm = 1; wm * 32 <= threads; ++wm) {
        if ((threads / 32) % wm != 0) continue;
        int64_t wn = threads / 32 / wm;
        if (threads % 32 == 0 && rows % (16 * wm) == 0 && cols % (8 * wn) == 0)
            out.push_back(
                makeMmaAccumulator(rows, cols, {static_cast<int>(wm), static_cast<int>(wn)}));
    }
    return out;
}

std::string joinDescription(Span origin, const std::string& what, const std::string& desc) {
    return what + lineText(origin) + " = " + desc;
}

}  // namespace

std::optional<std::vector<Expr>> fitDigitAffineInverse(
    const std::vector<std::vector<int64_t>>& slots, int64_t threads, int64_t localSize,
    const std::vector<int64_t>& shape, const Var& t, const Var& r) {
    const size_t D = shape.size();
    struct Digit {
        int var;  // 0: thread, 1: register
        int64_t stride, radix;
        std::vector<int64_t> coef;
    };
    auto slotOf = [&](int64_t tt, int64_t rr) { return static_cast<size_t>(tt * localSize + rr); };
    auto fit = [&](bool tAsc, bool rAsc) -> std::optional<std::vector<Expr>> {
        std::vector<Digit> digits;
        for (int var = 0; var < 2; ++var) {
            auto f = primeFactors(var == 0 ? threads : localSize);
            if (!(var == 0 ? tAsc : rAsc)) std::reverse(f.begin(), f.end());
            int64_t stride = 1;
            for (auto p : f) {
                digits.push_back({var, stride, p, {}});
                stride *= p;
            }
        }
        auto digitOf = [&](const Digit& d, int64_t tt, int64_t rr) {
            return ((d.var == 0 ? tt : rr) / d.stride) % d.radix;
        };
        // Coefficients: the index step between two used slots one unit apart in that digit.
        for (auto& d : digits) {
            for (int64_t tt = 0; tt < threads && d.coef.empty(); ++tt)
                for (int64_t rr = 0; rr < localSize && d.coef.empty(); ++rr) {
                    const auto& a = slots[slotOf(tt, rr)];
                    if (a.empty() || digitOf(d, tt, rr) + 1 >= d.radix) continue;
                    const auto& b =
                        slots[d.var == 0 ? slotOf(tt + d.stride, rr) : slotOf(tt, rr + d.stride)];
                    if (b.empty()) continue;
                    d.coef.resize(D);
                    for (size_t k = 0; k < D; ++k) d.coef[k] = b[k] - a[k];
                }
            // Never varied among used slots: send its other values past the shape.
            if (d.coef.empty()) {
                d.coef.assign(D, 0);
                d.coef[0] = shape[0];
            }
        }
        std::vector<int64_t> base;
        for (int64_t tt = 0; tt < threads && base.empty(); ++tt)
            for (int64_t rr = 0; rr < localSize && base.empty(); ++rr) {
                const auto& a = slots[slotOf(tt, rr)];
                if (a.empty()) continue;
                base = a;
                for (auto& d : digits)
                    for (size_t k = 0; k < D; ++k) base[k] -= d.coef[k] * digitOf(d, tt, rr);
            }
        if (base.empty()) return std::nullopt;
        for (int64_t tt = 0; tt < threads; ++tt)
            for (int64_t rr = 0; rr < localSize; ++rr) {
                std::vector<int64_t> m = base;
                for (auto& d : digits)
                    for (size_t k = 0; k < D; ++k) m[k] += d.coef[k] * digitOf(d, tt, rr);
                const auto& a = slots[slotOf(tt, rr)];
                if (!a.empty() && m != a) return std::nullopt;
                if (a.empty()) {
                    bool nonNeg = std::all_of(m.begin(), m.end(), [](int64_t v) { return v >= 0; });
                    if (!nonNeg || inShape(m, shape)) return std::nullopt;
                }
            }
        // Closed form: runs of consecutive digits of one variable whose coefficients grow by the
        // radix are one term c * ((x / stride) % extent).
        std::vector<Expr> out;
        for (size_t k = 0; k < D; ++k) {
            Expr e = intImm(base[k]);
            size_t i = 0;
            while (i < digits.size()) {
                const Digit& d0 = digits[i];
                int64_t c = d0.coef[k];
                if (c == 0) {
                    ++i;
                    continue;
                }
                int64_t extent = d0.radix;
                size_t j = i + 1;
                while (j < digits.size() && digits[j].var == d0.var &&
                       digits[j].coef[k] == c * extent) {
                    extent *= digits[j].radix;
                    ++j;
                }
                Expr x = d0.var == 0 ? Expr(t) : Expr(r);
                int64_t range = d0.var == 0 ? threads : localSize;
                Expr term = floordiv(x, intImm(d0.stride));
                if (d0.stride * extent < range) term = floormod(term, intImm(extent));
                e = add(e, mul(term, intImm(c)));
                i = j;
            }
            out.push_back(e);
        }
        return out;
    };
    for (bool tAsc : {true, false})
        for (bool rAsc : {true, false})
            if (auto f = fit(tAsc, rAsc)) return f;
    return std::nullopt;
}

UserLayoutResult buildUserFragment(const UserLayoutSpec& s, int64_t threads, int eltBytes,
                                   const std::string& buffer) {
    UserLayoutResult res;
    const std::string who = "T.Fragment for '" + buffer + "'";
    const int64_t numel = product(s.shape), R = std::max<int64_t>(1, s.replicate);
    struct Entry {
        int64_t elem, thread;
        std::vector<int64_t> out;
    };
    std::vector<Entry> entries;
    std::vector<int64_t> ext(s.index.size(), 1);
    for (int64_t e = 0; e < numel; ++e) {
        auto idx = unflatten(e, s.shape);
        Env env;
        for (size_t d = 0; d < idx.size(); ++d) env.push_back({s.inputs[d].get(), idx[d]});
        for (int64_t c = 0; c < R; ++c) {
            if (s.rep) {
                if (env.size() > idx.size()) env.pop_back();
                env.push_back({s.rep.get(), c});
            }
            auto t = evalInt(s.thread, env);
            if (!t && dividesByZero(s.thread, env)) {
                res.error =
                    who + ": forward_thread_fn divides by zero at element " + tupleText(idx);
                res.hint = "a // or % in the map has a divisor that is 0 for this element";
                return res;
            }
            if (!t) {
                res.error = who + ": forward_thread_fn is not integer arithmetic of the indices";
                res.hint = "use +, -, *, //, % and T.if_then_else on the lambda's arguments";
                return res;
            }
            if (*t < 0 || *t >= threads) {
                res.error = who + ": element " + tupleText(idx) + " is mapped to thread " +
                            std::to_string(*t) + ", outside the kernel's " +
                            std::to_string(threads) + " threads";
                res.hint = "forward_thread_fn must return a thread in [0, " +
                           std::to_string(threads) + ")";
                return res;
            }
            Entry en{e, *t, {}};
            for (size_t k = 0; k < s.index.size(); ++k) {
                auto v = evalInt(s.index[k], env);
                if (!v && dividesByZero(s.index[k], env)) {
                    res.error =
                        who + ": forward_index_fn divides by zero at element " + tupleText(idx);
                    res.hint = "a // or % in the map has a divisor that is 0 for this element";
                    return res;
                }
                if (!v) {
                    res.error = who + ": forward_index_fn is not integer arithmetic of the indices";
                    res.hint = "use +, -, *, //, % and T.if_then_else on the lambda's arguments";
                    return res;
                }
                if (*v < 0) {
                    res.error = who + ": element " + tupleText(idx) + " has local index " +
                                std::to_string(*v) + ", below 0";
                    res.hint = "forward_index_fn must return register indices >= 0";
                    return res;
                }
                ext[k] = std::max(ext[k], *v + 1);
                en.out.push_back(*v);
            }
            entries.push_back(std::move(en));
        }
    }
    // Several local outputs are flattened row-major over their extents.
    std::vector<int64_t> stride(ext.size(), 1);
    for (size_t k = ext.size(); k-- > 1;) stride[k - 1] = stride[k] * ext[k];
    const int64_t localSize = product(ext);
    if (threads * localSize > int64_t(1) << 24) {
        res.error = who + ": " + std::to_string(localSize) +
                    " registers per thread is far more than a thread can hold";
        res.hint = "spread the elements over the threads (forward_thread_fn) so each holds few";
        return res;
    }
    std::vector<int64_t> owner(static_cast<size_t>(threads * localSize), -1);
    std::vector<std::vector<int64_t>> slots(owner.size());
    for (auto& en : entries) {
        int64_t local = 0;
        for (size_t k = 0; k < en.out.size(); ++k) local += en.out[k] * stride[k];
        size_t slot = static_cast<size_t>(en.thread * localSize + local);
        if (owner[slot] >= 0) {
            res.error = who + ": elements " + tupleText(unflatten(owner[slot], s.shape)) + " and " +
                        tupleText(unflatten(en.elem, s.shape)) + " are both mapped to thread " +
                        std::to_string(en.thread) + ", local index " + std::to_string(local);
            res.hint =
                owner[slot] == en.elem
                    ? "the replicated copies of an element must go to different threads"
                    : "each (thread, local index) slot holds one element: make the map one-to-one";
            return res;
        }
        owner[slot] = en.elem;
        slots[slot] = unflatten(en.elem, s.shape);
    }
    // 1. One of our families, element for element?
    // Forward map of copy 0 per element, to reject candidates on a sample before comparing tables.
    std::vector<std::pair<int64_t, int64_t>> first(static_cast<size_t>(numel));
    for (size_t i = 0; i < entries.size(); i += static_cast<size_t>(R)) {
        int64_t local = 0;
        for (size_t k = 0; k < entries[i].out.size(); ++k) local += entries[i].out[k] * stride[k];
        first[static_cast<size_t>(entries[i].elem)] = {entries[i].thread, local};
    }
    for (auto& cand : fragmentCandidates(s.shape, threads, R, eltBytes)) {
        if (cand->localSize != localSize || cand->threads != threads) continue;
        bool plausible = true;
        for (int64_t e = 0; e < numel && plausible; e += std::max<int64_t>(1, numel / 97))
            plausible = fragmentLocate(*cand, unflatten(e, s.shape)) ==
                        std::optional(first[static_cast<size_t>(e)]);
        if (!plausible) continue;
        auto table = inverseTable(*cand);
        if (!table || *table != slots) continue;
        auto l = std::make_shared<LayoutNode>(*cand);
        l->origin = s.span;
        l->description = joinDescription(s.span, "T.Fragment", cand->description);
        res.layout = l;
        return res;
    }
    // 2. The general path: forward maps as written, mixed-radix affine inverse.
    auto l = std::make_shared<LayoutNode>();
    l->kind = LayoutKind::Fragment;
    l->shape = s.shape;
    l->inputs = s.inputs;
    l->thread = s.thread;
    if (s.rep) {
        std::unordered_map<const VarNode*, Expr> m{{s.rep.get(), intImm(0)}};
        l->thread = substitute(s.thread, m);
    }
    Expr local = intImm(0);
    for (size_t k = 0; k < s.index.size(); ++k)
        local = add(local, mul(s.index[k], intImm(stride[k])));
    l->local = local;
    l->threads = threads;
    l->localSize = localSize;
    l->replicate = R;
    l->invThread = makeVar("t");
    l->invLocal = makeVar("r");
    l->origin = s.span;
    auto inv = fitDigitAffineInverse(slots, threads, localSize, s.shape, l->invThread, l->invLocal);
    if (!inv) {
        res.error = who +
                    ": this layout cannot be lowered: its inverse (thread, local index) -> element "
                    "is not an "
                    "affine function of the digits of the thread and local index";
        res.hint =
            "write the maps with //, % and * of the indices (transposes, strided or permuted "
            "thread orders "
            "are fine; XOR or rotated maps are not), or drop the annotation and let the compiler "
            "choose";
        return res;
    }
    l->inverse = *inv;
    l->family = "user";
    // Identity for sameLayout(): a hash of the slot table (equal tables => equal layouts).
    uint64_t h = 1469598103934665603ull;
    for (auto o : owner) h = (h ^ static_cast<uint64_t>(o + 1)) * 1099511628211ull;
    l->familyParams = {threads, localSize, R, static_cast<int64_t>(h >> 1)};
    std::ostringstream os;
    os << "T.Fragment" << lineText(s.span) << ": " << localSize << " regs/thread over " << threads
       << " threads";
    if (R > 1) os << ", replicated x" << R;
    if (threads * localSize != numel * R) os << " (padded slots)";
    // The derived inverse, in the printer's syntax: what lowering will index with.
    const bool one = l->inverse.size() == 1;
    os << ", inverse " << (one ? "" : "(");
    for (size_t d = 0; d < l->inputs.size(); ++d) os << (d ? ", " : "") << l->inputs[d]->name;
    os << (one ? " = " : ") = (");
    for (size_t d = 0; d < l->inverse.size(); ++d) os << (d ? ", " : "") << toString(l->inverse[d]);
    os << (one ? "" : ")");
    l->description = os.str();
    res.layout = l;
    return res;
}

UserLayoutResult buildUserShared(const UserLayoutSpec& s, int eltBytes, const std::string& buffer) {
    UserLayoutResult res;
    const std::string who = "T.Layout for '" + buffer + "'";
    const int64_t numel = product(s.shape);
    std::vector<std::vector<int64_t>> outs(static_cast<size_t>(numel));
    std::vector<int64_t> ext(s.index.size(), 1);
    for (int64_t e = 0; e < numel; ++e) {
        auto idx = unflatten(e, s.shape);
        Env env;
        for (size_t d = 0; d < idx.size(); ++d) env.push_back({s.inputs[d].get(), idx[d]});
        for (size_t k = 0; k < s.index.size(); ++k) {
            auto v = evalInt(s.index[k], env);
            if (!v && dividesByZero(s.index[k], env)) {
                res.error = who + ": the index map divides by zero at element " + tupleText(idx);
                res.hint = "a // or % in the map has a divisor that is 0 for this element";
                return res;
            }
            if (!v) {
                res.error = who + ": the index map is not integer arithmetic of the indices";
                res.hint = "use +, -, *, //, %, ^ and T.if_then_else on the lambda's arguments";
                return res;
            }
            if (*v < 0) {
                res.error = who + ": element " + tupleText(idx) + " is mapped to " +
                            std::to_string(*v) + ", below the start of the allocation";
                res.hint = "the index map must return offsets >= 0";
                return res;
            }
            ext[k] = std::max(ext[k], *v + 1);
            outs[static_cast<size_t>(e)].push_back(*v);
        }
    }
    std::vector<int64_t> stride(ext.size(), 1);
    for (size_t k = ext.size(); k-- > 1;) stride[k - 1] = stride[k] * ext[k];
    const int64_t phys = product(ext);
    if (phys * eltBytes > kMaxSharedBytes || phys > (int64_t(1) << 26)) {
        res.error = who + ": the index map spans " + std::to_string(phys) + " elements (" +
                    std::to_string(phys * eltBytes) + " bytes), more than the " +
                    std::to_string(kMaxSharedBytes) +
                    " bytes of shared memory a block can allocate";
        res.hint = "the physical range is the largest offset + 1; check the map's strides";
        return res;
    }
    std::vector<int64_t> offs(static_cast<size_t>(numel)), owner(static_cast<size_t>(phys), -1);
    for (int64_t e = 0; e < numel; ++e) {
        int64_t o = 0;
        for (size_t k = 0; k < ext.size(); ++k) o += outs[static_cast<size_t>(e)][k] * stride[k];
        offs[static_cast<size_t>(e)] = o;
        if (owner[static_cast<size_t>(o)] >= 0) {
            res.error = who + ": elements " +
                        tupleText(unflatten(owner[static_cast<size_t>(o)], s.shape)) + " and " +
                        tupleText(unflatten(e, s.shape)) + " are both mapped to offset " +
                        std::to_string(o);
            res.hint = "the index map must be one-to-one";
            return res;
        }
        owner[static_cast<size_t>(o)] = e;
    }
    // 1. Row-major with padded rows, or XOR-swizzled (the forms lower-to-threads emits).
    const size_t D = s.shape.size();
    const int64_t cols = s.shape.back(), rows = D >= 2 ? s.shape[D - 2] : 1;
    auto familyOffset = [&](const std::vector<int64_t>& idx, int64_t pad, int mode) {
        if (D == 1) return idx[0];
        int64_t tile = 0;
        for (size_t d = 0; d + 2 < D; ++d) tile = tile * s.shape[d] + idx[d];
        int64_t in = idx[D - 2] * (cols + pad) + idx[D - 1];
        if (mode) in = swizzleBytes(in * eltBytes, cols * eltBytes, mode) / eltBytes;
        return tile * rows * (cols + pad) + in;
    };
    std::vector<std::pair<int64_t, int>> cands;
    int64_t pad = D >= 2 && numel > cols ? offs[static_cast<size_t>(cols)] - cols : 0;
    if (pad >= 0) cands.push_back({pad, 0});
    if (D >= 2 && (cols * eltBytes) % 16 == 0)
        for (int mode : {128, 64, 32}) cands.push_back({0, mode});
    for (auto [p, mode] : cands) {
        bool same = true;
        for (int64_t e = 0; e < numel && same; ++e)
            same = familyOffset(unflatten(e, s.shape), p, mode) == offs[static_cast<size_t>(e)];
        if (!same) continue;
        auto l = std::make_shared<LayoutNode>(*makeSharedLayout(s.shape, eltBytes, mode, p));
        l->origin = s.span;
        l->description = joinDescription(s.span, "T.Layout", l->description);
        res.layout = l;
        return res;
    }
    // 2. General: lower-to-threads substitutes the map.
    auto l = std::make_shared<LayoutNode>();
    l->kind = LayoutKind::Shared;
    l->shape = s.shape;
    l->inputs = s.inputs;
    Expr off = intImm(0);
    for (size_t k = 0; k < s.index.size(); ++k) off = add(off, mul(s.index[k], intImm(stride[k])));
    l->offset = off;
    l->physicalElems = phys;
    l->rowBytes = cols * eltBytes;
    l->origin = s.span;
    l->family = "user_shared";
    uint64_t h = 1469598103934665603ull;
    for (auto o : offs) h = (h ^ static_cast<uint64_t>(o)) * 1099511628211ull;
    l->familyParams = {phys, static_cast<int64_t>(h >> 1)};
    std::ostringstream os;
    os << "T.Layout" << lineText(s.span) << ": index map over " << phys << " elements";
    if (phys > numel) os << " (" << phys - numel << " padding)";
    l->description = os.str();
    res.layout = l;
    return res;
}

bool sameMapping(const LayoutNode& a, const LayoutNode& b) {
    if (&a == &b) return true;
    if (a.kind != b.kind || a.shape != b.shape) return false;
    bool userish = a.family == "user" || a.family == "user_shared";
    if (a.family == b.family && a.familyParams == b.familyParams && !userish) return true;
    if (a.kind == LayoutKind::Shared) {
        if (a.family == "user_shared" || b.family == "user_shared")
            return a.family == b.family && a.familyParams == b.familyParams;
        return a.swizzleBytes == b.swizzleBytes && a.padElems == b.padElems &&
               a.rowBytes == b.rowBytes;
    }
    if (a.threads != b.threads || a.localSize != b.localSize || a.replicate != b.replicate)
        return false;
    if (a.family == b.family && a.familyParams == b.familyParams) return true;
    auto ta = inverseTable(a), tb = inverseTable(b);
    return ta && tb && *ta == *tb;
}

}  // namespace ts::analysis
