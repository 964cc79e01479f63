#include "profiler/cuda/Devices.h"

#include <cstdio>

#include "profiler/cuda/Driver.h"

namespace ts::rt {

DeviceInfo queryDevice(int ordinal) {
    const Driver& drv = Driver::require();
    cu::Device dev = 0;
    TS_CU(drv, deviceGet, &dev, ordinal);
    DeviceInfo d;
    d.ordinal = ordinal;
    char name[256] = {};
    TS_CU(drv, deviceGetName, name, static_cast<int>(sizeof(name) - 1), dev);
    d.name = name;
    auto attr = [&](int a) {
        int v = 0;
        TS_CU(drv, deviceGetAttribute, &v, a, dev);
        return v;
    };
    d.ccMajor = attr(cu::kAttrComputeCapabilityMajor);
    d.ccMinor = attr(cu::kAttrComputeCapabilityMinor);
    d.smCount = attr(cu::kAttrMultiprocessorCount);
    d.maxSmemPerBlockOptin = attr(cu::kAttrMaxSharedMemoryPerBlockOptin);
    d.maxSmemPerSm = attr(cu::kAttrMaxSharedMemoryPerMultiprocessor);
    d.maxThreadsPerBlock = attr(cu::kAttrMaxThreadsPerBlock);
    d.l2Bytes = attr(cu::kAttrL2CacheSize);
    TS_CU(drv, deviceTotalMem, &d.globalMemBytes, dev);
    return d;
}

std::vector<DeviceInfo> listDevices(std::string* whyNone) {
    std::vector<DeviceInfo> out;
    try {
        std::string why;
        const Driver* drv = Driver::get(&why);
        if (!drv) {
            if (whyNone) *whyNone = why;
            return out;
        }
        int n = 0;
        TS_CU(*drv, deviceGetCount, &n);
        for (int i = 0; i < n; ++i) out.push_back(queryDevice(i));
        if (n == 0 && whyNone) *whyNone = "the NVIDIA driver reports no CUDA devices";
    } catch (const std::exception& e) {
        out.clear();
        if (whyNone) *whyNone = e.what();
    }
    return out;
}

std::string archForCapability(int ccMajor, int ccMinor) {
    if (ccMajor == 8) return "sm_80";
    if (ccMajor == 9 && ccMinor == 0) return "sm_90a";
    return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
}

std::string archFor(const DeviceInfo& d) { return archForCapability(d.ccMajor, d.ccMinor); }

std::string loadableArch(const std::string& targetArch, const std::string& deviceArch) {
    // "sm_80" / "sm_90a" / "sm_100a": the major is every digit but the last.
    auto major = [](const std::string& a) -> int {
        if (a.rfind("sm_", 0) != 0) return -1;
        std::string d;
        for (char ch : a.substr(3))
            if (ch >= '0' && ch <= '9') d += ch;
        return d.size() >= 2 ? std::stoi(d.substr(0, d.size() - 1)) : -1;
    };
    const int t = major(targetArch), dev = major(deviceArch);
    // An arch-specific target ("sm_90a": wgmma, setmaxnreg) has no later-ISA equivalent.
    const bool archSpecific = !targetArch.empty() && targetArch.back() == 'a';
    return (t > 0 && dev > 0 && t < dev && !archSpecific) ? deviceArch : targetArch;
}

std::string describe(const DeviceInfo& d) {
    char mem[32];
    std::snprintf(mem, sizeof(mem), "%.1f GiB", static_cast<double>(d.globalMemBytes) / (1 << 30));
    return d.name + " (" + archFor(d) + ", " + std::to_string(d.smCount) + " SMs, " + mem + ")";
}

}  // namespace ts::rt
