// `tilec compile`: runs the pipeline, prints IR after passes like LLVM's -print-after, a table
// of pass times and changed flags, and the NVRTC compile time of the generated CUDA.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/cli/Commands.h"
#include "compiler/frontend/MetaValue.h"
#include "profiler/DeviceCompile.h"
#include "profiler/cuda/Nvrtc.h"

namespace ts::cli {

/// ptxas's figures per kernel (an info line each), and warnings for what costs speed: spills to
/// local memory, and ptxas serializing the wgmma (then every wgmma waits to completion).
void printPtxasInfo(const rt::PtxasInfo& p, const std::string& arch, std::ostream& info) {
    for (const rt::PtxasKernelInfo& k : p.kernels) {
        info << "ptxas " << arch << ": " << rt::ptxasSummary(k) << "\n";
        if (k.spillStoreBytes || k.spillLoadBytes)
            std::cerr << "tilec: warning: ptxas spills " << k.spillStoreBytes << " bytes per thread of '" << k.name
                      << "' to local memory (" << k.registers << " registers)\n"
                      << "  hint: fewer live values per thread: smaller fragments (block_M, block_N), more threads per block, "
                         "or fewer fragments kept across the loop\n";
        for (const std::string& remark : k.remarks)
            std::cerr << "tilec: warning: ptxas on '" << k.name << "': " << remark << "\n"
                      << (k.wgmmaSerialized ? "  hint: every wgmma of this kernel now waits to completion; TileScope's generated code "
                                              "caused it, not your program: please report it with the file and parameters "
                                              "(`--emit cuda` shows the source ptxas saw)\n"
                                            : k.setmaxnregIgnored
                                                  ? "  hint: the warpgroups keep the launch's register count; for a kernel TileScope "
                                                    "warp-specialized (TILESCOPE_HOPPER_WS=1) please report it with the file and "
                                                    "parameters; for your own T.set_max_nreg, give each warpgroup its own code after it "
                                                    "(a role's branch that other roles' values do not live across)\n"
                                                  : "");
    }
}

namespace {
/// Checks the pass-name and output-folder flags before compiling, so that a typo is an error
/// (exit 1) rather than a warning after a full compile. Prints the error; false if one is bad.
bool validFlags(const CompileCommand& c) {
    if (!validEmitKind(c.emit)) return false;
    auto target = parseTarget(c.flags.target.empty() ? defaultTarget() : c.flags.target);
    // --emit names a language; the target decides which one codegen prints (helper-108: `--emit
    // hip` printed CUDA for the default sm_80 target, the mismatch only in a note -q hid).
    if (target && (c.emit == "cuda" || c.emit == "hip") && c.emit != target->language()) {
        std::cerr << "tilec: error: --emit " << c.emit << ": target " << target->name << " generates "
                  << (target->isHip() ? "HIP" : "CUDA") << "\n  hint: "
                  << (c.emit == "hip" ? "add --target hip:gfx90a for HIP" : "add --target cuda:sm_80 or cuda:sm_90a for CUDA")
                  << ", or --emit " << target->language() << "\n";
        return false;
    }
    auto passes = pipelinePasses(target ? *target : Target{});
    std::vector<std::string> names;
    for (auto& [n, sum] : passes) names.push_back(n);
    auto known = [&](const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    auto near = [&](const std::string& name) {  // the frontend's did-you-mean for a misspelt pass
        std::string n = fe::closestMatch(name, names);
        return n.empty() ? std::string() : "; did you mean '" + n + "'?";
    };
    // A pass of another target's pipeline (sm_90a's sink-tma-waits asked for on sm_80): say so.
    const std::string spelt = c.flags.target.empty() ? defaultTarget() : c.flags.target;
    auto otherTargets = [&](const std::string& name) {
        std::string list;
        for (const char* other : {"cuda:sm_90a", "cuda:sm_80", "hip:gfx90a"})
            if (auto t = parseTarget(other))
                for (auto& [n, sum] : pipelinePasses(*t))
                    if (n == name) list += (list.empty() ? "" : ", ") + std::string(other);
        return list;
    };
    for (auto [flag, name] : {std::pair<const char*, const std::string*>{"--print-after", &c.printAfter}, {"--stop-after", &c.stopAfter}}) {
        if (name->empty() || (*name == "all" && flag == std::string("--print-after")) || known(*name)) continue;
        if (std::string on = otherTargets(*name); !on.empty()) {
            std::cerr << "tilec: error: " << flag << ": pass '" << *name << "' runs only on " << on << "; this compile is for "
                      << spelt << "\n  hint: add --target " << on.substr(0, on.find(',')) << ", or see `tilec passes --target "
                      << spelt << "` for this target's passes\n";
        } else {
            std::cerr << "tilec: error: " << flag << ": no pass named '" << *name << "'" << near(*name) << " (see `tilec passes`"
                      << (flag == std::string("--print-after") ? ", or use 'all')\n" : ")\n");
        }
        return false;
    }
    if (!c.dumpDir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(c.dumpDir, ec);
        if (ec || !std::filesystem::is_directory(c.dumpDir, ec)) {
            std::cerr << "tilec: error: cannot write into --dump-dir '" << c.dumpDir << "' ("
                      << (ec ? ec.message() : std::string("not a directory")) << ")\n";
            return false;
        }
    }
    return true;
}
}  // namespace

bool validEmitKind(const std::string& emit) {
    static const char* const kinds[][2] = {
        {"ir", "the final IR, after every pass"},
        {"cuda", "the generated CUDA C++ (cuda:sm_80, cuda:sm_90a)"},
        {"hip", "the generated HIP C++ (hip:gfx90a)"}};
    if (emit.empty()) return true;
    std::string lower;
    for (char ch : emit) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (auto& k : kinds)
        if (emit == k[0]) return true;
    std::cerr << "tilec: error: --emit: unknown kind '" << emit << "'; the kinds are:\n";
    for (auto& k : kinds) std::cerr << "    " << k[0] << std::string(6 - std::strlen(k[0]), ' ') << k[1] << "\n";
    std::string hint = "tilec compile FILE --emit cuda > kernel.cu";
    for (auto& k : kinds)
        if (lower == k[0]) hint = "kinds are lower case: --emit " + std::string(k[0]);
    if (lower == "ptx" || lower == "cubin" || lower == "sass")
        hint = "tilec prints source, not " + lower +
               ": --emit cuda, then nvcc (or `tilec export` for a whole nvcc project)";
    std::cerr << "  hint: " << hint << "\n";
    return false;
}

int runCompile(const CompileCommand& c) {
    if (!validFlags(c)) return 1;
    CompileOptions opts;
    opts.stopAfter = c.stopAfter;
    auto r = compileFile(c.flags, opts);
    if (!r) return 1;
    bool failed = printDiagnostics(*r);
    std::ostream& info = c.emit.empty() ? std::cout : std::cerr;

    for (auto& s : r->passes) {
        bool want =
            c.printAfter == "all" || c.printAfter == s.name || (c.printChanged && s.changed);
        if (want) {
            (c.emit.empty() ? std::cout : std::cerr) << "; *** IR after " << s.name << " ("
                                                     << static_cast<long long>(s.micros) << " us, "
                                                     << (s.failed    ? "failed"
                                                         : s.changed ? "changed"
                                                                     : "unchanged")
                                                     << ") ***\n"
                                                     << s.ir << "\n";
        }
        if (!c.dumpDir.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(c.dumpDir, ec);
            char name[256];
            std::snprintf(name, sizeof name, "%02zu-%s.py",
                          static_cast<size_t>(&s - r->passes.data()), s.name.c_str());
            std::ofstream out(std::filesystem::path(c.dumpDir) / name);
            if (ec || !(out << s.ir)) {
                std::cerr << "tilec: error: cannot write into --dump-dir '" << c.dumpDir << "'"
                          << (ec ? " (" + ec.message() + ")" : std::string()) << "\n";
                return 1;
            }
        }
    }

    char line[256];
    if (!r->passes.empty()) info << "pass                 time(us)  changed\n";
    for (auto& s : r->passes) {
        std::snprintf(line, sizeof line, "%-20s %8.1f  %s\n", s.name.c_str(), s.micros,
                      s.failed    ? "FAILED"
                      : s.changed ? "yes"
                                  : "no");
        info << line;
    }
    // No timing line when no kernel was chosen (an unknown or ambiguous --kernel): its zeros
    // read as a compile that ran (helper-125 #17).
    if (r->ok || r->frontendMicros > 0) {
        std::snprintf(line, sizeof line, "front end %.2f ms, passes %.2f ms, codegen %.2f ms\n",
                      r->frontendMicros / 1000, r->passesMicros / 1000, r->codegenMicros / 1000);
        info << line;
    }
    if (failed || !r->ok) return 1;
    // A grid barrier (T.sync_grid): the runtime launches it cooperatively (KernelInfo::cooperative).
    if (r->kernel.cooperative && r->launches.empty()) {
        std::snprintf(line, sizeof line,
                      "launch: cooperative (T.sync_grid): all %u blocks of grid (%u, %u, %u) must be resident at once\n",
                      r->kernel.grid[0] * r->kernel.grid[1] * r->kernel.grid[2], r->kernel.grid[0],
                      r->kernel.grid[1], r->kernel.grid[2]);
        info << line;
    }
    if (!r->launches.empty() && c.stopAfter.empty()) {
        // Several T.Kernel blocks: one kernel each, launched in this order.
        info << r->launches.size() << " launches in order (one per T.Kernel block):\n";
        for (size_t i = 0; i < r->launches.size(); ++i) {
            const KernelInfo& k = r->launches[i].kernel;
            std::snprintf(line, sizeof line,
                          "  %zu. %-24s line %-5u grid (%u, %u, %u), %u threads, %zu B shared%s\n",
                          i + 1, k.name.c_str(), r->launches[i].elaborated->span.line, k.grid[0],
                          k.grid[1], k.grid[2], k.block[0] * k.block[1] * k.block[2],
                          k.dynamicSmemBytes, k.cooperative ? ", cooperative (T.sync_grid)" : "");
            info << line;
        }
    }
    if (!c.stopAfter.empty()) {
        if (c.emit == "ir")
            std::cout << (r->passes.empty() ? std::string() : r->passes.back().ir);
        else if (c.emit == "cuda" && !quiet())
            std::cerr << "tilec: note: --stop-after stops before codegen; no device code to emit\n";
        return 0;
    }

    if (c.emit == "cuda" || c.emit == "hip") {  // the generated device source of the target
        std::cout << r->cuda;
    }
    else if (c.emit == "ir")
        std::cout << (r->passes.empty() ? std::string() : r->passes.back().ir);
    else if (!c.emit.empty()) {
        std::cerr << "tilec: error: --emit expects 'ir', 'cuda' or 'hip'\n";
        return 1;
    }

    if (c.noNvrtc) return 0;
    // NVRTC for CUDA targets, hiprtc for hip:gfx90a (profiler/DeviceCompile.h).
    auto target = parseTarget(c.flags.target.empty() ? defaultTarget() : c.flags.target);
    // Wall time and this process's CPU time (std::clock; tilec does nothing else meanwhile): on a
    // loaded box the wall time is mostly waiting for a core, the CPU time is NVRTC's own cost.
    const std::clock_t cpu0 = std::clock();
    auto nv = rt::compileDeviceSource(r->cuda, target->arch(), !c.noCache);
    const double cpuMs = 1000.0 * double(std::clock() - cpu0) / CLOCKS_PER_SEC;
    if (!nv.available) {
        info << nv.compiler << ": not available (" << nv.log << ")\n";
        return 0;
    }
    std::snprintf(line, sizeof line, "%s %s: %.1f ms (cpu %.1f ms)%s\n", nv.compiler.c_str(),
                  target->arch().c_str(), nv.ms, cpuMs, nv.cacheHit ? " (cache hit)" : "");
    info << line;
    if (!nv.ok && nv.archUnsupported) {
        std::cerr << "tilec: error: " << nv.log << "\n  hint: pick a target this " << nv.compiler
                  << " supports with --target (e.g. cuda:sm_90a), or --no-nvrtc to stop after codegen\n";
        return 1;
    }
    if (!nv.ok) {
        std::cerr << "tilec: error: " << (nv.compiler == "hiprtc" ? "hiprtc rejected the generated HIP"
                                                                 : "NVRTC rejected the generated CUDA")
                  << " (a compiler bug):\n"
                  << nv.log;
        return 3;
    }
    printPtxasInfo(nv.ptxas, target->arch(), info);
    return 0;
}

}  // namespace ts::cli
