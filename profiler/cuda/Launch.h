// Loading a cubin and launching one of its kernels on tensors in device memory. The launch
// checks its arguments against the kernel's tensor signature (from the compiler) before touching
// the GPU, because a wrong shape or dtype otherwise shows up as an illegal-address fault or, worse,
// as silently wrong numbers. checkArguments() is pure so the same messages appear without a GPU
// (tilec's argument parsing, the IDE, tests).
//
// Everything that talks to the driver assumes the calling thread has the device's context
// current (GpuRuntime does that) and throws CudaError on a driver failure.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/ir/DType.h"
#include "profiler/cuda/Driver.h"
#include "profiler/cuda/TensorMap.h"

namespace ts::rt {

/// One tensor parameter of a generated kernel, in kernel-parameter order. The kernel receives a
/// plain device pointer to a dense row-major array of `dtype` (int4/uint4 packed two per byte).
struct TensorParam {
    std::string name;  ///< user-facing name, e.g. "A"
    ir::DType dtype = ir::DType::Float32;
    std::vector<int64_t> shape;  ///< extents; a negative extent matches any size (dynamic dim)
    bool isOutput = false;  ///< written by the kernel (poisoned before launch, downloaded after)
};

/// Grid and block dimensions (CUDA Programming Guide, "Thread Hierarchy") and dynamic shared
/// memory in bytes. Values above 48 KiB are opted in per function before launch.
struct LaunchConfig {
    unsigned grid[3] = {1, 1, 1};
    unsigned block[3] = {1, 1, 1};
    size_t dynamicSmemBytes = 0;
    /// A kernel with a grid barrier (T.sync_grid, KernelInfo::cooperative): launched with
    /// cuLaunchCooperativeKernel after checking that every block can be resident at once.
    bool cooperative = false;
};

/// What a caller actually passes for one parameter: its dtype and shape.
struct ArgSpec {
    ir::DType dtype = ir::DType::Float32;
    std::vector<int64_t> shape;
};

/// A scalar kernel argument passed by value after the tensors (a symbolic size or a scalar
/// parameter; compiler/LaunchArgs.h). Encoded as the C type of `dtype` (int, long long,
/// unsigned, float, double, bool).
struct ScalarValue {
    ir::DType dtype = ir::DType::Int32;
    double value = 0;
};

/// A tensor already in device memory, for launch(): `bytes` is the allocation size, checked
/// against the size the tensor needs.
struct KernelArg {
    ir::DType dtype = ir::DType::Float32;
    std::vector<int64_t> shape;
    cu::DevicePtr ptr = 0;
    size_t bytes = 0;
};

/// Checks `actual` against `signature`: the count, then for each parameter its dtype, rank and
/// extents. Returns nullopt when everything matches, else one line per problem, e.g.
///   argument 'A' (#0): expected rank 2 with shape (4096, 4096), got rank 3 (2, 4, 8)
///   argument 'B' (#1): expected dtype float16, got float32
///   expected 3 arguments (A, B, C), got 2
std::optional<std::string> checkArguments(const std::vector<TensorParam>& signature,
                                          const std::vector<ArgSpec>& actual);

/// Checks launch dimensions against the CUDA limits (grid.x < 2^31, grid.y/z <= 65535, block.z
/// <= 64, threads per block <= maxThreadsPerBlock, no zero extent) and dynamic shared memory
/// against maxDynamicSmemBytes. Returns nullopt when valid, else the reason. Pure.
std::optional<std::string> checkLaunchConfig(const LaunchConfig& c, int maxThreadsPerBlock = 1024,
                                             size_t maxDynamicSmemBytes = SIZE_MAX);

/// "grid (128, 1, 1) block (256, 1, 1) smem 49152 B" for logs and errors.
std::string describe(const LaunchConfig& c);

/// Owning device allocation (cuMemAlloc / cuMemFree). Move-only. A zero-byte buffer holds no
/// allocation and a null pointer; copies to and from it are no-ops.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    /// Allocates `bytes` (uninitialised). Throws CudaError (e.g. CUDA_ERROR_OUT_OF_MEMORY).
    explicit DeviceBuffer(size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& o) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    cu::DevicePtr ptr() const { return m_ptr; }
    size_t bytes() const { return m_bytes; }
    /// Copies host bytes to the start of the buffer (synchronous). Throws std::invalid_argument if
    /// src is larger than the buffer.
    void upload(std::span<const uint8_t> src);
    /// Copies the whole buffer to the host (synchronous; waits for earlier work on the stream).
    std::vector<uint8_t> download() const;
    /// Sets every byte to `value` (cuMemsetD8, ordered on the legacy default stream).
    void fill(uint8_t value);

private:
    void release() noexcept;
    cu::DevicePtr m_ptr = 0;
    size_t m_bytes = 0;
};

/// Static facts of a compiled kernel (cuFuncGetAttribute), shown in the IDE's resource view.
struct FunctionAttributes {
    int numRegs = 0;             ///< registers per thread
    int staticSmemBytes = 0;     ///< statically declared shared memory, bytes
    int localBytes = 0;          ///< local memory (spills, stack) per thread, bytes
    int maxThreadsPerBlock = 0;  ///< most threads per block this kernel can launch with
};

/// A loaded cubin (cuModuleLoadData / cuModuleUnload). Move-only; thread-safe lookups.
class Module {
public:
    /// Loads `cubin` into the current context. Throws CudaError (CUDA_ERROR_NO_BINARY_FOR_GPU when
    /// the cubin is for another architecture, CUDA_ERROR_INVALID_IMAGE for garbage).
    explicit Module(std::span<const char> cubin);
    ~Module();
    Module(Module&& o) noexcept;
    Module& operator=(Module&&) = delete;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    /// The kernel `name` (must be extern "C"). Throws CudaError (CUDA_ERROR_NOT_FOUND) if absent.
    cu::Function function(const std::string& name) const;
    /// Like function(), and raises the kernel's dynamic shared-memory limit to `dynamicSmemBytes`
    /// when that exceeds the 48 KiB default (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
    /// CUDA Programming Guide, "Shared Memory" opt-in). Remembers the largest value set.
    cu::Function prepare(const std::string& name, size_t dynamicSmemBytes) const;
    /// Registers, static/local memory and thread limit of kernel `name`.
    FunctionAttributes attributes(const std::string& name) const;

private:
    struct Entry {
        cu::Function fn = nullptr;
        size_t smemOptIn = 48 * 1024;
    };
    Entry& entry(const std::string& name) const;  // requires m_mutex held

    cu::Module m_module = nullptr;
    mutable std::mutex m_mutex;
    mutable std::map<std::string, Entry> m_functions;
};

/// Checks `args` against `signature` (checkArguments plus each buffer's size) and `config`
/// (checkLaunchConfig), then launches `kernel` asynchronously on `stream` with one device pointer
/// per parameter. Throws std::invalid_argument for bad arguments or dimensions (nothing is
/// launched) and CudaError for driver errors; a fault inside the kernel surfaces at the next
/// synchronising call, and leaves the context unusable (the worker process restarts).
void launch(const Module& module, const std::string& kernel, const LaunchConfig& config,
            const std::vector<TensorParam>& signature, const std::vector<KernelArg>& args,
            cu::Stream stream = nullptr);

/// The launch itself with no checks: one device pointer per kernel parameter, `fn` already
/// prepared for config.dynamicSmemBytes (Module::prepare). For timing loops, after launch() or
/// checkArguments() has validated the same arguments once. Throws CudaError.
/// `maps` are TMA tensor maps (profiler/cuda/TensorMap.h), passed by value after the scalars.
void launchRaw(cu::Function fn, const LaunchConfig& config, std::span<const cu::DevicePtr> ptrs,
               cu::Stream stream = nullptr, std::span<const ScalarValue> scalars = {},
               std::span<const TensorMapBits> maps = {});

/// The error text of a cooperative launch (LaunchConfig::cooperative) of `gridBlocks` blocks
/// when at most blocksPerSm x smCount blocks can be resident (CUDA Programming Guide, "Grid
/// Synchronization": the grid must not exceed the co-resident maximum, else the launch fails
/// with CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE); empty when the grid fits.
std::string coResidencyError(uint64_t gridBlocks, int blocksPerSm, int smCount, const LaunchConfig& config);

/// Throws std::invalid_argument (coResidencyError's text) when the cooperative grid of `config`
/// cannot be resident at once on the current device (cuOccupancyMaxActiveBlocksPerMultiprocessor
/// x the SM count of the current context's device).
void checkCoResident(cu::Function fn, const LaunchConfig& config);

}  // namespace ts::rt
