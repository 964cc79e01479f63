#include "profiler/cuda/Driver.h"

#include <cstdlib>
#include <cstring>
#include <type_traits>

#include <dlfcn.h>

namespace ts::rt {
namespace {

/// One entry point: the Driver member, the exported symbol, and an older symbol to fall back to
/// when the installed driver predates the preferred one (cuEventElapsedTime_v2 is CUDA 12.8+).
struct Entry {
    const char* member;
    const char* symbol;
    const char* fallback;
    void (*bind)(Driver&, void*);
};

/// Stores a dlsym result into the Driver member M (POSIX guarantees void* <-> function pointer).
template <auto M>
void bindTo(Driver& d, void* p) {
    d.*M = reinterpret_cast<std::remove_reference_t<decltype(d.*M)>>(p);
}

// Symbol choices follow cuda.h's `#define cuX cuX_v2` table (CUDA 13.0, lines ~80-175), without
// the per-thread-default-stream (_ptsz/_ptds) variants.
#define TS_ENTRY(member, sym, fb) \
    Entry { #member, sym, fb, &bindTo < &Driver::member> }
const Entry kEntries[] = {
    TS_ENTRY(init, "cuInit", nullptr),
    TS_ENTRY(driverGetVersion, "cuDriverGetVersion", nullptr),
    TS_ENTRY(getErrorName, "cuGetErrorName", nullptr),
    TS_ENTRY(getErrorString, "cuGetErrorString", nullptr),
    TS_ENTRY(deviceGet, "cuDeviceGet", nullptr),
    TS_ENTRY(deviceGetCount, "cuDeviceGetCount", nullptr),
    TS_ENTRY(deviceGetName, "cuDeviceGetName", nullptr),
    TS_ENTRY(deviceGetAttribute, "cuDeviceGetAttribute", nullptr),
    TS_ENTRY(deviceTotalMem, "cuDeviceTotalMem_v2", nullptr),
    TS_ENTRY(primaryCtxRetain, "cuDevicePrimaryCtxRetain", nullptr),
    TS_ENTRY(primaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", nullptr),
    TS_ENTRY(ctxSetCurrent, "cuCtxSetCurrent", nullptr),
    TS_ENTRY(ctxSynchronize, "cuCtxSynchronize", nullptr),
    TS_ENTRY(ctxGetDevice, "cuCtxGetDevice", nullptr),
    TS_ENTRY(memGetInfo, "cuMemGetInfo_v2", nullptr),
    TS_ENTRY(moduleLoadData, "cuModuleLoadData", nullptr),
    TS_ENTRY(moduleUnload, "cuModuleUnload", nullptr),
    TS_ENTRY(moduleGetFunction, "cuModuleGetFunction", nullptr),
    TS_ENTRY(funcGetAttribute, "cuFuncGetAttribute", nullptr),
    TS_ENTRY(funcSetAttribute, "cuFuncSetAttribute", nullptr),
    TS_ENTRY(launchKernel, "cuLaunchKernel", nullptr),
    TS_ENTRY(launchCooperativeKernel, "cuLaunchCooperativeKernel", nullptr),
    TS_ENTRY(occupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor", nullptr),
    TS_ENTRY(memAlloc, "cuMemAlloc_v2", nullptr),
    TS_ENTRY(memFree, "cuMemFree_v2", nullptr),
    TS_ENTRY(memcpyHtoD, "cuMemcpyHtoD_v2", nullptr),
    TS_ENTRY(memcpyDtoH, "cuMemcpyDtoH_v2", nullptr),
    TS_ENTRY(memcpyDtoD, "cuMemcpyDtoD_v2", nullptr),
    TS_ENTRY(memsetD8, "cuMemsetD8_v2", nullptr),
    TS_ENTRY(memsetD8Async, "cuMemsetD8Async", nullptr),
    TS_ENTRY(streamSynchronize, "cuStreamSynchronize", nullptr),
    TS_ENTRY(eventCreate, "cuEventCreate", nullptr),
    TS_ENTRY(eventDestroy, "cuEventDestroy_v2", nullptr),
    TS_ENTRY(eventRecord, "cuEventRecord", nullptr),
    TS_ENTRY(eventSynchronize, "cuEventSynchronize", nullptr),
    TS_ENTRY(eventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
};
#undef TS_ENTRY

/// Names of common CUresult values, for drivers (or the stub library) that cannot name them.
const char* fallbackErrorName(cu::Result r) {
    switch (r) {
        case 1:
            return "CUDA_ERROR_INVALID_VALUE";
        case 2:
            return "CUDA_ERROR_OUT_OF_MEMORY";
        case 3:
            return "CUDA_ERROR_NOT_INITIALIZED";
        case 4:
            return "CUDA_ERROR_DEINITIALIZED";
        case 34:
            return "CUDA_ERROR_STUB_LIBRARY (the toolkit's stub libcuda, not a real driver)";
        case 35:
            return "CUDA_ERROR_INSUFFICIENT_DRIVER (driver older than the runtime needs)";
        case 100:
            return "CUDA_ERROR_NO_DEVICE";
        case 200:
            return "CUDA_ERROR_INVALID_IMAGE";
        case 201:
            return "CUDA_ERROR_INVALID_CONTEXT";
        case 209:
            return "CUDA_ERROR_NO_BINARY_FOR_GPU";
        case 218:
            return "CUDA_ERROR_INVALID_PTX";
        case 222:
            return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
        case 400:
            return "CUDA_ERROR_INVALID_HANDLE";
        case 500:
            return "CUDA_ERROR_NOT_FOUND";
        case 600:
            return "CUDA_ERROR_NOT_READY";
        case 700:
            return "CUDA_ERROR_ILLEGAL_ADDRESS";
        case 701:
            return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
        case 702:
            return "CUDA_ERROR_LAUNCH_TIMEOUT";
        case 715:
            return "CUDA_ERROR_ILLEGAL_INSTRUCTION";
        case 716:
            return "CUDA_ERROR_MISALIGNED_ADDRESS";
        case 719:
            return "CUDA_ERROR_LAUNCH_FAILED";
        case 803:
            return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
        case 804:
            return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
        case 999:
            return "CUDA_ERROR_UNKNOWN";
        default:
            return nullptr;
    }
}

struct Loaded {
    Driver driver{};
    std::string error;                               ///< empty when usable
    const char* resolved[std::size(kEntries)] = {};  ///< symbol actually bound, per entry
};

Loaded load(const std::string& path) {
    Loaded l;
    // Never dlclose'd: the driver must outlive every static that still holds device resources.
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* e = dlerror();
        l.error = "cannot load the NVIDIA driver library " + path + " (" +
                  (e ? e : "unknown dlopen error") + "); no NVIDIA driver installed?";
        return l;
    }
    for (size_t i = 0; i < std::size(kEntries); ++i) {
        const Entry& e = kEntries[i];
        void* p = dlsym(lib, e.symbol);
        l.resolved[i] = e.symbol;
        if (!p && e.fallback) {
            p = dlsym(lib, e.fallback);
            l.resolved[i] = e.fallback;
        }
        if (!p) {
            l.error = std::string("the NVIDIA driver library ") + path + " lacks " + e.symbol +
                      " (driver too old?)";
            return l;
        }
        e.bind(l.driver, p);
    }
    const cu::Result r = l.driver.init(0);
    if (r != 0) l.error = "cuInit: " + l.driver.describe(r);
    return l;
}

const Loaded& loaded() {
    static const Loaded l = [] {  // thread-safe one-time initialisation
        const char* env = std::getenv("TILESCOPE_LIBCUDA");
        return load(env && *env ? env : "libcuda.so.1");
    }();
    return l;
}

}  // namespace

const Driver* Driver::get(std::string* why) {
    const Loaded& l = loaded();
    if (!l.error.empty()) {
        if (why) *why = l.error;
        return nullptr;
    }
    return &l.driver;
}

const Driver& Driver::require() {
    std::string why;
    const Driver* d = get(&why);
    if (!d) throw std::runtime_error(why);
    return *d;
}

std::string Driver::describe(cu::Result r) const {
    const char* name = nullptr;
    const char* text = nullptr;
    if (getErrorName && getErrorName(r, &name) != 0) name = nullptr;
    if (getErrorString && getErrorString(r, &text) != 0) text = nullptr;
    if (!name) name = fallbackErrorName(r);
    std::string s = name ? name : "CUresult " + std::to_string(r);
    if (text && *text) s += std::string(" (") + text + ")";
    return s;
}

void Driver::check(cu::Result r, const char* call) const {
    if (r != 0) throw CudaError(call, r, describe(r));
}

void Driver::fail(cu::Result r, const char* member) const {
    throw CudaError(detail::symbolOf(member), r, describe(r));
}

bool available(std::string* why) { return Driver::get(why) != nullptr; }

namespace detail {
const char* symbolOf(const char* member) {
    const Loaded& l = loaded();
    for (size_t i = 0; i < std::size(kEntries); ++i)
        if (std::strcmp(kEntries[i].member, member) == 0)
            return l.resolved[i] ? l.resolved[i] : kEntries[i].symbol;
    return member;
}

std::string tryLoad(const std::string& path) { return load(path).error; }
}  // namespace detail

}  // namespace ts::rt
