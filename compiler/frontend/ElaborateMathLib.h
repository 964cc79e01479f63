// TVM's math library as TileLang re-exports it (ir/MathLib.h): T.erf, T.tan, T.pow, T.fmod,
// T.round (ties to even, or "ties-away-from-zero"), T.trunc, the fast-math T.__exp/__log/__sin
// ..., and the IEEE operations with a rounding mode T.ieee_add/sub/mul/fdiv/fmaf/frcp/fsqrt
// (x, ..., "rn"|"rz"|"ru"|"rd") and T.ieee_frsqrt(x).
#pragma once
#include "compiler/frontend/MetaEval.h"

namespace ts::fe::elab {

/// Registers the calls above in `in`'s tilelang.language module (`in` is the Elaborator).
void registerMathLib(Interp& in);

}  // namespace ts::fe::elab
