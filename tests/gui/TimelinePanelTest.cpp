// The Timeline and Barrier Schedule panels (app/gui/TimelinePanel.h, BarrierPanel.h) over a real
// Session on samples/gemm.py (defaults: 512^3, 128x128x32 tiles, 4 stages, so 16 iterations).
// Expected rows are derived by hand from the schedule InjectPipelineTma.cpp documents (see
// tests/unit/HopperTimelineTest.cpp): prologue G0 B then expect_tx + TMA A + TMA B for tiles 0..3
// (14 events), iteration k: wait tma_bar[k%4] (phase k/4), wgmma k, barrier, then for k >= 1 the
// release of tile k-1 and, while k-1+4 < 16, its refill; epilogue wgmma wait + last release:
// 2 + 12 + 16*3 + 15 + 12*3 + 2 = 115 events, plus the staged epilogue's two barriers
// (StageEpilogue.cpp: before the staged tile's writes, before its TMA store) = 117; on this
// schedule every event's time is its step. Then the epilogue's TMA store of C_local_stage (117),
// its bulk commit (118), the wait_group.read (122: read out 4 units after the commit) and the
// exit wait_group (126): 121 events, and a sixth row for the staging tile.
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include "app/gui/BarrierPanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"
#include "app/gui/Theme.h"
#include "app/gui/TimelinePanel.h"
#include "app/gui/Workspaces.h"
#include "tests/gui/GuiTestUtil.h"
#include "tests/support/SourceDir.h"
#include "visualizer/core/TimelineModel.h"
#include "visualizer/widgets/TimelineWidget.h"

using namespace ts;
using namespace ts::gui;
using ts::gui::test::readFile;
using ts::gui::test::waitCompiled;

namespace {
const QString kGemm = QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py";
constexpr int kGemmLine = 28;  // T.gemm(A_shared, B_shared, C_local) in samples/gemm.py
}  // namespace

class TimelinePanelTest : public QObject {
    Q_OBJECT
private slots:
    void gemmSm90aRowsEventsAndBarrierTable() {
        Session s;
        s.setTarget("cuda:sm_90a");
        TimelinePanel tp(s);
        BarrierPanel bp(s);
        tp.resize(1400, 500);
        s.openDocument(kGemm, readFile("samples/gemm.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY_WITH_TIMEOUT(tp.timeline() && !tp.pending(), 20000);
        const auto& m = tp.widget()->model();
        QCOMPARE(int(m.rows().size()), 6);  // one role + 4 stages + the TMA store's staging tile
        QCOMPARE(QString::fromStdString(m.rows()[0].name), QString("all warps (thread 0 issues) (128 threads)"));
        QCOMPARE(int(m.rows()[0].items.size()), 121);
        QCOMPARE(QString::fromStdString(m.axisUnit()), QString("logical time"));
        // Iteration 0: wait tma_bar[0] (14), wgmma k=0 (15), barrier (16).
        const auto& w0 = m.rows()[0].items[14];
        QCOMPARE(QString::fromStdString(w0.label), QString("wait s0"));
        QCOMPARE(w0.start, 14.0);
        const auto& mma0 = m.rows()[0].items[15];
        QCOMPARE(QString::fromStdString(mma0.label), QString("mma k0"));
        QCOMPARE(mma0.category, viz::TimelineCategory::Mma);
        QCOMPARE(mma0.start, 15.0);
        QCOMPARE(int(mma0.span.line), kGemmLine);
        // Iteration 1 refills stage 0 with tile 4: release (20), expect_tx, TMA A k4, TMA B k4.
        QCOMPARE(QString::fromStdString(m.rows()[0].items[20].label), QString("rel s0"));
        QCOMPARE(QString::fromStdString(m.rows()[0].items[22].label), QString("TMA A k4"));
        QCOMPARE(QString::fromStdString(m.rows()[1].name), QString("stage 0 (shared)"));
        QCOMPARE(int(m.rows()[1].items.size()), 4);  // tiles 0, 4, 8, 12
        QCOMPARE(QString::fromStdString(m.rows()[1].items[1].label), QString("k4"));
        QCOMPARE(int(m.iterations().size()), 16);
        // The epilogue's TMA store out of the staged tile (line 29, T.copy(C_local, C[...])).
        const auto& st = m.rows()[0].items[117];
        QCOMPARE(QString::fromStdString(st.label), QString("TMA st C"));
        QCOMPARE(st.category, viz::TimelineCategory::Store);
        QCOMPARE(st.start, 117.0);
        QCOMPARE(int(st.span.line), 29);
        QVERIFY(QString::fromStdString(st.tooltip).contains("tma_store · epilogue"));
        QCOMPARE(QString::fromStdString(m.rows()[0].items[118].label), QString("bulk g0"));
        QCOMPARE(m.rows()[0].items[118].category, viz::TimelineCategory::Commit);
        QCOMPARE(QString::fromStdString(m.rows()[0].items[119].label), QString("bulk.rd 0"));
        QCOMPARE(m.rows()[0].items[119].start, 122.0);
        QCOMPARE(QString::fromStdString(m.rows()[0].items[120].label), QString("bulk.wait 0"));
        QCOMPARE(m.rows()[0].items[120].start, 126.0);
        QCOMPARE(QString::fromStdString(m.rows()[5].name), QString("C_local_stage (TMA store staging)"));
        QCOMPARE(int(m.rows()[5].items.size()), 1);
        QCOMPARE(m.rows()[5].items[0].start, 117.0);
        QCOMPARE(m.rows()[5].items[0].end, 123.0);  // in flight until the read wait at 122
        QCOMPARE(m.rows()[5].items[0].category, viz::TimelineCategory::Store);
        QVERIFY(tp.statusText().contains("16 iteration(s), 4 stage(s), TMA + mbarrier schedule"));

        // Barrier table: 4 mbarriers x 4 phases, each 1 arrival and 16384 bytes (A 128x32 +
        // B 32x128 fp16 = 8192 + 8192), all balanced; phase p of tma_bar[s] carries tile s + 4p.
        QTRY_VERIFY_WITH_TIMEOUT(!bp.pending() && bp.model()->rowCount() > 0, 20000);
        QCOMPARE(bp.model()->rowCount(), 16);
        QCOMPARE(QString::fromStdString(bp.model()->table().kind), QString("mbarrier"));
        auto row = [&](int r) {
            QStringList c;
            for (int i = 0; i < bp.model()->columnCount(); ++i) c << bp.model()->index(r, i).data().toString();
            return c;
        };
        // Rows are by barrier then phase: tma_bar[1] phase 2 is row 4 + 2.
        QCOMPARE(row(6), QStringList({"tma_bar[1]", "2", "0", "k=9", "k=9", "1 / 1", "16384 / 16384", "t=62", "1", "ok"}));
        for (int r = 0; r < 16; ++r) QVERIFY(!bp.model()->table().rows[size_t(r)].bad);
        QCOMPARE(bp.diagnostics()->count(), 1);
        QVERIFY(bp.diagnostics()->item(0)->text().contains("every wait has its arrivals"));
    }

    void clickSelectsTheSourceLineAndThePass() {
        MainWindow w(false);
        w.resize(1600, 1000);
        w.show();
        w.session().setTarget("cuda:sm_90a");
        w.workspaces()->switchTo(kWorkspaceProfile);
        w.showPanel("timeline");
        w.session().openDocument(kGemm, readFile("samples/gemm.py"));
        QVERIFY(waitCompiled(w.session()));
        auto* tp = qobject_cast<TimelinePanel*>(w.panel("timeline"));
        QVERIFY(tp);
        QTRY_VERIFY_WITH_TIMEOUT(tp->timeline() && !tp->pending() && !tp->widget()->model().empty(), 20000);
        tp->widget()->fitAll();
        // Zoom in around the first iteration so the wgmma bar is wide enough to aim at.
        auto* tw = tp->widget();
        tw->view().pxPerUnit = 30;
        tw->view().origin = 10;
        tw->update();
        const QPointF c = tw->itemCenter(0, 15);
        QVERIFY(c.x() > tw->view().labelWidth && c.x() < tw->width());
        const viz::TimelineHit h = viz::hitTest(tw->model(), tw->view(), c.x(), c.y());
        QCOMPARE(h.row, 0);
        QCOMPARE(h.item, 15);
        QTest::mouseClick(tw, Qt::LeftButton, {}, c.toPoint());
        QCOMPARE(tw->selected().item, 15);
        int line = -1, col = -1;
        w.editor()->getCursorPosition(&line, &col);
        QCOMPARE(line + 1, kGemmLine);
        // The plan is read from the lowered IR: the last pass is selected.
        QCOMPARE(w.session().selectedPass(), int(w.session().shown()->passes.size()) - 1);
        // Wheel zoom keeps the axis under the cursor.
        const double before = tw->view().axisAt(c.x()), px = tw->view().pxPerUnit;
        QWheelEvent wheel(c, tw->mapToGlobal(c), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(tw, &wheel);
        QVERIFY(tw->view().pxPerUnit > px);
        QVERIFY(std::abs(tw->view().axisAt(c.x()) - before) < 1e-9);
        QTest::keyClick(tw, Qt::Key_0);  // fit
        QVERIFY(tw->view().xOf(tw->model().axisMax()) <= tw->width());
    }

    void sm80ShowsCpAsyncGroupsAndStalesOnErrors() {
        Session s;
        s.setTarget("cuda:sm_80");
        TimelinePanel tp(s);
        BarrierPanel bp(s);
        const QString text = readFile("samples/gemm.py");
        s.openDocument(kGemm, text);
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY_WITH_TIMEOUT(tp.timeline() && !tp.pending() && !bp.pending(), 20000);
        QCOMPARE(QString::fromStdString(tp.widget()->model().axisUnit()), QString("step"));
        QCOMPARE(QString::fromStdString(tp.widget()->model().rows()[0].name), QString("all warps (128 threads)"));
        QVERIFY(tp.statusText().contains("cp.async groups"));
        QCOMPARE(QString::fromStdString(bp.model()->table().kind), QString("cp.async"));
        // Group 0: tile 0's two copies (steps 0, 1), committed at step 2, completed by the first
        // wait_group (2 pending) at step 9 in iteration 0.
        QStringList c;
        for (int i = 0; i < bp.model()->columnCount(); ++i) c << bp.model()->index(0, i).data().toString();
        QCOMPARE(c, QStringList({"0", "k=0", "2", "2", "9", "k=0", "ok"}));
        // A typo: the panels keep the last plan and say it is stale.
        s.setTextFromEditor(QString(text).replace("T.gemm(A_shared", "T.gemm(A_sharedd"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY_WITH_TIMEOUT(!tp.pending() && tp.statusText().contains("Stale"), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!bp.pending() && bp.statusText().contains("Stale"), 20000);
    }

    void programWithoutPipelineSaysSo() {
        Session s;
        TimelinePanel tp(s);
        BarrierPanel bp(s);
        s.openDocument(QString::fromUtf8(TS_SOURCE_DIR) + "/samples/add.py", readFile("samples/add.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY_WITH_TIMEOUT(tp.timeline() && !tp.pending() && !bp.pending(), 20000);
        QVERIFY2(tp.statusText().contains("No pipeline to show"), qPrintable(tp.statusText()));
        QVERIFY(tp.widget()->model().empty());
        QVERIFY2(bp.statusText().contains("No pipeline"), qPrintable(bp.statusText()));
        QCOMPARE(bp.model()->rowCount(), 0);
    }

    void missingArrivalIsRedWithItsLine() {
        Session s;
        s.setTarget("cuda:sm_90a");
        BarrierPanel bp(s);
        s.openDocument(kGemm, readFile("samples/gemm.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY_WITH_TIMEOUT(!bp.pending() && bp.model()->rowCount() == 16, 20000);
        // The plan as a wrong pass would leave it: tma_bar[1]'s phase 1 short of one TMA load.
        auto seeded = std::make_shared<StaticTimeline>(*timelineFor(s.shown(), s.target()));
        auto& l = seeded->timeline.loops.at(0);
        l.barriers.at(5).txDelivered = 8192;
        l.barriers.at(5).completed = false;
        l.issues.push_back({Span{25, 13, 25, 20}, "tma_bar[1]", "deadlock: waits on tma_bar[1] for parity 1 (phase 1), which never completes", true});
        bp.showTimeline(seeded);
        QCOMPARE(bp.model()->index(5, 9).data().toString(), QString("never completes (waited for)"));
        QCOMPARE(bp.model()->index(5, 0).data(Qt::ForegroundRole).value<QColor>(), theme().error);
        QVERIFY(!bp.model()->index(4, 0).data(Qt::ForegroundRole).isValid());
        QCOMPARE(bp.diagnostics()->count(), 1);
        QVERIFY(bp.diagnostics()->item(0)->text().startsWith("line 25:13: error: barrier tma_bar[1]: deadlock"));
        QCOMPARE(bp.diagnostics()->item(0)->foreground().color(), theme().error);
        QList<int> revealed;
        connect(&s, &Session::revealRequested, this, [&](const Span& sp) { revealed << int(sp.line); });
        QTest::mouseClick(bp.diagnostics()->viewport(), Qt::LeftButton, {},
                          bp.diagnostics()->visualItemRect(bp.diagnostics()->item(0)).center());
        QCOMPARE(revealed, QList<int>({25}));
    }

    void loadsAMeasuredTrace() {
        Session s;
        s.setTarget("cuda:sm_90a");
        TimelinePanel tp(s);
        s.openDocument(kGemm, readFile("samples/gemm.py"));
        QVERIFY(waitCompiled(s));
        QTRY_VERIFY_WITH_TIMEOUT(tp.timeline() && !tp.pending(), 20000);
        QString why;
        QVERIFY(!tp.loadTrace(QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py", &why));
        QVERIFY(why.contains("gemm.py"));
        // Taken on the H200 with 4096^3 (128 iterations) and 4 stages: 2 blocks x 4 warps.
        QVERIFY2(tp.loadTrace(QString::fromUtf8(TS_SOURCE_DIR) + "/bench/results/h200-session-2026-12-02e/trace/trace-4096.json", &why),
                 qPrintable(why));
        const auto& m = tp.widget()->model();
        QVERIFY(m.hasMeasured());
        QCOMPARE(int(m.rows().size()), 6 + 8);
        QCOMPARE(QString::fromStdString(m.rows()[6].name), QString("block 0 · warp 0 (measured)"));
        QVERIFY2(tp.traceWarning().contains("128 iteration(s)"), qPrintable(tp.traceWarning()));
        tp.clearTrace();
        QCOMPARE(int(tp.widget()->model().rows().size()), 6);
    }
};

QTEST_MAIN(TimelinePanelTest)
#include "TimelinePanelTest.moc"
