// Checks that resources/ts_device.cuh compiles under NVRTC with no include paths, the way the
// compiler uses it (the header handed to nvrtcCreateProgram as an in-memory include), for each
// architecture given. Needs no GPU. Build: g++ -std=c++17 gemm_nvrtc_check.cpp -I$CUDA/include
//   -L$CUDA/lib64 -lnvrtc. Run: ./check <header> <source.cu> [arch...] (default sm_80 sm_90a).
#include <nvrtc.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static std::string readFile(const char* p) {
    std::ifstream f(p);
    if (!f) { std::fprintf(stderr, "cannot read %s\n", p); std::exit(2); }
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

int main(int argc, char** argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: %s header.cuh source.cu [arch...]\n", argv[0]); return 2; }
    const std::string header = readFile(argv[1]), source = readFile(argv[2]);
    std::vector<std::string> archs;
    for (int i = 3; i < argc; ++i) archs.push_back(argv[i]);
    if (archs.empty()) archs = {"sm_80", "sm_90a"};
    int failures = 0;
    for (const auto& arch : archs) {
        nvrtcProgram prog;
        const char* hdrs[] = {header.c_str()};
        const char* names[] = {"ts_device.cuh"};
        if (nvrtcCreateProgram(&prog, source.c_str(), "probe.cu", 1, hdrs, names) != NVRTC_SUCCESS) return 3;
        const std::string archOpt = "--gpu-architecture=" + arch;
        const char* opts[] = {archOpt.c_str(), "--std=c++17", "-default-device", "--ptxas-options=-v"};
        nvrtcResult r = nvrtcCompileProgram(prog, 4, opts);
        size_t logSize = 0;
        nvrtcGetProgramLogSize(prog, &logSize);
        std::string log(logSize, '\0');
        nvrtcGetProgramLog(prog, log.data());
        size_t cubinSize = 0;
        if (r == NVRTC_SUCCESS) nvrtcGetCUBINSize(prog, &cubinSize);
        std::printf("NVRTC %-7s %s (cubin %zu bytes)\n", arch.c_str(), nvrtcGetErrorString(r), cubinSize);
        // Keep the log short: errors, warnings and any stack/spill line that is not zero.
        std::istringstream ls(log);
        for (std::string line; std::getline(ls, line);)
            if (line.find("error") != std::string::npos || line.find("warning") != std::string::npos ||
                (line.find("stack frame") != std::string::npos && line.find(" 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads") == std::string::npos))
                std::printf("  %s\n", line.c_str());
        if (r != NVRTC_SUCCESS) ++failures;
        nvrtcDestroyProgram(&prog);
    }
    return failures ? 1 : 0;
}
