// One GPU worker per device of a host (issue 12, "several GPUs of one host: one worker per
// GPU"): `tilec tune` hands its variants to a pool of WorkerClients, one per device ordinal, each
// started with TILESCOPE_DEVICE=<ordinal> (GpuRuntime::get picks that device; ordinals are the
// driver's, i.e. after CUDA_VISIBLE_DEVICES renumbering). One thread per device takes the next
// job when its previous one is done, so a slow variant on one GPU never holds the other GPU
// idle, and the timings stay per-GPU (each GPU runs one kernel at a time, as with one worker).
// A worker that crashes, hangs or faults is replaced by its own client on the next call: the
// other devices' workers carry on untouched.
//
// No GPU and no CUDA here: the pool only owns processes and threads, so CI tests it with
// `tilec worker --allow-test-faults` as the worker (tests/unit/WorkerPoolTest.cpp).
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profiler/worker/WorkerClient.h"

namespace ts::rt::worker {

class WorkerPool {
public:
    /// `command`: the worker's argv; `ordinals`: one worker per entry (at least one), started
    /// lazily on its first call with TILESCOPE_DEVICE set to the ordinal.
    WorkerPool(std::vector<std::string> command, std::vector<int> ordinals,
               uint32_t maxFrameBytes = kDefaultMaxFrameBytes);

    size_t size() const { return m_clients.size(); }
    /// The device ordinal of slot `slot`.
    int ordinal(size_t slot) const { return m_ordinals.at(slot); }
    WorkerClient& client(size_t slot) { return *m_clients.at(slot); }

    /// Runs job(i, slot) for every i in [0, n), each job on one slot's thread, slots taking jobs
    /// in index order as they become free; returns when all are done. A job talks only to
    /// client(slot); one slot's failures never touch another slot's worker. With one slot the
    /// jobs run in order on the calling thread. Jobs must not throw.
    void forEach(size_t n, const std::function<void(size_t job, size_t slot)>& job);

private:
    std::vector<int> m_ordinals;
    std::vector<std::unique_ptr<WorkerClient>> m_clients;
};

/// Parses `--devices 0,1,3` into ordinals: comma-separated distinct integers >= 0, each below
/// `deviceCount` when that is > 0. nullopt with `why` ("--devices: '2' is not a device here:
/// the driver sees 2 devices (0-1)") otherwise.
std::optional<std::vector<int>> parseDeviceList(const std::string& text, int deviceCount,
                                                std::string& why);

}  // namespace ts::rt::worker
