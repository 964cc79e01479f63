// Issue 15 acceptance, truthful state: a Run verdict is tied to the text (with its parameter
// pragma) and the target it was made for — marked stale after an edit, a parameter or target
// change (and unmarked when the edit is undone), cleared to "no result for this program" when
// another file is opened or a new one started; the Banks panel drops the previous file's
// accesses and heatmap and says why it shows nothing; after a second failed compile the pass
// explorer does not claim to show "the last successful compile". A run shows its phase and
// elapsed time while it lasts. Stand-in tilec scripts: no GPU, no real run.
#include <QDockWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/BankPanel.h"
#include "app/gui/CodeView.h"
#include "app/gui/GeneratedPanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/RunPanel.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"
#include "tests/gui/GuiTestUtil.h"
#include "visualizer/widgets/BankHeatmapWidget.h"

using namespace ts;
using namespace ts::gui;

using test::kGemmProgram;

class StaleStateTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString script(const QString& name, const QString& body) {
        return test::writeScript(m_dir.path(), name, body);
    }

    QString writeFile(const QString& name, const QString& text) {
        QString p = m_dir.filePath(name);
        QFile f(p);
        f.open(QIODevice::WriteOnly);
        f.write(text.toUtf8());
        return p;
    }

    /// Runs the panel with a passing stand-in and waits for the verdict.
    void runPassing(RunPanel& panel) {
        panel.setTilec(script("pass.sh", "echo 'C: rel-L2 1e-4: PASS'; exit 0"));
        QSignalSpy done(&panel, &RunPanel::finished);
        panel.run();
        QVERIFY(done.wait(10000));
        QVERIFY(panel.statusText().contains("PASS"));
        QVERIFY(!panel.isStale());
    }

    /// Shows `w`, opens the test GEMM and runs it with a passing stand-in; the Run panel.
    RunPanel* openGemmAndRun(MainWindow& w) {
        w.show();
        if (!w.openFile(writeFile("gemm.py", kGemmProgram), true) ||
            !test::waitCompiled(w.session()))
            return nullptr;
        auto* panel = qobject_cast<RunPanel*>(w.panel("run"));
        runPassing(*panel);
        return panel;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("TileScopeStaleTest");
        QSettings().clear();
    }

    void runVerdictGoesStaleAfterAnEditAndBackOnUndo() {
        MainWindow w(false);
        RunPanel* panel = openGemmAndRun(w);
        QVERIFY(panel);

        // An edit that breaks the kernel: the green PASS must not stand.
        SourceEditor* ed = w.editor();
        const QString before = ed->text();
        ed->setText(QString(before).replace("T.gemm(", "T.gemmm("));
        QTRY_VERIFY_WITH_TIMEOUT(panel->isStale(), 2000);
        QVERIFY(panel->statusText().startsWith("⟳ STALE"));
        QVERIFY(panel->statusText().contains("Last run: ✔ PASS"));
        // Undone: the verdict is this text's again.
        ed->setText(before);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isStale(), 2000);
        QVERIFY(panel->statusText().startsWith("✔ PASS"));

        // A parameter (pragma) change and a target change mark it too.
        w.session().setParam("M", "512");
        QTRY_VERIFY_WITH_TIMEOUT(panel->isStale(), 2000);
        ed->setText(before);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isStale(), 2000);
        w.session().setTarget("cuda:sm_90a");
        QTRY_VERIFY_WITH_TIMEOUT(panel->isStale(), 2000);
        w.session().setTarget("cuda:sm_80");
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isStale(), 2000);
    }

    void openingAnotherFileClearsTheVerdict() {
        MainWindow w(false);
        RunPanel* panel = openGemmAndRun(w);
        QVERIFY(panel);
        QVERIFY(w.openFile(writeFile("other.py", QString(kGemmProgram).replace("M=256", "M=64")),
                           true));
        QVERIFY(!panel->hasResult());
        QCOMPARE(panel->statusText(), QString("No result for this program — Run (F5) runs it"));
        QVERIFY(panel->logText().isEmpty());
        // File › New as well.
        runPassing(*panel);
        w.newFile();
        QVERIFY(!panel->hasResult());
        QVERIFY(panel->statusText().startsWith("No result for this program"));
    }

    void progressShowsPhaseAndElapsedTime() {
        Session s;
        s.setDebounceMs(100000);
        s.openDocument(m_dir.filePath("k.py"), "x = 1\n");
        RunPanel panel(s);
        QCOMPARE(RunPanel::phaseOf(""), QString("compiling"));
        QCOMPARE(RunPanel::phaseOf("x\nkernel main: grid (1, 1, 1)\n"), QString("running"));
        QCOMPARE(RunPanel::phaseOf("\nkernel main\nran on the CPU interpreter: 3 ms\n"),
                 QString("checking"));
        panel.setTilec(script("slow.sh",
                              "echo 'kernel main: grid (1, 1, 1)'; sleep 1.5; "
                              "echo 'ran on the CPU interpreter: 1.0 ms'; exit 0"));
        QSignalSpy done(&panel, &RunPanel::finished);
        panel.run();
        QTRY_VERIFY_WITH_TIMEOUT(panel.progressText().startsWith("running on "), 3000);
        QTRY_VERIFY_WITH_TIMEOUT(
            panel.progressText().contains(QRegularExpression(" [1-9]\\.[0-9] s")), 3000);
        QVERIFY(panel.progressText().contains("Stop cancels"));
        QVERIFY(done.wait(10000));
        QVERIFY(panel.progressText().isEmpty());
    }

    void banksDropThePreviousFilesHeatmap() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        w.action("workspace.layout")->trigger();  // Layout & Banks shows the Banks panel
        QVERIFY(w.openFile(writeFile("gemm.py", kGemmProgram), true));
        QVERIFY(test::waitCompiled(w.session()));
        auto* banks = qobject_cast<BankPanel*>(w.panel("banks"));
        QTRY_VERIFY2_WITH_TIMEOUT(banks->model()->rowCount() > 0, qPrintable(banks->totalsText()),
                                  30000);
        QVERIFY(banks->heatmap()->hasModel());
        // Another file that does not compile: nothing of gemm may remain.
        QVERIFY(w.openFile(
            writeFile("broken.py", QString(kGemmProgram).replace("T.gemm(", "T.gemmm(")), true));
        QCOMPARE(banks->model()->rowCount(), 0);
        QVERIFY(!banks->heatmap()->hasModel());
        // The per-kernel counters are not gemm's predictions either, nor zeros: "—".
        auto* counters = banks->compareModel();
        auto predicted = [counters](int row) {
            return counters->data(counters->index(row, BankCompareModel::Predicted), Qt::DisplayRole)
                .toString();
        };
        QVERIFY(counters->rowCount() > 0);
        QCOMPARE(predicted(0), QString("—"));
        QVERIFY(test::waitCompiled(w.session()));
        QTRY_VERIFY_WITH_TIMEOUT(banks->totalsText().startsWith("No result for this program"),
                                 5000);
        QVERIFY(!banks->heatmap()->hasModel());
        QVERIFY(!counters->hasPredicted());
        for (int row = 0; row < counters->rowCount(); ++row) QCOMPARE(predicted(row), QString("—"));
        // Fixed: the counters are this program's predictions again.
        w.editor()->setText(kGemmProgram);
        QTRY_VERIFY_WITH_TIMEOUT(banks->model()->rowCount() > 0, 30000);
        QVERIFY(counters->hasPredicted());
        QVERIFY(predicted(0) != QString("—"));
    }

    void aSecondFailedCompileIsNotCalledTheLastSuccessfulOne() {
        Session s;
        s.setDebounceMs(0);
        const QString broken = QString(kGemmProgram).replace("def matmul(", "def matmul(((");
        s.openDocument(QString(), broken);  // a syntax error: no pass runs
        QVERIFY(test::waitCompiled(s));
        QVERIFY(s.result()->passes.empty());
        s.setTextFromEditor(broken + "\n# still broken\n");
        QTRY_VERIFY_WITH_TIMEOUT(
            s.result() && !s.compiling() &&
                s.result()->source->text().find("still broken") != std::string::npos,
            5000);
        QVERIFY(!s.shownIsStale());  // no banner claiming an earlier successful compile
        QCOMPARE(s.shown(), s.result());
    }

    // New-user trial: the CUDA panel of a program that never compiled said "The code below is
    // from the last successful compile" (over an empty view, or another file's code).
    void generatedPanelSaysWhenThereWasNoSuccessfulCompile() {
        Session s;
        s.setDebounceMs(0);
        GeneratedPanel panel(s);
        const QString broken = QString(kGemmProgram).replace("T.gemm(", "T.gemmm(");
        s.openDocument(m_dir.filePath("never.py"), broken);
        QVERIFY(test::waitCompiled(s));
        QVERIFY(s.result()->cuda.empty());
        QVERIFY2(panel.headerText().contains("No code generated: the program has errors"),
                 qPrintable(panel.headerText()));
        QVERIFY2(panel.headerText().contains("No successful compile of this program yet."),
                 qPrintable(panel.headerText()));
        QVERIFY(!panel.headerText().contains("last successful"));
        QVERIFY(panel.view()->text().isEmpty());

        // Fixed: code and the kernel line; broken again: now there was a successful compile.
        s.setTextFromEditor(kGemmProgram);
        QTRY_VERIFY_WITH_TIMEOUT(!s.compiling() && s.result() && !s.result()->cuda.empty(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(panel.headerText().contains("grid ("), 5000);
        QVERIFY(!panel.view()->text().isEmpty());
        s.setTextFromEditor(broken);
        QTRY_VERIFY_WITH_TIMEOUT(!s.compiling() && s.result() && s.result()->cuda.empty(), 20000);
        // (the session shows that compile, marked: "(last successful compile)")
        QTRY_VERIFY2_WITH_TIMEOUT(panel.headerText().contains("last successful compile"),
                                  qPrintable(panel.headerText()), 5000);
        QVERIFY(!panel.headerText().contains("yet"));
        QVERIFY(!panel.view()->text().isEmpty());

        // Another file that does not compile: the first file's code is not its last success.
        s.openDocument(m_dir.filePath("other.py"), broken);
        QVERIFY(panel.view()->text().isEmpty());
        QVERIFY(test::waitCompiled(s));
        QVERIFY2(panel.headerText().contains("No successful compile of this program yet."),
                 qPrintable(panel.headerText()));
    }
};

QTEST_MAIN(StaleStateTest)
#include "StaleStateTest.moc"
