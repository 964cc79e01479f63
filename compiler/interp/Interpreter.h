// Tile-level interpreter: executes an *elaborated* PrimFunc (before lowering) on the CPU, with
// host tensors as the kernel's global memory (DESIGN.md §2 "Interpreter"). Every block of the
// T.Kernel grid runs in turn (x fastest, then y, then z); inside a block the body runs once, as
// one logical executor: shared, fragment and local buffers are whole tiles private to the block
// (fragments are not distributed over threads), and Parallel / Pipelined / serial / unroll /
// vectorized loops run sequentially in order. Values are doubles, rounded to the buffer's dtype
// at every store (ts::roundTo) and to the target dtype at every Cast; integers are int64 with
// Python floor semantics for `//` and `%`. Tile ops follow LANGUAGE.md §3 (copy, gemm, fill,
// reduce, cumsum, atomic); their exact numeric contract is documented at run(). This is the
// reference semantics that `tilec run --check interp`, the e2e tests and the debugger rely on.
#pragma once
#include <atomic>
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Stmt.h"
#include "compiler/support/Diagnostic.h"
#include "compiler/support/HostTensor.h"

namespace ts::interp {

/// Largest buffer the interpreters hold (elements): a kernel argument above it is refused when
/// bound, so tilec checks its tensors against it before allocating them (HostMemory.h).
inline constexpr int64_t kMaxBufferElements = int64_t(1) << 28;

/// Where a long run is: the running loop with the most iterations (its span, the iteration it
/// reached, 0-based, and its extent). InterpOptions::onLoop and the time-limit error report it.
struct LoopProgress {
    Span loop;
    int64_t iteration = 0;
    int64_t extent = 0;
    int64_t block = 0;   ///< the running block, linear (x fastest), 0-based
    int64_t blocks = 0;  ///< blocks of the running T.Kernel
};

/// Knobs of one interpreter run.
struct InterpOptions {
    /// Run at most this many blocks (in launch order, x fastest); -1 = the whole grid. Stopping
    /// early is not an error (result.ok stays true): previews run the first few blocks only.
    int64_t maxBlocks = -1;
    /// Polled between blocks (and every 64Ki loop iterations); when it reads true the run stops
    /// with ok=false and an "interpretation cancelled" diagnostic. May be null.
    const std::atomic<bool>* cancel = nullptr;
    /// Values of the kernel's scalar arguments (PrimFunc::scalars, same order), e.g. from
    /// resolveLaunch (compiler/LaunchArgs.h). A symbolic size that a tensor dimension defines
    /// may be left out (empty vector): it is bound from the argument's shape; a given value
    /// must agree with that shape.
    std::vector<double> scalars;
    /// Called after each block that ran to completion with (blocks of the current T.Kernel
    /// done, its grid size): tilec's progress line on long runs (app/cli/InterpProgress.h).
    /// Runs on the interpreting thread; may be empty.
    std::function<void(int64_t done, int64_t total)> onBlock;
    /// Wall-clock limit of the run in seconds (0 = none). Checked between blocks and every 1024
    /// loop iterations; past it the run stops with ok=false and an error at the running loop
    /// with the most iterations ("time limit of 60 s reached in this loop, at iteration N of
    /// M"), so an endless or enormous T.serial is named instead of running forever (new-user
    /// trial). `timeLimitHint` says how to raise the limit (tilec: "--time-limit SECONDS").
    double timeLimitS = 0;
    std::string timeLimitHint;
    /// Called every 1024 loop iterations inside a block with the running loop with the most
    /// iterations: progress inside one long block (tilec's progress line). May be empty.
    std::function<void(const LoopProgress&)> onLoop;
};

/// Outcome of run(). On error the outputs hold whatever the blocks run so far wrote.
struct InterpResult {
    bool ok = false;
    std::optional<Diagnostic> error;  ///< set iff !ok; span = the offending IR node's span
    int64_t blocksRun = 0;            ///< blocks that ran to completion
    /// Lines written by T.print ("block (bx, by, bz): msg value"), capped at 10000 lines.
    std::vector<std::string> log;
    /// Problems that did not stop the run, one per buffer and kind: the thread-level interpreter's
    /// reads of float shared memory no thread has written (the GPU reads leftover bytes there).
    std::vector<Diagnostic> warnings;
};

/// Runs `f` on the CPU. `args` are the kernel's tensor parameters in PrimFunc param order; each
/// must have the parameter's dtype and (evaluated) shape. Symbolic extents (T.dynamic vars used
/// directly as a dimension) are bound from the argument shapes first. An argument with empty
/// `data` is allocated zero-filled; outputs are written in place.
///
/// Semantics of the tile ops (shapes are compared after squeezing extent-1 dimensions):
/// - copy src->dst: out-of-bounds source elements read 0, out-of-bounds destination elements are
///   not written (bounds = the buffer's shape); values are converted with roundTo(dst dtype).
/// - gemm A,B,C: C = roundTo(C dtype, C + sum_k op(A)[i,k]*op(B)[k,j]) with the sum over K taken
///   in double (rounded once per gemm op); clear_accum=True starts from 0. Operands are the last
///   two dimensions of each region (leading dimensions must have extent 1).
/// - fill dst, v: every element = roundTo(dst dtype, v).
/// - reduce src->dst (op sum|max|min|absmax|abssum, dim may be negative): reduces in double over
///   `dim`; dst has src's shape without `dim` (or with extent 1 there). clear=False combines with
///   dst's value (sum/abssum: dst + r, max/absmax: max(dst, r), min: min(dst, r)).
/// - cumsum src->dst (dim, reverse): inclusive scan in double, each output rounded.
/// - atomic dst, value (op add|max|min; value a region of dst's shape or a scalar expression):
///   the value is converted to dst's dtype, then dst = roundTo(dst dtype, op(dst, value));
///   elements where dst (or the value region) is out of bounds are skipped, as copy skips them.
/// Element loads/stores (and gemm/fill/reduce/cumsum regions) outside a buffer's shape are errors
/// naming the buffer, the index and the shape. Synchronisation calls (T.sync_threads, barriers,
/// fences) are no-ops, there being one executor per block; T.sync_grid (a barrier across the
/// blocks) makes the blocks of a grid of more than one run in phases, as coroutines: every block
/// reaches its k-th grid barrier before any passes it, and a block that ends while others wait
/// is a deadlock error at the barrier (GridRun.cpp; such a grid runs whole, maxBlocks aside); T.print appends to result.log. Float buffers
/// start as NaN at their allocation and integer buffers as 0 (alloc_var: its init), so a
/// missing T.clear gives NaN as on the thread interpreter and the GPU's poisoned runs. A T.StridedTensor parameter is
/// addressed through its strides inside args[i].data. Thread indices and lowered intrinsics
/// (tl.*) are errors: this interpreter runs tile-level IR only.
///
/// Never throws and never crashes on malformed IR: every problem becomes result.error.
InterpResult run(const ir::PrimFunc& f, std::vector<HostTensor>& args,
                 const InterpOptions& opts = {});

}  // namespace ts::interp
