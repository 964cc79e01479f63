// Export of a kernel compiled for hip:gfx90a (issue 13): the HIP twin of ProjectExport.h, a
// self-contained folder that hipcc builds outside TileScope:
//
//   <dir>/kernel.hip      the generated HIP C++ (as compiled in the IDE)
//   <dir>/ts_hip.h        our HIP device header (resources/, embedded in the binary)
//   <dir>/main.hip        the host launcher of ProjectExport.h (launcherSource) with the HIP
//                         runtime's names: the inputs of data/, poisoned outputs, one launch,
//                         each output compared with the CPU reference of data/ (exit status 1
//                         on a mismatch), then timed launches with HIP events
//   <dir>/data/           inputs and expected outputs (ExportData.h, the same as for CUDA)
//   <dir>/CMakeLists.txt  CMake that runs hipcc (no CMake HIP language support needed), also
//                         building kernel.co (the device code alone, for hipModuleLoad)
//   <dir>/Makefile        plain hipcc build (`make check` builds and runs the check)
//   <dir>/README.md       what it is, how to build and run, what was and was not checked
//
// hipcc compiles and links it without an AMD GPU (HipExportTest builds gemm and softmax);
// running it needs a gfx90a GPU, which this project has never had.
#pragma once
#include <string>
#include <vector>

#include "app/cli/ProjectExport.h"

namespace ts::cli {

/// Writes the HIP folder for `r` (compiled for a hip: target; o.arch "gfx90a" by default).
/// Returns the written file names (data files as "data/..."), or empty with *error set (a CUDA
/// result, no generated code, no check data, a file that cannot be written).
std::vector<std::string> exportHipProject(const CompileResult& r, const ExportOptions& o,
                                          std::string* error);

/// The HIP host launcher: launcherSource's calls through their HIP runtime names (cudaMalloc ->
/// hipMalloc, cudaLaunchKernel -> hipLaunchKernel, cudaEvent* -> hipEvent*, ...).
std::string hipLauncherSource(const CompileResult& r, const std::string& kernelFile,
                              const ExportData& data, const std::string& binary);

}  // namespace ts::cli
