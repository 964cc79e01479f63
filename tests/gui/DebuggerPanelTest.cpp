// The Debugger panel in the main window (issue 11 §4), driving the same debugger as
// `tilec debug`: gemm at a small size, a breakpoint on the T.gemm line, three tile-op steps; the
// editor's current-line marker follows the stop, the IR view marks the statement, thread 5's
// registers show C_local[1, 2] equal to the float64 partial product of the seeded inputs, and
// "thread 5 holds C_local[1, 2..3]" (mma.sync m16n8k16 C layout, PTX ISA §9.7.14.5.8). Then
// the seeded race of tests/debugger/race_missing_sync.py: the report lands in the Problems panel
// with both lines, and clicking the note moves the editor to the write.
// With TS_UPDATE_SCREENSHOTS=1 (under xvfb-run -a) the scenes are saved at 1920x1080 as
// docs/screenshots/debugger-gemm.png, debugger-race.png, debugger-gemm-sm90a-mbarriers.png,
// debugger-deadlock.png and debugger-mbarrier-deadlock.png.
#include <QApplication>
#include <QComboBox>
#include <QTabWidget>
#include <QDockWidget>
#include <QTableWidget>
#include <QTimer>
#include <QtTest>
#include <cmath>

#include "app/gui/CodeView.h"
#include "app/gui/DebugState.h"
#include "app/gui/DebuggerPanel.h"
#include "app/gui/DiagnosticsPanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/SharedHeatmap.h"
#include "app/gui/SourceEditor.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/Functor.h"
#include "compiler/ir/Intrinsics.h"
#include "profiler/check/Inputs.h"
#include "tests/gui/GuiTestUtil.h"
#include "tests/support/SourceDir.h"

using namespace ts::gui;
using ts::gui::test::readFile;
using ts::gui::test::waitCompiled;

namespace {

int lineOf(const QString& text, const QString& needle) {
    int at = text.indexOf(needle);
    return at < 0 ? -1 : int(text.left(at).count('\n')) + 1;
}

/// 1-based line with the debugger's current-line marker in the editor, 0 if none.
int markerLine(SourceEditor& ed) {
    int l = ed.markerFindNext(0, 1 << kDebugLineMarker);
    return l < 0 ? 0 : l + 1;
}

/// Screenshot layout: the Debugger dock takes the right side (the pass, CUDA, layout and bank
/// views are hidden), the editor and Problems stay on the left.
void showDebugger(MainWindow& w) {
    for (const char* id : {"passes", "generated", "layout", "banks"})
        if (QDockWidget* d = w.dock(id)) d->hide();
    QDockWidget* dbgDock = w.dock("debugger");
    if (!dbgDock) return;
    w.removeDockWidget(dbgDock);
    w.addDockWidget(Qt::RightDockWidgetArea, dbgDock);
    dbgDock->show();
    if (QDockWidget* problems = w.dock("problems")) problems->raise();
    w.resize(1920, 1080);
    w.resizeDocks({dbgDock}, {1150}, Qt::Horizontal);
    QApplication::processEvents();
}

/// Runs `c` and waits (events served) for its stop: commands run on the debugger's worker.
bool runCommand(DebuggerPanel& p, ts::dbg::Command c) {
    p.command(c);
    return p.waitStopped();
}

/// Row of the Barriers table whose first cell is `name`, -1 if none.
int barrierRow(QTableWidget* t, const QString& name) {
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0) && t->item(r, 0)->text() == name) return r;
    return -1;
}

void saveShot(QWidget& w, const QString& name) {
    if (qEnvironmentVariable("TS_UPDATE_SCREENSHOTS") != "1") return;
    QApplication::processEvents();
    w.grab().save(QString::fromUtf8(TS_SOURCE_DIR) + "/docs/screenshots/" + name);
}

}  // namespace

class DebuggerPanelTest : public QObject {
    Q_OBJECT
private slots:
    void steppingGemmShowsThread5sFragment() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QString text = "# tilescope: M=64 N=64 K=128 block_M=64 block_N=64 num_stages=2\n" +
                       readFile("samples/gemm.py");
        w.session().openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py", text);
        QVERIFY(waitCompiled(w.session()));
        QVERIFY(w.session().result()->ok);
        auto* panel = qobject_cast<DebuggerPanel*>(w.panel("debugger"));
        QVERIFY(panel);
        showDebugger(w);
        const int gemmLine = lineOf(text, "T.gemm(A_shared");
        panel->addLineBreakpoint(gemmLine);
        QVERIFY(panel->start());
        QVERIFY(panel->waitStopped());
        QVERIFY(runCommand(*panel, ts::dbg::Command::Continue));
        QCOMPARE(int(panel->debugger()->stop().span.line), gemmLine);
        QCOMPARE(markerLine(*w.editor()), gemmLine);
        for (int i = 0; i < 3; ++i) QVERIFY(runCommand(*panel, ts::dbg::Command::StepTileOp));
        const int line = int(panel->debugger()->stop().span.line);
        QVERIFY(line != gemmLine);
        QCOMPARE(markerLine(*w.editor()), line);
        QCOMPARE(panel->irView()->highlightedLines().size(), size_t(1));
        QVERIFY2(panel->statusText().contains("k = 1 (pipelined)"), qPrintable(panel->statusText()));

        panel->setThread(5);
        QVERIFY2(panel->holdsText().contains("thread 5 holds C_local[1, 2..3]"),
                 qPrintable(panel->holdsText()));
        // The register table row of C_local[1, 2] against the float64 partial product over k < 32.
        auto r = w.session().result();
        std::vector<ts::rt::TensorParam> sig;
        for (auto& a : r->kernel.args) sig.push_back({a.name, a.dtype, a.shape, a.isOutput});
        auto in = ts::rt::makeInputs(sig, {});
        double ref = 0;
        for (int k = 0; k < 32; ++k) ref += in.tensors[0].data[1 * 128 + k] * in.tensors[1].data[k * 64 + 2];
        QTableWidget* regs = panel->registers();
        bool found = false;
        for (int row = 0; row < regs->rowCount(); ++row)
            if (regs->item(row, 2)->text() == "C_local[1, 2]") {
                double v = regs->item(row, 3)->text().toDouble();
                QVERIFY2(std::fabs(v - ref) <= 1e-5 * (1 + std::fabs(ref)),
                         qPrintable(QString("%1 vs %2").arg(v).arg(ref)));
                found = true;
            }
        QVERIFY(found);
        panel->addWatch("C_local[1, 2]");
        panel->addWatch("k");
        QCOMPARE(panel->watches()->item(1, 1)->text(), QString("1"));
        // The shared tile: A_shared with thread 5's last writes outlined.
        panel->sharedBox()->setCurrentText("A_shared");
        QVERIFY(panel->heatmap()->rows() > 0);
        QVERIFY(panel->heatmap()->focusCells() > 0);
        panel->tabs()->setCurrentIndex(0);
        saveShot(w, "debugger-gemm.png");
        // Step back returns to the previous stop.
        const uint64_t before = panel->debugger()->stop().event;
        QVERIFY(runCommand(*panel, ts::dbg::Command::StepInto));
        panel->stepBack();
        QVERIFY(panel->waitStopped());
        QCOMPARE(panel->debugger()->stop().event, before);
    }

    void raceReportIsAClickableProblemWithBothLines() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        const QString text = readFile("tests/debugger/race_missing_sync.py");
        w.session().openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/tests/debugger/race_missing_sync.py", text);
        QVERIFY(waitCompiled(w.session()));
        QVERIFY(w.session().result()->ok);
        auto* panel = qobject_cast<DebuggerPanel*>(w.panel("debugger"));
        QVERIFY(panel->start());
        QVERIFY(panel->waitStopped());
        QVERIFY(runCommand(*panel, ts::dbg::Command::Continue));
        QVERIFY(panel->debugger()->stop().reason == ts::dbg::Stop::Reason::Error);
        QVERIFY2(panel->statusText().contains("races with its write"), qPrintable(panel->statusText()));
        const int readLine = lineOf(text, "# read"), writeLine = lineOf(text, "# write");
        QCOMPARE(markerLine(*w.editor()), readLine);
        auto* problems = qobject_cast<DiagnosticsPanel*>(w.panel("problems"));
        auto* model = problems->model();
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(int(model->at(0).span.line), readLine);
        QCOMPARE(int(model->at(1).span.line), writeLine);
        showDebugger(w);
        panel->sharedBox()->setCurrentText("S");
        panel->tabs()->setCurrentIndex(1);
        saveShot(w, "debugger-race.png");
        // Activating the note moves the caret to the write.
        w.session().reveal(model->at(1).span);
        int line = 0, col = 0;
        w.editor()->getCursorPosition(&line, &col);
        QCOMPARE(line + 1, writeLine);
    }

    // gemm on sm_90a (TMA loads completing on one mbarrier per stage, wgmma): a breakpoint on
    // the copy of B stops before each B tile's TMA load. The Barriers tab lists both mbarriers
    // with hand-derived values: in the prologue, stage 0 has its expect_tx arrival (1 of 1) and
    // the A tile's 4096 of 8192 bytes (2048 elements pending); at the refill in iteration k = 1
    // stage 0 is in its second phase (phase 1, parity 1) with the same counts, and stage 1 has
    // completed one phase that the k = 1 wait observed (nothing pending).
    void steppingGemmOnSm90aListsTheMbarriers() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        w.session().setTarget("cuda:sm_90a");
        QString text = "# tilescope: M=64 N=64 K=128 block_M=64 block_N=64 num_stages=2\n" +
                       readFile("samples/gemm.py");
        w.session().openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py", text);
        QVERIFY(waitCompiled(w.session()));
        QVERIFY(w.session().result()->ok);
        QVERIFY(w.session().result()->cuda.find("mbarrier") != std::string::npos);
        auto* panel = qobject_cast<DebuggerPanel*>(w.panel("debugger"));
        showDebugger(w);
        const int copyB = lineOf(text, "T.copy(B[k");
        panel->addLineBreakpoint(copyB);
        QVERIFY(panel->start());
        QVERIFY(panel->waitStopped());
        QVERIFY(runCommand(*panel, ts::dbg::Command::Continue));
        QCOMPARE(int(panel->debugger()->stop().span.line), copyB);
        QTableWidget* t = panel->barriers();
        auto cells = [&](const QString& name) {
            QStringList c;
            int r = barrierRow(t, name);
            for (int i = 1; r >= 0 && i < t->columnCount(); ++i) c << t->item(r, i)->text();
            return c.mid(0, 6);  // phase, expected, arrived, tx expected, delivered, pending
        };
        QCOMPARE(cells("mbarrier tma_bar[0]"), QStringList({"0 (parity 0)", "1", "1", "8192", "4096", "2048"}));
        QCOMPARE(cells("mbarrier tma_bar[1]"), QStringList({"0 (parity 0)", "1", "0", "0", "0", "0"}));
        QVERIFY(runCommand(*panel, ts::dbg::Command::Continue));  // prologue, stage 1
        QCOMPARE(cells("mbarrier tma_bar[1]"), QStringList({"0 (parity 0)", "1", "1", "8192", "4096", "2048"}));
        QVERIFY(runCommand(*panel, ts::dbg::Command::Continue));  // k = 1 refills stage 0 with k-tile 2
        QCOMPARE(int(panel->debugger()->stop().span.line), copyB);
        QVERIFY2(panel->statusText().contains("k = 1 (pipelined)"), qPrintable(panel->statusText()));
        QCOMPARE(cells("mbarrier tma_bar[0]"), QStringList({"1 (parity 1)", "1", "1", "8192", "4096", "2048"}));
        QCOMPARE(cells("mbarrier tma_bar[1]"), QStringList({"1 (parity 1)", "1", "0", "0", "0", "0"}));
        panel->setThread(5);
        panel->tabs()->setCurrentWidget(t);
        saveShot(w, "debugger-gemm-sm90a-mbarriers.png");
    }

    // The seeded deadlock of tests/debugger/deadlock_arrive_count.py (bar.sync 1 expecting 160
    // arrivals in a 128-thread block): Continue stops with the report in Problems and barrier 1's
    // arrivals in the Barriers tab.
    void deadlockReportListsTheBarrier() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        const QString text = readFile("tests/debugger/deadlock_arrive_count.py");
        w.session().openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/tests/debugger/deadlock_arrive_count.py", text);
        QVERIFY(waitCompiled(w.session()));
        QVERIFY(w.session().result()->ok);
        auto* panel = qobject_cast<DebuggerPanel*>(w.panel("debugger"));
        showDebugger(w);
        QVERIFY(panel->start());
        QVERIFY(panel->waitStopped());
        QVERIFY(runCommand(*panel, ts::dbg::Command::Continue));
        QVERIFY(panel->debugger()->stop().reason == ts::dbg::Stop::Reason::Error);
        const int bugLine = lineOf(text, "# BUG");
        QCOMPARE(markerLine(*w.editor()), bugLine);
        auto* problems = qobject_cast<DiagnosticsPanel*>(w.panel("problems"));
        QVERIFY(problems->model()->rowCount() >= 1);
        QVERIFY2(QString::fromStdString(problems->model()->at(0).message).contains("deadlock"),
                 qPrintable(QString::fromStdString(problems->model()->at(0).message)));
        QTableWidget* t = panel->barriers();
        const int row = barrierRow(t, "barrier 1");
        QVERIFY(row >= 0);
        QCOMPARE(t->item(row, 2)->text(), QString("160"));
        QCOMPARE(t->item(row, 3)->text(), QString("128"));
        QCOMPARE(t->item(row, 7)->text(), QString::number(bugLine));
        panel->tabs()->setCurrentWidget(t);
        saveShot(w, "debugger-deadlock.png");
    }

    // The seeded mbarrier bug on sm_90a (tests/debugger/mbarrier_arrive_count_sm90.py with its
    // tl.mbarrier_init count raised by one in the lowered IR, as DebuggerCheckersTest does):
    // Continue stops at the first wait with the deadlock in Problems (the wait, and a note at
    // the init with 1 of 2 arrivals) and the mbarrier's row in the Barriers tab.
    void mbarrierDeadlockOnSm90aNamesTheMbarrier() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        w.session().setTarget("cuda:sm_90a");
        const QString path = "tests/debugger/mbarrier_arrive_count_sm90.py";
        const QString text = readFile(path);
        w.session().openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/" + path, text);
        QVERIFY(waitCompiled(w.session()));
        QVERIFY(w.session().result()->ok);
        struct Raise : ts::ir::Mutator {
            ts::ir::Stmt visitEval(const ts::ir::EvalNode* n, const ts::ir::Stmt& self) override {
                auto* c = dynamic_cast<const ts::ir::CallNode*>(n->call.get());
                if (!c || c->op != ts::ir::intrin::kMbarrierInit) return self;
                std::vector<ts::ir::Expr> args(c->args.begin(), c->args.begin() + 2);
                args.push_back(ts::ir::intImm(2, c->span));  // 2 arrivals per phase; the schedule makes 1
                return ts::ir::evaluate(ts::ir::call(c->op, std::move(args), c->dtype, c->span), n->span);
            }
        } raise;
        const auto& lowered = w.session().result()->lowered;
        auto broken = ts::ir::withBody(lowered, raise.mutate(lowered->body));
        auto* panel = qobject_cast<DebuggerPanel*>(w.panel("debugger"));
        showDebugger(w);
        QVERIFY(panel->start(broken));
        QVERIFY(panel->waitStopped());
        QVERIFY(runCommand(*panel, ts::dbg::Command::Continue));
        const auto& st = panel->debugger()->stop();
        QVERIFY(st.reason == ts::dbg::Stop::Reason::Error);
        QVERIFY(st.finding && st.finding->kind == "deadlock");
        const int loopLine = lineOf(text, "# pipelined loop");
        QCOMPARE(markerLine(*w.editor()), loopLine);
        auto* model = qobject_cast<DiagnosticsPanel*>(w.panel("problems"))->model();
        // The debugger's rows; the compiler's notes on the same file (its staged epilogue's TMA
        // store, StageEpilogue.cpp) stay listed beside them.
        std::vector<ts::Diagnostic> found;
        for (int i = 0; i < model->rowCount(); ++i)
            if (model->at(i).origin == "debugger") found.push_back(model->at(i));
        QCOMPARE(int(found.size()), 2);
        QVERIFY2(QString::fromStdString(found[0].message).startsWith("deadlock: waiting on mbarrier tma_bar[0]"),
                 qPrintable(QString::fromStdString(found[0].message)));
        QVERIFY2(QString::fromStdString(found[1].message).contains("1 arrived"),
                 qPrintable(QString::fromStdString(found[1].message)));
        QTableWidget* t = panel->barriers();
        const int row = barrierRow(t, "mbarrier tma_bar[0]");
        QVERIFY(row >= 0);
        QStringList cells;
        for (int i = 1; i < 7; ++i) cells << t->item(row, i)->text();
        QCOMPARE(cells, QStringList({"0 (parity 0)", "2", "1", "8192", "8192", "4096"}));
        panel->tabs()->setCurrentWidget(t);
        saveShot(w, "debugger-mbarrier-deadlock.png");
    }

    // Continue on a block that runs for seconds (gemm 64x64 with K = 16384: 512 pipelined
    // iterations, no breakpoint) runs on the debugger's worker: the UI thread keeps serving
    // events (a 10 ms timer fires while the run goes on), the status shows the progress, and
    // Pause ends the Continue at the next statement with the machine inspectable there.
    void continueKeepsTheUiResponsiveAndPauseStopsIt() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QString text = "# tilescope: M=64 N=64 K=16384 block_M=64 block_N=64 num_stages=2\n" +
                       readFile("samples/gemm.py");
        w.session().openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py", text);
        QVERIFY(waitCompiled(w.session()));
        QVERIFY(w.session().result()->ok);
        auto* panel = qobject_cast<DebuggerPanel*>(w.panel("debugger"));
        QVERIFY(panel->start());
        QVERIFY(panel->waitStopped());
        QElapsedTimer clock;
        clock.start();
        panel->command(ts::dbg::Command::Continue);
        QVERIFY2(clock.elapsed() < 200, qPrintable(QString::number(clock.elapsed())));  // returned at once
        QVERIFY(panel->running());
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&] { ++ticks; });
        timer.start(10);
        while (ticks < 20 && clock.elapsed() < 20000) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QVERIFY2(ticks >= 20, qPrintable(QString::number(ticks)));
        QVERIFY2(panel->running(), "the Continue ended before the timer fired 20 times");
        QVERIFY2(panel->statusText().startsWith("Running"), qPrintable(panel->statusText()));
        const uint64_t progressed = panel->debugger()->progress();
        QVERIFY(progressed > 0);
        panel->interrupt();
        QVERIFY(panel->waitStopped(5000));
        QVERIFY(!panel->running());
        const auto& st = panel->debugger()->stop();
        QCOMPARE(int(st.reason), int(ts::dbg::Stop::Reason::Paused));
        QVERIFY(st.event >= progressed);
        QVERIFY2(panel->statusText().contains("(paused)"), qPrintable(panel->statusText()));
        // Paused inside the pipelined loop, before its last iteration (511), and the
        // machine answers watches there.
        QVERIFY2(panel->statusText().contains("(pipelined)"), qPrintable(panel->statusText()));
        panel->addWatch("k");
        bool ok = false;
        const int k = panel->watches()->item(0, 1)->text().toInt(&ok);
        QVERIFY2(ok && k >= 0 && k < 511, qPrintable(panel->watches()->item(0, 1)->text()));
    }
};

QTEST_MAIN(DebuggerPanelTest)
#include "DebuggerPanelTest.moc"
