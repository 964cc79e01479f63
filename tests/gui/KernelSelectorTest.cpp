// The IDE on a program with several kernels (DESIGN.md §2b): the Parameters panel's kernel
// selector lists the file's kernels (CompileResult::kernels); choosing the second recompiles
// that kernel through the Session (the pragma's @kernel), and the result, the pass list, the
// parameter table, the generated code and the pass viewer's IR all follow; choosing the default
// removes @kernel again.
#include <QComboBox>
#include <QStandardPaths>
#include <QtTest>

#include "app/gui/CodeView.h"
#include "app/gui/GeneratedPanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ParamsPanel.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/Session.h"
#include "tests/gui/GuiTestUtil.h"

using namespace ts;
using namespace ts::gui;
using ts::gui::test::readFile;
using ts::gui::test::waitCompiled;

namespace {
/// Waits until the session's result is the compile of `kernel` (ProgramKernel name).
bool waitForKernel(Session& s, const std::string& kernel, int ms = 20000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        QTest::qWait(5);
        auto r = s.result();
        if (r && !s.compiling() && r->selected() && r->selected()->name == kernel) return true;
    }
    return false;
}
}  // namespace

class KernelSelectorTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("TileScopeTest");
        QSettings().clear();
    }

    void selectorListsKernelsAndPanelsFollowTheSelection() {
        const QString text = readFile("tests/e2e/programs/multi_kernel.py");
        QVERIFY(!text.isEmpty());
        MainWindow w(false);
        w.show();
        Session& s = w.session();
        s.openDocument(QStringLiteral("multi_kernel.py"), text);
        QVERIFY(waitCompiled(s));
        auto r = s.result();
        QVERIFY(r->ok);
        QCOMPARE(int(r->kernels.size()), 3);
        QCOMPARE(r->selected()->name, std::string("affine_fwd"));
        QCOMPARE(r->kernel.name, std::string("affine_fwd_kernel"));

        auto* params = qobject_cast<ParamsPanel*>(w.panel("params"));
        QVERIFY(params);
        QComboBox* selector = params->kernelSelector();
        QVERIFY(selector->isVisibleTo(params));
        QCOMPARE(selector->count(), 3);
        QCOMPARE(selector->itemData(0).toString(), QString("affine_fwd"));
        QCOMPARE(selector->itemData(1).toString(), QString("row_mean"));
        QCOMPARE(selector->itemData(2).toString(), QString("scale_cols"));
        QVERIFY(selector->itemText(0).contains("default"));
        QCOMPARE(selector->currentIndex(), 0);

        // Choose the second kernel as a user does (the combo's activated signal).
        emit selector->activated(1);
        QVERIFY(waitForKernel(s, "row_mean"));
        r = s.result();
        QVERIFY(r->ok);
        QCOMPARE(r->selectedKernel, 1);
        QCOMPARE(r->kernel.name, std::string("row_mean_kernel"));
        QCOMPARE(r->kernel.grid[0], 8u);  // 128 rows / block_M 16
        QCOMPARE(int(r->kernel.args.size()), 2);
        QCOMPARE(r->kernel.args[1].name, std::string("S"));
        QCOMPARE(s.kernel(), std::string("row_mean"));
        QVERIFY(s.text().contains("\n# tilescope: @kernel=row_mean\n"));
        QCOMPARE(selector->currentIndex(), 1);
        // Every panel reads the same result: passes, IR, parameters, generated code.
        QVERIFY(s.shown() == r);
        QVERIFY(!r->passes.empty());
        QVERIFY(QString::fromStdString(r->passes.back().ir).contains("row_mean"));
        QVERIFY(!QString::fromStdString(r->passes.back().ir).contains("affine_fwd"));
        QCOMPARE(params->model()->rowCount(), 4);
        QCOMPARE(params->model()->params()[2].name, std::string("block_M"));
        auto* gen = qobject_cast<GeneratedPanel*>(w.panel("generated"));
        QVERIFY(gen);
        QTRY_VERIFY(gen->view()->text().contains("row_mean_kernel"));
        QVERIFY(!gen->view()->text().contains("affine_fwd_kernel"));

        // A parameter edit applies to the selected kernel; the @kernel choice stays.
        s.setParam("block_M", "32");
        QTRY_VERIFY_WITH_TIMEOUT(s.result() && !s.compiling() && s.result()->kernel.grid[0] == 4u,
                                 20000);
        QCOMPARE(s.result()->selected()->name, std::string("row_mean"));
        s.resetParams();
        QVERIFY(s.text().contains("\n# tilescope: @kernel=row_mean\n"));

        // Back to the default kernel: the pragma loses @kernel.
        emit selector->activated(0);
        QVERIFY(waitForKernel(s, "affine_fwd"));
        QCOMPARE(s.result()->kernel.name, std::string("affine_fwd_kernel"));
        QVERIFY(!s.text().contains("@kernel"));
        QCOMPARE(s.text(), text);
    }

    void singleKernelFileHidesTheSelector() {
        MainWindow w(false);
        w.show();
        Session& s = w.session();
        s.openDocument(QStringLiteral("row_tail.py"), readFile("tests/e2e/programs/row_tail.py"));
        QVERIFY(waitCompiled(s));
        QCOMPARE(int(s.result()->kernels.size()), 1);
        auto* params = qobject_cast<ParamsPanel*>(w.panel("params"));
        QVERIFY(!params->kernelSelector()->isVisibleTo(params));
    }
};

QTEST_MAIN(KernelSelectorTest)
#include "KernelSelectorTest.moc"
