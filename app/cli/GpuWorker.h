// tilec's GPU access: every kernel launch of run/bench/profile/tune/chain goes through one
// worker child process (`tilec worker`, profiler/worker/), so a faulting or hanging kernel ends
// only the child. This file owns the process-wide WorkerClient, asks the worker which device it
// has, and turns a worker failure into a RunResult whose error says what happened to which
// kernel. The parent never creates a CUDA context.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profiler/Profile.h"
#include "profiler/Runtime.h"
#include "profiler/worker/WorkerClient.h"

namespace ts::cli {

/// The worker command: this executable with "worker" (readlink /proc/self/exe), unless
/// setWorkerCommand() chose another (tests point it at the built tilec).
std::vector<std::string> workerCommand();
void setWorkerCommand(std::vector<std::string> argv);

/// Seconds a request may take before the worker is killed: --timeout, else
/// $TILESCOPE_WORKER_TIMEOUT, else 120.
double workerTimeoutS();
void setWorkerTimeoutS(double s);

/// The process's worker client (started on its first request).
rt::worker::WorkerClient& workerClient();

/// The worker's GPU: nullopt with `why` when no driver loads here (then no worker is started),
/// the worker reports no device, or the worker cannot be started.
std::optional<rt::DeviceInfo> workerDevice(std::string& why);
/// The worker's driver version (cuDriverGetVersion, e.g. 13000), 0 when unknown.
int workerDriverVersion();

/// What happened to the worker during the last runInWorker (kind None when it replied).
const rt::worker::WorkerFailure& lastWorkerFailure();

/// Runs `req` in the worker ("run"), or profiles it ("profile" with `options`, filling
/// `profile`). A worker that crashed, hung or broke the protocol gives ok=false, failedStage
/// Launch and an error naming the kernel and what happened ("kernel 'k' ended the GPU worker:
/// ... killed by SIGSEGV ..."); the next call starts a fresh worker.
rt::RunResult runInWorker(const rt::RunRequest& req, const rt::ProfileOptions* options = nullptr,
                          nlohmann::json* profile = nullptr);

/// The results-store status of a failed run: "timeout" / "crash" when the worker was killed or
/// died, "fault" for a CUDA fault reply, "compile_error" at the compile stage, else "error".
std::string runFailureStatus(const rt::RunResult& r);

/// `tilec worker`: serves requests on stdin/stdout (profiler/worker/WorkerServer.h), with
/// frames of at most `maxFrameBytes` (lowered only by tests).
int runWorker(bool allowTestFaults, uint32_t maxFrameBytes = rt::worker::kDefaultMaxFrameBytes);

}  // namespace ts::cli
