// The sm_90a intrinsics on the thread-level interpreter (compiler/ir/Intrinsics.h, Hopper part):
// mbarriers with arrival and transaction counts and phases, TMA tile loads whose data lands when
// their barrier's phase completes (so a read before the wait is an unsynchronised read of a
// pending element, and a wait that can never complete is reported as a deadlock, not a hang),
// and wgmma as a block-level gemm through the same accumulation model as mma.sync (k16 steps,
// compiler/interp/MmaModel.h), reading the operands through analysis::wgmmaSharedOffset and
// writing the accumulator through analysis::makeWgmmaAccumulator; wgmma with A from registers
// (tl.wgmma_rs) reading them through wgmma's A fragment. A tl.wgmma_ss committed with wait_group
// > 0 computes at issue but its group stays "in flight": the shared elements it read count as
// read by the tensor cores until a later wait_group (tl.wgmma_ss's own, tl.wgmma_wait) retires it,
// and a generic store, cp.async or TMA load into them before that is reported as a race.
#include <algorithm>
#include <set>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/WgmmaLayouts.h"
#include "compiler/interp/MmaModel.h"
#include "compiler/interp/ThreadMachine.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/IntrinsicsUserBarriers.h"

namespace ts::interp::detail {
using namespace ts::ir;

namespace {
/// C += A (M x K, row-major in `tileA`) * B (K x N in `tileB`) into each thread's accumulator
/// registers at `acc` (register r of thread t holds C[acc[t * kAcc + r]]); shared by wgmma ss
/// and rs, which differ only in where A comes from.
void accumulateWgmma(const Address& C, const std::vector<std::pair<int32_t, int32_t>>& acc,
                     int32_t base, int32_t threads, int64_t K, int64_t N, const std::vector<double>& tileA,
                     const std::vector<double>& tileB, std::vector<double>& tileBt) {
    const int64_t kAcc = static_cast<int64_t>(acc.size()) / threads;
    tileBt.resize(tileB.size());
    for (int64_t k = 0; k < K; ++k)
        for (int64_t j = 0; j < N; ++j) tileBt[j * K + k] = tileB[k * N + j];
    for (int32_t t = 0; t < threads; ++t) {
        double* regs = C.buf->data + int64_t(base + t) * C.buf->threadStride + C.off;
        for (int64_t r = 0; r < kAcc; ++r) {
            auto [i, j] = acc[t * kAcc + r];
            regs[r] = mmaAccumulate(regs[r], tileA.data() + i * K, 1, tileBt.data() + j * K, 1, K, 16, C.buf->dtype);
        }
    }
}
}  // namespace

MbarrierState& ThreadMachine::mbarrierAt(const Address& a, const Span& at) {
    auto it = m_mbarriers.find({a.buf, a.off});
    if (it == m_mbarriers.end())
        fail(at, "mbarrier " + describe(*a.buf, a.off) + " is used before tl.mbarrier_init");
    return it->second;
}

void ThreadMachine::mbarrierMaybeComplete(MbarrierState& b) {
    if (b.arrivalsLeft != 0 || b.txPending != 0) return;
    b.landed.insert(b.landed.end(), b.writes.begin(), b.writes.end());
    b.writes.clear();
    ++b.phases;
    b.arrivalsLeft = b.count;
    b.txExpected = b.txDelivered = 0;
}

MbarrierInfo ThreadMachine::mbarrierInfo(const BufferState& buf, int64_t off, const MbarrierState& b) const {
    MbarrierInfo m;
    m.buffer = buf.node->name;
    m.index = off;
    m.phase = b.phases;
    m.expected = b.count;
    m.arrived = b.count - b.arrivalsLeft;
    m.txExpected = b.txExpected;
    m.txDelivered = b.txDelivered;
    m.pending = static_cast<int64_t>(b.writes.size() + b.landed.size());
    m.init = b.initAt;
    m.arrive = b.arriveAt;
    m.wait = b.waitAt;
    m.load = b.loadAt;
    return m;
}

std::vector<MbarrierInfo> ThreadMachine::mbarrierInfos() const {
    std::vector<MbarrierInfo> out;
    for (auto& [key, b] : m_mbarriers) out.push_back(mbarrierInfo(*key.first, key.second, b));
    // The map is keyed by BufferState address: order by name for a stable listing.
    std::stable_sort(out.begin(), out.end(), [](const MbarrierInfo& x, const MbarrierInfo& y) {
        return x.buffer != y.buffer ? x.buffer < y.buffer : x.index < y.index;
    });
    return out;
}

std::pair<int32_t, int32_t> ThreadMachine::gemmThreads(const CallNode* c, size_t nargs, const ThreadList& act, const char* name) {
    // A warp role's gemm (lower-tile-ops, WarpRoles.h) carries its first thread and thread count
    // after the usual arguments; otherwise the consumer threads from thread 0 issue it.
    int32_t base = 0, threads = consumerThreads();
    if (c->args.size() == nargs + 2) {
        setThread(act[0]);
        base = static_cast<int32_t>(evalI(c->args[nargs].get()));
        threads = static_cast<int32_t>(evalI(c->args[nargs + 1].get()));
        m_cur = -1;
    }
    if (static_cast<int32_t>(act.size()) != threads || act.front() != base)
        fail(c->span, std::string(name) + " executed by " + std::to_string(act.size()) + " threads from thread " +
                          std::to_string(act.front()) + ", not by its " + std::to_string(threads) + " threads from thread " +
                          std::to_string(base) + " (every warpgroup must issue its wgmma)");
    return {base, threads};
}

int32_t ThreadMachine::consumerThreads() const {
    // A warp-specialized kernel (compiler/transforms/WarpSpecialize.cpp) runs its wgmma and
    // releases its stages on the first ws_consumer_threads threads; the rest is the producer.
    return static_cast<int32_t>(attrInt(m_func->attrs, "ws_consumer_threads", m_threads));
}

void ThreadMachine::mbarrierOp(const CallNode* c, const ThreadList& act) {
    setThread(act[0]);
    const bool init = c->op == intrin::kMbarrierInit, wait = c->op == intrin::kMbarrierWait;
    const bool arrive = c->op == intrin::kMbarrierArrive || c->op == intrin::kCpAsyncArriveNoinc;
    const bool perWarp = ir::perWarpArrive(c);
    const size_t lo = arrive ? 1 : 2, hi = init || wait ? 3 : c->op == intrin::kMbarrierArrive ? 2 : lo;
    if (c->args.size() < lo || c->args.size() > hi)
        fail(c->span, c->op + " takes " + std::to_string(lo) + (hi > lo ? " or " + std::to_string(hi) : "") + " arguments");
    Address a = evalAddress(c->args[0].get());
    const int64_t v = arrive ? 0 : evalI(c->args[1].get());
    const int64_t arrivals = init && c->args.size() > 2 ? evalI(c->args[2].get()) : 1;
    m_cur = -1;
    if (a.buf->global || a.buf->threadStride) fail(c->span, c->op + ": the barrier must be in shared memory");
    if (init) {  // elected: n barriers, `arrivals` arrivals each
        requireRange(*a.buf, a.off, v, c->span, "mbarrier init");
        if (arrivals < 1) fail(c->span, "mbarrier init with " + std::to_string(arrivals) + " arrivals per phase");
        for (int64_t i = 0; i < v; ++i) {
            MbarrierState st;
            st.count = st.arrivalsLeft = arrivals;
            st.initAt = c->span;
            m_mbarriers[{a.buf, a.off + i}] = std::move(st);
        }
        return;
    }
    MbarrierState& b = mbarrierAt(a, c->span);
    if (c->op == intrin::kMbarrierExpectTxOnly) {  // T.mbarrier_expect_tx: bytes of every executing thread, no arrival
        if (v < 0 || v > (1 << 20) - 1)
            fail(c->span, "T.mbarrier_expect_tx: " + std::to_string(v) + " transaction bytes (mbarrier's tx-count is in [0, 2^20 - 1])");
        b.txPending += v * static_cast<int64_t>(act.size());
        b.txExpected += v * static_cast<int64_t>(act.size());
        b.arriveAt = c->span;
        roleProgress();
        return;
    }
    if (arrive || c->op == intrin::kMbarrierExpectTx) {  // every thread's arrival / elected arrival + bytes
        int64_t n = arrive ? static_cast<int64_t>(act.size()) : 1;
        if (perWarp) {  // one arrival per warp, by lane 0 after __syncwarp: whole warps only
            std::set<int32_t> warps;
            for (int32_t t : act) warps.insert(t / 32);
            if (static_cast<int64_t>(warps.size()) * 32 != n)
                fail(c->span, "mbarrier " + describe(*a.buf, a.off) + ": a per-warp arrival executed by " + std::to_string(n) +
                                  " threads, not by whole warps (__syncwarp would hang)");
            n = static_cast<int64_t>(warps.size());
            b.threadsPerArrival = 32;
        }
        if (b.arrivalsLeft < n)
            fail(c->span, "mbarrier " + describe(*a.buf, a.off) + ": more arrivals than its count in one phase");
        if (!arrive) {
            b.txPending += v;
            b.txExpected += v;
        }
        b.arrivalsLeft -= n;
        b.arriveAt = c->span;
        roleProgress();
        // A phase completed by every thread of the block orders all of their earlier accesses
        // before what its waiters do next: the race checker treats it as a block barrier (as it
        // does a named barrier).
        // Hand-written barriers (T.alloc_barrier) order the roles' accesses, whatever their count:
        // a completed phase is treated as a block barrier too, as a named barrier is
        // (ThreadExec.cpp; it may miss a race between threads that neither arrive nor wait).
        if (b.arrivalsLeft == 0 && b.txPending == 0 &&
            (b.count * b.threadsPerArrival == consumerThreads() || attrInt(m_func->attrs, "explicit_mbarriers", 0)))
            ++m_epoch;
        mbarrierMaybeComplete(b);
        return;
    }
    // tl.mbarrier_wait(bar, parity): the phase of parity `v` has completed iff the current
    // (incomplete) phase, number b.phases, has the other parity (PTX ISA §9.7.13.15.16).
    b.waitAt = c->span;
    // A role whose phase is not complete yet lets the other role run (it may arrive).
    if (b.phases % 2 == v % 2) waitOnOtherRole([&] { return b.phases % 2 != v % 2; });
    if (b.phases % 2 == v % 2) {
        // Threads run in lockstep: every thread that could still arrive or issue a TMA load is
        // here, so the phase can never complete. Reported with the wait, the barrier's init
        // (where its arrival count is set) and the state of its phase.
        CheckFinding f;
        f.kind = "deadlock";
        f.at = c->span;
        f.other = b.initAt;
        f.buffer = a.buf->node->name;
        f.index = a.off;
        f.block = m_blockIdx;
        f.mbarriers.push_back(mbarrierInfo(*a.buf, a.off, b));
        const MbarrierInfo& m = f.mbarriers.back();
        f.message = "deadlock: waiting on mbarrier " + describe(*a.buf, a.off) + " at line " +
                    std::to_string(c->span.line) + " for phase parity " + std::to_string(v) +
                    ", which can never complete: " + std::to_string(m.arrived) + " of " +
                    std::to_string(m.expected) + " arrivals (count set at line " +
                    std::to_string(b.initAt.line) + "), " + std::to_string(m.txDelivered) + " of " +
                    std::to_string(m.txExpected) + " transaction bytes" +
                    (b.loadAt.valid() ? " (TMA load at line " + std::to_string(b.loadAt.line) + ")" : std::string()) +
                    ", " + std::to_string(b.phases) + " phase(s) completed";
        report(std::move(f), "every waited phase needs its count of arrivals (tl.mbarrier_init) and TMA "
                             "loads of exactly the bytes its expect_tx announced");
    }
    for (auto& w : b.landed) {  // the wait makes the completed phase's TMA data visible
        clobberAliases(*w.buf, w.off, c->span);  // a TMA load into a view overwrites the viewed tile too
        w.buf->data[w.off] = w.v;
        --w.buf->pending[w.off];
        if (!w.buf->written.empty()) w.buf->written[w.off] = 1;
        sharedViewWritten(*w.buf, w.off);
        m_cells[w.buf][static_cast<size_t>(w.off)].writer = -1;  // async proxy, ordered by the wait
    }
    b.landed.clear();
}

void ThreadMachine::tmaLoad(const CallNode* c, const ThreadList& act) {
    if (c->args.size() < 8)
        fail(c->span, "tl.tma_load takes the map, dst, bar, rows, panel_elems, panels and 2..5 coordinates");
    setThread(act[0]);
    const int64_t map = evalI(c->args[0].get());
    Address dst = evalAddress(c->args[1].get()), bar = evalAddress(c->args[2].get());
    const int64_t rows = evalI(c->args[3].get()), pw = evalI(c->args[4].get()), panels = evalI(c->args[5].get());
    std::vector<int64_t> coord;  // innermost first
    for (size_t i = 6; i < c->args.size(); ++i) coord.push_back(evalI(c->args[i].get()));
    m_cur = -1;
    auto desc = attrInts(m_func->attrs, "tma_map." + std::to_string(map));
    if ((desc.size() != 4 && desc.size() != 5) || desc[0] < 0 || size_t(desc[0]) >= m_func->params.size())
        fail(c->span, "tl.tma_load: tensor map " + std::to_string(map) + " is not described by the kernel");
    BufferState& src = lookup(m_func->params[size_t(desc[0])].get(), c->span);
    const int64_t rank = static_cast<int64_t>(src.shape.size());
    const int64_t rowDim = desc.size() == 5 && desc[4] >= 0 ? desc[4] : rank - 2;
    if (rank < 2 || rank > 5 || rank != static_cast<int64_t>(coord.size()) || rowDim >= rank - 1)
        fail(c->span, "tl.tma_load: " + std::to_string(coord.size()) + " coordinates for '" + src.node->name + "' of rank " +
                          std::to_string(rank) + " with rows along dimension " + std::to_string(rowDim));
    if (dst.buf->global || dst.buf->threadStride || dst.buf->dtype != src.dtype)
        fail(c->span, "tl.tma_load destination '" + dst.buf->node->name + "' is not a shared tile of the tensor's dtype");
    const int e = dtypeBytes(src.dtype);
    // Swizzle NONE (a plain T.copy's map, CopyTma.cpp): the box lands row-major, and the shared
    // address must be 128-byte aligned (PTX ISA §9.7.9.25.5.2); else the wgmma_smem tile.
    const bool plain = desc[3] == 0;
    std::optional<analysis::WgmmaTileGeometry> g;
    if (plain) {
        analysis::WgmmaTileGeometry p;
        p.rows = rows, p.cols = pw * panels, p.eltBytes = e, p.panelBytes = 0, p.panelElems = pw, p.panels = panels;
        if (panels != 1 || (pw * e) % 16 || pw > 256 || rows > 256) fail(c->span, "tl.tma_load: the box is not a legal TMA box");
        g = p;
    } else {
        g = analysis::wgmmaTileGeometry(rows, pw * panels, e, nullptr, static_cast<int>(pw * e));  // panels of pw (maybe narrower)
        if (!g || g->panelElems != pw) fail(c->span, "tl.tma_load: the tile is not a TMA/wgmma operand tile");
    }
    const int64_t align = plain ? 128 : 1024;
    if ((dst.off * e) % align)
        fail(c->span, "tl.tma_load destination " + describe(*dst.buf, dst.off) + " is not " + std::to_string(align) + "-byte aligned");
    MbarrierState& b = mbarrierAt(bar, c->span);
    auto& cells = m_cells[dst.buf];
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t q = 0; q < g->cols; ++q) {
            bool in = true;
            int64_t flat = 0;
            for (int64_t d = 0; d < rank; ++d) {
                int64_t i = coord[size_t(rank - 1 - d)] + (d == rank - 1 ? q : d == rowDim ? r : 0);
                in = in && i >= 0 && i < src.shape[size_t(d)];
                flat += i * src.strides[size_t(d)];
            }
            const double v = in ? src.data[flat] : 0.0;
            const int64_t o = dst.off + (plain ? r * g->cols + q : analysis::wgmmaSharedOffset(*g, r, q));
            requireRange(*dst.buf, o, 1, c->span, "TMA write");
            SharedCell& cell = cells[static_cast<size_t>(o)];
            if (cell.wgmmaReads) checkWgmmaRead(*dst.buf, o, c->span, "TMA load");
            if (cell.bulkReads) checkBulkRead(*dst.buf, o, c->span, "TMA load");
            if (dst.buf->pending[o])
                fail(c->span, "TMA load into " + describe(*dst.buf, o) + " while an earlier async write to it is pending");
            if (cell.readEpoch == m_epoch && cell.reader != -1)
                fail(c->span, "TMA load into " + describe(*dst.buf, o) + " races with its read since the last T.sync_threads()",
                     "the load may land as soon as it is issued: a barrier must separate the last read of a stage from its refill");
            ++dst.buf->pending[o];
            cells[static_cast<size_t>(o)].asyncAt = c->span;
            b.writes.push_back({dst.buf, o, v});
        }
    b.txPending -= g->bytes();
    b.txDelivered += g->bytes();
    roleProgress();
    b.loadAt = c->span;
    mbarrierMaybeComplete(b);
}

// tl.tma_store(map, src, rows, panel_elems, panels, coords...): elected. The tile is read at
// issue as the async proxy reads it -- after the fence and barrier of the lowering, so a write by
// another thread since the last barrier, a pending async write or a never-written element is
// reported like a wgmma operand read -- and the in-bounds box elements land in the tensor at
// once (no other access of the tensor may observe the difference: tmaStoreWhyNot). The tile's
// elements stay read by the group until tl.tma_store_wait retires it.
void ThreadMachine::tmaStore(const CallNode* c, const ThreadList& act, bool reduceAdd) {
    // The intrinsic's own name in every message (a reduce-add is no store).
    const std::string name = reduceAdd ? "tl.tma_reduce_add" : "tl.tma_store";
    if (c->args.size() < 7)
        fail(c->span, name + " takes the map, src, rows, panel_elems, panels and 2..5 coordinates");
    setThread(act[0]);
    const int64_t map = evalI(c->args[0].get());
    Address src = evalAddress(c->args[1].get());
    const int64_t rows = evalI(c->args[2].get()), pw = evalI(c->args[3].get()), panels = evalI(c->args[4].get());
    std::vector<int64_t> coord;  // innermost first
    for (size_t i = 5; i < c->args.size(); ++i) coord.push_back(evalI(c->args[i].get()));
    m_cur = -1;
    auto desc = attrInts(m_func->attrs, "tma_map." + std::to_string(map));
    if ((desc.size() != 4 && desc.size() != 5) || desc[0] < 0 || size_t(desc[0]) >= m_func->params.size())
        fail(c->span, name + ": tensor map " + std::to_string(map) + " is not described by the kernel");
    BufferState& dst = lookup(m_func->params[size_t(desc[0])].get(), c->span);
    const int64_t rank = static_cast<int64_t>(dst.shape.size());
    const int64_t rowDim = desc.size() == 5 && desc[4] >= 0 ? desc[4] : rank - 2;
    if (rank < 2 || rank > 5 || rank != static_cast<int64_t>(coord.size()) || rowDim >= rank - 1)
        fail(c->span, name + ": " + std::to_string(coord.size()) + " coordinates for '" + dst.node->name + "' of rank " +
                          std::to_string(rank) + " with rows along dimension " + std::to_string(rowDim));
    if (src.buf->global || src.buf->threadStride || src.buf->dtype != dst.dtype)
        fail(c->span, name + " source '" + src.buf->node->name + "' is not a shared tile of the tensor's dtype");
    const int e = dtypeBytes(dst.dtype);
    const bool plain = desc[3] == 0;
    std::optional<analysis::WgmmaTileGeometry> g;
    if (plain) {
        analysis::WgmmaTileGeometry p;
        p.rows = rows, p.cols = pw * panels, p.eltBytes = e, p.panelBytes = 0, p.panelElems = pw, p.panels = panels;
        if (panels != 1 || (pw * e) % 16 || pw > 256 || rows > 256) fail(c->span, name + ": the box is not a legal TMA box");
        g = p;
    } else {
        g = analysis::wgmmaTileGeometry(rows, pw * panels, e, nullptr, static_cast<int>(pw * e));  // panels of pw (maybe narrower)
        if (!g || g->panelElems != pw) fail(c->span, name + ": the tile is not a TMA/wgmma operand tile");
    }
    // The shared source of cp.async.bulk.tensor is 128-byte aligned (1024 with a swizzle).
    const int64_t align = plain ? 128 : 1024;
    if ((src.off * e) % align)
        fail(c->span, name + " source " + describe(*src.buf, src.off) + " is not " + std::to_string(align) + "-byte aligned");
    // The checks of a block-level shared read (its values are an mma operand's, rounded: the
    // store copies the stored bits instead, below).
    std::vector<double> checked;
    readGemmOperand(src, rows, g->cols, [&](int64_t r, int64_t q) { return plain ? r * g->cols + q : analysis::wgmmaSharedOffset(*g, r, q); },
                    checked, c->span, name.c_str());
    BulkGroup group{{}, c->span, reduceAdd};
    auto& cells = m_cells[src.buf];
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t q = 0; q < g->cols; ++q) {
            const int64_t o = src.off + (plain ? r * g->cols + q : analysis::wgmmaSharedOffset(*g, r, q));
            SharedCell& cell = cells[static_cast<size_t>(o)];
            ++cell.bulkReads;
            cell.bulkAt = c->span;
            cell.bulkReduce = reduceAdd;
            group.reads.push_back({src.buf, o});
            bool in = true;
            int64_t flat = 0;
            for (int64_t d = 0; d < rank; ++d) {
                const int64_t i = coord[size_t(rank - 1 - d)] + (d == rank - 1 ? q : d == rowDim ? r : 0);
                in = in && i >= 0 && i < dst.shape[size_t(d)];
                flat += i * dst.strides[size_t(d)];
            }
            if (!in) continue;  // box elements outside the tensor are not written
            // tl.tma_reduce_add: an atomic add of the element, rounded to the tensor's dtype.
            dst.data[flat] = reduceAdd ? roundValue(dst.dtype, dst.data[flat] + src.buf->data[o]) : src.buf->data[o];
            if (!dst.written.empty()) dst.written[flat] = 1;
        }
    m_bulkGroups.push_back(std::move(group));
}

// tl.tma_store_wait(n, read): all but the n most recent groups have read their tiles; without
// .read they are also complete and leave the list.
void ThreadMachine::tmaStoreWait(const CallNode* c, const ThreadList& act) {
    if (c->args.size() != 2) fail(c->span, "tl.tma_store_wait takes the pending group count and the .read flag");
    setThread(act[0]);
    const int64_t n = evalI(c->args[0].get()), read = evalI(c->args[1].get());
    m_cur = -1;
    if (n < 0) fail(c->span, "tl.tma_store_wait with a negative group count");
    const size_t keep = std::min(m_bulkGroups.size(), static_cast<size_t>(n));
    const size_t done = m_bulkGroups.size() - keep;
    for (size_t i = 0; i < done; ++i) {
        for (auto& [buf, off] : m_bulkGroups[i].reads) --m_cells[buf][static_cast<size_t>(off)].bulkReads;
        m_bulkGroups[i].reads.clear();
    }
    if (!read) m_bulkGroups.erase(m_bulkGroups.begin(), m_bulkGroups.begin() + static_cast<std::ptrdiff_t>(done));
}

void ThreadMachine::checkBulkRead(BufferState& b, int64_t off, const Span& at, const char* what) {
    const SharedCell& cell = m_cells[&b][static_cast<size_t>(off)];
    CheckFinding f = finding("race", b, off, at, cell.bulkAt, -1);
    const std::string op = cell.bulkReduce ? "TMA reduce-add" : "TMA store";
    f.message = std::string(what) + " of " + describe(b, off) + " at line " + std::to_string(f.at.line) + " while the " + op + " issued at line " +
                std::to_string(cell.bulkAt.line) + " may still read it (no cp.async.bulk.wait_group.read retired its group)";
    report(std::move(f), std::string("wait for the ") + (cell.bulkReduce ? "reduce-add's" : "store's") +
                             " reads (tl.tma_store_wait) and put a barrier before overwriting its tile");
}

int ThreadMachine::operandPanelBytes(const BufferState& b) const {
    if (!b.node || !m_func) return 128;
    auto it = m_func->layouts.find(b.node->name);
    if (it == m_func->layouts.end() || !it->second || it->second->family != "wgmma_smem" || it->second->familyParams.size() != 3) return 128;
    return static_cast<int>(it->second->familyParams[2]);
}

// tl.wgmma_ss(A, B, C, M, N, K, warpgroups, ta, tb)
void ThreadMachine::wgmmaSS(const CallNode* c, const ThreadList& act) {
    if (c->args.size() != 12 && c->args.size() != 14)
        fail(c->span, "tl.wgmma_ss takes 12 arguments (A, B, C, M, N, K, warpgroups, transA, transB, wait, warpgroups_n, clear) "
                      "and a warp role's first thread and count");
    const size_t nargs = 12;
    const auto bt = gemmThreads(c, nargs, act, "tl.wgmma_ss");
    const int32_t base = bt.first, threads = bt.second;
    setThread(act[0]);
    Address A = evalAddress(c->args[0].get()), B = evalAddress(c->args[1].get()), C = evalAddress(c->args[2].get());
    int64_t p[6];
    for (int i = 0; i < 6; ++i) p[i] = evalI(c->args[3 + i].get());
    m_cur = -1;
    const int64_t M = p[0], N = p[1], K = p[2], WG = p[3];
    const bool TA = p[4] != 0, TB = p[5] != 0;
    setThread(act[0]);
    const int64_t WGN = evalI(c->args[10].get());
    const bool clear = evalI(c->args[11].get()) != 0;
    m_cur = -1;
    std::string why;
    // The instruction one warpgroup column issues (m64 tiles over N/WGN columns), then B whole.
    // The operand tiles' swizzle panels as their layouts have them (narrower than a row allows
    // where warpgroups side by side read an MN-major tile: SelectHopperFragment.cpp panelLimit).
    const int pa = operandPanelBytes(*A.buf), pb = operandPanelBytes(*B.buf);
    auto plan = WGN >= 1 && threads % (128 * WGN) == 0
                    ? analysis::hopperGemmPlanGrid(M, N, K, int(threads / 128 / WGN), int(WGN), A.buf->dtype, C.buf->dtype, TA, TB, &why, pa, pb)
                    : (why = std::to_string(threads) + " threads are not whole warpgroups for " + std::to_string(WGN) + " warpgroup columns", std::nullopt);
    if (!plan || plan->warpgroups != WG || B.buf->dtype != A.buf->dtype)
        fail(c->span, "tl.wgmma_ss M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K) +
                          " on " + std::to_string(WG) + " x " + std::to_string(WGN) + " warpgroup(s): " + (why.empty() ? "operand dtypes differ" : why));
    if (A.buf->global || A.buf->threadStride || B.buf->global || B.buf->threadStride || !C.buf->threadStride)
        fail(c->span, "tl.wgmma_ss reads shared A and B and accumulates into registers");
    const int64_t e = dtypeBytes(A.buf->dtype);
    // Aligned in shared memory, not just in its buffer: the tensor core's swizzle is a function
    // of the address (a view of a tile at 128 bytes read garbage on the GPU).
    for (auto* X : {&A, &B}) {
        const int64_t at = (X->buf->node ? attrInt(m_func->attrs, "smem_offset." + X->buf->node->name, 0) : 0) + X->off * e;
        if (at % 1024)
            fail(c->span, "tl.wgmma_ss operand " + describe(*X->buf, X->off) + " is at shared-memory byte " + std::to_string(at) +
                              ", not 1024-byte aligned (its swizzle is a function of the address)");
    }
    const auto& acc = fragmentMap({M, N, WG, -WGN}, [&] { return analysis::makeWgmmaAccumulator(M, N, {int(WG), int(WGN), N / WGN}); });
    const int64_t kAcc = static_cast<int64_t>(acc.size()) / threads;
    requireRange(*C.buf, C.off, kAcc, c->span, "wgmma accumulator");
    // Logical A (M x K) and B (K x N) through the stored tiles (K x M / N x K when transposed).
    readGemmOperand(A, M, K, [&](int64_t i, int64_t k) {
        return TA ? analysis::wgmmaSharedOffset(plan->a, k, i) : analysis::wgmmaSharedOffset(plan->a, i, k);
    }, m_tileA, c->span, "tl.wgmma_ss");
    readGemmOperand(B, K, N, [&](int64_t k, int64_t j) {
        return TB ? analysis::wgmmaSharedOffset(plan->b, j, k) : analysis::wgmmaSharedOffset(plan->b, k, j);
    }, m_tileB, c->span, "tl.wgmma_ss");
    // `clear`: scale-d = 0 on the first k-step, the accumulator's old registers unread.
    if (clear)
        for (int32_t t = 0; t < threads; ++t)
            std::fill_n(C.buf->data + int64_t(base + t) * C.buf->threadStride + C.off, kAcc, 0.0);
    accumulateWgmma(C, acc, base, threads, K, N, m_tileA, m_tileB, m_tileBt);
    // Committed as one group and waited to `wait` pending (wgmma_gemm_ss): a group left in flight
    // keeps reading its tiles until a later wait retires it.
    const int64_t wait = c->args.size() >= 10 ? (setThread(act[0]), evalI(c->args[9].get())) : 0;
    m_cur = -1;
    WgmmaGroup g{base, {{A.buf, A.off, M * K}, {B.buf, B.off, K * N}}};
    for (auto& [buf, off, n] : g.reads) {
        requireRange(*buf, off, n, c->span, "wgmma operand");
        auto& cells = m_cells[buf];
        for (int64_t i = 0; i < n; ++i) noteWgmmaRead(cells[static_cast<size_t>(off + i)], c->span);
    }
    m_wgmmaGroups.push_back(std::move(g));
    wgmmaRetire(base, wait);
}

void ThreadMachine::noteWgmmaRead(SharedCell& cell, const Span& at) {
    ++cell.wgmmaReads;
    cell.wgmmaAt = at;
    // A read by the warpgroup's threads in this barrier epoch, as their own loads would be: a
    // write before the next barrier (by any thread; insert-sync orders a gemm against the tile's
    // writers as a unit of the whole block) races with it even after the wgmma retired (another
    // warpgroup may still be reading the tile for its own wgmma on the GPU).
    cell.readEpoch = m_epoch;
    cell.reader = -2;
    cell.readAt = at;
}

void ThreadMachine::wgmmaRetire(int32_t base, int64_t pending) {
    int64_t mine = 0;
    for (auto& g : m_wgmmaGroups) mine += g.base == base;
    for (auto it = m_wgmmaGroups.begin(); it != m_wgmmaGroups.end() && mine > pending;) {
        if (it->base != base) {
            ++it;
            continue;
        }
        for (auto& [buf, off, n] : it->reads) {
            auto& cells = m_cells[buf];
            for (int64_t i = 0; i < n; ++i) --cells[static_cast<size_t>(off + i)].wgmmaReads;
        }
        it = m_wgmmaGroups.erase(it);
        --mine;
    }
}

void ThreadMachine::checkWgmmaRead(BufferState& b, int64_t off, const Span& at, const char* what) {
    const SharedCell& cell = m_cells[&b][static_cast<size_t>(off)];
    CheckFinding f = finding("race", b, off, at, cell.wgmmaAt, -1);
    f.message = std::string(what) + " of " + describe(b, off) + " at line " + std::to_string(f.at.line) +
                " while a wgmma issued at line " + std::to_string(cell.wgmmaAt.line) +
                " may still read it (its group is in flight: no wgmma.wait_group retired it)";
    report(std::move(f), "wait for the wgmma group (a lower wait_group count) or write another copy of the tile");
}

// tl.wgmma_rs(A regs, B, C, M, N, K, warpgroups, tb[, wait]): A from registers. The interpreter reads A
// through wgmma's own register fragment (PTX ISA 8.x §9.7.15.5.1.1, f16/bf16 A of m64nNk16), not
// through the compiler's layout of the fragment, so a layout that disagrees with the hardware
// gives wrong numbers here: warp w of warpgroup g holds rows 16w..16w+15 of each of its m64
// tiles mi (rows g*M/WG + 64mi..); register mi*K/2 + 8kk + i of lane l is
// A[g*M/WG + 64mi + 16w + l/4 + 8*((i/2)%2)][16kk + 2*(l%4) + i%2 + 8*(i/4)]. The accumulator is
// analysis::makeWgmmaAccumulator(M, N, {warpgroups, 1, N}) as for tl.wgmma_ss.
void ThreadMachine::wgmmaRS(const CallNode* c, const ThreadList& act) {
    if (c->args.size() < 8 || c->args.size() > 11)
        fail(c->span, "tl.wgmma_rs takes 8 arguments (A regs, B, C, M, N, K, warpgroups, transB) and an optional wait");
    // A 9th argument: committed with that wait_group count (left in flight when > 0).
    const size_t nargs = c->args.size() == 9 || c->args.size() == 11 ? 9 : 8;
    const auto bt = gemmThreads(c, nargs, act, "tl.wgmma_rs");
    const int32_t base = bt.first, threads = bt.second;
    setThread(act[0]);
    Address A = evalAddress(c->args[0].get()), B = evalAddress(c->args[1].get()), C = evalAddress(c->args[2].get());
    int64_t p[5];
    for (int i = 0; i < 5; ++i) p[i] = evalI(c->args[3 + i].get());
    m_cur = -1;
    const int64_t M = p[0], N = p[1], K = p[2], WG = p[3];
    const bool TB = p[4] != 0;
    std::string why;
    auto plan = analysis::hopperGemmPlan(M, N, K, threads, B.buf->dtype, C.buf->dtype, false, TB, &why, 128, operandPanelBytes(*B.buf));
    if (!plan || plan->warpgroups != WG || M % (64 * WG) != 0 || A.buf->dtype != B.buf->dtype)
        fail(c->span, "tl.wgmma_rs M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K) + " on " +
                          std::to_string(WG) + " warpgroup(s): " +
                          (why.empty() ? "needs whole m64 tiles per warpgroup and A, B of one dtype" : why));
    if (!A.buf->threadStride || B.buf->global || B.buf->threadStride || !C.buf->threadStride)
        fail(c->span, "tl.wgmma_rs reads A from registers, B from shared memory, and accumulates into registers");
    const int64_t e = dtypeBytes(B.buf->dtype);
    if ((B.off * e) % 1024) fail(c->span, "tl.wgmma_rs operand " + describe(*B.buf, B.off) + " is not 1024-byte aligned");
    // A registers per thread: M*K / (128*WG), K/2 per m64 tile mi of the warpgroup (each issued
    // with its own a0..a7 per k-step: wgmma_gemm_rs's MI loop).
    const int64_t MI = M / WG / 64, kA = MI * K / 2;
    requireRange(*A.buf, A.off, kA, c->span, "wgmma A registers");
    m_tileA.assign(static_cast<size_t>(M * K), 0.0);
    for (int32_t t = 0; t < threads; ++t) {
        const double* regs = A.buf->data + int64_t(base + t) * A.buf->threadStride + A.off;
        const int64_t g = t / 128, w = (t % 128) / 32, l = t % 32;
        for (int64_t r = 0; r < kA; ++r) {
            const int64_t mi = r / (K / 2), kk = (r % (K / 2)) / 8, i = r % 8;
            const int64_t row = g * (M / WG) + 64 * mi + 16 * w + l / 4 + 8 * ((i / 2) % 2), col = 16 * kk + 2 * (l % 4) + i % 2 + 8 * (i / 4);
            m_tileA[row * K + col] = regs[r];
        }
    }
    const auto& acc = fragmentMap({M, N, WG, -1}, [&] { return analysis::makeWgmmaAccumulator(M, N, {int(WG), 1, N}); });
    const int64_t kAcc = static_cast<int64_t>(acc.size()) / threads;
    requireRange(*C.buf, C.off, kAcc, c->span, "wgmma accumulator");
    readGemmOperand(B, K, N, [&](int64_t k, int64_t j) {
        return TB ? analysis::wgmmaSharedOffset(plan->b, j, k) : analysis::wgmmaSharedOffset(plan->b, k, j);
    }, m_tileB, c->span, "tl.wgmma_rs");
    accumulateWgmma(C, acc, base, threads, K, N, m_tileA, m_tileB, m_tileBt);
    // Its group reads B until a wait retires it (as tl.wgmma_ss).
    const int64_t wait = nargs == 9 ? (setThread(act[0]), evalI(c->args[8].get())) : 0;
    m_cur = -1;
    WgmmaGroup g{base, {{B.buf, B.off, K * N}}};
    requireRange(*B.buf, B.off, K * N, c->span, "wgmma operand");
    auto& cells = m_cells[B.buf];
    for (int64_t i = 0; i < K * N; ++i) noteWgmmaRead(cells[static_cast<size_t>(B.off + i)], c->span);
    m_wgmmaGroups.push_back(std::move(g));
    wgmmaRetire(base, wait);
}

}  // namespace ts::interp::detail
