#include "compiler/ir/DType.h"
#include "compiler/ir/IntWrap.h"

#include <array>

namespace ts::ir {
namespace {
struct Info {
    DType t;
    std::string_view name;
    int bits;
    std::string_view cuda;
};
constexpr std::array<Info, 18> kInfo{{
    {DType::Bool, "bool", 8, "bool"},
    {DType::Int8, "int8", 8, "signed char"},
    {DType::Int16, "int16", 16, "short"},
    {DType::Int32, "int32", 32, "int"},
    {DType::Int64, "int64", 64, "long long"},
    {DType::UInt8, "uint8", 8, "unsigned char"},
    {DType::UInt16, "uint16", 16, "unsigned short"},
    {DType::UInt32, "uint32", 32, "unsigned int"},
    {DType::UInt64, "uint64", 64, "unsigned long long"},
    {DType::Float16, "float16", 16, "ts::half"},
    {DType::BFloat16, "bfloat16", 16, "ts::bfloat16"},
    {DType::Float32, "float32", 32, "float"},
    {DType::Float64, "float64", 64, "double"},
    {DType::Float8E4M3, "float8_e4m3", 8, "ts::fp8_e4m3"},
    {DType::Float8E5M2, "float8_e5m2", 8, "ts::fp8_e5m2"},
    {DType::Int4, "int4", 4, "signed char"},
    {DType::UInt4, "uint4", 4, "unsigned char"},
    {DType::Float4E2M1, "float4_e2m1fn", 4, "ts::fp4_e2m1"},
}};
const Info& info(DType t) { return kInfo[static_cast<size_t>(t)]; }
}  // namespace

std::string_view dtypeName(DType t) { return info(t).name; }
int dtypeBits(DType t) { return info(t).bits; }
std::string_view cudaTypeName(DType t) { return info(t).cuda; }

std::optional<DType> parseDType(std::string_view n) {
    if (n == "float" || n == "fp32") return DType::Float32;
    if (n == "half" || n == "fp16") return DType::Float16;
    if (n == "bf16") return DType::BFloat16;
    if (n == "double") return DType::Float64;
    // TVM's C-style canonical names (TileLang's dtypes.py displays them as the sized ones):
    // T.int / "uint" are what tilelang.quantize's helpers take as a source format.
    if (n == "int") return DType::Int32;
    if (n == "uint") return DType::UInt32;
    if (n == "long") return DType::Int64;
    if (n == "ulong") return DType::UInt64;
    if (n == "short") return DType::Int16;
    if (n == "float8_e4m3fn") return DType::Float8E4M3;
    if (n == "float4_e2m1") return DType::Float4E2M1;
    if (n == "tfloat32") return DType::Float32;  // 32-bit storage; see T.tfloat32 (MetaModules)
    for (const auto& i : kInfo)
        if (i.name == n) return i.t;
    return std::nullopt;
}

bool isFloat(DType t) {
    switch (t) {
        case DType::Float16: case DType::BFloat16: case DType::Float32: case DType::Float64:
        case DType::Float8E4M3: case DType::Float8E5M2: case DType::Float4E2M1: return true;
        default: return false;
    }
}
bool isInt(DType t) { return !isFloat(t) && t != DType::Bool; }
bool isSigned(DType t) {
    switch (t) {
        case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64: case DType::Int4:
            return true;
        default: return isFloat(t);
    }
}

bool holdsInt(DType t, int64_t v) {
    if (!isInt(t)) return false;
    const int bits = dtypeBits(t);
    if (bits >= 64) return isSigned(t) || v >= 0;
    if (!isSigned(t)) return v >= 0 && v < (int64_t{1} << bits);
    return v >= -(int64_t{1} << (bits - 1)) && v < (int64_t{1} << (bits - 1));
}

int64_t wrapInt(DType t, int64_t v) {
    if (t == DType::Bool) return v != 0;
    const int bits = dtypeBits(t);
    if (bits >= 64) return v;
    const uint64_t u = static_cast<uint64_t>(v) & ((uint64_t(1) << bits) - 1);
    if (isSigned(t) && (u >> (bits - 1))) return static_cast<int64_t>(u) - (int64_t(1) << bits);
    return static_cast<int64_t>(u);
}

}  // namespace ts::ir
