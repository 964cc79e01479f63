#include "app/cli/GpuWorker.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <memory>

#include "profiler/cuda/Driver.h"
#include "profiler/worker/Messages.h"
#include "profiler/worker/WorkerServer.h"

namespace ts::cli {
namespace {

std::vector<std::string> g_command;
double g_timeoutS = 0;
std::unique_ptr<rt::worker::WorkerClient> g_client;
rt::worker::WorkerFailure g_lastFailure;

struct Hello {
    bool asked = false;
    std::optional<rt::DeviceInfo> device;
    std::string why;
    int driverVersion = 0;
};
Hello g_hello;

int timeoutMs() { return static_cast<int>(workerTimeoutS() * 1000); }

}  // namespace

std::vector<std::string> workerCommand() {
    if (!g_command.empty()) return g_command;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    return {n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("tilec"), "worker"};
}

void setWorkerCommand(std::vector<std::string> argv) {
    g_command = std::move(argv);
    g_client.reset();
    g_hello = {};
}

double workerTimeoutS() {
    if (g_timeoutS > 0) return g_timeoutS;
    if (const char* e = std::getenv("TILESCOPE_WORKER_TIMEOUT"); e && *e) {
        const double v = std::atof(e);
        if (v > 0) return v;
    }
    return 120;
}

void setWorkerTimeoutS(double s) { g_timeoutS = s; }

rt::worker::WorkerClient& workerClient() {
    if (!g_client) g_client = std::make_unique<rt::worker::WorkerClient>(workerCommand());
    return *g_client;
}

const rt::worker::WorkerFailure& lastWorkerFailure() { return g_lastFailure; }

std::optional<rt::DeviceInfo> workerDevice(std::string& why) {
    if (!g_hello.asked) {
        g_hello.asked = true;
        // No driver here: the worker would find none either; do not start a process for that.
        if (!rt::available(&g_hello.why)) {
            why = g_hello.why;
            return std::nullopt;
        }
        rt::worker::Message m;
        m.header = {{"op", "hello"}};
        rt::worker::WorkerFailure f;
        auto reply = workerClient().call(m, 60000, f);
        if (!reply) {
            g_hello.why = f.message;
        } else if (reply->header.contains("device") && !reply->header["device"].is_null()) {
            g_hello.device = rt::worker::deviceFromJson(reply->header["device"]);
            g_hello.driverVersion = reply->header.value("driver_version", 0);
        } else {
            g_hello.why = reply->header.value("why", std::string("the worker found no GPU"));
        }
    }
    why = g_hello.why;
    return g_hello.device;
}

int workerDriverVersion() { return g_hello.driverVersion; }

void noteWorkerDriverVersion(rt::worker::WorkerClient& client) {
    rt::worker::Message m;
    m.header = {{"op", "hello"}};
    rt::worker::WorkerFailure f;
    if (auto reply = client.call(m, 60000, f))
        g_hello.driverVersion = reply->header.value("driver_version", 0);
}

rt::RunResult runInWorkerClient(rt::worker::WorkerClient& client, const rt::RunRequest& req,
                                rt::worker::WorkerFailure& failure,
                                const rt::ProfileOptions* options, nlohmann::json* profile) {
    rt::worker::Message m = rt::worker::encodeRunRequest(req, options ? "profile" : "run");
    if (options) m.header["profile_options"] = rt::profileOptionsJson(*options);
    failure = {};
    auto reply = client.call(m, timeoutMs(), failure);
    rt::RunResult r;
    if (!reply) {
        r.failedStage = rt::RunStage::Launch;
        r.error = "kernel '" + req.kernel + "' ended the GPU worker: " + failure.message +
                  "; a fresh worker takes the next run";
        return r;
    }
    std::string why;
    auto decoded = rt::worker::decodeRunResult(*reply, why);
    if (!decoded) {
        r.failedStage = rt::RunStage::Launch;
        r.error = why;
        return r;
    }
    if (reply->header.value("fatal", false)) {
        const std::string suffix =
            "; the kernel faulted and the GPU context is now unusable (restart the process)";
        if (auto at = decoded->error.find(suffix); at != std::string::npos)
            decoded->error.erase(at, suffix.size());
        decoded->error = "kernel '" + req.kernel + "' faulted: " + decoded->error +
                         " (the worker exited; a fresh one takes the next run)";
    }
    if (profile && reply->header.contains("profile")) *profile = reply->header["profile"];
    return std::move(*decoded);
}

rt::RunResult runInWorker(const rt::RunRequest& req, const rt::ProfileOptions* options,
                          nlohmann::json* profile) {
    return runInWorkerClient(workerClient(), req, g_lastFailure, options, profile);
}

std::optional<rt::DeviceInfo> clientDevice(rt::worker::WorkerClient& client, std::string& why) {
    rt::worker::Message m;
    m.header = {{"op", "hello"}};
    rt::worker::WorkerFailure f;
    auto reply = client.call(m, 60000, f);
    if (!reply) {
        why = f.message;
        return std::nullopt;
    }
    if (!reply->header.contains("device") || reply->header["device"].is_null()) {
        why = reply->header.value("why", std::string("the worker found no GPU"));
        return std::nullopt;
    }
    return rt::worker::deviceFromJson(reply->header["device"]);
}

std::optional<std::vector<int>> tuneDevices(const std::string& devicesFlag, std::string& why) {
    const rt::Driver* d = rt::Driver::get(&why);
    if (!d) return std::nullopt;
    int count = 0;
    if (const int rc = d->deviceGetCount(&count); rc != 0) {
        why = "cuDeviceGetCount: " + d->describe(rc);
        return std::nullopt;
    }
    if (count <= 0) {
        why = "the NVIDIA driver reports no CUDA devices";
        return std::nullopt;
    }
    if (!devicesFlag.empty()) return rt::worker::parseDeviceList(devicesFlag, count, why);
    if (const char* e = std::getenv("TILESCOPE_DEVICE"); e && *e)
        return rt::worker::parseDeviceList(e, count, why);
    std::vector<int> all(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) all[size_t(i)] = i;
    return all;
}

rt::BaselineResult baselineInWorker(const rt::worker::BaselineRequest& req,
                                    rt::worker::WorkerClient* client) {
    rt::worker::WorkerFailure f;
    auto reply = (client ? *client : workerClient())
                     .call(rt::worker::encodeBaselineRequest(req), timeoutMs(), f);
    if (!reply) {
        rt::BaselineResult r;
        r.error = "the cuBLAS baseline ended the GPU worker: " + f.message;
        return r;
    }
    return rt::worker::baselineFromJson(reply->header);
}

std::string runFailureStatus(const rt::RunResult& r) { return runFailureStatus(r, g_lastFailure); }

std::string runFailureStatus(const rt::RunResult& r, const rt::worker::WorkerFailure& failure) {
    using K = rt::worker::WorkerFailure::Kind;
    if (r.ok) return "ok";
    if (r.failedStage == rt::RunStage::Compile) return "compile_error";
    if (r.error.find("ended the GPU worker") != std::string::npos)
        return failure.kind == K::Timeout ? "timeout" : "crash";
    if (r.error.find("faulted") != std::string::npos || r.error.find("CUDA_ERROR_") != std::string::npos)
        return "fault";
    return "error";
}

int runWorker(bool allowTestFaults, uint32_t maxFrameBytes) {
    rt::worker::WorkerOptions o;
    o.allowTestFaults = allowTestFaults;
    o.maxFrameBytes = maxFrameBytes;
    return rt::worker::serveWorker(STDIN_FILENO, STDOUT_FILENO, o);
}

}  // namespace ts::cli
