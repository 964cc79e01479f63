// Thread-level interpreter: executes *lowered* IR (after lower-to-threads / simplify-final) on
// the CPU, thread by thread, with the memory model of the generated CUDA (DESIGN.md §2
// "Interpreter", second half). Every block of the grid runs in turn; inside a block all threads
// execute in lockstep, one statement at a time, under an active mask (an `if` splits the mask, a
// loop whose trip count differs between threads runs each thread its own number of iterations).
// Scalars and local buffers are per thread, shared buffers per block, global buffers are the
// caller's host tensors. It exists to test lowered code without a GPU and to catch what the
// tile-level interpreter cannot: uninitialised registers and shared memory, divergent barriers,
// missing cp.async waits and barriers, out-of-bounds vector copies and wrong fragment layouts.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/interp/Interpreter.h"

namespace ts::interp {

/// A named barrier's state when a run stopped (bar.sync id, count: PTX ISA §9.7.13.1 "bar,
/// barrier"; id 0 with the block's thread count is __syncthreads).
struct BarrierState {
    int64_t id = 0;
    int64_t expected = 0;  ///< arrivals that complete the current phase (threads)
    int64_t arrived = 0;   ///< arrivals so far in this phase
    int64_t phase = 0;     ///< completed phases
    Span at;               ///< the barrier statement threads wait at (invalid: none waits)
    std::vector<int32_t> waiting;  ///< threads blocked on it
};

/// An mbarrier's state (PTX ISA §9.7.13.15; the sm_90a TMA pipeline's full/empty barriers) as
/// the debugger and the deadlock checker show it: its place in shared memory, the phases
/// completed, and what the current (incomplete) phase has and still waits for.
struct MbarrierInfo {
    std::string buffer;        ///< shared buffer holding the barrier
    int64_t index = 0;         ///< its element in that buffer
    int64_t phase = 0;         ///< completed phases; the current phase has parity phase % 2
    int64_t expected = 0;      ///< arrivals per phase (the tl.mbarrier_init count)
    int64_t arrived = 0;       ///< arrivals in the current phase
    int64_t txExpected = 0;    ///< transaction bytes announced by expect_tx in the current phase
    int64_t txDelivered = 0;   ///< bytes TMA loads delivered to the current phase
    int64_t pending = 0;       ///< TMA-written elements no wait has made visible yet
    Span init, arrive, wait;   ///< last init, arrival (or expect_tx) and wait statements
    Span load;                 ///< last TMA load completing on it
};

/// What a checker of the thread-level interpreter found, with both places in the source: the
/// access that stopped the run and the earlier one it conflicts with. The run ends with the
/// same problem as result.error (whose message names both lines too).
struct CheckFinding {
    /// "race", "stale-read" (cp.async not yet complete), "uninitialised", "out-of-bounds",
    /// "deadlock", "divergent-barrier"
    std::string kind;
    std::string message;
    Span at;            ///< the access or barrier that stopped the run
    Span other;         ///< race: the other thread's access; stale-read: the cp.async;
                        ///< uninitialised / out-of-bounds: the buffer's declaration
    std::string buffer; ///< buffer name ("" for a deadlock)
    int64_t index = -1; ///< flat element offset (out-of-bounds: the offending offset)
    int32_t thread = -1, otherThread = -1;  ///< -2: several threads
    std::vector<int64_t> block;             ///< block index
    std::vector<BarrierState> barriers;     ///< deadlock: every barrier with arrivals
    std::vector<MbarrierInfo> mbarriers;    ///< deadlock on an mbarrier wait: that mbarrier
};

/// Observer of a thread-level run: the step debugger (compiler/debugger/Debugger.h, which sets
/// it on the interpreter's machine; runLowered has none). The calls
/// come on the interpreter's thread, before the event takes effect; an observer may block in
/// them (that is how the debugger pauses) and may throw to abandon the run (the exception
/// propagates out of the interpreter unchanged, so the caller that owns the run must catch it).
class ThreadObserver {
public:
    virtual ~ThreadObserver() = default;
    /// Whether block `blockIdx` runs at all (a debugger focused on one block skips the others).
    virtual bool runBlock(const std::vector<int64_t>& blockIdx) { (void)blockIdx; return true; }
    /// Strict memory checks: reading a float shared element no thread has written is an error
    /// (by default float memory is NaN-poisoned and only integer memory is tracked).
    virtual bool strictInit() const { return false; }
    /// Before statement `s` (never a Seq) runs for `active` threads; `depth` = enclosing
    /// statements (loops, ifs) inside the kernel.
    virtual void statement(const ir::StmtNode* s, const std::vector<int32_t>& active, int depth) {
        (void)s, (void)active, (void)depth;
    }
    /// Before iteration `value` of `loop` (its variable's value) runs.
    virtual void iteration(const ir::ForNode* loop, int64_t value, int depth) {
        (void)loop, (void)value, (void)depth;
    }
    /// A checker stopped the run; called before the error unwinds the interpreter.
    virtual void finding(const CheckFinding& f) { (void)f; }
};

/// Runs the lowered `f` on the CPU. Arguments, InterpOptions and InterpResult are as for run()
/// (Interpreter.h); values are doubles rounded to the buffer's dtype at every store (ts::roundTo).
///
/// Memory model and checks (each violation ends the run with result.error at the IR node's span;
/// the message names the buffer, the index, the block and the thread):
/// - Indexing: a buffer of rank > 1 indexed with one index is addressed by flat element offset
///   (lower-to-threads flattens every access). Accesses outside a buffer are errors.
/// - Poison: local and shared buffers start as NaN (float dtypes) or "never written" (integer
///   dtypes: reading one is an error), so a kernel that forgets T.clear yields NaN.
/// - T.sync_threads() must be reached by every thread of the block (else "divergent barrier").
///   T.sync_threads(id, count) is a named barrier (bar.sync id, count): it completes when
///   `count` threads arrived; when every thread of the block waits and it cannot complete the
///   run stops with a deadlock naming each barrier's expected and actual arrivals.
/// - tl.cp_async is a deferred per-thread event: its source is read at issue (zero-filled when
///   the predicate is false), its destination is written when a later tl.cp_async_wait(N) of the
///   same thread completes its group (all but the newest N committed groups; PTX ISA
///   §9.7.9.25.3.3 cp.async.wait_group). Until then reading or writing the destination is an
///   error "read of X[i] before its cp.async completed (missing cp.async.wait_group?)".
/// - Shared-memory races between barriers: a read of an element another thread wrote since the
///   last barrier, or a write of an element another thread read or wrote (with a different
///   value) since then, is an error (CUDA C++ Programming Guide, "Shared Memory": only
///   __syncthreads orders accesses of different threads).
/// - tl.warp_allreduce is an xor butterfly over aligned groups of `width` lanes, rounded to the
///   dtype at every step as the device code (resources/ts_device.cuh warp_allreduce) is; every
///   lane of a group must be active.
/// - tl.gemm_ss computes, for each thread, exactly the accumulator registers that
///   analysis::makeMmaAccumulator assigns it, reading A and B from shared memory through the
///   swizzled addressing of analysis::swizzleBytes (mma.sync m16n8k16: each k16 step is summed
///   in double and added to the fp32 accumulator with one rounding). All threads must call it.
/// - tl.atomic, tl.store_pair, tl.copy_vec, tl.zero_vec as in resources/ts_device.cuh.
/// Tile ops (T.copy, T.gemm, ...) are errors: they must have been lowered.
///
/// Never throws; every problem becomes result.error.
InterpResult runLowered(const ir::PrimFunc& f, std::vector<HostTensor>& args,
                        const InterpOptions& opts = {});

}  // namespace ts::interp
