// One profiled execution of a kernel (`tilec profile`, the worker's "profile" op, tune): the
// checked run with CUDA-event timing, the same launches under CUPTI's Activity API (the GPU's
// own kernel durations), and one launch under the Range Profiler for a default set of hardware
// counters (DESIGN.md §3, issue 12). Registers, static shared memory and local (spill) bytes
// come from the loaded kernel (cuFuncGetAttribute), not from counters.
//
// Metric names are Nsight Compute's (ncu --query-metrics on GH100); several have changed across
// chips, so each entry lists candidates and the first the chip accepts is used. Which one was
// used is recorded next to the value.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profiler/Runtime.h"

namespace ts::rt {

/// One metric of the default set: a stable key for JSON, the results store and the compare view.
struct MetricSpec {
    std::string key;    ///< e.g. "dram_read_bytes"
    std::string label;  ///< column title, e.g. "DRAM read"
    std::string unit;   ///< "ns", "B", "%", "" (a count)
    /// CUPTI metric names, tried in order (the first the chip accepts is measured).
    std::vector<std::string> candidates;
    /// True when smaller is better (duration, conflicts) for highlighting the best variant.
    bool lowerIsBetter = true;
};

/// duration, DRAM bytes read/written, achieved occupancy, SM and tensor-pipe throughput, shared
/// ld/st/ldmatrix wavefronts, shared ld/st bank conflicts, L2 hit rate.
const std::vector<MetricSpec>& defaultMetrics();
/// The spec with `key`, or null.
const MetricSpec* findMetric(const std::string& key);

struct ProfileOptions {
    /// Keys of defaultMetrics() or raw CUPTI metric names; empty = the whole default set.
    std::vector<std::string> metrics;
    int eventReps = 20;     ///< CUDA-event timed launches of the checked run
    int activityReps = 20;  ///< launches recorded by the Activity API
    bool counters = true;   ///< run the Range Profiler
};
nlohmann::json profileOptionsJson(const ProfileOptions& o);
/// Reads the fields profileOptionsJson wrote (missing ones keep their defaults).
ProfileOptions profileOptionsFromJson(const nlohmann::json& j);

/// Runs `req` (its outputs are those of the first, checked launch) and fills `profile`:
///   {"event": {"median_ms", "min_ms", "reps"},
///    "activity": {"median_ms", "min_ms", "kernels"} | {"error"},
///    "counters": {"ok", "chip", "values": {key: number}, "names": {key: CUPTI name},
///                 "dropped": [...], "error", "permitted"},
///    "resources": {"registers", "static_smem", "local_bytes"}}
/// A counter failure (no CUPTI, counters restricted to admins) is recorded, not a run failure.
RunResult profileRun(GpuRuntime& gpu, const RunRequest& req, const ProfileOptions& options,
                     nlohmann::json& profile);

/// Median of `v` (mean of the middle two for an even count); 0 for none.
double medianOf(std::vector<double> v);

}  // namespace ts::rt
