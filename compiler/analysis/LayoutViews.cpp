#include "compiler/analysis/LayoutViews.h"

#include <sstream>
#include <unordered_map>

#include "compiler/analysis/LayoutBuild.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/ir/Functor.h"

namespace ts::analysis {
using namespace ts::ir;
using namespace lb;

Layout permuteLayout(const Layout& l, const std::vector<size_t>& perm) {
    bool identity = true;
    for (size_t d = 0; d < perm.size(); ++d) identity &= perm[d] == d;
    if (identity || perm.size() != l->inputs.size()) return l;
    auto out = std::make_shared<LayoutNode>(*l);
    out->shape.clear(), out->inputs.clear(), out->inverse.clear(), out->familyParams.clear();
    // The same thread/local expressions over the same input variables, listed in the new order.
    for (size_t d = 0; d < perm.size(); ++d) {
        out->shape.push_back(l->shape[perm[d]]);
        out->inputs.push_back(l->inputs[perm[d]]);
        out->inverse.push_back(l->inverse[perm[d]]);
        out->familyParams.push_back(static_cast<int64_t>(perm[d]));
    }
    out->family = "permuted";
    out->description = l->description + ", indices permuted";
    return out;
}

Layout reshapeLayout(const Layout& l, const std::vector<int64_t>& shape) {
    if (shape == l->shape) return l;
    int64_t numel = 1, oldNumel = 1;
    for (auto e : shape) numel *= e;
    for (auto e : l->shape) oldNumel *= e;
    if (numel != oldNumel || shape.empty() || l->shape.empty()) return nullptr;
    if (l->family == "replicated") return makeReplicated(shape, l->threads);
    std::vector<size_t> keptNew, keptOld;
    for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] != 1) keptNew.push_back(d);
    for (size_t d = 0; d < l->shape.size(); ++d)
        if (l->shape[d] != 1) keptOld.push_back(d);
    bool unitOnly = keptNew.size() == keptOld.size();
    for (size_t k = 0; unitOnly && k < keptNew.size(); ++k) unitOnly = shape[keptNew[k]] == l->shape[keptOld[k]];
    if (unitOnly) {
        // Only unit dims added or removed ((N,) <-> (N, 1)): exact even with padded slots; a
        // padded slot whose dropped unit index is not 0 is moved past the shape in a kept dim.
        auto out = newFragment(shape);
        out->invThread = l->invThread;
        out->invLocal = l->invLocal;
        std::unordered_map<const VarNode*, Expr> oldOf;
        Expr pad;
        for (size_t d = 0; d < l->shape.size(); ++d)
            if (l->shape[d] == 1) {
                oldOf[l->inputs[d].get()] = c(0);
                if (constInt(l->inverse[d]) != 0) pad = pad ? binary(BinOp::Or, pad, binary(BinOp::Ne, l->inverse[d], c(0))) : binary(BinOp::Ne, l->inverse[d], c(0));
            }
        for (size_t k = 0; k < keptNew.size(); ++k) oldOf[l->inputs[keptOld[k]].get()] = out->inputs[keptNew[k]];
        out->thread = substitute(l->thread, oldOf);
        out->local = substitute(l->local, oldOf);
        out->inverse.assign(shape.size(), c(0));
        for (size_t k = 0; k < keptNew.size(); ++k) out->inverse[keptNew[k]] = l->inverse[keptOld[k]];
        if (pad) {
            if (keptNew.empty()) return nullptr;
            Expr& first = out->inverse[keptNew[0]];
            first = select(pad, c(shape[keptNew[0]]), first);
        }
        out->threads = l->threads;
        out->localSize = l->localSize;
        out->replicate = l->replicate;
        std::ostringstream os;
        os << l->description << ", viewed as (";
        for (size_t d = 0; d < shape.size(); ++d) os << (d ? ", " : "") << shape[d];
        os << ")";
        out->description = os.str();
        out->family = "reshaped";
        out->familyParams = shape;
        return out;
    }
    // Padded slots: linearize only the leading dims; the last index passes through unchanged.
    const bool keepLast = l->localSize * l->threads != numel * l->replicate;
    if (keepLast && shape.back() != l->shape.back()) return nullptr;
    auto out = newFragment(shape);
    out->invThread = l->invThread;
    out->invLocal = l->invLocal;
    const size_t n = shape.size() - (keepLast ? 1 : 0), on = l->shape.size() - (keepLast ? 1 : 0);
    // Old indices from the new ones through the (leading) row-major linear index.
    Expr lin = c(0);
    for (size_t d = 0; d < n; ++d) lin = add(mulc(lin, shape[d]), out->inputs[d]);
    std::unordered_map<const VarNode*, Expr> oldOf;
    int64_t stride = 1;
    for (size_t k = on; k-- > 0;) {
        Expr q = div(lin, stride);
        oldOf[l->inputs[k].get()] = k == 0 ? q : mod(q, l->shape[k]);
        stride *= l->shape[k];
    }
    if (keepLast) oldOf[l->inputs.back().get()] = out->inputs.back();
    out->thread = substitute(l->thread, oldOf);
    out->local = substitute(l->local, oldOf);
    // New indices from the old inverse (padding rows past the shape stay past it in dim 0).
    Expr olin = c(0);
    for (size_t k = 0; k < on; ++k) olin = add(mulc(olin, l->shape[k]), l->inverse[k]);
    stride = 1;
    std::vector<Expr> inv(shape.size());
    for (size_t d = n; d-- > 0;) {
        Expr q = div(olin, stride);
        inv[d] = d == 0 ? q : mod(q, shape[d]);
        stride *= shape[d];
    }
    if (keepLast) inv.back() = l->inverse.back();
    out->inverse = inv;
    out->threads = l->threads;
    out->localSize = l->localSize;
    out->replicate = l->replicate;
    std::ostringstream os;
    os << l->description << ", viewed as (";
    for (size_t d = 0; d < shape.size(); ++d) os << (d ? ", " : "") << shape[d];
    os << ")";
    out->description = os.str();
    out->family = "reshaped";
    out->familyParams = shape;
    return out;
}

}  // namespace ts::analysis
