// Lowered intrinsics (compiler/ir/Intrinsics.h) on the thread-level interpreter, each with the
// device semantics of resources/ts_device.cuh: cp.async as deferred per-thread events grouped by
// commit, the xor-butterfly warp all-reduce, the block-level gemm_ss / gemm_rs through the accumulator
// layout of analysis::makeMmaAccumulator and the swizzle of analysis::swizzleBytes, vector
// stores and atomics. Everything a thread writes in one statement is committed after every
// active thread has evaluated its operands (m_stores), as one SIMT instruction would.
#include <cmath>
#include <string_view>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/interp/MmaModel.h"
#include "compiler/interp/ThreadMachine.h"
#include "compiler/ir/IntrinsicsAssert.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/ir/IntrinsicsUserBarriers.h"
#include "compiler/ir/IntrinsicsWarp.h"

namespace ts::interp::detail {
using namespace ts::ir;
namespace intrin = ts::ir::intrin;

namespace {

std::string_view stripT(std::string_view op) {
    if (op.substr(0, 2) == "T.") op.remove_prefix(2);
    return op;
}

std::string strArg(const CallNode* c, size_t i) {
    auto* s = i < c->args.size() ? dynamic_cast<const StrImmNode*>(c->args[i].get()) : nullptr;
    return s ? s->value : std::string();
}

/// Combines two values as the device reduction operators (ts_device.cuh SumOp, MaxOp, ...).
double combine(const std::string& op, double a, double b, bool& ok) {
    ok = true;
    if (op == "sum") return a + b;
    if (op == "max") return std::fmax(a, b);
    if (op == "min") return std::fmin(a, b);
    if (op == "max_nan" || op == "min_nan") {  // T.reduce_max/min(..., nan_propagate=True)
        if (std::isnan(a)) return a;
        if (std::isnan(b)) return b;
        return op == "max_nan" ? std::fmax(a, b) : std::fmin(a, b);
    }
    if (op == "absmax") return std::fmax(std::fabs(a), std::fabs(b));
    if (op == "abssum") return std::fabs(a) + std::fabs(b);
    ok = false;
    return 0;
}

void collectSites(const ExprNode* e, std::vector<const CallNode*>& out) {
    if (!e) return;
    switch (e->kind) {
        case ExprKind::Binary: {
            auto* n = static_cast<const BinaryNode*>(e);
            collectSites(n->a.get(), out);
            collectSites(n->b.get(), out);
            break;
        }
        case ExprKind::Unary:
            collectSites(static_cast<const UnaryNode*>(e)->a.get(), out);
            break;
        case ExprKind::Select: {
            auto* n = static_cast<const SelectNode*>(e);
            collectSites(n->cond.get(), out);
            collectSites(n->t.get(), out);
            collectSites(n->f.get(), out);
            break;
        }
        case ExprKind::Cast:
            collectSites(static_cast<const CastNode*>(e)->value.get(), out);
            break;
        case ExprKind::Load:
            for (auto& i : static_cast<const LoadNode*>(e)->indices) collectSites(i.get(), out);
            break;
        case ExprKind::Call: {
            auto* n = static_cast<const CallNode*>(e);
            for (auto& a : n->args) collectSites(a.get(), out);
            if (n->op == intrin::kWarpAllreduce || intrin::isWarpShuffle(n->op))
                out.push_back(n);  // post-order: inner first
            break;
        }
        default:
            break;
    }
}

}  // namespace

double ThreadMachine::callF(const CallNode* n) {
    if (n->op.compare(0, 3, "tl.") != 0) return Machine::callF(n);
    if (n->op == intrin::kWarpAllreduce || intrin::isWarpShuffle(n->op)) {
        auto it = m_collective.find(n);
        if (it == m_collective.end() || m_cur < 0)
            fail(n->span,
                 "internal interpreter error: warp collective evaluated outside its statement");
        return it->second[m_cur];
    }
    if (n->op == intrin::kAddressOf)
        fail(n->span, "tl.address_of used as a value (it is only an operand of memory intrinsics)");
    fail(n->span, "the thread-level interpreter does not support the intrinsic '" + n->op + "'");
}

void ThreadMachine::prepareCollectives(const ExprNode* e, const ThreadList& act) {
    if (!e || e->kind == ExprKind::IntImm || e->kind == ExprKind::Var) return;
    auto it = m_collectiveSites.find(e);
    if (it == m_collectiveSites.end()) {
        std::vector<const CallNode*> sites;
        collectSites(e, sites);
        it = m_collectiveSites.emplace(e, std::move(sites)).first;
    }
    for (auto* c : it->second) {
        if (!intrin::isWarpShuffle(c->op)) {
            warpAllreduce(c, act);
            continue;
        }
        // tl.warp_shuffle(mask, value, src_lane, width): lane l of a group of `width` lanes
        // reads `value` of lane src_lane % width of the same group (shfl.sync idx); the xor /
        // down / up forms read lane l ^ delta / l + delta / l - delta, or keep their own value
        // (IntrinsicsWarp.h).
        if (c->args.size() != 4) fail(c->span, c->op + " takes (mask, value, src_lane or delta, width)");
        // The call as written: tl.warp_shuffle_xor is T.shfl_xor (the idx form keeps its old name).
        auto what = [c] {
            return c->op == intrin::kWarpShuffle ? std::string("T.tvm_warp_shuffle")
                                                 : "T.shfl_" + c->op.substr(std::string_view("tl.warp_shuffle_").size());
        };
        std::vector<double>& v = m_collective[c];
        std::vector<double> val(m_threads, std::nan(""));
        std::vector<int64_t> src(m_threads, 0), width(m_threads, 0);
        std::vector<uint8_t> on(m_threads, 0);
        for (int32_t t : act) {
            setThread(t);
            val[t] = evalValue(c->args[1].get());
            src[t] = evalI(c->args[2].get());
            width[t] = evalI(c->args[3].get());
            on[t] = 1;
            if (width[t] < 1 || width[t] > m_warpSize || (width[t] & (width[t] - 1)))
                fail(c->span, what() + " width " + std::to_string(width[t]) +
                                  " is not a power of two <= " + std::to_string(m_warpSize));
        }
        m_cur = -1;
        v.assign(m_threads, std::nan(""));
        for (int32_t t : act) {
            const int64_t w = width[t], lane = t % m_warpSize, first = (lane / w) * w;
            int64_t from = (t - lane) + first + ((src[t] % w) + w) % w;
            if (c->op != intrin::kWarpShuffle) {
                // PTX takes the delta's low 5 bits (b[4:0]); HIP's 64-lane __shfl_* the whole int.
                const int64_t d = m_warpSize == 32 ? (src[t] & 31) : src[t];
                const int64_t j = c->op == intrin::kWarpShuffleXor    ? lane ^ d
                                  : c->op == intrin::kWarpShuffleDown ? lane + d
                                                                      : lane - d;
                const bool inRange = c->op == intrin::kWarpShuffleUp ? j >= first && j <= lane
                                                                     : j >= 0 && j <= first + w - 1;
                from = (t - lane) + (inRange ? j : lane);
            }
            if (from >= m_threads || !on[from])
                fail(c->span,
                     what() + ": thread " + std::to_string(t) + " reads lane " +
                         std::to_string(from % m_warpSize) + " of warp " + std::to_string(from / m_warpSize) +
                         ", which does not execute the shuffle",
                     "every lane a shuffle reads must take part in it (PTX ISA §9.7.8.6 shfl.sync)");
            v[t] = val[from];
        }
    }
}

void ThreadMachine::warpAllreduce(const CallNode* c, const ThreadList& act) {
    if (c->args.size() != 3) fail(c->span, "tl.warp_allreduce takes (op, value, width)");
    std::string op = strArg(c, 0);
    bool ok;
    combine(op, 0, 0, ok);
    if (!ok) fail(c->span, "tl.warp_allreduce: unknown operator '" + op + "'");
    setThread(act[0]);
    int64_t width = evalI(c->args[2].get());
    if (width < 1 || width > m_warpSize || (width & (width - 1)))
        fail(c->span, "tl.warp_allreduce width " + std::to_string(width) +
                          " is not a power of two <= " + std::to_string(m_warpSize));
    std::vector<double>& v = m_collective[c];
    v.assign(m_threads, std::nan(""));
    std::vector<uint8_t> on(m_threads, 0);
    for (int32_t t : act) {
        setThread(t);
        v[t] = evalValue(c->args[1].get());
        on[t] = 1;
    }
    m_cur = -1;
    std::vector<double> next(v.size());
    for (int32_t g = 0; g < m_threads; g += int32_t(width)) {
        int count = 0;
        for (int32_t l = g; l < g + width && l < m_threads; ++l) count += on[l];
        if (count == 0) continue;
        if (count != width)
            fail(c->span,
                 "tl.warp_allreduce over lanes " + std::to_string(g % m_warpSize) + ".." +
                     std::to_string(g % m_warpSize + width - 1) + " of warp " +
                     std::to_string(g / m_warpSize) +
                     " executed by only " + std::to_string(count) + " of them",
                 "the shuffles use a full mask: every lane of the group must take part (PTX ISA "
                 "§9.7.8.6 "
                 "shfl.sync)");
        // Butterfly exactly as ts::warp_allreduce: offsets width/2 .. 1, each step rounded.
        for (int64_t off = width / 2; off > 0; off /= 2) {
            for (int32_t l = g; l < g + width; ++l)
                next[l] = roundValue(c->dtype, combine(op, v[l], v[l ^ off], ok));
            for (int32_t l = g; l < g + width; ++l) v[l] = next[l];
        }
    }
}

Address ThreadMachine::evalAddress(const ExprNode* e) {
    if (auto* s = dynamic_cast<const SelectNode*>(e))
        return evalAddress(evalCond(s->cond.get()) ? s->t.get() : s->f.get());
    auto* c = dynamic_cast<const CallNode*>(e);
    auto* ld = c && c->op == intrin::kAddressOf && c->args.size() == 1
                   ? dynamic_cast<const LoadNode*>(c->args[0].get())
                   : nullptr;
    if (!ld) fail(e ? e->span : m_stmtSpan, "expected an address (tl.address_of(buffer[index]))");
    BufferState& b = lookup(ld->buffer.get(), ld->span);
    return {&b, offsetOf(b, ld->indices, ld->span, "address")};
}

void ThreadMachine::execEvalT(const EvalNode* e, const ThreadList& act) {
    auto* c = dynamic_cast<const CallNode*>(e->call.get());
    if (!c) {
        prepareCollectives(e->call.get(), act);
        for (int32_t t : act) setThread(t), evalValue(e->call.get());
        m_cur = -1;
        return;
    }
    std::string_view op = stripT(c->op);
    if (op == "sync_threads" || op == "syncthreads" || op == "tl.sync_threads")
        return c->args.empty() ? barrier(e, act, "T.sync_threads()") : namedBarrier(c, act, true);
    if (op == "named_barrier_arrive") return namedBarrier(c, act, false);
    // The grid barrier is a block barrier too (cooperative_groups grid sync begins and ends
    // with one), then every block of the grid meets (GridRun.cpp).
    if (c->op == intrin::kSyncGrid) {
        barrier(e, act, "T.sync_grid()");
        gridBarrier(c->span);
        ++m_epoch;
        return;
    }
    if (c->op == intrin::kCpAsync) return cpAsync(c, act);
    if (c->op == intrin::kCpAsyncCommit) {
        for (int32_t t : act) {
            m_committed[t].push_back(std::move(m_openGroup[t]));
            m_openGroup[t].clear();
        }
        return;
    }
    if (c->op == intrin::kCpAsyncWait) return cpAsyncWait(c, act);
    if (c->op == intrin::kGemmSS || c->op == intrin::kGemmRS) return gemmSS(c, act);
    if (c->op == intrin::kWgmmaSS) return wgmmaSS(c, act);
    if (c->op == intrin::kWgmmaRS) return wgmmaRS(c, act);
    // wgmma computes at issue on the interpreter; its shared reads stay "in flight" until a
    // wait_group retires its group (checkWgmmaRead reports a write before that).
    if (c->op == intrin::kWgmmaWait) {
        if (c->args.size() >= 3) {
            setThread(act.front());
            const int64_t pending = evalI(c->args[2].get());
            m_cur = -1;
            for (int32_t t : act)
                if (t % 128 == 0) wgmmaRetire(t, pending);
        }
        return;
    }
    // Proxies are not modelled: shared writes are visible to wgmma once a barrier orders them.
    if (c->op == intrin::kFenceProxyAsync) return;
    // Warpgroup ping-pong orders only when each warpgroup issues its wgmma, no memory access: the
    // lockstep interpreter (which cannot let one warpgroup run ahead) runs it as a no-op.
    if (c->op == intrin::kWarpgroupTurn) return;
    if (c->op == intrin::kTmaLoad) return tmaLoad(c, act);
    if (c->op == intrin::kTmaStore) return tmaStore(c, act);
    if (c->op == intrin::kTmaReduceAdd) return tmaStore(c, act, true);
    if (c->op == intrin::kTmaStoreWait) return tmaStoreWait(c, act);
    if (c->op == intrin::kMbarrierInit || c->op == intrin::kMbarrierExpectTx || c->op == intrin::kMbarrierWait ||
        c->op == intrin::kMbarrierArrive || c->op == intrin::kMbarrierExpectTxOnly)
        return mbarrierOp(c, act);
    if (c->op == intrin::kCpAsyncArriveNoinc) {
        // cp.async.mbarrier.arrive.noinc: the arrival follows the completion of every earlier
        // cp.async of the thread, committed or not; completing them now is one legal execution.
        for (int32_t t : act) {
            m_cur = t;
            for (auto& g : m_committed[t]) completeGroup(t, g);
            m_committed[t].clear();
            completeGroup(t, m_openGroup[t]);
            m_openGroup[t].clear();
        }
        m_cur = -1;
        return mbarrierOp(c, act);
    }
    if (c->op == intrin::kStorePair || c->op == intrin::kCopyVec || c->op == intrin::kZeroVec)
        return vectorStore(c, act);
    if (c->op == intrin::kAtomic) return atomic(c, act);
    if (c->op == intrin::kDeviceAssert) {
        prepareCollectives(c->args.at(0).get(), act);
        for (int32_t t : act) {
            setThread(t);
            if (!evalI(c->args[0].get())) {
                auto* m = c->args.size() > 1 ? dynamic_cast<const StrImmNode*>(c->args[1].get()) : nullptr;
                fail(c->span, "T.device_assert failed" + (m && !m->value.empty() ? ": " + m->value : std::string()));
            }
        }
        m_cur = -1;
        return;
    }
    if (op == "print") {  // print(value, msg, index...): ElaborateMath.cpp
        const ExprNode* val = c->args.empty() ? nullptr : c->args[0].get();
        prepareCollectives(val, act);
        for (int32_t t : act) {
            setThread(t);
            log("block " + formatIndex(m_blockIdx) + " thread " + std::to_string(t) + ":" +
                printText(*c, [&](const ExprNode* i) { return evalI(i); }, [&](const ExprNode* x) { return evalF(x); }));
        }
        m_cur = -1;
        return;
    }
    if (op == "no_op" || op == "evaluate" || op == "fence_proxy_async" || op == "set_max_nreg" ||
        op == ir::intrin::kSetMaxNreg ||
        op == "annotate_layout" || op == "use_swizzle")
        return;
    if (op == "sync_warp" || op == "tl.sync_warp") return;  // lockstep warps: already converged
    if (op == "pdl_trigger" || op == "pdl_sync") return;    // kernels run one after another
    prepareCollectives(c, act);
    for (int32_t t : act) setThread(t), evalValue(c);  // other calls: errors for unknown tl.*
    m_cur = -1;
}

void ThreadMachine::cpAsync(const CallNode* c, const ThreadList& act) {
    if (c->args.size() < 3) fail(c->span, "tl.cp_async takes (dst, src, bytes, pred)");
    for (int32_t t : act) {
        setThread(t);
        Address d = evalAddress(c->args[0].get()), s = evalAddress(c->args[1].get());
        int64_t bytes = evalI(c->args[2].get());
        bool pred = c->args.size() < 4 || evalCond(c->args[3].get());
        if (d.buf->global || d.buf->threadStride)
            fail(c->span,
                 "tl.cp_async destination '" + d.buf->node->name + "' is not in shared memory");
        if (!s.buf->global)
            fail(c->span, "tl.cp_async source '" + s.buf->node->name +
                              "' is not in global memory (PTX ISA §9.7.9.25.3.1)");
        if (s.buf->dtype != d.buf->dtype)
            fail(c->span, "tl.cp_async between buffers of different dtypes ('" + s.buf->node->name +
                              "', '" + d.buf->node->name + "')");
        int64_t elt = dtypeBytes(d.buf->dtype);
        if ((bytes != 4 && bytes != 8 && bytes != 16) || bytes % elt)
            fail(c->span,
                 "tl.cp_async of " + std::to_string(bytes) + " bytes (cp.async copies 4, 8 or 16)");
        int n = static_cast<int>(bytes / elt);
        requireRange(*d.buf, d.off, n, c->span, "cp.async write");
        if ((d.off * elt) % bytes)
            fail(c->span, "misaligned cp.async: destination " + describe(*d.buf, d.off) +
                              " is not " + std::to_string(bytes) + "-byte aligned");
        AsyncCopy ev;
        ev.dst = d.buf;
        ev.off = d.off;
        ev.n = n;
        ev.span = c->span;
        if (pred) {
            requireRange(*s.buf, s.off, n, c->span, "cp.async read");
            if ((s.off * elt) % bytes)
                fail(c->span, "misaligned cp.async: source " + describe(*s.buf, s.off) +
                                  " is not " + std::to_string(bytes) +
                                  "-byte aligned (the row length in bytes must be a "
                                  "multiple of the copy width)");
            for (int i = 0; i < n; ++i) ev.vals[i] = s.buf->data[s.off + i];
        } else {
            for (int i = 0; i < n; ++i) ev.vals[i] = 0.0;  // src-size 0: zero fill
        }
        auto& cells = m_cells[d.buf];
        for (int i = 0; i < n; ++i) {
            int64_t o = d.off + i;
            const SharedCell& cell = cells[o];
            if (cell.wgmmaReads) checkWgmmaRead(*d.buf, o, c->span, "cp.async");
            if (cell.bulkReads) checkBulkRead(*d.buf, o, c->span, "cp.async");
            if (d.buf->pending[o]) {
                CheckFinding f = finding("stale-read", *d.buf, o, c->span, cell.asyncAt, -1);
                f.message = "cp.async to " + describe(*d.buf, o) +
                            " while an earlier cp.async to it is still pending (missing "
                            "cp.async.wait_group?): issued at line " +
                            std::to_string(c->span.line) + ", earlier one at line " +
                            std::to_string(cell.asyncAt.line);
                report(std::move(f));
            }
            if (cell.readEpoch == m_epoch && cell.reader != -1 && cell.reader != t) {
                CheckFinding f = finding("race", *d.buf, o, c->span, cell.readAt, cell.reader);
                f.message = "cp.async to " + describe(*d.buf, o) + " races with its read by " +
                            (cell.reader >= 0 ? "thread " + std::to_string(cell.reader)
                                              : std::string("other threads")) +
                            " (no T.sync_threads() between them): cp.async at line " +
                            std::to_string(c->span.line) + ", read at line " +
                            std::to_string(cell.readAt.line);
                report(std::move(f),
                       "the copy may land as soon as it is issued: a barrier must separate the "
                       "last read of a stage from the copy that refills it");
            }
        }
        for (int i = 0; i < n; ++i) {
            ++d.buf->pending[d.off + i];
            cells[d.off + i].asyncAt = c->span;
        }
        m_openGroup[t].push_back(ev);
    }
    m_cur = -1;
}

void ThreadMachine::cpAsyncWait(const CallNode* c, const ThreadList& act) {
    if (c->args.size() != 1)
        fail(c->span, "tl.cp_async_wait takes the number of groups left pending");
    setThread(act[0]);
    int64_t keep = evalI(c->args[0].get());
    if (keep < 0) fail(c->span, "tl.cp_async_wait with a negative group count");
    for (int32_t t : act) {
        m_cur = t;
        auto& q = m_committed[t];
        while (static_cast<int64_t>(q.size()) > keep) {
            completeGroup(t, q.front());
            q.pop_front();
        }
    }
    m_cur = -1;
}

void ThreadMachine::completeGroup(int32_t t, std::vector<AsyncCopy>& g) {
    for (auto& ev : g) {
        BufferState& b = *ev.dst;
        auto& cells = m_cells[&b];
        for (int i = 0; i < ev.n; ++i) {
            int64_t o = ev.off + i;
            --b.pending[o];
            clobberAliases(b, o, {});
            b.data[o] = roundValue(b.dtype, ev.vals[i]);
            if (!b.written.empty()) b.written[o] = 1;
            sharedViewWritten(b, o);
            cells[o].writer = t;  // visible to the other threads only after the next barrier
            cells[o].writeEpoch = m_epoch;
            cells[o].writeAt = ev.span;
        }
    }
}

void ThreadMachine::vectorStore(const CallNode* c, const ThreadList& act) {
    bool pair = c->op == intrin::kStorePair, zero = c->op == intrin::kZeroVec;
    if (c->args.size() != (zero ? 2u : 3u)) fail(c->span, c->op + ": wrong number of arguments");
    for (auto& a : c->args) prepareCollectives(a.get(), act);
    m_stores.clear();
    for (int32_t t : act) {
        setThread(t);
        Address d = evalAddress(c->args[0].get());
        int64_t elt = dtypeBytes(d.buf->dtype), n = 2;
        if (!pair) {
            int64_t bytes = evalI(c->args[zero ? 1 : 2].get());
            if (bytes <= 0 || bytes % elt)
                fail(c->span, c->op + " of " + std::to_string(bytes) + " bytes");
            n = bytes / elt;
        }
        requireRange(*d.buf, d.off, n, c->span, "vector store");
        if ((d.off * elt) % (n * elt) && (n * elt) <= 16)
            fail(c->span, "misaligned " + c->op + ": " + describe(*d.buf, d.off) + " is not " +
                              std::to_string(n * elt) + "-byte aligned");
        if (pair) {
            m_stores.push_back(
                {d.buf, d.off, roundValue(d.buf->dtype, evalValue(c->args[1].get())), t});
            m_stores.push_back(
                {d.buf, d.off + 1, roundValue(d.buf->dtype, evalValue(c->args[2].get())), t});
        } else if (zero) {
            for (int64_t i = 0; i < n; ++i) m_stores.push_back({d.buf, d.off + i, 0.0, t});
        } else {
            Address s = evalAddress(c->args[1].get());
            if (s.buf->dtype != d.buf->dtype)
                fail(c->span, "tl.copy_vec between buffers of different dtypes");
            requireRange(*s.buf, s.off, n, c->span, "vector load");
            for (int64_t i = 0; i < n; ++i)
                m_stores.push_back({d.buf, d.off + i, readElem(*s.buf, s.off + i, c->span), t});
        }
    }
    for (auto& p : m_stores) {
        m_cur = p.thread;
        writeElem(*p.buf, p.off, p.v, c->span);
    }
    m_cur = -1;
}

double ThreadMachine::atomicPrev(const CallNode* n) {
    auto [op, place] = atomicPrevParts(n);
    BufferState& b = lookup(place->buffer.get(), place->span);
    const int64_t off = offsetOf(b, place->indices, place->span, "atomic");
    const double v = roundValue(b.dtype, evalValue(n->args[2].get()));
    const int64_t s = slot(b, off);
    if (!b.global && !b.threadStride && b.pending[off])
        fail(n->span, "atomic on " + describe(b, off) +
                          " before its cp.async completed (missing cp.async.wait_group?)");
    if (!b.written.empty() && !b.written[s] && !uninitFatal(b)) uninitialisedRead(b, off, n->span, "an atomic");
    else if (!b.written.empty() && !b.written[s])
        fail(n->span, "atomic on never-written " + describe(b, off) + ": uninitialised memory");
    const double old = b.data[s];
    b.data[s] = roundValue(b.dtype, atomicCombine(op, old, v));
    sharedViewWritten(b, off);
    return old;
}

void ThreadMachine::atomic(const CallNode* c, const ThreadList& act) {
    // The memory order (a fourth argument) is met by running the threads' atomics one at a time.
    if (c->args.size() != 3 && c->args.size() != 4) fail(c->span, "tl.atomic takes (op, addr, value[, memory order])");
    std::string op = strArg(c, 0);
    if (op != "add" && op != "max" && op != "min")
        fail(c->span, "tl.atomic: unknown operator '" + op + "'");
    prepareCollectives(c->args[2].get(), act);
    for (int32_t t : act) {  // atomics serialise: one thread after another
        setThread(t);
        Address d = evalAddress(c->args[1].get());
        BufferState& b = *d.buf;
        double v = roundValue(b.dtype, evalValue(c->args[2].get()));
        int64_t s = slot(b, d.off);
        if (!b.global && !b.threadStride && b.pending[d.off])
            fail(c->span, "atomic on " + describe(b, d.off) +
                              " before its cp.async completed (missing cp.async.wait_group?)");
        if (!b.written.empty() && !b.written[s] && !uninitFatal(b)) uninitialisedRead(b, d.off, c->span, "an atomic");
        else if (!b.written.empty() && !b.written[s])
            fail(c->span,
                 "atomic on never-written " + describe(b, d.off) + ": uninitialised memory");
        double old = b.data[s];
        double r = op == "add" ? old + v : op == "max" ? std::fmax(old, v) : std::fmin(old, v);
        b.data[s] = roundValue(b.dtype, r);
        sharedViewWritten(b, d.off);
    }
    m_cur = -1;
}

const std::vector<std::pair<int32_t, int32_t>>& ThreadMachine::accumulatorMap(int64_t M, int64_t N,
                                                                              int64_t wm,
                                                                              int64_t wn) {
    return fragmentMap({M, N, wm, wn, m_warpSize}, [&] {
        return m_warpSize == 64 ? analysis::makeMfma16Layout('C', M, N, {int(wm), int(wn)})
                                : analysis::makeMmaAccumulator(M, N, {int(wm), int(wn)});
    });
}

const std::vector<std::pair<int32_t, int32_t>>& ThreadMachine::fragmentMap(std::vector<int64_t> key,
                                                                           const std::function<Layout()>& make) {
    auto it = m_accMaps.find(key);
    if (it != m_accMaps.end()) return it->second;
    Layout l = make();
    const int64_t M = l->shape.at(0), N = l->shape.at(1);
    std::vector<std::pair<int32_t, int32_t>> map(static_cast<size_t>(l->threads * l->localSize));
    std::vector<uint8_t> hit(static_cast<size_t>(M * N), 0);
    size_t mark = m_bindings.size();
    size_t pt = bind(l->invThread.get(), 0), pr = bind(l->invLocal.get(), 0);
    for (int64_t t = 0; t < l->threads; ++t)
        for (int64_t r = 0; r < l->localSize; ++r) {
            m_bindings[pt].i = t, m_bindings[pt].f = double(t);
            m_bindings[pr].i = r, m_bindings[pr].f = double(r);
            int64_t i = evalI(l->inverse[0].get()), j = evalI(l->inverse[1].get());
            if (i < 0 || i >= M || j < 0 || j >= N || hit[i * N + j]++)
                fail(m_stmtSpan,
                     "internal interpreter error: the accumulator layout is not a bijection");
            map[t * l->localSize + r] = {int32_t(i), int32_t(j)};
        }
    unbind(mark);
    return m_accMaps.emplace(std::move(key), std::move(map)).first->second;
}

// tl.gemm_ss (12 arguments) and tl.gemm_rs (10: A in registers, see compiler/ir/Intrinsics.h).
void ThreadMachine::gemmSS(const CallNode* c, const ThreadList& act) {
    const bool regA = c->op == intrin::kGemmRS;
    const char* name = regA ? "tl.gemm_rs" : "tl.gemm_ss";
    // Operands read in place as sub-tiles carry four view arguments (intrin::gemmViewIndex).
    const size_t view = intrin::gemmViewIndex(regA, c->args.size());
    const size_t nargs = view ? view + 4 : regA ? 10 : 12;
    // A warp role's gemm (lower-tile-ops) carries two more: its first thread and thread count.
    const bool role = c->args.size() == nargs + 2;
    if (c->args.size() != nargs && !role)
        fail(c->span, regA ? "tl.gemm_rs takes 10 arguments (A regs, B, C, M, N, K, wm, wn, transB, swizzleB)"
                           : "tl.gemm_ss takes 12 arguments (A, B, C, M, N, K, wm, wn, transA, transB, swizzleA, "
                             "swizzleB)");
    // A warp-specialized kernel's consumers (the first ws_consumer_threads threads) issue it: the
    // gemm was lowered for the kernel's own threads before warp-specialize added the producer.
    int32_t base = 0, threads = consumerThreads();
    if (role) {
        setThread(act[0]);
        base = static_cast<int32_t>(evalI(c->args[nargs].get()));
        threads = static_cast<int32_t>(evalI(c->args[nargs + 1].get()));
        m_cur = -1;
    }
    if (static_cast<int32_t>(act.size()) != threads || act.front() != base)
        fail(c->span, std::string(name) + " executed by " + std::to_string(act.size()) + " threads from thread " +
                          std::to_string(act.front()) + ", not by its " + std::to_string(threads) + " threads from " +
                          std::to_string(base) +
                          " (every warp must issue its mma.sync and ldmatrix)");
    setThread(act[0]);
    Address A = evalAddress(c->args[0].get()), B = evalAddress(c->args[1].get()),
            C = evalAddress(c->args[2].get());
    int64_t p[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (regA) {  // M N K wm wn tb swzB -> the gemm_ss order (ta = 0, swzA = 0)
        for (int i = 0; i < 5; ++i) p[i] = evalI(c->args[3 + i].get());
        p[6] = evalI(c->args[8].get()), p[8] = evalI(c->args[9].get());
    } else {
        for (int i = 0; i < 9; ++i) p[i] = evalI(c->args[3 + i].get());
    }
    for (int32_t t : act) {  // operand tiles are block-uniform
        setThread(t);
        Address a2 = evalAddress(c->args[0].get()), b2 = evalAddress(c->args[1].get()),
                c2 = evalAddress(c->args[2].get());
        if (a2.off != A.off || b2.off != B.off || c2.off != C.off)
            fail(c->span, std::string(name) + " operands differ between threads of the block");
    }
    m_cur = -1;
    const int64_t M = p[0], N = p[1], K = p[2], WM = p[3], WN = p[4];
    const bool TA = p[5] != 0, TB = p[6] != 0;
    const int swzA = int(p[7]), swzB = int(p[8]);
    // Stored row length (0: the operand's own) and origin offset of each operand, in elements.
    int64_t ldA = 0, offA = 0, ldB = 0, offB = 0;
    if (view) {
        setThread(act[0]);
        ldA = evalI(c->args[view].get()), offA = evalI(c->args[view + 1].get());
        ldB = evalI(c->args[view + 2].get()), offB = evalI(c->args[view + 3].get());
        m_cur = -1;
    }
    // The atom of the dtype pair (HwLayouts.h selectMmaAtom), as ts::gemm_ss picks MmaAtom<T, TC>.
    std::string why;
    auto atom = A.buf->dtype == B.buf->dtype
                    ? analysis::selectMmaAtom(A.buf->dtype, C.buf->dtype, &why)
                    : std::nullopt;
    if (!atom)
        fail(c->span, std::string(name) + " operands '" + A.buf->node->name + "', '" +
                          B.buf->node->name + "' and accumulator '" + C.buf->node->name + "': " +
                          (why.empty() ? "A and B dtypes differ" : why));
    const int64_t kStep = atom->k;
    if (WM <= 0 || WN <= 0 || M % WM || N % WN || (M / WM) % 16 || (N / WN) % 8 || K % kStep ||
        K <= 0 || (regA && WN != 1))
        fail(c->span, std::string(name) + " shape M=" + std::to_string(M) + " N=" + std::to_string(N) +
                          " K=" + std::to_string(K) + " warps " + std::to_string(WM) + "x" +
                          std::to_string(WN) + " violates the m16n8k" + std::to_string(kStep) +
                          " tiling (warp tile rows % 16, cols % 8, K % " + std::to_string(kStep) +
                          (regA ? ", one warp column for a register A)" : ")"));
    // 64-lane waves run the HIP gemm: MFMA 16x16x16 atoms (fp16/bf16 -> fp32) per wave.
    const bool mfma = m_warpSize == 64;
    if (mfma && (regA || (N / WN) % 16 || kStep != 16 || C.buf->dtype != DType::Float32))
        fail(c->span, std::string(name) + " on 64-lane wavefronts (the HIP MFMA gemm) needs "
                          "fp16/bf16 operands from shared memory, a float32 accumulator and "
                          "wave tiles of whole 16x16 atoms (N/WN % 16 == 0)");
    if (WM * WN * m_warpSize != threads)
        fail(c->span, std::string(name) + " with " + std::to_string(WM * WN) + " warps in a block of " +
                          std::to_string(threads) + " threads");
    for (auto* op : {&A, &B}) {
        if (op == &A && regA) continue;
        if (op->buf->global || op->buf->threadStride)
            fail(c->span, std::string(name) + " operand '" + op->buf->node->name +
                              "' must be a shared buffer");
    }
    // ts::gemm_rs packs accumulator registers into m16n8k16 A fragments: fp16/bf16 only.
    if (regA && (!A.buf->threadStride || atom->k != 16 || C.buf->dtype != DType::Float32))
        fail(c->span, "tl.gemm_rs A operand '" + A.buf->node->name +
                          "' must be a local register array of float16/bfloat16 with a float32 "
                          "accumulator");
    if (!C.buf->threadStride)
        fail(c->span, std::string(name) + " accumulator '" + C.buf->node->name + "' must be a local buffer");
    const auto& acc = accumulatorMap(M, N, WM, WN);
    const int64_t kAcc = static_cast<int64_t>(acc.size()) / threads;
    requireRange(*C.buf, C.off, kAcc, c->span, "gemm accumulator");
    // Logical operands read through the physical (swizzled) addressing of ts::GemmSS::load.
    auto readTile = [&](Address& X, bool trans, int64_t rows, int64_t cols, int swz, int64_t ld, int64_t off,
                        std::vector<double>& out) {
        // Logical X is rows x cols (A: M x K, B: K x N); stored transposed when `trans`, in a
        // parent tile of `ld`-element rows (0: its own) from element `off` (ts::GemmTiling).
        const int64_t e = dtypeBytes(X.buf->dtype);
        const int64_t rowElems = ld ? ld : trans ? rows : cols;
        const int64_t rowBytes = rowElems * e;
        if (ld && (ld < (trans ? rows : cols) || (off * e) % 16))
            fail(c->span, "tl.gemm_ss operand " + describe(*X.buf, X.off) + " view (ld " + std::to_string(ld) + ", offset " +
                              std::to_string(off) + ") is narrower than the operand or not 16-byte aligned");
        if (swz && (X.off * e) % 128)
            fail(c->span, "tl.gemm_ss operand " + describe(*X.buf, X.off) +
                              " is not 128-byte aligned (swizzle base)");
        readGemmOperand(X, rows, cols, [&](int64_t r, int64_t q) {
            int64_t sr = trans ? q : r, sc = trans ? r : q;
            return analysis::swizzleBytes(off * e + (sr * rowElems + sc) * e, rowBytes, swz) / e;
        }, out, c->span, "tl.gemm_ss");
    };
    if (regA) {
        // A from each thread's registers through the accumulator map of an M x K tile (the
        // layout ts::gemm_rs packs into A fragments); every element is held by one thread.
        const auto& amap = accumulatorMap(M, K, WM, 1);
        const int64_t kA = static_cast<int64_t>(amap.size()) / threads;
        requireRange(*A.buf, A.off, kA, c->span, "gemm_rs A registers");
        m_tileA.assign(static_cast<size_t>(M * K), 0.0);
        for (int32_t t = 0; t < threads; ++t) {
            const double* regs = A.buf->data + int64_t(base + t) * A.buf->threadStride + A.off;
            for (int64_t r = 0; r < kA; ++r) {
                auto [i, k] = amap[t * kA + r];
                m_tileA[i * K + k] = regs[r];
            }
        }
    } else {
        readTile(A, TA, M, K, swzA, ldA, offA, m_tileA);
    }
    readTile(B, TB, K, N, swzB, ldB, offB, m_tileB);
    const double* a = m_tileA.data();
    m_tileBt.resize(m_tileB.size());  // B as N x K, so that the k loop below is contiguous
    for (int64_t k = 0; k < K; ++k)
        for (int64_t j = 0; j < N; ++j) m_tileBt[j * K + k] = m_tileB[k * N + j];
    const double* b = m_tileBt.data();
    for (int32_t t = 0; t < threads; ++t) {
        double* regs = C.buf->data + int64_t(base + t) * C.buf->threadStride + C.off;
        for (int64_t r = 0; r < kAcc; ++r) {
            auto [i, j] = acc[t * kAcc + r];
            regs[r] = mmaAccumulate(regs[r], a + i * K, 1, b + j * K, 1, K, kStep, C.buf->dtype);
        }
    }
}

void ThreadMachine::readGemmOperand(const Address& X, int64_t rows, int64_t cols,
                                    const std::function<int64_t(int64_t, int64_t)>& phys,
                                    std::vector<double>& out, const Span& at, const char* what) {
    requireRange(*X.buf, X.off, rows * cols, at, "gemm operand");
    auto& cells = m_cells[X.buf];
    out.resize(static_cast<size_t>(rows * cols));
    const std::string line = " at line " + std::to_string(at.line);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t q = 0; q < cols; ++q) {
            const int64_t o = X.off + phys(r, q);
            if (o < 0 || o >= X.buf->size) fail(at, std::string(what) + " operand address outside '" + X.buf->node->name + "'");
            SharedCell& cell = cells[static_cast<size_t>(o)];
            if (X.buf->pending[o]) {
                CheckFinding f = finding("stale-read", *X.buf, o, at, cell.asyncAt, -1);
                f.thread = -2;
                const bool tma = std::string(what) == "tl.wgmma_ss";
                f.message = "read of " + describe(*X.buf, o) +
                            (tma ? " before its TMA load completed (missing mbarrier wait?): read by "
                                 : " before its cp.async completed (missing cp.async.wait_group?): read by ") +
                            what + line + ", copy issued at line " + std::to_string(cell.asyncAt.line);
                report(std::move(f), std::string(what) + " reads the whole stage: wait for its copies, then T.sync_threads()");
            }
            if (cell.writeEpoch == m_epoch && cell.writer >= 0) {
                CheckFinding f = finding("race", *X.buf, o, at, cell.writeAt, cell.writer);
                f.thread = -2;
                f.message = "read of " + describe(*X.buf, o) + " by " + what + " races with its write by thread " +
                            std::to_string(cell.writer) + " (no T.sync_threads() between them): read" + line +
                            ", written at line " + std::to_string(cell.writeAt.line);
                report(std::move(f));
            }
            if (!X.buf->written.empty() && !X.buf->written[o] && !uninitFatal(*X.buf)) {
                uninitialisedRead(*X.buf, o, at, what);
            } else if (!X.buf->written.empty() && !X.buf->written[o]) {
                CheckFinding f = finding("uninitialised", *X.buf, o, at, X.buf->node->span, -1);
                f.thread = -2;
                f.message = "read of never-written " + describe(*X.buf, o) + " by " + what + line;
                report(std::move(f));
            }
            cell.readEpoch = m_epoch;
            cell.reader = -2;
            cell.readAt = at;
            out[r * cols + q] = analysis::mmaOperandValue(X.buf->dtype, X.buf->data[o]);
        }
}

}  // namespace ts::interp::detail
