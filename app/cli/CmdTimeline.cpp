// `tilec timeline FILE [--json OUT]`: the static pipeline timeline of every T.Pipelined loop
// (compiler/analysis/PipelineTimeline.h) as a text table per warp role, or as JSON
// ("tilescope-timeline/1") for the IDE and scripts. Compiles up to plan-pipelines only: the
// timeline is read from the plan, so it is shown even when a later pass fails.
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/Commands.h"
#include "app/cli/RunSupport.h"
#include "compiler/analysis/PipelineTimeline.h"

namespace ts::cli {

using namespace ts::analysis;

namespace {
nlohmann::json timelineJson(const TimelineResult& t, const std::string& file) {
    nlohmann::json j;
    j["format"] = "tilescope-timeline/1";
    j["file"] = file;
    j["notes"] = t.notes;
    auto& loops = j["loops"] = nlohmann::json::array();
    for (auto& l : t.loops) {
        nlohmann::json lj{{"line", l.loopSpan.line},     {"col", l.loopSpan.col},
                          {"loop_var", l.loopVar},        {"trip_count", l.tripCount},
                          {"stages", l.stages},           {"async", l.async},
                          {"producers", l.producers},     {"consumers", l.consumers},
                          {"groups_committed", l.groupsCommitted}};
        auto& roles = lj["roles"] = nlohmann::json::array();
        for (auto& r : l.roles) {
            nlohmann::json rj{{"name", r.name}, {"threads", r.threads}};
            auto& evs = rj["events"] = nlohmann::json::array();
            for (auto& e : r.events) {
                nlohmann::json ej{{"step", e.step},
                                  {"kind", timelineEventKindName(e.kind)},
                                  {"phase", timelinePhaseName(e.phase)},
                                  {"iteration", e.iteration},
                                  {"label", e.label},
                                  {"ir", e.irStmt},
                                  {"body_index", e.bodyIndex},
                                  {"line", e.span.line},
                                  {"col", e.span.col}};
                if (e.tile >= 0) ej["tile"] = e.tile;
                if (e.stage >= 0) ej["stage"] = e.stage;
                if (e.group >= 0) ej["group"] = e.group;
                if (e.pending >= 0) ej["pending"] = e.pending;
                if (e.kind == TimelineEventKind::Commit) ej["empty"] = e.empty;
                if (!e.buffer.empty()) ej["buffer"] = e.buffer;
                evs.push_back(ej);
            }
            roles.push_back(rj);
        }
        auto& occ = lj["occupancy"] = nlohmann::json::array();
        for (auto& o : l.occupancy)
            occ.push_back({{"stage", o.stage},
                           {"tile", o.tile},
                           {"issue_step", o.issueStep},
                           {"landed_step", o.landedStep},
                           {"release_step", o.releaseStep}});
        loops.push_back(lj);
    }
    return j;
}

void printText(const TimelineResult& t, const std::string& file) {
    for (auto& n : t.notes) std::cout << file << ": note: " << n << "\n";
    for (auto& l : t.loops) {
        std::cout << file << ":" << l.loopSpan.line << ": T.Pipelined over " << l.loopVar << ", " << l.tripCount
                  << " iteration(s), " << l.stages << " stage(s), "
                  << (l.async ? "cp.async producers issued " + std::to_string(l.stages - 1) + " ahead"
                              : std::string("not pipelined (synchronous copies)"))
                  << "\n";
        for (auto& p : l.producers) std::cout << "  producer: " << p << "\n";
        for (auto& c : l.consumers) std::cout << "  consumer: " << c << "\n";
        for (auto& r : l.roles) {
            std::cout << "  role '" << r.name << "' (" << r.threads << " threads)\n";
            std::cout << "  step  phase     iter  line  event\n";
            for (auto& e : r.events) {
                std::cout << "  " << std::setw(4) << e.step << "  " << std::left << std::setw(8)
                          << timelinePhaseName(e.phase) << std::right << "  " << std::setw(4)
                          << (e.iteration >= 0 ? std::to_string(e.iteration) : "-") << "  " << std::setw(4)
                          << e.span.line << "  " << e.label << "\n";
            }
        }
        if (!l.occupancy.empty()) {
            std::cout << "  stage occupancy (steps: issued -> landed -> released)\n";
            for (auto& o : l.occupancy)
                std::cout << "    stage " << o.stage << "  tile k=" << o.tile << "  " << o.issueStep << " -> "
                          << o.landedStep << " -> " << o.releaseStep << "\n";
        }
    }
    if (t.loops.empty() && t.notes.empty()) std::cout << file << ": no T.Pipelined loop\n";
}
}  // namespace

int runTimeline(const TimelineCommand& c) {
    {
        // The plan of a kernel that cannot build (e.g. stages that overflow shared memory) would
        // mislead: the whole compile runs first and its errors stop the timeline.
        CompileOptions full;
        full.recordSnapshots = false;
        auto whole = compileFile(c.flags, full);
        if (!whole) return 1;
        if (!whole->ok) {
            printDiagnostics(*whole);
            return 1;
        }
    }
    CompileOptions opts;
    opts.stopAfter = "plan-pipelines";
    opts.recordSnapshots = false;
    auto r = compileFile(c.flags, opts);
    if (!r) return 1;
    if (printDiagnostics(*r) || !r->lowered) return 1;
    if (!oneLaunchOrReport(*r, "timeline")) return 1;
    if (c.trips < 0) {
        std::cerr << "tilec: error: --trips must be positive, got " << c.trips << "\n";
        return 1;
    }
    auto t = buildPipelineTimeline(r->lowered, c.trips);
    // inject-pipeline gives loops feeding wgmma tiles a TMA + mbarrier schedule on sm_90a
    // (InjectPipelineTma.cpp), which this model does not describe yet.
    std::string target = c.flags.target.empty() ? defaultTarget() : c.flags.target;
    if (target.find("sm_90") != std::string::npos && !t.loops.empty())
        t.notes.push_back("the rows show the cp.async plan (sm_80); on " + target +
                          " loops feeding wgmma tiles take the TMA + mbarrier schedule, not modelled yet");
    if (!c.json.empty()) return writeJson(timelineJson(t, c.flags.file), c.json) ? 0 : 1;
    printText(t, c.flags.file);
    return 0;
}

}  // namespace ts::cli
