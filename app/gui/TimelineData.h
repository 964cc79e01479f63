// The static timeline of a compile result for the Timeline and Barrier panels (issue 9): both
// show the same ts::staticTimeline (compiler/StaticTimeline.h) of the session's shown result,
// computed once per result off the UI thread and cached, so the two panels neither compute it
// twice nor talk to each other.
#pragma once
#include <QString>
#include <memory>

#include "app/gui/CompileWorker.h"
#include "compiler/StaticTimeline.h"

namespace ts::gui {

using TimelinePtr = std::shared_ptr<const StaticTimeline>;

/// The timeline of `r` (compiled for `target`): the compile's own text, kernel and parameter
/// values are reused for the second compile it needs. Cached for the latest (r, target); safe
/// to call from any thread (a second caller waits for the first). Never null.
TimelinePtr timelineFor(const ResultPtr& r, const QString& target);

/// The pass of `r` the plan of `t` is read from: "plan-pipelines" for the cp.async plan, the
/// last pass for the sm_90a schedule (read from the lowered IR); -1 when `r` has none.
int timelinePassIndex(const CompileResult& r, const StaticTimeline& t);

}  // namespace ts::gui
