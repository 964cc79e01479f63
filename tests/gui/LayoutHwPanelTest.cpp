// The Layout panel's hardware layout entries (app/gui/LayoutPanel.h over
// compiler/analysis/HwLayouts.h): listed before any compile and kept across compiles, and the
// grid shows the fragment the spec figures give (checked on cells, not pixels). With
// TS_LAYOUT_SHOT=FILE.png the test also saves the panel showing wgmma_c:64 (docs/screenshots;
// TS_LAYOUT_SHOT_SPEC picks another entry).
#include <QElapsedTimer>
#include <QFile>
#include <QtTest>

#include "app/gui/LayoutPanel.h"
#include "app/gui/Session.h"
#include "tests/gui/GuiTestUtil.h"
#include "visualizer/widgets/LayoutGridWidget.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::gui;

namespace {
using ts::gui::test::readFile;
using ts::gui::test::waitCompiled;
}  // namespace

class LayoutHwPanelTest : public QObject {
    Q_OBJECT
private slots:
    void hardwareEntriesWithoutAProgram() {
        Session s;
        LayoutPanel p(s);
        QVERIFY(p.buffers().isEmpty());
        for (const char* spec :
             {"mma_a", "mma_b", "mma_c", "wgmma_c:64", "wgmma_c:256", "mfma_a", "mfma_b", "mfma_c"})
            QVERIFY2(p.hardwareLayouts().contains(spec), spec);
        // wgmma m64n64k16 D: thread 0 holds (0,0),(0,1),(8,0),(8,1) as d0..d3; warp 1 lane 5
        // starts at (17, 2) (PTX ISA 9.7.15.5.1.1.1).
        QVERIFY(p.selectHardwareLayout("wgmma_c:64"));
        QVERIFY(p.currentBuffer().isEmpty());
        auto& m = p.grid()->model();
        QVERIFY(m.has_value());
        QCOMPARE(m->rows(), 64);
        QCOMPARE(m->cols(), 64);
        QCOMPARE(m->cell(8, 1).thread, 0);
        QCOMPARE(m->cell(8, 1).local, 3);
        QCOMPARE(m->cell(17, 2).thread, 37);
        QCOMPARE(m->cell(0, 63).local, 29);  // d29: col 8*7 + 2*3 + 1, row g
        // MFMA 16x16x16 A: A[0][4] is the first half of lane 16.
        QVERIFY(p.selectHardwareLayout("mfma_a"));
        QCOMPARE(p.grid()->model()->cell(0, 4).thread, 16);
        QCOMPARE(p.grid()->model()->threads(), 64);
        QVERIFY(!p.selectHardwareLayout("nope"));
        QTemporaryDir dir;
        QVERIFY(p.exportSvg(dir.filePath("a.svg")));
        QVERIFY(QFile(dir.filePath("a.svg")).size() > 1000);
    }

    void hardwareEntriesAfterBuffersAndKeptAcrossCompiles() {
        Session s;
        LayoutPanel p(s);
        QVERIFY(p.selectHardwareLayout("mma_b"));
        s.openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py",
                       readFile("samples/gemm.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY(p.buffers().contains("C_local"));
        QVERIFY(!p.buffers().contains("mma_b"));
        QVERIFY(p.hardwareLayouts().contains("mma_b"));
        // The hardware entry stays selected: mma B 16x8, b2 of lane 0 at (8, 0).
        QCOMPARE(p.grid()->model()->rows(), 16);
        QCOMPARE(p.grid()->model()->cell(8, 0).local, 2);
        QVERIFY(p.selectBuffer("C_local"));
        QCOMPARE(p.grid()->model()->cell(70, 100).thread, 122);
        QVERIFY(!p.selectBuffer("hardware: mma_b"));
    }

    void screenshot() {
        QString out = qEnvironmentVariable("TS_LAYOUT_SHOT");
        if (out.isEmpty()) QSKIP("set TS_LAYOUT_SHOT=FILE.png to save the panel");
        Session s;
        LayoutPanel p(s);
        p.resize(1100, 820);
        p.show();
        QString spec = qEnvironmentVariable("TS_LAYOUT_SHOT_SPEC", "wgmma_c:64");
        QVERIFY(p.selectHardwareLayout(spec));
        QTest::qWait(200);
        QVERIFY(p.grab().save(out, "PNG"));
    }
};

QTEST_MAIN(LayoutHwPanelTest)
#include "LayoutHwPanelTest.moc"
