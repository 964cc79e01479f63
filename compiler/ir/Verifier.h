// Structural checks of Tile IR, run after every pass (DESIGN.md §2). A problem found after a
// pass is a compiler bug: the pass manager marks that pass failed, stops the pipeline there and
// reports an internal-error diagnostic naming the pass (compiler/Pipeline.cpp).
#pragma once
#include <string>
#include <vector>

#include "compiler/ir/Stmt.h"

namespace ts::ir {

/// What the passes that already ran guarantee; each fact enables the checks that depend on it.
struct VerifyFacts {
    /// infer-layouts ran: every T.alloc_fragment buffer still allocated has a layout in
    /// PrimFuncNode::layouts (lowering reads fragments through it).
    bool layoutsInferred = false;
    /// lower-tile-ops ran: no tile-op statement and no T.Parallel loop is left.
    bool tileOpsLowered = false;
};

/// Returns human-readable problems (empty = valid):
/// - scoping: variables used outside the loop/kernel that binds them; null children;
/// - ranks: index counts vs buffer rank (1 after flattening), region ranks;
/// - types: integer (or bool) loop bounds, indices and conditions; arithmetic whose operands mix
///   float and integer or whose result kind differs from its operands'; comparisons that do not
///   yield bool; stores whose value dtype differs from the buffer's;
/// - layouts and lowering, as `facts` allows (see VerifyFacts);
/// - barriers: T.sync_threads() only in block-uniform control flow (not under an `if` or loop
///   bound that reads the thread index), since a barrier some threads skip deadlocks or is
///   undefined (PTX ISA §9.7.13.4 bar.sync: all threads of the CTA).
std::vector<std::string> verify(const PrimFunc& f, const VerifyFacts& facts = {});

}  // namespace ts::ir
