#include "profiler/cuda/TensorMap.h"

#include <cstdlib>
#include <stdexcept>

#include <dlfcn.h>

namespace ts::rt {
namespace {

// cuda.h (CUDA 12/13) enumerators: CUtensorMapDataType, CUtensorMapSwizzle,
// CUtensorMapL2promotion, CUtensorMapFloatOOBfill, CUtensorMapInterleave. ABI values.
int dataTypeOf(ir::DType t) {
    switch (t) {
        case ir::DType::UInt8: case ir::DType::Int8: case ir::DType::Float8E4M3: case ir::DType::Float8E5M2: return 0;  // UINT8
        case ir::DType::UInt16: case ir::DType::Int16: return 1;  // UINT16
        case ir::DType::UInt32: return 2;
        case ir::DType::Int32: return 3;
        case ir::DType::UInt64: return 4;
        case ir::DType::Int64: return 5;
        case ir::DType::Float16: return 6;
        case ir::DType::Float32: return 7;
        case ir::DType::Float64: return 8;
        case ir::DType::BFloat16: return 9;
        default: return -1;
    }
}
int swizzleEnum(int bytes) { return bytes == 32 ? 1 : bytes == 64 ? 2 : bytes == 128 ? 3 : 0; }

using EncodeTiled = cu::Result (*)(void* map, int dtype, unsigned rank, void* global, const uint64_t* dims,
                                   const uint64_t* strides, const unsigned* box, const unsigned* elementStrides,
                                   int interleave, int swizzle, int l2Promotion, int oobFill);

EncodeTiled encodeEntry() {
    static EncodeTiled fn = [] {
        const char* env = std::getenv("TILESCOPE_LIBCUDA");
        void* h = dlopen(env && *env ? env : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        return h ? reinterpret_cast<EncodeTiled>(dlsym(h, "cuTensorMapEncodeTiled")) : nullptr;
    }();
    return fn;
}

}  // namespace

std::string tensorMapProblem(const TensorMapParam& p, ir::DType dtype, const std::vector<int64_t>& shape,
                             cu::DevicePtr ptr) {
    const int e = ir::dtypeBytes(dtype);
    if (dataTypeOf(dtype) < 0) return "dtype " + std::string(ir::dtypeName(dtype)) + " has no TMA element type";
    const int rank = static_cast<int>(shape.size());
    if (rank < 2 || rank > 5) return "TMA tile loads take tensors of rank 2..5; the tensor has rank " + std::to_string(rank);
    const int rowDim = p.rowDim < 0 ? rank - 2 : p.rowDim;
    if (rowDim >= rank - 1) return "the box's row dimension " + std::to_string(rowDim) + " is the contiguous one or past it";
    if (ptr % 16) return "the tensor's address is not 16-byte aligned";
    int64_t stride = e;
    for (int d = rank - 1; d >= 1; --d) {  // byte strides of dimensions 0..rank-2
        stride *= shape[size_t(d)];
        if (stride % 16 || stride >= (int64_t(1) << 40))
            return "the stride of dimension " + std::to_string(d - 1) + " (" + std::to_string(stride) + " bytes) is not a multiple of 16";
    }
    if (p.boxInner < 1 || p.boxInner > 256 || p.boxOuter < 1 || p.boxOuter > 256) return "box extents must be 1..256";
    if ((p.boxInner * e) % 16) return "the box's inner extent is not a multiple of 16 bytes";
    if (p.swizzleBytes && p.boxInner * e > p.swizzleBytes) return "the box's inner extent exceeds the swizzle span";
    return {};
}

TensorMapBits encodeTensorMap(const TensorMapParam& p, ir::DType dtype, const std::vector<int64_t>& shape,
                              cu::DevicePtr ptr) {
    if (auto why = tensorMapProblem(p, dtype, shape, ptr); !why.empty())
        throw std::invalid_argument("TMA tensor map over argument #" + std::to_string(p.tensor) + ": " + why);
    const Driver& d = Driver::require();
    EncodeTiled fn = encodeEntry();
    if (!fn) throw std::runtime_error("the CUDA driver has no cuTensorMapEncodeTiled (needs CUDA 12 or later)");
    TensorMapBits out;
    // TMA numbers dimensions innermost first: TMA dim i is shape[rank-1-i].
    const int rank = static_cast<int>(shape.size());
    const int rowDim = p.rowDim < 0 ? rank - 2 : p.rowDim;
    uint64_t dims[5] = {}, strides[4] = {};
    unsigned box[5] = {}, elementStrides[5] = {};
    uint64_t stride = uint64_t(ir::dtypeBytes(dtype));
    for (int i = 0; i < rank; ++i) {
        const int d = rank - 1 - i;
        dims[i] = uint64_t(shape[size_t(d)]);
        box[i] = i == 0 ? unsigned(p.boxInner) : d == rowDim ? unsigned(p.boxOuter) : 1u;
        elementStrides[i] = 1;
        if (i >= 1) strides[i - 1] = stride;
        stride *= dims[i];
    }
    // interleave NONE, L2 promotion 128B (the line the loads fill), OOB fill NONE (zeros).
    const cu::Result r = fn(&out, dataTypeOf(dtype), unsigned(rank), reinterpret_cast<void*>(ptr), dims, strides, box,
                            elementStrides, 0, swizzleEnum(p.swizzleBytes), 2, 0);
    if (r != 0) throw CudaError("cuTensorMapEncodeTiled", r, d.describe(r));
    return out;
}

}  // namespace ts::rt
