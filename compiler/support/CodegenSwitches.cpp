#include "compiler/support/CodegenSwitches.h"

#include <algorithm>
#include <cstring>
#include <string_view>

extern char** environ;

namespace ts {

namespace {
// Variables that locate files and libraries or set the runtime's limits: they never change the
// generated source (TILESCOPE_PTXAS_OPTIONS changes the cubin, not the source, but it does change
// what runs: it counts as a switch).
constexpr std::string_view kNotCodegen[] = {
    "TILESCOPE_CACHE_DIR", "TILESCOPE_DEVICE",  "TILESCOPE_LIBCUBLAS", "TILESCOPE_LIBCUDA",
    "TILESCOPE_PLUGIN_PATH", "TILESCOPE_RESULTS", "TILESCOPE_TILEC",   "TILESCOPE_WORKER_TIMEOUT",
};
}  // namespace

std::vector<std::pair<std::string, std::string>> codegenSwitchesFromEnv() {
    std::vector<std::pair<std::string, std::string>> out;
    for (char** e = environ; e && *e; ++e) {
        std::string_view kv(*e);
        if (kv.substr(0, 10) != "TILESCOPE_") continue;
        const size_t eq = kv.find('=');
        if (eq == std::string_view::npos || eq + 1 == kv.size()) continue;
        std::string_view name = kv.substr(0, eq);
        if (std::find(std::begin(kNotCodegen), std::end(kNotCodegen), name) != std::end(kNotCodegen)) continue;
        out.emplace_back(std::string(name), std::string(kv.substr(eq + 1)));
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string describeCodegenSwitches() {
    std::string s;
    for (auto& [k, v] : codegenSwitchesFromEnv()) s += (s.empty() ? "" : ", ") + k + "=" + v;
    return s;
}

}  // namespace ts
