#include "profiler/hip/Hiprtc.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <regex>

#include "compiler/support/Resources.h"
#include "profiler/cuda/CubinCache.h"

namespace ts::rt {
namespace {

constexpr const char* kDeviceHeader = "ts_hip.h";
constexpr const char* kSourceName = "tilescope_kernel.hip";

// The few hiprtc entry points, declared here (hip/hiprtc.h, ROCm 5.2) so that building needs no
// ROCm headers: hiprtcResult is an int-sized enum (0 = HIPRTC_SUCCESS), hiprtcProgram a pointer.
using Prog = void*;
struct Api {
    const char* (*errorString)(int) = nullptr;
    int (*version)(int*, int*) = nullptr;
    int (*create)(Prog*, const char*, const char*, int, const char**, const char**) = nullptr;
    int (*compile)(Prog, int, const char**) = nullptr;
    int (*logSize)(Prog, size_t*) = nullptr;
    int (*log)(Prog, char*) = nullptr;
    int (*codeSize)(Prog, size_t*) = nullptr;
    int (*code)(Prog, char*) = nullptr;
    int (*destroy)(Prog*) = nullptr;
    std::string why;  ///< non-empty when unusable
};

template <class F> bool bind(void* lib, const char* name, F& f) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
}

const Api& api() {
    static Api a;
    static std::once_flag once;
    std::call_once(once, [] {
        void* lib = nullptr;
        for (const char* name : {"libamdhip64.so.5", "libamdhip64.so", "libhiprtc.so"})
            if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
        if (!lib) {
            a.why = "hiprtc not found (libamdhip64.so.5); install the Debian packages "
                    "libamdhip64-dev libhiprtc-builtins5 rocm-device-libs (scripts/setup does)";
            return;
        }
        const bool ok = bind(lib, "hiprtcGetErrorString", a.errorString) &&
                        bind(lib, "hiprtcVersion", a.version) &&
                        bind(lib, "hiprtcCreateProgram", a.create) &&
                        bind(lib, "hiprtcCompileProgram", a.compile) &&
                        bind(lib, "hiprtcGetProgramLogSize", a.logSize) &&
                        bind(lib, "hiprtcGetProgramLog", a.log) &&
                        bind(lib, "hiprtcGetCodeSize", a.codeSize) &&
                        bind(lib, "hiprtcGetCode", a.code) &&
                        bind(lib, "hiprtcDestroyProgram", a.destroy);
        if (!ok) a.why = "libamdhip64 has no hiprtc entry points (ROCm older than 4.2?)";
    });
    return a;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Runs hiprtc once; fills r.ok/log/code.
void runHiprtc(const Api& h, const std::string& source, const std::vector<std::string>& options,
               HiprtcResult& r) {
    const std::string headerText(ts::resources::find(kDeviceHeader));
    const char* headers[] = {headerText.c_str()};
    const char* headerNames[] = {kDeviceHeader};
    const int numHeaders = headerText.empty() ? 0 : 1;
    Prog prog = nullptr;
    int rc = h.create(&prog, source.c_str(), kSourceName, numHeaders, headers, headerNames);
    if (rc != 0) {
        r.log = std::string("hiprtcCreateProgram: ") + h.errorString(rc);
        return;
    }
    std::vector<const char*> opts;
    for (const auto& o : options) opts.push_back(o.c_str());
    rc = h.compile(prog, static_cast<int>(opts.size()), opts.data());
    size_t logSize = 0;
    if (h.logSize(prog, &logSize) == 0 && logSize > 1) {
        std::string log(logSize, '\0');
        if (h.log(prog, log.data()) == 0) {
            while (!log.empty() && log.back() == '\0') log.pop_back();
            // hiprtc 5.2 (through comgr) names the source by a temporary path and ignores the
            // program name; name it as the logs of every other compile do.
            static const std::regex tmpName("/tmp/comgr-[^/ ]*/input/CompileSource");
            r.log = std::regex_replace(log, tmpName, kSourceName);
        }
    }
    if (rc != 0) {
        if (r.log.empty()) r.log = std::string("hiprtcCompileProgram: ") + h.errorString(rc);
    } else {
        size_t size = 0;
        if (h.codeSize(prog, &size) == 0 && size > 0) {
            r.code.resize(size);
            if (h.code(prog, r.code.data()) != 0) r.code.clear();
        }
        r.ok = !r.code.empty();
        if (!r.ok) r.log += "hiprtcGetCode: empty code object";
    }
    h.destroy(&prog);
}

}  // namespace

const std::vector<std::string>& hiprtcArchs() {
    static const std::vector<std::string> archs{"gfx90a", "gfx908"};
    return archs;
}

bool isAmdgpuElf(const std::vector<char>& b) {
    // ELF64 header: magic, then e_machine (little-endian 16 bits) at offset 18; EM_AMDGPU = 224.
    return b.size() > 20 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F' &&
           static_cast<unsigned char>(b[18]) == 224 && b[19] == 0;
}

std::vector<std::string> hiprtcOptions(const std::string& arch,
                                       const std::vector<std::string>& extraOptions) {
    std::vector<std::string> o{"--offload-arch=" + arch, "-O3", "-std=c++17"};
    o.insert(o.end(), extraOptions.begin(), extraOptions.end());
    return o;
}

bool hiprtcAvailable(std::string* why) {
    const Api& h = api();
    if (why) *why = h.why;
    return h.why.empty();
}

std::string hiprtcVersion() {
    const Api& h = api();
    int major = 0, minor = 0;
    if (!h.why.empty() || h.version(&major, &minor) != 0) return {};
    return std::to_string(major) + "." + std::to_string(minor);
}

HiprtcResult compileHip(const std::string& source, const std::string& arch,
                        const std::vector<std::string>& extraOptions, bool useCache) {
    const auto t0 = std::chrono::steady_clock::now();
    HiprtcResult r;
    r.arch = arch;
    try {
        const Api& h = api();
        if (!h.why.empty()) {
            r.log = h.why;
            return r;
        }
        const auto& archs = hiprtcArchs();
        if (std::find(archs.begin(), archs.end(), arch) == archs.end()) {
            r.log = "hiprtc " + hiprtcVersion() + " cannot compile for '" + arch +
                    "' (supported here: gfx90a, gfx908)";
            return r;
        }
        const std::vector<std::string> options = hiprtcOptions(arch, extraOptions);
        CacheKey key;
        key.add("hiprtc").add(source).add(ts::resources::find(kDeviceHeader)).add(arch);
        key.add(hiprtcVersion());
        for (const auto& o : options) key.add(o);
        const CubinCache cache(useCache ? CubinCache::defaultDir() : std::filesystem::path());
        if (auto hit = cache.load(key.value())) {
            r.ok = r.cacheHit = true;
            r.code = std::move(*hit);
            r.compileMs = msSince(t0);
            return r;
        }
        // hiprtc keeps global compiler state; one compile at a time (the IDE compiles off the
        // UI thread and tests may run in parallel threads).
        static std::mutex mu;
        {
            std::lock_guard<std::mutex> lock(mu);
            runHiprtc(h, source, options, r);
        }
        if (r.ok) cache.store(key.value(), r.code);
    } catch (const std::exception& e) {
        r.ok = false;
        r.code.clear();
        r.log += std::string("internal error while compiling: ") + e.what();
    }
    r.compileMs = msSince(t0);
    return r;
}

}  // namespace ts::rt
