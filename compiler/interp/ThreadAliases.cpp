// Shared buffers that plan-smem placed on the same bytes (attrs "smem_offset.<name>",
// "smem_shares.<name>"): the thread interpreter keeps each buffer in its own storage, so a write
// to one poisons the elements of the others it overlaps, and a read of those by another thread
// since the last barrier is reported as a race, as on the GPU it would be; so is a write while an
// asynchronous copy to the others is pending or the async proxy (an in-flight wgmma, a TMA store)
// still reads them. A T.view / T.reshape of a tile is the exception: its bytes are the tile's for
// its whole life, so a write carries over to the other name (SharedViews.h) instead of poisoning.
#include <cmath>
#include <limits>
#include <sstream>

#include "compiler/interp/SharedViews.h"
#include "compiler/interp/ThreadMachine.h"
#include "compiler/ir/Views.h"

namespace ts::interp::detail {
using namespace ts::ir;

void ThreadMachine::clobberAliases(BufferState& b, int64_t off, const Span& at) {
    if (!m_func || !b.node) return;
    std::string shares = attrStr(m_func->attrs, "smem_shares." + b.node->name, "");
    if (shares.empty()) return;
    int64_t size = dtypeBytes(b.dtype);
    int64_t lo = attrInt(m_func->attrs, "smem_offset." + b.node->name, 0) + off * size, hi = lo + size;
    const std::string root = sharedStorageRoot(m_func->attrs, b.node->name);
    std::stringstream names(shares);
    std::string name;
    while (std::getline(names, name, ',')) {
        while (!name.empty() && name.front() == ' ') name.erase(0, 1);
        // A view and the tile it views are one set of bytes: checked like any alias, but the
        // write carries its value over (sharedViewWritten) instead of poisoning.
        const bool view = sharedStorageRoot(m_func->attrs, name) == root;
        for (auto& other : m_buffers) {
            BufferState& a = *other;
            if (&a == &b || !a.node || a.node->name != name || a.global || a.threadStride || !a.live ||
                a.own.empty())
                continue;
            int64_t asz = dtypeBytes(a.dtype), aoff = attrInt(m_func->attrs, "smem_offset." + name, 0);
            int64_t first = std::max<int64_t>(0, (lo - aoff) / asz);
            int64_t last = std::min<int64_t>(a.size - 1, (hi - 1 - aoff) / asz);
            if (hi <= aoff) continue;
            auto& cells = m_cells[&a];
            for (int64_t e = first; e <= last && e < static_cast<int64_t>(cells.size()); ++e) {
                const SharedCell& c = cells[static_cast<size_t>(e)];
                if (c.readEpoch == m_epoch && c.reader != -1 && c.reader != m_cur)
                    fail(at,
                         "write of " + describe(b, off) + " overwrites the bytes of " + describe(a, e) +
                             ", read by " +
                             (c.reader >= 0 ? "thread " + std::to_string(c.reader) : std::string("other threads")) +
                             " since the last T.sync_threads() (plan-smem gave them the same bytes)",
                         "a barrier must separate the last use of a shared buffer from the first use of "
                         "one that reuses its bytes");
                if (a.pending[static_cast<size_t>(e)])
                    fail(at, "write of " + describe(b, off) + " overwrites the bytes of " + describe(a, e) +
                                 " while an asynchronous copy (cp.async or TMA) to it is pending (plan-smem gave them the same bytes)");
                // The async proxy still reading the other name's bytes (writeElem's checks, through
                // the alias: a write into a T.view of a tile that an in-flight wgmma or a TMA store reads).
                if (c.wgmmaReads)
                    fail(at,
                         "write of " + describe(b, off) + " overwrites the bytes of " + describe(a, e) + " while a wgmma issued at line " +
                             std::to_string(c.wgmmaAt.line) + " may still read them (its group is in flight: no wgmma.wait_group retired it; "
                             "plan-smem gave them the same bytes)",
                         "wait for the wgmma group before writing the bytes of its operand tile");
                if (c.bulkReads)
                    fail(at,
                         "write of " + describe(b, off) + " overwrites the bytes of " + describe(a, e) + " while a TMA " +
                             (c.bulkReduce ? "reduce-add" : "store") + " issued at line " + std::to_string(c.bulkAt.line) +
                             " may still read them (plan-smem gave them the same bytes)",
                         "wait for the store's reads (tl.tma_store_wait) before writing the bytes of its tile");
                if (view) continue;
                a.data[e] = isFloatType(a.dtype) ? std::numeric_limits<double>::quiet_NaN() : 0.0;
                if (!a.written.empty()) a.written[static_cast<size_t>(e)] = 0;
            }
        }
    }
}

const std::string& ThreadMachine::storageRootOf(const BufferState& b) {
    if (m_rootsFor != m_func) {  // a new function: its views (the attrs name them) and a fresh cache
        m_rootsFor = m_func;
        m_roots.clear();
        m_anyViews = false;
        for (auto& [k, v] : m_func->attrs) m_anyViews = m_anyViews || k.rfind("smem_view_of.", 0) == 0;
    }
    auto [it, fresh] = m_roots.try_emplace(b.node);
    if (fresh) it->second = sharedStorageRoot(m_func->attrs, b.node->name);
    return it->second;
}

void ThreadMachine::sharedViewWritten(BufferState& b, int64_t off) {
    // The group is found by the views' own attrs ("smem_view_of.<view>"), not plan-smem's
    // "smem_shares": tilec validate runs this interpreter after passes before plan-smem too.
    if (!m_func || !b.node || b.global || b.threadStride) return;
    const std::string& root = storageRootOf(b);
    if (!m_anyViews) return;
    const int64_t bit0 = attrInt(m_func->attrs, "smem_offset." + b.node->name, 0) * 8;
    for (auto& other : m_buffers) {
        BufferState& a = *other;
        if (&a == &b || !a.node || a.global || a.threadStride || !a.live || a.own.empty() || a.node->scope != Scope::Shared) continue;
        if (storageRootOf(a) != root) continue;
        copyViewBits(b, bit0, off, off, a, attrInt(m_func->attrs, "smem_offset." + a.node->name, 0) * 8);
    }
}

void ThreadMachine::initSharedView(BufferState& st) {
    if (!m_func || !st.node) return;
    const std::string base = ir::sharedViewBase(m_func->attrs, st.node->name);
    if (base.empty()) return;
    for (auto& other : m_buffers) {
        BufferState& a = *other;
        if (&a == &st || !a.node || a.node->name != base || a.global || a.threadStride || !a.live || a.own.empty()) continue;
        copyViewBits(a, attrInt(m_func->attrs, "smem_offset." + base, 0) * 8, 0, a.size - 1, st,
                     attrInt(m_func->attrs, "smem_offset." + st.node->name, 0) * 8);
    }
}

}  // namespace ts::interp::detail
