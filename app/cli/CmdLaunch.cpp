// `tilec launch FILE.cu --kernel K1,K2,...`: runs raw CUDA kernels `extern "C" __global__ void
// K(float* out, int n)` in the GPU worker, one after the other in this process, and reports each:
// ok with the first values of `out`, the CUDA error of a fault (the worker exits; the next kernel
// gets a fresh one), or the timeout of a kernel that never ends. It is how the fault isolation of
// issue 12 is checked on a device (bench/h200_profile.sh with tests/worker/faults.cu).
#include <cstdio>
#include <iostream>

#include "app/cli/Commands.h"
#include "app/cli/GpuWorker.h"
#include "profiler/check/Inputs.h"

namespace ts::cli {

int runLaunch(const LaunchCommand& c) {
    auto text = readFile(c.file);
    if (!text) return 1;
    std::string why;
    const auto gpu = workerDevice(why);
    if (!gpu) {
        std::cerr << "tilec: error: launch needs a GPU (" << why << ")\n";
        return 1;
    }
    int failures = 0;
    for (const auto& k : c.kernels) {
        rt::RunRequest req;
        req.source = *text;
        req.kernel = k;
        req.arch = rt::archFor(*gpu);
        req.signature = {{"out", ir::DType::Float32, {c.elements}, true}};
        req.tensors = {HostTensor{ir::DType::Float32, {c.elements}, {}}};
        req.scalars = {{ir::DType::Int32, static_cast<double>(c.elements)}};
        req.config.grid[0] = c.grid;
        req.config.block[0] = c.block;
        const pid_t before = workerClient().pid();
        auto res = runInWorker(req);
        if (res.ok) {
            std::printf("%s: ok (worker pid %d), %.3f ms; out[0..3] =", k.c_str(),
                        static_cast<int>(workerClient().pid()), res.launchMs);
            const auto& d = res.outputs.at(0).tensor.data;
            for (size_t i = 0; i < 4 && i < d.size(); ++i) std::printf(" %g", d[i]);
            std::printf("\n");
        } else {
            ++failures;
            std::printf("%s: FAILED at %s (worker pid %d): %s\n", k.c_str(),
                        rt::stageName(res.failedStage), static_cast<int>(before),
                        res.error.c_str());
        }
        std::fflush(stdout);
    }
    return failures ? 2 : 0;
}

}  // namespace ts::cli
