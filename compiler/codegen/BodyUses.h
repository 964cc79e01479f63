// What a kernel body uses that the generated source must declare before the kernel: the
// device header's optional parts and the prelude's helpers are emitted only for kernels that use
// them (smaller source, faster NVRTC, and unchanged source -- so unchanged cubin-cache keys -- for
// kernels that do not).
#pragma once

#include "compiler/ir/Stmt.h"

namespace ts::codegen {

/// True if `body` calls T.rng_init / rng_rand / rng_rand_float (the header's Philox part).
bool usesRng(const ir::Stmt& body);

/// True if `body` has an integer // or % of a 64-bit type (the prelude's ts_floordiv64 /
/// ts_floormod64; the int helpers would truncate its operands).
bool usesFloor64(const ir::Stmt& body);

}  // namespace ts::codegen
