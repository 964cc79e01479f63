// The Layout and Bank panels (app/gui/LayoutPanel.h, BankPanel.h) over a real Session: models
// and selections are checked, not pixels (DESIGN.md §6).
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/BankPanel.h"
#include "app/gui/LayoutPanel.h"
#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "tests/gui/GuiTestUtil.h"
#include "visualizer/widgets/BankHeatmapWidget.h"
#include "visualizer/widgets/LayoutGridWidget.h"
#include "visualizer/widgets/PictureView.h"
#include "visualizer/widgets/ZoomBar.h"
#include <QScrollArea>
#include <QToolButton>
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

    // WCAG 2 contrast (issue 15): the cell text is black or white by its contrast ratio against
    // the cell's colour, >= 4.5:1 for every colour of the heatmap's wavefront scale and of the
    // layout grid's thread and bank colours (dimmed too), in both themes. The old BT.601 luma
    // rule gave 35 of these colours < 4.5:1 (e.g. thread 32's green #28bd54: black would be
    // 8.5:1, the old white 2.5:1).
    void cellTextContrastAtLeast4_5InBothThemes() {
        // The formula, by hand: black/white 21:1; #777777 on white 4.48:1 (WCAG's example of a
        // grey just too light).
        QCOMPARE(qRound(viz::contrastRatio(Qt::black, Qt::white) * 100), 2100);
        QCOMPARE(qRound(viz::contrastRatio(QColor("#777777"), Qt::white) * 100), 448);
        QCOMPARE(viz::contrastingText(QColor("#28bd54")), QColor(Qt::black));
        QCOMPARE(viz::contrastingText(QColor("#a50026")), QColor(Qt::white));
        for (const QString theme : {QStringLiteral("light"), QStringLiteral("dark")}) {
            ThemeManager::instance().setTheme(theme);
            viz::BankHeatmapWidget heat;
            viz::LayoutGridWidget grid;
            auto check = [&](const QColor& fill, const QColor& text, const QString& what) {
                const double r = viz::contrastRatio(text, fill);
                QVERIFY2(r >= 4.5, qPrintable(QString("%1 theme, %2 %3: %4:1")
                                                  .arg(theme, what, fill.name())
                                                  .arg(r, 0, 'f', 2)));
            };
            for (int w = 1; w <= 6; ++w)
                check(viz::BankHeatmapWidget::wavefrontColor(w), viz::BankHeatmapWidget::digitColor(w),
                      QString("wavefront %1").arg(w));
            // Axis text on the widgets' background and on untouched cells.
            const QColor text = heat.palette().text().color(), base = heat.palette().base().color();
            check(base, text, "heatmap axis text on base");
            check(viz::emptyCellColor(base), text, "text on an untouched cell");
            for (int t = 0; t < 256; ++t) {
                const QColor c(QRgb(0xff000000u | viz::threadColor(t, 32)));
                check(c, viz::contrastingText(c), QString("thread %1").arg(t));
                check(c.lighter(160), viz::contrastingText(c.lighter(160)), QString("dimmed thread %1").arg(t));
            }
            for (int b = 0; b < 32; ++b) {
                const QColor c(QRgb(0xff000000u | viz::bankColor(b)));
                check(c, viz::contrastingText(c), QString("bank %1").arg(b));
            }
            check(grid.palette().base().color(), grid.palette().text().color(), "grid headers");
        }
        ThemeManager::instance().setTheme("light");
    }

    // Fit-to-view, zoom and pan of the bank heatmap (issue 15: by default it showed ~26 of the
    // 32 banks at 22 px cells and had no fit). In a 640 px wide panel every bank is on screen;
    // '+' zooms by hand (Fit unchecks), '-' down to the smallest cells leaves the digits out
    // and thins the lane/bank numbers rather than shrinking text below 11 px; 100% is 22 px.
    void heatmapFitsZoomsAndKeepsTextReadable() {
        Session s;
        BankPanel p(s);
        p.resize(640, 900);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        s.openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/bench/banks/transpose.py",
                       readFile("bench/banks/transpose.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY_WITH_TIMEOUT(p.model()->rowCount() >= 2, 30000);
        p.selectRow(0);
        viz::BankHeatmapWidget* heat = p.heatmap();
        QWidget* view = p.heatmapArea()->viewport();
        QVERIFY(p.zoomBar()->fit());
        QTRY_VERIFY2_WITH_TIMEOUT(heat->width() <= view->width(),
                                  qPrintable(QString("heatmap %1 px in a %2 px view, cells %3 px")
                                                 .arg(heat->width())
                                                 .arg(view->width())
                                                 .arg(heat->cellSize())),
                                  3000);
        QCOMPARE(heat->model().banks(), 32);
        QVERIFY(heat->cellSize() >= viz::BankHeatmapWidget::kReadableCell);
        QVERIFY(heat->cellDigitsShown());
        QVERIFY(heat->minTextPx() >= 11);
        // By hand: '+' on the picture, the buttons.
        const int fitted = heat->cellSize();
        heat->setFocus();
        QTest::keyClick(heat, Qt::Key_Plus);
        QVERIFY(!p.zoomBar()->fit());
        QVERIFY(heat->cellSize() > fitted);
        for (int i = 0; i < 20; ++i) p.zoomBar()->zoomOutButton()->click();
        QCOMPARE(heat->cellSize(), int(viz::BankHeatmapWidget::kMinCell));
        QVERIFY(!heat->cellDigitsShown());  // left out, not painted in 6 px text
        QVERIFY(heat->laneLabelStep() > 1 && heat->bankLabelStep() > 1);
        QVERIFY(heat->minTextPx() >= 11);
        p.zoomBar()->resetButton()->click();
        QCOMPARE(heat->cellSize(), int(viz::BankHeatmapWidget::kDefaultCell));
        QTest::keyClick(heat, Qt::Key_Minus, Qt::ControlModifier);
        QVERIFY(heat->cellSize() < viz::BankHeatmapWidget::kDefaultCell);
        QTest::keyClick(heat, Qt::Key_0);
        QCOMPARE(heat->cellSize(), int(viz::BankHeatmapWidget::kDefaultCell));
        // Pan: zoomed in, a drag scrolls the area.
        for (int i = 0; i < 4; ++i) p.zoomBar()->zoomInButton()->click();
        QTRY_VERIFY(heat->width() > view->width());
        QTest::mousePress(heat, Qt::LeftButton, {}, QPoint(300, 300));
        QTest::mouseMove(heat, QPoint(200, 250));
        QTest::mouseRelease(heat, Qt::LeftButton, {}, QPoint(200, 250));
        QVERIFY(p.heatmapArea()->horizontalScrollBar()->value() > 0);
        // Fit again: all banks back in view.
        p.zoomBar()->fitButton()->click();
        QVERIFY(p.zoomBar()->fit());
        QTRY_VERIFY(heat->width() <= view->width());
        QTemporaryDir dir;
        QVERIFY(p.exportHeatmapSvg(dir.filePath("h.svg")));
        QVERIFY(p.exportHeatmapPng(dir.filePath("h.png")));
        QCOMPARE(QImage(dir.filePath("h.png")).size(), heat->size());
    }

    // The layout grid has the same buttons: '+' zooms by hand, 100% is 28 px, Fit fits again.
    void layoutGridZoomButtons() {
        Session s;
        LayoutPanel p(s);
        p.resize(700, 700);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        s.openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py",
                       readFile("samples/gemm.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY(p.buffers().contains("A_shared"));
        QVERIFY(p.selectBuffer("A_shared"));
        QVERIFY(p.fitToView());
        auto* zoom = p.findChild<viz::ZoomBar*>();
        QVERIFY(zoom);
        const int fitted = p.grid()->cellSize();
        zoom->zoomInButton()->click();
        QVERIFY(!p.fitToView());
        QVERIFY(p.grid()->cellSize() > fitted);
        zoom->resetButton()->click();
        QCOMPARE(p.grid()->cellSize(), int(viz::LayoutGridWidget::kDefaultCell));
        zoom->fitButton()->click();
        QVERIFY(p.fitToView());
        QTRY_COMPARE(p.grid()->cellSize(), fitted);
    }
};

QTEST_MAIN(LayoutBankPanelTest)
#include "LayoutBankPanelTest.moc"
