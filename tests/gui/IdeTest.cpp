// End-to-end tests of the IDE over the real compiler (DESIGN.md §6, issue 3 acceptance): open
// each sample, the pass list equals the pipeline, selecting a pass shows its IR, a changing
// pass has a non-empty diff, typing an error shows a diagnostic on the right line within 500 ms
// and fixing it clears it, parameters edit the pragma and recompile, cross-highlighting, the
// command palette, themes, and a screenshot smoke test of every panel.
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/CodeView.h"
#include "app/gui/CommandPalette.h"
#include "app/gui/CudaIndex.h"
#include "app/gui/DiagnosticsPanel.h"
#include "app/gui/GeneratedPanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ParamsPanel.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/PassListModel.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"
#include "app/gui/Theme.h"
#include "profiler/cuda/Nvrtc.h"
#include "tests/gui/GuiTestUtil.h"
#include "visualizer/widgets/DiffView.h"

using namespace ts;
using namespace ts::gui;

namespace {

// TileLang's canonical GEMM (tests/gui/GuiTestUtil.h), so these tests do not depend on the
// samples folder's contents.
const char* kGemm = ts::gui::test::kGemmProgram;

// Waits until the session holds a result for its current text.
using ts::gui::test::waitCompiled;

int lineOf(const QString& text, const QString& needle) {
    return text.left(text.indexOf(needle)).count('\n');  // 0-based
}

}  // namespace

class IdeTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_gemmPath;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("TileScopeTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        m_gemmPath = m_dir.filePath("gemm_test.py");
        QFile f(m_gemmPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kGemm);
    }

    void opensEachSample() {
        QString dir = MainWindow::samplesDir();
        if (dir.isEmpty()) QSKIP("no samples folder");
        const QStringList files = QDir(dir).entryList({"*.py"}, QDir::Files, QDir::Name);
        if (files.isEmpty()) QSKIP("samples folder is empty");
        MainWindow w(false);
        w.show();
        for (const QString& f : files) {
            QVERIFY(w.openFile(QDir(dir).filePath(f), true));
            QVERIFY2(waitCompiled(w.session()), qPrintable(f));
            auto r = w.session().result();
            QVERIFY2(r->ok,
                     qPrintable(f + ": " +
                                QString::fromStdString(
                                    r->diagnostics.empty() ? "" : r->diagnostics[0].message)));
            checkPassesMatchPipeline(w);
            checkSelectingShowsIr(w);
            checkChangingPassHasDiff(w);
        }
    }

    void gemmPassesIrAndDiff() {
        MainWindow w(false);
        w.show();
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        QVERIFY(w.session().result()->ok);
        checkPassesMatchPipeline(w);
        checkSelectingShowsIr(w);
        checkChangingPassHasDiff(w);
    }

    void typingAnErrorShowsADiagnosticWithin500ms() {
        MainWindow w(false);
        w.show();
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        SourceEditor* ed = w.editor();
        QVERIFY(ed->markedLines().empty());
        const int line = lineOf(ed->text(), "T.copy(A[");
        const int col = ed->text(line).indexOf("copy");
        ed->setFocus();
        ed->setCursorPosition(line, col);
        QElapsedTimer t;
        t.start();
        QTest::keyClicks(ed, "zz");  // T.zzcopy: an unknown name
        QTRY_VERIFY_WITH_TIMEOUT(!ed->markedLines().empty(), 2000);
        qint64 elapsed = t.elapsed();
        QVERIFY2(elapsed <= 500, qPrintable(QString("diagnostic after %1 ms").arg(elapsed)));
        QCOMPARE(ed->markedLines(), std::vector<int>{line});
        QVERIFY(!ed->diagnosticTextAt(int(ed->positionOf(line + 1, col + 1))).isEmpty());
        auto* problems = qobject_cast<DiagnosticsPanel*>(w.panel("problems"));
        QVERIFY(problems->model()->rowCount() >= 1);
        // Fix it: the marker goes away.
        QTest::keyClick(ed, Qt::Key_Backspace);
        QTest::keyClick(ed, Qt::Key_Backspace);
        QTRY_VERIFY_WITH_TIMEOUT(ed->markedLines().empty() && !w.session().compiling(), 2000);
        QVERIFY(w.session().result()->ok);
    }

    void parametersEditThePragmaAndRecompile() {
        MainWindow w(false);
        w.show();
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        auto* params = qobject_cast<ParamsPanel*>(w.panel("params"));
        ParamsModel* m = params->model();
        int row = -1;
        for (int i = 0; i < m->rowCount(); ++i)
            if (m->index(i, ParamsModel::Name).data().toString() == "block_K") row = i;
        QVERIFY(row >= 0);
        QCOMPARE(m->index(row, ParamsModel::Default).data().toString(), QString("32"));
        QVERIFY(m->setData(m->index(row, ParamsModel::Value), "64", Qt::EditRole));
        QVERIFY(w.session().text().contains("# tilescope: block_K=64"));
        QVERIFY(w.editor()->text().contains("# tilescope: block_K=64"));
        QVERIFY(w.session().isModified());
        QVERIFY(waitCompiled(w.session()));
        bool found = false;
        for (const auto& p : w.session().result()->params)
            if (p.name == "block_K") found = p.value == "64" && p.overridden;
        QVERIFY(found);
        // Undo in the editor restores the text (the pragma was a normal edit).
        w.editor()->undo();
        QVERIFY(!w.session().text().contains("tilescope:"));
        // Back to default through the model: the pragma line disappears.
        QVERIFY(m->setData(m->index(row, ParamsModel::Value), "64", Qt::EditRole));
        QVERIFY(m->setData(m->index(row, ParamsModel::Value), "", Qt::EditRole));
        QVERIFY(!w.session().text().contains("tilescope:"));
    }

    void crossHighlighting() {
        MainWindow w(false);
        w.show();
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        auto r = w.session().result();
        auto* explorer = qobject_cast<PassExplorer*>(w.panel("passes"));
        w.session().selectPass(int(r->passes.size()) - 1);
        const int line = lineOf(w.editor()->text(), "T.gemm(");
        w.editor()->setCursorPosition(line, 4);
        // QScintilla reports caret moves on its next UI update.
        QTRY_COMPARE(int(w.session().focus().span.line), line + 1);
        QCOMPARE(w.session().focus().origin, FocusOrigin::Source);
        QVERIFY(!explorer->irView()->highlightedLines().empty());
        auto* gen = qobject_cast<GeneratedPanel*>(w.panel("generated"));
        QVERIFY(!gen->view()->highlightedLines().empty());
        // And back: a highlighted IR line focuses a source span that covers the gemm line.
        int irLine = explorer->irView()->highlightedLines().front();
        explorer->irView()->setCursorPosition(irLine, 0);
        QTRY_COMPARE(w.session().focus().origin, FocusOrigin::Ir);
        QVERIFY(int(w.session().focus().span.line) <= line + 1);
        QVERIFY(int(std::max(w.session().focus().span.endLine, w.session().focus().span.line)) >=
                line + 1);
    }

    void generatedOutlineAndGoToDefinition() {
        if (!CudaIndex::available()) QSKIP("built without libclang");
        MainWindow w(false);
        w.show();
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        auto* gen = qobject_cast<GeneratedPanel*>(w.panel("generated"));
        QTRY_VERIFY_WITH_TIMEOUT(gen->indexed(), 20000);
        const QString kernel = QString::fromStdString(w.session().result()->kernel.name);
        QStringList outline = gen->outlineLabels();
        QVERIFY2(outline.join('|').contains("▶ " + kernel), qPrintable(outline.join('|')));
        QVERIFY2(outline.join('|').contains("A_shared"), qPrintable(outline.join('|')));
        // A use of A_shared goes to its declaration in kernel.cu ...
        QString code = gen->view()->text();
        int declLine = lineOf(code, "A_shared =");
        int useAt = code.indexOf("A_shared", code.indexOf("A_shared =") + 10);
        QVERIFY(useAt > 0);
        int useLine = code.left(useAt).count('\n');
        int useCol = useAt - (code.lastIndexOf('\n', useAt - 1) + 1);
        QVERIFY(gen->goToDefinition(useLine, useCol + 1));
        QCOMPARE(gen->shownFile(), QString("kernel.cu"));
        int line, index;
        gen->view()->getCursorPosition(&line, &index);
        QCOMPARE(line, declLine);
        // ... and a device-header function goes into ts_device.cuh.
        int call = code.indexOf("ts::cp_async16");
        if (call < 0) call = code.indexOf("ts::");
        QVERIFY(call > 0);
        int callLine = code.left(call).count('\n');
        int callCol = call - (code.lastIndexOf('\n', call - 1) + 1) + 5;  // inside the name
        QVERIFY(gen->goToDefinition(callLine, callCol));
        QCOMPARE(gen->shownFile(), QString("ts_device.cuh"));
        gen->showFile("kernel.cu");
    }

    void generatedPanelShowsWhatPtxasAllocated() {
        // Under the header: ptxas's registers/spills/barriers of the shown CUDA from a background
        // NVRTC compile (no GPU). The gemm sample at its defaults on sm_90a: one kernel, no
        // spills, one barrier (__syncthreads; the mbarriers are not named barriers). None for HIP.
        if (!ts::rt::nvrtcAvailable()) QSKIP("no NVRTC in this build");
        MainWindow w(false);
        w.show();
        w.session().setTarget("cuda:sm_90a");
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        auto* gen = qobject_cast<GeneratedPanel*>(w.panel("generated"));
        QTRY_VERIFY_WITH_TIMEOUT(gen->ptxasText().contains("registers"), 60000);
        const QString t = gen->ptxasText();
        QVERIFY2(t.startsWith("ptxas sm_90a: matmul_kernel: "), qPrintable(t));
        QVERIFY2(t.contains("no spills, 1 barrier"), qPrintable(t));
        QVERIFY2(!t.contains("serialized"), qPrintable(t));
        w.session().setTarget("hip:gfx90a");
        QTRY_VERIFY_WITH_TIMEOUT(w.session().result() && !w.session().compiling() && w.session().result()->language == "hip", 20000);
        QTRY_COMPARE_WITH_TIMEOUT(gen->ptxasText(), QString(), 5000);
    }

    void generatedPanelFollowsTheTargetLanguage() {
        // issue 13: on hip:gfx90a the panel and its dock say "Generated HIP", the files are
        // kernel.hip / ts_hip.h (the header the code includes); back on CUDA, all of it returns.
        MainWindow w(false);
        w.show();
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        auto* gen = qobject_cast<GeneratedPanel*>(w.panel("generated"));
        QCOMPARE(w.dock("generated")->windowTitle(), QString("Generated CUDA"));
        QCOMPARE(gen->shownFile(), QString("kernel.cu"));
        w.session().setTarget("hip:gfx90a");
        QTRY_VERIFY_WITH_TIMEOUT(w.session().result() && !w.session().compiling() &&
                                     w.session().result()->language == "hip",
                                 20000);
        QCOMPARE(w.dock("generated")->windowTitle(), QString("Generated HIP"));
        QCOMPARE(gen->shownFile(), QString("kernel.hip"));
        const QString hip = gen->view()->text();
        QVERIFY2(hip.contains("#include \"ts_hip.h\""), qPrintable(hip.left(400)));
        // Pipelined copies are plain on gfx90a (no cp.async): the schedule's commit/wait points
        // are comments that say so, not calls of no-op ts::cp_async_* functions.
        QVERIFY(!hip.contains("cp_async"));
        QVERIFY(hip.contains("// (cp.async wait<"));
        gen->showFile("ts_hip.h");
        QVERIFY(gen->view()->text().contains("__builtin_amdgcn_mfma_f32_16x16x16f16"));
        w.session().setTarget("cuda:sm_80");
        QTRY_VERIFY_WITH_TIMEOUT(w.session().result() && !w.session().compiling() &&
                                     w.session().result()->language == "cuda",
                                 20000);
        QCOMPARE(w.dock("generated")->windowTitle(), QString("Generated CUDA"));
        QCOMPARE(gen->shownFile(), QString("ts_device.cuh"));  // the header stays the header
        gen->showFile("kernel.cu");
        QVERIFY(gen->view()->text().contains("#include \"ts_device.cuh\""));
    }

    void passFilterAndNavigation() {
        MainWindow w(false);
        w.show();
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        auto r = w.session().result();
        auto* explorer = qobject_cast<PassExplorer*>(w.panel("passes"));
        int changed = 0;
        for (const auto& p : r->passes) changed += p.changed;
        explorer->proxy()->setHideUnchanged(true);
        QCOMPARE(explorer->proxy()->rowCount(), changed);
        explorer->proxy()->setHideUnchanged(false);
        explorer->proxy()->setSearch(QString::fromStdString(r->passes.back().name));
        QVERIFY(explorer->proxy()->rowCount() >= 1);
        explorer->proxy()->setSearch({});
        // F6 / F7 walk the changed passes.
        w.session().selectPass(0);
        int next = w.session().neighbourChangedPass(+1);
        if (next < 0) QSKIP("only one pass changes the IR");
        w.action("run.nextChanged")->trigger();
        QCOMPARE(w.session().selectedPass(), next);
        QVERIFY(r->passes[next].changed);
        int next2 = w.session().neighbourChangedPass(+1);
        if (next2 < 0) return;
        w.action("run.nextChanged")->trigger();
        QCOMPARE(w.session().selectedPass(), next2);
        w.action("run.previousChanged")->trigger();
        QCOMPARE(w.session().selectedPass(), next);
    }

    void commandPalette() {
        QCOMPARE(fuzzyScore("xyz", "File › Save"), -1);
        QVERIFY(fuzzyScore("save", "File › Save") > fuzzyScore("save", "File › Save As…"));
        QVERIFY(fuzzyScore("fs", "File › Save") > 0);
        MainWindow w(false);
        CommandPalette p(w.commands());
        QTest::keyClicks(p.input(), "dark");
        QVERIFY(!p.visibleLabels().isEmpty());
        QCOMPARE(p.visibleLabels().front(), QString("View › Dark Theme"));
        QTest::keyClick(p.input(), Qt::Key_Return);
        QCOMPARE(theme().name, QString("dark"));
        w.setTheme("light");
        QCOMPARE(w.editor()->paper(), theme().paper);
    }

    void screenshotOfEveryPanel() {
        MainWindow w(false);
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.openFile(m_gemmPath, true));
        QVERIFY(waitCompiled(w.session()));
        for (const char* id : {"passes", "generated", "params", "problems", "run"}) {
            QDockWidget* d = w.dock(id);
            QVERIFY2(d, id);
            w.showPanel(id);  // Run is not part of the start workspace (Inspect)
            QPixmap px = d->grab();
            QVERIFY2(!px.isNull() && px.width() > 100 && px.height() > 100, id);
        }
        QPixmap whole = w.grab();
        QCOMPARE(whole.size(), w.size());
    }

private:
    void checkPassesMatchPipeline(MainWindow& w) {
        auto r = w.session().result();
        auto target = parseTarget(w.session().target().toStdString());
        QVERIFY(target);
        auto pipeline = pipelinePasses(*target);
        auto* explorer = qobject_cast<PassExplorer*>(w.panel("passes"));
        QStringList expected;
        for (const auto& [name, summary] : pipeline) expected << QString::fromStdString(name);
        QCOMPARE(explorer->model()->names(), expected);
        QCOMPARE(int(r->passes.size()), int(pipeline.size()));
    }
    void checkSelectingShowsIr(MainWindow& w) {
        auto r = w.session().result();
        auto* explorer = qobject_cast<PassExplorer*>(w.panel("passes"));
        for (int i = 0; i < int(r->passes.size()); ++i) {
            // Select through the view, as a user would.
            QModelIndex px = explorer->proxy()->mapFromSource(explorer->model()->index(i, 1));
            explorer->listView()->setCurrentIndex(px);
            QCOMPARE(w.session().selectedPass(), i);
            QCOMPARE(explorer->irView()->text(), QString::fromStdString(r->passes[i].ir));
        }
    }
    void checkChangingPassHasDiff(MainWindow& w) {
        auto r = w.session().result();
        auto* explorer = qobject_cast<PassExplorer*>(w.panel("passes"));
        int changing = -1;
        for (int i = 1; i < int(r->passes.size()) && changing < 0; ++i)
            if (r->passes[i].changed) changing = i;
        QVERIFY2(changing > 0, "no pass after the first changed the IR");
        w.session().selectPass(changing);
        explorer->setDiffMode(true);
        QVERIFY(!explorer->diffView()->diff().identical());
        explorer->setUnified(true);
        QVERIFY(explorer->diffView()->unifiedText().contains("\n+") ||
                explorer->diffView()->unifiedText().startsWith("+"));
        explorer->setUnified(false);
        explorer->setDiffMode(false);
    }
};

QTEST_MAIN(IdeTest)
#include "IdeTest.moc"
