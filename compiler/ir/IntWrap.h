// C's conversion of an integer value to an integer type, shared by the IR builder's cast folding
// and the interpreters (one rule: T.cast(-1, "uint32") is 4294967295 in both, and in the CUDA).
#pragma once

#include <cstdint>

#include "compiler/ir/DType.h"

namespace ts::ir {

/// v converted to integer type t as C converts: the low bits, sign-extended for a signed t (uint64
/// keeps the 64 bits, held as int64); bool: v != 0.
int64_t wrapInt(DType t, int64_t v);

}  // namespace ts::ir
