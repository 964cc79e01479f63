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
#include "profiler/worker/Messages.h"
#include "profiler/baseline/CublasGemm.h"
#include "profiler/worker/WorkerClient.h"
#include "profiler/worker/WorkerPool.h"

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
/// Asks `client`'s worker for its driver version and keeps it as workerDriverVersion() (tune's
/// pool says hello through its own clients, not the process's worker).
void noteWorkerDriverVersion(rt::worker::WorkerClient& client);

/// What happened to the worker during the last runInWorker (kind None when it replied).
const rt::worker::WorkerFailure& lastWorkerFailure();

/// Runs `req` in the worker ("run"), or profiles it ("profile" with `options`, filling
/// `profile`). A worker that crashed, hung or broke the protocol gives ok=false, failedStage
/// Launch and an error naming the kernel and what happened ("kernel 'k' ended the GPU worker:
/// ... killed by SIGSEGV ..."); the next call starts a fresh worker.
rt::RunResult runInWorker(const rt::RunRequest& req, const rt::ProfileOptions* options = nullptr,
                          nlohmann::json* profile = nullptr);

/// runInWorker through `client` (a pool's worker), its failure in `failure`.
rt::RunResult runInWorkerClient(rt::worker::WorkerClient& client, const rt::RunRequest& req,
                                rt::worker::WorkerFailure& failure,
                                const rt::ProfileOptions* options = nullptr,
                                nlohmann::json* profile = nullptr);

/// The device of the worker behind `client` (a "hello"): nullopt with `why` as workerDevice.
std::optional<rt::DeviceInfo> clientDevice(rt::worker::WorkerClient& client, std::string& why);

/// The device ordinals `tilec tune` runs workers on: `devicesFlag` ("0,1"; checked against the
/// driver's device count), else $TILESCOPE_DEVICE alone when set, else every device the driver
/// sees (after CUDA_VISIBLE_DEVICES). Counting devices creates no CUDA context. nullopt with
/// `why` for a bad list or no driver.
std::optional<std::vector<int>> tuneDevices(const std::string& devicesFlag, std::string& why);

/// The cuBLAS time of `gemm` measured in `client`'s worker (default: the process's worker); a
/// worker that dies or hangs gives ok=false with what happened.
rt::BaselineResult baselineInWorker(const rt::worker::BaselineRequest& req,
                                    rt::worker::WorkerClient* client = nullptr);

/// The results-store status of a failed run: "timeout" / "crash" when the worker was killed or
/// died, "fault" for a CUDA fault reply, "compile_error" at the compile stage, else "error".
std::string runFailureStatus(const rt::RunResult& r);
/// The same for a run whose worker failure is `failure` (a pool's worker).
std::string runFailureStatus(const rt::RunResult& r, const rt::worker::WorkerFailure& failure);

/// `tilec worker`: serves requests on stdin/stdout (profiler/worker/WorkerServer.h), with
/// frames of at most `maxFrameBytes` (lowered only by tests).
int runWorker(bool allowTestFaults, uint32_t maxFrameBytes = rt::worker::kDefaultMaxFrameBytes);

}  // namespace ts::cli
