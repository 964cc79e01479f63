// TileLang's bit operations spelled as calls: T.shift_left(x, n), T.shift_right(x, n),
// T.bitwise_and/or/xor(a, b), T.bitwise_not(x): the same as `x << n`, `x >> n`, `a & b`,
// `a | b`, `a ^ b`, `~x` (TVM's tir.shift_left etc.), so they elaborate through the operators
// and share their dtype rules, folding and code.
#pragma once
#include "compiler/frontend/MetaEval.h"

namespace ts::fe::elab {

/// Registers the calls above in `in`'s tilelang.language module.
void registerBitOps(Interp& in);

}  // namespace ts::fe::elab
