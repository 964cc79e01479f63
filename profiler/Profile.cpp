#include "profiler/Profile.h"

#include <algorithm>

#include "profiler/cupti/Activity.h"
#include "profiler/cupti/RangeProfiler.h"

namespace ts::rt {

const std::vector<MetricSpec>& defaultMetrics() {
    // Names: Nsight Compute 2024/2025 "Speed Of Light", "Memory Workload Analysis" and
    // "Occupancy" sections (the metrics those sections read on sm_80/sm_90).
    static const std::vector<MetricSpec> k = {
        {"duration", "duration", "ns", {"gpu__time_duration.sum"}, true},
        {"dram_read_bytes", "DRAM read", "B", {"dram__bytes_read.sum"}, true},
        {"dram_write_bytes", "DRAM written", "B", {"dram__bytes_write.sum"}, true},
        {"achieved_occupancy",
         "occupancy",
         "%",
         {"sm__warps_active.avg.pct_of_peak_sustained_active"},
         false},
        {"sm_throughput",
         "SM throughput",
         "%",
         {"sm__throughput.avg.pct_of_peak_sustained_elapsed"},
         false},
        {"tensor_pipe",
         "tensor pipe",
         "%",
         {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
          "sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active",
          "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"},
         false},
        {"shared_ld_wavefronts",
         "smem ld wavefronts",
         "",
         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
         true},
        {"shared_st_wavefronts",
         "smem st wavefronts",
         "",
         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
         true},
        {"ldsm_wavefronts",
         "ldmatrix wavefronts",
         "",
         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"},
         true},
        {"bank_conflicts_ld",
         "bank conflicts ld",
         "",
         {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"},
         true},
        {"bank_conflicts_st",
         "bank conflicts st",
         "",
         {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
         true},
        {"l2_hit_rate", "L2 hit rate", "%", {"lts__t_sector_hit_rate.pct"}, false},
    };
    return k;
}

const MetricSpec* findMetric(const std::string& key) {
    for (const auto& m : defaultMetrics())
        if (m.key == key) return &m;
    return nullptr;
}

nlohmann::json profileOptionsJson(const ProfileOptions& o) {
    return {{"metrics", o.metrics},
            {"event_reps", o.eventReps},
            {"activity_reps", o.activityReps},
            {"counters", o.counters}};
}

ProfileOptions profileOptionsFromJson(const nlohmann::json& j) {
    ProfileOptions o;
    const nlohmann::json& p = j.contains("profile_options") ? j.at("profile_options") : j;
    o.metrics = p.value("metrics", o.metrics);
    o.eventReps = p.value("event_reps", o.eventReps);
    o.activityReps = p.value("activity_reps", o.activityReps);
    o.counters = p.value("counters", o.counters);
    return o;
}

double medianOf(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

namespace {

/// (key, candidates) of the requested metrics: default-set keys expand to their candidates, a
/// raw CUPTI name is its own key.
std::vector<std::pair<std::string, std::vector<std::string>>> requested(const ProfileOptions& o) {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    if (o.metrics.empty()) {
        for (const auto& m : defaultMetrics()) out.push_back({m.key, m.candidates});
        return out;
    }
    for (const auto& name : o.metrics)
        if (const MetricSpec* m = findMetric(name))
            out.push_back({m->key, m->candidates});
        else
            out.push_back({name, {name}});
    return out;
}

}  // namespace

RunResult profileRun(GpuRuntime& gpu, const RunRequest& req, const ProfileOptions& options,
                     nlohmann::json& profile) {
    profile = nlohmann::json::object();
    // 1. The checked run, timed with CUDA events.
    RunRequest timed = req;
    timed.timingReps = std::max(options.eventReps, 1);
    RunResult r = gpu.run(timed);
    if (!r.ok) return r;
    profile["resources"] = {{"registers", r.attributes.numRegs},
                            {"static_smem", r.attributes.staticSmemBytes},
                            {"local_bytes", r.attributes.localBytes}};
    if (r.timing)
        profile["event"] = {{"median_ms", r.timing->medianMs},
                            {"min_ms", r.timing->minMs},
                            {"reps", r.timing->reps}};

    // 2. The same launches under the Activity API: the GPU's start/end of each kernel.
    RunRequest quiet = req;
    quiet.timingReps = std::max(options.activityReps, 1);
    RunResult again;
    auto trace = cupti::traceKernels([&] { again = gpu.run(quiet); });
    if (!again.ok) return again;  // a fault the first run did not show (rare): report it
    if (trace.ok) {
        std::vector<double> ms;
        for (const auto& k : trace.kernels)
            if (k.name == req.kernel && k.endNs > k.startNs) ms.push_back(k.durationMs());
        // The first record is the checked launch on cold caches; the timed ones follow.
        if (ms.size() > 1) ms.erase(ms.begin());
        profile["activity"] = {
            {"median_ms", medianOf(ms)},
            {"min_ms", ms.empty() ? 0.0 : *std::min_element(ms.begin(), ms.end())},
            {"kernels", ms.size()},
            {"dropped", trace.dropped}};
    } else {
        profile["activity"] = {{"error", trace.error}};
    }

    // 3. One launch under the Range Profiler (kernel replay: CUPTI saves and restores memory).
    if (!options.counters) return r;
    nlohmann::json& c = profile["counters"];
    const auto want = requested(options);
    std::vector<std::string> names;
    for (const auto& [key, cands] : want) names.insert(names.end(), cands.begin(), cands.end());
    RunRequest once = req;
    once.timingReps = 0;
    RunResult third;
    gpu.makeCurrent();
    auto m = cupti::measureKernels(gpu.device().ordinal, names, [&] { third = gpu.run(once); });
    if (!third.ok) return third;
    c["ok"] = m.ok;
    c["chip"] = m.chip;
    c["ranges"] = m.ranges;
    c["permitted"] = m.error.find("not permitted") == std::string::npos;
    if (!m.error.empty()) c["error"] = m.error;
    c["values"] = nlohmann::json::object();
    c["names"] = nlohmann::json::object();
    c["dropped"] = nlohmann::json::array();
    for (const auto& [key, cands] : want) {
        bool found = false;
        for (const auto& n : cands)
            if (auto it = m.values.find(n); it != m.values.end()) {
                c["values"][key] = it->second;
                c["names"][key] = n;
                found = true;
                break;
            }
        if (!found && m.ok) c["dropped"].push_back(key);
    }
    return r;
}

}  // namespace ts::rt
