#include "app/cli/CliCommon.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <iostream>
#include <new>

#include "compiler/support/ParamPragma.h"
#include "compiler/support/SourceReader.h"
#include "profiler/Runtime.h"

namespace ts::cli {

std::optional<std::string> readFile(const std::string& path) {
    auto r = readSourceFile(path);
    if (r.ok()) return std::move(r.text);
    std::error_code ec;
    std::cerr << path << ": error: " << r.error;
    if (r.error == "no such file")
        std::cerr << "\n  hint: check the path (relative paths start at "
                  << std::filesystem::current_path(ec).string() << ")";
    else if (r.error == "is a directory") {
        // Name .py files that are there (it suggested DIR/gemm.py whether or not it existed).
        std::vector<std::string> py;
        for (auto it = std::filesystem::directory_iterator(path, ec); !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
            if (it->path().extension() == ".py") py.push_back(it->path().string());
        std::sort(py.begin(), py.end());
        std::cerr << ", not a tile program\n  hint: pass a .py file";
        if (py.empty()) std::cerr << " (this directory has none)";
        for (size_t i = 0; i < py.size() && i < 3; ++i) std::cerr << (i ? ", " : ", e.g. ") << py[i];
        if (py.size() > 3) std::cerr << " (" << py.size() << " in all)";
    }
    std::cerr << "\n";
    return std::nullopt;
}

std::optional<std::map<std::string, std::string>> parseParams(const std::vector<std::string>& kv) {
    std::map<std::string, std::string> out;
    for (auto& p : kv) {
        auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::cerr << "tilec: error: --param expects NAME=VALUE, got '" << p << "'\n";
            return std::nullopt;
        }
        const std::string name = p.substr(0, eq), value = p.substr(eq + 1);
        // The last one wins (as a shell's repeated assignment), but say so: `-p M=1024 -p M=64`
        // is more often a forgotten edit than an intent (helper-116).
        if (auto it = out.find(name); it != out.end() && it->second != value)
            std::cerr << "tilec: note: --param " << name << " is given twice; " << name << "=" << value << " (the last) is used, not "
                      << name << "=" << it->second << "\n";
        out[name] = value;
    }
    return out;
}

namespace {
DefaultTargetChoice g_defaulted;  ///< lastDefaultedTarget()
bool g_kernelDefaulted = false;   ///< compileFile chose the file's default kernel (no --kernel, no pragma)
}  // namespace

DefaultTargetChoice defaultTargetChoice() {
    std::string why;
    // Device attributes only (cuInit, no context): kernels run in the worker process, and a
    // context here would hold device memory for nothing.
    auto devs = rt::listDevices(&why);
    if (!devs.empty()) {
        int ordinal = 0;
        if (const char* env = std::getenv("TILESCOPE_DEVICE"); env && *env) ordinal = std::atoi(env);
        if (ordinal >= 0 && ordinal < static_cast<int>(devs.size())) {
            const auto& d = devs[static_cast<size_t>(ordinal)];
            return {"cuda:" + rt::archFor(d), "the attached GPU, " + d.name, true};
        }
        why = "TILESCOPE_DEVICE names no GPU of the " + std::to_string(devs.size()) + " found";
    }
    if (why.empty()) why = "no CUDA device";
    // The first clause is enough here ("cannot load the NVIDIA driver library libcuda.so.1").
    if (auto paren = why.find(" ("); paren != std::string::npos && paren > 0) why.resize(paren);
    return {"cuda:sm_80", "no GPU found: " + why, false};
}

std::string defaultTarget() { return defaultTargetChoice().target; }

const DefaultTargetChoice& lastDefaultedTarget() { return g_defaulted; }

std::string defaultTargetNote(const DefaultTargetChoice& c) {
    return "target " + c.target + " (tilec's default: " + c.why +
           "); --target cuda:sm_90a (Hopper: H100/H200), cuda:sm_80 (Ampere) or hip:gfx90a picks "
           "another";
}

namespace {
bool g_quiet = false;
}  // namespace

void setQuiet(bool q) { g_quiet = q; }
bool quiet() { return g_quiet; }

std::ostream& info() {
    static std::ostream sink(nullptr);  // no buffer: writes set badbit and go nowhere
    sink.clear();
    return g_quiet ? sink : std::cout;
}

bool noteShown(const Diagnostic& d) {
    return d.severity != Severity::Note || !g_quiet || d.origin == "errors" || d.origin == "parse";
}

bool printDiagnostics(const CompileResult& r) {
    bool err = false, aboutTarget = false;
    for (auto& d : r.diagnostics) {
        if (noteShown(d)) std::cerr << formatDiagnostic(d, r.source.get());
        err |= d.severity == Severity::Error;
        if (d.severity == Severity::Error)
            aboutTarget |= (d.message + d.hint).find("sm_") != std::string::npos;
    }
    // An error about a target the user did not choose: say which one it was and how to pick
    // another (a Hopper kernel's shared memory does not fit sm_80, tilec's no-GPU default).
    if (aboutTarget && !g_defaulted.target.empty() && !g_defaulted.fromGpu)
        std::cerr << "tilec: note: compiled for " << defaultTargetNote(g_defaulted) << "\n";
    // The file's default kernel failed and it has others (helper-123: TileLang's let test stopped
    // at its first kernel without a word about the rest).
    if (err && g_kernelDefaulted && r.kernels.size() > 1 && r.selected()) {
        std::string others;
        for (const auto& k : r.kernels)
            if (&k != r.selected()) others += (others.empty() ? "" : ", ") + k.name;
        std::cerr << "tilec: note: that is '" << r.selected()->name << "', the file's default kernel; it also has "
                  << others << " (--kernel NAME picks one; `tilec kernels " << (r.source ? r.source->path() : std::string("FILE")) << "` lists them)\n";
    }
    g_kernelDefaulted = false;
    return err;
}

std::optional<CompileResult> compileFile(const CompileFlags& flags, CompileOptions opts) {
    if (flags.kernel == "all") {
        std::cerr << "tilec: error: --kernel all works with `tilec compile` only; name one kernel "
                     "(see `tilec kernels "
                  << flags.file << "`)\n";
        return std::nullopt;
    }
    auto text = readFile(flags.file);
    if (!text) return std::nullopt;
    auto params = parseParams(flags.params);
    if (!params) return std::nullopt;
    // The file's `# tilescope:` pragma (what the IDE's parameter panel wrote) first, --param on
    // top: the file runs with the parameters the IDE showed unless the command line says else.
    opts.params = parseParamPragma(*text);
    if (!opts.params.empty() && flags.pragmaNote && !g_quiet) {
        std::cerr << "tilec: note: parameters from the file's '# tilescope:' pragma (line "
                  << paramPragmaLine(*text) << "):";
        for (auto& [k, v] : opts.params) {
            bool overridden = k == kPragmaKernel ? !flags.kernel.empty() && flags.kernel != v
                                                 : params->count(k) && params->at(k) != v;
            std::cerr << " " << k << "=" << v
                      << (overridden ? k == kPragmaKernel ? " (overridden by --kernel)"
                                                          : " (overridden by --param)"
                                     : "");
        }
        std::cerr << "\n";
    }
    for (auto& [k, v] : *params) opts.params[k] = v;
    opts.kernel = flags.kernel.empty() ? pragmaSetting(opts.params, kPragmaKernel) : flags.kernel;
    g_kernelDefaulted = opts.kernel.empty();
    g_defaulted = {};
    if (flags.target.empty()) g_defaulted = defaultTargetChoice();
    opts.target = flags.target.empty() ? g_defaulted.target : flags.target;
    auto target = parseTarget(opts.target);
    if (!target) {
        std::cerr << "tilec: error: unknown target '" << opts.target
                  << "' (use cuda:sm_80, cuda:sm_90a or hip:gfx90a; TileScope generates code for sm_80 and newer)\n";
        return std::nullopt;
    }
    // A target past sm_80 without wgmma gets a note from compile() itself (Compile.cpp: the IDE shows it too).
    return compile(flags.file, *text, opts);
}

bool writeJson(const nlohmann::json& j, const std::string& path) {
    const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (path == "-") {
        std::cout << text;
        return true;
    }
    std::ofstream out(path, std::ios::binary);
    if (!(out << text) || !out.flush()) {
        std::cerr << "tilec: error: cannot write --json '" << path << "'\n";
        return false;
    }
    return true;
}

int runGuarded(const std::function<int()>& subcommand) {
    try {
        return subcommand();
    } catch (const std::bad_alloc&) {
        // Not a compiler fault: the run (host tensors, the float64 reference, the interpreters'
        // per-block state) outgrew the memory this process may use (ulimit -v, cgroup, RAM).
        std::cerr << "tilec: error: out of host memory: this run needs more memory than the process may use\n"
                     "  hint: run at smaller sizes (--param NAME=VALUE; `tilec kernels FILE` lists the parameters) -- "
                     "the interpreters hold every tensor and the reference in float64 -- or on the GPU\n";
    } catch (const std::exception& e) {
        std::cerr << "tilec: internal error: " << e.what() << " (please report)\n";
    } catch (...) {
        std::cerr << "tilec: internal error: unknown exception (please report)\n";
    }
    return 2;
}

}  // namespace ts::cli
