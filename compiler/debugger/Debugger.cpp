// Control of the step debugger: the worker thread that runs the thread-level interpreter, the
// observer that decides where it pauses, the hand-over between the two (one mutex, one condition
// variable: the worker only runs while the controller waits, so machine state is never read
// while it changes) and reverse steps by deterministic re-execution.
#include "compiler/debugger/Debugger.h"

#include <functional>

#include "compiler/interp/ThreadMachine.h"
#include "compiler/ir/Intrinsics.h"

namespace ts::dbg {
using namespace ts::ir;

namespace {

/// Thrown by the observer to end a run the debugger abandons (restart, destruction). The
/// interpreter's run() turns it into an error result; nobody looks at that result.
struct AbortRun {};

bool isBarrier(const StmtNode* s) {
    auto* e = dynamic_cast<const EvalNode*>(s);
    auto* c = e ? dynamic_cast<const CallNode*>(e->call.get()) : nullptr;
    return c && (c->op == intrin::kSyncThreads || c->op == "T.sync_threads" ||
                 c->op == "named_barrier_arrive");
}

bool isPipelined(const ForNode* f) {
    return f->forKind == ForKind::Pipelined || attrInt(f->attrs, "num_stages", -1) >= 0;
}

void collectTileOps(const StmtNode* s, std::vector<std::pair<Span, std::string>>& out) {
    if (!s) return;
    switch (s->kind) {
        case StmtKind::Seq:
            for (auto& c : static_cast<const SeqNode*>(s)->stmts) collectTileOps(c.get(), out);
            break;
        case StmtKind::For: collectTileOps(static_cast<const ForNode*>(s)->body.get(), out); break;
        case StmtKind::If: {
            auto* n = static_cast<const IfNode*>(s);
            collectTileOps(n->then.get(), out);
            collectTileOps(n->otherwise.get(), out);
            break;
        }
        case StmtKind::Kernel:
            collectTileOps(static_cast<const KernelNode*>(s)->body.get(), out);
            break;
        case StmtKind::TileOp:
            out.push_back({s->span, tileOpName(static_cast<const TileOpNode*>(s)->op)});
            break;
        default: break;
    }
}

}  // namespace

/// Decides, at every statement and loop iteration of the focused block, whether to pause; pauses
/// by publishing the Stop and waiting for the controller's next command.
class Debugger::Observer : public interp::ThreadObserver {
public:
    explicit Observer(Debugger& d) : m_d(d) {}

    bool runBlock(const std::vector<int64_t>& idx) override {
        for (size_t i = 0; i < idx.size(); ++i)
            if (idx[i] != (i < m_d.m_opts.block.size() ? m_d.m_opts.block[i] : 0)) return false;
        m_block = idx;
        return true;
    }
    bool strictInit() const override { return m_d.m_opts.strict; }

    void statement(const StmtNode* s, const std::vector<int32_t>& act, int depth) override {
        ++m_event;
        m_last = s;
        publish(s->span);
        Stop::Reason why = Stop::Reason::Step;
        int bp = -1;
        bool pause = decide(s, depth, why, bp);
        if (!pause && interrupted()) pause = true, why = Stop::Reason::Paused;
        m_prevLine = s->span.valid() ? s->span.line : m_prevLine;
        m_prevSpan = s->span;
        if (!pause) return;
        Stop st;
        st.reason = why;
        st.stmt = s;
        st.span = s->span;
        st.active = act;
        st.depth = depth;
        st.breakpoint = bp;
        pauseAt(std::move(st));
    }

    void iteration(const ForNode* loop, int64_t value, int depth) override {
        ++m_event;
        publish(loop->span);
        bool pause = m_replayTo ? m_event == m_replayTo
                                : m_cmd == Command::ToIteration && (loop == m_loop || (m_nextPipelined && isPipelined(loop)));
        const bool paused = !pause && interrupted();
        if (!pause && !paused) return;
        Stop st;
        st.reason = paused ? Stop::Reason::Paused : m_replayTo ? Stop::Reason::Step : Stop::Reason::Iteration;
        st.stmt = loop;
        st.span = loop->span;
        st.active = m_d.m_machine->m_all;
        st.depth = depth;
        (void)value;
        pauseAt(std::move(st));
    }

    void finding(const interp::CheckFinding& f) override { m_finding = f; }

    // Set by the controller while the worker waits (or before it starts).
    Command m_cmd = Command::StepInto;
    uint64_t m_replayTo = 0;  ///< >0: pause exactly at this event, nothing else
    uint32_t m_refLine = 0;
    int m_refDepth = 0;
    const ForNode* m_loop = nullptr;
    int m_loopDepth = 0;
    bool m_nextPipelined = false;  ///< ToIteration outside any loop: the first iteration of the next pipelined loop

    uint64_t m_event = 0;
    const StmtNode* m_last = nullptr;  ///< the statement running (a checker's stop is in it)
    std::vector<int64_t> m_block;
    std::optional<interp::CheckFinding> m_finding;

private:
    /// Progress for the controller, and the abort check of a run that never pauses (a Continue
    /// the controller abandons by a restart or by closing).
    void publish(const Span& sp) {
        m_d.m_progress.store(m_event, std::memory_order_relaxed);
        if (sp.valid()) m_d.m_progressLine.store(sp.line, std::memory_order_relaxed);
        if (m_d.m_abort.load(std::memory_order_relaxed)) throw AbortRun{};
    }
    bool interrupted() { return m_d.m_interrupt.exchange(false); }

    bool decide(const StmtNode* s, int depth, Stop::Reason& why, int& bp) {
        if (m_replayTo) return m_event == m_replayTo;
        const uint32_t line = s->span.valid() ? s->span.line : 0;
        const bool entering = !(s->span == m_prevSpan);
        for (size_t i = 0; i < m_d.m_breaks.size(); ++i) {
            const Breakpoint& b = m_d.m_breaks[i];
            if (!b.enabled) continue;
            bool hit = false;
            switch (b.kind) {
                case Breakpoint::Kind::Line: hit = line == b.line && line != m_prevLine; break;
                case Breakpoint::Kind::Statement: hit = s == b.stmt; break;
                case Breakpoint::Kind::Barrier: hit = isBarrier(s); break;
                case Breakpoint::Kind::TileOp:
                    if (!entering) break;
                    for (auto& [sp, name] : m_d.m_tileOps)
                        if (sp == s->span && name == b.op) hit = true;
                    break;
            }
            if (hit) {
                why = Stop::Reason::Breakpoint;
                bp = static_cast<int>(i);
                return true;
            }
        }
        switch (m_cmd) {
            case Command::Continue: return false;
            case Command::StepInto: return true;
            case Command::StepOver: return depth <= m_refDepth;
            case Command::StepOut: return depth < m_refDepth;
            case Command::StepTileOp: return line != 0 && line != m_refLine;
            case Command::ToBarrier:
                why = Stop::Reason::Barrier;
                return isBarrier(s);
            case Command::ToIteration: return depth <= m_loopDepth;  // the loop ended
        }
        return false;
    }

    void pauseAt(Stop st) {
        st.event = m_event;
        st.block = m_block;
        std::unique_lock<std::mutex> lk(m_d.m_mu);
        m_d.m_stop = std::move(st);
        m_d.m_paused = true;
        m_d.m_cv.notify_all();
        m_d.m_cv.wait(lk, [&] { return m_d.m_go || m_d.m_abort.load(); });
        if (m_d.m_abort) throw AbortRun{};
        m_d.m_go = false;
    }

    Debugger& m_d;
    uint32_t m_prevLine = 0;
    Span m_prevSpan;
};

Debugger::Debugger(PrimFunc lowered, PrimFunc elaborated, std::vector<HostTensor> args,
                   DebugOptions opts)
    : m_lowered(std::move(lowered)),
      m_elaborated(std::move(elaborated)),
      m_args0(std::move(args)),
      m_opts(std::move(opts)) {
    if (m_elaborated) collectTileOps(m_elaborated->body.get(), m_tileOps);
}

Debugger::~Debugger() { shutdown(); }

void Debugger::shutdown() {
    if (!m_worker.joinable()) return;
    {
        std::lock_guard<std::mutex> lk(m_mu);
        m_abort = true;
    }
    m_cv.notify_all();
    m_worker.join();
    m_abort = false;
}

void Debugger::launch(uint64_t runToEvent) {
    shutdown();
    m_interrupt = false;
    m_progress = 0;
    m_args = m_args0;
    m_observer = std::make_unique<Observer>(*this);
    m_observer->m_replayTo = runToEvent;
    m_observer->m_cmd = Command::StepInto;
    interp::InterpOptions io;
    io.scalars = m_opts.scalars;
    m_machine = std::make_unique<interp::detail::ThreadMachine>(io);
    m_machine->m_observer = m_observer.get();
    m_paused = m_done = m_go = false;
    m_worker = std::thread([this] {
        interp::InterpResult res;
        try {
            res = m_machine->run(m_lowered, m_args);
        } catch (...) {  // run() converts everything; this guards the thread regardless
            res.ok = false;
        }
        std::lock_guard<std::mutex> lk(m_mu);
        if (!m_abort) {
            Stop st;
            st.reason = res.ok ? Stop::Reason::Finished : Stop::Reason::Error;
            st.event = m_observer->m_event;
            st.block = m_observer->m_block;
            if (!res.ok) {
                st.error = res.error ? res.error->message : "the interpreter failed";
                if (res.error) st.span = res.error->span;
                st.finding = m_observer->m_finding;
                st.stmt = m_observer->m_last;
            }
            m_stop = std::move(st);
        }
        m_done = true;
        m_paused = false;
        m_cv.notify_all();
    });
}

void Debugger::waitForStop() {
    std::unique_lock<std::mutex> lk(m_mu);
    m_cv.wait(lk, [&] { return m_paused || m_done; });
}

bool Debugger::wait(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lk(m_mu);
    return m_cv.wait_for(lk, timeout, [&] { return m_paused || m_done; });
}

bool Debugger::running() const {
    std::lock_guard<std::mutex> lk(m_mu);
    return m_worker.joinable() && !m_paused && !m_done;
}

void Debugger::interrupt() { m_interrupt = true; }

void Debugger::startAsync() {
    m_history.clear();
    launch(0);
}

const Stop& Debugger::start() {
    startAsync();
    waitForStop();
    return m_stop;
}

void Debugger::pushHistory() {
    m_history.push_back(m_stop.event);
    if (m_history.size() > m_opts.historyLimit) m_history.erase(m_history.begin());
}

const Stop& Debugger::run(Command c) {
    post(c);
    waitForStop();
    return m_stop;
}

void Debugger::post(Command c) {
    if (!m_worker.joinable()) start();
    if (m_done) return;
    prepare(c);
    {
        std::lock_guard<std::mutex> lk(m_mu);
        m_interrupt = false;
        m_paused = false;
        m_go = true;
    }
    m_cv.notify_all();
}

void Debugger::prepare(Command c) {
    pushHistory();
    Observer& o = *m_observer;
    o.m_replayTo = 0;
    o.m_cmd = c;
    o.m_refLine = m_stop.span.valid() ? m_stop.span.line : 0;
    o.m_refDepth = m_stop.depth;
    o.m_loop = nullptr;
    o.m_nextPipelined = false;
    if (c == Command::ToIteration) {
        // The innermost pipelined loop around the stop, else the innermost loop; with none (a
        // stop before the loops) the first iteration of the next T.Pipelined loop the block
        // enters, or the end when there is none.
        auto* here = dynamic_cast<const ForNode*>(m_stop.stmt);
        if (here && m_stop.reason != Stop::Reason::Iteration && isPipelined(here)) {
            o.m_loop = here;  // paused on the loop statement itself: its first iteration
            o.m_loopDepth = m_stop.depth;
        } else {
            auto frames = loops();
            const LoopFrame* pick = nullptr;
            for (auto& f : frames)
                if (f.pipelined) pick = &f;
            if (!pick && !frames.empty()) pick = &frames.back();
            o.m_loop = pick ? pick->loop : nullptr;
            o.m_nextPipelined = !pick;
            o.m_loopDepth = -1;
            const auto& stack = m_machine->m_stack;
            for (size_t i = 0; i < stack.size(); ++i)
                if (stack[i] == o.m_loop) o.m_loopDepth = static_cast<int>(i);
        }
    }
}

bool Debugger::stepBackAsync() {
    if (m_history.empty()) return false;
    uint64_t target = m_history.back();
    m_history.pop_back();
    auto keep = m_history;
    launch(target);
    m_history = std::move(keep);
    return true;
}

bool Debugger::stepBack() {
    if (!stepBackAsync()) return false;
    waitForStop();
    return true;
}

int Debugger::addBreakpoint(Breakpoint b) {
    m_breaks.push_back(std::move(b));
    return static_cast<int>(m_breaks.size()) - 1;
}

void Debugger::setBreakpointEnabled(int id, bool on) {
    if (id >= 0 && static_cast<size_t>(id) < m_breaks.size()) m_breaks[size_t(id)].enabled = on;
}

}  // namespace ts::dbg
