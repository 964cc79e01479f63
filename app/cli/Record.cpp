#include "app/cli/Record.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "app/cli/GpuWorker.h"
#include "compiler/analysis/Banks.h"
#include "profiler/store/ResultsStore.h"

namespace ts::cli {

namespace {
bool storeDisabled() {
    const char* p = std::getenv("TILESCOPE_RESULTS");
    return p && std::string(p) == "off";
}
}  // namespace

nlohmann::json baseRecord(const std::string& kind, const CompileResult& r,
                          const CompileFlags& flags, const std::optional<rt::DeviceInfo>& device,
                          const std::string& arch) {
    nlohmann::json j;
    j["id"] = rt::newRecordId();
    j["kind"] = kind;
    j["date"] = rt::utcNow();
    std::error_code ec;
    auto abs = std::filesystem::absolute(flags.file, ec);
    j["file"] = ec ? flags.file : abs.string();
    if (r.source) {
        const std::string text(r.source->text());
        j["source_hash"] = storeDisabled() ? rt::sourceHashOf(text) : rt::ResultsStore().saveSource(text);
    }
    j["kernel"] = r.kernel.name;
    if (const ProgramKernel* k = r.selected()) j["program_kernel"] = k->name;
    nlohmann::json params = nlohmann::json::object();
    for (const auto& p : r.params) params[p.name] = p.value;
    j["params"] = params;
    j["target"] = arch;
    j["compiler"] = rt::compilerVersion();
    j["device"] = device ? device->name : std::string("cpu-interpreter");
    // The sample's work and ideal traffic for these parameters: the compare view's roofline.
    if (r.flops) j["flops"] = *r.flops;
    if (r.bytes) j["bytes"] = *r.bytes;
    if (device && workerDriverVersion() > 0) {
        const int v = workerDriverVersion();
        j["driver"] = std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
    }
    return j;
}

nlohmann::json staticMetrics(const CompileResult& r) {
    nlohmann::json m = nlohmann::json::object();
    m["smem_bytes"] = r.kernel.dynamicSmemBytes;
    m["cooperative"] = r.kernel.cooperative;
    m["threads"] = r.kernel.block[0] * r.kernel.block[1] * r.kernel.block[2];
    m["blocks"] = static_cast<double>(r.kernel.grid[0]) * r.kernel.grid[1] * r.kernel.grid[2];
    if (r.lowered) {
        const auto counters = analysis::kernelCounters(analysis::analyzeBanks(r.lowered));
        if (auto it = counters.find("ld_conflicts"); it != counters.end())
            m["predicted_ld_conflicts"] = it->second;
        if (auto it = counters.find("st_conflicts"); it != counters.end())
            m["predicted_st_conflicts"] = it->second;
    }
    return m;
}

void storeRecord(const nlohmann::json& record) {
    if (storeDisabled()) return;
    std::string why;
    if (!rt::ResultsStore().append(record, &why))
        std::cerr << "tilec: warning: result not stored: " << why << "\n";
}

int runResults(const ResultsCommand& c) {
    rt::ResultsStore store(c.file.empty() ? rt::defaultResultsPath() : c.file);
    size_t skipped = 0;
    std::string why;
    auto all = store.load(&skipped, &why);
    if (!why.empty()) {
        std::cerr << "tilec: error: " << why << "\n";
        return 1;
    }
    std::vector<nlohmann::json> recs;
    for (auto& r : all)
        if (c.kind.empty() || r.value("kind", "") == c.kind) recs.push_back(std::move(r));
    if (c.last > 0 && recs.size() > static_cast<size_t>(c.last))
        recs.erase(recs.begin(), recs.end() - c.last);
    if (skipped)
        std::cerr << "tilec: note: " << skipped << " malformed line(s) of " << store.path()
                  << " skipped\n";
    if (c.format == "json") {
        std::cout << nlohmann::json(recs).dump(2, ' ', false,
                                               nlohmann::json::error_handler_t::replace)
                  << "\n";
        return 0;
    }
    if (c.format == "csv") {
        std::cout << rt::recordsToCsv(recs);
        return 0;
    }
    if (recs.empty()) {
        std::cout << "no results in " << store.path() << "\n";
        return 0;
    }
    // The device column as wide as its longest name, up to 24 ("cpu-interpreter" was cut to 12).
    int deviceWidth = 6;
    for (const auto& r : recs) deviceWidth = std::max(deviceWidth, std::min(24, static_cast<int>(r.value("device", "").size())));
    std::printf("%-20s %-7s %-13s %-24s %-*s %10s  %s\n", "date", "kind", "status", "kernel", deviceWidth,
                "device", "time ms", "params");
    for (const auto& r : recs) {
        std::string params;
        if (r.contains("tune") && r["tune"].contains("config"))
            for (auto it = r["tune"]["config"].begin(); it != r["tune"]["config"].end(); ++it)
                params += (params.empty() ? "" : " ") + it.key() + "=" +
                          (it->is_string() ? it->get<std::string>() : it->dump());
        else if (r.contains("params"))
            for (auto it = r["params"].begin(); it != r["params"].end(); ++it)
                params += (params.empty() ? "" : " ") + it.key() + "=" +
                          (it->is_string() ? it->get<std::string>() : it->dump());
        char time[32] = "-";
        if (r.contains("time_ms") && r["time_ms"].is_number())
            std::snprintf(time, sizeof time, "%.4f", r["time_ms"].get<double>());
        std::printf("%-20s %-7s %-13s %-24s %-*s %10s  %s\n", r.value("date", "").c_str(),
                    r.value("kind", "").c_str(), r.value("status", "").c_str(),
                    r.value("program_kernel", r.value("kernel", "")).substr(0, 24).c_str(), deviceWidth,
                    r.value("device", "").substr(0, size_t(deviceWidth)).c_str(), time, params.c_str());
    }
    std::cout << recs.size() << " record(s) in " << store.path() << "\n";
    return 0;
}

}  // namespace ts::cli
