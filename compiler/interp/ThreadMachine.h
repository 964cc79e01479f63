// Internal state of the thread-level interpreter (see ThreadInterpreter.h). ThreadMachine
// derives from the tile-level Machine so that expressions are evaluated by the same code
// (Eval.cpp): a thread's indices and its per-thread loop variables are written into Machine's
// bindings before each of its evaluations, and the two virtual hooks route element loads
// through the thread memory model (per-thread locals, poison, cp.async and race tracking) and
// the tl.* intrinsics that appear inside expressions (warp_allreduce) to this class. Split by
// topic: ThreadExec.cpp (SIMT statements, memory, barriers) and ThreadIntrinsics.cpp (cp.async,
// warp collectives, gemm_ss, vector stores, atomics).
#pragma once
#include <deque>
#include <tuple>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "compiler/interp/Machine.h"
#include "compiler/interp/ThreadInterpreter.h"

namespace ts::interp::detail {

/// Active threads of one statement: linear thread ids (x fastest), ascending.
using ThreadList = std::vector<int32_t>;

/// Race bookkeeping of one shared-memory element. Epochs count barriers over the whole run, so
/// nothing needs resetting between blocks.
struct SharedCell {
    int32_t writer = -1;  ///< thread of the last write (-1: none)
    int32_t reader = -1;  ///< thread of the reads in readEpoch (-1 none, -2 several)
    uint32_t writeEpoch = 0, readEpoch = 0;
    /// Source of the last write, the last read and the last cp.async issued to the element, so
    /// a race or stale read names both lines.
    Span writeAt, readAt, asyncAt;
    /// wgmma groups issued with a wait_group that left them in flight and still reading the
    /// element (tl.wgmma_ss with wait > 0), and the last such issue: a write before a
    /// wgmma.wait_group retires them races with the tensor cores' read.
    uint32_t wgmmaReads = 0;
    Span wgmmaAt;
    /// TMA stores (tl.tma_store) and reduce-adds (tl.tma_reduce_add) whose bulk async-group
    /// still reads the element: no tl.tma_store_wait has retired their reads yet; the last such
    /// issue, and whether it was a reduce-add (the race report names the op).
    uint32_t bulkReads = 0;
    Span bulkAt;
    bool bulkReduce = false;
};

/// A named barrier (bar.sync id, count) of the running block.
struct NamedBarrier {
    int64_t expected = 0, arrived = 0, phase = 0;
    Span at;
};

/// One in-flight cp.async of one thread: `n` elements of `dst` from `off`, values read at issue.
struct AsyncCopy {
    BufferState* dst = nullptr;
    int64_t off = 0;
    int n = 0;
    double vals[16];
    Span span;
};

/// One mbarrier (PTX ISA §9.7.13.15) of the sm_90a schedule: `phases` completed so far, the
/// arrivals and transaction bytes the current phase still waits for, the TMA writes of the
/// current phase, and those of completed phases that no wait has observed yet. Elements stay
/// `pending` until a wait observes their phase, so a read without the wait is reported.
struct MbarrierState {
    int64_t count = 1, arrivalsLeft = 1, txPending = 0, phases = 0;
    /// Threads one arrival stands for: 32 once a per-warp tl.mbarrier_arrive used it, else 1.
    int64_t threadsPerArrival = 1;
    /// Bytes expect_tx announced and TMA delivered in the current phase (txPending is their
    /// difference; kept apart so the debugger shows both) and the statements that last used it.
    int64_t txExpected = 0, txDelivered = 0;
    Span initAt, arriveAt, waitAt, loadAt;
    struct Write {
        BufferState* buf;
        int64_t off;
        double v;
    };
    std::vector<Write> writes, landed;
};

/// A (buffer, element) resolved from tl.address_of.
struct Address {
    BufferState* buf = nullptr;
    int64_t off = 0;  ///< flat element offset (per-thread offset for local buffers)
};

class ThreadMachine : public Machine {
public:
    explicit ThreadMachine(const InterpOptions& opts) : Machine(opts) {}
    /// The body of Machine::run at thread level: kernels run every thread in lockstep.
    void runBody(const ir::PrimFunc& f) override;

    double loadValue(const ir::LoadNode* n) override;
    double callF(const ir::CallNode* n) override;
    /// atomic_prev on the current thread: applied at once (threads are evaluated one after
    /// another, so atomics serialise), after the same checks as tl.atomic.
    double atomicPrev(const ir::CallNode* n) override;
    int32_t rngThread() const override { return m_cur; }

    // --- statements and memory (ThreadExec.cpp) ---------------------------------------------
    void execTop(const ir::StmtNode* s);
    void execKernelT(const ir::KernelNode* k);
    bool execBlock(const ir::KernelNode* k, size_t mark, int64_t lin, const std::vector<int64_t>& grid) override;
    std::unique_ptr<Machine> cloneForBlock() const override;
    void execT(const ir::StmtNode* s, const ThreadList& act);
    void execForT(const ir::ForNode* n, const ThreadList& act);
    void execAllocT(const ir::AllocNode* a, const ThreadList& act);
    void execStoreT(const ir::StoreNode* s, const ThreadList& act);
    /// Tile-level IR only (m_tileLevel): runs the tile ops that have a per-thread meaning (a
    /// scalar atomic, T.fill/T.clear) for `act`; false for the others (ThreadTileLevel.cpp).
    bool tileOpPerThread(const ir::TileOpNode* n, const ThreadList& act);
    /// Tile-level IR: a tile op reached by the block or a warp role (whole warps, contiguous) runs
    /// once for them; false otherwise (ThreadTileLevel.cpp).
    bool tileOpCollective(const ir::TileOpNode* n, const ThreadList& act);
    /// T.copy of tile-level IR with a per-thread (local) side (ThreadTileLevel.cpp).
    bool copyPerThread(const ir::TileOpNode* n, const ThreadList& act);
    void barrier(const ir::StmtNode* at, const ThreadList& act, const char* what);
    /// T.sync_threads(id[, count]) / T.named_barrier_arrive(id, count): bar.sync / bar.arrive.
    void namedBarrier(const ir::CallNode* c, const ThreadList& act, bool wait);
    /// Tells the observer about `f`, then fails with its message at f.at.
    [[noreturn]] void report(CheckFinding f, const std::string& hint = {});
    /// Finding of kind `kind` about element `off` of `b` as the current thread.
    CheckFinding finding(const char* kind, const BufferState& b, int64_t off, const Span& at,
                         const Span& other, int32_t otherThread) const;
    /// Makes `t` the current thread: its indices and per-thread variables into the bindings.
    void setThread(int32_t t) {
        m_cur = t;
        for (size_t d = 0; d < m_threadPos.size(); ++d) {
            auto& b = m_bindings[m_threadPos[d]];
            b.i = m_threadIdx[d][t];
            b.f = double(b.i);
        }
        for (auto& v : m_perThread) {
            auto& b = m_bindings[v.pos];
            b.i = v.vals[t];
            b.f = double(b.i);
        }
    }
    /// An out-of-bounds store error for a T.Parallel store whose bounds guard `n` (with an
    /// ir::StoreCheck) is false for the threads `skipped` (non-empty).
    void reportSkippedStore(const ir::IfNode& n, const ThreadList& skipped);
    /// Flat element offset of buf[indices] (one index on a rank > 1 buffer = flat offset).
    int64_t offsetOf(BufferState& b, const std::vector<ir::Expr>& idx, const Span& at,
                     const char* what);
    /// Error unless [off, off + n) lies inside `b` (per-thread extent for locals).
    void requireRange(const BufferState& b, int64_t off, int64_t n, const Span& at,
                      const char* what);
    /// Storage index of element `off` of `b` for the current thread.
    int64_t slot(const BufferState& b, int64_t off) const {
        return b.threadStride ? int64_t(m_cur) * b.threadStride + off : off;
    }
    /// Reads element `off` of `b` as the current thread, with every check of the memory model.
    double readElem(BufferState& b, int64_t off, const Span& at);
    /// Writes (already rounded) `v` to element `off` of `b` as the current thread.
    void writeElem(BufferState& b, int64_t off, double v, const Span& at);
    std::string describe(const BufferState& b, int64_t off) const;
    /// plan-smem may give buffers with disjoint live ranges the same bytes ("smem_shares.<b>"):
    /// a write to element `off` of shared `b` overwrites the elements of those buffers on the
    /// same bytes. It reports a read of them by another thread since the last barrier as a race
    /// and poisons them, so a wrong live range or missing barrier shows up (ThreadAliases.cpp).
    void clobberAliases(BufferState& b, int64_t off, const Span& at);
    /// After a write to element `off` of shared `b`: the elements of the views of its bytes (a
    /// T.view / T.reshape and the tile it views, SharedViews.h) re-derived from its bits.
    void sharedViewWritten(BufferState& b, int64_t off);
    /// A freshly allocated shared view `st`: its elements from the viewed tile's bytes.
    void initSharedView(BufferState& st);
    /// The tile whose bytes shared `b` lies on (SharedViews.h sharedStorageRoot), cached per buffer.
    const std::string& storageRootOf(const BufferState& b);
    const ir::PrimFuncNode* m_rootsFor = nullptr;  ///< the function m_roots and m_anyViews are of
    std::unordered_map<const ir::BufferNode*, std::string> m_roots;
    bool m_anyViews = false;  ///< the function has shared views at all
    /// A wgmma group issued at `at` reads the shared element of `cell` (ThreadHopper.cpp).
    void noteWgmmaRead(SharedCell& cell, const Span& at);

    // --- intrinsics (ThreadIntrinsics.cpp) --------------------------------------------------
    void execEvalT(const ir::EvalNode* e, const ThreadList& act);
    Address evalAddress(const ir::ExprNode* e);
    /// Computes every tl.warp_allreduce inside `e` for the active threads (innermost first),
    /// so that callF can return the current thread's value.
    void prepareCollectives(const ir::ExprNode* e, const ThreadList& act);
    /// Splits `act` by `cond` evaluated per thread (collectives in it prepared first).
    void splitByCond(const ir::ExprNode* cond, const ThreadList& act, ThreadList& yes, ThreadList& no);
    void warpAllreduce(const ir::CallNode* c, const ThreadList& act);
    void cpAsync(const ir::CallNode* c, const ThreadList& act);
    void cpAsyncWait(const ir::CallNode* c, const ThreadList& act);
    void completeGroup(int32_t t, std::vector<AsyncCopy>& g);
    void gemmSS(const ir::CallNode* c, const ThreadList& act);
    /// Reads a rows x cols logical gemm operand from shared X: element (r, q) at X.off + phys(r, q),
    /// checking pending async writes and races since the last barrier; values as the atom sees them.
    void readGemmOperand(const Address& X, int64_t rows, int64_t cols,
                         const std::function<int64_t(int64_t, int64_t)>& phys, std::vector<double>& out,
                         const Span& at, const char* what);
    // --- sm_90a intrinsics (ThreadHopper.cpp) ------------------------------------------------
    void wgmmaSS(const ir::CallNode* c, const ThreadList& act);
    /// wgmma.wait_group `pending` for the warpgroups issued from thread `base`: retires all but
    /// the `pending` most recent in-flight groups (their SharedCell::wgmmaReads).
    void wgmmaRetire(int32_t base, int64_t pending);
    /// A write (`what`: "write", "cp.async", "TMA load") of `b[off]` at `at` while an in-flight
    /// wgmma group may still read it: reported as a race.
    void checkWgmmaRead(BufferState& b, int64_t off, const Span& at, const char* what);
    void wgmmaRS(const ir::CallNode* c, const ThreadList& act);
    void tmaLoad(const ir::CallNode* c, const ThreadList& act);
    /// tl.tma_store: reads the tile at issue (every check of a shared read by the async proxy),
    /// writes the in-bounds box elements to the tensor, and keeps the tile's elements "read by a
    /// bulk async-group" until tl.tma_store_wait retires the group's reads.
    /// tl.tma_store; reduceAdd: tl.tma_reduce_add (the box is added to the tensor).
    void tmaStore(const ir::CallNode* c, const ThreadList& act, bool reduceAdd = false);
    void tmaStoreWait(const ir::CallNode* c, const ThreadList& act);
    /// A write (`what`) of `b[off]` at `at` while a TMA store's group may still read it: a race.
    void checkBulkRead(BufferState& b, int64_t off, const Span& at, const char* what);
    void mbarrierOp(const ir::CallNode* c, const ThreadList& act);
    /// Threads that issue wgmma (all but a warp-specialized kernel's producer warpgroup).
    int32_t consumerThreads() const;
    /// First thread and thread count that issue the wgmma call `c` of `nargs` usual arguments
    /// (a warp role's call carries both after them); fails unless `act` is exactly those.
    std::pair<int32_t, int32_t> gemmThreads(const ir::CallNode* c, size_t nargs, const ThreadList& act, const char* name);
    /// Completes the current phase of `b` when no arrival and no transaction byte is left.
    void mbarrierMaybeComplete(MbarrierState& b);
    MbarrierState& mbarrierAt(const Address& a, const Span& at);
    /// Every mbarrier of the running block, ordered by buffer name and element.
    std::vector<MbarrierInfo> mbarrierInfos() const;
    MbarrierInfo mbarrierInfo(const BufferState& buf, int64_t off, const MbarrierState& b) const;
    void vectorStore(const ir::CallNode* c, const ThreadList& act);
    void atomic(const ir::CallNode* c, const ThreadList& act);
    /// (row, col) of accumulator register r of thread t for gemm_ss(M, N, wm, wn), from
    /// analysis::makeMmaAccumulator's inverse, or makeMfma16Layout('C')'s for 64-lane
    /// wavefronts (the HIP gemm; cached per shape).
    const std::vector<std::pair<int32_t, int32_t>>& accumulatorMap(int64_t M, int64_t N, int64_t wm,
                                                                   int64_t wn);
    /// (row, col) of register r of thread t of a 2-D fragment layout (cached by `key`).
    const std::vector<std::pair<int32_t, int32_t>>& fragmentMap(std::vector<int64_t> key,
                                                                const std::function<ir::Layout()>& make);

    // --- warp roles that wait on each other (ThreadRoles.cpp) -------------------------------
    /// Runs `a` for threads `ta` and `b` for threads `tb` (the two sides of a thread-dependent
    /// if/else: a producer and a consumer role) as two coroutines: a role whose mbarrier wait
    /// cannot complete yet hands over to the other, which may arrive on it. Lockstep inside each
    /// role. Without a wait that blocks it is `a` then `b`, as before.
    /// More than two roles: an if/elif chain (`if tx < 128: ... elif tx < 256: ... else: ...`,
    /// DeepSeek MLA decode ws and V3.2 sparse MLA pipelined: two consumers and a producer) runs
    /// each arm as a coroutine of its own, handing over round-robin (collectRoles).
    using RoleList = std::vector<std::pair<const ir::StmtNode*, ThreadList>>;
    void runRoles(const RoleList& roles);
    /// The roles of the else-side `s` run by `act`: an if (alone in `s`) whose condition splits
    /// `act` gives its then-side as a role and recurses into its else-side (the threads of an
    /// if without else that fail the condition run nothing); anything else is one role.
    void collectRoles(const ir::StmtNode* s, const ThreadList& act, RoleList& out);
    /// Called by a wait whose condition `ready` is false: while the other role can still make
    /// progress, hands over to it and re-checks. False when it cannot (no other role, the other
    /// finished, or neither made progress since each blocked: a real deadlock, for the caller to
    /// report).
    bool waitOnOtherRole(const std::function<bool()>& ready);
    /// Something another role may be waiting for happened (an arrival, transaction bytes).
    void roleProgress() { ++m_roleProgress; }
    struct RoleRun;
    RoleRun* m_roles = nullptr;      ///< the running roles (runRoles), else null
    uint64_t m_roleProgress = 0;

    // --- state ------------------------------------------------------------------------------
    struct PerThreadVar {
        size_t pos;
        std::vector<int64_t> vals;
    };
    const ir::PrimFuncNode* m_func = nullptr;  ///< function being run (layouts size shared buffers)
    /// The swizzle panel bytes of a wgmma operand tile's wgmma_smem layout (128 without one).
    int operandPanelBytes(const BufferState& b) const;
    int32_t m_threads = 0;                     ///< threads per block
    int32_t m_warpSize = 32;                   ///< lanes per warp/wavefront (attr warp_size)
    int32_t m_cur = 0;                         ///< current thread
    std::vector<size_t> m_threadPos;           ///< binding slots of tx, ty, tz
    std::vector<std::vector<int64_t>> m_threadIdx;  ///< [dim][thread] index values
    std::vector<PerThreadVar> m_perThread;          ///< variables of divergent loops
    ThreadList m_all;                               ///< 0..threads-1
    std::vector<const ir::StmtNode*> m_stack;       ///< enclosing statements (observer depth)
    std::map<int64_t, NamedBarrier> m_named;        ///< named barriers of the running block
    bool m_strict = false;                          ///< observer->strictInit()
    /// Whether touching a never-written element of `b` stops the run: integer memory always,
    /// float memory under strictInit (the debugger). Otherwise a float shared element (NaN
    /// poisoned) read before any write is a warning, once per buffer (uninitialisedRead).
    bool uninitFatal(const BufferState& b) const { return m_strict || !isFloatType(b.dtype); }
    void uninitialisedRead(const BufferState& b, int64_t off, const Span& at, const std::string& by);
    std::set<const ir::BufferNode*> m_uninitWarned;  ///< buffers uninitialisedRead reported
    /// Running the tile-level IR of a kernel that reads a thread index (interp::run): tile ops
    /// cannot run thread by thread, so they are reported in the user's terms.
    bool m_tileLevel = false;
    /// Tile-level IR whose kernel leaves barriers to the compiler (TileLang's default; not with
    /// TL_DISABLE_THREAD_STORAGE_SYNC, function attr "user_barriers_only"): TileLang's thread
    /// storage sync -- TileScope's insert-sync pass -- puts a barrier (a warp role's named
    /// barrier inside a role) wherever one thread's shared access meets another's in a later
    /// statement, and every thread runs a T.Parallel loop whole here (storing the same values).
    /// So each statement boundary and loop iteration end orders shared accesses like a barrier;
    /// races within one statement (threads storing different values) are still reported, and
    /// the lowered interpreter checks the barriers the compiler actually placed.
    bool m_autoSync = false;
    /// The step debugger (compiler/debugger/), set by it before run(); null for runLowered.
    ThreadObserver* m_observer = nullptr;
    uint32_t m_epoch = 1;                           ///< barriers so far (+1)
    std::unordered_map<const BufferState*, std::vector<SharedCell>> m_cells;
    std::vector<std::vector<AsyncCopy>> m_openGroup;              ///< per thread, uncommitted
    std::vector<std::deque<std::vector<AsyncCopy>>> m_committed;  ///< per thread, oldest first
    std::unordered_map<const ir::CallNode*, std::vector<double>> m_collective;
    std::unordered_map<const ir::ExprNode*, std::vector<const ir::CallNode*>> m_collectiveSites;
    std::map<std::vector<int64_t>, std::vector<std::pair<int32_t, int32_t>>> m_accMaps;
    struct PendingStore {
        BufferState* buf;
        int64_t off;
        double v;
        int32_t thread;
    };
    std::map<std::pair<const BufferState*, int64_t>, MbarrierState> m_mbarriers;
    std::vector<PendingStore> m_stores;    ///< writes of the current statement, committed together
    /// In-flight wgmma groups of the running block, oldest first: the issuing block-level call's
    /// first thread and the shared elements (buffer, first offset, count) its operands span.
    struct WgmmaGroup {
        int32_t base;
        std::vector<std::tuple<BufferState*, int64_t, int64_t>> reads;
    };
    std::deque<WgmmaGroup> m_wgmmaGroups;
    /// Bulk async-groups of the running block's TMA stores, oldest first: the shared elements
    /// each still reads (empty once a .read wait retired them) and where it was issued. A group
    /// leaves the list at a full tl.tma_store_wait; one left at the end of the block is an error
    /// (its global writes were never waited for).
    struct BulkGroup {
        std::vector<std::pair<BufferState*, int64_t>> reads;
        Span at;
        bool reduceAdd = false;  ///< tl.tma_reduce_add (else tl.tma_store)
    };
    std::deque<BulkGroup> m_bulkGroups;
    std::vector<double> m_tileA, m_tileB;  ///< gemm_ss operands, logical row-major
    std::vector<double> m_tileBt;          ///< B transposed (N x K)
};

}  // namespace ts::interp::detail
