// `tilec trace FILE --out trace.json [--blocks 0,1]` (app/cli/CmdTrace.cpp): the measured
// timeline of one kernel run, beside its static plan, as Chrome trace JSON (issue 9, item 3).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/cli/CliCommon.h"
#include "app/cli/Commands.h"

namespace ts::cli {

struct TraceCommand {
    CompileFlags flags;
    std::string out;                    ///< Chrome trace JSON written here ('-' = stdout)
    std::vector<int64_t> blocks{0};     ///< linear block ids traced (x + gx * (y + gy * z))
    int64_t capacity = 0;               ///< stamps per warp; 0 = trace::kDefaultCapacity
    int reps = 0;                       ///< > 0: also time plain vs instrumented (median of reps)
};
int runTrace(const TraceCommand& c);

/// `tilec timeline` with the sm_90a model run for blockIdx `block` (x, y, z; missing = 0):
/// runTimeline(c) is runTimeline(c, {}) (CmdTimeline.cpp).
int runTimeline(const TimelineCommand& c, const std::vector<int64_t>& block);

}  // namespace ts::cli
