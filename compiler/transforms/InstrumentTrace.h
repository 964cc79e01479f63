// instrument-trace (InstrumentTrace.cpp): the opt-in pass of `tilec trace`.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/PassManager.h"

namespace ts::xform {

/// %globaltimer / clock64 stamps at the sm_90a pipeline's stage boundaries and barrier waits,
/// recorded for the linear block ids `blocks` (slot order), `capacity` stamps per warp.
ir::PrimFunc instrumentTrace(const ir::PrimFunc& f, PassContext& ctx, const std::vector<int64_t>& blocks, int64_t capacity);

/// The instrumentation a compile on this thread adds at the end of its pipeline while a
/// ScopedTraceRequest lives (tilec trace). Kept out of CompileOptions: only one command asks for
/// it, and a normal compile must never carry it.
struct TraceRequest {
    std::vector<int64_t> blocks;
    int64_t capacity = 0;
};
const TraceRequest* currentTraceRequest();
class ScopedTraceRequest {
public:
    explicit ScopedTraceRequest(TraceRequest r);
    ~ScopedTraceRequest();
    ScopedTraceRequest(const ScopedTraceRequest&) = delete;
    ScopedTraceRequest& operator=(const ScopedTraceRequest&) = delete;

private:
    TraceRequest m_req;
    const TraceRequest* m_prev;
};

}  // namespace ts::xform
