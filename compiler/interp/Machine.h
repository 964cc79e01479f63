// Internal state of the tile-level interpreter (not part of the public API; see Interpreter.h).
// A Machine owns the storage of every buffer live in the current block, the stack of variable
// bindings (block indices, loop variables, symbolic extents) and the scratch space the tile ops
// reuse, so that the per-element paths never allocate. Errors are thrown as InterpError and
// turned into a Diagnostic by run(); nothing else escapes. The implementation is split by topic:
// Eval.cpp (expressions, element loads), Exec.cpp (statements, grid, arguments) and
// TileOps.cpp (copy, gemm, fill, reduce, cumsum, atomic).
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/Random.h"
#include "compiler/ir/Stmt.h"

namespace ts::interp::detail {

/// Limit on nested expression/statement depth, so a pathological IR cannot overflow the stack.
inline constexpr int kMaxDepth = 1000;
/// Largest buffer the interpreter allocates (elements).
inline constexpr int64_t kMaxElements = kMaxBufferElements;

/// ir::isFloat, inline: it is asked once per evaluated node.
inline bool isFloatType(ir::DType t) {
    using ir::DType;
    return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 ||
           t == DType::Float64 || t == DType::Float8E4M3 || t == DType::Float8E5M2 ||
           t == DType::Float4E2M1;
}

/// Thrown inside the interpreter; caught only by run().
struct InterpError {
    Span span;
    std::string message;
    std::string hint;
};

/// Storage and geometry of one buffer. Global buffers point into the caller's HostTensor data;
/// the others own `own`, which is kept across blocks so that re-allocation is a memset.
struct BufferState {
    const ir::BufferNode* node = nullptr;
    ir::DType dtype = ir::DType::Float32;
    double* data = nullptr;
    int64_t size = 0;              ///< addressable elements of `data`
    std::vector<int64_t> shape;    ///< evaluated extents
    std::vector<int64_t> strides;  ///< element strides (row-major unless the buffer has strides)
    bool live = false;             ///< allocated in the current block (always true for globals)
    bool global = false;
    /// A T.make_tensor tensor (global memory, bound to a pointee of m_memory when
    /// its AllocNode runs, re-bound in every block).
    bool pointer = false;
    /// A view of a kernel tensor with another dtype (Exec.cpp lookup): `own` holds its elements,
    /// per machine (copySetupTo does not share it).
    bool viewOwnsData = false;
    std::vector<double> own;
    // Thread-level interpreter only (ThreadMachine.h); unused by the tile level.
    int64_t threadStride = 0;       ///< local buffers: elements per thread in `own` (0 = shared)
    std::vector<uint8_t> written;   ///< integer local/shared buffers: element ever written
    std::vector<uint32_t> pending;  ///< shared buffers: in-flight cp.async writes per element
};

/// A variable's current value. Integer variables keep `i` (and `f` = double(i)).
struct Binding {
    const ir::VarNode* var;
    int64_t i;
    double f;
};

/// A region with its bounds evaluated: element (start[d] + m[d]) for m[d] in [0, ext[d]).
struct RegionView {
    BufferState* buf = nullptr;
    std::vector<int64_t> start, ext;
    Span span;
};

/// The interpreter proper. Everything is public: this is an implementation header, included
/// only by the three .cpp files of compiler/interp/.
/// op(old, v) for T.atomic_* ("add" | "max" | "min"; max/min ignore a NaN operand, as fmax).
double atomicCombine(const std::string& op, double old, double v);

class Machine {
public:
    explicit Machine(const InterpOptions& opts) : m_opts(opts) {}
    /// The thread-level interpreter (ThreadMachine) derives from Machine to reuse expression
    /// evaluation; loadValue and callF are its two hooks (memory model and tl.* intrinsics).
    virtual ~Machine() = default;
    /// Whole run: binds arguments, executes the body (runBody), converts errors (Exec.cpp).
    InterpResult run(const ir::PrimFunc& f, std::vector<HostTensor>& args);
    /// Executes the function body after binding; ThreadMachine runs kernels thread by thread.
    virtual void runBody(const ir::PrimFunc& f);

    // --- expressions (Eval.cpp) -------------------------------------------------------------
    /// Value of `e` as a double (integer expressions converted, exact up to 2^53).
    double evalF(const ir::ExprNode* e);
    /// Value of `e` as an int64 (float expressions truncated toward zero; NaN/inf are errors).
    int64_t evalI(const ir::ExprNode* e);
    /// Truth value of `e` (nonzero).
    bool evalCond(const ir::ExprNode* e);
    /// Value of `e` as a double in its own domain (integers go through evalI).
    double evalValue(const ir::ExprNode* e) {
        return e && !isFloatType(e->dtype) ? static_cast<double>(evalI(e)) : evalF(e);
    }
    /// Element offset of buffer[indices], bounds-checked; `what` is "load" or "store".
    int64_t elementOffset(const BufferState& b, const std::vector<ir::Expr>& idx, const Span& at,
                          const char* what);
    virtual double loadValue(const ir::LoadNode* n);
    virtual double callF(const ir::CallNode* n);
    /// atomic_prev(op, place, value) (ir/Intrinsics.h): applies op to the element `place`
    /// loads and returns its previous value. Tile level: the element of the logical buffer.
    virtual double atomicPrev(const ir::CallNode* n);
    /// tl.tma_load on tile-level IR (after inject-pipeline's sm_90a schedules, before lowering):
    /// the box lands at issue into the logical [.., rows, cols] tile; mbarriers are no-ops there.
    double tileTmaLoad(const ir::CallNode* n);
    /// tl.tma_store on tile-level IR: the logical [.., rows, cols] tile is written to the tensor
    /// at issue, box elements outside the tensor skipped; tl.tma_store_wait is a no-op there.
    double tileTmaStore(const ir::CallNode* n);
    /// The box walk both share: `store` copies the tile into the tensor (elements outside it
    /// skipped), else the tensor into the tile (elements outside it read 0).
    double tileTmaBox(const ir::CallNode* n, bool store);
    /// The operator ("add" | "max" | "min") and the place of an atomic_prev call; malformed IR
    /// is an error.
    std::pair<std::string, const ir::LoadNode*> atomicPrevParts(const ir::CallNode* n) const;
    /// rng_init / rng_rand / rng_rand_float (Random.cpp) on rngThread()'s Philox state.
    double rngCall(const ir::CallNode* n);
    /// Thread whose generator T.rng_* uses: 0 here (one executor per block runs only kernels
    /// without a thread index, i.e. without rng_init's default subsequence), the current
    /// thread on the thread-level machine.
    virtual int32_t rngThread() const { return 0; }
    int64_t binaryI(const ir::BinaryNode* n);
    /// binaryI's integer operators on evaluated operands, before the result type's wrap.
    int64_t intBinary(const ir::BinaryNode* n, int64_t a, int64_t b);
    double binaryF(const ir::BinaryNode* n);
    const Binding& lookupVar(const ir::VarNode* v) const;

    // --- statements (Exec.cpp) --------------------------------------------------------------
    void exec(const ir::StmtNode* s);
    void bindArguments(const ir::PrimFunc& f, std::vector<HostTensor>& args);
    void execKernel(const ir::KernelNode* k);
    /// Runs block `lin` (linear, x fastest) of kernel `k` whose block variables are bound at
    /// m_bindings[mark..]: sets the block index, resets the block's storage, executes the body.
    /// False when the block is skipped (the debugger's focus on another block).
    virtual bool execBlock(const ir::KernelNode* k, size_t mark, int64_t lin, const std::vector<int64_t>& grid);

    // --- the grid barrier (GridRun.cpp) -----------------------------------------------------
    /// True when `k` has a T.sync_grid and more than one block: its blocks then run as
    /// coroutines in phases (runGrid) instead of one after another.
    static bool needsGridRun(const ir::KernelNode* k, int64_t blocks);
    /// Runs every block of `k` (bindings at `mark`) on a machine of its own (cloneForBlock), each
    /// on its own std::thread with exactly one running at a time (a baton): every block runs
    /// until its next T.sync_grid or its end, block after block, then the next phase. A block
    /// that ends while others wait at a grid barrier is a deadlock error at that barrier; an
    /// error in one block ends the others. Logs and the block count are merged back here.
    void runGrid(const ir::KernelNode* k, size_t mark, const std::vector<int64_t>& grid, int64_t total);
    /// T.sync_grid reached by this block: waits until every block of the grid reached it (a
    /// no-op outside runGrid: a one-block grid).
    void gridBarrier(const Span& at);
    /// A machine with this one's set-up (options, bindings, kernel arguments, function) and
    /// none of the running block's state, to run one block of a cooperative grid.
    virtual std::unique_ptr<Machine> cloneForBlock() const;
    /// Copies the set-up state that cloneForBlock shares into `m` (global buffers point at the
    /// same host tensors; other buffers start unallocated).
    void copySetupTo(Machine& m) const;
    struct GridRun;
    GridRun* m_grid = nullptr;  ///< the cooperative grid this machine runs a block of, else null
    int m_gridSlot = -1;        ///< its block (linear) in m_grid
    /// Evaluated grid extents of `k` (errors: nested kernel, negative extent, more block
    /// indices than grid dims) and their product in `total` (saturated at 2^62).
    std::vector<int64_t> kernelGrid(const ir::KernelNode* k, int64_t& total);
    void execAlloc(const ir::AllocNode* a);
    /// A T.view / T.reshape of the shared tile `baseName` (ir/Views.h): the tile's storage for the
    /// same dtype, else storage of its own kept byte-equal to the tile's (m_sharedViews).
    void allocSharedView(const ir::AllocNode* a, const std::string& baseName);
    /// T.make_tensor(P[g], ...) (interp/Pointers.h): binds `st` to the memory `ptr` points to,
    /// checking that the tensor `a` declares lies inside it; errors at `a`.
    void bindPointerTensor(const ir::AllocNode* a, BufferState& st, double ptr);
    void execStore(const ir::StoreNode* s);
    void execEval(const ir::EvalNode* e);

    // --- shared views of another dtype (SharedViews.h; Exec.cpp) -------------------------------
    /// A T.view of a shared tile with a dtype of its own, in the running block: the two names
    /// have storage of their own here, kept equal byte for byte after every statement (a view of
    /// the same dtype shares the tile's storage instead). The snapshots are each name's values
    /// after the last sync, to find what a tile op or an evaluation wrote.
    struct SharedViewPair {
        BufferState* view;
        BufferState* base;
        std::vector<double> viewSnap, baseSnap;
    };
    std::vector<SharedViewPair> m_sharedViews;
    /// Kernel-tensor views of another dtype that earlier blocks on this machine made: the view's
    /// elements and its tensor's at the block's end. A later block's first access re-derives
    /// only the elements the tensor changed since (deriving the whole view per block made a
    /// 1024 x 1024 view 50x slower than the same kernel without it; helper-109). SharedViews.cpp.
    std::map<const ir::BufferNode*, std::pair<std::vector<double>, std::vector<double>>> m_viewCache;
    /// At a block's start: the kernel-tensor views' pairs go to m_viewCache, the rest are dropped.
    void retireSharedViews();
    /// After a tile op or an evaluation: the elements either name changed, re-derived in the other
    /// (only the pairs overlapping `written` when given). SharedViews.cpp.
    void syncSharedViews(const std::vector<const BufferState*>* written = nullptr);
    /// syncSharedViews for the pairs statement `s` may write (every pair when that is not known).
    void syncSharedViewsAfter(const ir::StmtNode* s);
    /// After a store of element `off` of `b`: the other name's overlapping elements.
    void sharedViewStored(BufferState& b, int64_t off);

    // --- tile ops (TileOps.cpp) -------------------------------------------------------------
    void execTileOp(const ir::TileOpNode* n);
    RegionView evalRegion(const ir::TileOpNode* n, size_t argIndex);
    /// Error unless every element of `r` lies inside its buffer.
    void requireInBounds(const RegionView& r, const char* op) const;
    void tileCopy(const ir::TileOpNode* n);
    void tileGemm(const ir::TileOpNode* n);
    void tileFill(const ir::TileOpNode* n);
    void tileReduce(const ir::TileOpNode* n);
    void tileCumsum(const ir::TileOpNode* n);
    void tileAtomic(const ir::TileOpNode* n);

    // --- shared helpers (Exec.cpp) ----------------------------------------------------------
    /// Throws InterpError at `at` (or at the current statement when `at` has no location).
    [[noreturn]] void fail(const Span& at, std::string msg, std::string hint = {}) const;
    [[noreturn, gnu::noinline, gnu::cold]] void failTooDeep(const Span& at) const;
    /// State of `b`, which must be live in the current block; else an error at `at`.
    BufferState& lookup(const ir::BufferNode* b, const Span& at);
    /// State slot of `b`, created on first use (not yet live).
    BufferState& stateFor(const ir::BufferNode* b);
    /// Pushes a binding; returns its position (bindings are a stack, innermost last).
    size_t bind(const ir::VarNode* v, int64_t value);
    void unbind(size_t mark) { m_bindings.resize(mark); }
    /// Throws the cancellation error if the cancel flag is set.
    void checkCancel(const Span& at) const;
    /// Between blocks: the cancel flag, and the time limit ("after B of T blocks" at `kernel`).
    void checkBlockLimits(const Span& kernel, int64_t blocksDone, int64_t blocks);
    /// Every 1024 loop iterations (loop bodies call it through LoopScope::tick): the cancel
    /// flag, the time limit (an error at the running loop with the most iterations) and the
    /// onLoop progress callback.
    void pollLoops(const Span& at);
    /// A loop running now (innermost last), for pollLoops: its span, extent and the address of
    /// its iteration counter.
    struct ActiveLoop {
        Span span;
        int64_t extent;
        const int64_t* iteration;
    };
    /// Pushes a running loop for its lifetime (popped when the loop ends or unwinds).
    struct LoopScope {
        Machine& m;
        LoopScope(Machine& mm, const Span& span, int64_t extent, const int64_t* it) : m(mm) {
            m.m_loops.push_back({span, extent, it});
        }
        ~LoopScope() { m.m_loops.pop_back(); }
        /// Once per iteration.
        void tick(const Span& at) {
            if ((++m.m_loopTicks & 0x3FF) == 0) [[unlikely]]
                m.pollLoops(at);
        }
    };
    /// Appends a T.print line (capped at 10000).
    void log(std::string line);

    /// Counts nesting depth (kMaxDepth) for the lifetime of one eval/exec frame.
    struct DepthGuard;

    InterpOptions m_opts;
    /// Device memory pointer tables point into (interp/Pointers.h runWithMemory); may be null.
    std::vector<HostTensor>* m_memory = nullptr;
    std::vector<std::unique_ptr<BufferState>> m_buffers;  ///< unique_ptr: stable addresses
    std::vector<Binding> m_bindings;
    std::vector<double> m_scratchA, m_scratchB, m_scratchC;  ///< reused by the tile ops
    std::vector<std::string> m_log;
    std::vector<Diagnostic> m_warnings;  ///< InterpResult::warnings (warnOnce)
    std::vector<std::string> m_warnKeys; ///< the key of each warning
    /// Adds a warning unless one with the same `key` was already given in this run.
    void warnOnce(const std::string& key, Diagnostic d);
    std::vector<int64_t> m_blockIdx;  ///< index of the running block, per grid dimension
    const ir::PrimFuncNode* m_tileFunc = nullptr;  ///< function being run (its TMA tensor maps)
    int m_depth = 0;
    uint32_t m_loopTicks = 0;  ///< loop iterations, to poll the cancel flag now and then
    std::vector<ActiveLoop> m_loops;  ///< the running loops, innermost last (LoopScope)
    int64_t m_block = 0, m_blocks = 0;  ///< running block (linear) and grid size (checkBlockLimits)
    /// When the run started (the time limit counts from here).
    std::chrono::steady_clock::time_point m_started = std::chrono::steady_clock::now();
    bool m_inKernel = false;
    /// Threads per block of the running kernel, and how many T.Parallel loops enclose the
    /// current statement: a scalar atomic outside every T.Parallel is issued by each thread of
    /// the block (TileLang: T.atomic_add(x[i], v) is a per-thread AtomicAdd call).
    int64_t m_blockThreads = 1;
    int m_parallelDepth = 0;
    Span m_stmtSpan;  ///< statement being executed (fallback error location)
    int64_t m_blocksRun = 0;
    /// Per-thread T.rng_* generators of the running block (reset when m_blocksRun moves on).
    struct RngSlot {
        rng::PhiloxState state{};
        bool initialized = false;
    };
    std::vector<RngSlot> m_rng;
    int64_t m_rngBlock = -1;
};

struct Machine::DepthGuard {
    Machine& m;
    DepthGuard(Machine& mm, const Span& at) : m(mm) {
        if (++m.m_depth > kMaxDepth) [[unlikely]] {
            --m.m_depth;  // a guard whose constructor throws is never destroyed
            m.failTooDeep(at);
        }
    }
    ~DepthGuard() { --m.m_depth; }
};

/// roundTo(t, v) with fast paths: float64 is the identity, float32 (and float16 where the
/// compiler has _Float16) use the hardware conversion, which is the same IEEE round-to-nearest-
/// even (checked against roundTo by InterpOpsTest.FastRoundingMatchesRoundTo).
inline double roundValue(ir::DType t, double v) {
    if (t == ir::DType::Float64) return v;
    if (t == ir::DType::Float32) return static_cast<double>(static_cast<float>(v));
#if defined(__FLT16_MAX__)
    if (t == ir::DType::Float16) return static_cast<double>(static_cast<_Float16>(v));
#endif
    return roundTo(t, v);
}

/// "[3, -1]": an element index as messages print it.
std::string formatIndex(const std::vector<int64_t>& idx);
/// T.print's text after the "block ...:" prefix: " msg[i, j] value" -- the message, the element's
/// index when the call prints one element of a whole buffer (arguments 2..; frontend/
/// ElaborateMath.cpp), and the value (argument 0). Shared by both interpreters.
template <class EvalI, class EvalF>
std::string printText(const ir::CallNode& c, EvalI evalI, EvalF evalF) {
    auto* m = c.args.size() > 1 ? dynamic_cast<const ir::StrImmNode*>(c.args[1].get()) : nullptr;
    std::string msg = m ? m->value : "";
    if (c.args.size() > 2) {
        std::vector<int64_t> at;
        for (size_t k = 2; k < c.args.size(); ++k) at.push_back(evalI(c.args[k].get()));
        msg += formatIndex(at);
    }
    std::string out = msg.empty() ? "" : " " + msg;
    if (const ir::ExprNode* v = c.args.empty() ? nullptr : c.args[0].get())
        out += " " + (isFloatType(v->dtype)               ? std::to_string(evalF(v))
                      : v->dtype == ir::DType::UInt64 ? std::to_string(static_cast<uint64_t>(evalI(v)))  // %llu, as the GPU
                                                      : std::to_string(evalI(v)));
    return out;
}
/// Python floor division / modulo on int64 (b != 0, and not INT64_MIN / -1).
int64_t floorDiv(int64_t a, int64_t b);
int64_t floorMod(int64_t a, int64_t b);

}  // namespace ts::interp::detail
