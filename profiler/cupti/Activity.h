// Kernel durations from CUPTI's Activity API (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL): the GPU's
// own start/end timestamps of every kernel launched inside a callback, without the launch
// overhead that CUDA events around a launch include. `tilec profile` reports the median next to
// the event timing (issue 12: the two agree within 5% for a kernel longer than a few µs).
// libcupti is dlopen'ed like in RangeProfiler.h; every failure is a message, never a throw.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ts::rt::cupti {

/// One kernel execution as CUPTI recorded it.
struct KernelActivity {
    std::string name;   ///< the kernel's (extern "C") name
    uint64_t startNs = 0, endNs = 0;  ///< GPU timestamps, ns
    double durationMs() const { return (endNs - startNs) * 1e-6; }
};

struct ActivityTrace {
    bool ok = false;
    std::string error;  ///< why not ok
    std::vector<KernelActivity> kernels;  ///< in completion order
    size_t dropped = 0;                   ///< records CUPTI dropped (buffers full)
};

/// Records every kernel `work` launches (work must synchronise before returning). Not
/// reentrant; one trace at a time per process.
ActivityTrace traceKernels(const std::function<void()>& work);

}  // namespace ts::rt::cupti
