// Pass validation (issue 11 §3, `tilec validate`): the interpreter runs the elaborated kernel and
// the IR after every pass on the same inputs, so a pass that changes what the kernel computes is
// found by name. Tile-level IR (before lower-tile-ops) runs on the tile interpreter
// (interp::run), lowered IR (from lower-tile-ops on) on the thread-level one
// (interp::runLowered), which also reports races, stale cp.async reads and deadlocks a pass may
// introduce. Comparing the outputs (with a float64 reference or the elaborated run) is the
// caller's: this module has no tolerance policy.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compiler/PassManager.h"
#include "compiler/support/HostTensor.h"

namespace ts::dbg {

/// The kernel's outputs as interpreted after one pass.
struct PassRun {
    std::string pass;          ///< "elaborated" for the pipeline's input
    bool threadLevel = false;  ///< run on the thread-level interpreter
    bool changed = false;      ///< the pass rewrote the IR (else outputs equal the previous run's)
    std::optional<std::string> error;  ///< the pass or the interpreter failed (message)
    Span errorSpan;
    std::vector<HostTensor> outputs;   ///< every argument after the run (inputs unchanged)
    double micros = 0;                 ///< interpreter time
};

struct ValidateOptions {
    std::vector<double> scalars;  ///< scalar kernel arguments (InterpOptions::scalars)
    int64_t maxBlocks = -1;       ///< blocks to run per interpretation (-1: all)
    /// The pass from which the IR is thread-level (the pipeline's lowering point).
    std::string threadLevelFrom = "lower-tile-ops";
    /// Until this pass has run, thread-level IR still indexes fragments by logical element
    /// (C_local[i, j]) and shared tiles without their swizzle: such IR is interpreted after this
    /// pass's index flattening (a mechanical rewrite through the layouts, the same for every
    /// pass before it), so a pass in that window is still judged by what it computes.
    std::string flattenWith = "lower-to-threads";
    /// Until this pass has run, thread-level IR has no barriers between shared-memory writes and
    /// the reads of other threads (a T.Parallel filling a tile that a T.gemm then reads): the
    /// pipeline places them here, so IR in that window is interpreted after this pass too, and
    /// the races it would show are not blamed on the pass before it.
    std::string syncWith = "insert-sync";
};

/// Runs `passes` over `elaborated` (stopping at the first failing pass) and interprets the input
/// and every pass's result with `args` (all tensor arguments in order; outputs poisoned by the
/// caller). One PassRun per interpretation, the elaborated one first. Never throws.
std::vector<PassRun> interpretAfterEveryPass(const ir::PrimFunc& elaborated,
                                             const std::vector<PassInfo>& passes,
                                             const Target& target,
                                             const std::vector<HostTensor>& args,
                                             const ValidateOptions& opts = {});

}  // namespace ts::dbg
