// One GPU worker per device (profiler/worker/WorkerPool.h), without a GPU: the workers are the
// real `tilec worker --allow-test-faults`, each started with its TILESCOPE_DEVICE, so "2 fake
// devices" are two worker processes that report the device they were given. Checks that every
// job completes, both devices take jobs, each reply comes from its slot's device, and a crash on
// one device restarts that device's worker only.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

#include "profiler/cuda/Driver.h"
#include "profiler/worker/Messages.h"
#include "profiler/worker/WorkerPool.h"

using namespace ts::rt::worker;

namespace {

std::vector<std::string> fakeWorker() { return {TS_TILEC_PATH, "worker", "--allow-test-faults"}; }

Message echo(int sleepMs, const std::string& blob) {
    Message m;
    m.header = {{"op", "test"}, {"fault", "echo"}, {"sleep_ms", sleepMs}};
    m.blob = blob;
    return m;
}

struct Outcome {
    bool ok = false;
    size_t slot = 0;
    std::string device;  ///< what the worker says its TILESCOPE_DEVICE is
    long pid = 0;
    std::string blob;
    WorkerFailure failure;
};

}  // namespace

TEST(WorkerPool, TwelveJobsOnTwoFakeDevicesAllCompleteEachOnItsDevice) {
    WorkerPool pool(fakeWorker(), {0, 1});
    ASSERT_EQ(pool.size(), 2u);
    std::vector<Outcome> out(12);
    pool.forEach(out.size(), [&](size_t i, size_t slot) {
        Outcome& o = out[i];
        o.slot = slot;
        // 150 ms per job stands in for a kernel: one device alone would take 1.8 s.
        auto r = pool.client(slot).call(echo(150, "variant " + std::to_string(i)), 30000, o.failure);
        if (!r) return;
        o.ok = r->header.value("ok", false);
        o.device = r->header.value("device", std::string());
        o.pid = r->header.value("pid", 0L);
        o.blob = r->blob;
    });
    std::map<size_t, int> perSlot;
    for (size_t i = 0; i < out.size(); ++i) {
        SCOPED_TRACE(i);
        ASSERT_TRUE(out[i].ok) << out[i].failure.message;
        EXPECT_EQ(out[i].blob, "variant " + std::to_string(i));  // its own request's reply
        EXPECT_EQ(out[i].device, std::to_string(pool.ordinal(out[i].slot)));
        EXPECT_EQ(out[i].pid, pool.client(out[i].slot).pid());
        ++perSlot[out[i].slot];
    }
    // Both devices took jobs: the second worker did not sit idle behind the first.
    EXPECT_GE(perSlot[0], 3) << perSlot[0] << " / " << perSlot[1];
    EXPECT_GE(perSlot[1], 3) << perSlot[0] << " / " << perSlot[1];
    EXPECT_EQ(pool.client(0).starts(), 1);
    EXPECT_EQ(pool.client(1).starts(), 1);
    EXPECT_NE(pool.client(0).pid(), pool.client(1).pid());
}

TEST(WorkerPool, ACrashOnOneDeviceRestartsOnlyThatDevicesWorker) {
    WorkerPool pool(fakeWorker(), {0, 1});
    std::vector<Outcome> out(12);
    std::atomic<bool> crashed{false};
    std::mutex mu;
    std::set<long> pidsOf[2];
    pool.forEach(out.size(), [&](size_t i, size_t slot) {
        Outcome& o = out[i];
        o.slot = slot;
        // The first job device 1 takes from the fifth on segfaults its worker (a faulting kernel).
        Message m = echo(100, std::to_string(i));
        bool expected = false;
        if (slot == 1 && i >= 4 && crashed.compare_exchange_strong(expected, true)) {
            m.header["fault"] = "segfault";
        }
        auto r = pool.client(slot).call(m, 30000, o.failure);
        if (!r) return;
        o.ok = true;
        o.device = r->header.value("device", std::string());
        o.pid = r->header.value("pid", 0L);
        std::lock_guard lock(mu);
        pidsOf[slot].insert(o.pid);
    });
    ASSERT_TRUE(crashed.load());
    int failed = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        SCOPED_TRACE(i);
        if (!out[i].ok) {
            ++failed;
            EXPECT_EQ(out[i].slot, 1u);
            EXPECT_EQ(out[i].failure.kind, WorkerFailure::Kind::Crashed);
            EXPECT_NE(out[i].failure.message.find("SIGSEGV"), std::string::npos)
                << out[i].failure.message;
            continue;
        }
        EXPECT_EQ(out[i].device, std::to_string(out[i].slot));
    }
    EXPECT_EQ(failed, 1);  // the other 11 completed, the jobs after the crash on device 1 too
    EXPECT_EQ(pool.client(0).starts(), 1);  // device 0's worker never restarted
    EXPECT_EQ(pidsOf[0].size(), 1u);
    EXPECT_EQ(pool.client(1).starts(), 2);  // device 1's was replaced once
    EXPECT_LE(pidsOf[1].size(), 2u);
}

TEST(WorkerPool, OneDeviceRunsTheJobsInOrderOnTheCallingThread) {
    WorkerPool pool(fakeWorker(), {3});
    std::vector<size_t> order;
    pool.forEach(5, [&](size_t i, size_t slot) {
        EXPECT_EQ(slot, 0u);
        order.push_back(i);  // no lock needed: one thread
    });
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4}));
    WorkerFailure f;
    auto r = pool.client(0).call(echo(0, ""), 30000, f);
    ASSERT_TRUE(r) << f.message;
    EXPECT_EQ(r->header.value("device", std::string()), "3");
}

TEST(WorkerPool, TheWorkersDeviceReplacesAnInheritedOne) {
    ::setenv("TILESCOPE_DEVICE", "5", 1);
    WorkerClient c(fakeWorker(), kDefaultMaxFrameBytes, {"TILESCOPE_DEVICE=1"});
    WorkerFailure f;
    auto r = c.call(echo(0, ""), 30000, f);
    ::unsetenv("TILESCOPE_DEVICE");
    ASSERT_TRUE(r) << f.message;
    EXPECT_EQ(r->header.value("device", std::string()), "1");
}

TEST(WorkerPool, DeviceListsAreCheckedAgainstTheDriversCount) {
    std::string why;
    EXPECT_EQ(parseDeviceList("0,1", 2, why), (std::vector<int>{0, 1}));
    EXPECT_EQ(parseDeviceList("1", 2, why), (std::vector<int>{1}));
    EXPECT_EQ(parseDeviceList("3,0", 0, why), (std::vector<int>{3, 0}));  // count unknown
    EXPECT_FALSE(parseDeviceList("2", 2, why));
    EXPECT_NE(why.find("the driver sees 2 devices (0-1"), std::string::npos) << why;
    EXPECT_FALSE(parseDeviceList("0,0", 2, why));
    EXPECT_NE(why.find("twice"), std::string::npos) << why;
    for (const char* bad : {"", "a", "0,", "-1", "1.5", "0;1"}) {
        SCOPED_TRACE(bad);
        EXPECT_FALSE(parseDeviceList(bad, 4, why));
        EXPECT_NE(why.find("--devices expects"), std::string::npos) << why;
    }
}

TEST(WorkerPool, CublasBaselineInTheWorkerSaysWhyWithoutAGpu) {
    // The worker's "baseline" op (profiler/baseline/CublasGemm.h). Here (no driver) it replies
    // ok=false with the reason; where a GPU and cuBLAS are present it times a small GEMM.
    WorkerClient c(fakeWorker());
    BaselineRequest req;
    req.gemm.m = 256, req.gemm.n = 128, req.gemm.k = 64;
    req.reps = 3, req.warmup = 1;
    WorkerFailure f;
    auto r = c.call(encodeBaselineRequest(req), 60000, f);
    ASSERT_TRUE(r) << f.message;
    const ts::rt::BaselineResult b = baselineFromJson(r->header);
    if (!b.ok) {
        EXPECT_FALSE(b.error.empty());
        if (!ts::rt::available()) {
            EXPECT_NE(b.error.find("no GPU in the worker"), std::string::npos) << b.error;
        }
        return;
    }
    EXPECT_GT(b.medianMs, 0);
    EXPECT_EQ(b.check, "pass") << b.maxError << " > " << b.tolerance;
    EXPECT_FALSE(b.version.empty());
}
