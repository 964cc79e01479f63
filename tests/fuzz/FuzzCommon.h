// Shared by the libFuzzer targets (tests/fuzz/Fuzz*.cpp): what counts as a finding besides a
// crash. A compiler the IDE runs on every keystroke must answer any text with diagnostics, so an
// "internal compiler error" (or internal interpreter error) diagnostic aborts the run: libFuzzer
// then saves the input like a crash. Hangs are caught by libFuzzer's -timeout (2 s in CI).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/support/Diagnostic.h"

namespace ts::fuzz {

/// Aborts (a finding) when any diagnostic is an internal error; prints it first.
inline void abortOnInternalError(const std::vector<Diagnostic>& diags, const char* stage) {
    for (auto& d : diags) {
        if (d.message.find("internal compiler error") != std::string::npos ||
            d.message.find("internal interpreter error") != std::string::npos) {
            std::fprintf(stderr, "FUZZ FINDING (%s): %s at %u:%u\n", stage, d.message.c_str(), d.span.line, d.span.col);
            std::abort();
        }
    }
}

/// The input as a source text. Inputs above 64 KiB are skipped: real files are smaller, and
/// libFuzzer's -max_len keeps them smaller still.
inline bool inputText(const uint8_t* data, size_t size, std::string& out) {
    if (size > 65536) return false;
    out.assign(reinterpret_cast<const char*>(data), size);
    return true;
}

}  // namespace ts::fuzz
