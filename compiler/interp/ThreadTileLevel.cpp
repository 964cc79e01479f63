// Tile ops of tile-level IR on the thread-level machine: interp::run (Exec.cpp) runs a kernel
// that reads a thread index (T.get_thread_binding) thread by thread on ThreadMachine, and the
// tile ops of such thread-level code that have a per-thread meaning run here, as the lowered
// code does them:
// - a one-element T.atomic_* by a scalar: every active thread issues it, in thread order (atomics
//   serialise); an out-of-bounds destination is skipped (AtomicOp.cpp guards it the same way);
// - T.fill / T.clear of a shared or global region: element e of the region is written by thread
//   e % threads (the lowered loop spreads the elements over the block), so a read by another
//   thread before a barrier is reported as the race it is on the GPU; every thread of the block
//   must reach it. Of a local (or fragment: whole per thread here) region: each active thread
//   fills its own copy.
// - any other tile op reached by the whole block or by a warp role (a contiguous range of whole
//   warps: T.ws, `if tx < 128`): it runs once with its
//   tile-level meaning (Machine::execTileOp) on the first active thread's copy of the per-thread
//   buffers it names, and the other active threads' copies of those buffers take the result
//   (every thread of a role runs the same tile-level statements, so their copies agree), as the
//   role's lowered code computes the tile together. Its shared-memory accesses are not tracked
//   by the race checker (the lowered kernel's are).
// - T.copy with a local (register) source or destination: each active thread copies its own
//   regions (their indices may use the thread index), before the collective rule above.
// Other tile ops are reported in the user's terms (ThreadExec.cpp).
#include <algorithm>

#include "compiler/interp/ThreadMachine.h"

namespace ts::interp::detail {
using namespace ts::ir;

namespace {
/// Flat element offset (row-major over the evaluated strides) of region element `m`.
int64_t regionOffset(const RegionView& r, const std::vector<int64_t>& m) {
    int64_t off = 0;
    for (size_t d = 0; d < m.size(); ++d) off += (r.start[d] + m[d]) * r.buf->strides[d];
    return off;
}
bool inside(const RegionView& r, const std::vector<int64_t>& m) {
    for (size_t d = 0; d < m.size(); ++d)
        if (r.start[d] + m[d] < 0 || r.start[d] + m[d] >= r.buf->shape[d]) return false;
    return true;
}
}  // namespace

bool ThreadMachine::tileOpPerThread(const TileOpNode* n, const ThreadList& act) {
    if (n->op == TileOpKind::Atomic && !n->isRegion(1)) {
        const std::string op = attrStr(n->attrs, "op", "add");
        for (int32_t t : act) {  // atomics serialise: one thread after another
            setThread(t);
            RegionView r = evalRegion(n, 0);
            std::vector<int64_t> zero(r.start.size(), 0);
            if (!inside(r, zero)) continue;
            const int64_t off = regionOffset(r, zero);
            BufferState& b = *r.buf;
            const double v = roundValue(b.dtype, evalValue(std::get<Expr>(n->args[1]).get()));
            const int64_t s = slot(b, off);
            if (!b.written.empty() && !b.written[s] && !uninitFatal(b)) uninitialisedRead(b, off, n->span, "an atomic");
            else if (!b.written.empty() && !b.written[s])
                fail(n->span, "atomic on never-written " + describe(b, off) + ": uninitialised memory",
                     "initialise the buffer (T.clear / T.fill / a store) before the atomic");
            b.data[s] = roundValue(b.dtype, atomicCombine(op, b.data[s], v));
            sharedViewWritten(b, off);
        }
        m_cur = -1;
        return true;
    }
    if (n->op == TileOpKind::Copy && n->isRegion(0) && n->isRegion(1) && copyPerThread(n, act)) return true;
    if (n->op != TileOpKind::Fill || n->args.size() != 2 || n->isRegion(1)) return false;
    setThread(act.front());
    RegionView r = evalRegion(n, 0);
    requireInBounds(r, "fill");
    BufferState& b = *r.buf;
    const bool perThread = b.threadStride != 0;
    if (!perThread && act.size() != static_cast<size_t>(m_threads))
        fail(n->span, "T.fill of the shared/global '" + b.node->name + "' reached by " +
                          std::to_string(act.size()) + " of the block's " + std::to_string(m_threads) +
                          " threads: its lowered loop spreads the elements over every thread",
             "fill it where every thread of the block runs");
    int64_t total = 1;
    for (int64_t e : r.ext) total *= e;
    std::vector<int64_t> m(r.ext.size(), 0);
    const Expr& value = std::get<Expr>(n->args[1]);
    for (int64_t e = 0; e < total; ++e) {
        int64_t rest = e;
        for (size_t d = m.size(); d-- > 0;) m[d] = rest % r.ext[d], rest /= r.ext[d];
        const int64_t off = regionOffset(r, m);
        if (perThread) {
            for (int32_t t : act) {
                setThread(t);
                writeElem(b, off, roundValue(b.dtype, evalValue(value.get())), n->span);
            }
        } else {
            setThread(static_cast<int32_t>(e % m_threads));
            writeElem(b, off, roundValue(b.dtype, evalValue(value.get())), n->span);
        }
    }
    m_cur = -1;
    return true;
}

bool ThreadMachine::tileOpCollective(const TileOpNode* n, const ThreadList& act) {
    const int32_t first = act.front(), count = static_cast<int32_t>(act.size());
    if (first % 32 || count % 32 || act.back() != first + count - 1) return false;
    // Per-thread buffers named by the op's regions, seen as the first active thread's copy.
    std::vector<BufferState*> local;
    for (size_t i = 0; i < n->args.size(); ++i) {
        if (!n->isRegion(i)) continue;
        BufferState& b = lookup(n->region(i).buffer.get(), n->span);
        if (b.threadStride && std::find(local.begin(), local.end(), &b) == local.end()) local.push_back(&b);
    }
    struct Shift {
        std::vector<BufferState*>& bufs;
        int64_t t;
        Shift(std::vector<BufferState*>& b, int64_t th) : bufs(b), t(th) {
            for (auto* x : bufs) x->data += t * x->threadStride;
        }
        ~Shift() {
            for (auto* x : bufs) x->data -= t * x->threadStride;
        }
    };
    setThread(first);
    {
        Shift shift(local, first);
        execTileOp(n);
    }
    // The written side: the last region (copy, gemm, reduce, cumsum dst), or the first for
    // T.fill / T.atomic_* (their destination is argument 0).
    size_t dst = 0;
    for (size_t i = 0; i < n->args.size(); ++i)
        if (n->isRegion(i)) dst = i;
    if (n->op == TileOpKind::Fill || n->op == TileOpKind::Atomic) dst = 0;
    for (auto* b : local) {
        const double* src = b->data + int64_t(first) * b->threadStride;
        for (int32_t t : act) {
            if (t == first) continue;
            std::copy(src, src + b->threadStride, b->data + int64_t(t) * b->threadStride);
        }
        if (!b->written.empty())
            for (int32_t t : act)
                std::fill(b->written.begin() + int64_t(t) * b->threadStride,
                          b->written.begin() + int64_t(t + 1) * b->threadStride, uint8_t(1));
    }
    if (n->isRegion(dst)) {
        RegionView r = evalRegion(n, dst);
        BufferState& b = *r.buf;
        if (!b.threadStride && !b.written.empty()) {
            int64_t total = 1;
            for (int64_t e : r.ext) total *= e;
            std::vector<int64_t> m(r.ext.size(), 0);
            for (int64_t e = 0; e < total; ++e) {
                int64_t rest = e;
                for (size_t d = m.size(); d-- > 0;) m[d] = rest % r.ext[d], rest /= r.ext[d];
                if (!inside(r, m)) continue;
                const int64_t off = regionOffset(r, m);
                if (off >= 0 && off < static_cast<int64_t>(b.written.size())) b.written[off] = 1;
            }
        }
    }
    m_cur = -1;
    return true;
}

// T.copy with a per-thread (local) source or destination: each active thread copies its own
// regions element by element, in row-major order of each region (the extents must hold the same
// number of elements); a source element outside its buffer reads 0 and a destination element
// outside its buffer is not written, as the lowered copy guards them.
bool ThreadMachine::copyPerThread(const TileOpNode* n, const ThreadList& act) {
    setThread(act.front());
    RegionView s0 = evalRegion(n, 0), d0 = evalRegion(n, 1);
    auto isLocal = [](const RegionView& r) { return r.buf->node && r.buf->node->scope == Scope::Local; };
    if (!isLocal(s0) && !isLocal(d0)) {
        m_cur = -1;
        return false;  // no register side: a tile op of the block or role (tileOpCollective)
    }
    for (int32_t t : act) {
        setThread(t);
        RegionView src = evalRegion(n, 0), dst = evalRegion(n, 1);
        int64_t ns = 1, nd = 1;
        for (int64_t e : src.ext) ns *= e;
        for (int64_t e : dst.ext) nd *= e;
        if (ns != nd)
            fail(n->span, "T.copy: the source region has " + std::to_string(ns) +
                              " elements, the destination " + std::to_string(nd));
        std::vector<int64_t> ms(src.ext.size(), 0), md(dst.ext.size(), 0);
        for (int64_t e = 0; e < ns; ++e) {
            int64_t rest = e;
            for (size_t d = ms.size(); d-- > 0;) ms[d] = rest % src.ext[d], rest /= src.ext[d];
            rest = e;
            for (size_t d = md.size(); d-- > 0;) md[d] = rest % dst.ext[d], rest /= dst.ext[d];
            if (!inside(dst, md)) continue;
            double v = inside(src, ms) ? readElem(*src.buf, regionOffset(src, ms), n->span) : 0.0;
            writeElem(*dst.buf, regionOffset(dst, md), roundValue(dst.buf->dtype, v), n->span);
        }
    }
    m_cur = -1;
    return true;
}

}  // namespace ts::interp::detail
