// Roofline points of the compare view (issue 12 item 5): each correct variant of a result set as
// (arithmetic intensity, achieved throughput) against the device's compute and DRAM roofs. No Qt.
//
// Work and traffic of a variant come from its record (rt::ResultsStore): `flops` is the sample's
// `flops` for the recorded parameters (compiler/Compile.h CompileResult::flops), the traffic is
// the measured DRAM bytes (CUPTI `dram_read_bytes` + `dram_write_bytes`, tilec profile) when the
// record has them, else the sample's `bytes` (its ideal traffic: every operand read once, every
// output written once). Time is the record's `time_ms` (CUPTI activity median for profile
// records, CUDA-event median for tune/bench records). Interpreter records have no roofline.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ts::viz {

class VariantCompare;

/// Peak throughput of one GPU, from its vendor datasheet.
struct DevicePeaks {
    double tensorTflops = 0;  ///< fp16/bf16 tensor-core peak, dense (no sparsity), TFLOP/s
    double dramGBps = 0;      ///< DRAM (HBM) bandwidth, GB/s (1e9 B/s)
    std::string source;       ///< where the figures come from
};

/// The peaks of the device named `deviceName` exactly as the driver reports it (cuDeviceGetName,
/// the record's `device`), or nullopt for a device not in the table (points are then drawn
/// without roofs).
std::optional<DevicePeaks> peaksFor(const std::string& deviceName);

/// Attainable TFLOP/s at `intensity` FLOP/B: min(compute roof, intensity x bandwidth).
double attainableTflops(const DevicePeaks& peaks, double intensity);

/// One correct variant on the roofline.
struct RooflinePoint {
    int row = -1;              ///< row of the VariantCompare
    std::string label;         ///< the variant's label
    double intensity = 0;      ///< FLOP per DRAM byte
    double tflops = 0;         ///< achieved TFLOP/s = flops / time
    bool measuredBytes = false;  ///< traffic from the DRAM counters (else the sample's model)
};

struct Roofline {
    std::vector<RooflinePoint> points;
    std::optional<DevicePeaks> peaks;  ///< of the set's device (the first point's record)
    std::string device;
    /// Why rows are missing: "3 variants without flops/bytes or time" etc.; empty if none.
    std::string note;
};

/// The points of every ok, checked-or-unchecked (never wrong) row of `c` that has flops, a
/// traffic figure and a GPU time. Interpreter rows are skipped.
Roofline rooflineOf(const VariantCompare& c);

}  // namespace ts::viz
