// Timing kernel launches with CUDA events (CUDA Programming Guide, "Events"; resolution about
// 0.5 us). Each repetition is bracketed by its own pair of events on the same stream, so the
// numbers are GPU time of the launched work only, not host launch overhead, and the median of many
// repetitions is robust against clock boosts and interference. For memory-bound kernels whose
// inputs fit in L2, callers rotate among several copies of the inputs (the callback receives the
// iteration number) or ask for an L2 flush between repetitions, so that each repetition reads from
// DRAM as in a real workload.
//
// Caveat: a kernel shorter than the host's launch latency (a few us) can leave the GPU idle
// between a start event and its kernel, and that idle time is counted. The L2 flush, which runs
// just before each start event, keeps the GPU busy while the host enqueues and so hides this.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "profiler/cuda/Driver.h"

namespace ts::rt {

/// How to time.
struct TimingOptions {
    int warmup = 3;         ///< untimed launches first (module load, clocks ramping up, caches)
    int reps = 20;          ///< timed launches; the statistics are over these
    size_t flushBytes = 0;  ///< if > 0, write this many bytes (use ~2x the L2 size) between
                            ///< repetitions, outside the timed interval, to evict L2
};

/// Statistics over the timed repetitions, in milliseconds.
struct TimingResult {
    double medianMs = 0;  ///< median (mean of the two middle values for an even count)
    double minMs = 0;
    double maxMs = 0;
    int reps = 0;                   ///< number of samples
    std::vector<double> samplesMs;  ///< every repetition, in launch order
};

/// Median/min/max of `samplesMs` (pure; an empty input gives all zeros).
TimingResult summarizeTimes(std::vector<double> samplesMs);

/// Calls `launchOnce(iteration)` opt.warmup + opt.reps times on `stream`, iteration counting from 0
/// over warm-ups and timed repetitions alike (so `iteration % sets` rotates through input sets),
/// timing each of the last opt.reps calls with a pair of events, then synchronises. The callback
/// must enqueue its work on `stream` and not synchronise. Throws CudaError on driver errors
/// (including a kernel fault found at synchronisation) and std::invalid_argument if reps < 1.
TimingResult timeLaunches(const std::function<void(int iteration)>& launchOnce,
                          const TimingOptions& opt = {}, cu::Stream stream = nullptr);

}  // namespace ts::rt
