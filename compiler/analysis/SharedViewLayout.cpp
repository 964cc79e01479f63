#include "compiler/analysis/SharedViewLayout.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "compiler/analysis/Banks.h"
#include "compiler/ir/IR.h"
#include "compiler/ir/Views.h"

namespace ts::analysis {
using namespace ts::ir;

bool isRowMajorShared(const LayoutNode* l) {
    return !l || (l->kind == LayoutKind::Shared && l->swizzleBytes == 0 && l->padElems == 0 && !l->offset);
}

namespace {

const LayoutNode* layoutOf(const PrimFuncNode& f, const std::string& name) {
    auto it = f.layouts.find(name);
    return it == f.layouts.end() ? nullptr : it->second.get();
}

int64_t bitsOf(const BufferNode& b) {
    auto n = constNumel(b);
    return n ? *n * dtypeBits(b.dtype) : -1;
}

/// Where layout `l` puts each 16-byte chunk of buffer `b` (row-major chunk index -> physical
/// chunk index), or nullopt when it does not keep every chunk whole at a 16-byte boundary (or
/// the shape is not constant, or the elements are not whole bytes dividing 16).
std::optional<std::vector<int64_t>> chunkMap(const BufferNode& b, const LayoutNode* l) {
    auto shape = constShape(b);
    const int eb = dtypeBits(b.dtype) / 8;
    if (!shape || dtypeBits(b.dtype) % 8 || eb <= 0 || 16 % eb) return std::nullopt;
    int64_t n = 1;
    for (int64_t e : *shape) n *= e;
    if (n > (int64_t(1) << 22)) return std::nullopt;
    const int64_t per = 16 / eb;
    std::vector<int64_t> map;
    map.reserve(size_t(n / per + 1));
    std::vector<int64_t> idx(shape->size(), 0);
    int64_t first = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t p = isRowMajorShared(l) ? i : sharedElementOffset(*l, idx, eb);
        if (i % per == 0) {
            if (p % per) return std::nullopt;
            first = p;
            map.push_back(p / per);
        } else if (p != first + i % per) {
            return std::nullopt;
        }
        for (size_t d = idx.size(); d-- > 0;) {  // the next element, row-major
            if (++idx[d] < (*shape)[d]) break;
            idx[d] = 0;
        }
    }
    return map;
}

bool sameBytes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    const size_t n = std::min(a.size(), b.size());
    return std::equal(a.begin(), a.begin() + std::ptrdiff_t(n), b.begin());
}

}  // namespace

std::map<std::string, SharedPlacement> sharedPlacements(const PrimFuncNode& f) {
    std::map<std::string, SharedPlacement> out;
    std::map<std::string, std::vector<std::string>> views;  // tile -> its views
    for (auto& [k, v] : f.attrs)
        if (k.rfind("smem_view_of.", 0) == 0)
            if (auto* t = std::get_if<std::string>(&v)) views[*t].push_back(k.substr(13));
    if (views.empty()) return out;
    std::map<std::string, const BufferNode*> shared;
    std::vector<std::string> order;  // allocation order, for a deterministic authority
    walk(f.body, [&](const Stmt& s) {
        if (auto* a = as<AllocNode>(s); a && a->buffer->scope == Scope::Shared && !shared.count(a->buffer->name)) {
            shared[a->buffer->name] = a->buffer.get();
            order.push_back(a->buffer->name);
        }
    });
    for (auto& [tile, vs] : views) {
        std::vector<std::string> members{tile};
        for (auto& n : order)
            if (std::find(vs.begin(), vs.end(), n) != vs.end()) members.push_back(n);
        std::string auth;
        for (auto& m : members)
            if (shared.count(m) && !isRowMajorShared(layoutOf(f, m))) {
                auth = m;
                break;
            }
        if (auth.empty()) continue;  // every name row-major: the bytes are where they seem
        const BufferNode& A = *shared[auth];
        const LayoutNode* LA = layoutOf(f, auth);
        const std::string authText = "'" + auth + "' (" + LA->description + ")";
        const auto cmA = chunkMap(A, LA);
        for (auto& m : members) {
            if (m == auth || !shared.count(m)) continue;
            const BufferNode& X = *shared[m];
            const LayoutNode* LX = layoutOf(f, m);
            SharedPlacement p;
            const std::string who = "'" + m + "'" + (m == tile ? "" : " (a view of '" + tile + "')");
            const std::string hint = m == tile || auth == tile
                                         ? "copy the data into a tile of its own (T.copy) instead of viewing the bytes under another layout"
                                         : "copy the data into a tile of its own (T.copy) instead of viewing it";
            if (!isRowMajorShared(LX)) {
                const auto cmX = chunkMap(X, LX);
                if (cmA && cmX && sameBytes(*cmA, *cmX)) continue;  // the same byte map: its own layout is right
                p.error = who + " and " + authText + " are one set of bytes under two layouts that place them differently (" +
                          LX->description + " against " + LA->description + ")";
                p.hint = hint;
            } else if (!cmA) {
                p.error = who + " shares the bytes of " + authText + ", whose layout does not keep 16-byte chunks whole, so the elements of '" +
                          m + "' cannot follow it";
                p.hint = hint;
            } else if (dtypeBits(X.dtype) % 8 || dtypeBits(A.dtype) % 8) {
                p.error = who + " shares the bytes of " + authText + ", which is not row-major, and a sub-byte element type cannot follow it";
                p.hint = hint;
            } else if (bitsOf(X) < 0 || bitsOf(A) < bitsOf(X)) {
                p.error = who + " is larger than " + authText + ", whose layout places the bytes they share";
                p.hint = hint;
            } else {
                p.through = &A;
                p.layout = LA;
            }
            out[m] = std::move(p);
        }
    }
    return out;
}

std::optional<int64_t> placedElementOffset(const SharedPlacement& p, const BufferNode& b, const std::vector<int64_t>& idx) {
    if (!p.through || !p.layout) return std::nullopt;
    auto bs = constShape(b), ts = constShape(*p.through);
    if (!bs || !ts || bs->size() != idx.size() || ts->empty()) return std::nullopt;
    const int64_t vb = dtypeBits(b.dtype), tb = dtypeBits(p.through->dtype);
    int64_t f = 0;
    for (size_t d = 0; d < idx.size(); ++d) f = f * (*bs)[d] + idx[d];
    int64_t first = vb >= tb ? f * (vb / tb) : f / (tb / vb);
    std::vector<int64_t> t(ts->size());
    for (size_t d = ts->size(); d-- > 0;) {
        t[d] = d == 0 ? first : first % (*ts)[d];
        if (d > 0) first /= (*ts)[d];
    }
    const int64_t phys = isRowMajorShared(p.layout) ? f : sharedElementOffset(*p.layout, t, int(tb / 8));
    if (vb == tb) return phys;
    if (vb > tb) return phys / (vb / tb);
    return phys * (tb / vb) + f % (tb / vb);
}

}  // namespace ts::analysis
