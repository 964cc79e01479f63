// The Debugger panel (issue 11 §4): steps through one block of the current kernel on the
// thread-level interpreter through compiler/debugger/Debugger.h — the same debugger as
// `tilec debug`. Controls: start / continue / step (tile op, statement into/over/out) / run to
// barrier / next iteration of the pipelined loop / step back; breakpoints on source lines, tile
// ops and barriers; a block, warp and lane (thread) selector. Views of the paused machine: the
// lowered IR with the current statement marked (the editor gets its current-line marker through
// DebugState::setLine), the focused thread's registers and fragments with their layout
// ("thread 5 holds C_local[1, 2..3], ..."), a shared buffer as a heatmap with the focused
// thread's last writes outlined, the named barriers, and watch expressions. A checker's report
// (race, stale cp.async read, deadlock, out of bounds, never-written read) goes to the Problems
// panel with both lines (DebugState::setProblems), clickable like compile errors.
// Commands run on the debugger's worker thread (Debugger::post): the panel waits a few
// milliseconds for the stop (a step on gemm at small sizes takes ~4 ms, so stepping does not
// flicker), and otherwise polls from a timer, showing the events executed so far and the
// current line, while the UI thread keeps serving events; Pause interrupts the run at the next
// statement. The views are refreshed only while the run is paused (the machine is not read while
// it changes). The Barriers tab lists named barriers and the mbarriers of sm_90a TMA pipelines
// (phase, arrivals, transaction bytes).
#pragma once
#include <QTimer>
#include <QWidget>
#include <memory>

#include "app/gui/CompileWorker.h"
#include "compiler/debugger/Debugger.h"
#include "compiler/ir/Printer.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace ts::gui {

class CodeView;
class Session;
class SharedHeatmap;

class DebuggerPanel : public QWidget {
    Q_OBJECT
public:
    explicit DebuggerPanel(Session& session, QWidget* parent = nullptr);
    ~DebuggerPanel() override;

    /// Starts debugging the session's latest compile result (false, with the reason in the
    /// status line, when there is none that compiled).
    bool start();
    /// Starts debugging `lowered` in place of the compile's lowered kernel (same signature):
    /// the IR a transformation of it made, e.g. a test's deliberately broken pipeline pass.
    bool start(ir::PrimFunc lowered);
    /// Runs one command from the current stop (starts first when needed).
    void command(dbg::Command c);
    void stepBack();
    /// Pauses a running command at its next statement (the Pause button).
    void interrupt();
    /// A command is running on the worker thread.
    bool running() const { return m_dbg && m_dbg->running(); }
    /// Processes events until the running command stops (tests); false after `ms` ms.
    bool waitStopped(int ms = 30000);
    /// Adds a breakpoint on source line `line` (also typed in the panel's line box).
    void addLineBreakpoint(int line);
    void setThread(int thread);
    int thread() const;
    void addWatch(const QString& expr);

    dbg::Debugger* debugger() const { return m_dbg.get(); }
    QString statusText() const;
    QString holdsText() const;
    QTableWidget* registers() const { return m_regs; }
    QTableWidget* barriers() const { return m_barriers; }
    QTableWidget* watches() const { return m_watch; }
    SharedHeatmap* heatmap() const { return m_heat; }
    CodeView* irView() const { return m_ir; }
    QComboBox* sharedBox() const { return m_sharedBox; }
    QTabWidget* tabs() const { return m_tabs; }

private:
    void refresh();
    void refreshRegisters();
    void refreshShared();
    void refreshBarriers();
    void refreshWatches();
    void reportFinding();
    /// After posting a command: the stop within a few ms, else the running state and polling.
    void awaitStop();
    void poll();
    void setRunning(bool on);

    Session& m_session;
    ResultPtr m_result;  ///< the compile being debugged (keeps the IR the stops point into)
    std::unique_ptr<dbg::Debugger> m_dbg;
    ir::PrimFunc m_func;
    std::vector<ir::LineOrigin> m_irLines;
    std::vector<int> m_breakLines;

    QLabel* m_status = nullptr;
    QLabel* m_holds = nullptr;
    QLineEdit* m_block = nullptr;
    QLineEdit* m_breakEdit = nullptr;
    QComboBox* m_breakOp = nullptr;
    QCheckBox* m_breakBarrier = nullptr;
    QSpinBox* m_warp = nullptr;
    QSpinBox* m_lane = nullptr;
    QSpinBox* m_threadBox = nullptr;
    CodeView* m_ir = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableWidget* m_regs = nullptr;
    QTableWidget* m_barriers = nullptr;
    QTableWidget* m_watch = nullptr;
    QLineEdit* m_watchEdit = nullptr;
    QComboBox* m_sharedBox = nullptr;
    SharedHeatmap* m_heat = nullptr;
    QStringList m_watches;
    QList<QWidget*> m_commandButtons;  ///< disabled while a command runs
    QWidget* m_pauseButton = nullptr;
    QTimer m_poll;
    bool m_syncing = false;
};

}  // namespace ts::gui
