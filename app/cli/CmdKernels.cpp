// `tilec kernels` / `tilec compile --list-kernels` and `tilec compile --kernel all`: the kernels
// of a program with several (DESIGN.md §2b), listed or compiled one after the other.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "app/cli/Commands.h"
#include "profiler/DeviceCompile.h"
#include "profiler/cuda/Nvrtc.h"
#include "profiler/hip/Hiprtc.h"

namespace ts::cli {

namespace {
std::string joined(const std::vector<std::string>& v, const char* sep) {
    std::string s;
    for (auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

bool hasParam(const ProgramKernel& k, const std::string& name) {
    return std::find(k.params.begin(), k.params.end(), name) != k.params.end();
}

/// The file's kernels, or nullopt after printing why there are none.
std::optional<std::vector<ProgramKernel>> kernelsOf(const std::string& path,
                                                    const std::string& text) {
    std::vector<Diagnostic> diags;
    auto kernels = listKernels(path, text, &diags);
    SourceFile src(path, text);
    bool err = false;
    for (auto& d : diags) {
        if (noteShown(d)) std::cerr << formatDiagnostic(d, &src);
        err |= d.severity == Severity::Error;
    }
    if (err || kernels.empty()) return std::nullopt;
    return kernels;
}
}  // namespace

int runKernels(const CompileFlags& flags) {
    auto text = readFile(flags.file);
    if (!text) return 1;
    auto kernels = kernelsOf(flags.file, *text);
    if (!kernels) return 1;
    // Autotune drivers (functions that build or run a TileLang AutoTuner) are counted apart:
    // they are selectable like kernels (their tuned kernel compiles) but are not kernels.
    size_t drivers = 0;
    for (auto& k : *kernels) drivers += !k.autotuner.empty();
    const size_t plain = kernels->size() - drivers;
    std::cout << flags.file << ": " << plain << " kernel" << (plain == 1 ? "" : "s");
    if (drivers) std::cout << ", " << drivers << " autotune driver" << (drivers == 1 ? "" : "s");
    std::cout << "\n";
    for (auto& k : *kernels) {
        std::string shape = k.pattern;
        if (k.isAutotune)
            shape += ", @autotune";
        else if (k.isJit)
            shape += ", @tilelang.jit";
        char line[256];
        std::snprintf(line, sizeof line, "  %-28s line %-5u %s", k.name.c_str(), k.span.line,
                      shape.c_str());
        std::cout << line << (k.isDefault ? "  (default)" : "") << "\n";
        if (!k.autotuner.empty()) std::cout << "      " << k.autotuner << "\n";
        if (!k.tunerRunners.empty())
            std::cout << "      also run by: " << joined(k.tunerRunners, ", ")
                      << " (the same tuned kernel, through its own parameters)\n";
        if (!k.primFuncName.empty()) std::cout << "      prim_func: " << k.primFuncName << "\n";
        std::cout << "      params: " << (k.params.empty() ? "(none)" : joined(k.params, " "))
                  << "\n";
        if (k.kernelBlockLines.size() > 1) {
            std::vector<std::string> lines;
            for (auto l : k.kernelBlockLines) lines.push_back(std::to_string(l));
            std::cout << "      launches: " << lines.size() << " T.Kernel blocks, run in order (lines "
                      << joined(lines, ", ") << ")\n";
        }
    }
    std::cout << "select one with --kernel NAME (tilec compile|run|bench|debug|validate|timeline|export), or --kernel all\n";
    return 0;
}

int runCompileAll(const CompileCommand& c) {
    if (!c.emit.empty() || !c.printAfter.empty() || c.printChanged || !c.stopAfter.empty() ||
        !c.dumpDir.empty()) {
        std::cerr
            << "tilec: error: --kernel all prints one line per kernel; --emit, --print-after, "
               "--print-changed, --stop-after and --dump-dir need one kernel (--kernel NAME)\n";
        return 1;
    }
    auto text = readFile(c.flags.file);
    if (!text) return 1;
    auto params = parseParams(c.flags.params);
    if (!params) return 1;
    auto kernels = kernelsOf(c.flags.file, *text);
    if (!kernels) return 1;
    // A --param goes to every kernel that has it; one that no kernel has is a typo.
    for (auto& [name, _] : *params) {
        bool any = false;
        for (auto& k : *kernels) any |= hasParam(k, name);
        if (!any) {
            std::vector<std::string> all;
            for (auto& k : *kernels) all.push_back(k.name + "(" + joined(k.params, ", ") + ")");
            std::cerr << "tilec: error: --param " << name << ": no kernel of " << c.flags.file
                      << " has a parameter '" << name << "'\n  hint: kernels: " << joined(all, ", ")
                      << "\n";
            return 1;
        }
    }
    const auto selTarget = parseTarget(c.flags.target.empty() ? defaultTarget() : c.flags.target);
    std::string why;
    const bool nvrtc = !c.noNvrtc && (selTarget && selTarget->isHip() ? rt::hiprtcAvailable(&why)
                                                                      : rt::nvrtcAvailable(&why));
    int failed = 0;
    bool first = true;
    for (auto& k : *kernels) {
        CompileFlags f = c.flags;
        f.kernel = k.name;
        f.pragmaNote = first;
        first = false;
        f.params.clear();
        for (auto& kv : c.flags.params)
            if (hasParam(k, kv.substr(0, kv.find('=')))) f.params.push_back(kv);
        CompileOptions opts;
        opts.recordSnapshots = false;
        auto r = compileFile(f, opts);
        if (!r) return 1;
        bool err = printDiagnostics(*r) || !r->ok;
        char line[512];
        if (err) {
            int n = 0;
            for (auto& d : r->diagnostics) n += d.severity == Severity::Error;
            std::snprintf(line, sizeof line, "%-28s error (%d error%s)\n", k.name.c_str(), n,
                          n == 1 ? "" : "s");
            std::cout << line;
            ++failed;
            continue;
        }
        std::string nv = "nvrtc skipped";
        rt::PtxasInfo ptxas;
        std::string arch;
        if (nvrtc) {
            auto target = parseTarget(f.target.empty() ? defaultTarget() : f.target);
            auto res = rt::compileDeviceSource(r->cuda, target->arch(), !c.noCache);
            if (!res.ok && res.archUnsupported) {
                std::cerr << "tilec: error: " << res.log << "\n  hint: pick a target this " << res.compiler
                          << " supports with --target (e.g. cuda:sm_90a)\n";
                return 1;
            }
            if (!res.ok) {
                std::cerr << "tilec: error: " << res.compiler << " rejected the generated code of kernel '" << k.name
                          << "' (a compiler bug):\n"
                          << res.log;
                std::snprintf(line, sizeof line, "%-28s error (%s)\n", k.name.c_str(), res.compiler.c_str());
                std::cout << line;
                ++failed;
                continue;
            }
            char buf[96];
            std::snprintf(buf, sizeof buf, "%s %s %.0f ms%s", res.compiler.c_str(),
                          target->arch().c_str(), res.ms, res.cacheHit ? " (cached)" : "");
            nv = buf;
            ptxas = res.ptxas;
            arch = target->arch();
        }
        if (!r->launches.empty()) {
            std::snprintf(line, sizeof line, "%-28s ok    %zu launches in order, %s\n",
                          k.name.c_str(), r->launches.size(), nv.c_str());
            std::cout << line;
        }
        for (const CompileResult* l : launchesOf(*r)) {
            std::snprintf(
                line, sizeof line, "%-28s %s    %s: grid (%u, %u, %u), %u threads, %zu B shared%s%s%s\n",
                r->launches.empty() ? k.name.c_str() : "", r->launches.empty() ? "ok" : "  ",
                l->kernel.name.c_str(), l->kernel.grid[0], l->kernel.grid[1], l->kernel.grid[2],
                l->kernel.block[0] * l->kernel.block[1] * l->kernel.block[2],
                l->kernel.dynamicSmemBytes, l->kernel.cooperative ? ", cooperative launch" : "",
                r->launches.empty() ? ", " : "", r->launches.empty() ? nv.c_str() : "");
            std::cout << line;
        }
        // ptxas's registers, spills and barriers per kernel, as `tilec compile` prints for one
        // (empty for hiprtc and for cache entries older than the figures).
        if (nvrtc) printPtxasInfo(ptxas, arch, std::cout);
    }
    std::cout << kernels->size() - size_t(failed) << " of " << kernels->size()
              << " kernels compiled\n";
    return failed ? 1 : 0;
}

}  // namespace ts::cli
