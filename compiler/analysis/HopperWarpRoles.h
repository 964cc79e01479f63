// The warp roles of a hand-written warp-specialized kernel (T.ws, explicit `if tx >= 128` splits),
// which buildHopperTimeline walks one trace each (HopperWarpRoles.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/IR.h"

namespace ts::analysis {

struct WarpRole {
    std::string name;
    int64_t tx, threads;  ///< the role's first thread (its representative) and its thread count
};

/// The ifs of `kn` whose condition reads only the thread index and is uniform over each warpgroup
/// (the same at its first and last thread) partition the `T` threads' warpgroups by their
/// outcomes; each class is one role, represented by its first warpgroup's thread 0, in thread
/// order. One class (or no such if): no roles.
std::vector<WarpRole> handWrittenWarpRoles(const ir::KernelNode& kn, int64_t T);

}  // namespace ts::analysis
