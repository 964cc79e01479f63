// Export (issue 3 item 8): writes a self-contained folder that builds the generated kernel with
// nvcc, outside TileScope:
//
//   <dir>/kernel.cu       the generated CUDA C++ (as compiled in the IDE)
//   <dir>/ts_device.cuh   our device header (resources/, embedded in the binary)
//   <dir>/main.cu         a host launcher: the inputs of data/, poisoned outputs, one launch,
//                         each output compared with the CPU reference of data/ (exit status 1
//                         on a mismatch), then timed launches with CUDA events
//   <dir>/data/           inputs and expected outputs (ExportData.h)
//   <dir>/CMakeLists.txt  CMake (CUDA language) build for the target's architecture;
//   <dir>/Makefile        plain nvcc build (`make check` builds and runs the check)
//   <dir>/README.md       what it is, how to build and run, the parameters it was made with
//
// Plain C++ (no Qt) over CompileResult, so tilec can offer the same export.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "app/cli/ExportData.h"
#include "compiler/Compile.h"

namespace ts::cli {

struct ExportOptions {
    std::string dir;         ///< output folder (created; existing files are overwritten)
    std::string name;        ///< executable / project name (default: the kernel's name)
    std::string sourcePath;  ///< the tile program it came from (for the README)
    std::string arch;        ///< "sm_80", "sm_90a" (default "sm_80"), "gfx90a"; Target::arch()
};

/// Writes the folder (for a result compiled for hip:gfx90a: the hipcc folder of HipExport.h).
/// Returns the written file names (data files as "data/..."), or an empty
/// vector with *error set when the result has no generated code, its check data cannot be made
/// (ExportData.h) or a file cannot be written.
std::vector<std::string> exportProject(const CompileResult& r, const ExportOptions& o,
                                       std::string* error);

/// Writes each (name, text) of `files` into `dir`; returns their names followed by the data
/// files of `data` ("data/..."), or empty with *error set when a file cannot be written. The
/// last step of every export (CUDA and HIP).
std::vector<std::string> writeProjectFiles(const std::string& dir,
                                           const std::vector<std::pair<std::string, std::string>>& files,
                                           const ExportData& data, std::string* error);

/// The host launcher's source (exposed for tests): `binary` is the executable's name (usage
/// line), `data` what writeExportData wrote.
std::string launcherSource(const CompileResult& r, const std::string& kernelFile,
                           const ExportData& data, const std::string& binary);

}  // namespace ts::cli
