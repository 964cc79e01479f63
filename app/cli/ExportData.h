// The check data of an exported nvcc project (ProjectExport.h, issue 15): seeded random inputs
// for every input tensor and, for every output, the expected values computed here on the CPU —
// the file's ref_program in float64 (profiler/check/Reference.h) when the kernel has one, else
// the tile-level interpreter (compiler/interp) — with the rel-L2 tolerance `tilec run` applies.
// The exported main.cu uploads the inputs, launches once, compares and exits non-zero on a
// mismatch, so a build of the export is checked on any GPU without TileScope installed.
//
// Files under <dir>/data/: <arg>.bin — an input (or a zero-started atomic output) as device
// bytes (HostTensor encode); <out>.ref.f32 — an output's expected values, float32 little-endian,
// row-major. Plain C++ (no Qt).
#pragma once
#include <string>
#include <vector>

#include "compiler/Compile.h"

namespace ts::cli {

/// What the launcher needs to know about each kernel argument's data.
struct ExportArgData {
    std::string file;        ///< data/<name>.bin (inputs, zero-started outputs); empty = none
    std::string refFile;     ///< data/<name>.ref.f32 (outputs); empty for inputs
    double tolerance = 0;    ///< rel-L2 bound for an output (0 = exact)
    bool zeroStart = false;  ///< an output only T.atomic_* writes: starts at zero, not poison
};

struct ExportData {
    std::vector<ExportArgData> args;  ///< one per r.kernel.args entry
    std::string referenceLabel;       ///< "ref_program (float64)" | "the tile-level interpreter"
    uint64_t seed = 0;
};

/// Writes <dir>/data/ for `r` and returns what it wrote; false with *error set when the kernel
/// cannot be checked (scalar arguments, sub-byte outputs, a failing reference).
bool writeExportData(const CompileResult& r, const std::string& dir, ExportData& out,
                     std::string* error);

}  // namespace ts::cli
