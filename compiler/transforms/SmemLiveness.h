// Live intervals of shared buffers over a lowered kernel body, for plan-smem's byte reuse.
// A scope is a statement list every thread runs in step: the Kernel body, the body of a
// loop whose bounds do not depend on the thread index and that is not a per-thread
// (thread_loop) loop, and each branch of an `if` whose condition does not read the thread
// index, each flattened through Seq nodes. Its elements are the scope's units; a
// __syncthreads unit there is legal and orders everything before it against everything after.
// A buffer lives in the innermost scope around its alloc, and its interval covers the units of
// that scope in which it is accessed, first to last. A unit that is a loop or an if counts
// whole, so a buffer used inside a loop of its scope (and also before/after it) is live for the
// whole loop: loop-carried values and multi-buffered pipeline stages need no per-iteration
// dataflow. A buffer allocated inside a loop body is fresh each iteration (reduction scratch),
// so its interval is a part of that body.
// Positions number every unit of every scope in program order (pre-order), so intervals of
// buffers of different scopes compare directly.
// With `iterationLocal`, a tile that iteration-smem listed on a uniform loop (attr
// "smem_iteration_local": every iteration overwrites all of it before reading it) lives in that
// loop's body, as if allocated there: its interval is a part of the body.
#pragma once
#include <map>
#include <vector>

#include "compiler/ir/IR.h"

namespace ts::xform {

struct SmemInterval {
    int64_t first = -1, last = -1;  ///< unit positions (first unit's start, last unit's end); -1: never accessed
    int scope = 0;                  ///< index into SmemLiveness::scopes
    bool used() const { return first >= 0; }
    /// Disjoint in program order: the two buffers are never live at the same time.
    bool disjoint(const SmemInterval& o) const { return !used() || !o.used() || last < o.first || o.last < first; }
};

struct SmemScope {
    int parent = -1;            ///< enclosing scope; -1 for the kernel body
    bool loopBody = false;      ///< re-entered: units of iteration i+1 follow those of iteration i
    int64_t start = 0, end = 0; ///< positions it spans
    std::vector<ir::Stmt> units;
    std::vector<int64_t> unitStart;  ///< position of each unit
};

struct SmemBarrier {
    int scope;
    int64_t pos;
};

struct SmemLiveness {
    std::vector<SmemScope> scopes;                       ///< [0] is the kernel body
    std::map<const ir::BufferNode*, SmemInterval> live;  ///< every shared buffer allocated or accessed
    std::vector<SmemBarrier> barriers;                   ///< __syncthreads units of any scope
    /// True when `inner` is `outer` or nested in it.
    bool within(int inner, int outer) const;
    /// The unit of `scope` that starts at position `pos` (a buffer's first unit).
    const ir::Stmt& unitAt(int scope, int64_t pos) const;
};

/// Liveness of the shared buffers of the kernel in `body` (a PrimFunc body holding one Kernel);
/// `iterationLocal`: narrow the tiles iteration-smem marked to their loop's body.
SmemLiveness smemLiveness(const ir::Stmt& body, bool iterationLocal = false);

/// The one-element shared barrier that `addr` (address_of(bar[0])) names, or null: a plain TMA
/// copy's own mbarrier (ops/CopyTma.cpp). A pipeline's stage barriers have one element per stage.
/// liveness keeps a plain copy's tile live up to its wait on it; sink-tma-waits moves only such waits.
const ir::BufferNode* plainCopyBarrier(const ir::Expr& addr);

}  // namespace ts::xform
