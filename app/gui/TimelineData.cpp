// timelineFor / timelinePassIndex (TimelineData.h).
#include "app/gui/TimelineData.h"

#include <mutex>

namespace ts::gui {

TimelinePtr timelineFor(const ResultPtr& r, const QString& target) {
    static std::mutex mu;
    static std::weak_ptr<const CompileResult> lastResult;
    static QString lastTarget;
    static TimelinePtr last;
    std::lock_guard<std::mutex> lock(mu);
    if (last && lastTarget == target && !lastResult.expired() && lastResult.lock() == r) return last;
    auto out = std::make_shared<StaticTimeline>();
    if (!r || !r->source) {
        out->reason = "no compile result yet";
        return out;
    }
    CompileOptions opts;
    opts.target = target.toStdString();
    if (const ProgramKernel* k = r->selected()) opts.kernel = k->name;
    for (const auto& p : r->params)
        if (p.overridden) opts.params[p.name] = p.value;
    *out = staticTimeline(r->source->path(), r->source->text(), opts, *r);
    lastResult = r;
    lastTarget = target;
    last = out;
    return out;
}

int timelinePassIndex(const CompileResult& r, const StaticTimeline& t) {
    if (r.passes.empty() || t.model.empty()) return -1;
    if (t.model == "tma") return int(r.passes.size()) - 1;
    for (size_t i = 0; i < r.passes.size(); ++i)
        if (r.passes[i].name == "plan-pipelines") return int(i);
    return -1;
}

}  // namespace ts::gui
