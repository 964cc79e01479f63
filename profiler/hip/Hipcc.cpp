#include "profiler/hip/Hipcc.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/support/Resources.h"

namespace ts::rt {
namespace fs = std::filesystem;

namespace {
std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}
std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
}  // namespace

std::string hipccPath() {
    if (const char* e = std::getenv("HIPCC"); e && *e && fs::exists(e)) return e;
    const char* path = std::getenv("PATH");
    std::stringstream ss(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(ss, dir, ':');) {
        std::error_code ec;
        const fs::path p = fs::path(dir.empty() ? "." : dir) / "hipcc";
        if (fs::exists(p, ec) && access(p.c_str(), X_OK) == 0) return p.string();
    }
    return {};
}

HipccResult compileHipcc(const std::string& source, const std::string& arch,
                         const std::vector<std::string>& extraOptions) {
    const auto t0 = std::chrono::steady_clock::now();
    HipccResult r;
    try {
        const std::string hipcc = hipccPath();
        if (hipcc.empty()) {
            r.log = "hipcc not found on PATH; install the Debian package hipcc (scripts/setup does)";
            return r;
        }
        static std::atomic<int> counter{0};
        const fs::path dir = fs::temp_directory_path() /
                             ("ts_hipcc_" + std::to_string(getpid()) + "_" +
                              std::to_string(counter++));
        fs::remove_all(dir);
        fs::create_directories(dir);
        std::ofstream(dir / "kernel.hip", std::ios::binary) << source;
        std::ofstream(dir / "ts_hip.h", std::ios::binary) << ts::resources::find("ts_hip.h");
        std::string cmd = shellQuote(hipcc) + " --offload-arch=" + shellQuote(arch) +
                          " -O3 -std=c++17 --genco -I " + shellQuote(dir.string());
        for (const auto& o : extraOptions) cmd += " " + shellQuote(o);
        cmd += " -o " + shellQuote((dir / "kernel.co").string()) + " " +
               shellQuote((dir / "kernel.hip").string()) + " 2> " +
               shellQuote((dir / "log.txt").string());
        const int status = std::system(cmd.c_str());
        r.log = readFile(dir / "log.txt");
        if (status == 0 && fs::exists(dir / "kernel.co")) {
            const std::string code = readFile(dir / "kernel.co");
            r.code.assign(code.begin(), code.end());
            r.ok = !r.code.empty();
        } else if (r.log.empty()) {
            r.log = "hipcc exited with status " + std::to_string(status);
        }
        std::error_code ec;
        fs::remove_all(dir, ec);
    } catch (const std::exception& e) {
        r.ok = false;
        r.log += std::string("internal error while running hipcc: ") + e.what();
    }
    r.compileMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace ts::rt
