// TMA tensor maps for sm_90a kernels (compiler/Compile.h TensorMapArg): encoded on the host with
// cuTensorMapEncodeTiled (CUDA Driver API, "Tensor Map Object Management") over a tensor's
// device address and launch-time shape, and passed by value after the kernel's scalars
// (`const __grid_constant__ ts::TensorMap`, resources/ts_device/hopper.cuh). The entry point is
// resolved from the already loaded libcuda.so.1 on first use, so the Driver table (and
// machines whose driver predates it) need not know it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/DType.h"
#include "profiler/cuda/Driver.h"

namespace ts::rt {

/// One tensor-map kernel parameter over row-major tensor argument `tensor` (rank 2..5): a box of
/// boxInner elements along the contiguous (last) dimension x boxOuter along dimension `rowDim`
/// (outermost-first, as the tensor's shape; -1 = rank - 2) x 1 along the others, `swizzleBytes`
/// (32, 64 or 128) shared-memory swizzle, out-of-bounds elements read as zero.
struct TensorMapParam {
    int tensor = -1;
    int64_t boxInner = 0, boxOuter = 0;
    int swizzleBytes = 0;
    int rowDim = -1;
};

/// The 128-byte CUtensorMap (cuda.h: 64-byte aligned opaque words).
struct alignas(64) TensorMapBits {
    uint64_t opaque[16] = {};
};

/// Why `p` cannot be encoded for a tensor of `dtype`, `shape` at `ptr` (TMA rules: rank 2..5,
/// base 16-byte aligned, every stride a multiple of 16 bytes below 2^40, box extents 1..256,
/// inner box bytes a multiple of 16 and within the swizzle span, the row dimension not the
/// contiguous one); empty when it can. Pure.
std::string tensorMapProblem(const TensorMapParam& p, ir::DType dtype, const std::vector<int64_t>& shape,
                             cu::DevicePtr ptr);

/// Encodes `p` (throws std::invalid_argument with tensorMapProblem's text, or CudaError from the
/// driver). Needs the driver loaded (Driver::require()).
TensorMapBits encodeTensorMap(const TensorMapParam& p, ir::DType dtype, const std::vector<int64_t>& shape,
                              cu::DevicePtr ptr);

}  // namespace ts::rt
