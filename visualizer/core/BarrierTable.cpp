// barrierTable (BarrierTable.h).
#include "visualizer/core/BarrierTable.h"

#include <map>
#include <set>
#include <sstream>

namespace ts::viz {

using analysis::TimelineEventKind;

namespace {

std::string joinK(const std::set<int64_t>& v) {
    if (v.empty()) return "–";
    std::string s;
    for (int64_t k : v) s += (s.empty() ? "k=" : ", ") + std::to_string(k);
    return s;
}

std::string ratio(int64_t expected, int64_t delivered) { return std::to_string(expected) + " / " + std::to_string(delivered); }

BarrierTable mbarrierTable(const analysis::PipelineTimeline& loop) {
    BarrierTable t;
    t.kind = "mbarrier";
    t.columns = {"Barrier", "Phase", "Parity", "Tiles fed", "Waited in", "Arrivals exp / got", "Tx bytes exp / got", "Completed (logical t)",
                 "Waits", "Status"};
    // Who fed and who waited for each (barrier, phase), from the events.
    struct Use {
        std::set<int64_t> tiles, waitedIn;
        Span wait, feed;
    };
    std::map<std::pair<std::string, int64_t>, Use> uses;
    for (const auto& r : loop.roles)
        for (const auto& e : r.events) {
            if (e.barrier.empty() || e.barrierPhase < 0) continue;
            Use& u = uses[{e.barrier, e.barrierPhase}];
            if (e.kind == TimelineEventKind::MbarWait) {
                if (e.iteration >= 0) u.waitedIn.insert(e.iteration);
                if (!u.wait.valid()) u.wait = e.span;
            } else {
                if (e.tile >= 0 && (e.kind == TimelineEventKind::TmaLoad || e.kind == TimelineEventKind::ExpectTx)) u.tiles.insert(e.tile);
                if (!u.feed.valid()) u.feed = e.span;
            }
        }
    int bad = 0;
    for (const auto& b : loop.barriers) {
        BarrierTableRow row;
        const Use& u = uses[{b.barrier, b.phase}];
        const bool unused = b.arrivalsDelivered == 0 && b.txDelivered == 0 && b.waits == 0 && !b.completed;
        const bool balanced = b.arrivalsDelivered == b.arrivalsExpected && b.txDelivered == b.txExpected;
        std::string status;
        if (unused) status = "unused";
        else if (b.completed && balanced) status = "ok";
        else if (!b.completed && b.waits > 0) status = "never completes (waited for)", row.bad = true;
        else if (!b.completed) status = "incomplete at exit", row.bad = true;
        else status = "unbalanced", row.bad = true;
        if (!balanced && !unused) row.bad = true;
        bad += row.bad;
        row.cells = {b.barrier,
                     std::to_string(b.phase),
                     std::to_string(b.phase % 2),
                     joinK(u.tiles),
                     joinK(u.waitedIn),
                     ratio(b.arrivalsExpected, b.arrivalsDelivered),
                     ratio(b.txExpected, b.txDelivered),
                     b.completed ? "t=" + std::to_string(b.completeTime) : "never",
                     std::to_string(b.waits),
                     status};
        row.span = u.wait.valid() ? u.wait : u.feed;
        std::ostringstream tt;
        tt << b.barrier << " phase " << b.phase << " (parity " << b.phase % 2 << "): expects " << b.arrivalsExpected << " arrival(s) and "
           << b.txExpected << " transaction byte(s); got " << b.arrivalsDelivered << " and " << b.txDelivered << "; "
           << (b.completed ? "completed at logical time " + std::to_string(b.completeTime) : std::string("never completed"));
        row.tooltip = tt.str();
        t.rows.push_back(std::move(row));
    }
    std::set<std::string> names;
    for (const auto& b : loop.barriers) names.insert(b.barrier);
    std::ostringstream s;
    s << names.size() << " mbarrier(s), " << loop.barriers.size() << " phase(s) over " << loop.tripCount << " iteration(s); ";
    int errors = 0;
    for (const auto& i : loop.issues) errors += i.error;
    if (loop.issues.empty() && bad == 0)
        s << "static check: every wait has its arrivals and bytes";
    else
        s << "static check: " << errors << " error(s), " << loop.issues.size() - errors << " warning(s), " << bad << " unbalanced phase(s)";
    t.summary = s.str();
    return t;
}

BarrierTable cpAsyncTable(const analysis::PipelineTimeline& loop) {
    BarrierTable t;
    t.kind = "cp.async";
    t.columns = {"Group", "Tiles", "Copies", "Committed at step", "Complete at step", "Waited in", "Status"};
    struct Group {
        std::set<int64_t> tiles;
        int copies = 0;
        int64_t commitStep = -1, completeStep = -1, waitedIn = -2;
        bool empty = false;
        Span span;
    };
    std::vector<Group> groups;
    for (const auto& r : loop.roles) {
        Group open;
        for (const auto& e : r.events) {
            if (e.kind == TimelineEventKind::IssueCopy) {
                open.tiles.insert(e.tile);
                ++open.copies;
                if (!open.span.valid()) open.span = e.span;
            } else if (e.kind == TimelineEventKind::Commit) {
                open.commitStep = e.step;
                open.empty = e.empty;
                if (!open.span.valid()) open.span = e.span;
                if (e.group >= 0 && size_t(e.group) >= groups.size()) groups.resize(size_t(e.group) + 1);
                if (e.group >= 0) groups[size_t(e.group)] = open;
                open = Group{};
            } else if (e.kind == TimelineEventKind::WaitGroup) {
                for (int64_t g = 0; g <= e.group && size_t(g) < groups.size(); ++g)
                    if (groups[size_t(g)].completeStep < 0) groups[size_t(g)].completeStep = e.step, groups[size_t(g)].waitedIn = e.iteration;
            }
        }
        break;  // the cp.async plan has one role
    }
    int never = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
        const Group& gr = groups[g];
        BarrierTableRow row;
        std::string status = gr.empty ? "empty (nothing left to copy)" : gr.completeStep >= 0 ? "ok" : "never waited for";
        if (!gr.empty && gr.completeStep < 0) row.bad = true, ++never;
        row.cells = {std::to_string(g),
                     joinK(gr.tiles),
                     std::to_string(gr.copies),
                     std::to_string(gr.commitStep),
                     gr.completeStep >= 0 ? std::to_string(gr.completeStep) : "never",
                     gr.waitedIn >= 0 ? "k=" + std::to_string(gr.waitedIn) : gr.waitedIn == -1 ? "epilogue" : "–",
                     status};
        row.span = gr.span;
        row.tooltip = "cp.async group " + std::to_string(g) + ": committed at step " + std::to_string(gr.commitStep) +
                      (gr.completeStep >= 0 ? ", complete after the wait_group at step " + std::to_string(gr.completeStep) : ", never waited for");
        t.rows.push_back(std::move(row));
    }
    t.summary = std::to_string(groups.size()) + " cp.async group(s) over " + std::to_string(loop.tripCount) + " iteration(s), " +
                std::to_string(loop.stages) + " stage(s) (sm_80 pipelines synchronize with cp.async groups, not mbarriers)" +
                (never ? "; " + std::to_string(never) + " group(s) never waited for" : "");
    return t;
}

}  // namespace

std::string BarrierDiagnostic::text() const {
    return "line " + std::to_string(span.line) + ":" + std::to_string(span.col) + ": " + (error ? "error" : "warning") + ": barrier " +
           barrier + ": " + message;
}

BarrierTable barrierTable(const analysis::PipelineTimeline& loop) {
    BarrierTable t = loop.schedule == "tma" ? mbarrierTable(loop) : loop.async ? cpAsyncTable(loop) : BarrierTable{};
    if (t.kind.empty())
        t.summary = "the loop is not pipelined (synchronous copies): no barrier phases or cp.async groups";
    for (const auto& i : loop.issues) t.diagnostics.push_back({i.error, i.barrier, i.message, i.span});
    return t;
}

}  // namespace ts::viz
