// Structural checks of Tile IR run after every pass in debug and test builds (DESIGN.md §2).
// A failure is a compiler bug, reported as an internal-error diagnostic naming the pass.
#pragma once
#include <string>
#include <vector>

#include "compiler/ir/Stmt.h"

namespace ts::ir {

/// Returns human-readable problems (empty = valid): index counts vs buffer rank (1 after
/// flattening), variables used outside the loop/kernel that binds them, non-integer loop bounds,
/// region ranks, null children.
std::vector<std::string> verify(const PrimFunc& f);

}  // namespace ts::ir
