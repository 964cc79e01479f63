// Export of a kernel compiled for hip:gfx90a (issue 13): a self-contained folder that hipcc
// builds outside TileScope, the HIP twin of ProjectExport.h:
//
//   <dir>/kernel.hip      the generated HIP C++ (as compiled in the IDE)
//   <dir>/ts_hip.h        our HIP device header (resources/, embedded in the binary)
//   <dir>/main.hip        a host launcher (HIP runtime API): random inputs, poisoned outputs,
//                         one checked launch, timed launches with HIP events, output checksums
//   <dir>/CMakeLists.txt  CMake that runs hipcc (no CMake HIP language support needed)
//   <dir>/Makefile        plain hipcc build;  <dir>/README.md
//
// hipcc compiles and links it without an AMD GPU (tests/gui/HipExportTest builds gemm and
// softmax); running it needs a gfx90a GPU, which this project has never had.
#pragma once
#include <string>
#include <vector>

#include "app/gui/ProjectExport.h"

namespace ts::gui {

/// Writes the HIP folder for `r` (compiled for a hip: target; o.arch "gfx90a" by default).
/// Returns the written file names, or empty with *error set.
std::vector<std::string> exportHipProject(const CompileResult& r, const ExportOptions& o,
                                          std::string* error);

/// The HIP host launcher (the CUDA launcher's calls through their HIP runtime names).
std::string hipLauncherSource(const CompileResult& r, const std::string& kernelFile);

}  // namespace ts::gui
