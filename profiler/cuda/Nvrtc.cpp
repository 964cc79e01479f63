#include "profiler/cuda/Nvrtc.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "compiler/support/Resources.h"
#include "profiler/cuda/CubinCache.h"

#if TS_HAVE_NVRTC
#include <nvrtc.h>
#endif

namespace ts::rt {
namespace {

constexpr const char* kDeviceHeader = "ts_device.cuh";
constexpr const char* kSourceName = "tilescope_kernel.cu";

/// First existing CUDA include directory: the toolkit this was built against, else the usual
/// install location. The device header does not need it; it serves kernels that include CUDA's
/// own headers (NVRTC finds its builtin headers without it).
std::string cudaIncludeDir() {
    std::vector<std::string> candidates;
#ifdef TS_CUDA_INCLUDE_DIR
    std::stringstream ss(TS_CUDA_INCLUDE_DIR);  // a CMake list: dirs separated by ';'
    for (std::string d; std::getline(ss, d, ';');)
        if (!d.empty()) candidates.push_back(d);
#endif
    candidates.push_back("/usr/local/cuda/include");
    for (const auto& d : candidates) {
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::path(d) / "cuda.h", ec)) return d;
    }
    return {};
}

int archNumber(const std::string& arch) {
    size_t i = 3;
    int n = 0;
    while (i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])))
        n = n * 10 + (arch[i++] - '0');
    return n;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

#if TS_HAVE_NVRTC
/// Runs NVRTC once; fills r.ok/log/cubin.
void runNvrtc(const std::string& source, const std::vector<std::string>& options, NvrtcResult& r) {
    const std::string_view header = ts::resources::find(kDeviceHeader);
    const std::string headerText(header);
    const char* headers[] = {headerText.c_str()};
    const char* headerNames[] = {kDeviceHeader};
    const int numHeaders = header.empty() ? 0 : 1;

    nvrtcProgram prog = nullptr;
    nvrtcResult rc =
        nvrtcCreateProgram(&prog, source.c_str(), kSourceName, numHeaders, headers, headerNames);
    if (rc != NVRTC_SUCCESS) {
        r.log = std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(rc);
        return;
    }
    std::vector<const char*> opts;
    for (const auto& o : options) opts.push_back(o.c_str());
    rc = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());

    size_t logSize = 0;
    if (nvrtcGetProgramLogSize(prog, &logSize) == NVRTC_SUCCESS && logSize > 1) {
        std::string log(logSize, '\0');
        if (nvrtcGetProgramLog(prog, log.data()) == NVRTC_SUCCESS) {
            log.resize(logSize - 1);  // drop the terminating NUL
            // CUDA 13's NVRTC also ends each part of its log (front end, ptxas -v, ptxas error)
            // with a NUL: "...Compile time = 2.6 ms\n\0ptxas error   : ...\n\0". Dropped, so the
            // lines start with "ptxas" (withoutPtxasInfo) and no NUL reaches the terminal.
            log.erase(std::remove(log.begin(), log.end(), '\0'), log.end());
            r.log = std::move(log);
        }
    }
    if (rc != NVRTC_SUCCESS) {
        if (r.log.empty()) r.log = std::string("nvrtcCompileProgram: ") + nvrtcGetErrorString(rc);
        if (header.empty() && source.find(kDeviceHeader) != std::string::npos)
            r.log += "\nnote: this build embeds no resources/ts_device.cuh";
    } else {
        size_t size = 0;
        rc = nvrtcGetCUBINSize(prog, &size);
        if (rc == NVRTC_SUCCESS && size > 0) {
            r.cubin.resize(size);
            rc = nvrtcGetCUBIN(prog, r.cubin.data());
        }
        if (rc != NVRTC_SUCCESS || size == 0) {
            r.cubin.clear();
            r.log += std::string("nvrtcGetCUBIN: ") +
                     (rc != NVRTC_SUCCESS ? nvrtcGetErrorString(rc) : "empty cubin");
        } else {
            r.ok = true;
        }
    }
    nvrtcDestroyProgram(&prog);
}
#endif

}  // namespace

bool isRealArch(const std::string& arch) {
    static const std::regex re("sm_[0-9]{2,3}[af]?");
    return std::regex_match(arch, re);
}

std::vector<std::string> nvrtcOptions(const std::string& arch,
                                      const std::vector<std::string>& extraOptions) {
    // -v: ptxas's registers, spills and remarks for NvrtcResult::ptxas (no effect on the cubin).
    std::vector<std::string> o{"--std=c++17", "--gpu-architecture=" + arch,
                               "--device-as-default-execution-space", "--generate-line-info", "--ptxas-options=-v"};
    if (std::string inc = cudaIncludeDir(); !inc.empty()) {
        o.push_back("-I" + inc);
        // CUDA 13 keeps libcu++ (cuda/std/...), which <cooperative_groups.h> includes (T.sync_grid
        // kernels), under include/cccl.
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::path(inc) / "cccl" / "cuda" / "std", ec))
            o.push_back("-I" + inc + "/cccl");
    }
    // TILESCOPE_PTXAS_OPTIONS (e.g. -O1): ptxas options for every compile, part of the cubin cache
    // key like every option. For diagnosing a suspected ptxas miscompile (README, 2026-12-05d:
    // at -O3 ptxas gave two spilled row sums of g14_row_spread.py one register), not for speed.
    if (const char* px = std::getenv("TILESCOPE_PTXAS_OPTIONS"); px && *px) o.push_back(std::string("--ptxas-options=") + px);
    o.insert(o.end(), extraOptions.begin(), extraOptions.end());
    return o;
}

bool nvrtcAvailable(std::string* why) {
#if TS_HAVE_NVRTC
    return true;
#else
    if (why)
        *why = "this build of TileScope has no NVRTC (CUDA toolkit not found at configure time)";
    return false;
#endif
}

std::string nvrtcVersion() {
#if TS_HAVE_NVRTC
    int major = 0, minor = 0;
    if (::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return {};
    return std::to_string(major) + "." + std::to_string(minor);
#else
    return {};
#endif
}

std::vector<int> nvrtcSupportedArchs() {
    std::vector<int> out;
#if TS_HAVE_NVRTC
    int n = 0;
    if (nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0) {
        out.resize(static_cast<size_t>(n));
        if (nvrtcGetSupportedArchs(out.data()) != NVRTC_SUCCESS) out.clear();
    }
#endif
    return out;
}

NvrtcResult compileCuda(const std::string& source, const std::string& arch,
                        const std::vector<std::string>& extraOptions, bool useCache) {
    const auto t0 = std::chrono::steady_clock::now();
    NvrtcResult r;
    r.arch = arch;
    try {
        std::string why;
        if (!nvrtcAvailable(&why)) {
            r.log = why;
            return r;
        }
        if (!isRealArch(arch)) {
            r.log = "cannot compile for '" + arch +
                    "': expected a real architecture such as sm_80 or sm_90a";
            r.archUnsupported = true;
            return r;
        }
        const std::vector<int> supported = nvrtcSupportedArchs();
        if (!supported.empty() &&
            std::find(supported.begin(), supported.end(), archNumber(arch)) == supported.end()) {
            std::string list;
            for (int a : supported) list += (list.empty() ? "sm_" : ", sm_") + std::to_string(a);
            r.log = "NVRTC " + nvrtcVersion() + " cannot compile for " + arch +
                    " (supported: " + list + ")";
            r.archUnsupported = true;
            return r;
        }
        const std::vector<std::string> options = nvrtcOptions(arch, extraOptions);
        CacheKey key;
        key.add(source).add(ts::resources::find(kDeviceHeader)).add(arch).add(nvrtcVersion());
        for (const auto& o : options) key.add(o);
        const CubinCache cache(useCache ? CubinCache::defaultDir() : std::filesystem::path());
        // ptxas's -v lines live beside the cubin, under a key of their own.
        const uint64_t infoKey = CacheKey().add(std::to_string(key.value())).add("ptxas -v").value();
        if (auto hit = cache.load(key.value())) {
            r.ok = true;
            r.cacheHit = true;
            r.cubin = std::move(*hit);
            if (auto lines = cache.load(infoKey)) r.ptxas = parsePtxasInfo(std::string(lines->begin(), lines->end()));
            r.compileMs = msSince(t0);
            return r;
        }
#if TS_HAVE_NVRTC
        runNvrtc(source, options, r);
#endif
        std::string ptxasLines;
        r.log = withoutPtxasInfo(r.log, &ptxasLines);
        r.ptxas = parsePtxasInfo(ptxasLines);
        if (r.ok && cache.store(key.value(), r.cubin)) cache.store(infoKey, std::vector<char>(ptxasLines.begin(), ptxasLines.end()));
    } catch (const std::exception& e) {
        r.ok = false;
        r.cubin.clear();
        r.log += std::string("internal error while compiling: ") + e.what();
    }
    r.compileMs = msSince(t0);
    return r;
}

}  // namespace ts::rt
