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
// Commands run synchronously on the UI thread: a step on gemm at small sizes takes well under a
// frame (see tests/unit/DebuggerTest.cpp), a long Continue blocks until the next stop.
#pragma once
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
    /// Runs one command from the current stop (starts first when needed).
    void command(dbg::Command c);
    void stepBack();
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
    bool m_syncing = false;
};

}  // namespace ts::gui
