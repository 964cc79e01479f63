// parseMeasuredTrace (MeasuredTrace.h).
#include "visualizer/core/MeasuredTrace.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include <nlohmann/json.hpp>

namespace ts::viz {

namespace {
int64_t intOr(const nlohmann::json& o, const char* k, int64_t d) {
    auto it = o.find(k);
    return it != o.end() && it->is_number() ? it->get<int64_t>() : d;
}
double numOr(const nlohmann::json& o, const char* k, double d) {
    auto it = o.find(k);
    return it != o.end() && it->is_number() ? it->get<double>() : d;
}
std::string strOr(const nlohmann::json& o, const char* k) {
    auto it = o.find(k);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

std::optional<MeasuredTrace> parseMeasuredTrace(const std::string& json, std::string* error) {
    auto fail = [&](const std::string& why) -> std::optional<MeasuredTrace> {
        if (error) *error = why;
        return std::nullopt;
    };
    nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
    if (!j.contains("traceEvents") || !j["traceEvents"].is_array()) return fail("no traceEvents: not a Chrome trace");
    const nlohmann::json other = j.value("otherData", nlohmann::json::object());
    if (!other.is_object() || strOr(other, "format") != "tilescope-trace/1")
        return fail("not a `tilec trace` file (otherData.format is not tilescope-trace/1)");
    MeasuredTrace t;
    t.file = strOr(other, "file");
    t.kernel = strOr(other, "kernel");
    t.arch = strOr(other, "arch");
    t.device = strOr(other, "device");
    if (auto p = other.find("plan"); p != other.end() && p->is_object()) {
        t.tripCount = intOr(*p, "trip_count", -1);
        t.stages = intOr(*p, "stages", -1);
        t.unitUs = numOr(*p, "unit_us", 0);
        auto a = p->find("aligned_to_measured_loop");
        t.aligned = a != p->end() && a->is_boolean() && a->get<bool>() && t.unitUs > 0;
    }
    // Processes: 0 = the static plan, 1.. = traced block slots ("block B (measured)").
    std::map<int64_t, int64_t> blockOfPid;
    std::map<std::pair<int64_t, int64_t>, size_t> warpIndex;
    bool haveOrigin = false;
    for (const auto& e : j["traceEvents"]) {
        if (!e.is_object()) continue;
        const std::string ph = strOr(e, "ph");
        const int64_t pid = intOr(e, "pid", -1), tid = intOr(e, "tid", -1);
        if (ph == "M") {
            if (strOr(e, "name") == "process_name" && pid > 0) {
                const std::string name = e.contains("args") ? strOr(e["args"], "name") : "";
                int64_t b = pid - 1;
                if (name.rfind("block ", 0) == 0) b = std::atoll(name.c_str() + 6);
                blockOfPid[pid] = b;
            }
            continue;
        }
        const nlohmann::json args = e.value("args", nlohmann::json::object());
        const double ts = numOr(e, "ts", 0);
        if (pid == 0) {
            // The plan's scale: any event with a logical time fixes the origin.
            if (!haveOrigin && t.aligned && args.is_object() && args.contains("time")) {
                t.originUs = ts - numOr(args, "time", 0) * t.unitUs;
                haveOrigin = true;
            }
            continue;
        }
        if (pid < 0 || tid < 0 || (ph != "X" && ph != "i")) continue;
        const std::string name = strOr(e, "name");
        if (name == "pipelined loop") continue;
        auto key = std::make_pair(pid, tid);
        auto it = warpIndex.find(key);
        if (it == warpIndex.end()) {
            MeasuredWarp w;
            w.block = blockOfPid.count(pid) ? blockOfPid[pid] : pid - 1;
            w.warp = tid;
            it = warpIndex.emplace(key, t.warps.size()).first;
            t.warps.push_back(std::move(w));
        }
        MeasuredSpan s;
        s.startUs = ts;
        s.durUs = ph == "X" ? std::max(0.0, numOr(e, "dur", 0)) : 0;
        s.name = name;
        if (args.is_object()) {
            s.iteration = intOr(args, "iteration", -1);
            s.stage = intOr(args, "stage", -1);
            s.cycles = intOr(args, "cycles", -1);
        }
        t.warps[it->second].spans.push_back(std::move(s));
    }
    if (!haveOrigin) t.aligned = false;
    if (t.warps.empty()) return fail("the trace has no measured warp");
    std::stable_sort(t.warps.begin(), t.warps.end(), [](const MeasuredWarp& a, const MeasuredWarp& b) {
        return a.block != b.block ? a.block < b.block : a.warp < b.warp;
    });
    return t;
}

}  // namespace ts::viz
