// fillOccupancy (HopperOccupancy.h): the stage and plain-copy occupancy rows of a Hopper timeline,
// from the roles' events after BarrierSchedule.cpp has timed them.
#include "compiler/analysis/HopperOccupancy.h"

#include <algorithm>
#include <map>

namespace ts::analysis {

/// Occupancy of each stage by each TMA-loaded tile: issue (expect_tx) -> landed (its phase
/// completes) -> released (the Release event of that tile), in steps of the issuing role and in
/// logical time. Then each plain copy's tile in its buffer (`plain`): released at its last read
/// before the next copy into the buffer (the walk's steps; times from the run).
void fillOccupancy(PipelineTimeline& t, const std::function<bool(const std::string&)>& plainBar, const std::vector<PlainCopyTile>& plain) {
    std::map<int64_t, StageOccupancy> occ;
    std::map<std::pair<std::string, int64_t>, const BarrierPhase*> phases;
    for (auto& p : t.barriers) phases[{p.barrier, p.phase}] = &p;
    for (auto& r : t.roles)
        for (auto& e : r.events) {
            if (e.kind == TimelineEventKind::ExpectTx && e.tile >= 0 && !plainBar(e.barrier)) {
                auto& o = occ[e.tile];
                o.stage = e.stage, o.tile = e.tile, o.issueStep = e.step, o.issueTime = e.time;
                auto it = phases.find({e.barrier, e.barrierPhase});
                o.landedTime = it != phases.end() ? it->second->completeTime : -1;
                o.landedStep = -1, o.releaseStep = -1, o.releaseTime = -1;
            }
        }
    for (auto& r : t.roles)
        for (auto& e : r.events) {
            if (e.kind == TimelineEventKind::MbarWait && e.stage >= 0 && e.barrierPhase >= 0 && !plainBar(e.barrier)) {
                for (auto& [tile, o] : occ)
                    if (o.landedStep < 0 && o.stage == e.stage && tile == e.barrierPhase * t.stages + e.stage) o.landedStep = e.step;
            }
            if (e.kind == TimelineEventKind::Release && occ.count(e.tile) && occ[e.tile].releaseStep < 0)
                occ[e.tile].releaseStep = e.step, occ[e.tile].releaseTime = e.time;
        }
    // A pipeline whose reads are not wgmma (mma.sync, plain compute: the cp.async schedule's TMA
    // loads) has no Release events: its block barrier orders the reads of tile k before the
    // refill of its stage with tile k + S. Its tile is released at the last block barrier before
    // that refill, and a tile with no refill (the last S) where the loop ends; without this each
    // stage row ran to the end of the timeline (flash_decode).
    bool anyRelease = false;
    for (auto& r : t.roles)
        for (auto& e : r.events) anyRelease |= e.kind == TimelineEventKind::Release;
    if (!anyRelease && t.stages > 0)
        for (auto& r : t.roles) {
            const auto& evs = r.events;
            for (auto& [tile, o] : occ) {
                if (o.releaseStep >= 0 || o.issueStep < 0 || size_t(o.issueStep) >= evs.size() ||
                    evs[size_t(o.issueStep)].kind != TimelineEventKind::ExpectTx || evs[size_t(o.issueStep)].tile != tile)
                    continue;  // issued by another role
                const int64_t from = std::max(o.issueStep, o.landedStep);
                int64_t next = -1, release = -1;
                for (auto& e : evs)
                    if (e.step > from && e.kind == TimelineEventKind::ExpectTx && e.stage == o.stage && e.tile == tile + t.stages) {
                        next = e.step;
                        break;
                    }
                if (next >= 0) {
                    for (auto& e : evs)
                        if (e.step > from && e.step < next && e.kind == TimelineEventKind::Barrier) release = e.step;
                    if (release < 0) release = next;
                } else {
                    for (auto& e : evs)
                        if (e.step > from && (e.phase == TimelinePhase::Epilogue || e.iteration > tile)) {
                            release = e.step;
                            break;
                        }
                }
                if (release >= 0) o.releaseStep = release, o.releaseTime = evs[size_t(release)].time;
            }
        }
    for (auto& [tile, o] : occ) t.occupancy.push_back(o);
    for (auto& p : plain) {
        const auto& evs = t.roles[p.role].events;
        auto at = [&](int64_t step) -> const TimelineEvent* { return step >= 0 && size_t(step) < evs.size() ? &evs[size_t(step)] : nullptr; };
        StageOccupancy o;
        o.stage = -1, o.tile = p.tile, o.buffer = p.buffer, o.span = p.span;
        o.issueStep = p.issueStep, o.landedStep = p.landedStep, o.releaseStep = p.releaseStep;
        if (auto* e = at(p.issueStep)) {
            o.issueTime = e->time;
            auto it = phases.find({e->barrier, e->barrierPhase});
            o.landedTime = it != phases.end() ? it->second->completeTime : -1;
        }
        if (auto* e = at(p.releaseStep)) o.releaseTime = e->time;
        // A tile nothing reads holds its buffer until it lands: not past it when nothing refills
        // it (it was released nowhere), not before it when a refill is issued first (two copies
        // into one tile in flight together, a write-after-write the bars then show overlapping).
        if (p.lastRead < 0 && o.landedTime >= 0 && o.releaseTime < o.landedTime) {
            o.releaseTime = o.landedTime;
            if (p.releaseStep < 0 || p.releaseStep < o.landedStep) o.releaseStep = o.landedStep;
        }
        t.occupancy.push_back(std::move(o));
    }
}

}  // namespace ts::analysis
