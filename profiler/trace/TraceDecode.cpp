// decodeTrace / compareWithPlan / chromeTrace (TraceDecode.h).
#include "profiler/trace/TraceDecode.h"

#include <algorithm>
#include <map>

namespace ts::rt::trace {

using ts::trace::StampKind;
namespace fmt = ts::trace;

namespace {

uint32_t word(double d) { return static_cast<uint32_t>(static_cast<int64_t>(d)); }

std::string token(const char* what, int64_t stage, int64_t iteration, bool withIteration) {
    std::string t = what;
    if (stage >= 0) t += " s" + std::to_string(stage);
    if (withIteration) t += " k" + std::to_string(iteration);
    return t;
}

const analysis::TimelineRole* roleOfThread0(const analysis::PipelineTimeline& plan) {
    for (auto& r : plan.roles)
        if (r.name.rfind("consumer", 0) == 0) return &r;
    return plan.roles.empty() ? nullptr : &plan.roles.front();
}

}  // namespace

DecodedTrace decodeTrace(std::span<const double> words, const std::vector<int64_t>& blocks, int64_t warps, int64_t capacity) {
    DecodedTrace out;
    const int64_t region = fmt::regionWords(capacity);
    const int64_t need = int64_t(blocks.size()) * warps * region;
    if (int64_t(words.size()) != need) {
        out.error = "trace buffer has " + std::to_string(words.size()) + " words, expected " + std::to_string(need) + " (" +
                    std::to_string(blocks.size()) + " block(s) x " + std::to_string(warps) + " warps x " + std::to_string(region) + ")";
        return out;
    }
    for (size_t b = 0; b < blocks.size(); ++b)
        for (int64_t w = 0; w < warps; ++w) {
            const double* r = words.data() + (int64_t(b) * warps + w) * region;
            const int64_t n = int64_t(word(r[0]));
            if (n == 0) continue;
            WarpStamps ws;
            ws.slot = int64_t(b), ws.block = blocks[b], ws.warp = w;
            ws.overflow = n > capacity;  // a ring: the last `capacity` stamps, oldest first
            const int64_t first = n > capacity ? n % capacity : 0, kept = std::min(n, capacity);
            for (int64_t j = 0; j < kept; ++j) {
                const int64_t i = (first + j) % capacity;
                const double* e = r + fmt::kHeaderWords + fmt::kWordsPerStamp * i;
                Stamp s;
                s.globalNs = uint64_t(word(e[0])) | uint64_t(word(e[1])) << 32;
                s.clock = word(e[2]);
                const uint32_t meta = word(e[3]);
                const uint32_t kind = meta >> 28, stage = (meta >> 24) & 0xF, iter = meta & 0xFFFFFF;
                if (kind < uint32_t(StampKind::LoopBegin) || kind > uint32_t(StampKind::LoopEnd)) {
                    out.error = "stamp " + std::to_string(i) + " of warp " + std::to_string(w) + " of block " + std::to_string(blocks[b]) +
                                " has kind " + std::to_string(kind) + " (not a stamp: the buffer is not a trace of this kernel)";
                    return out;
                }
                s.kind = StampKind(kind);
                s.stage = stage == fmt::kNoStage ? -1 : int64_t(stage);
                s.iteration = iter == fmt::kNoIteration ? -1 : int64_t(iter);
                ws.stamps.push_back(s);
            }
            out.warps.push_back(std::move(ws));
        }
    return out;
}

OrderCheck compareWithPlan(const DecodedTrace& t, const analysis::PipelineTimeline& plan) {
    OrderCheck c;
    const analysis::TimelineRole* role = roleOfThread0(plan);
    if (!role) {
        c.detail = "the static plan has no role";
        return c;
    }
    // A one-iteration loop is no loop in the kernel: its stamps carry no iteration.
    const bool withIter = plan.tripCount != 1;
    for (auto& e : role->events) {
        using K = analysis::TimelineEventKind;
        if (e.kind == K::ExpectTx) c.expected.push_back(token("issue", e.stage, e.iteration, withIter));
        else if (e.kind == K::MbarWait) c.expected.push_back(token("wait", e.stage, e.iteration, withIter));
        else if (e.kind == K::Mma) c.expected.push_back(token("mma", -1, e.iteration, withIter));
    }
    c.compared = int64_t(c.expected.size());
    bool any = false;
    for (auto& w : t.warps) {
        if (w.warp != 0) continue;
        any = true;
        std::vector<std::string> got;
        for (auto& s : w.stamps) {
            if (s.kind == StampKind::Issue) got.push_back(token("issue", s.stage, s.iteration, withIter));
            else if (s.kind == StampKind::WaitEnd) got.push_back(token("wait", s.stage, s.iteration, withIter));
            else if (s.kind == StampKind::MmaBegin) got.push_back(token("mma", -1, s.iteration, withIter));
        }
        if (c.measured.empty()) c.measured = got;
        for (size_t i = 0; i < std::max(got.size(), c.expected.size()); ++i) {
            std::string g = i < got.size() ? got[i] : "(nothing)", x = i < c.expected.size() ? c.expected[i] : "(nothing)";
            if (g != x) {
                c.detail = "block " + std::to_string(w.block) + ", thread 0, event " + std::to_string(i) + ": measured '" + g +
                           "', the plan has '" + x + "'" + (w.overflow ? " (the warp's buffer overflowed: raise --capacity)" : "");
                return c;
            }
        }
    }
    if (!any) {
        c.detail = "no stamp from warp 0 of any traced block (is --blocks inside the grid?)";
        return c;
    }
    c.match = true;
    c.detail = "match";
    return c;
}

nlohmann::json chromeTrace(const DecodedTrace& t, const analysis::PipelineTimeline* plan, const ChromeTraceInfo& info) {
    nlohmann::json evs = nlohmann::json::array();
    uint64_t t0 = UINT64_MAX;
    for (auto& w : t.warps)
        for (auto& s : w.stamps) t0 = std::min(t0, s.globalNs);
    if (t0 == UINT64_MAX) t0 = 0;
    auto us = [&](uint64_t ns) { return double(ns - t0) / 1000.0; };
    auto meta = [&](int pid, int tid, const char* what, const std::string& name) {
        nlohmann::json m{{"ph", "M"}, {"pid", pid}, {"tid", tid}, {"name", what}, {"args", {{"name", name}}}};
        evs.push_back(m);
    };
    // Measured: process slot+1 ("block B"), thread = warp.
    double loopStart = -1, loopEnd = -1;
    std::map<int64_t, bool> named;
    for (auto& w : t.warps) {
        const int pid = int(w.slot) + 1;
        if (!named[pid]) meta(pid, 0, "process_name", "block " + std::to_string(w.block) + " (measured)"), named[pid] = true;
        meta(pid, int(w.warp), "thread_name", "warp " + std::to_string(w.warp));
        std::map<StampKind, const Stamp*> open;
        for (auto& s : w.stamps) {
            nlohmann::json args{{"iteration", s.iteration}, {"clock", s.clock}};
            if (s.stage >= 0) args["stage"] = s.stage;
            auto complete = [&](StampKind begin, const std::string& name) {
                auto it = open.find(begin);
                if (it == open.end()) return;
                const Stamp& b = *it->second;
                nlohmann::json a{{"iteration", b.iteration}, {"cycles", uint32_t(s.clock - b.clock)}};
                if (b.stage >= 0) a["stage"] = b.stage;
                evs.push_back({{"name", name}, {"cat", "measured"}, {"ph", "X"}, {"pid", pid}, {"tid", int(w.warp)},
                               {"ts", us(b.globalNs)}, {"dur", us(s.globalNs) - us(b.globalNs)}, {"args", a}});
                open.erase(it);
            };
            switch (s.kind) {
                case StampKind::LoopBegin:
                case StampKind::WaitBegin:
                case StampKind::MmaBegin: open[s.kind] = &s; break;
                case StampKind::WaitEnd:
                    complete(StampKind::WaitBegin, "wait stage " + std::to_string(s.stage) + " k=" + std::to_string(s.iteration));
                    break;
                case StampKind::MmaEnd: complete(StampKind::MmaBegin, "wgmma k=" + std::to_string(s.iteration)); break;
                case StampKind::LoopEnd: {
                    auto it = open.find(StampKind::LoopBegin);
                    if (it != open.end() && w.slot == 0 && w.warp == 0) loopStart = us(it->second->globalNs), loopEnd = us(s.globalNs);
                    complete(StampKind::LoopBegin, "pipelined loop");
                    break;
                }
                case StampKind::Issue:
                case StampKind::Release:
                    evs.push_back({{"name", std::string(s.kind == StampKind::Issue ? "issue stage " + std::to_string(s.stage) : "release")},
                                   {"cat", "measured"}, {"ph", "i"}, {"s", "t"}, {"pid", pid}, {"tid", int(w.warp)},
                                   {"ts", us(s.globalNs)}, {"args", args}});
                    break;
            }
        }
    }
    // Static plan on the same axis: its logical span mapped onto warp 0's measured loop.
    nlohmann::json planInfo = nullptr;
    if (plan) {
        int64_t first = INT64_MAX, last = 0;
        for (auto& r : plan->roles)
            for (auto& e : r.events)
                if (e.time >= 0 && e.phase == analysis::TimelinePhase::Steady) first = std::min(first, e.time), last = std::max(last, e.time + 1);
        if (first == INT64_MAX) first = 0, last = 1;
        const bool measured = loopStart >= 0 && loopEnd > loopStart;
        const double scale = measured ? (loopEnd - loopStart) / double(std::max<int64_t>(1, last - first)) : 0.001;
        const double origin = measured ? loopStart - double(first) * scale : 0;
        meta(0, 0, "process_name", "static plan (logical units scaled to the measured loop)");
        for (size_t ri = 0; ri < plan->roles.size(); ++ri) {
            const auto& r = plan->roles[ri];
            meta(0, int(ri), "thread_name", r.name);
            for (auto& e : r.events) {
                if (e.time < 0) continue;
                nlohmann::json a{{"step", e.step}, {"time", e.time}, {"line", e.span.line}, {"col", e.span.col}, {"iteration", e.iteration},
                                 {"kind", analysis::timelineEventKindName(e.kind)}};
                if (e.stage >= 0) a["stage"] = e.stage;
                if (!e.barrier.empty()) a["barrier"] = e.barrier;
                evs.push_back({{"name", e.label}, {"cat", "plan"}, {"ph", "X"}, {"pid", 0}, {"tid", int(ri)},
                               {"ts", origin + double(e.time) * scale}, {"dur", scale}, {"args", a}});
            }
        }
        planInfo = {{"trip_count", plan->tripCount}, {"stages", plan->stages}, {"warp_specialized", plan->warpSpecialized},
                    {"unit_us", scale}, {"aligned_to_measured_loop", measured}};
    }
    nlohmann::json other{{"format", "tilescope-trace/1"}, {"file", info.file}, {"kernel", info.kernel}, {"arch", info.arch},
                         {"plan", planInfo}, {"t0_globaltimer_ns", t0}};
    for (auto& [k, v] : info.otherData.items()) other[k] = v;
    return {{"traceEvents", evs}, {"displayTimeUnit", "ns"}, {"otherData", other}};
}

}  // namespace ts::rt::trace
