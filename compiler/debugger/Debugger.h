// The step debugger over the thread-level interpreter (DESIGN.md §2 "Interpreter"; issue 11).
// A Debugger runs the lowered IR of one kernel on interp::runLowered's machine, on a worker
// thread of its own, and pauses it at statements: the interpreter calls the debugger's
// ThreadObserver before every statement and loop iteration, and the observer blocks there until
// the next command. While paused, the whole machine (registers of every thread, shared memory,
// global tensors, barriers) is inspected directly; nothing is copied. What the user steps
// through is the lowered code the GPU runs: threads of a block in lockstep, cp.async as deferred
// events, named barriers with arrival counts.
//
// Granularity: a *statement* is one lowered IR statement (a store, an intrinsic call, a loop
// header, an if); a *tile-op step* moves to the next statement from another source line (every
// statement a tile op lowered to carries that op's span, so one T.gemm line is one step).
// Reverse steps re-run the kernel deterministically to an earlier stop (bounded history).
//
// The debugger is not thread-safe: one controlling thread (CLI or GUI) calls it. run(), start()
// and stepBack() return when the run is paused again (or finished / stopped by a checker); their
// async forms post(), startAsync() and stepBackAsync() return at once, so a UI thread keeps
// serving events during a long Continue: it polls wait(0) (and progress()) and may interrupt()
// the run, which then pauses at the next statement. While a command is in flight (running())
// only running(), wait(), progress(), progressLine() and interrupt() may be called.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "compiler/interp/ThreadInterpreter.h"
#include "compiler/ir/Stmt.h"
#include "compiler/support/HostTensor.h"

namespace ts::interp::detail {
class ThreadMachine;
}

namespace ts::dbg {

/// Where the run should stop, besides the stepping commands.
struct Breakpoint {
    enum class Kind {
        Line,       ///< any statement lowered from source line `line`
        TileOp,     ///< the first statement of a tile op named `op` ("gemm", "copy", ...)
        Statement,  ///< the IR statement `stmt` (a node of the debugged function)
        Barrier,    ///< every T.sync_threads / named barrier
    };
    Kind kind = Kind::Line;
    uint32_t line = 0;
    std::string op;
    const ir::StmtNode* stmt = nullptr;
    bool enabled = true;
    static Breakpoint atLine(uint32_t l) {
        Breakpoint b;
        b.line = l;
        return b;
    }
    static Breakpoint atTileOp(std::string name) {
        Breakpoint b;
        b.kind = Kind::TileOp;
        b.op = std::move(name);
        return b;
    }
    static Breakpoint atBarriers() {
        Breakpoint b;
        b.kind = Kind::Barrier;
        return b;
    }
};

/// How far a command runs.
enum class Command {
    Continue,   ///< to the next breakpoint (or the end)
    StepInto,   ///< to the next statement
    StepOver,   ///< to the next statement not nested deeper than the current one
    StepOut,    ///< to the next statement outside the current loop / if
    StepTileOp, ///< to the next statement of another source line (tile-op level)
    ToBarrier,  ///< to the next barrier statement
    ToIteration ///< to the next iteration of the innermost (pipelined if any) enclosing loop
};

/// Why the run is paused, and where.
struct Stop {
    enum class Reason { Step, Breakpoint, Barrier, Iteration, Paused, Finished, Error };
    Reason reason = Reason::Step;
    const ir::StmtNode* stmt = nullptr;  ///< statement about to run (error: the one that failed;
                                         ///< null: finished)
    Span span;                           ///< its source span (error: the diagnostic's)
    std::vector<int32_t> active;         ///< threads about to run it
    int depth = 0;                       ///< enclosing loops / ifs
    uint64_t event = 0;                  ///< events so far (statements + iterations)
    std::vector<int64_t> block;          ///< block index
    std::string error;                   ///< Error: the interpreter's message
    std::optional<interp::CheckFinding> finding;  ///< Error from a checker
    int breakpoint = -1;                 ///< Breakpoint: its index
    bool finished() const { return reason == Reason::Finished || reason == Reason::Error; }
};

/// A loop the paused statement is inside, innermost last.
struct LoopFrame {
    const ir::ForNode* loop = nullptr;
    int64_t value = 0;  ///< the loop variable (block-uniform loops; thread 0's otherwise)
    bool pipelined = false;
};

/// One buffer as the paused machine holds it.
struct BufferView {
    std::string name;
    ir::Scope scope = ir::Scope::Global;
    ir::DType dtype = ir::DType::Float32;
    std::vector<int64_t> shape;  ///< as allocated (lowered: flat locals, staged shared tiles)
    int64_t elements = 0;        ///< per thread for local/fragment buffers
    bool perThread = false;
    Span declared;
};

/// One element of a thread's fragment: register `local` holds logical element `index`.
struct FragmentElement {
    int64_t local = 0;
    std::vector<int64_t> index;  ///< logical index in the fragment's layout (may be padding)
    double value = 0;
};

/// A shared element's value and the thread that wrote it last (-1: none).
struct SharedElement {
    double value = 0;
    int32_t lastWriter = -1;
    bool written = false;
    bool pending = false;  ///< a cp.async to it is in flight
};

struct DebugOptions {
    std::vector<int64_t> block{0, 0, 0};  ///< the block to run and stop in (others are skipped)
    std::vector<double> scalars;          ///< scalar kernel arguments (InterpOptions::scalars)
    bool strict = true;                   ///< reads of never-written float shared memory stop too
    size_t historyLimit = 256;            ///< reverse-step history (stops kept)
};

class Debugger {
public:
    /// `lowered`: the kernel after the last pass (thread level); `elaborated`: its tile-level
    /// IR (names the tile ops for TileOp breakpoints; may be null); `args`: every tensor
    /// argument in order (outputs may be empty: they are NaN-poisoned as for `tilec run`).
    Debugger(ir::PrimFunc lowered, ir::PrimFunc elaborated, std::vector<HostTensor> args,
             DebugOptions opts = {});
    ~Debugger();
    Debugger(const Debugger&) = delete;
    Debugger& operator=(const Debugger&) = delete;

    // --- control ----------------------------------------------------------------------------
    /// Starts the run and pauses at the first statement of the block. Restarts when running.
    const Stop& start();
    /// Runs `c` from the current stop; breakpoints stop every command.
    const Stop& run(Command c);
    /// Back to the previous stop (re-runs the kernel to it); false when the history is empty.
    bool stepBack();
    const Stop& stop() const { return m_stop; }

    // --- asynchronous control (the UI thread's) ---------------------------------------------
    /// start() / run(c) / stepBack() without waiting for the stop.
    void startAsync();
    void post(Command c);
    bool stepBackAsync();
    /// A command is in flight (the worker runs; the machine must not be inspected).
    bool running() const;
    /// Waits up to `timeout` for the in-flight command's stop; true when paused or finished.
    bool wait(std::chrono::milliseconds timeout);
    /// Asks the in-flight command to pause at the next statement or iteration (Reason::Paused);
    /// no effect when nothing runs.
    void interrupt();
    /// Events (statements + iterations) the run has executed so far, and the source line of the
    /// latest statement: readable while a command runs, for a progress display.
    uint64_t progress() const { return m_progress.load(std::memory_order_relaxed); }
    uint32_t progressLine() const { return m_progressLine.load(std::memory_order_relaxed); }
    /// Stops so far that stepBack can return to.
    size_t historySize() const { return m_history.size(); }

    // --- breakpoints ------------------------------------------------------------------------
    int addBreakpoint(Breakpoint b);
    void setBreakpointEnabled(int id, bool on);
    const std::vector<Breakpoint>& breakpoints() const { return m_breaks; }

    // --- inspection (valid while paused; after the end, memory as the run left it) ----------
    const ir::PrimFunc& function() const { return m_lowered; }
    int32_t threads() const;
    std::vector<LoopFrame> loops() const;
    std::vector<BufferView> buffers() const;
    /// Element `offset` (flat, as stored) of `buffer`; per-thread buffers as `thread` holds them.
    std::optional<double> element(const std::string& buffer, int64_t offset, int32_t thread) const;
    /// Registers of `thread` for fragment `buffer` with their logical indices (from the
    /// buffer's layout in the function; empty when it has none).
    std::vector<FragmentElement> fragment(const std::string& buffer, int32_t thread) const;
    /// "thread 5 holds C_local[1, 2..3], [1, 10..11], ...": runs along the last dimension.
    std::string holds(const std::string& buffer, int32_t thread) const;
    /// Every element of shared `buffer` (as stored) with its last writer.
    std::vector<SharedElement> shared(const std::string& buffer) const;
    /// Value of a watch expression for `thread`: a variable (`k`, `tx`), or BUF[i, ...] with
    /// integer or variable indices (fragments: logical indices through their layout, an element
    /// another thread holds is an error naming that thread; other buffers: as stored). nullopt
    /// with `why` when it cannot be evaluated; a value with a note in `why` (a register read).
    std::optional<double> watch(const std::string& expr, int32_t thread, std::string& why) const;
    /// Named barriers of the running block (id, expected, arrived, phase).
    std::vector<interp::BarrierState> barriers() const;
    /// mbarriers of the running block (sm_90a TMA pipelines): phase, arrivals expected / so far,
    /// transaction bytes announced / delivered, ordered by buffer and element.
    std::vector<interp::MbarrierInfo> mbarriers() const;

private:
    class Observer;
    friend class Observer;
    void launch(uint64_t runToEvent);
    void waitForStop();
    void prepare(Command c);
    void shutdown();
    void pushHistory();

    ir::PrimFunc m_lowered, m_elaborated;
    std::vector<HostTensor> m_args0, m_args;
    DebugOptions m_opts;
    std::vector<Breakpoint> m_breaks;
    std::vector<std::pair<Span, std::string>> m_tileOps;  ///< span -> tile op name
    std::vector<uint64_t> m_history;                      ///< events of earlier stops

    std::unique_ptr<Observer> m_observer;
    std::unique_ptr<interp::detail::ThreadMachine> m_machine;
    std::thread m_worker;
    mutable std::mutex m_mu;
    std::condition_variable m_cv;
    bool m_paused = false;   ///< worker waits for a command
    bool m_done = false;     ///< worker finished the run
    bool m_go = false;       ///< a command is posted
    std::atomic<bool> m_abort{false};      ///< end the run (restart, destruction)
    std::atomic<bool> m_interrupt{false};  ///< pause at the next event
    std::atomic<uint64_t> m_progress{0};
    std::atomic<uint32_t> m_progressLine{0};
    Command m_cmd = Command::StepInto;
    Stop m_stop;
};

}  // namespace ts::dbg
