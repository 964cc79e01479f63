#include "compiler/interp/SharedViews.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/Views.h"
#include "compiler/ops/Registry.h"
#include "compiler/support/HostTensor.h"

namespace ts::interp::detail {
using ir::DType;

namespace {
uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

/// The buffers statement `s` (a tile op or an evaluation) may write, where that is known: a tile
/// op's written regions (ops/TileOp.h access bits), tl.copy_vec's destination. nullopt when it
/// is not (any other call: TMA stores name a tensor map, not a buffer).
std::optional<std::vector<const ir::BufferNode*>> knownWrites(const ir::StmtNode* s) {
    std::vector<const ir::BufferNode*> out;
    if (s->kind == ir::StmtKind::TileOp) {
        auto* t = static_cast<const ir::TileOpNode*>(s);
        const ops::TileOp* op = ops::find(t->op);
        if (!op) return std::nullopt;
        for (size_t i = 0; i < t->args.size(); ++i)
            if (t->isRegion(i) && (op->access(*t, i) & (ops::kWrite | ops::kAtomic))) out.push_back(t->region(i).buffer.get());
        return out;
    }
    auto* e = s->kind == ir::StmtKind::Eval ? static_cast<const ir::EvalNode*>(s) : nullptr;
    auto* c = e ? ir::as<ir::CallNode>(e->call) : nullptr;
    if (c && (c->op == ir::intrin::kSyncThreads || c->op == ir::intrin::kFenceProxyAsync)) return out;  // write no data
    if (c && c->op == ir::intrin::kCopyVec && !c->args.empty())
        if (auto* addr = ir::as<ir::CallNode>(c->args[0]); addr && addr->op == ir::intrin::kAddressOf && addr->args.size() == 1)
            if (auto* l = ir::as<ir::LoadNode>(addr->args[0])) {
                out.push_back(l->buffer.get());
                return out;
            }
    return std::nullopt;
}

bool overlaps(const BufferState& a, const BufferState& b) {
    const auto a0 = reinterpret_cast<uintptr_t>(a.data), b0 = reinterpret_cast<uintptr_t>(b.data);
    return a.data && b.data && a0 < b0 + static_cast<uintptr_t>(b.size) * sizeof(double) && b0 < a0 + static_cast<uintptr_t>(a.size) * sizeof(double);
}
}  // namespace

void Machine::syncSharedViews(const std::vector<const BufferState*>* written) {
    auto same = [](const BufferState& b, const std::vector<double>& snap) {
        return b.size == static_cast<int64_t>(snap.size()) && std::memcmp(b.data, snap.data(), snap.size() * sizeof(double)) == 0;
    };
    auto changed = [](const BufferState& b, std::vector<double>& snap, auto&& each) {
        for (int64_t i = 0; i < b.size && i < static_cast<int64_t>(snap.size()); ++i)
            if (std::memcmp(&b.data[i], &snap[static_cast<size_t>(i)], sizeof(double)) != 0) each(i);
    };
    for (auto& p : m_sharedViews) {
        if (!p.view->live || !p.base->live) continue;
        if (written && std::none_of(written->begin(), written->end(), [&](const BufferState* w) { return overlaps(*w, *p.view) || overlaps(*w, *p.base); }))
            continue;
        // Whole-array compares first: most statements change neither name.
        if (same(*p.base, p.baseSnap) && same(*p.view, p.viewSnap)) continue;
        std::vector<int64_t> fromBase;  // found before the view's changes are copied into the base
        changed(*p.base, p.baseSnap, [&](int64_t i) { fromBase.push_back(i); });
        changed(*p.view, p.viewSnap, [&](int64_t i) { copyViewBits(*p.view, 0, i, i, *p.base, 0); });
        for (int64_t i : fromBase) copyViewBits(*p.base, 0, i, i, *p.view, 0);
        p.viewSnap.assign(p.view->data, p.view->data + p.view->size);
        p.baseSnap.assign(p.base->data, p.base->data + p.base->size);
    }
}

void Machine::retireSharedViews() {
    for (auto& p : m_sharedViews)
        if (p.view->viewOwnsData && p.view->global && p.view->node && p.view->own.size() == size_t(p.view->size) &&
            p.baseSnap.size() == size_t(p.base->size)) {
            // Moved, not copied (the view is made again at the block's first access, from these).
            m_viewCache[p.view->node] = {std::move(p.view->own), std::move(p.baseSnap)};
            p.view->data = nullptr, p.view->size = 0, p.view->live = false;
        }
    m_sharedViews.clear();
}

void Machine::syncSharedViewsAfter(const ir::StmtNode* s) {
    auto w = knownWrites(s);
    if (!w) return syncSharedViews(nullptr);
    std::vector<const BufferState*> states;
    for (const ir::BufferNode* b : *w) {
        const BufferState* found = nullptr;
        for (auto& st : m_buffers)
            if (st->node == b && st->live) found = st.get();
        if (!found) return syncSharedViews(nullptr);  // a buffer this machine keeps elsewhere: compare every pair
        states.push_back(found);
    }
    if (!states.empty()) syncSharedViews(&states);
}

void Machine::sharedViewStored(BufferState& b, int64_t off) {
    // By storage: a view of the same dtype is another name on the same doubles.
    auto inside = [](const BufferState& s, const double* addr, int64_t& at) {
        const auto a = reinterpret_cast<uintptr_t>(addr), lo = reinterpret_cast<uintptr_t>(s.data);
        if (!s.data || a < lo || a >= lo + static_cast<uintptr_t>(s.size) * sizeof(double)) return false;
        at = static_cast<int64_t>((a - lo) / sizeof(double));
        return true;
    };
    // The tensor's elements [e0, e1] changed: every view of it re-derives what lies on them
    // (a store through one view reaches its siblings: W16[i] = x, then W8[2i] read x's low
    // byte only after the next tile op before; helper-109).
    auto tensorStored = [&](const BufferState& base, int64_t e0, int64_t e1) {
        for (auto& p : m_sharedViews) {
            if (!p.view->live || !p.base->live || p.base->data != base.data || e0 > e1) continue;
            auto [v0, v1] = copyViewBits(*p.base, 0, e0, e1, *p.view, 0);
            for (int64_t e = e0; e <= e1 && e < static_cast<int64_t>(p.baseSnap.size()); ++e) p.baseSnap[size_t(e)] = p.base->data[e];
            for (int64_t v = v0; v <= v1 && v < static_cast<int64_t>(p.viewSnap.size()); ++v) p.viewSnap[size_t(v)] = p.view->data[v];
        }
    };
    const double* addr = b.data + off;
    int64_t at = 0;
    for (auto& p : m_sharedViews) {  // a store through a view: its tensor first, then the siblings
        if (!p.view->live || !p.base->live || !inside(*p.view, addr, at)) continue;
        auto [e0, e1] = copyViewBits(*p.view, 0, at, at, *p.base, 0);
        if (at < static_cast<int64_t>(p.viewSnap.size())) p.viewSnap[size_t(at)] = p.view->data[at];
        tensorStored(*p.base, e0, e1);
        return;
    }
    for (auto& p : m_sharedViews)  // a store into a tensor (under any name of its storage)
        if (p.view->live && p.base->live && inside(*p.base, addr, at)) {
            tensorStored(*p.base, at, at);
            return;
        }
}

std::pair<int64_t, int64_t> copyViewBits(const BufferState& src, int64_t srcBit0, int64_t first, int64_t last,
                                         BufferState& dst, int64_t dstBit0) {
    const int64_t sb = ir::dtypeBits(src.dtype), db = ir::dtypeBits(dst.dtype);
    first = std::max<int64_t>(first, 0);
    last = std::min<int64_t>(last, src.size - 1);
    if (first > last || sb <= 0 || db <= 0 || db > 64 || sb > 64 || dst.size <= 0) return {1, 0};
    const int64_t lo = srcBit0 + first * sb, hi = srcBit0 + (last + 1) * sb;
    if (hi <= dstBit0 || lo >= dstBit0 + dst.size * db) return {1, 0};
    const int64_t e0 = std::max<int64_t>(0, (lo - dstBit0) / db);
    const int64_t e1 = std::min<int64_t>(dst.size - 1, (hi - 1 - dstBit0) / db);
    const bool sameType = src.dtype == dst.dtype && (dstBit0 - srcBit0) % sb == 0;
    for (int64_t e = e0; e <= e1; ++e) {
        const int64_t E0 = dstBit0 + e * db, E1 = E0 + db;
        double v;
        bool written = true;  // every source element under it was written (when src tracks that)
        auto srcWritten = [&](int64_t k) {
            return src.written.empty() || k >= static_cast<int64_t>(src.written.size()) || src.written[static_cast<size_t>(k)];
        };
        if (sameType && E0 >= srcBit0 && (E0 - srcBit0) / sb < src.size) {
            const int64_t k = (E0 - srcBit0) / sb;
            v = src.data[k];  // the same element: its value, NaN payloads and all
            written = srcWritten(k);
        } else {
            uint64_t u = elementBits(dst.dtype, dst.data[e]);
            const int64_t k0 = std::max<int64_t>(0, (E0 - srcBit0) / sb);
            const int64_t k1 = std::min<int64_t>(src.size - 1, (E1 - 1 - srcBit0) / sb);
            for (int64_t k = k0; k <= k1; ++k) {
                const int64_t K0 = srcBit0 + k * sb;
                const int64_t olo = std::max(E0, K0), ohi = std::min(E1, K0 + sb);
                if (olo >= ohi) continue;
                const int n = static_cast<int>(ohi - olo);
                written = written && srcWritten(k);
                const uint64_t piece = (elementBits(src.dtype, src.data[k]) >> (olo - K0)) & lowMask(n);
                const int at = static_cast<int>(olo - E0);
                u = (u & ~(lowMask(n) << at)) | (piece << at);
            }
            v = elementValue(dst.dtype, u);
        }
        dst.data[e] = v;
        if (written && !dst.written.empty() && e < static_cast<int64_t>(dst.written.size())) dst.written[static_cast<size_t>(e)] = 1;
    }
    return {e0, e1};
}

std::string sharedStorageRoot(const ir::Attrs& attrs, const std::string& name) {
    std::string base = ir::sharedViewBase(attrs, name);
    return base.empty() ? name : base;
}

}  // namespace ts::interp::detail
