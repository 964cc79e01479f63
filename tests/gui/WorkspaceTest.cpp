// Issue 15 acceptance, the window half: each task workspace shows its panels and keeps the
// user's changes to its arrangement; one click (toolbar action) switches; any view maximises
// and restores (by id and by keyboard, Ctrl+Shift+M on the focused view); the command palette's
// "View › Panel: X" brings a background tab to the front instead of closing it; Enter on a
// complete word with the completion list open inserts a newline; the unknown-T-name hint names
// a file of this repository; the default target follows the attached GPU.
#include <QDockWidget>
#include <QFileInfo>
#include <QLineEdit>
#include <QStandardPaths>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

#include "app/gui/BankPanel.h"
#include <QScrollArea>
#include "visualizer/widgets/ZoomBar.h"
#include "app/gui/CommandPalette.h"
#include "app/gui/DefaultTarget.h"
#include "app/gui/LayoutPanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/PanelRegistry.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"
#include "app/gui/Workspaces.h"
#include "profiler/cuda/Devices.h"
#include "tests/gui/GuiTestUtil.h"
#include "tests/support/SourceDir.h"
#include "visualizer/widgets/BankHeatmapWidget.h"
#include "visualizer/widgets/LayoutGridWidget.h"

using namespace ts;
using namespace ts::gui;

namespace {

const char* kCopy = R"(import tilelang
import tilelang.language as T


def kernel(M=256, N=256, block_M=64, block_N=64, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            tile = T.alloc_shared((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], tile)
            T.copy(tile, B[by * block_M, bx * block_N])

    return main
)";

/// Panel ids whose docks are open (not closed; a background tab counts as open).
QStringList openPanels(MainWindow& w) {
    QStringList ids;
    for (const PanelFactory& f : panelFactories())
        if (!w.dock(f.id)->isHidden()) ids << f.id;
    return ids;
}

}  // namespace

class WorkspaceTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("TileScopeWorkspaceTest");
        QSettings().clear();
    }

    void eachWorkspaceShowsItsViews() {
        MainWindow w(false);
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.workspaces()->current(), QString(kWorkspaceInspect));
        // Hand-written expectations (not read back from the registry), so a change to the
        // built-in placement is a visible decision.
        const QMap<QString, QStringList> expected = {
            {kWorkspaceAuthor, {"params", "problems", "run"}},
            {kWorkspaceInspect, {"passes", "generated", "params", "problems"}},
            {kWorkspaceLayout, {"params", "layout", "banks"}},
            {kWorkspaceDebug, {"passes", "problems", "run"}},
            {kWorkspaceProfile, {"generated", "params", "run", "compare"}},
        };
        for (const WorkspaceInfo& info : workspaceList()) {
            // One click: the toolbar's action.
            QAction* a = w.action("workspace." + info.id);
            QVERIFY2(a, qPrintable(info.id));
            a->trigger();
            QTest::qWait(20);
            QCOMPARE(w.workspaces()->current(), info.id);
            QVERIFY(a->isChecked());
            QStringList open = openPanels(w);
            for (const QString& id : expected[info.id])
                QVERIFY2(open.contains(id), qPrintable(info.id + ": " + id + " not open"));
            // Built-in panels outside the workspace are closed (plugins' panels may add more).
            for (const char* id :
                 {"passes", "generated", "params", "problems", "run", "layout", "banks", "compare"})
                QCOMPARE(open.contains(id), expected[info.id].contains(id));
        }
        // Layout & Banks: the two pictures side by side, both on screen, each wider than the
        // ~280 px the all-in-one layout left them — on the first visit (default arrangement)
        // and when coming back (saved arrangement).
        {
            MainWindow fresh(false);
            fresh.resize(1920, 1080);
            fresh.show();
            QVERIFY(QTest::qWaitForWindowExposed(&fresh));
            fresh.workspaces()->switchTo(kWorkspaceLayout);
            QTest::qWait(50);
            QVERIFY2(fresh.tabifiedDockWidgets(fresh.dock("layout")).isEmpty(), "still tabbed");
            QVERIFY(fresh.panelOnScreen("layout"));
            QVERIFY(fresh.panelOnScreen("banks"));
        }
        w.workspaces()->switchTo(kWorkspaceLayout);
        QTest::qWait(20);
        QVERIFY(w.panelOnScreen("layout"));
        QVERIFY(w.panelOnScreen("banks"));
        QVERIFY(w.dock("layout")->width() > 500);
        QVERIFY(w.dock("banks")->width() > 500);
        // Debug and Profile & Compare: the task's panel in front of its tab group.
        w.workspaces()->switchTo(kWorkspaceDebug);
        QTest::qWait(20);
        QVERIFY(w.panelOnScreen("debugger"));
        w.workspaces()->switchTo(kWorkspaceProfile);
        QTest::qWait(20);
        QVERIFY(w.panelOnScreen("compare"));
        // Author: the Parameters panel beside the editor, tall enough for its rows.
        w.workspaces()->switchTo(kWorkspaceAuthor);
        QTest::qWait(20);
        QVERIFY(w.panelOnScreen("params"));
        QVERIFY(w.dock("params")->height() > 600);
    }

    void aWorkspaceKeepsTheUsersArrangement() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.workspaces()->switchTo(kWorkspaceLayout);
        QVERIFY(!w.dock("banks")->isHidden());
        w.dock("banks")->close();  // the user closes Banks here ...
        w.dock("run")->show();     // ... and opens Run
        w.workspaces()->switchTo(kWorkspaceInspect);
        QVERIFY(!w.dock("passes")->isHidden());
        QVERIFY(w.dock("run")->isHidden());
        w.workspaces()->switchTo(kWorkspaceLayout);
        QVERIFY(w.dock("banks")->isHidden());
        QVERIFY(!w.dock("run")->isHidden());
        QVERIFY(!w.dock("layout")->isHidden());
        // Reset Layout brings this workspace (only) back to its default.
        w.action("view.resetLayout")->trigger();
        QVERIFY(!w.dock("banks")->isHidden());
        QVERIFY(w.dock("run")->isHidden());
    }

    void maximiseAndRestoreAView() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(20);
        const QStringList before = openPanels(w);
        const int passesWidth = w.dock("passes")->width();
        w.workspaces()->maximize("passes");
        QTest::qWait(20);
        QCOMPARE(w.workspaces()->maximizedView(), QString("passes"));
        QCOMPARE(openPanels(w), QStringList{"passes"});
        QVERIFY(!w.centralWidget()->isVisible());
        QVERIFY2(w.dock("passes")->width() > 0.9 * w.width(),
                 qPrintable(QString::number(w.dock("passes")->width())));
        QVERIFY(w.dock("passes")->width() > passesWidth);
        w.workspaces()->restoreMaximized();
        QTest::qWait(20);
        QCOMPARE(openPanels(w), before);
        QVERIFY(w.centralWidget()->isVisible());
        QVERIFY(qAbs(w.dock("passes")->width() - passesWidth) <= 2);

        // Keyboard: Ctrl+Shift+M on the focused view maximises it, again restores.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QWidget* generated = w.panel("generated");
        generated->setFocus();
        QWidget* focused = QApplication::focusWidget();
        QVERIFY(focused);
        QCOMPARE(w.workspaces()->viewOf(focused), QString("generated"));
        QTest::keyClick(focused, Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w.workspaces()->maximizedView(), QString("generated"));
        QCOMPARE(openPanels(w), QStringList{"generated"});
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &w, Qt::Key_M,
                        Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(w.workspaces()->maximizedView().isEmpty());
        QCOMPARE(openPanels(w), before);

        // The editor: every dock goes away, and comes back.
        w.editor()->setFocus();
        QTest::keyClick(w.editor(), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w.workspaces()->maximizedView(), QString(kEditorViewId));
        QVERIFY(openPanels(w).isEmpty());
        // Switching workspace restores first, so no arrangement is saved maximised.
        w.workspaces()->switchTo(kWorkspaceAuthor);
        QVERIFY(w.workspaces()->maximizedView().isEmpty());
        w.workspaces()->switchTo(kWorkspaceInspect);
        QCOMPARE(openPanels(w), before);
    }

    // New-user trial: the window opens at 1440x900 and is maximised to 1920x1080; Inspect (the
    // start workspace) kept its 1440-based docks -- Parameters 4 of 10 rows, Generated CUDA
    // ~390 px -- and the editor took the rest, unlike the screenshots (sized before showing).
    // The default proportions follow the window until the user arranges something.
    void theStartArrangementFollowsTheFirstMaximise() {
        MainWindow w(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.size(), QSize(1440, 900));
        QTest::qWait(20);
        QCOMPARE(w.workspaces()->current(), QString(kWorkspaceInspect));
        const int generated1440 = w.dock("generated")->width();
        const int params900 = w.dock("params")->height();
        w.resize(1920, 1080);
        QTest::qWait(50);
        // Inspect's defaults: passes 0.33, generated 0.27 of the width, the bottom group 0.22
        // of the height.
        QVERIFY2(w.dock("generated")->width() >= int(0.25 * 1920),
                 qPrintable(QString("%1 px (was %2)").arg(w.dock("generated")->width()).arg(generated1440)));
        QVERIFY(w.dock("passes")->width() >= int(0.3 * 1920));
        QVERIFY2(w.dock("params")->height() > params900,
                 qPrintable(QString("%1 px (was %2)").arg(w.dock("params")->height()).arg(params900)));

        // The user drags a separator (a press on the window itself, between editor and
        // passes): from then on a resize leaves the docks alone.
        const QRect editor = w.centralWidget()->geometry();
        const QRect passes = w.dock("passes")->geometry();
        const QPoint separator((editor.right() + passes.left()) / 2, passes.center().y());
        QTest::mousePress(&w, Qt::LeftButton, {}, separator);
        QTest::mouseRelease(&w, Qt::LeftButton, {}, separator);
        QTest::qWait(20);
        const int generated = w.dock("generated")->width();
        const int params = w.dock("params")->height();
        w.resize(1800, 1050);
        QTest::qWait(50);
        QCOMPARE(w.dock("generated")->width(), generated);
        QCOMPARE(w.dock("params")->height(), params);
    }

    // Edit latency: a picture whose dock the workspace closed is not rebuilt on every edit
    // (Layout and Banks used to redo theirs on each keystroke's compile while closed in
    // Inspect); it catches up, with the latest result, when its workspace shows it.
    void closedPicturesWaitUntilShown() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.workspaces()->current(), QString(kWorkspaceInspect));
        QVERIFY(w.dock("layout")->isHidden());
        QVERIFY(w.dock("banks")->isHidden());
        w.session().openDocument(QString(), test::kGemmProgram);
        QVERIFY(test::waitCompiled(w.session()));
        auto* layout = qobject_cast<LayoutPanel*>(w.panel("layout"));
        auto* banks = qobject_cast<BankPanel*>(w.panel("banks"));
        QVERIFY(layout && banks);
        QVERIFY(layout->buffers().contains("A_shared"));  // the list is cheap: kept current
        QVERIFY(!layout->grid()->model());                // the picture is not built
        QVERIFY(!banks->heatmap()->hasModel());
        QCOMPARE(banks->model()->rowCount(), 0);

        w.workspaces()->switchTo(kWorkspaceLayout);
        QVERIFY(layout->selectBuffer("A_shared"));
        QTRY_VERIFY_WITH_TIMEOUT(layout->grid()->model().has_value(), 5000);
        // A_shared is (block_M, block_K) = (64, 32) float16.
        QCOMPARE(layout->grid()->model()->rows(), 64);
        QCOMPARE(layout->grid()->model()->cols(), 32);
        QTRY_VERIFY_WITH_TIMEOUT(banks->model()->rowCount() > 0, 30000);
        QVERIFY(banks->heatmap()->hasModel());

        // Edited while closed: the old picture stays untouched until the workspace shows it.
        w.workspaces()->switchTo(kWorkspaceInspect);
        w.session().setParam("block_K", "64");
        QVERIFY(test::waitCompiled(w.session()));
        QCOMPARE(layout->grid()->model()->cols(), 32);
        w.workspaces()->switchTo(kWorkspaceLayout);
        QTRY_COMPARE_WITH_TIMEOUT(layout->grid()->model()->cols(), 64, 5000);
        QCOMPARE(layout->currentBuffer(), QString("A_shared"));
    }

    // New-user trial at 1920x1080: Layout & Banks showed 23 of A_shared's 32 columns and about
    // 5 rows of the bank access table. The defaults now fit: every column on screen with its
    // labels (fit-to-view zoom), at least 10 table rows; the window's minimum width unchanged.
    void layoutAndBanksFitTheirContentAt1920() {
        MainWindow w(false);
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(MainWindow::samplesDir() + "/gemm.py", true));
        QVERIFY(test::waitCompiled(w.session()));
        w.workspaces()->switchTo(kWorkspaceLayout);
        auto* layout = qobject_cast<LayoutPanel*>(w.panel("layout"));
        QVERIFY(layout);
        QTRY_VERIFY_WITH_TIMEOUT(layout->selectBuffer("A_shared"), 5000);
        viz::LayoutGridWidget* grid = layout->grid();
        QTRY_VERIFY_WITH_TIMEOUT(grid->model().has_value(), 5000);
        QCOMPARE(grid->model()->cols(), int64_t(32));
        QVERIFY(layout->fitToView());
        QWidget* viewport = grid->parentWidget();
        QTRY_VERIFY2_WITH_TIMEOUT(grid->width() <= viewport->width(),
                                  qPrintable(QString("grid %1 px in a %2 px view, cells %3 px")
                                                 .arg(grid->width())
                                                 .arg(viewport->width())
                                                 .arg(grid->cellSize())),
                                  3000);
        QVERIFY2(grid->cellSize() >= 22, qPrintable(QString::number(grid->cellSize())));
        QVERIFY(grid->labelsShown());
        // A hand zoom wins over fitting until Fit is pressed again.
        QTest::keyClick(grid, Qt::Key_Plus, Qt::ControlModifier);
        QVERIFY(!layout->fitToView());
        const int zoomed = grid->cellSize();
        w.resize(1900, 1080);
        QTest::qWait(50);
        QCOMPARE(grid->cellSize(), zoomed);
        layout->setFitToView(true);
        QTRY_VERIFY_WITH_TIMEOUT(grid->width() <= viewport->width(), 3000);

        auto* banks = qobject_cast<BankPanel*>(w.panel("banks"));
        QVERIFY(banks);
        QTRY_VERIFY_WITH_TIMEOUT(banks->model()->rowCount() > 0, 30000);
        QTRY_VERIFY2_WITH_TIMEOUT(banks->visibleTableRows() >= 10,
                                  qPrintable(QString("%1 rows").arg(banks->visibleTableRows())),
                                  3000);
        QVERIFY(banks->heatmap()->parentWidget()->height() >= 200);  // the heatmap keeps room
        // The heatmap fits on first show: all 32 banks in its pane (was ~26 at 22 px cells),
        // digits in 11 px text or larger.
        banks->selectRow(0);
        QVERIFY(banks->zoomBar()->fit());
        QTRY_VERIFY2_WITH_TIMEOUT(
            banks->heatmap()->width() <= banks->heatmapArea()->viewport()->width(),
            qPrintable(QString("heatmap %1 px in a %2 px pane")
                           .arg(banks->heatmap()->width())
                           .arg(banks->heatmapArea()->viewport()->width())),
            3000);
        QVERIFY(banks->heatmap()->cellDigitsShown());
        QVERIFY(banks->heatmap()->minTextPx() >= 11);
        const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
        QVERIFY2(min.width() <= 803, qPrintable(QString("minimum width %1").arg(min.width())));
    }

    // A 1280x800 screen (a laptop; or a 1920 screen less its side docks): every workspace and
    // every maximised view fits; the window used to insist on ~1740 px.
    void everyWorkspaceFits1280x800() {
        MainWindow w(false);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // With a compiled program: the panels' toolbars and summaries are filled in (the pass
        // explorer's diff bar, the Problems summary asked for 561 and 517 px).
        QVERIFY(w.openFile(MainWindow::samplesDir() + "/gemm.py", true));
        QVERIFY(test::waitCompiled(w.session()));
        auto fits = [&](const QString& what) {
            QTest::qWait(20);
            w.resize(1280, 800);
            QTest::qWait(20);
            const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
            QVERIFY2(min.width() <= 1280 && min.height() <= 800,
                     qPrintable(QString("%1: minimum %2x%3").arg(what).arg(min.width()).arg(min.height())));
            QVERIFY2(w.width() == 1280 && w.height() == 800,
                     qPrintable(QString("%1: %2x%3").arg(what).arg(w.width()).arg(w.height())));
            for (QDockWidget* d : w.findChildren<QDockWidget*>())
                if (d->isVisible() && !d->isFloating())
                    QVERIFY2(d->geometry().right() < w.width(),
                             qPrintable(what + ": " + d->objectName() + " off screen"));
        };
        for (const WorkspaceInfo& info : workspaceList()) {
            w.workspaces()->switchTo(info.id);
            fits(info.id);
            for (const PanelFactory& f : panelFactories())
                if (!w.dock(f.id)->isHidden()) {
                    w.workspaces()->maximize(f.id);
                    fits(info.id + " maximised " + f.id);
                    w.workspaces()->restoreMaximized();
                }
        }
    }

    // Cramped diffs: side-by-side panes of ~280 px cut most IR lines. Until the user picks a
    // layout the diff is side by side only where each side gets >= 480 px, else unified; the
    // user's pick (a button) then stays whatever the width.
    void diffLayoutFollowsTheWidthUntilChosen() {
        MainWindow w(false);
        w.resize(1920, 1080);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* explorer = qobject_cast<PassExplorer*>(w.panel("passes"));
        QVERIFY(explorer && !explorer->diffLayoutChosen());
        QTest::qWait(20);
        // Inspect at 1920: the explorer beside the editor and Generated CUDA is narrow.
        QVERIFY2(explorer->width() < PassExplorer::kSideBySideMinWidth,
                 qPrintable(QString::number(explorer->width())));
        QVERIFY(explorer->isUnified());
        // Maximised: the whole width, side by side.
        w.workspaces()->maximize("passes");
        QTest::qWait(20);
        QVERIFY(explorer->width() >= PassExplorer::kSideBySideMinWidth);
        QVERIFY(!explorer->isUnified());
        w.workspaces()->restoreMaximized();
        QTest::qWait(20);
        QVERIFY(explorer->isUnified());
        // The user's choice wins from then on.
        explorer->setDiffMode(true);
        QToolButton* side = nullptr;
        for (QToolButton* b : explorer->findChildren<QToolButton*>())
            if (b->text() == "Side by side") side = b;
        QVERIFY(side);
        QTest::mouseClick(side, Qt::LeftButton);
        QVERIFY(explorer->diffLayoutChosen());
        QVERIFY(!explorer->isUnified());
        w.resize(1700, 1000);
        QTest::qWait(20);
        QVERIFY(!explorer->isUnified());
    }

    void paletteBringsABackgroundTabToTheFront() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(20);
        // Inspect: Parameters is in front, Problems a background tab of the same group.
        QVERIFY(w.panelOnScreen("params"));
        QVERIFY(!w.dock("problems")->isHidden());
        QVERIFY(!w.panelOnScreen("problems"));
        auto runPalette = [&w](const QString& query) {
            CommandPalette p(w.commands());
            QTest::keyClicks(p.input(), query);
            QVERIFY(!p.visibleLabels().isEmpty());
            QCOMPARE(p.visibleLabels().front(), "View › " + query);
            QTest::keyClick(p.input(), Qt::Key_Return);
            QTest::qWait(20);
        };
        runPalette("Panel: Problems");
        QVERIFY(w.panelOnScreen("problems"));
        QVERIFY(!w.panelOnScreen("params"));
        QVERIFY(!w.dock("params")->isHidden());  // still a tab, just behind
        // In front, the same command closes it; once more opens it again.
        runPalette("Panel: Problems");
        QVERIFY(w.dock("problems")->isHidden());
        runPalette("Panel: Problems");
        QVERIFY(w.panelOnScreen("problems"));
        QVERIFY(w.action("view.panel.problems")->isChecked());
    }

    void enterOnACompleteWordInsertsANewline() {
        MainWindow w(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.session().openDocument(QString(), "import tilelang.language as T\n\n");
        SourceEditor* ed = w.editor();
        ed->setFocus();
        ed->setCursorPosition(1, 0);
        QTest::keyClicks(ed, "import tilelang");
        // "tilelang" is a word of the document: the completion list offers it.
        QTRY_VERIFY_WITH_TIMEOUT(ed->isListActive(), 2000);
        QTest::keyClick(ed, Qt::Key_Return);
        QCOMPARE(ed->text(1), QString("import tilelang\n"));
        QVERIFY(ed->lines() >= 3);
        int line = -1, col = -1;
        ed->getCursorPosition(&line, &col);
        QCOMPARE(line, 2);
        QVERIFY(!ed->isListActive());

        // A partial word still completes on Enter.
        ed->setCursorPosition(2, 0);
        QTest::keyClicks(ed, "tilel");
        QTRY_VERIFY_WITH_TIMEOUT(ed->isListActive(), 2000);
        QTest::keyClick(ed, Qt::Key_Return);
        QVERIFY2(ed->text(2).startsWith("tilelang"), qPrintable(ed->text(2)));
    }

    void unknownTNameHintPointsInsideTheRepository() {
        MainWindow w(false);
        QString text = QString(kCopy).replace("T.alloc_shared", "T.qwxzkjv");
        w.session().openDocument(QString(), text);
        QVERIFY(test::waitCompiled(w.session()));
        auto r = w.session().result();
        QVERIFY(!r->diagnostics.empty());
        const std::string& hint = r->diagnostics.front().hint;
        QVERIFY2(hint.find("LANGUAGE.md") == std::string::npos, hint.c_str());
        const std::string rel = "compiler/frontend/LanguageRegistry.h";
        QVERIFY2(hint.find(rel) != std::string::npos, hint.c_str());
        QVERIFY(QFileInfo::exists((QString::fromUtf8(TS_SOURCE_DIR) + QStringLiteral("/")) + QString::fromStdString(rel)));
    }

    void defaultTargetIsTheAttachedGpus() {
        rt::DeviceInfo h200;
        h200.name = "NVIDIA H200";
        h200.ccMajor = 9;
        h200.ccMinor = 0;
        rt::DeviceInfo a10;
        a10.ccMajor = 8;
        a10.ccMinor = 6;
        rt::DeviceInfo future;
        future.ccMajor = 12;
        future.ccMinor = 0;
        QCOMPARE(defaultTargetFor({h200}), QString("cuda:sm_90a"));
        QCOMPARE(defaultTargetFor({a10, h200}), QString("cuda:sm_80"));  // device 0 decides
        QCOMPARE(defaultTargetFor({future}), QString("cuda:sm_80"));     // not a codegen target
        QCOMPARE(defaultTargetFor({}), QString("cuda:sm_80"));
        // No target saved: the window starts on the attached GPU's (sm_80 on this GPU-less box).
        QSettings().remove("target");
        MainWindow w(false);
        QCOMPARE(w.session().target(), attachedGpuTarget());
        QVERIFY(w.action("run.target." + attachedGpuTarget())->isChecked());
        // A picked target is remembered and wins.
        w.action("run.target.cuda:sm_90a")->trigger();
        MainWindow w2(false);
        QCOMPARE(w2.session().target(), QString("cuda:sm_90a"));
        QSettings().remove("target");
    }
};

QTEST_MAIN(WorkspaceTest)
#include "WorkspaceTest.moc"
