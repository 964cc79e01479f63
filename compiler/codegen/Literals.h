// C++ spellings of IR constants in the generated CUDA/HIP: a literal must have the IR node's
// type in C's eyes, or the expression around it changes type (and meaning).
#pragma once
#include <cstdint>
#include <string>

#include "compiler/ir/DType.h"

namespace ts::codegen {

/// Whether t is a C++ builtin scalar in the generated code (the 16/8/4-bit floats are ts:: types).
bool isBuiltinScalar(ir::DType t);

/// An integer constant of IR type t. The lowest int32 and int64 are no C literal: 2147483648
/// does not fit int, so `-2147483648` is a long long (abs() of it did not wrap, and
/// `ts::max(-2147483648, 3)` did not compile); they are spelled `(-2147483647 - 1)`.
std::string intLiteral(int64_t v, ir::DType t);

/// A float constant of IR type t: float32 with an `f` suffix, float64 plain, 16/8-bit floats
/// through ts::cast; inf/NaN by bit pattern; a float32 value past float32's range is inf (1e40f
/// is an NVRTC error).
std::string floatLiteral(double v, ir::DType t);

}  // namespace ts::codegen
