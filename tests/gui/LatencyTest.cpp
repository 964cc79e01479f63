// Interactive latency of the IDE on samples/gemm.py (issue 3 acceptance): typing in the editor
// until the pass explorer shows the new passes, p50/p95 over many edits, and the longest time the
// UI thread was blocked meanwhile (a 2 ms timer's largest gap). Prints the figures; fails if
// p95 > 150 ms or the UI blocked for more than 50 ms with TS_GUI_LATENCY_STRICT=1 (a quiet
// machine); otherwise only gross regressions fail (p95 > 1 s), because shared CI machines stall
// processes for longer than the budget itself. Runs the real compiler.
#include <QDir>
#include <QtTest>
#include <algorithm>

#include "app/gui/MainWindow.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"

using namespace ts::gui;

class LatencyTest : public QObject {
    Q_OBJECT
private slots:
    void editToPassesRefreshed() {
        QString samples = MainWindow::samplesDir();
        if (samples.isEmpty() || !QFile::exists(samples + "/gemm.py")) QSKIP("no samples/gemm.py");
        QStandardPaths::setTestModeEnabled(true);
        MainWindow w(false);
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.openFile(samples + "/gemm.py", true));
        QTRY_VERIFY_WITH_TIMEOUT(w.session().result() && !w.session().compiling(), 20000);
        QVERIFY(w.session().result()->ok);

        // The last observer of resultChanged: by then the pass explorer has refreshed.
        QElapsedTimer clock;
        clock.start();
        qint64 refreshedAt = -1;
        connect(&w.session(), &Session::resultChanged, this,
                [&] { refreshedAt = clock.nsecsElapsed(); });
        qint64 lastTick = 0, worstGap = 0;
        QTimer tick;
        connect(&tick, &QTimer::timeout, this, [&] {
            qint64 now = clock.nsecsElapsed();
            if (lastTick) worstGap = std::max(worstGap, now - lastTick);
            lastTick = now;
        });
        tick.start(2);

        SourceEditor* ed = w.editor();
        const int line = ed->text().left(ed->text().indexOf("T.clear(C_local)")).count('\n');
        std::vector<double> ms;
        for (int i = 0; i < 40; ++i) {
            // Alternate: add / remove a trailing space (a real edit, a real recompile).
            ed->setFocus();
            ed->setCursorPosition(line,
                                  ed->text(line).trimmed().size() + ed->text(line).indexOf('T'));
            refreshedAt = -1;
            qint64 t0 = clock.nsecsElapsed();
            if (i % 2 == 0)
                QTest::keyClick(ed, Qt::Key_Space);
            else
                QTest::keyClick(ed, Qt::Key_Backspace);
            QTRY_VERIFY_WITH_TIMEOUT(refreshedAt > 0, 5000);
            ms.push_back((refreshedAt - t0) / 1e6);
            QTest::qWait(20);
        }
        std::sort(ms.begin(), ms.end());
        double p50 = ms[ms.size() / 2], p95 = ms[size_t(ms.size() * 0.95)];
        double worst = worstGap / 1e6;
        qInfo(
            "gemm.py edit -> passes refreshed over %zu edits: p50 %.1f ms, p95 %.1f ms, max %.1f "
            "ms "
            "(debounce %d ms, compile %.1f ms); longest UI-thread block %.1f ms",
            ms.size(), p50, p95, ms.back(), w.session().effectiveDebounceMs(),
            w.session().lastCompileMs(), worst);
        const bool strict = qEnvironmentVariableIntValue("TS_GUI_LATENCY_STRICT") != 0;
        QVERIFY2(p95 <= (strict ? 150 : 1000), qPrintable(QString("p95 %1 ms").arg(p95)));
        if (strict) QVERIFY2(worst <= 50, qPrintable(QString("UI blocked %1 ms").arg(worst)));
    }
};

QTEST_MAIN(LatencyTest)
#include "LatencyTest.moc"
