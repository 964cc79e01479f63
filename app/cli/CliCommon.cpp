#include "app/cli/CliCommon.h"

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
    else if (r.error == "is a directory")
        std::cerr << ", not a tile program\n  hint: pass a .py file, e.g. "
                  << (std::filesystem::path(path) / "gemm.py").string();
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
        out[p.substr(0, eq)] = p.substr(eq + 1);
    }
    return out;
}

std::string defaultTarget() {
    std::string why;
    // Device attributes only (cuInit, no context): kernels run in the worker process, and a
    // context here would hold device memory for nothing.
    if (auto devs = rt::listDevices(&why); !devs.empty()) {
        int ordinal = 0;
        if (const char* env = std::getenv("TILESCOPE_DEVICE"); env && *env) ordinal = std::atoi(env);
        if (ordinal >= 0 && ordinal < static_cast<int>(devs.size()))
            return "cuda:" + rt::archFor(devs[static_cast<size_t>(ordinal)]);
    }
    return "cuda:sm_80";
}

bool printDiagnostics(const CompileResult& r) {
    bool err = false;
    for (auto& d : r.diagnostics) {
        std::cerr << formatDiagnostic(d, r.source.get());
        err |= d.severity == Severity::Error;
    }
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
    if (!opts.params.empty() && flags.pragmaNote) {
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
    opts.target = flags.target.empty() ? defaultTarget() : flags.target;
    if (!parseTarget(opts.target)) {
        std::cerr << "tilec: error: unknown target '" << opts.target
                  << "' (use cuda:sm_80, cuda:sm_90a or hip:gfx90a)\n";
        return std::nullopt;
    }
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
        std::cerr << "tilec: internal error: out of memory (please report)\n";
    } catch (const std::exception& e) {
        std::cerr << "tilec: internal error: " << e.what() << " (please report)\n";
    } catch (...) {
        std::cerr << "tilec: internal error: unknown exception (please report)\n";
    }
    return 2;
}

}  // namespace ts::cli
