// TileLang's `make_mma_swizzle_layout(shared_buf, is_smooth=False)` (tilelang.cuda.intrinsics,
// also under tilelang.intrinsics and their mma_layout submodules): the shared-memory layout
// that makes ldmatrix reads of an mma operand tile bank-conflict free. TileLang swizzles when a
// row is a multiple of 512 bits and keeps row-major order otherwise (or with is_smooth=True).
// A shared layout is a bijection on the tile, so the values a kernel computes do not depend on
// it; TileScope uses its own XOR swizzle of 16-byte chunks (analysis/Swizzle.h, the one
// make_swizzled_layout gives) under the same condition, so the bank behaviour matches in kind.
#pragma once
#include "compiler/frontend/MetaEval.h"

namespace ts::fe::elab {

/// Registers make_mma_swizzle_layout in the modules named above of `in` (the elaborator).
void registerMmaSwizzleLayout(Interp& in);

}  // namespace ts::fe::elab
