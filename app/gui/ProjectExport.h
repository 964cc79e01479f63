// Export (issue 3 item 8): writes a self-contained folder that builds the generated kernel with
// nvcc, outside TileScope:
//
//   <dir>/kernel.cu       the generated CUDA C++ (as compiled in the IDE)
//   <dir>/ts_device.cuh   our device header (resources/, embedded in the binary)
//   <dir>/main.cu         a host launcher: random inputs, poisoned outputs, one checked launch,
//                         timed launches with CUDA events, a checksum of each output
//   <dir>/CMakeLists.txt  CMake (CUDA language) build;  <dir>/Makefile  plain nvcc build
//   <dir>/README.md       what it is, how to build and run, the parameters it was made with
//
// Plain C++ (no Qt) over CompileResult, so tilec can offer the same export.
#pragma once
#include <string>
#include <vector>

#include "compiler/Compile.h"

namespace ts::gui {

struct ExportOptions {
    std::string dir;         ///< output folder (created; existing files are overwritten)
    std::string name;        ///< executable / project name (default: the kernel's name)
    std::string sourcePath;  ///< the tile program it came from (for the README)
    std::string arch;        ///< "sm_80", "sm_90a" (default "sm_80"); Target::arch()
};

/// Writes the folder. Returns the written file names, or an empty vector with *error set when the
/// result has no generated code or a file cannot be written.
std::vector<std::string> exportProject(const CompileResult& r, const ExportOptions& o,
                                       std::string* error);

/// The host launcher's source (exposed for tests).
std::string launcherSource(const CompileResult& r, const std::string& kernelFile);

}  // namespace ts::gui
