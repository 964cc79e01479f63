#include "profiler/cuda/Timing.h"

#include <algorithm>
#include <stdexcept>

#include "profiler/cuda/Launch.h"

namespace ts::rt {
namespace {

/// Owning CUevent (default flags: timing enabled, blocking sync off).
class Event {
public:
    explicit Event(const Driver& d) : m_drv(d) { TS_CU(m_drv, eventCreate, &m_ev, 0u); }
    ~Event() {
        if (m_ev) m_drv.eventDestroy(m_ev);
    }
    Event(Event&& o) noexcept : m_drv(o.m_drv), m_ev(o.m_ev) { o.m_ev = nullptr; }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    Event& operator=(Event&&) = delete;
    cu::Event get() const { return m_ev; }

private:
    const Driver& m_drv;
    cu::Event m_ev = nullptr;
};

}  // namespace

TimingResult summarizeTimes(std::vector<double> samplesMs) {
    TimingResult r;
    r.reps = static_cast<int>(samplesMs.size());
    r.samplesMs = samplesMs;
    if (samplesMs.empty()) return r;
    std::sort(samplesMs.begin(), samplesMs.end());
    const size_t n = samplesMs.size();
    r.minMs = samplesMs.front();
    r.maxMs = samplesMs.back();
    r.medianMs = n % 2 ? samplesMs[n / 2] : 0.5 * (samplesMs[n / 2 - 1] + samplesMs[n / 2]);
    return r;
}

TimingResult timeLaunches(const std::function<void(int iteration)>& launchOnce,
                          const TimingOptions& opt, cu::Stream stream) {
    if (opt.reps < 1) throw std::invalid_argument("timeLaunches: reps must be at least 1");
    const Driver& d = Driver::require();
    DeviceBuffer flush(opt.flushBytes);
    auto evict = [&] {
        if (opt.flushBytes) TS_CU(d, memsetD8Async, flush.ptr(), 0, opt.flushBytes, stream);
    };
    int iteration = 0;
    for (int i = 0; i < std::max(0, opt.warmup); ++i) launchOnce(iteration++);

    std::vector<Event> starts, ends;
    starts.reserve(static_cast<size_t>(opt.reps));
    ends.reserve(static_cast<size_t>(opt.reps));
    for (int i = 0; i < opt.reps; ++i) {
        starts.emplace_back(d);
        ends.emplace_back(d);
    }
    for (int i = 0; i < opt.reps; ++i) {
        evict();
        TS_CU(d, eventRecord, starts[i].get(), stream);
        launchOnce(iteration++);
        TS_CU(d, eventRecord, ends[i].get(), stream);
    }
    TS_CU(d, streamSynchronize, stream);

    std::vector<double> samples;
    samples.reserve(static_cast<size_t>(opt.reps));
    for (int i = 0; i < opt.reps; ++i) {
        float ms = 0;
        TS_CU(d, eventElapsedTime, &ms, starts[i].get(), ends[i].get());
        samples.push_back(ms);
    }
    return summarizeTimes(std::move(samples));
}

}  // namespace ts::rt
