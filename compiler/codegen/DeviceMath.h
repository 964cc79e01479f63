// The device function a math call becomes (CUDA and HIP spell them alike): the core calls
// (T.exp -> expf, T.exp2 -> ts::exp2f_fast, ...), TVM's math library and the IEEE operations of
// ir/MathLib.h (T.erf -> erff, T.__exp -> __expf, T.ieee_add(x, y, "rz") -> __fadd_rz).
#pragma once
#include <string>
#include <vector>

#include "compiler/codegen/CudaCodegen.h"

namespace ts::codegen {

/// The call of math op `op` on `args`, each already converted to the working type (double when
/// `f64`, else float: 16-bit floats compute in float). Empty with *error set when the dialect has
/// no such function.
std::string deviceMathCall(const std::string& op, bool f64, const std::vector<std::string>& args, DeviceDialect dialect,
                           std::string* error);

}  // namespace ts::codegen
