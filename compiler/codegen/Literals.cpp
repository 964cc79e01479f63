#include "compiler/codegen/Literals.h"

#include <climits>
#include <cmath>
#include <cstdio>

namespace ts::codegen {
using namespace ts::ir;

bool isBuiltinScalar(DType t) {
    return !(t == DType::Float16 || t == DType::BFloat16 || t == DType::Float8E4M3 || t == DType::Float8E5M2 ||
             t == DType::Float4E2M1);
}

std::string intLiteral(int64_t v, DType t) {
    if (t == DType::Bool) return v ? "true" : "false";
    if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
    if (v == INT32_MIN && t != DType::Int64) return "(-2147483647 - 1)";
    if (t == DType::Int64 || v > INT32_MAX || v < INT32_MIN) return std::to_string(v) + "LL";
    return std::to_string(v);
}

std::string floatLiteral(double v, DType t) {
    if (t != DType::Float64 && std::isfinite(v) && std::isinf(static_cast<float>(v))) v = static_cast<float>(v);
    if (std::isinf(v) || std::isnan(v)) {
        std::string f = t == DType::Float64 ? (std::isnan(v) ? "__longlong_as_double(0x7ff8000000000000LL)"
                                                             : "__longlong_as_double(0x7ff0000000000000LL)")
                                            : (std::isnan(v) ? "__int_as_float(0x7fc00000)" : "__int_as_float(0x7f800000)");
        if (std::isinf(v) && v < 0) f = "(-" + f + ")";
        // A 16/8-bit float has no implicit conversion from float: `ts::half x = -inf` does not compile.
        return isBuiltinScalar(t) ? f : "ts::cast<" + std::string(cudaTypeName(t)) + ">(" + f + ")";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, t == DType::Float64 ? "%.17g" : "%.9g", v);
    std::string s = buf;
    if (s.find_first_of(".eE") == std::string::npos) s += ".0";
    if (t == DType::Float64) return s;
    s += "f";
    if (t == DType::Float32) return s;
    return "ts::cast<" + std::string(cudaTypeName(t)) + ">(" + s + ")";
}

}  // namespace ts::codegen
