#include "visualizer/core/Roofline.h"

#include <algorithm>
#include <cmath>

#include "visualizer/core/VariantCompare.h"

namespace ts::viz {

std::optional<DevicePeaks> peaksFor(const std::string& deviceName) {
    // Dense fp16/bf16 tensor peaks (the datasheets print "with sparsity" figures, twice these)
    // and HBM bandwidth at the boost clock of the SXM/PCIe part the driver names.
    struct Entry {
        const char* name;
        DevicePeaks peaks;
    };
    static const Entry kTable[] = {
        {"NVIDIA H200", {989.5, 4800, "NVIDIA H200 datasheet (SXM): 1,979 TFLOPS fp16 sparse, 4.8 TB/s"}},
        {"NVIDIA H200 NVL", {835.5, 4800, "NVIDIA H200 datasheet (NVL): 1,671 TFLOPS fp16 sparse, 4.8 TB/s"}},
        {"NVIDIA H100 80GB HBM3", {989.5, 3350, "NVIDIA H100 datasheet (SXM): 1,979 TFLOPS fp16 sparse, 3.35 TB/s"}},
        {"NVIDIA H100 PCIe", {756.5, 2000, "NVIDIA H100 datasheet (PCIe): 1,513 TFLOPS fp16 sparse, 2 TB/s"}},
        {"NVIDIA A100-SXM4-80GB", {312, 2039, "NVIDIA A100 datasheet (SXM 80GB): 312 TFLOPS fp16, 2,039 GB/s"}},
        {"NVIDIA A100-SXM4-40GB", {312, 1555, "NVIDIA A100 datasheet (SXM 40GB): 312 TFLOPS fp16, 1,555 GB/s"}},
    };
    for (const auto& e : kTable)
        if (deviceName == e.name) return e.peaks;
    return std::nullopt;
}

double attainableTflops(const DevicePeaks& peaks, double intensity) {
    // intensity [FLOP/B] x bandwidth [1e9 B/s] = 1e9 FLOP/s = 1e-3 TFLOP/s.
    return std::min(peaks.tensorTflops, intensity * peaks.dramGBps * 1e-3);
}

namespace {
std::optional<double> numberAt(const nlohmann::json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
    return j[key].get<double>();
}
}  // namespace

Roofline rooflineOf(const VariantCompare& c) {
    Roofline out;
    size_t missing = 0;
    for (size_t i = 0; i < c.rows().size(); ++i) {
        const CompareRow& row = c.rows()[i];
        const nlohmann::json& r = row.record;
        // Wrong results and interpreter times are not performance.
        if (!row.ok() || r.value("check", std::string()) == "fail" || r.value("interp", false))
            continue;
        const auto flops = numberAt(r, "flops");
        const auto timeMs = numberAt(r, "time_ms");
        const nlohmann::json m = r.contains("metrics") ? r["metrics"] : nlohmann::json::object();
        const auto rd = numberAt(m, "dram_read_bytes"), wr = numberAt(m, "dram_write_bytes");
        std::optional<double> bytes;
        bool measured = false;
        if (rd && wr && *rd + *wr > 0)
            bytes = *rd + *wr, measured = true;
        else
            bytes = numberAt(r, "bytes");
        if (!flops || !timeMs || !bytes || *flops <= 0 || *timeMs <= 0 || *bytes <= 0) {
            ++missing;
            continue;
        }
        RooflinePoint p;
        p.row = static_cast<int>(i);
        p.label = row.label;
        p.intensity = *flops / *bytes;
        p.tflops = *flops / (*timeMs * 1e-3) / 1e12;
        p.measuredBytes = measured;
        if (out.points.empty()) {
            out.device = r.value("device", std::string());
            out.peaks = peaksFor(out.device);
        }
        out.points.push_back(std::move(p));
    }
    if (missing)
        out.note = std::to_string(missing) +
                   " correct variant(s) without flops, bytes or a GPU time (the sample defines no "
                   "flops/bytes, or the record predates them)";
    return out;
}

}  // namespace ts::viz
