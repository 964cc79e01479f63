// The Layout and Bank panels (app/gui/LayoutPanel.h, BankPanel.h) over a real Session: models
// and selections are checked, not pixels (DESIGN.md §6).
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/BankPanel.h"
#include "app/gui/LayoutPanel.h"
#include "app/gui/Session.h"
#include "tests/gui/GuiTestUtil.h"
#include "visualizer/widgets/BankHeatmapWidget.h"
#include "visualizer/widgets/LayoutGridWidget.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::gui;

namespace {
using ts::gui::test::readFile;
using ts::gui::test::waitCompiled;
}  // namespace

class LayoutBankPanelTest : public QObject {
    Q_OBJECT
private slots:
    void layoutPanelListsAndDrawsBuffers() {
        Session s;
        LayoutPanel p(s);
        s.openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py",
                       readFile("samples/gemm.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY(p.buffers().contains("C_local"));
        QVERIFY(p.buffers().contains("A_shared"));
        QVERIFY(p.selectBuffer("C_local"));
        auto& m = p.grid()->model();
        QVERIFY(m.has_value());
        QCOMPARE(m->rows(), 128);
        QCOMPARE(m->cell(70, 100).thread, 122);
        QVERIFY(p.selectBuffer("B_shared"));
        QVERIFY(p.grid()->model()->isShared());
        QCOMPARE(p.grid()->model()->cell(1, 0).physical, 136);
        // Clicking a cell outlines its bank.
        auto pt = QPoint(32 + 5, 18 + 5);
        QTest::mouseClick(p.grid(), Qt::LeftButton, {}, pt);
        QCOMPARE(p.grid()->selectedThread(), p.grid()->model()->cell(0, 0).bank);
        // Editor focus on a line naming a buffer selects it.
        int line = readFile("samples/gemm.py")
                       .left(readFile("samples/gemm.py").indexOf("C_local = "))
                       .count('\n') +
                   1;
        s.setFocus(Span{uint32_t(line), 1, uint32_t(line), 5}, FocusOrigin::Source);
        QCOMPARE(p.currentBuffer(), QString("C_local"));
        QTemporaryDir dir;
        QVERIFY(p.exportSvg(dir.filePath("c.svg")));
        QVERIFY(QFile(dir.filePath("c.svg")).size() > 1000);
    }

    void bankPanelSortsAndShowsHeatmap() {
        Session s;
        BankPanel p(s);
        s.openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/bench/banks/transpose.py",
                       readFile("bench/banks/transpose.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY(p.model()->rowCount() >= 2);
        // Worst first: the column read of the unpadded tile, 8-way (256 threads: 8 rows per
        // warp lane group, see tests/unit/BanksTest.cpp for the counting rules).
        QCOMPARE(p.model()->row(0).instruction, std::string("ld.shared.b32"));
        QCOMPARE(p.model()->row(0).ways, 8);
        QVERIFY(p.model()->row(0).excess > 0);
        QCOMPARE(p.heatmap()->model().cost().ways, 8);
        // Selecting a row reveals its source line. The row store's four unrolled b32 stores are
        // one st.shared.v4 after ptxas merging (measured on the H200): 8 lanes per quarter-warp
        // phase write one 128-byte row, conflict-free.
        QSignalSpy reveal(&s, &Session::revealRequested);
        p.selectRow(1, true);
        QCOMPARE(reveal.count(), 1);
        QCOMPARE(p.model()->row(1).instruction, std::string("st.shared.v4 (16 B) = 4 x b32"));
        QCOMPARE(p.heatmap()->model().cost().ways, 1);
        // Export of the shown heatmap: the SVG names its lanes and banks; the PNG is an image.
        QTemporaryDir dir;
        QVERIFY(p.exportHeatmapSvg(dir.filePath("h.svg")));
        QFile svg(dir.filePath("h.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
        QVERIFY(p.exportHeatmapPng(dir.filePath("h.png")));
        QVERIFY(!QImage(dir.filePath("h.png")).isNull());
    }
};

QTEST_MAIN(LayoutBankPanelTest)
#include "LayoutBankPanelTest.moc"
