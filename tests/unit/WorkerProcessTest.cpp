// The GPU worker as a process (profiler/worker/WorkerClient.h + `tilec worker`), without a GPU:
// a worker that segfaults, aborts, exits, hangs past the timeout or writes garbage is reported
// as such, and the next request is served by a fresh worker. The test faults exist only behind
// `tilec worker --allow-test-faults`.
#include <gtest/gtest.h>

#include <chrono>

#include "app/cli/GpuWorker.h"
#include "profiler/worker/Messages.h"
#include "profiler/worker/WorkerClient.h"

using namespace ts;
using namespace ts::rt::worker;

namespace {

WorkerClient testClient() { return WorkerClient({TS_TILEC_PATH, "worker", "--allow-test-faults"}); }

Message op(const std::string& name, const std::string& fault = {}) {
    Message m;
    m.header = {{"op", name}};
    if (!fault.empty()) m.header["fault"] = fault;
    return m;
}

/// A hello round trip succeeds and names the worker's pid.
void expectHello(WorkerClient& c) {
    WorkerFailure f;
    auto r = c.call(op("hello"), 30000, f);
    ASSERT_TRUE(r) << f.message;
    EXPECT_TRUE(r->header["ok"].get<bool>());
    EXPECT_EQ(r->header["pid"].get<long>(), c.pid());
}

}  // namespace

TEST(WorkerProcess, HelloReportsNoDeviceWithoutAGpu) {
    WorkerClient c = testClient();
    WorkerFailure f;
    auto r = c.call(op("hello"), 30000, f);
    ASSERT_TRUE(r) << f.message;
    EXPECT_EQ(c.starts(), 1);
    std::string why;
    if (r->header["device"].is_null()) {  // the dev box: no driver; the reason is given
        EXPECT_FALSE(r->header["why"].get<std::string>().empty());
    }
}

TEST(WorkerProcess, SegfaultAbortAndExitAreReportedAndTheNextRequestWorks) {
    WorkerClient c = testClient();
    expectHello(c);
    struct Case {
        const char* fault;
        WorkerFailure::Kind kind;
        const char* text;
    };
    for (const Case& k : {Case{"segfault", WorkerFailure::Kind::Crashed, "killed by SIGSEGV"},
                          Case{"abort", WorkerFailure::Kind::Crashed, "killed by SIGABRT"},
                          Case{"exit", WorkerFailure::Kind::Exited, "exited with status 7"}}) {
        SCOPED_TRACE(k.fault);
        const pid_t before = c.pid();
        WorkerFailure f;
        EXPECT_FALSE(c.call(op("test", k.fault), 30000, f));
        EXPECT_EQ(f.kind, k.kind);
        EXPECT_NE(f.message.find(k.text), std::string::npos) << f.message;
        EXPECT_NE(f.message.find("pid " + std::to_string(before)), std::string::npos);
        EXPECT_EQ(c.pid(), -1);  // reaped
        expectHello(c);          // a fresh worker answers
        EXPECT_NE(c.pid(), before);
    }
    EXPECT_EQ(c.starts(), 4);
}

TEST(WorkerProcess, HangPastTheTimeoutKillsOnlyTheWorker) {
    WorkerClient c = testClient();
    expectHello(c);
    WorkerFailure f;
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(c.call(op("test", "hang"), 300, f));
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(f.kind, WorkerFailure::Kind::Timeout);
    EXPECT_NE(f.message.find("did not answer within 0.3"), std::string::npos) << f.message;
    EXPECT_LT(s, 5.0);  // the timeout, not a wait for the endless loop
    expectHello(c);
    EXPECT_EQ(c.starts(), 2);
}

TEST(WorkerProcess, GarbageOnThePipeIsAProtocolFailure) {
    WorkerClient c = testClient();
    WorkerFailure f;
    EXPECT_FALSE(c.call(op("test", "garbage"), 30000, f));
    EXPECT_EQ(f.kind, WorkerFailure::Kind::Protocol);
    EXPECT_NE(f.message.find("bad frame magic"), std::string::npos) << f.message;
    expectHello(c);
}

// A request larger than one frame reaches the worker and its reply comes back whole, both
// split into pieces (the 1.1 GiB MLA decode KV cache against the 1 GiB limit, scaled down to a
// 1 KiB limit on both sides).
TEST(WorkerProcess, MessagesOverTheFrameLimitReachTheWorkerAndComeBack) {
    WorkerClient c({TS_TILEC_PATH, "worker", "--allow-test-faults", "--max-frame-bytes", "1024"},
                   1024);
    Message m = op("test", "echo");
    m.blob.resize(100000);
    for (size_t i = 0; i < m.blob.size(); ++i) m.blob[i] = static_cast<char>((i * 131) >> 3);
    WorkerFailure f;
    auto r = c.call(m, 30000, f);
    ASSERT_TRUE(r) << f.message;
    EXPECT_TRUE(r->header["ok"].get<bool>());
    EXPECT_EQ(r->header["bytes"].get<size_t>(), 100000u);
    EXPECT_EQ(r->blob, m.blob);
    expectHello(c);
    EXPECT_EQ(c.starts(), 1);
}

// A worker that cannot read a request exits with status 4; the failure carries its own reason
// (its last stderr line), not only the status.
TEST(WorkerProcess, AWorkerExitIsReportedWithTheWorkersReason) {
    WorkerClient c({TS_TILEC_PATH, "worker", "--max-frame-bytes", "1024"});  // client: 1 GiB
    Message m = op("hello");
    m.blob.assign(4000, 'x');  // one 4 KiB frame from this side: over the worker's limit
    WorkerFailure f;
    EXPECT_FALSE(c.call(m, 30000, f));
    EXPECT_EQ(f.kind, WorkerFailure::Kind::Exited);
    EXPECT_EQ(f.exitStatus, 4);
    EXPECT_NE(f.message.find("exited with status 4"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("exceeds the limit of 1024 bytes"), std::string::npos) << f.message;
    EXPECT_NE(f.workerSaid.find("tilec worker: cannot read the request: frame of"),
              std::string::npos)
        << f.workerSaid;
    // A test fault that exits says so too; a later good request does not inherit that line.
    WorkerClient t = testClient();
    EXPECT_FALSE(t.call(op("test", "exit"), 30000, f));
    EXPECT_NE(f.message.find("exiting with status 7 on request"), std::string::npos) << f.message;
    auto ok = t.call(op("hello"), 30000, f);
    ASSERT_TRUE(ok) << f.message;
    EXPECT_TRUE(f.workerSaid.empty());
}

TEST(WorkerProcess, CliRunInWorkerCarriesTheWorkersReason) {
    // The conformance run's report for MLA decode was only "exited with status 4": now the
    // worker's line (here: a request over a lowered frame limit) ends the run's error.
    cli::setWorkerCommand({TS_TILEC_PATH, "worker", "--max-frame-bytes", "1024"});
    rt::RunRequest req;
    req.source = "x";
    req.kernel = "flashattn_kernel";
    req.signature = {{"KV", ir::DType::Float32, {1024}, false}};
    req.tensors = {HostTensor{ir::DType::Float32, {1024}, std::vector<double>(1024, 1.0)}};
    auto r = cli::runInWorker(req);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("kernel 'flashattn_kernel' ended the GPU worker"), std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("exited with status 4"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("exceeds the limit of 1024 bytes"), std::string::npos) << r.error;
    cli::setWorkerCommand({});
}

TEST(WorkerProcess, TestFaultsAreOffUnlessAskedFor) {
    WorkerClient c({TS_TILEC_PATH, "worker"});
    WorkerFailure f;
    auto r = c.call(op("test", "segfault"), 30000, f);
    ASSERT_TRUE(r) << f.message;
    EXPECT_FALSE(r->header["ok"].get<bool>());
    EXPECT_NE(r->header["error"].get<std::string>().find("--allow-test-faults"),
              std::string::npos);
    EXPECT_EQ(c.starts(), 1);  // still the same worker
}

TEST(WorkerProcess, RunWithoutAGpuIsACleanErrorReply) {
    WorkerClient c = testClient();
    rt::RunRequest req;
    req.source = "extern \"C\" __global__ void k(float* x) {}";
    req.kernel = "k";
    req.signature = {{"x", ir::DType::Float32, {4}, true}};
    req.tensors = {HostTensor{ir::DType::Float32, {4}, {}}};
    WorkerFailure f;
    auto reply = c.call(encodeRunRequest(req), 30000, f);
    ASSERT_TRUE(reply) << f.message;
    std::string why;
    auto r = decodeRunResult(*reply, why);
    ASSERT_TRUE(r) << why;
    if (reply->header["fatal"].get<bool>()) GTEST_SKIP() << "a GPU is attached";
    if (r->ok) GTEST_SKIP() << "a GPU is attached";
    EXPECT_EQ(r->failedStage, rt::RunStage::Request);
    EXPECT_NE(r->error.find("no GPU in the worker"), std::string::npos) << r->error;
}

TEST(WorkerProcess, MissingExecutableIsASpawnFailure) {
    WorkerClient c({"/nonexistent/tilec", "worker"});
    WorkerFailure f;
    EXPECT_FALSE(c.call(op("hello"), 1000, f));
    EXPECT_EQ(f.kind, WorkerFailure::Kind::Spawn);
    EXPECT_NE(f.message.find("/nonexistent/tilec"), std::string::npos);
}

TEST(WorkerProcess, CliRunInWorkerNamesTheKernelWhenTheWorkerDies) {
    // runInWorker's wording for a worker that died under a kernel, through a worker whose
    // "run" request cannot be served: point the CLI at a program that exits at once.
    cli::setWorkerCommand({"/bin/true"});
    rt::RunRequest req;
    req.source = "x";
    req.kernel = "gemm_kernel";
    auto r = cli::runInWorker(req);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failedStage, rt::RunStage::Launch);
    EXPECT_NE(r.error.find("kernel 'gemm_kernel' ended the GPU worker"), std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("a fresh worker takes the next run"), std::string::npos);
    cli::setWorkerCommand({});
}
