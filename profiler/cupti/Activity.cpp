// CUPTI Activity API through dlopen (Activity.h): register buffer callbacks once, enable
// CONCURRENT_KERNEL around the work, flush, and read the kernel records.
#include "profiler/cupti/Activity.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#if defined(__has_include)
#if __has_include(<cupti_activity.h>)
#define TS_CUPTI_ACTIVITY 1
#include <cupti_activity.h>
#endif
#endif

namespace ts::rt::cupti {

#ifndef TS_CUPTI_ACTIVITY
ActivityTrace traceKernels(const std::function<void()>& work) {
    ActivityTrace t;
    t.error = "built without the CUPTI headers (cupti_activity.h)";
    work();
    return t;
}
#else
namespace {

struct ActivityApi {
    bool ok = false;
    std::string why;
    decltype(&::cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&::cuptiActivityEnable) enable = nullptr;
    decltype(&::cuptiActivityDisable) disable = nullptr;
    decltype(&::cuptiActivityFlushAll) flushAll = nullptr;
    decltype(&::cuptiActivityGetNextRecord) nextRecord = nullptr;
    decltype(&::cuptiActivityGetNumDroppedRecords) droppedRecords = nullptr;
};

// The callbacks get no user pointer: the records of the trace in progress go here.
std::mutex g_mutex;
ActivityTrace* g_trace = nullptr;

constexpr size_t kBufferBytes = 8u << 20;

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

ActivityApi& api();

void CUPTIAPI bufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t,
                              size_t validSize) {
    ActivityApi& a = api();
    CUpti_Activity* rec = nullptr;
    std::lock_guard lock(g_mutex);
    while (a.nextRecord(buffer, validSize, &rec) == CUPTI_SUCCESS) {
        if (!g_trace) continue;
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
            rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        // start/end/name sit at the same offsets in every CUpti_ActivityKernelN since 4.
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(rec);
        g_trace->kernels.push_back({k->name ? k->name : "", k->start, k->end});
    }
    size_t dropped = 0;
    if (g_trace && a.droppedRecords(ctx, streamId, &dropped) == CUPTI_SUCCESS)
        g_trace->dropped += dropped;
    std::free(buffer);
}

ActivityApi& api() {
    static ActivityApi a;
    static std::once_flag once;
    std::call_once(once, [] {
        void* h = nullptr;
        for (const char* n : {"libcupti.so", "libcupti.so.13", "libcupti.so.12",
                              "/usr/local/cuda/lib64/libcupti.so",
                              "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"})
            if ((h = dlopen(n, RTLD_NOW | RTLD_GLOBAL))) break;
        if (!h) {
            a.why = "libcupti.so not found (install the CUDA toolkit's CUPTI or set "
                    "LD_LIBRARY_PATH)";
            return;
        }
#define TS_LOAD(field, sym) a.field = reinterpret_cast<decltype(a.field)>(dlsym(h, #sym));
        TS_LOAD(registerCallbacks, cuptiActivityRegisterCallbacks)
        TS_LOAD(enable, cuptiActivityEnable)
        TS_LOAD(disable, cuptiActivityDisable)
        TS_LOAD(flushAll, cuptiActivityFlushAll)
        TS_LOAD(nextRecord, cuptiActivityGetNextRecord)
        TS_LOAD(droppedRecords, cuptiActivityGetNumDroppedRecords)
#undef TS_LOAD
        if (!a.registerCallbacks || !a.enable || !a.disable || !a.flushAll || !a.nextRecord ||
            !a.droppedRecords) {
            a.why = "libcupti lacks the Activity API entry points";
            return;
        }
        if (CUptiResult r = a.registerCallbacks(bufferRequested, bufferCompleted);
            r != CUPTI_SUCCESS) {
            a.why = "cuptiActivityRegisterCallbacks failed (CUPTI error " +
                    std::to_string(int(r)) + ")";
            return;
        }
        a.ok = true;
    });
    return a;
}

}  // namespace

ActivityTrace traceKernels(const std::function<void()>& work) {
    ActivityTrace t;
    ActivityApi& a = api();
    if (!a.ok) {
        t.error = a.why;
        work();
        return t;
    }
    {
        std::lock_guard lock(g_mutex);
        g_trace = &t;
    }
    CUptiResult r = a.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS) {
        std::lock_guard lock(g_mutex);
        g_trace = nullptr;
        t.error = "cuptiActivityEnable(CONCURRENT_KERNEL) failed (CUPTI error " +
                  std::to_string(int(r)) + ")";
        work();
        return t;
    }
    work();
    a.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    a.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::lock_guard lock(g_mutex);
    g_trace = nullptr;
    t.ok = !t.kernels.empty();
    if (!t.ok) t.error = "CUPTI recorded no kernel";
    return t;
}
#endif

}  // namespace ts::rt::cupti
