// The trace buffer of `tilec trace` (issue 9, build item 3): written by the instrumented kernel
// (compiler/transforms/InstrumentTrace.cpp, codegen's ts_trace_stamp) and decoded on the host
// (profiler/trace/TraceDecode.h). One fact, one place: both sides use these constants.
//
// The buffer is an int32 tensor (tensors travel through the worker as doubles, which hold 32-bit
// words exactly; a 64-bit %globaltimer would lose its low bits). For each traced block slot b
// (the order of --blocks) and warp w of the block, a region of regionWords(cap) words at
// ((b * warps) + w) * regionWords(cap):
//   word 0        number of stamps written (a ring: stamp i goes to slot i % cap, so past cap
//                 the oldest are overwritten and the decoder starts at count % cap)
//   words 1..3    unused (keeps each stamp 16-byte aligned)
//   stamp i       4 words at 4 + 4 i: globaltimer low 32 bits, globaltimer high 32 bits,
//                 clock64 low 32 bits, meta = kind << 28 | (stage & 0xF) << 24 | (iteration & 0xFFFFFF)
// Only lane 0 of a warp writes (elected stamps: only the elected thread, itself lane 0 of its
// warp). Iteration 0xFFFFFF means "outside the pipelined loop"; stage 0xF "none".
#pragma once
#include <cstdint>

namespace ts::trace {

/// tl.trace_stamp(kind, iteration, stage, elected): lane 0 of each warp of a traced block (only
/// the elected thread when `elected` != 0) appends one stamp to its warp's region. Not run by
/// the interpreters (an instrumented compile is for the GPU only).
inline constexpr const char* kTraceStampOp = "tl.trace_stamp";

enum class StampKind : uint32_t {
    LoopBegin = 1,  ///< before the pipelined loop (every warp)
    WaitBegin = 2,  ///< before an mbarrier wait (stage = the barrier's index)
    WaitEnd = 3,    ///< after it: the phase was observed
    MmaBegin = 4,   ///< before a wgmma issue
    MmaEnd = 5,     ///< after it returned (its wait_group satisfied)
    Issue = 6,      ///< elected: before expect_tx + the TMA loads of a stage
    Release = 7,    ///< after the barrier / arrive that frees a stage
    LoopEnd = 8,    ///< after the loop
};
inline const char* stampKindName(StampKind k) {
    switch (k) {
        case StampKind::LoopBegin: return "loop_begin";
        case StampKind::WaitBegin: return "wait_begin";
        case StampKind::WaitEnd: return "wait_end";
        case StampKind::MmaBegin: return "mma_begin";
        case StampKind::MmaEnd: return "mma_end";
        case StampKind::Issue: return "issue";
        case StampKind::Release: return "release";
        case StampKind::LoopEnd: return "loop_end";
    }
    return "?";
}

inline constexpr int64_t kHeaderWords = 4;
inline constexpr int64_t kWordsPerStamp = 4;
inline constexpr int64_t kDefaultCapacity = 512;  ///< stamps per warp
inline constexpr uint32_t kNoIteration = 0xFFFFFF;
inline constexpr uint32_t kNoStage = 0xF;

inline constexpr int64_t regionWords(int64_t cap) { return kHeaderWords + kWordsPerStamp * cap; }
inline constexpr uint32_t packMeta(uint32_t kind, uint32_t stage, uint32_t iter) {
    return kind << 28 | (stage & 0xF) << 24 | (iter & 0xFFFFFF);
}

}  // namespace ts::trace
