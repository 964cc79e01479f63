// The launch shape of a T.Kernel grid whose y or z extent exceeds the hardware's 65535 blocks
// (CUDA C++ Programming Guide, "Compute Capabilities", Table "Technical Specifications": maximum
// y- or z-dimension of a grid of thread blocks 65535, x-dimension 2^31-1; HIP has the same
// y/z limit). TileLang emits such a grid as written and its launch fails; TileScope launches
// it as one x extent gx*gy*gz and the kernel recovers (bx, by, bz) from blockIdx.x, so every
// block still runs exactly once with the block indices T.Kernel gave it. Codegen (the decode)
// and the launch facts (Compile.cpp) both ask this one function.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "compiler/ir/IR.h"

namespace ts::codegen {

/// The constant grid extents (gx, gy, gz) of `k` when it must be launched linearised (y or z
/// above 65535 and gx*gy*gz within the x limit); nullopt otherwise (also when an extent is not
/// a compile-time constant).
inline std::optional<std::array<int64_t, 3>> linearizedGrid(const ir::KernelNode& k) {
    std::array<int64_t, 3> g{1, 1, 1};
    for (size_t d = 0; d < k.grid.size() && d < 3; ++d) {
        auto c = ir::constInt(k.grid[d]);
        if (!c || *c <= 0) return std::nullopt;
        g[d] = *c;
    }
    constexpr int64_t kMaxYZ = 65535, kMaxX = 2147483647;
    if (g[1] <= kMaxYZ && g[2] <= kMaxYZ) return std::nullopt;
    if (g[0] * g[1] > kMaxX || g[0] * g[1] * g[2] > kMaxX) return std::nullopt;
    return g;
}

}  // namespace ts::codegen
