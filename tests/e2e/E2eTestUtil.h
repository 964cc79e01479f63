// Helpers shared by the end-to-end tests (tests/e2e/*.cpp): reading repository files through
// TS_SOURCE_DIR and printing a compile's diagnostics for assertion messages.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "compiler/Compile.h"

namespace ts::e2e {

/// Text of `rel` (relative to the repository root); empty when the file is missing.
inline std::string readRepoFile(const std::string& rel) {
    std::ifstream in(std::filesystem::path(TS_SOURCE_DIR) / rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Every diagnostic of `r`, formatted as tilec prints them.
inline std::string diagText(const CompileResult& r) {
    std::string s;
    for (auto& d : r.diagnostics) s += formatDiagnostic(d, r.source.get());
    return s;
}

}  // namespace ts::e2e
