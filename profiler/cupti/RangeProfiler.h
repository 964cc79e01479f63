// Hardware counters of the kernels launched inside a callback, through CUPTI's Range Profiler
// (CUDA 12.6+/13 API: cupti_range_profiler.h + cupti_profiler_host.h), auto range (one range per
// kernel launch) and kernel replay (CUPTI saves/restores device memory and replays each kernel as
// many passes as the metrics need). Used by `tilec banks --measure` to compare the predicted
// shared-memory wavefronts/conflicts (compiler/analysis/Banks.h) with the l1tex__data_* counters
// (Nsight Compute "Memory Workload Analysis" tables use the same names).
//
// libcupti and libnvperf_host are dlopen'ed on first use, so tilec starts on machines without
// them (like the driver in profiler/cuda/Driver.h); every failure is a message, never a throw.
#pragma once
#include <map>
#include <string>
#include <vector>
#include <functional>

namespace ts::rt::cupti {

/// The counters of the bank analysis: shared ld/st bank conflicts and wavefronts, the ldmatrix
/// (LDSM) wavefronts, and instruction counts for scale. Names as in Nsight Compute 2024+; check
/// them on a device with listMetrics("shared") -- unknown names are dropped with a note.
const std::vector<std::string>& bankMetricNames();

/// Result of one measurement: metric -> value summed over all profiled ranges (kernels).
struct Measurement {
    bool ok = false;
    std::string error;                     ///< why not ok
    std::map<std::string, double> values;  ///< metric name -> sum over ranges
    std::vector<std::string> dropped;      ///< requested metrics this chip does not know
    size_t ranges = 0;                     ///< kernels profiled
    std::string chip;                      ///< e.g. "GH100"
};

/// Profiles every kernel launched by `work` on the current CUDA context of device
/// `deviceIndex` (make it current first) and returns the summed metric values.
Measurement measureKernels(int deviceIndex, const std::vector<std::string>& metrics, const std::function<void()>& work);

/// Base metric names of the device's chip that contain `filter` (empty = all), for checking
/// counter names on a new device. On failure returns an empty list and fills *why.
std::vector<std::string> listMetrics(int deviceIndex, const std::string& filter, std::string* why);

}  // namespace ts::rt::cupti
