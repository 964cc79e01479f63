// Host-side tensors and the exact numeric formats of every dtype: the one place that knows how a
// value is rounded to float16/bfloat16/fp8 and how a tensor is laid out in device memory. The
// interpreter, the reference evaluation, the random-input generator and the GPU runtime all go
// through these functions, so host and device agree bit for bit on what an input "is".
//
// Values are carried as doubles. That is exact for every float format up to float64 and for all
// integers up to 2^53 in magnitude; int64/uint64 values beyond 2^53 are rounded to the nearest
// double by decode() (the only lossy case, documented at decode()).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compiler/ir/DType.h"

namespace ts {

/// A dense row-major tensor on the host. Invariant: every element of `data` is exactly
/// representable in `dtype` (i.e. roundTo(dtype, v) == v, NaN aside); makeHostTensor() and
/// decode() establish it, code that writes `data` directly must keep it (use roundTo).
/// `data` may be empty to mean "shape only, no values yet" (e.g. an output before a run).
struct HostTensor {
    ir::DType dtype = ir::DType::Float32;
    std::vector<int64_t> shape;  ///< extents, outermost first; rank 0 = scalar (1 element)
    std::vector<double> data;    ///< numel() values in row-major order, or empty

    /// Product of the extents (1 for rank 0). Extents are assumed non-negative.
    int64_t numel() const;
    /// True when `data` holds numel() values.
    bool hasData() const { return static_cast<int64_t>(data.size()) == numel(); }
};

/// Product of `shape` (1 for an empty shape).
int64_t numelOf(std::span<const int64_t> shape);

/// Builds a tensor of `shape` whose data is `values` rounded with roundTo(dtype, .).
/// Throws std::invalid_argument if values.size() != numel(shape).
HostTensor makeHostTensor(ir::DType dtype, std::vector<int64_t> shape, std::vector<double> values);

/// "(4096, 4096)"; "()" for rank 0. Used in every shape-related message.
std::string formatShape(std::span<const int64_t> shape);

/// Rounds `v` to the nearest value of `t`, exactly as a device conversion would:
/// - float16 (IEEE binary16), bfloat16, float32: IEEE round-to-nearest-even incl. subnormals;
///   overflow goes to +-inf, inf and NaN are kept.
/// - float8 e4m3 (OCP FP8 "E4M3FN", max 448): round-to-nearest-even with saturation (satfinite):
///   finite overflow and +-inf become +-448; NaN stays NaN. There is no infinity.
/// - float8 e5m2 (OCP FP8 E5M2, max 57344): IEEE-like; overflow goes to +-inf, inf and NaN kept.
/// - float64: identity.
/// - integers (incl. int4/uint4): truncation toward zero, then wrap-around modulo 2^bits, as a C
///   cast to an integer type does on two's-complement machines; NaN and +-inf become 0. (A wrapped
///   uint64 above 2^64 - 2048, e.g. from -1, is held as 2^64 - 2048, the largest double below
///   2^64.)
/// - bool: 0 stays 0, anything else (NaN included) becomes 1.
double roundTo(ir::DType t, double v);
/// FP4 E2M1 nibble of `v` (sign in bit 3): round to nearest, ties to the even code, saturating
/// at ±6, NaN -> +6 (CUDA's __nv_cvt_double_to_fp4(v, __NV_E2M1, cudaRoundNearest)).
uint8_t fp4E2M1Bits(double v);
/// Value of an FP4 E2M1 nibble (low 4 bits of `bits`).
double fp4E2M1Value(uint8_t bits);

/// Bytes an array of `numel` elements of `t` occupies on the device: numel*bytes, except
/// int4/uint4 which pack two per byte (ceil(numel/2)).
size_t encodedSize(ir::DType t, int64_t numel);

/// Device (little-endian) bytes of `t.data` rounded with roundTo. int4/uint4 are packed two per
/// byte, element 2i in the low nibble and 2i+1 in the high nibble (an odd tail leaves the high
/// nibble 0). NaN is written as the canonical quiet NaN of the format (f16 0x7E00, bf16 0x7FC0,
/// e4m3 0x7F, e5m2 0x7E, f32 0x7FC00000). Throws std::invalid_argument if !t.hasData().
std::vector<uint8_t> encode(const HostTensor& t);

/// Inverse of encode(): interprets `bytes` (encodedSize(dtype, numel(shape)) of them) as a
/// row-major tensor. Every bit pattern decodes (all NaN encodings become NaN, bool is byte != 0).
/// int64/uint64 values above 2^53 in magnitude are rounded to the nearest double.
/// Throws std::invalid_argument on a size mismatch.
HostTensor decode(ir::DType dtype, std::vector<int64_t> shape, std::span<const uint8_t> bytes);

/// Bit pattern of `v` (rounded with roundTo) in a 16-bit or 8-bit float format (Float16,
/// BFloat16, Float8E4M3, Float8E5M2) or Float32. Exposed for tests and for codegen of constants.
/// Throws std::invalid_argument for other dtypes.
uint32_t floatBits(ir::DType t, double v);
/// Value of the bit pattern `bits` (low bits used) in the float format `t` (same dtypes as
/// floatBits).
double floatFromBits(ir::DType t, uint32_t bits);

/// The bits an element of dtype `t` holding `v` has on the device, in the low dtypeBits(t) bits:
/// floats through floatBits (Float64 as is), integers two's complement (a non-finite value, which
/// the interpreters never store in an integer, as 0), bool 0/1. The one encoder the interpreters'
/// shared views and the reference evaluator's Tensor.view(dtype) share.
uint64_t elementBits(ir::DType t, double v);
/// The value of the element of dtype `t` whose low dtypeBits(t) bits are `u` (signed integers
/// sign-extended, bool: nonzero).
double elementValue(ir::DType t, uint64_t u);

}  // namespace ts
