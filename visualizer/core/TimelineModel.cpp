// TimelineModel, TimelineView and hitTest (TimelineModel.h).
#include "visualizer/core/TimelineModel.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "visualizer/core/MeasuredTrace.h"

namespace ts::viz {

using analysis::TimelineEventKind;

const char* timelineCategoryName(TimelineCategory c) {
    switch (c) {
        case TimelineCategory::Copy: return "copy";
        case TimelineCategory::Wait: return "wait";
        case TimelineCategory::Mma: return "mma";
        case TimelineCategory::Release: return "release";
        case TimelineCategory::Barrier: return "barrier";
        case TimelineCategory::Commit: return "commit";
        case TimelineCategory::Compute: return "compute";
        case TimelineCategory::Occupancy: return "occupancy";
        case TimelineCategory::Measured: return "measured";
        case TimelineCategory::Store: return "store";
    }
    return "?";
}

uint32_t timelineColor(TimelineCategory c, bool dark) {
    // Fills chosen for contrast with black text (light) and white text (dark) alike.
    switch (c) {
        case TimelineCategory::Copy: return dark ? 0x2f6fb0 : 0x8ec1ee;
        case TimelineCategory::Wait: return dark ? 0xa8862a : 0xf3d37a;
        case TimelineCategory::Mma: return dark ? 0x3a8a4a : 0x93d69f;
        case TimelineCategory::Release: return dark ? 0x7a5aa8 : 0xc9b3ea;
        case TimelineCategory::Barrier: return dark ? 0x6b6b6b : 0xc4c4c4;
        case TimelineCategory::Commit: return dark ? 0x3f8f8f : 0x9fdcdc;
        case TimelineCategory::Compute: return dark ? 0x8a6048 : 0xe2bfa6;
        case TimelineCategory::Occupancy: return dark ? 0x2f6fb0 : 0x8ec1ee;
        case TimelineCategory::Measured: return dark ? 0xb0574a : 0xf2a394;
        case TimelineCategory::Store: return dark ? 0xa0456f : 0xf4a6c8;
    }
    return 0x808080;
}

namespace {

TimelineCategory categoryOf(TimelineEventKind k) {
    switch (k) {
        case TimelineEventKind::IssueCopy:
        case TimelineEventKind::SyncCopy:
        case TimelineEventKind::ExpectTx:
        case TimelineEventKind::TmaLoad: return TimelineCategory::Copy;
        case TimelineEventKind::WaitGroup:
        case TimelineEventKind::MbarWait:
        case TimelineEventKind::WgmmaWait: return TimelineCategory::Wait;
        case TimelineEventKind::Mma: return TimelineCategory::Mma;
        case TimelineEventKind::Release:
        case TimelineEventKind::MbarArrive: return TimelineCategory::Release;
        case TimelineEventKind::Barrier: return TimelineCategory::Barrier;
        case TimelineEventKind::Commit: return TimelineCategory::Commit;
        case TimelineEventKind::Compute: return TimelineCategory::Compute;
        case TimelineEventKind::TmaStore:
        case TimelineEventKind::TmaReduceAdd: return TimelineCategory::Store;
        case TimelineEventKind::BulkCommit: return TimelineCategory::Commit;
        case TimelineEventKind::BulkWait: return TimelineCategory::Wait;
    }
    return TimelineCategory::Compute;
}

std::string bufferLetter(const std::string& buffer) {
    std::string b = buffer.substr(0, buffer.find(','));
    return b.substr(0, b.find('_'));
}

std::string shortLabel(const analysis::TimelineEvent& e) {
    auto k = [&](int64_t v) { return " k" + std::to_string(v); };
    auto s = [&](int64_t v) { return " s" + std::to_string(v); };
    switch (e.kind) {
        case TimelineEventKind::IssueCopy: return "cp " + bufferLetter(e.buffer) + k(e.tile);
        case TimelineEventKind::SyncCopy: return "copy " + bufferLetter(e.buffer);
        case TimelineEventKind::ExpectTx: return "expect" + k(e.tile);
        case TimelineEventKind::TmaLoad: return "TMA " + bufferLetter(e.buffer) + k(e.tile);
        case TimelineEventKind::MbarWait: return "wait" + (e.stage >= 0 ? s(e.stage) : " " + e.barrier);
        case TimelineEventKind::WgmmaWait: return "wg.wait " + std::to_string(e.pending);
        case TimelineEventKind::WaitGroup: return "wait g" + std::to_string(e.group);
        case TimelineEventKind::Mma: return "mma" + k(e.tile >= 0 ? e.tile : e.iteration);
        case TimelineEventKind::Release: return "rel" + s(e.stage);
        case TimelineEventKind::MbarArrive: return "arrive" + (e.stage >= 0 ? s(e.stage) : " " + e.barrier);
        case TimelineEventKind::Barrier: return "sync";
        case TimelineEventKind::Commit: return "commit g" + std::to_string(e.group);
        case TimelineEventKind::Compute: return "compute";
        case TimelineEventKind::TmaStore: return "TMA st " + bufferLetter(e.buffer) + (e.iteration >= 0 ? k(e.iteration) : "");
        case TimelineEventKind::TmaReduceAdd: return "TMA add " + bufferLetter(e.buffer) + (e.iteration >= 0 ? k(e.iteration) : "");
        case TimelineEventKind::BulkCommit: return "bulk g" + std::to_string(e.group);
        case TimelineEventKind::BulkWait: return std::string(e.read ? "bulk.rd " : "bulk.wait ") + std::to_string(e.pending);
    }
    return "?";
}

std::string tinyLabel(const analysis::TimelineEvent& e) {
    auto n = [](int64_t v) { return v >= 0 ? std::to_string(v) : std::string(); };
    switch (e.kind) {
        case TimelineEventKind::IssueCopy:
        case TimelineEventKind::TmaLoad: return bufferLetter(e.buffer) + n(e.tile);
        case TimelineEventKind::SyncCopy: return bufferLetter(e.buffer);
        case TimelineEventKind::ExpectTx: return "E" + n(e.tile);
        case TimelineEventKind::MbarWait: return "W" + n(e.stage);
        case TimelineEventKind::WgmmaWait: return "G" + n(e.pending);
        case TimelineEventKind::WaitGroup: return "W" + n(e.group);
        case TimelineEventKind::Mma: return "M" + n(e.tile >= 0 ? e.tile : e.iteration);
        case TimelineEventKind::Release: return "R" + n(e.stage);
        case TimelineEventKind::MbarArrive: return "A" + n(e.stage);
        case TimelineEventKind::Barrier: return "S";
        case TimelineEventKind::Commit: return "C" + n(e.group);
        case TimelineEventKind::Compute: return "";
        case TimelineEventKind::TmaStore: return "st";
        case TimelineEventKind::TmaReduceAdd: return "+=";
        case TimelineEventKind::BulkCommit: return "C" + n(e.group);
        case TimelineEventKind::BulkWait: return e.read ? "Wr" : "Wb";  // pending is in the label (almost always 0)
    }
    return "";
}

std::string tooltipOf(const analysis::TimelineEvent& e, bool timed, const std::string& unit) {
    std::ostringstream t;
    t << e.label << "\n" << analysis::timelineEventKindName(e.kind) << " · " << analysis::timelinePhaseName(e.phase);
    if (e.iteration >= 0) t << " · iteration k=" << e.iteration;
    if (e.stage >= 0) t << " · stage " << e.stage;
    t << "\n";
    if (!e.barrier.empty()) {
        t << "barrier " << e.barrier;
        if (e.barrierPhase >= 0) t << " · phase " << e.barrierPhase;
        if (e.parity >= 0) t << " · parity " << e.parity;
        if (e.bytes >= 0) t << " · " << e.bytes << " bytes";
        t << "\n";
    }
    const bool bulk = e.kind == TimelineEventKind::TmaStore || e.kind == TimelineEventKind::TmaReduceAdd ||
                      e.kind == TimelineEventKind::BulkCommit || e.kind == TimelineEventKind::BulkWait;
    if (bulk) {
        if (e.kind == TimelineEventKind::BulkWait)
            t << "bulk async-groups up to " << (e.group >= 0 ? std::to_string(e.group) : std::string("none")) << (e.read ? " read out" : " complete") << " · "
              << e.pending << " may stay pending" << (e.buffer.empty() ? "" : " · " + e.buffer) << "\n";
        else
            t << "bulk async-group " << e.group << " · " << e.buffer << (e.bytes >= 0 ? " · " + std::to_string(e.bytes) + " bytes" : "") << "\n";
    } else if (e.group >= 0) {
        t << "cp.async group " << e.group << (e.pending >= 0 ? " · " + std::to_string(e.pending) + " pending" : "") << "\n";
    }
    t << unit << " " << (timed ? e.time : e.step) << " · step " << e.step << (e.elected ? " · elected thread" : "") << "\n";
    if (e.span.valid()) t << "source line " << e.span.line << ":" << e.span.col;
    if (!e.irStmt.empty()) t << "\nIR: " << e.irStmt;
    return t.str();
}

}  // namespace

TimelineModel TimelineModel::fromPlan(const analysis::PipelineTimeline& loop) {
    TimelineModel m;
    const bool timed = loop.schedule == "tma";
    m.m_unit = timed ? "logical time" : "step";
    m.m_trips = loop.tripCount;
    m.m_stages = loop.stages;
    {
        std::ostringstream s;
        // A kernel without a T.Pipelined loop has no iterations or stages to count (the CLI's
        // printHopper says the same).
        if (loop.loopVar.empty())
            s << "kernel without a T.Pipelined loop (line " << loop.loopSpan.line << "): the body in program order, ";
        else
            s << "T.Pipelined over " << loop.loopVar << " (line " << loop.loopSpan.line << "): " << loop.tripCount << " iteration(s), "
              << loop.stages << " stage(s), ";
        s
          << (timed ? "TMA + mbarrier schedule" : loop.async ? "cp.async groups" : "synchronous copies")
          << (loop.warpSpecialized ? ", warp-specialized" : "") << " — x: " << m.m_unit
          << (timed ? " (one unit per event)" : " (program order)");
        m.m_summary = s.str();
    }
    std::map<int64_t, IterationBand> bands;
    double steadyMin = 1e300, steadyMax = -1e300;
    for (const auto& role : loop.roles) {
        TimelineRow row;
        row.name = role.name + " (" + std::to_string(role.threads) + " threads)";
        row.kind = TimelineRowKind::Role;
        int64_t maxTime = -1;
        for (const auto& e : role.events) maxTime = std::max(maxTime, timed ? e.time : e.step);
        int64_t after = maxTime + 1;  // unreached events (deadlock) queue up after the last one
        for (size_t i = 0; i < role.events.size(); ++i) {
            const auto& e = role.events[i];
            TimelineItem it;
            int64_t x = timed ? e.time : e.step;
            if (x < 0) {
                x = after++;
                it.unreached = true;
            }
            it.start = double(x);
            it.end = double(x + 1);
            it.label = shortLabel(e);
            it.tiny = tinyLabel(e);
            it.tooltip = tooltipOf(e, timed, m.m_unit);
            if (it.unreached) it.tooltip += "\nnot reached: the schedule deadlocks before this event";
            it.category = categoryOf(e.kind);
            it.iteration = e.iteration;
            it.stage = e.stage;
            it.span = e.span;
            it.irStmt = e.irStmt;
            it.event = int(i);
            for (const auto& is : loop.issues)
                if (is.error && is.span == e.span && !e.barrier.empty() && is.barrier == e.barrier) it.error = true;
            if (e.iteration >= 0 && !it.unreached) {
                auto [b, fresh] = bands.try_emplace(e.iteration, IterationBand{e.iteration, it.start, it.end});
                if (!fresh) b->second.start = std::min(b->second.start, it.start), b->second.end = std::max(b->second.end, it.end);
                steadyMin = std::min(steadyMin, it.start), steadyMax = std::max(steadyMax, it.end);
            }
            row.items.push_back(std::move(it));
        }
        m.m_rows.push_back(std::move(row));
    }
    for (auto& [k, b] : bands) m.m_bands.push_back(b);
    m.m_steadyMin = steadyMin <= steadyMax ? steadyMin : 0;
    m.m_steadyMax = steadyMin <= steadyMax ? steadyMax : 1;
    m.updateExtent();
    // Occupancy: one row per stage, each tile from its copy's issue to its release; then one
    // row per shared buffer that plain copies (no pipeline stage) fill, each tile from its
    // copy's issue to its last read.
    const bool staged = std::any_of(loop.occupancy.begin(), loop.occupancy.end(), [](const auto& o) { return o.buffer.empty(); });
    for (int64_t s = 0; s < loop.stages && staged; ++s) {
        TimelineRow row;
        row.name = "stage " + std::to_string(s) + " (shared)";
        row.kind = TimelineRowKind::Stage;
        for (const auto& o : loop.occupancy) {
            if (o.stage != s || !o.buffer.empty()) continue;
            const int64_t issue = timed ? o.issueTime : o.issueStep, landed = timed ? o.landedTime : o.landedStep,
                          release = timed ? o.releaseTime : o.releaseStep;
            TimelineItem it;
            it.category = TimelineCategory::Occupancy;
            it.start = double(std::max<int64_t>(0, issue));
            it.end = release >= issue ? double(release + 1) : m.m_max;
            it.mid = landed >= 0 ? std::clamp(double(landed + 1), it.start, it.end) : -1;
            it.stage = s;
            it.iteration = o.tile;
            it.label = "k" + std::to_string(o.tile);
            it.tiny = std::to_string(o.tile);
            std::ostringstream t;
            t << "stage " << s << " holds tile k=" << o.tile << "\nissued at " << m.m_unit << " " << issue << ", landed (wait passed) at "
              << landed << ", released at " << (release >= 0 ? std::to_string(release) : std::string("never"))
              << "\nlight: bytes in flight · solid: tile resident";
            it.tooltip = t.str();
            it.span = loop.loopSpan;
            row.items.push_back(std::move(it));
        }
        m.m_rows.push_back(std::move(row));
    }
    std::vector<std::string> plainBuffers;
    for (const auto& o : loop.occupancy)
        if (!o.buffer.empty() && std::find(plainBuffers.begin(), plainBuffers.end(), o.buffer) == plainBuffers.end())
            plainBuffers.push_back(o.buffer);
    for (const auto& buf : plainBuffers) {
        TimelineRow row;
        row.name = buf + " (plain copy)";
        row.kind = TimelineRowKind::Stage;
        for (const auto& o : loop.occupancy) {
            if (o.buffer != buf) continue;
            const int64_t issue = timed ? o.issueTime : o.issueStep, landed = timed ? o.landedTime : o.landedStep,
                          release = timed ? o.releaseTime : o.releaseStep;
            TimelineItem it;
            it.category = TimelineCategory::Occupancy;
            it.start = double(std::max<int64_t>(0, issue));
            it.end = release >= issue ? double(release + 1) : m.m_max;
            it.mid = landed >= 0 ? std::clamp(double(landed + 1), it.start, it.end) : -1;
            it.iteration = o.tile;
            it.label = "k" + std::to_string(o.tile);
            it.tiny = std::to_string(o.tile);
            std::ostringstream t;
            t << buf << " holds copy k=" << o.tile << " (T.copy at line " << o.span.line << ")\nissued at " << m.m_unit << " " << issue
              << ", landed (wait passed) at " << landed << ", last read at "
              << (release >= 0 ? std::to_string(release) : std::string("never (held to the end)"))
              << "\nlight: bytes in flight · solid: tile resident";
            it.tooltip = t.str();
            it.span = o.span.valid() ? o.span : loop.loopSpan;
            row.items.push_back(std::move(it));
        }
        m.m_rows.push_back(std::move(row));
    }
    m.updateExtent();
    // Staging tiles of TMA stores / reduce-adds: one row per tile, each bulk group in flight from
    // its issue until the wait_group.read after which the TMA has read the tile out.
    std::vector<std::string> staging;
    for (const auto& g : loop.bulkGroups)
        if (std::find(staging.begin(), staging.end(), g.buffer) == staging.end()) staging.push_back(g.buffer);
    for (const auto& buf : staging) {
        TimelineRow row;
        row.name = buf + " (TMA store staging)";
        row.kind = TimelineRowKind::Stage;
        for (const auto& g : loop.bulkGroups) {
            if (g.buffer != buf) continue;
            const std::string what = std::string(g.reduceAdd ? "TMA reduce-add" : "TMA store") + " of " + g.buffer + " into " + g.tensor;
            TimelineItem it;
            it.category = TimelineCategory::Store;
            it.start = double(std::max<int64_t>(0, g.issueTime));
            it.end = g.readTime >= g.issueTime ? double(g.readTime + 1) : m.m_max;
            it.mid = it.end;  // all of it in flight: the bulk copy may be reading the tile
            it.iteration = g.iteration;
            it.label = "g" + std::to_string(g.group) + (g.iteration >= 0 ? " k" + std::to_string(g.iteration) : "");
            it.tiny = std::to_string(g.group);
            std::ostringstream t;
            t << what << " · bulk group " << g.group << " · " << g.bytes << " bytes"
              << (g.iteration >= 0 ? " · iteration k=" + std::to_string(g.iteration) : std::string(" · after the loop")) << "\nissued at "
              << m.m_unit << " " << g.issueTime << ", read out (wait_group.read) at "
              << (g.readTime >= 0 ? std::to_string(g.readTime) : std::string("never")) << ", tile free for every thread (block barrier) at "
              << (g.freeTime >= 0 ? std::to_string(g.freeTime) : std::string("-")) << ", writes complete (wait_group) at "
              << (g.completeTime >= 0 ? std::to_string(g.completeTime) : std::string("never"))
              << "\nlight: the TMA may still be reading the tile · source line " << g.span.line;
            it.tooltip = t.str();
            it.span = g.span;
            for (const auto& is : loop.issues)
                if (is.error && is.barrier == "bulk group " + std::to_string(g.group)) it.error = true;
            row.items.push_back(std::move(it));
            if (g.reuseTime >= 0) {
                TimelineItem r;
                r.category = TimelineCategory::Compute;
                // One unit, as the write is on the role's row: an instant's tick is easy to miss.
                r.start = double(g.reuseTime);
                r.end = double(g.reuseTime + 1);
                r.iteration = g.reuseIteration;
                r.label = "rewrite k" + std::to_string(g.reuseIteration);
                r.tiny = "w";
                std::ostringstream rt;
                rt << "iteration " << g.reuseIteration << " rewrites " << g.buffer << " (line " << g.reuseSpan.line << ") at " << m.m_unit << " "
                   << g.reuseTime << "\nordered after bulk group " << g.group << "'s wait_group.read (" << g.readTime
                   << ") and the block barrier after it (" << g.freeTime << ")";
                r.tooltip = rt.str();
                r.span = g.reuseSpan;
                row.items.push_back(std::move(r));
            }
        }
        std::stable_sort(row.items.begin(), row.items.end(), [](const TimelineItem& a, const TimelineItem& b) { return a.start < b.start; });
        m.m_rows.push_back(std::move(row));
    }
    m.updateExtent();
    return m;
}

void TimelineModel::updateExtent() {
    double lo = 1e300, hi = -1e300;
    for (const auto& r : m_rows)
        for (const auto& it : r.items) lo = std::min(lo, it.start), hi = std::max(hi, it.end);
    if (lo > hi) lo = 0, hi = 1;
    m_min = lo;
    m_max = hi;
}

bool TimelineModel::hasMeasured() const {
    for (const auto& r : m_rows)
        if (r.kind == TimelineRowKind::Measured) return true;
    return false;
}

std::vector<std::string> TimelineModel::addMeasured(const MeasuredTrace& trace, const std::string& sourceFile) {
    std::vector<std::string> warnings;
    auto base = [](const std::string& p) { return p.substr(p.find_last_of('/') + 1); };
    if (!trace.file.empty() && !sourceFile.empty() && base(trace.file) != base(sourceFile))
        warnings.push_back("the trace is of " + trace.file + ", not of this file");
    if (trace.tripCount >= 0 && trace.tripCount != m_trips)
        warnings.push_back("the trace ran " + std::to_string(trace.tripCount) + " iteration(s), the plan shown has " +
                           std::to_string(m_trips) + " (other sizes)");
    if (trace.stages >= 0 && trace.stages != m_stages)
        warnings.push_back("the trace ran " + std::to_string(trace.stages) + " stage(s), the plan shown has " + std::to_string(m_stages));
    // Microseconds -> plan axis.
    double lo = 1e300, hi = -1e300;
    for (const auto& w : trace.warps)
        for (const auto& s : w.spans) lo = std::min(lo, s.startUs), hi = std::max(hi, s.startUs + s.durUs);
    double unit = trace.unitUs, origin = trace.originUs;
    if (!trace.aligned || unit <= 0) {
        // No scale in the file: the measured span is fitted onto the plan's iterations.
        unit = hi > lo ? (hi - lo) / std::max(1.0, m_steadyMax - m_steadyMin) : 1.0;
        origin = lo - m_steadyMin * unit;
        warnings.push_back("the trace carries no plan scale: the measured span is stretched over the plan's iterations");
    }
    auto axis = [&](double us) { return (us - origin) / unit; };
    for (const auto& w : trace.warps) {
        TimelineRow row;
        row.name = "block " + std::to_string(w.block) + " · warp " + std::to_string(w.warp) + " (measured)";
        row.kind = TimelineRowKind::Measured;
        for (const auto& s : w.spans) {
            TimelineItem it;
            // The plan's colours, so measured and planned events of a kind line up at a glance.
            const auto starts = [&](const char* p) { return s.name.rfind(p, 0) == 0; };
            it.category = starts("wait")      ? TimelineCategory::Wait
                          : starts("wgmma")   ? TimelineCategory::Mma
                          : starts("issue")   ? TimelineCategory::Copy
                          : starts("release") ? TimelineCategory::Release
                                              : TimelineCategory::Measured;
            const std::string st = s.stage >= 0 ? std::to_string(s.stage) : "", k = s.iteration >= 0 ? std::to_string(s.iteration) : "";
            it.tiny = starts("wait") ? "W" + st : starts("wgmma") ? "M" + k : starts("issue") ? "I" + st : starts("release") ? "R" : "";
            it.start = axis(s.startUs);
            it.end = axis(s.startUs + s.durUs);
            it.iteration = s.iteration;
            it.stage = s.stage;
            it.label = s.name;
            std::ostringstream t;
            t.setf(std::ios::fixed);
            t.precision(3);
            t << s.name << " (measured)\nat " << s.startUs << " µs";
            if (s.durUs > 0) t << " for " << s.durUs << " µs";
            if (s.cycles >= 0) t << " (" << s.cycles << " cycles)";
            t << "\nblock " << w.block << " · warp " << w.warp;
            if (s.iteration >= 0) t << " · iteration k=" << s.iteration;
            if (s.stage >= 0) t << " · stage " << s.stage;
            t.precision(4);
            t << "\nplan axis " << it.start << (trace.device.empty() ? "" : " · " + trace.device);
            it.tooltip = t.str();
            row.items.push_back(std::move(it));
        }
        std::stable_sort(row.items.begin(), row.items.end(), [](const TimelineItem& a, const TimelineItem& b) { return a.start < b.start; });
        m_rows.push_back(std::move(row));
    }
    updateExtent();
    return warnings;
}

int TimelineView::rowAt(double y, int rows) const {
    if (y < headerHeight) return -1;
    const int i = int(std::floor((y - headerHeight) / double(rowHeight + rowGap)));
    if (i < 0 || i >= rows) return -1;
    return y - rowTop(i) < rowHeight ? i : -1;
}

void TimelineView::zoomAt(double x, double factor) {
    const double a = axisAt(x);
    pxPerUnit = std::clamp(pxPerUnit * factor, kMinPxPerUnit, kMaxPxPerUnit);
    origin = a - (x - labelWidth) / pxPerUnit;
}

void TimelineView::fit(const TimelineModel& model, int widthPx) {
    const double range = model.axisMax() - model.axisMin() + 1.0;
    pxPerUnit = std::clamp(std::max(1, widthPx - labelWidth - 8) / range, kMinPxPerUnit, kMaxPxPerUnit);
    origin = model.axisMin() - 0.5;
}

TimelineHit hitTest(const TimelineModel& model, const TimelineView& view, double x, double y, double tolerancePx) {
    TimelineHit hit;
    if (x < view.labelWidth) return hit;
    const int row = view.rowAt(y, int(model.rows().size()));
    if (row < 0) return hit;
    double best = 1e300;
    const auto& items = model.rows()[size_t(row)].items;
    for (size_t i = 0; i < items.size(); ++i) {
        const auto& it = items[i];
        double x0 = view.xOf(it.start), x1 = view.xOf(it.end);
        if (x1 - x0 < 2 * tolerancePx) {  // instants and bars too thin to aim at
            const double c = (x0 + x1) / 2;
            x0 = std::min(x0, c - tolerancePx), x1 = std::max(x1, c + tolerancePx);
        }
        if (x < x0 || x >= x1) continue;
        const double d = std::abs(x - view.xOf((it.start + it.end) / 2));
        if (d < best) best = d, hit = {row, int(i)};
    }
    return hit;
}

}  // namespace ts::viz
