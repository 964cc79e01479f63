// runSchedule (BarrierSchedule.h). Mbarrier rules (PTX ISA §9.7.13.15): a phase completes when
// its pending arrival count reaches 0 and its transaction count balances (bytes expected by
// expect_tx = bytes completed by TMA); the barrier then starts the next phase. try_wait.parity p
// passes while the current phase's parity differs from p, i.e. once the phase of parity p before
// it has completed. bar.sync id, n releases when n threads have arrived (id 0: the whole block).
#include "compiler/analysis/BarrierSchedule.h"

#include <algorithm>
#include <map>
#include <set>

namespace ts::analysis::barriers {

namespace {

struct PhaseState {
    int64_t arrivals = 0, txExpected = 0, txDelivered = 0;
    int64_t completeTime = -1, waits = 0;
    bool touched = false;
    Span lastSpan;
};

struct Mbar {
    bool init = false;
    int64_t count = 1;
    std::vector<PhaseState> phases{PhaseState{}};
    /// Phases completed before the last tl.mbarrier_init: an init starts the parity at 0 again
    /// while the phases keep their numbers (a pipelined loop inside an outer loop initialises
    /// its barriers on every outer trip; its tiles and phases number on across the trips).
    int64_t base = 0;
    int64_t completed() const { return int64_t(phases.size()) - 1; }
    int64_t parity() const { return (completed() - base) % 2; }
    PhaseState& cur() { return phases.back(); }
};

struct Delivery {
    int64_t time;
    std::string bar;
    int64_t bytes;
    Span span;
};

enum class St { Ready, AtWait, AtBarrier, Done };

struct Run {
    size_t pc = 0;
    int64_t clock = 0;
    St st = St::Ready;
    std::map<std::string, int64_t> lastObserved;  ///< phase each barrier's last wait observed
    /// The role's committed bulk groups (TMA stores): when their shared-memory reads and their
    /// global writes are done. Bulk groups are per thread; the role's trace is its elected
    /// thread's, the only one that issues them.
    std::vector<std::pair<int64_t, int64_t>> bulk;
};

std::string plural(int64_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

class Scheduler {
public:
    Scheduler(std::vector<RoleTrace>& roles, int64_t latency, PipelineTimeline& out)
        : m_roles(roles), m_latency(latency), m_out(out), m_runs(roles.size()) {
        for (auto& r : roles) m_blockThreads += r.role.threads;
    }

    void run() {
        for (;;) {
            for (size_t i = 0; i < m_runs.size(); ++i)
                if (m_runs[i].st == St::Ready && m_runs[i].pc >= m_roles[i].ops.size()) m_runs[i].st = St::Done;
            int best = -1;
            for (size_t i = 0; i < m_runs.size(); ++i)
                if (m_runs[i].st == St::Ready && (best < 0 || m_runs[i].clock < m_runs[size_t(best)].clock)) best = int(i);
            auto dl = std::min_element(m_deliveries.begin(), m_deliveries.end(),
                                       [](const Delivery& a, const Delivery& b) { return a.time < b.time; });
            if (dl != m_deliveries.end() && (best < 0 || dl->time <= m_runs[size_t(best)].clock)) {
                Delivery d = *dl;
                m_deliveries.erase(dl);
                deliver(d);
                continue;
            }
            if (best < 0) break;
            step(size_t(best));
        }
        bool stuck = false;
        for (size_t i = 0; i < m_runs.size(); ++i)
            if (m_runs[i].st != St::Done) {
                stuck = true;
                reportStuck(i);
            }
        finish(stuck);
    }

private:
    TraceOp& opOf(size_t r) { return m_roles[r].ops[m_runs[r].pc]; }
    TimelineEvent* eventOf(size_t r, const TraceOp& o) {
        return o.event >= 0 ? &m_roles[r].role.events[size_t(o.event)] : nullptr;
    }
    void issue(const Span& sp, const std::string& bar, std::string msg, bool error = true) {
        for (auto& i : m_out.issues)
            if (i.span == sp && i.barrier == bar && i.message == msg) return;
        m_out.issues.push_back({sp, bar, std::move(msg), error});
    }
    Mbar& mbar(const TraceOp& o) {
        auto [it, fresh] = m_bars.try_emplace(o.bar);
        if (fresh) m_order.push_back(o.bar);
        if (o.op != Op::Init && !it->second.init && !m_uninitReported.count(o.bar)) {
            m_uninitReported.insert(o.bar);
            issue(o.span, o.bar, "mbarrier " + o.bar + " is used before tl.mbarrier_init (T.alloc_barrier / T.mbarrier_init it first)");
        }
        return it->second;
    }
    /// Completes the current phase of `b` if nothing is pending; wakes its waiters.
    void maybeComplete(const std::string& key, Mbar& b, int64_t t) {
        PhaseState& p = b.cur();
        if (p.arrivals < b.count || p.txDelivered != p.txExpected) return;
        p.completeTime = t;
        b.phases.push_back({});
        wake(key, t);
    }
    void wake(const std::string& key, int64_t t) {
        for (size_t i = 0; i < m_runs.size(); ++i) {
            if (m_runs[i].st != St::AtWait) continue;
            TraceOp& o = opOf(i);
            if (o.bar != key) continue;
            Mbar& b = m_bars[key];
            if (b.parity() == o.parity) continue;
            m_runs[i].clock = std::max(m_runs[i].clock, t);
            passWait(i, o, b);
        }
    }
    void passWait(size_t r, TraceOp& o, Mbar& b) {
        Run& run = m_runs[r];
        int64_t q = b.completed() - 1;  // the phase of parity o.parity observed
        if (q < b.base) {
            m_earlyPasses.push_back({o.span, o.bar, o.parity, m_out.issues.size()});
            issue(o.span, o.bar,
                  "the wait on " + o.bar + " for parity " + std::to_string(o.parity) +
                      " passes before any phase of it has completed (the first phase has parity 0): it does not wait for "
                      "the data it guards; check the parity");
        } else {
            auto it = run.lastObserved.find(o.bar);
            if (it != run.lastObserved.end() && q <= it->second)
                issue(o.span, o.bar,
                      "the wait on " + o.bar + " for parity " + std::to_string(o.parity) + " passes on phase " + std::to_string(q) +
                          ", which role '" + m_roles[r].role.name +
                          "' already waited for: the next phase has not completed, so it does not wait for the data it guards; "
                          "check the parity");
            run.lastObserved[o.bar] = q;
            b.phases[size_t(q)].waits++;
        }
        if (auto* e = eventOf(r, o)) e->time = run.clock, e->barrierPhase = q;
        run.clock += 1;
        run.pc += 1;
        run.st = St::Ready;
    }
    void arrive(size_t r, TraceOp& o, int64_t n, int64_t bytes, int64_t t) {
        Mbar& b = mbar(o);
        PhaseState& p = b.cur();
        if (auto* e = eventOf(r, o)) e->barrierPhase = b.completed();
        p.touched = true;
        p.lastSpan = o.span;
        p.txExpected += bytes;
        if (p.arrivals + n > b.count)
            issue(o.span, o.bar,
                  "phase " + std::to_string(b.completed()) + " of " + o.bar + " gets " + plural(p.arrivals + n, "arrival") +
                      ", more than the " + std::to_string(b.count) + " it was initialized with");
        p.arrivals += n;
        maybeComplete(o.bar, b, t);
    }
    void deliver(const Delivery& d) {
        auto& b = m_bars[d.bar];
        PhaseState& p = b.cur();
        p.touched = true;
        if (p.txExpected == 0 && p.arrivals == 0)
            issue(d.span, d.bar,
                  "TMA bytes land on phase " + std::to_string(b.completed()) + " of " + d.bar +
                      ", which no expect_tx has armed yet: the phase before completed without them (expect_tx bytes "
                      "smaller than the loads?)");
        p.txDelivered += d.bytes;
        if (p.arrivals >= b.count && p.txDelivered > p.txExpected)
            issue(d.span, d.bar,
                  "TMA delivers " + std::to_string(p.txDelivered) + " bytes to phase " + std::to_string(b.completed()) + " of " + d.bar +
                      ", which expects " + std::to_string(p.txExpected) + " (expect_tx bytes and the loads disagree)");
        maybeComplete(d.bar, b, d.time);
    }
    void step(size_t r) {
        Run& run = m_runs[r];
        TraceOp& o = opOf(r);
        const int64_t t = run.clock;
        switch (o.op) {
            case Op::Event: break;
            case Op::Init: {
                Mbar& b = mbar(o);
                if (!b.init) b = Mbar{};
                else if (b.cur().arrivals || b.cur().txExpected || b.cur().txDelivered) b.phases.push_back({});
                b.base = b.completed();
                b.init = true;
                b.count = std::max<int64_t>(1, o.count);
                run.pc += 1;  // no cost: not an event of the timeline
                return;
            }
            case Op::ExpectTx: arrive(r, o, 1, o.bytes, t); break;
            case Op::ExpectBytes: arrive(r, o, 0, o.bytes, t); break;
            case Op::Arrive: arrive(r, o, o.count, 0, t); break;
            case Op::BulkCommit: run.bulk.push_back({t + m_latency, t + 2 * m_latency}); break;
            case Op::BulkWait: {
                // Deterministic: the groups' completion times are known at their commit, so the
                // wait just starts when the last of the groups it needs is done (no other role
                // can speed it up or hold it back).
                int64_t at = t;
                const int64_t need = int64_t(run.bulk.size()) - std::max<int64_t>(0, o.count);
                for (int64_t g = 0; g < need; ++g) at = std::max(at, o.read ? run.bulk[size_t(g)].first : run.bulk[size_t(g)].second);
                if (auto* e = eventOf(r, o)) e->time = at;
                run.clock = at + 1;
                run.pc += 1;
                return;
            }
            case Op::TmaLoad: {
                Mbar& b = mbar(o);
                if (auto* e = eventOf(r, o)) e->barrierPhase = b.completed();
                m_deliveries.push_back({t + m_latency, o.bar, o.bytes, o.span});
                break;
            }
            case Op::Wait: {
                Mbar& b = mbar(o);
                if (b.parity() != o.parity) {
                    passWait(r, o, b);
                    return;
                }
                run.st = St::AtWait;
                return;
            }
            case Op::ThreadBarrier: {
                run.st = St::AtBarrier;
                int64_t need = o.barrierId == 0 || o.count <= 0 ? m_blockThreads : o.count;
                int64_t arrived = 0;
                for (size_t i = 0; i < m_runs.size(); ++i)
                    if (m_runs[i].st == St::AtBarrier && opOf(i).barrierId == o.barrierId) arrived += m_roles[i].role.threads;
                if (arrived < need) return;
                int64_t at = 0;
                for (size_t i = 0; i < m_runs.size(); ++i)
                    if (m_runs[i].st == St::AtBarrier && opOf(i).barrierId == o.barrierId) at = std::max(at, m_runs[i].clock);
                for (size_t i = 0; i < m_runs.size(); ++i) {
                    if (m_runs[i].st != St::AtBarrier || opOf(i).barrierId != o.barrierId) continue;
                    if (auto* e = eventOf(i, opOf(i))) e->time = at;
                    m_runs[i].clock = at + 1;
                    m_runs[i].pc += 1;
                    m_runs[i].st = St::Ready;
                }
                return;
            }
        }
        if (auto* e = eventOf(r, o)) e->time = t;
        run.clock = t + 1;
        run.pc += 1;
    }
    void reportStuck(size_t r) {
        TraceOp& o = opOf(r);
        const std::string& who = m_roles[r].role.name;
        if (m_runs[r].st == St::AtWait) {
            Mbar& b = m_bars[o.bar];
            PhaseState& p = b.cur();
            issue(o.span, o.bar,
                  "deadlock: role '" + who + "' waits on " + o.bar + " for parity " + std::to_string(o.parity) + " (phase " +
                      std::to_string(b.completed()) + "), which never completes: expected " + plural(b.count, "arrival") + " and " +
                      std::to_string(p.txExpected) + " transaction bytes, delivered " + plural(p.arrivals, "arrival") + " and " +
                      std::to_string(p.txDelivered) + " bytes");
        } else if (m_runs[r].st == St::AtBarrier) {
            int64_t need = o.barrierId == 0 || o.count <= 0 ? m_blockThreads : o.count;
            int64_t arrived = 0;
            for (size_t i = 0; i < m_runs.size(); ++i)
                if (m_runs[i].st == St::AtBarrier && opOf(i).barrierId == o.barrierId) arrived += m_roles[i].role.threads;
            issue(o.span, "bar.sync " + std::to_string(o.barrierId),
                  "deadlock: barrier " + std::to_string(o.barrierId) + " expects " + std::to_string(need) + " threads, " +
                      std::to_string(arrived) + " arrive (role '" + who + "' waits there forever)");
        }
    }
    void finish(bool stuck) {
        // A wait that passes on a fresh barrier's preceding phase is the producer's "stages start
        // free" idiom (PTX ISA §9.7.13.15.16: parity 1 names the phase before the first) when the
        // barrier only counts arrivals; on a barrier that TMA bytes complete it skips a load.
        for (auto& ep : m_earlyPasses) {
            bool bytes = false;
            for (auto& p : m_bars[ep.bar].phases) bytes |= p.txExpected > 0 || p.txDelivered > 0;
            if (bytes || ep.issue >= m_out.issues.size()) continue;
            auto& i = m_out.issues[ep.issue];
            i.error = false;
            i.message = "the wait on " + ep.bar + " for parity " + std::to_string(ep.parity) +
                        " passes at once: no phase has completed, and parity 1 names the phase before the first, which "
                        "counts as complete (the 'stages start free' idiom of a producer); if this wait guards data to "
                        "be read, the parity is off by one";
        }
        for (auto& key : m_order) {
            Mbar& b = m_bars[key];
            for (size_t q = 0; q < b.phases.size(); ++q) {
                PhaseState& p = b.phases[q];
                const bool last = q + 1 == b.phases.size();
                if (last && !p.touched) continue;  // the phase after the last completed one
                BarrierPhase bp;
                bp.barrier = key;
                bp.phase = int64_t(q);
                bp.arrivalsExpected = b.count;
                bp.arrivalsDelivered = p.arrivals;
                bp.txExpected = p.txExpected;
                bp.txDelivered = p.txDelivered;
                bp.completed = p.completeTime >= 0;
                bp.completeTime = p.completeTime;
                bp.waits = p.waits;
                m_out.barriers.push_back(bp);
                if (stuck) continue;  // the deadlock is the report
                if (!bp.completed)
                    issue(p.lastSpan, key,
                          "phase " + std::to_string(q) + " of " + key + " is left incomplete at kernel exit: expected " +
                              plural(b.count, "arrival") + " and " + std::to_string(p.txExpected) + " bytes, delivered " +
                              plural(p.arrivals, "arrival") + " and " + std::to_string(p.txDelivered) + " bytes" +
                              (p.txExpected > 0 ? " (a TMA load still in flight when the block exits)" : ""),
                          p.txExpected > 0 || p.txDelivered > 0);
                else if (p.txDelivered > 0 && p.waits == 0)
                    issue(p.lastSpan, key,
                          "phase " + std::to_string(q) + " of " + key + " brings " + std::to_string(p.txDelivered) +
                              " TMA bytes that no wait observes (loaded data never used, or a missing wait)",
                          false);
            }
        }
    }

    std::vector<RoleTrace>& m_roles;
    int64_t m_latency;
    PipelineTimeline& m_out;
    std::vector<Run> m_runs;
    int64_t m_blockThreads = 0;
    std::map<std::string, Mbar> m_bars;
    std::vector<std::string> m_order;
    std::set<std::string> m_uninitReported;
    std::vector<Delivery> m_deliveries;
    struct EarlyPass {
        Span span;
        std::string bar;
        int64_t parity;
        size_t issue;  ///< index into m_out.issues
    };
    std::vector<EarlyPass> m_earlyPasses;
};

}  // namespace

void runSchedule(std::vector<RoleTrace>& roles, int64_t tmaLatency, PipelineTimeline& out) {
    Scheduler(roles, std::max<int64_t>(1, tmaLatency), out).run();
}

}  // namespace ts::analysis::barriers
