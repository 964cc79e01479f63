// Statements of the thread-level interpreter: the grid, SIMT execution of a block under an
// active mask, per-thread and per-block allocation with poison, two-phase stores (every active
// thread evaluates, then all write, as one SIMT instruction would), barriers, and the checks of
// the shared-memory model (pending cp.async, races between barriers).
#include <cmath>
#include <optional>
#include <limits>
#include <new>

#include "compiler/analysis/Layouts.h"
#include "compiler/interp/ThreadMachine.h"
#include "compiler/ir/Layout.h"

namespace ts::interp::detail {
using namespace ts::ir;

namespace {

std::string blockText(const std::vector<int64_t>& idx) {
    std::string s = "(";
    for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
    return s + ")";
}

bool sameValue(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

int64_t physicalElems(const PrimFuncNode* f, const BufferNode& b, int64_t numel) {
    return f ? analysis::sharedPhysicalElems(*f, b, numel) : numel;
}

}  // namespace

void ThreadMachine::splitByCond(const ExprNode* cond, const ThreadList& act, ThreadList& yes, ThreadList& no) {
    prepareCollectives(cond, act);
    for (int32_t t : act) {
        setThread(t);
        (evalCond(cond) ? yes : no).push_back(t);
    }
    m_cur = -1;
}

void ThreadMachine::runBody(const PrimFunc& f) {
    m_func = f.get();
    m_strict = m_observer && m_observer->strictInit();
    m_autoSync = m_tileLevel && !attrInt(f->attrs, "user_barriers_only", 0);
    execTop(f->body.get());
}

void ThreadMachine::execTop(const StmtNode* s) {
    if (!s) return;
    if (s->kind == StmtKind::Seq) {
        for (auto& c : static_cast<const SeqNode*>(s)->stmts) execTop(c.get());
    } else if (s->kind == StmtKind::Kernel) {
        execKernelT(static_cast<const KernelNode*>(s));
    } else {
        exec(s);  // host-side statements around the kernel (none in practice): tile semantics
    }
}

void ThreadMachine::execKernelT(const KernelNode* k) {
    int64_t total = 0;
    std::vector<int64_t> grid = kernelGrid(k, total);
    int64_t nthreads = k->threadCount();
    if (nthreads < 1 || nthreads > 1024)
        fail(k->span, "a block of " + std::to_string(nthreads) +
                          " threads (CUDA allows 1..1024, Programming Guide \"Thread Hierarchy\")");
    m_threads = static_cast<int32_t>(nthreads);
    // 32 (CUDA warps) or 64 (AMD wavefronts: the HIP lowering sets the function's warp_size).
    m_warpSize = m_func ? int32_t(ir::attrInt(m_func->attrs, "warp_size", 32)) : 32;
    m_all.resize(m_threads);
    for (int32_t t = 0; t < m_threads; ++t) m_all[t] = t;
    size_t mark = m_bindings.size();
    for (auto& v : k->blockVars) {
        if (!v) fail(k->span, "malformed IR: missing block variable");
        bind(v.get(), 0);
    }
    m_threadPos.clear();
    m_threadIdx.assign(k->threadVars.size(), std::vector<int64_t>(m_threads));
    int64_t stride = 1;
    for (size_t d = 0; d < k->threadVars.size(); ++d) {
        if (!k->threadVars[d]) fail(k->span, "malformed IR: missing thread variable");
        int64_t ext = d < k->threads.size() ? k->threads[d] : 1;
        for (int32_t t = 0; t < m_threads; ++t) m_threadIdx[d][t] = (t / stride) % ext;
        stride *= ext;
        m_threadPos.push_back(bind(k->threadVars[d].get(), 0));
    }
    m_inKernel = true;
    m_blockIdx.assign(grid.size(), 0);
    if (needsGridRun(k, total)) {
        runGrid(k, mark, grid, total);
    } else {
        for (int64_t lin = 0; lin < total; ++lin) {
            if (m_opts.maxBlocks >= 0 && m_blocksRun >= m_opts.maxBlocks) break;
            checkBlockLimits(k->span, lin, total);
            if (!execBlock(k, mark, lin, grid)) continue;
            ++m_blocksRun;
            if (m_opts.onBlock) m_opts.onBlock(lin + 1, total);
        }
    }
    m_inKernel = false;
    unbind(mark);
}

bool ThreadMachine::execBlock(const KernelNode* k, size_t mark, int64_t lin, const std::vector<int64_t>& grid) {
    int64_t rest = lin;
    m_blockIdx.assign(grid.size(), 0);
    for (size_t d = 0; d < grid.size(); ++d) {
        m_blockIdx[d] = rest % grid[d];
        rest /= grid[d];
        if (d < k->blockVars.size()) {
            m_bindings[mark + d].i = m_blockIdx[d];
            m_bindings[mark + d].f = double(m_blockIdx[d]);
        }
    }
    if (m_observer && !m_observer->runBlock(m_blockIdx)) {
        // A cooperative grid (GridRun.cpp) needs every block for its barriers: a block the
        // debugger is not focused on still runs, unobserved.
        if (!m_grid) return false;
        m_observer = nullptr;
    }
    for (auto& b : m_buffers)
        if (!b->global || b->pointer || b->viewOwnsData) b->live = false;
    retireSharedViews();  // a kernel tensor's views of another dtype (Exec.cpp lookup), made again at their first access
    m_named.clear();
    m_stack.clear();
    m_openGroup.assign(m_threads, {});
    m_committed.assign(m_threads, {});
    m_wgmmaGroups.clear();  // shared cells are reset with their buffers below
    m_bulkGroups.clear();
    ++m_epoch;  // a new block: nothing it does races with the previous one's accesses
    m_cur = -1;
    try {
        execT(k->body.get(), m_all);
        // A TMA store's global writes are only known to be performed after a full
        // cp.async.bulk.wait_group (PTX ISA §9.7.9.27); the block's shared memory is gone at exit.
        if (!m_bulkGroups.empty())
            fail(m_bulkGroups.back().at, std::string(m_bulkGroups.back().reduceAdd ? "the TMA reduce-add" : "the TMA store") +
                                             " issued at line " + std::to_string(m_bulkGroups.back().at.line) +
                                             " is still in flight when the block exits (no tl.tma_store_wait(0, 0) after it)",
                 "the issuing thread must wait for its bulk async-groups (cp.async.bulk.wait_group 0) before the kernel ends");
    } catch (InterpError& e) {
        e.message += " [block " + blockText(m_blockIdx);
        e.message += m_cur >= 0 ? ", thread " + std::to_string(m_cur) + "]" : "]";
        throw;
    }
    return true;
}

std::unique_ptr<Machine> ThreadMachine::cloneForBlock() const {
    auto t = std::make_unique<ThreadMachine>(m_opts);
    copySetupTo(*t);
    t->m_func = m_func;
    t->m_threads = m_threads;
    t->m_warpSize = m_warpSize;
    t->m_threadPos = m_threadPos;
    t->m_threadIdx = m_threadIdx;
    t->m_all = m_all;
    t->m_strict = m_strict;
    t->m_tileLevel = m_tileLevel;
    t->m_autoSync = m_autoSync;
    t->m_observer = m_observer;
    t->m_epoch = m_epoch;
    return t;
}

namespace {
/// Keeps a loop or if on the statement stack while its body runs (the observer's depth).
struct StackGuard {
    std::vector<const StmtNode*>& stack;
    StackGuard(std::vector<const StmtNode*>& st, const StmtNode* s) : stack(st) { stack.push_back(s); }
    ~StackGuard() { stack.pop_back(); }
};
}  // namespace

void ThreadMachine::execT(const StmtNode* s, const ThreadList& act) {
    if (!s || act.empty()) return;
    DepthGuard g(*this, s->span);
    Span saved = m_stmtSpan;
    if (s->span.valid()) m_stmtSpan = s->span;
    if (m_observer && s->kind != StmtKind::Seq)
        m_observer->statement(s, act, static_cast<int>(m_stack.size()));
    std::optional<StackGuard> frame;
    if (s->kind == StmtKind::For || s->kind == StmtKind::If) frame.emplace(m_stack, s);
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s)->stmts) {
                execT(c.get(), act);
                if (m_autoSync) ++m_epoch;  // see m_autoSync
            }
            break;
        case StmtKind::For:
            execForT(static_cast<const ForNode*>(s), act);
            break;
        case StmtKind::If: {
            auto* n = static_cast<const IfNode*>(s);
            ThreadList yes, no;
            splitByCond(n->cond.get(), act, yes, no);
            if (n->check && !no.empty()) reportSkippedStore(*n, no);
            // Two warp roles in a kernel with mbarriers may wait on each other (a producer
            // and a consumer each looping over stages): they run as coroutines (ThreadRoles.cpp).
            if (!yes.empty() && !no.empty() && n->otherwise && !m_mbarriers.empty() && !m_roles) {
                RoleList roles{{n->then.get(), yes}};
                collectRoles(n->otherwise.get(), no, roles);
                runRoles(roles);
                break;
            }
            execT(n->then.get(), yes);
            if (n->otherwise) execT(n->otherwise.get(), no);
            break;
        }
        case StmtKind::Store:
            execStoreT(static_cast<const StoreNode*>(s), act);
            break;
        case StmtKind::Alloc:
            execAllocT(static_cast<const AllocNode*>(s), act);
            break;
        case StmtKind::Eval:
            execEvalT(static_cast<const EvalNode*>(s), act);
            // TMA stores, atomics and copies write kernel tensors without writeElem: a view of
            // another dtype (m_sharedViews holds only those here) re-derives what they changed.
            if (!m_sharedViews.empty()) syncSharedViewsAfter(s);
            break;
        case StmtKind::Kernel:
            fail(s->span, "T.Kernel nested inside another T.Kernel");
        case StmtKind::TileOp:
            if (m_tileLevel) {
                // A one-element atomic by a scalar is per-thread work (every thread issues it).
                // T.fill by the whole block keeps its per-thread element split (race checks);
                // other tile ops run once for the block or warp role that reaches them.
                auto* t = static_cast<const TileOpNode*>(s);
                const bool roleFill = t->op == TileOpKind::Fill && static_cast<int32_t>(act.size()) != m_threads;
                // (A tile op writes kernel tensors without writeElem: see the Eval case.)
                if ((!roleFill && tileOpPerThread(t, act)) || tileOpCollective(t, act)) {
                    if (!m_sharedViews.empty()) syncSharedViewsAfter(s);
                    break;
                }
            }
            if (m_tileLevel)
                fail(s->span,
                     std::string("T.") + ir::tileOpName(static_cast<const TileOpNode*>(s)->op) +
                         " in a kernel that reads the thread index (T.get_thread_binding): the "
                         "tile-level interpreter runs such a kernel thread by thread and cannot "
                         "run a tile op there yet",
                     "run the lowered kernel instead (tilec run --interp=lowered), or write the "
                     "element loop with the thread index");
            fail(s->span,
                 "tile op in lowered IR: the thread-level interpreter runs IR after lower-tile-ops",
                 "run the tile-level interpreter (tilec run --interp) on tile-level IR");
    }
    m_stmtSpan = saved;
}

void ThreadMachine::execForT(const ForNode* n, const ThreadList& act) {
    if (!n->var) fail(n->span, "malformed IR: loop without a variable");
    auto* minImm = dynamic_cast<const IntImmNode*>(n->min.get());
    auto* extImm = dynamic_cast<const IntImmNode*>(n->extent.get());
    std::vector<int64_t> mn, ext;  // per thread, only when not constant
    bool uniform = true;
    int64_t umin = minImm ? minImm->value : 0, uext = extImm ? extImm->value : 0;
    if (!minImm || !extImm) {
        prepareCollectives(n->min.get(), act);
        prepareCollectives(n->extent.get(), act);
        mn.assign(m_threads, 0);
        ext.assign(m_threads, 0);
        for (size_t i = 0; i < act.size(); ++i) {
            int32_t t = act[i];
            setThread(t);
            mn[t] = minImm ? umin : evalI(n->min.get());
            ext[t] = extImm ? uext : evalI(n->extent.get());
            if (i == 0) umin = mn[t], uext = ext[t];
            uniform &= mn[t] == umin && ext[t] == uext;
        }
        m_cur = -1;
    }
    size_t pos = bind(n->var.get(), umin);
    int64_t it = 0;
    if (uniform) {
        LoopScope loop(*this, n->span, uext, &it);
        for (; it < uext; ++it) {
            int64_t value = static_cast<int64_t>(uint64_t(umin) + uint64_t(it));
            m_bindings[pos].i = value;
            m_bindings[pos].f = double(value);
            loop.tick(n->span);
            if (m_observer)
                m_observer->iteration(n, value, static_cast<int>(m_stack.size()));
            execT(n->body.get(), act);
        }
    } else {
        // Thread-dependent trip count: iteration `it` runs for the threads that still have one,
        // each with its own loop variable (a barrier inside then reports the divergence).
        size_t slotIdx = m_perThread.size();
        m_perThread.push_back({pos, std::vector<int64_t>(m_threads, 0)});
        int64_t most = 0;
        for (int32_t t : act) most = std::max(most, ext[t]);
        ThreadList sub;
        LoopScope loop(*this, n->span, most, &it);
        for (; it < most; ++it) {
            sub.clear();
            for (int32_t t : act)
                if (it < ext[t]) {
                    sub.push_back(t);
                    m_perThread[slotIdx].vals[t] =
                        static_cast<int64_t>(uint64_t(mn[t]) + uint64_t(it));
                }
            loop.tick(n->span);
            if (m_observer)
                m_observer->iteration(n, int64_t(uint64_t(umin) + uint64_t(it)),
                                           static_cast<int>(m_stack.size()));
            execT(n->body.get(), sub);
        }
        m_perThread.pop_back();
    }
    unbind(pos);
    if (m_autoSync) ++m_epoch;  // see m_autoSync
}

void ThreadMachine::execAllocT(const AllocNode* a, const ThreadList& act) {
    const BufferNode* node = a->buffer.get();
    if (!node) fail(a->span, "malformed IR: allocation without a buffer");
    BufferState& st = stateFor(node);
    if (node->scope == Scope::Global && !(st.global && !st.pointer)) {
        // T.make_tensor(P[g], ...): every active thread computes the pointer; the model binds
        // one tensor per block, so the threads must agree (they do when the table index is
        // block-uniform, as in grouped GEMMs).
        if (!a->init || act.empty()) fail(a->span, "malformed IR: tensor '" + node->name + "' declared without a pointer");
        setThread(act.front());
        const double p = evalF(a->init.get());
        for (int32_t t : act) {
            setThread(t);
            const double q = evalF(a->init.get());
            if (q != p)
                fail(a->span, "T.make_tensor '" + node->name + "': threads " + std::to_string(act.front()) + " and " +
                                  std::to_string(t) + " of the block read different pointers",
                     "the interpreters bind one tensor per T.make_tensor and block: index the pointer table "
                     "with a value every thread of the block agrees on");
        }
        m_cur = -1;
        bindPointerTensor(a, st, p);
        return;
    }
    if (st.global)
        fail(a->span, "'" + node->name + "' is a kernel parameter and cannot be allocated again");
    st.dtype = node->dtype;
    st.shape.clear();
    int64_t numel = 1;
    for (auto& e : node->shape) {
        int64_t v = evalI(e.get());
        if (v < 0 || (v && numel > kMaxElements / v))
            fail(a->span, "buffer '" + node->name + "' has an unsupported shape");
        st.shape.push_back(v);
        numel *= v;
    }
    st.strides.assign(st.shape.size(), 1);
    for (size_t d = st.shape.size(); d-- > 1;) st.strides[d - 1] = st.strides[d] * st.shape[d];
    bool isInt = !isFloatType(node->dtype);
    double poison = isInt ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    bool perThread = node->scope == Scope::Local || node->scope == Scope::Fragment;
    bool fresh = !st.live;
    st.size = numel;
    if (!perThread) {
        numel = physicalElems(m_func, *node, numel);
        if (numel > kMaxElements) fail(a->span, "shared buffer '" + node->name + "' is too large");
        if (!fresh && st.own.size() == static_cast<size_t>(numel) && !a->init) {
            st.size = numel;  // re-entered in the same block: shared memory persists
            return;
        }
        st.size = numel;
        st.threadStride = 0;
        st.own.assign(static_cast<size_t>(numel), poison);
        // Every shared element is tracked: reading a never-written integer one (a float one under
        // the debugger's strict checks) stops the run, a float one is a warning.
        st.written.assign(static_cast<size_t>(numel), 0);
        st.pending.assign(static_cast<size_t>(numel), 0);
        m_cells[&st].resize(static_cast<size_t>(numel));
        if (a->init) {
            setThread(act.front());  // a shared initialiser is block-uniform
            double v = roundValue(node->dtype, evalValue(a->init.get()));
            m_cur = -1;
            std::fill(st.own.begin(), st.own.end(), v);
            std::fill(st.written.begin(), st.written.end(), 1);
        }
    } else {
        if (numel * m_threads > kMaxElements)
            fail(a->span, "local buffer '" + node->name + "' is too large");
        st.threadStride = numel;
        if (fresh || st.own.size() != static_cast<size_t>(numel * m_threads)) {
            st.own.assign(static_cast<size_t>(numel * m_threads), poison);
            st.written.assign(isInt ? st.own.size() : 0, 0);
        }
        st.pending.clear();
        for (int32_t t : act) {  // (re-)entering the scope: the active threads' copies start over
            double v = poison;
            bool init = a->init != nullptr;
            if (init) {
                setThread(t);
                v = roundValue(node->dtype, evalValue(a->init.get()));
            }
            for (int64_t i = 0; i < numel; ++i) {
                st.own[t * numel + i] = v;
                if (isInt) st.written[t * numel + i] = init;
            }
        }
        m_cur = -1;
    }
    st.data = st.own.data();
    st.live = true;
    if (!perThread && fresh) initSharedView(st);
}

void ThreadMachine::reportSkippedStore(const IfNode& n, const ThreadList& skipped) {
    // The guard lowering put around a global element store the user wrote in T.Parallel
    // (ir::StoreCheck): on the GPU the store is skipped, but the program writes outside the
    // tensor, which the tile-level interpreter reports (Machine::elementOffset: "out-of-bounds
    // store B[256]: global buffer 'B' has shape (256)" at the store). So does this one, with the
    // store's logical indices (its own are flat after lower-to-threads) at the store's span (the
    // guard's), by computing the element's offset for the first thread that skips it.
    BufferState& b = lookup(n.check.buffer.get(), n.span);
    for (auto& i : n.check.indices) prepareCollectives(i.get(), skipped);
    setThread(skipped.front());
    offsetOf(b, n.check.indices, n.span, "store");
    m_cur = -1;
}

void ThreadMachine::execStoreT(const StoreNode* s, const ThreadList& act) {
    BufferState& b = lookup(s->buffer.get(), s->span);
    for (auto& i : s->indices) prepareCollectives(i.get(), act);
    prepareCollectives(s->value.get(), act);
    m_stores.clear();
    for (int32_t t : act) {
        setThread(t);
        int64_t off = offsetOf(b, s->indices, s->span, "store");
        m_stores.push_back({&b, off, roundValue(b.dtype, evalValue(s->value.get())), t});
    }
    for (auto& p : m_stores) {
        m_cur = p.thread;
        writeElem(*p.buf, p.off, p.v, s->span);
    }
    m_cur = -1;
}

void ThreadMachine::barrier(const StmtNode* at, const ThreadList& act, const char* what) {
    if (static_cast<int32_t>(act.size()) != m_threads) {
        int32_t missing = 0;
        for (int32_t t : act) {
            if (t != missing) break;
            ++missing;
        }
        m_cur = -1;
        std::string line = at->span.valid() ? " at line " + std::to_string(at->span.line) : "";
        CheckFinding f;
        f.kind = "divergent-barrier";
        f.at = at->span;
        f.block = m_blockIdx;
        f.otherThread = missing;
        f.barriers.push_back({0, m_threads, static_cast<int64_t>(act.size()), 0, at->span, act});
        f.message = std::string(what) + line + " reached by only " + std::to_string(act.size()) +
                    " of " + std::to_string(m_threads) +
                    " threads of the block (divergent barrier; thread " + std::to_string(missing) +
                    " does not reach it)";
        report(std::move(f),
               "__syncthreads must be reached by every thread of the block (CUDA C++ Programming "
               "Guide, \"Synchronization Functions\"); hoist it out of the thread-dependent branch");
    }
    ++m_epoch;
}

void ThreadMachine::namedBarrier(const CallNode* c, const ThreadList& act, bool wait) {
    // bar.sync a{, b} / bar.arrive a, b (PTX ISA §9.7.13.1): a in [0, 16), b threads (a multiple
    // of the warp size; default: every thread of the block).
    setThread(act.front());
    int64_t id = evalI(c->args[0].get());
    int64_t count = c->args.size() > 1 ? evalI(c->args[1].get()) : m_threads;
    m_cur = -1;
    if (id < 0 || id > 15)
        fail(c->span, "barrier id " + std::to_string(id) + " (bar.sync takes 0..15)");
    if (count <= 0 || count % 32)
        fail(c->span, "barrier " + std::to_string(id) + " with an arrival count of " +
                          std::to_string(count) + " (bar.sync counts threads in whole warps)",
             "give a multiple of 32");
    NamedBarrier& nb = m_named[id];
    if (nb.arrived == 0) nb.expected = count;
    if (nb.expected != count)
        fail(c->span, "barrier " + std::to_string(id) + " used with " + std::to_string(count) +
                          " arrivals while its current phase expects " +
                          std::to_string(nb.expected));
    nb.arrived += static_cast<int64_t>(act.size());
    nb.at = c->span;
    roleProgress();
    if (nb.arrived >= nb.expected) {
        nb.arrived = 0;
        ++nb.phase;
        // Orders every thread's accesses, not only the participants': a partial barrier is
        // treated as a full one by the race checker (it may miss a race between non-members).
        ++m_epoch;
        return;
    }
    if (!wait) return;
    // Warp roles (runRoles): the other role may still arrive and complete this phase.
    const int64_t phase = nb.phase;
    if (waitOnOtherRole([&] { return nb.phase != phase; })) return;
    CheckFinding f;
    f.at = c->span;
    f.block = m_blockIdx;
    for (auto& [bid, b] : m_named)
        if (b.arrived > 0)
            f.barriers.push_back({bid, b.expected, b.arrived, b.phase, b.at,
                                  bid == id ? act : ThreadList{}});
    std::string state = "barrier " + std::to_string(id) + " at line " +
                        std::to_string(c->span.line) + " expects " + std::to_string(nb.expected) +
                        " arrivals, " + std::to_string(nb.arrived) + " arrived";
    if (static_cast<int32_t>(act.size()) == m_threads) {
        f.kind = "deadlock";
        f.message = "deadlock: every thread of the block waits at " + state +
                    " and no thread is left to arrive";
        report(std::move(f), "the arrival count must equal the threads that reach the barrier "
                             "(bar.sync id, count; PTX ISA §9.7.13.1)");
    }
    f.kind = "divergent-barrier";
    f.message = state + " with threads of the block waiting elsewhere: producer/consumer named "
                        "barriers in thread-dependent branches are not modelled by the "
                        "lockstep interpreter";
    report(std::move(f));
}

void ThreadMachine::report(CheckFinding f, const std::string& hint) {
    if (f.block.empty()) f.block = m_blockIdx;
    if (m_observer) m_observer->finding(f);
    fail(f.at, f.message, hint);
}

void ThreadMachine::uninitialisedRead(const BufferState& b, int64_t off, const Span& at, const std::string& by) {
    // Once per buffer: a kernel reading a whole never-written tile comes here per element.
    if (!m_uninitWarned.insert(b.node).second) return;
    const Span where = at.valid() ? at : m_stmtSpan;
    std::string blk;
    for (size_t d = 0; d < m_blockIdx.size(); ++d) blk += (d ? ", " : "") + std::to_string(m_blockIdx[d]);
    warnOnce("uninitialised:" + b.node->name,
             Diagnostic{Severity::Warning, where,
                        "read of never-written " + describe(b, off) + (by.empty() ? "" : " by " + by) +
                            ": uninitialised shared memory (first such read of '" + b.node->name + "', block (" + blk +
                            ")" + (m_cur >= 0 ? ", thread " + std::to_string(m_cur) : std::string()) + "; declared at line " +
                            std::to_string(b.node->span.line) + "); the interpreter reads NaN there, a GPU whatever bytes "
                            "the shared memory held",
                        "write every element before reading it (T.clear / T.fill / a copy), or mask what the "
                        "kernel reads; `tilec debug ... --step-kind continue` stops at the read",
                        "interp"});
}

CheckFinding ThreadMachine::finding(const char* kind, const BufferState& b, int64_t off,
                                    const Span& at, const Span& other, int32_t otherThread) const {
    CheckFinding f;
    f.kind = kind;
    f.at = at.valid() ? at : m_stmtSpan;
    f.other = other;
    f.buffer = b.node->name;
    f.index = off;
    f.thread = m_cur;
    f.otherThread = otherThread;
    f.block = m_blockIdx;
    return f;
}

namespace {
std::string lineOf(const Span& s) {
    return s.valid() ? " at line " + std::to_string(s.line) : std::string();
}
}  // namespace

int64_t ThreadMachine::offsetOf(BufferState& b, const std::vector<Expr>& idx, const Span& at,
                                const char* what) {
    if (idx.size() == 1 && b.shape.size() != 1) {
        int64_t off = evalI(idx[0].get());
        if (off < 0 || off >= b.size) {
            CheckFinding f = finding("out-of-bounds", b, off, at, b.node->span, -1);
            f.message = std::string("out-of-bounds ") + what + " " + b.node->name + "[" +
                        std::to_string(off) + "] (flat element offset): " +
                        scopeName(b.node->scope) + " buffer '" + b.node->name + "' of shape " +
                        formatShape(b.shape) + " has " + std::to_string(b.size) + " elements" +
                        (b.node->span.valid() ? " (declared at line " +
                                                    std::to_string(b.node->span.line) + ")"
                                              : std::string());
            report(std::move(f));
        }
        return off;
    }
    try {
        return elementOffset(b, idx, at, what);
    } catch (InterpError& e) {
        // Out of bounds (or a rank mismatch): hand the finding to the observer as well.
        int64_t flat = -1;  // the offending element as a row-major offset, for the finding
        if (idx.size() == b.shape.size()) {
            try {
                flat = 0;
                for (size_t d = 0; d < idx.size(); ++d)
                    flat = flat * b.shape[d] + evalI(idx[d].get());
            } catch (InterpError&) {
                flat = -1;
            }
        }
        CheckFinding f = finding("out-of-bounds", b, flat, e.span, b.node->span, -1);
        f.message = e.message;
        if (m_observer) m_observer->finding(f);
        throw;
    }
}

void ThreadMachine::requireRange(const BufferState& b, int64_t off, int64_t n, const Span& at,
                                 const char* what) {
    if (off < 0 || n < 0 || off + n > b.size) {
        CheckFinding f = finding("out-of-bounds", b, off, at, b.node->span, -1);
        f.message = std::string("out-of-bounds ") + what + " of " + std::to_string(n) +
                    " elements at " + b.node->name + "[" + std::to_string(off) +
                    "]: " + scopeName(b.node->scope) + " buffer '" + b.node->name +
                    "' of shape " + formatShape(b.shape) + " has " + std::to_string(b.size) +
                    " elements";
        report(std::move(f));
    }
}

std::string ThreadMachine::describe(const BufferState& b, int64_t off) const {
    std::string s = b.node->name + "[" + std::to_string(off) + "]";
    int64_t logical = 1;
    for (int64_t e : b.shape) logical *= e;
    if (b.shape.size() > 1 && off >= 0 && off < b.size && !b.global && logical == b.size) {
        std::vector<int64_t> c(b.shape.size());
        int64_t r = off;
        for (size_t d = b.shape.size(); d-- > 0;) {
            c[d] = b.shape[d] ? r % b.shape[d] : 0;
            r = b.shape[d] ? r / b.shape[d] : 0;
        }
        s += " (= " + b.node->name + formatIndex(c) + ")";
    }
    return s;
}

double ThreadMachine::loadValue(const LoadNode* n) {
    BufferState& b = lookup(n->buffer.get(), n->span);
    return readElem(b, offsetOf(b, n->indices, n->span, "load"), n->span);
}

double ThreadMachine::readElem(BufferState& b, int64_t off, const Span& at) {
    if (b.threadStride && m_cur < 0)
        fail(at, "local buffer '" + b.node->name +
                     "' read in a block-uniform context (no current thread)");
    int64_t s = slot(b, off);
    // A cp.async still in flight is the more specific diagnosis than "never written".
    if (!b.global && !b.threadStride && b.pending[off]) {
        const SharedCell& c = m_cells[&b][off];
        CheckFinding f = finding("stale-read", b, off, at, c.asyncAt, -1);
        f.message = "read of " + describe(b, off) +
                    " before its cp.async completed (missing cp.async.wait_group?): read" +
                    lineOf(f.at) + ", cp.async issued" + lineOf(c.asyncAt);
        report(std::move(f), "the copy writes shared memory only once tl.cp_async_wait of "
                             "the issuing thread covers its group");
    }
    if (!b.written.empty() && !b.written[s] && !uninitFatal(b)) uninitialisedRead(b, off, at, "");
    else if (!b.written.empty() && !b.written[s]) {
        CheckFinding f = finding("uninitialised", b, off, at, b.node->span, -1);
        f.message = "read of never-written " + describe(b, off) + ": uninitialised " +
                    scopeName(b.node->scope) + " memory: read" + lineOf(f.at) + ", " +
                    b.node->name + " declared" + lineOf(b.node->span);
        report(std::move(f),
               "initialise the buffer (T.clear / T.fill / a store) before reading it");
    }
    if (!b.global && !b.threadStride) {
        SharedCell& c = m_cells[&b][off];
        if (c.writeEpoch == m_epoch && c.writer >= 0 && c.writer != m_cur) {
            CheckFinding f = finding("race", b, off, at, c.writeAt, c.writer);
            f.message = "read of " + describe(b, off) + " races with its write by thread " +
                        std::to_string(c.writer) + " (no T.sync_threads() between them): read by thread " +
                        std::to_string(m_cur) + lineOf(f.at) + ", written" + lineOf(c.writeAt);
            report(std::move(f), "shared memory written by one thread is visible to others "
                                 "only after a barrier");
        }
        if (c.readEpoch != m_epoch) {
            c.readEpoch = m_epoch;
            c.reader = m_cur;
        } else if (c.reader != m_cur) {
            c.reader = -2;
        }
        c.readAt = at;
    }
    return b.data[s];
}

void ThreadMachine::writeElem(BufferState& b, int64_t off, double v, const Span& at) {
    if (b.threadStride && m_cur < 0)
        fail(at, "local buffer '" + b.node->name +
                     "' written in a block-uniform context (no current thread)");
    int64_t s = slot(b, off);
    if (!b.global && !b.threadStride) {
        SharedCell& c = m_cells[&b][off];
        if (c.wgmmaReads) checkWgmmaRead(b, off, at, "write");
        if (c.bulkReads) checkBulkRead(b, off, at, "write");
        if (b.pending[off]) {
            CheckFinding f = finding("stale-read", b, off, at, c.asyncAt, -1);
            f.message = "write of " + describe(b, off) +
                        " races with a pending cp.async to it (missing cp.async.wait_group?): write" +
                        lineOf(f.at) + ", cp.async issued" + lineOf(c.asyncAt);
            report(std::move(f));
        }
        if (c.readEpoch == m_epoch && c.reader != -1 && c.reader != m_cur) {
            CheckFinding f = finding("race", b, off, at, c.readAt, c.reader);
            f.message = "write of " + describe(b, off) + " races with its read by " +
                        (c.reader >= 0 ? "thread " + std::to_string(c.reader)
                                       : std::string("other threads")) +
                        " (no T.sync_threads() between them): written by thread " +
                        std::to_string(m_cur) + lineOf(f.at) + ", read" + lineOf(c.readAt);
            report(std::move(f), "a barrier must separate the last read of a shared element "
                                 "from its overwrite");
        }
        if (c.writeEpoch == m_epoch && c.writer >= 0 && c.writer != m_cur &&
            !sameValue(b.data[s], v)) {
            CheckFinding f = finding("race", b, off, at, c.writeAt, c.writer);
            f.message = "write of " + describe(b, off) +
                        " races with a different value written by thread " +
                        std::to_string(c.writer) + " (no T.sync_threads() between them): written by thread " +
                        std::to_string(m_cur) + lineOf(f.at) + " and" + lineOf(c.writeAt);
            report(std::move(f));
        }
        c.writer = m_cur;
        c.writeEpoch = m_epoch;
        c.writeAt = at;
        clobberAliases(b, off, at);
    }
    b.data[s] = v;
    if (b.global && !m_sharedViews.empty()) sharedViewStored(b, off);
    if (!b.written.empty()) b.written[s] = 1;
    if (!b.global && !b.threadStride) sharedViewWritten(b, off);
}

}  // namespace ts::interp::detail

namespace ts::interp {

InterpResult runLowered(const ir::PrimFunc& f, std::vector<HostTensor>& args,
                        const InterpOptions& opts) {
    try {
        detail::ThreadMachine m(opts);
        return m.run(f, args);
    } catch (...) {
        InterpResult r;
        r.error = Diagnostic{Severity::Error, {}, "internal interpreter error", {}, "interp"};
        return r;
    }
}

}  // namespace ts::interp
