// The CUDA driver API, loaded at run time. libcuda.so.1 is dlopen'ed (never linked) so tilec and
// the IDE start on machines without an NVIDIA driver and fall back to the interpreter there
// (DESIGN.md §1, §3). This header declares only the handful of opaque handle types and entry
// points TileScope uses, with the ABI of cuda.h (CUDA 12/13); it does not include cuda.h, so it
// compiles without the toolkit. Every call made through TS_CU turns a failure into a CudaError
// that names the entry point and carries the driver's own error name and text.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ts::rt {

/// Driver API handle types, ABI-identical to cuda.h's (opaque pointers, int device, 64-bit
/// device pointers). Kept in their own namespace so they never clash with cuda.h's names.
namespace cu {
using Result = int;                    ///< CUresult; 0 = CUDA_SUCCESS
using Device = int;                    ///< CUdevice
using DevicePtr = unsigned long long;  ///< CUdeviceptr (always 64-bit on 64-bit hosts)
using Context = struct CtxSt*;
using Module = struct ModSt*;
using Function = struct FuncSt*;
using Stream = struct StreamSt*;  ///< nullptr = the legacy default stream
using Event = struct EventSt*;

// Enumerator values from cuda.h (CUdevice_attribute, CUfunction_attribute); they are ABI and
// never change between releases. tests/unit/RuntimeDriverTest.cpp checks them against cuda.h.
inline constexpr int kAttrMaxThreadsPerBlock = 1;
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrL2CacheSize = 38;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
inline constexpr int kAttrMaxSharedMemoryPerMultiprocessor = 81;
inline constexpr int kAttrMaxSharedMemoryPerBlockOptin = 97;
inline constexpr int kFuncAttrMaxThreadsPerBlock = 0;
inline constexpr int kFuncAttrSharedSizeBytes = 1;
inline constexpr int kFuncAttrLocalSizeBytes = 3;
inline constexpr int kFuncAttrNumRegs = 4;
inline constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8;
inline constexpr int kErrorNotReady = 600;  ///< CUDA_ERROR_NOT_READY (event/stream query)
}  // namespace cu

/// A failed driver API or NVRTC call. what() reads
/// "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
class CudaError : public std::runtime_error {
public:
    CudaError(std::string call, int code, const std::string& message)
        : std::runtime_error(call + ": " + message), m_call(std::move(call)), m_code(code) {}
    /// Entry point that failed, as exported by libcuda ("cuLaunchKernel", "cuMemAlloc_v2").
    const std::string& call() const { return m_call; }
    /// The CUresult value.
    int code() const { return m_code; }

private:
    std::string m_call;
    int m_code;
};

/// The loaded driver: one process-wide instance holding resolved entry points. Pointers use the
/// exact exported symbol (the `_v2` variants where cuda.h maps a name to one), so behaviour is the
/// same as code compiled against cuda.h without per-thread default streams.
struct Driver {
    cu::Result (*init)(unsigned flags);
    cu::Result (*driverGetVersion)(int* version);
    cu::Result (*getErrorName)(cu::Result, const char** str);
    cu::Result (*getErrorString)(cu::Result, const char** str);
    cu::Result (*deviceGet)(cu::Device*, int ordinal);
    cu::Result (*deviceGetCount)(int*);
    cu::Result (*deviceGetName)(char* name, int len, cu::Device);
    cu::Result (*deviceGetAttribute)(int* value, int attrib, cu::Device);
    cu::Result (*deviceTotalMem)(size_t* bytes, cu::Device);
    cu::Result (*primaryCtxRetain)(cu::Context*, cu::Device);
    cu::Result (*primaryCtxRelease)(cu::Device);
    cu::Result (*ctxSetCurrent)(cu::Context);
    cu::Result (*ctxSynchronize)();
    cu::Result (*ctxGetDevice)(cu::Device*);
    cu::Result (*memGetInfo)(size_t* freeBytes, size_t* totalBytes);
    cu::Result (*moduleLoadData)(cu::Module*, const void* image);
    cu::Result (*moduleUnload)(cu::Module);
    cu::Result (*moduleGetFunction)(cu::Function*, cu::Module, const char* name);
    cu::Result (*funcGetAttribute)(int* value, int attrib, cu::Function);
    cu::Result (*funcSetAttribute)(cu::Function, int attrib, int value);
    cu::Result (*launchKernel)(cu::Function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned smemBytes, cu::Stream,
                               void** params, void** extra);
    /// cuLaunchCooperativeKernel (CUDA Driver API, "Execution Control"): every block resident
    /// at once, so cooperative_groups::this_grid().sync() can complete.
    cu::Result (*launchCooperativeKernel)(cu::Function, unsigned gx, unsigned gy, unsigned gz,
                                          unsigned bx, unsigned by, unsigned bz, unsigned smemBytes,
                                          cu::Stream, void** params);
    /// cuOccupancyMaxActiveBlocksPerMultiprocessor: resident blocks of `fn` per SM.
    cu::Result (*occupancyMaxActiveBlocksPerMultiprocessor)(int* numBlocks, cu::Function,
                                                            int blockSize, size_t dynamicSmemBytes);
    cu::Result (*memAlloc)(cu::DevicePtr*, size_t bytes);
    cu::Result (*memFree)(cu::DevicePtr);
    cu::Result (*memcpyHtoD)(cu::DevicePtr dst, const void* src, size_t bytes);
    cu::Result (*memcpyDtoH)(void* dst, cu::DevicePtr src, size_t bytes);
    cu::Result (*memcpyDtoD)(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes);
    cu::Result (*memsetD8)(cu::DevicePtr, unsigned char value, size_t count);
    cu::Result (*memsetD8Async)(cu::DevicePtr, unsigned char value, size_t count, cu::Stream);
    cu::Result (*streamSynchronize)(cu::Stream);
    cu::Result (*eventCreate)(cu::Event*, unsigned flags);
    cu::Result (*eventDestroy)(cu::Event);
    cu::Result (*eventRecord)(cu::Event, cu::Stream);
    cu::Result (*eventSynchronize)(cu::Event);
    cu::Result (*eventElapsedTime)(float* ms, cu::Event start, cu::Event end);

    /// The process-wide driver, loaded and cuInit'ed on first use (thread-safe). Returns nullptr
    /// and sets *why (if given) when libcuda.so.1 cannot be loaded, an entry point is missing, or
    /// cuInit fails (e.g. no device, or the toolkit's stub library). The library path can be
    /// overridden with $TILESCOPE_LIBCUDA (tests use it to point at a missing or stub library).
    static const Driver* get(std::string* why = nullptr);
    /// Like get() but throws std::runtime_error carrying get()'s reason when unavailable.
    static const Driver& require();

    /// Throws CudaError naming `call` unless r == CUDA_SUCCESS.
    void check(cu::Result r, const char* call) const;
    /// Throws CudaError for the failed result `r` of the Driver member named `member` ("memAlloc"),
    /// naming the exported symbol ("cuMemAlloc_v2"). Used by TS_CU.
    [[noreturn]] void fail(cu::Result r, const char* member) const;
    /// "CUDA_ERROR_INVALID_VALUE (invalid argument)", or "CUresult 999" if the driver has no name.
    std::string describe(cu::Result r) const;
};

/// True when a usable driver is present (see Driver::get); otherwise fills *why.
bool available(std::string* why = nullptr);

}  // namespace ts::rt

/// Calls a driver entry point through `drv` and throws CudaError on failure, naming the call.
/// Example: TS_CU(drv, memAlloc, &ptr, bytes);
#define TS_CU(drv, fn, ...)                                             \
    do {                                                                \
        const ::ts::rt::cu::Result tsCuResult_ = (drv).fn(__VA_ARGS__); \
        if (tsCuResult_ != 0) (drv).fail(tsCuResult_, #fn);             \
    } while (0)

namespace ts::rt::detail {
/// Exported libcuda symbol of the Driver member `member` ("memAlloc" -> "cuMemAlloc_v2").
const char* symbolOf(const char* member);
/// Loads the library at `path` into a throw-away Driver, resolves every entry point and calls
/// cuInit, without touching the process-wide instance. Returns "" on success, else the reason
/// Driver::get would give. For tests and `tilec doctor`.
std::string tryLoad(const std::string& path);
}  // namespace ts::rt::detail
