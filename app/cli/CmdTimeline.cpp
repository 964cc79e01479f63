// `tilec timeline FILE [--json OUT]`: the static pipeline timeline of every T.Pipelined loop
// (compiler/analysis/PipelineTimeline.h) as a text table per warp role, or as JSON
// ("tilescope-timeline/1") for the IDE and scripts. The cp.async plan (sm_80) is read after
// plan-pipelines; on sm_90a a kernel with the TMA + mbarrier schedule is read from the lowered IR
// (compiler/analysis/HopperTimeline.h), with its barrier phases and the static barrier check:
// a barrier defect is printed as file:line:col: error: ... and the command exits 1.
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "compiler/support/CodegenSwitches.h"
#include "app/cli/CmdTrace.h"
#include "app/cli/Commands.h"
#include "app/cli/RunSupport.h"
#include "compiler/StaticTimeline.h"
#include "compiler/analysis/HopperTimeline.h"
#include "compiler/analysis/PipelineTimeline.h"
#include "compiler/support/TextColumn.h"

namespace ts::cli {

using namespace ts::analysis;

namespace {
/// Name of an occupancy line: "stage 1" for a pipeline stage, "A_shared (line 21)" for a plain
/// copy's tile in its buffer.
std::string occupancyRow(const StageOccupancy& o) {
    if (o.buffer.empty()) return "stage " + std::to_string(o.stage);
    return o.buffer + " (line " + std::to_string(o.span.line) + ")";
}

nlohmann::json timelineJson(const TimelineResult& t, const std::string& file) {
    nlohmann::json j;
    j["format"] = "tilescope-timeline/1";
    j["file"] = file;
    j["notes"] = t.notes;
    auto& loops = j["loops"] = nlohmann::json::array();
    for (auto& l : t.loops) {
        nlohmann::json lj{{"line", l.loopSpan.line},     {"col", l.loopSpan.col},
                          {"schedule", l.schedule},       {"warp_specialized", l.warpSpecialized},
                          {"loop_var", l.loopVar},        {"trip_count", l.tripCount},
                          {"stages", l.stages},           {"async", l.async},
                          {"producers", l.producers},     {"consumers", l.consumers},
                          {"groups_committed", l.groupsCommitted}, {"ahead", l.ahead},
                          {"wgmma_inflight", l.wgmmaInflight}};
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
                if (e.kind == TimelineEventKind::BulkWait) ej["read"] = e.read;
                if (!e.buffer.empty()) ej["buffer"] = e.buffer;
                if (!e.barrier.empty()) ej["barrier"] = e.barrier;
                if (e.parity >= 0) ej["parity"] = e.parity;
                if (e.barrierPhase >= 0) ej["barrier_phase"] = e.barrierPhase;
                if (e.bytes >= 0) ej["bytes"] = e.bytes;
                if (e.elected) ej["elected"] = true;
                if (e.time >= 0) ej["time"] = e.time;
                evs.push_back(ej);
            }
            roles.push_back(rj);
        }
        auto& occ = lj["occupancy"] = nlohmann::json::array();
        for (auto& o : l.occupancy) {
            nlohmann::json oj = {{"stage", o.stage},
                                 {"tile", o.tile},
                                 {"issue_step", o.issueStep},
                                 {"landed_step", o.landedStep},
                                 {"release_step", o.releaseStep},
                                 {"issue_time", o.issueTime},
                                 {"landed_time", o.landedTime},
                                 {"release_time", o.releaseTime}};
            if (!o.buffer.empty()) oj["buffer"] = o.buffer, oj["line"] = o.span.line;  // a plain copy's tile
            occ.push_back(std::move(oj));
        }
        auto& bars = lj["barriers"] = nlohmann::json::array();
        for (auto& b : l.barriers)
            bars.push_back({{"barrier", b.barrier},
                            {"phase", b.phase},
                            {"parity", b.phase % 2},
                            {"arrivals_expected", b.arrivalsExpected},
                            {"arrivals_delivered", b.arrivalsDelivered},
                            {"tx_expected", b.txExpected},
                            {"tx_delivered", b.txDelivered},
                            {"completed", b.completed},
                            {"complete_time", b.completeTime},
                            {"waits", b.waits}});
        // Only when there are any, so the JSON of a kernel without TMA stores stays as it was.
        if (!l.bulkGroups.empty()) {
            auto& bg = lj["bulk_groups"] = nlohmann::json::array();
            for (auto& g : l.bulkGroups)
                bg.push_back({{"group", g.group},
                              {"role", g.role},
                              {"op", g.reduceAdd ? "tma_reduce_add" : "tma_store"},
                              {"buffer", g.buffer},
                              {"tensor", g.tensor},
                              {"bytes", g.bytes},
                              {"iteration", g.iteration},
                              {"line", g.span.line},
                              {"col", g.span.col},
                              {"issue_step", g.issueStep},
                              {"issue_time", g.issueTime},
                              {"commit_step", g.commitStep},
                              {"read_step", g.readStep},
                              {"read_time", g.readTime},
                              {"free_step", g.freeStep},
                              {"free_time", g.freeTime},
                              {"complete_step", g.completeStep},
                              {"complete_time", g.completeTime},
                              {"reuse_step", g.reuseStep},
                              {"reuse_time", g.reuseTime},
                              {"reuse_iteration", g.reuseIteration},
                              {"reuse_line", g.reuseSpan.line}});
        }
        auto& issues = lj["issues"] = nlohmann::json::array();
        for (auto& i : l.issues)
            issues.push_back({{"line", i.span.line},
                              {"col", i.span.col},
                              {"barrier", i.barrier},
                              {"severity", i.error ? "error" : "warning"},
                              {"message", i.message}});
        loops.push_back(lj);
    }
    return j;
}

void printHopper(const PipelineTimeline& l, const std::string& file) {
    // A kernel without a T.Pipelined loop (plain TMA copies): the body in program order, other
    // loops unrolled; its events count as the prologue (fresh-user finding: "0 iteration(s),
    // 1 stage(s)" read as a loop that never ran).
    std::cout << file << ":" << l.loopSpan.line << ": "
              << (l.loopVar.empty() ? std::string("kernel without a T.Pipelined loop: the body in program order, loops unrolled, "
                                                  "every event in the prologue phase")
                                    : "T.Pipelined over " + l.loopVar + ", " + std::to_string(l.tripCount) + " iteration(s), " +
                                          std::to_string(l.stages) + " stage(s)")
              << ", TMA + mbarrier schedule"
              << (l.warpSpecialized ? ", warp-specialized" : "") << " (times: logical units, one per event)\n";
    for (auto& p : l.producers) std::cout << "  producer: " << p << "\n";
    for (auto& c : l.consumers) std::cout << "  consumer: " << c << "\n";
    for (auto& r : l.roles) {
        std::cout << "  role '" << r.name << "' (" << r.threads << " threads)\n";
        std::cout << "  step  time  phase     iter  line  event\n";
        for (auto& e : r.events)
            std::cout << "  " << std::setw(4) << e.step << "  " << std::setw(4) << e.time << "  " << std::left << std::setw(8)
                      << timelinePhaseName(e.phase) << std::right << "  " << std::setw(4)
                      << (e.iteration >= 0 ? std::to_string(e.iteration) : "-") << "  " << std::setw(4) << e.span.line << "  "
                      << e.label << (e.barrierPhase >= 0 ? " [phase " + std::to_string(e.barrierPhase) + "]" : "") << "\n";
    }
    if (!l.barriers.empty()) {
        std::cout << "  mbarrier phases (arrivals and transaction bytes: expected / delivered)\n";
        // The name column as wide as the longest name ("bar_k_ready[0]" overran a fixed 12).
        size_t nameWidth = 12;
        for (auto& b : l.barriers) nameWidth = std::max(nameWidth, b.barrier.size());
        std::cout << "    " << std::left << std::setw(int(nameWidth)) << "barrier" << std::right
                  << "  phase  parity  arrivals     bytes          completed  waits\n";
        for (auto& b : l.barriers) {
            std::ostringstream a, x;
            a << b.arrivalsExpected << "/" << b.arrivalsDelivered;
            x << b.txExpected << "/" << b.txDelivered;
            std::cout << "    " << std::left << std::setw(int(nameWidth)) << b.barrier << std::right << "  " << std::setw(5) << b.phase << "  "
                      << std::setw(6) << b.phase % 2 << "  " << std::left << std::setw(11) << a.str() << "  " << std::setw(13)
                      << x.str() << std::right << "  "
                      << std::setw(9) << (b.completed ? "t=" + std::to_string(b.completeTime) : "never") << "  " << std::setw(5)
                      << b.waits << "\n";
        }
    }
    if (!l.occupancy.empty()) {
        std::cout << "  stage occupancy (logical time: issued -> landed -> released)\n";
        // "-" for a time that never comes (not released: the tile is read until the end), as the
        // bulk-group table writes it; the JSON keeps -1.
        auto time = [](int64_t t) { return t < 0 ? std::string("-") : std::to_string(t); };
        for (auto& o : l.occupancy)
            std::cout << "    " << occupancyRow(o) << "  tile k=" << o.tile << "  " << time(o.issueTime) << " -> " << time(o.landedTime) << " -> "
                      << time(o.releaseTime) << "\n";
    }
    if (!l.bulkGroups.empty()) {
        std::cout << "  TMA store bulk groups (logical time: issued -> tile read out (wait_group.read) -> tile free (next block "
                     "barrier); writes complete (wait_group))\n";
        auto t = [](int64_t v) { return v >= 0 ? std::to_string(v) : std::string("never"); };
        for (auto& g : l.bulkGroups) {
            std::cout << "    group " << g.group << "  " << (g.iteration >= 0 ? "iter " + std::to_string(g.iteration) : std::string("after loop"))
                      << "  line " << g.span.line << "  " << (g.reduceAdd ? "reduce-add " : "store ") << g.buffer << " -> " << g.tensor << "  "
                      << g.bytes << " B  " << t(g.issueTime) << " -> " << t(g.readTime) << " -> " << (g.freeTime >= 0 ? std::to_string(g.freeTime) : "-") << "; complete "
                      << t(g.completeTime);
            if (g.reuseStep >= 0)
                std::cout << "; rewritten at t=" << g.reuseTime << " (iteration " << g.reuseIteration << ", line " << g.reuseSpan.line << ")";
            std::cout << "\n";
        }
    }
    if (l.issues.empty()) std::cout << "  barrier check: every wait has its arrivals and bytes\n";
}

/// Barrier defects as compiler diagnostics; true if any is an error.
/// The column is in characters, as formatDiagnostic prints it (the JSON's "col" stays bytes).
bool printIssues(const TimelineResult& t, const std::string& file, const SourceFile* src) {
    bool err = false;
    for (auto& l : t.loops)
        for (auto& i : l.issues) {
            std::cerr << file << ":" << i.span.line << ":" << (src ? charColumn(src->lineText(i.span.line), i.span.col) : i.span.col) << ": " << (i.error ? "error" : "warning") << ": barrier "
                      << i.barrier << ": " << i.message << "\n";
            err = err || i.error;
        }
    return err;
}

void printText(const TimelineResult& t, const std::string& file) {
    // The schedule drawn is the one the switches made (compile says so too; fresh-user helper-103).
    // On stderr, with the other diagnostics: stdout is the timeline itself.
    if (std::string sw = describeCodegenSwitches(); !sw.empty())
        std::cerr << file << ": note: compiled with codegen switches from the environment: " << sw << "\n";
    for (auto& n : t.notes) std::cout << file << ": note: " << n << "\n";
    for (auto& l : t.loops) {
        if (l.schedule == "tma") {
            printHopper(l, file);
            continue;
        }
        std::cout << file << ":" << l.loopSpan.line << ": T.Pipelined over " << l.loopVar << ", " << l.tripCount
                  << " iteration(s), " << l.stages << " stage(s), "
                  << (l.async ? "cp.async producers issued " + std::to_string(l.ahead) + " ahead" + (l.wgmmaInflight ? ", one wgmma group in flight" : "")
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
                std::cout << "    " << occupancyRow(o) << "  tile k=" << o.tile << "  " << o.issueStep << " -> "
                          << o.landedStep << " -> " << o.releaseStep << "\n";
        }
    }
    if (t.loops.empty() && t.notes.empty()) std::cout << file << ": no T.Pipelined loop\n";
}
}  // namespace

int runTimeline(const TimelineCommand& c) { return runTimeline(c, {}); }

int runTimeline(const TimelineCommand& c, const std::vector<int64_t>& block) {
    std::string target = c.flags.target.empty() ? defaultTarget() : c.flags.target;
    if (c.trips < 0) {
        std::cerr << "tilec: error: --trips must be positive, got " << c.trips << "\n";
        return 1;
    }
    for (int64_t b : block)
        if (b < 0) {
            std::cerr << "tilec: error: --block indices must be >= 0, got " << b << "\n";
            return 1;
        }
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
        // sm_90a: the TMA + mbarrier schedule exists only in the lowered IR.
        if (target.find("sm_90") != std::string::npos && whole->lowered) {
            if (!oneLaunchOrReport(*whole, "timeline")) return 1;
            for (size_t d = 0; d < block.size() && d < 3; ++d)
                if (!whole->kernel.gridExtent[d] && block[d] >= int64_t(whole->kernel.grid[d])) {
                    std::cerr << "tilec: error: --block " << "xyz"[d] << " = " << block[d] << " is outside the grid (" << whole->kernel.grid[0]
                              << ", " << whole->kernel.grid[1] << ", " << whole->kernel.grid[2] << ")\n";
                    return 1;
                }
            HopperTimelineOptions ho;
            ho.block = block;
            CompileOptions po;
            po.stopAfter = "plan-pipelines";
            po.recordSnapshots = false;
            if (auto planned = compileFile(c.flags, po); planned && planned->lowered) ho.planned = plannedLoopOf(planned->lowered);
            auto ht = buildHopperTimeline(whole->lowered, ho);
            if (!ht.loops.empty()) {
                bool bad = printIssues(ht, c.flags.file, whole->source.get());
                // --json - is the JSON alone on stdout; --json FILE writes it beside the text.
                if (c.json == "-") return writeJson(timelineJson(ht, c.flags.file), c.json) && !bad ? 0 : 1;
                printText(ht, c.flags.file);
                if (!c.json.empty() && !writeJson(timelineJson(ht, c.flags.file), c.json)) return 1;
                return bad ? 1 : 0;
            }
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
    auto t = cpAsyncTimeline(r->lowered, target, c.trips);
    if (c.json == "-") return writeJson(timelineJson(t, c.flags.file), c.json) ? 0 : 1;
    printText(t, c.flags.file);
    if (!c.json.empty() && !writeJson(timelineJson(t, c.flags.file), c.json)) return 1;
    return 0;
}

}  // namespace ts::cli
