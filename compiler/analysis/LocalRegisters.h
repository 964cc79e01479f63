// How many bytes of per-thread arrays (lowered fragments and T.alloc_local buffers, scope Local)
// one thread may hold at once -- the estimate behind compile()'s "per-thread arrays need N
// registers" warning, made before ptxas runs. A warp-specialized kernel splits its threads into
// roles with branches on the thread index (`if tx < 128: ... elif tx < 256: ...`): a thread runs
// one branch only, so the arrays only one branch uses are counted for the larger branch, not both
// (the corpus' MLA decode kernels: two 128-float accumulators, one per consumer role, were summed
// into a false 302-register warning). Arrays used outside the branches, or in both, count once.
// An upper bound otherwise: liveness inside a role is not modelled (ptxas -v, printed after the
// NVRTC compile, is the real figure).
#pragma once
#include <cstdint>
#include <string>

#include "compiler/ir/Stmt.h"

namespace ts::analysis {

struct LocalArrayPeak {
    int64_t bytes = 0;             ///< per thread, at the worst role
    std::string largest;           ///< the largest array counted
    int64_t largestBytes = 0;
};

/// The peak over the kernel's thread roles of the bytes of Local arrays it references.
LocalArrayPeak peakLocalArrayBytes(const ir::KernelNode& kernel);

}  // namespace ts::analysis
