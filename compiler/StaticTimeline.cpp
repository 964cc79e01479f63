// staticTimeline (StaticTimeline.h).
#include "compiler/StaticTimeline.h"

#include "compiler/analysis/HopperTimeline.h"
#include "compiler/target/Target.h"
#include "compiler/transforms/Hopper.h"

namespace ts {

StaticTimeline staticTimeline(const std::string& path, const std::string& text, CompileOptions opts,
                              const CompileResult& whole) {
    StaticTimeline out;
    if (!whole.ok || !whole.lowered) {
        out.reason = "the program does not compile yet";
        return out;
    }
    if (!whole.launches.empty()) {
        out.reason = "the kernel has several T.Kernel launches; the timeline covers one-launch kernels";
        return out;
    }
    opts.recordSnapshots = false;
    opts.stopAfter = "plan-pipelines";
    CompileResult planned = compile(path, text, opts);
    if (planned.cancelled) {
        out.reason = "cancelled";
        return out;
    }
    // sm_90a: the TMA + mbarrier schedule exists only in the lowered IR; the planned loop gives
    // the span and trip count of a one-iteration loop that simplify removed.
    if (opts.target.find("sm_90") != std::string::npos) {
        analysis::HopperTimelineOptions ho;
        if (planned.lowered) ho.planned = analysis::plannedLoopOf(planned.lowered);
        out.timeline = analysis::buildHopperTimeline(whole.lowered, ho);
        if (!out.timeline.loops.empty()) {
            out.model = "tma";
            return out;
        }
    }
    if (!planned.lowered) {
        out.reason = "the program does not get through plan-pipelines";
        return out;
    }
    out.timeline = cpAsyncTimeline(planned.lowered, opts.target);
    out.model = "cp.async";
    if (out.timeline.loops.empty()) {
        out.model.clear();
        out.reason = out.timeline.notes.empty() ? "the kernel has no T.Pipelined loop (no software pipeline to show)"
                                                : out.timeline.notes.front();
    }
    return out;
}

analysis::TimelineResult cpAsyncTimeline(const ir::PrimFunc& planned, const std::string& target, int64_t tripOverride) {
    auto t = parseTarget(target);
    if (!t || !xform::targetHasWgmma(*t)) return analysis::buildPipelineTimeline(planned, tripOverride);
    const Target tg = *t;
    return analysis::buildPipelineTimeline(planned, tripOverride, [&](const ir::ForNode& loop) {
        return xform::genericOperandInflightApplies(loop, *planned, tg);
    });
}

}  // namespace ts
