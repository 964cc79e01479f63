// Scalar element types of the tile language (LANGUAGE.md §3 "dtypes"): names, sizes and the
// CUDA spelling used by codegen. One table, shared by front end, codegen, runtime and interpreter.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ts::ir {

/// Element type of a buffer or scalar expression.
enum class DType : uint8_t {
    Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
    Float16, BFloat16, Float32, Float64, Float8E4M3, Float8E5M2, Int4, UInt4,
    /// OCP FP4 E2M1 ("float4_e2m1fn"): ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}, no inf/NaN. Packed two per
    /// byte in global and shared memory like int4 (element 2k in the low nibble of byte k).
    Float4E2M1,
};
/// The last DType (loops over every dtype).
inline constexpr DType kLastDType = DType::Float4E2M1;

/// Canonical TileLang name ("float16", "bfloat16", "float32", ...).
std::string_view dtypeName(DType t);
/// Parses a TileLang dtype name incl. aliases ("float" -> Float32, "float8_e4m3fn" -> Float8E4M3,
/// "half" -> Float16). Returns nullopt for an unknown name.
std::optional<DType> parseDType(std::string_view name);
/// Storage size in bits (4 for int4/uint4, 1 byte for bool).
int dtypeBits(DType t);
/// Storage size in bytes, rounded up (int4 -> 1).
inline int dtypeBytes(DType t) { return (dtypeBits(t) + 7) / 8; }
bool isFloat(DType t);
bool isInt(DType t);  ///< signed or unsigned integer (not bool)
bool isSigned(DType t);
/// Whether v is a value of the integer type t (int4 -8..7, uint8 0..255, ...); false for other types.
bool holdsInt(DType t, int64_t v);
/// Type name in generated CUDA C++ (uses the ts:: 16-bit and 8-bit float types of the device
/// header resources/ts_device.cuh, e.g. "ts::half", "ts::bfloat16", "float").
std::string_view cudaTypeName(DType t);

}  // namespace ts::ir
