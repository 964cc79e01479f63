#include "compiler/transforms/LowerCommon.h"

#include <limits>
#include <stdexcept>

#include "compiler/ir/Functor.h"
#include "compiler/ir/NonNegative.h"

namespace ts::xform::lower {
using namespace ts::ir;

Layout Ctx::layoutOf(const std::string& name) const {
    auto it = func.layouts.find(name);
    return it == func.layouts.end() ? nullptr : it->second;
}

void Ctx::error(Span s, const std::string& msg, const std::string& hint) { pass.diags.error(s, msg, hint, "lower-tile-ops"); }

std::optional<std::vector<int64_t>> squeezedExtents(const Region& r) {
    std::vector<int64_t> out;
    for (auto& rg : r.ranges) {
        auto e = constInt(rg.extent);
        if (!e) return std::nullopt;
        if (*e != 1) out.push_back(*e);
    }
    return out;
}

std::vector<Expr> regionIndex(const Region& r, const std::vector<Expr>& sq) {
    std::vector<Expr> idx;
    size_t k = 0;
    for (auto& rg : r.ranges) {
        auto e = constInt(rg.extent);
        if (e && *e == 1) idx.push_back(rg.min);
        else idx.push_back(add(rg.min, k < sq.size() ? sq[k++] : intImm(0)));
    }
    return idx;
}

namespace {
/// The by-value scalar arguments of the function lower-tile-ops is lowering (SignedVarsScope):
/// inBounds is reached from every tile op's lowering, which do not all carry the function.
thread_local const SignedVars* t_signed = nullptr;
}  // namespace

SignedVarsScope::SignedVarsScope(const PrimFuncNode& f) : m_vars(signedScalars(f)), m_prev(t_signed) { t_signed = &m_vars; }
SignedVarsScope::~SignedVarsScope() { t_signed = m_prev; }

Expr inBounds(const Buffer& b, const std::vector<Expr>& idx) {
    if (b->scope != Scope::Global) return nullptr;
    Expr cond;
    for (size_t d = 0; d < idx.size() && d < b->shape.size(); ++d) {
        cond = logicalAnd(cond, lt(idx[d], b->shape[d]));
        // A start read from memory or computed by a subtraction can be negative
        // (T.copy(K[cu_seqlens_k[b] + ...]), a window before position 0): out of bounds as
        // much as one past the end, so zero-filled / not written like it, as the tile-level
        // interpreter and TileLang (both halves of the predicate) do.
        if (!nonNegativeByForm(idx[d], t_signed))
            cond = logicalAnd(cond, binary(BinOp::Ge, idx[d], intImm(0)));
    }
    return cond;
}

namespace {
[[noreturn]] void missingFragment(const BufferNode* b) {
    throw std::logic_error("fragment '" + (b ? b->name : std::string("?")) +
                           "' has no registers here (it reached a tile op without an allocation lower-tile-ops saw)");
}
}  // namespace

LoweredFragment& FragmentMap::at(const BufferNode* b) {
    auto it = find(b);
    if (it == end()) missingFragment(b);
    return it->second;
}

const LoweredFragment& FragmentMap::at(const BufferNode* b) const {
    auto it = find(b);
    if (it == end()) missingFragment(b);
    return it->second;
}

bool divisibleBy(const Expr& e, int64_t v) {
    if (v <= 1) return true;
    if (auto c = constInt(e)) return *c % v == 0;
    auto* b = as<BinaryNode>(e);
    if (!b) return false;
    switch (b->op) {
        case BinOp::Add:
        case BinOp::Sub: return divisibleBy(b->a, v) && divisibleBy(b->b, v);
        case BinOp::Mul: return divisibleBy(b->a, v) || divisibleBy(b->b, v);
        default: return false;
    }
}

Expr addressOf(const Buffer& b, std::vector<Expr> idx) {
    return call(intrin::kAddressOf, {load(b, std::move(idx))}, DType::Int64);
}

Stmt intrinsicStmt(const std::string& op, std::vector<Expr> args, Span sp) {
    return evaluate(call(op, std::move(args), DType::Int32, sp), sp);
}

Expr regionBase(const Region& r) {
    std::vector<Expr> idx;
    for (auto& rg : r.ranges) idx.push_back(rg.min);
    return addressOf(r.buffer, idx);
}

std::pair<std::string, std::string> parallelLoopText(const BufferNode& b) {
    static const char* vars[] = {"i", "j", "k", "l"};
    const size_t n = std::min<size_t>(std::max<size_t>(b.shape.size(), 1), 4);
    std::string v, e, idx;
    for (size_t d = 0; d < n; ++d) {
        const std::string sep = d ? ", " : "";
        v += sep + vars[d];
        e += sep + "e" + std::to_string(d);
        idx += sep + "o" + std::to_string(d) + " + " + vars[d];
    }
    return {"for " + v + " in T.Parallel(" + e + "):", b.name + "[" + idx + "]"};
}

Stmt clearAccumulator(Ctx& c, const LoweredFragment& f, DType t, Span sp) {
    Var r = makeVar(c.fresh("r"), DType::Int32, sp);
    return forLoop(r, intImm(0), intImm(f.layout->localSize), ForKind::Unrolled, store(f.regs, {r}, cast(t, floatImm(0.0)), sp),
                   {{"thread_loop", true}}, sp);
}

std::vector<Expr> delinearize(const Expr& lin, const std::vector<int64_t>& extents) {
    std::vector<Expr> out(extents.size());
    int64_t inner = 1;
    for (size_t d = extents.size(); d-- > 0;) {
        Expr q = floordiv(lin, intImm(inner));
        out[d] = d == 0 ? q : floormod(q, intImm(extents[d]));
        inner *= extents[d];
    }
    return out;
}

Expr fragmentLoad(Ctx& c, const LoadNode& l, const Expr& localIndex) {
    auto& f = c.frags.at(l.buffer.get());
    return load(f.regs, {localIndex}, l.span);
}

Expr isFirstHolder(Ctx& c, const LayoutNode& L, const Expr& local) {
    std::unordered_map<const VarNode*, Expr> inv{{L.invThread.get(), c.tx}, {L.invLocal.get(), local}};
    std::unordered_map<const VarNode*, Expr> m;
    for (size_t d = 0; d < L.inputs.size(); ++d) m[L.inputs[d].get()] = substitute(L.inverse[d], inv);
    return binary(BinOp::Eq, substitute(L.thread, m), c.tx);
}

Expr reduceCombine(const std::string& op, Expr a, Expr b, bool nanPropagate) {
    if (op != "max" && op != "absmax" && op != "min") return add(a, b);
    Expr m = binary(op == "min" ? BinOp::Min : BinOp::Max, a, b);
    if (!nanPropagate || !isFloat(m->dtype)) return m;
    // x != x only for NaN; 16- and 8-bit floats compare in float32 (CUDA's __hne is false for NaN).
    auto isNan = [](const Expr& x) {
        Expr w = x->dtype == DType::Float64 || x->dtype == DType::Float32 ? x : cast(DType::Float32, x);
        return binary(BinOp::Ne, w, w);
    };
    return select(isNan(a), a, select(isNan(b), b, m));
}
bool reduceNanPropagate(const Attrs& attrs) { return attrBool(attrs, "nan_propagate", false); }
std::string reduceShuffleOp(const std::string& op, bool nanPropagate) {
    std::string s = op == "max" || op == "absmax" ? "max" : op == "min" ? "min" : "sum";
    return s != "sum" && nanPropagate ? s + "_nan" : s;
}
Expr reduceIdentity(const std::string& op, DType t) {
    if ((op == "max" || op == "min") && !isFloat(t)) {
        // Integers have no infinity: max starts from the type's lowest value, min from its
        // highest (uint64's highest is spelled -1, which C++ converts to 2^64 - 1).
        int bits = dtypeBits(t);
        bool max = op == "max";
        if (t == DType::Bool) return intImm(max ? 0 : 1, {}, t);
        if (!isSigned(t))
            return intImm(max ? 0 : (bits >= 64 ? -1 : (int64_t(1) << bits) - 1), {}, t);
        int64_t hi =
            bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (bits - 1)) - 1;
        return intImm(max ? -hi - 1 : hi, {}, t);
    }
    if (op == "max") return call("ninfinity", {}, t);
    if (op == "min") return call("infinity", {}, t);
    return cast(t, floatImm(0.0));  // sum, abssum, absmax (|x| >= 0)
}

}  // namespace ts::xform::lower
