#include "profiler/worker/WorkerServer.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "profiler/Profile.h"
#include "profiler/Runtime.h"
#include "profiler/worker/Messages.h"

namespace ts::rt::worker {
namespace {

Message errorReply(const std::string& why) {
    Message m;
    m.header = {{"ok", false}, {"error", why}};
    return m;
}

Message hello() {
    Message m;
    std::string why;
    GpuRuntime* gpu = GpuRuntime::get(&why);
    m.header = {{"ok", true}, {"pid", static_cast<long>(::getpid())}};
    m.header["device"] = gpu ? deviceJson(gpu->device()) : nlohmann::json();
    m.header["why"] = why;
    if (const Driver* d = gpu ? Driver::get() : nullptr) {
        int v = 0;
        if (d->driverGetVersion(&v) == 0) m.header["driver_version"] = v;
    }
    return m;
}

/// Does the requested fault. Returns only for "garbage" (after writing non-protocol bytes).
void testFault(const std::string& fault, int outFd) {
    if (fault == "segfault") std::raise(SIGSEGV);
    if (fault == "abort") std::abort();
    if (fault == "exit") {
        std::cerr << "tilec worker: exiting with status 7 on request (test fault)" << std::endl;
        ::_exit(7);
    }
    if (fault == "hang")
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (fault == "garbage") {
        writeAll(outFd, "this is not a frame\n");
        return;
    }
}

}  // namespace

int serveWorker(int inFd, int outFd, const WorkerOptions& options) {
    std::signal(SIGPIPE, SIG_IGN);
    // Stray prints of libraries (CUDA, CUPTI) go to stderr, never into the protocol stream.
    std::cout.flush();
    if (outFd == STDOUT_FILENO) {
        outFd = ::dup(STDOUT_FILENO);
        ::dup2(STDERR_FILENO, STDOUT_FILENO);
    }
    FrameReader reader(options.maxFrameBytes);
    for (;;) {
        std::string payload, why;
        const ReadStatus st = readFrame(inFd, reader, payload, -1, why);
        if (st == ReadStatus::Closed) return 0;
        if (st != ReadStatus::Frame) {
            std::cerr << "tilec worker: cannot read the request: " << why << std::endl;
            return 4;
        }
        auto msg = decodeMessage(payload, why);
        Message reply;
        bool fatal = false, quit = false;
        if (!msg) {
            reply = errorReply(why);
        } else {
            const std::string op = msg->header.value("op", "");
            if (op == "hello") {
                reply = hello();
            } else if (op == "quit") {
                reply.header = {{"ok", true}};
                quit = true;
            } else if (op == "test") {
                if (!options.allowTestFaults) {
                    reply = errorReply("test faults are off (start the worker with "
                                       "--allow-test-faults)");
                } else if (msg->header.value("fault", "") == "echo") {
                    // "sleep_ms" stands in for a kernel's run time (the pool test); "device" is
                    // the TILESCOPE_DEVICE this worker was started with (WorkerPool.h).
                    if (int ms = msg->header.value("sleep_ms", 0); ms > 0)
                        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
                    const char* dev = std::getenv("TILESCOPE_DEVICE");
                    reply.header = {{"ok", true},
                                    {"bytes", msg->blob.size()},
                                    {"pid", static_cast<long>(::getpid())},
                                    {"device", dev ? std::string(dev) : std::string()}};
                    reply.blob = std::move(msg->blob);
                } else {
                    testFault(msg->header.value("fault", ""), outFd);
                    reply = errorReply("unknown test fault '" + msg->header.value("fault", "") +
                                       "'");
                }
            } else if (op == "baseline") {
                // A library's time for the same problem (profiler/baseline/CublasGemm.h).
                auto req = decodeBaselineRequest(*msg, why);
                GpuRuntime* gpu = req ? GpuRuntime::get(&why) : nullptr;
                BaselineResult r;
                if (!req) r.error = why;
                else if (!gpu) r.error = "no GPU in the worker: " + why;
                else if (msg->header.value("library", "") != "cublas")
                    r.error = "unknown baseline library '" + msg->header.value("library", "") +
                              "' (known: cublas)";
                else
                    r = timeCublasGemm(*gpu, req->gemm, req->reps, req->warmup, req->rotateSets);
                reply.header = baselineJson(r);
            } else if (op == "run" || op == "profile") {
                auto req = decodeRunRequest(*msg, why);
                GpuRuntime* gpu = req ? GpuRuntime::get(&why) : nullptr;
                if (!gpu) {
                    RunResult r;
                    r.failedStage = RunStage::Request;
                    r.error = req ? "no GPU in the worker: " + why : why;
                    reply = encodeRunResult(r);
                } else {
                    nlohmann::json profile;
                    RunResult r = op == "run" ? gpu->run(*req)
                                              : profileRun(*gpu, *req,
                                                           profileOptionsFromJson(msg->header),
                                                           profile);
                    fatal = !gpu->brokenReason().empty();
                    reply = encodeRunResult(r, fatal);
                    if (op == "profile") reply.header["profile"] = profile;
                }
            } else {
                reply = errorReply("unknown op '" + op + "'");
            }
        }
        if (!writeMessage(outFd, reply, options.maxFrameBytes)) return 5;  // the caller has gone
        if (quit) return 0;
        if (fatal) return 3;  // the context is unusable: the caller starts a fresh worker
    }
}

}  // namespace ts::rt::worker
