#include "profiler/DeviceCompile.h"

#include "profiler/cuda/Nvrtc.h"
#include "profiler/hip/Hiprtc.h"

namespace ts::rt {

DeviceCompileResult compileDeviceSource(const std::string& source, const std::string& arch,
                                        bool useCache) {
    DeviceCompileResult d;
    std::string why;
    if (isAmdArch(arch)) {
        d.compiler = "hiprtc";
        d.available = hiprtcAvailable(&why);
        if (!d.available) {
            d.log = why;
            return d;
        }
        HiprtcResult r = compileHip(source, arch, {}, useCache);
        d.ok = r.ok, d.log = r.log, d.ms = r.compileMs, d.cacheHit = r.cacheHit;
        d.binaryBytes = r.code.size();
        return d;
    }
    d.compiler = "nvrtc";
    d.available = nvrtcAvailable(&why);
    if (!d.available) {
        d.log = why;
        return d;
    }
    NvrtcResult r = compileCuda(source, arch, {}, useCache);
    d.ok = r.ok, d.log = r.log, d.ms = r.compileMs, d.cacheHit = r.cacheHit;
    d.binaryBytes = r.cubin.size();
    d.archUnsupported = r.archUnsupported;
    d.ptxas = std::move(r.ptxas);
    return d;
}

}  // namespace ts::rt
