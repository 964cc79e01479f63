// `tilec export` (Commands.h): compiles the program for the target and writes the nvcc project
// of ProjectExport.h — the same folder as the IDE's File › Export.
#include <cctype>
#include <filesystem>
#include <iostream>

#include "app/cli/CliCommon.h"
#include "app/cli/Commands.h"
#include "app/cli/RunSupport.h"
#include "app/cli/ProjectExport.h"

namespace ts::cli {

int runExport(const ExportCommand& c) {
    CompileOptions opts;
    opts.recordSnapshots = false;
    auto r = compileFile(c.flags, opts);
    if (!r) return 1;
    if (printDiagnostics(*r) || !r->ok) return 1;
    if (!oneLaunchOrReport(*r, "export")) return 1;
    auto target = parseTarget(c.flags.target.empty() ? defaultTarget() : c.flags.target);
    // The file's stem by default, made one word (a file "my gemm.py" exports "my_gemm").
    std::string name = c.name;
    if (name.empty())
        for (char ch : std::filesystem::path(c.flags.file).stem().string())
            name += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' ? ch : '_';
    std::string error;
    auto files = exportProject(
        *r, {c.out, name, c.flags.file, target ? target->arch() : std::string("sm_80")}, &error);
    if (files.empty()) {
        std::cerr << "tilec: error: " << error << "\n";
        return 1;
    }
    std::cout << "wrote " << files.size() << " files to " << c.out << " (" << name << ", "
              << (target ? target->arch() : std::string("sm_80"))
              << "): build with `make` or CMake, then ./" << name << " checks its outputs\n";
    return 0;
}

}  // namespace ts::cli
