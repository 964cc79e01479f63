// Shared by the libFuzzer targets (tests/fuzz/Fuzz*.cpp): what counts as a finding besides a
// crash. A compiler the IDE runs on every keystroke must answer any text with diagnostics, so an
// "internal compiler error" (or internal interpreter error) diagnostic aborts the run: libFuzzer
// then saves the input like a crash. A hang is an input that takes more than 2 s of CPU
// (CpuHangGuard, measured in the target: waiting for a loaded machine's CPU does not count);
// libFuzzer's wall-clock -timeout (scripts/fuzz) is only the backstop for an input that never
// returns, and scripts/fuzz-recheck-timeout applies the same 2 s CPU rule to it.
#pragma once
#include <time.h>

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

/// Aborts (a finding) when the input took more than TS_FUZZ_HANG_CPU_S seconds of CPU (default
/// 2): the hang rule, independent of the machine's load. Process CPU time (user + system), so
/// helper threads of the compiler, if any, count too.
class CpuHangGuard {
public:
    CpuHangGuard() : m_start(now()) {}
    ~CpuHangGuard() {
        double used = now() - m_start;
        if (used > limit()) {
            std::fprintf(stderr, "FUZZ FINDING (hang): the input took %.2f s of CPU (limit %.1f s)\n", used, limit());
            std::abort();
        }
    }
    CpuHangGuard(const CpuHangGuard&) = delete;
    CpuHangGuard& operator=(const CpuHangGuard&) = delete;

private:
    static double now() {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
    }
    static double limit() {
        static const double l = [] {
            const char* e = std::getenv("TS_FUZZ_HANG_CPU_S");
            double v = e ? std::atof(e) : 0.0;
            return v > 0 ? v : 2.0;
        }();
        return l;
    }
    double m_start;
};

/// The input as a source text. Inputs above 64 KiB are skipped: real files are smaller, and
/// libFuzzer's -max_len keeps them smaller still.
inline bool inputText(const uint8_t* data, size_t size, std::string& out) {
    if (size > 65536) return false;
    out.assign(reinterpret_cast<const char*>(data), size);
    return true;
}

}  // namespace ts::fuzz
