// Progress and Stop of a sweep in the Compare panel (issue 15: "progress on anything longer than
// 1 s: phase, elapsed time, cancel"). The real tilec tunes samples/gemm.py on the tile
// interpreter with two quick variants (M=128) and two slow ones (M=2048, N=K=2048: about ten
// seconds each): the progress row names the running variant and its elapsed time ticks; Stop
// during the third variant ends tilec within two seconds, leaves no tilec child, keeps the two
// finished rows and marks the other two "not run (stopped)". With TS_SWEEP_SHOTS=DIR the panel
// is grabbed (1920x1080) while running and after Stop into DIR/sweep-{running,stopped}.png.
#include <QDir>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/ComparePanel.h"
#include "app/gui/Session.h"
#include "app/gui/TuneSweep.h"
#include "tests/support/SourceDir.h"

using namespace ts::gui;

namespace {

/// Pids of this process's children whose command name is `name` (from /proc/PID/stat).
QList<qint64> childrenNamed(const QString& name) {
    QList<qint64> out;
    const qint64 self = QCoreApplication::applicationPid();
    for (const QString& e : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool num = false;
        const qint64 pid = e.toLongLong(&num);
        if (!num) continue;
        QFile f("/proc/" + e + "/stat");
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QString stat = QString::fromUtf8(f.readAll());
        // "PID (comm) STATE PPID ...": comm may hold spaces, so split after the last ')'.
        const int open = stat.indexOf('('), close = stat.lastIndexOf(')');
        if (open < 0 || close < 0) continue;
        const QStringList rest = stat.mid(close + 2).split(' ');
        if (rest.size() < 2 || rest[1].toLongLong() != self) continue;
        if (stat.mid(open + 1, close - open - 1) == name) out << pid;
    }
    return out;
}

void shot(QWidget& w, const char* name) {
    const QString dir = qEnvironmentVariable("TS_SWEEP_SHOTS");
    if (!dir.isEmpty()) QVERIFY(w.grab().save(dir + "/" + name));
}

}  // namespace

class SweepProgressTest : public QObject {
    Q_OBJECT
private slots:
    void progressLinesParse() {
        const QString log =
            "tuning gemm.py: 4 variants on the tile-level interpreter (sm_80), 2 compile threads\n"
            "tune: variant 1 of 4 running: M=128 block_M=64\n"
            "tune: variant 1 of 4 ok 812.0000 ms: M=128 block_M=64\n"
            "tune: variant 2 of 4 running: M=128 block_M=128\n"
            "tune: variant 2 of 4 wrong_result: M=128 block_M=128\n"
            "tune: variant 3 of 4 running: M=2048 block_M=64\n";
        SweepProgress p = sweepProgress(log);
        QCOMPARE(p.total, 4);
        QCOMPARE(p.current, 3);
        QCOMPARE(p.config, QString("M=2048 block_M=64"));
        QCOMPARE(p.done, 2);
        QCOMPARE(p.ok, 1);
        QCOMPARE(p.text(), QString("variant 3 of 4: M=2048 block_M=64  ·  2 done: 1 ok, 1 failed"));
        QCOMPARE(sweepProgress(log.section('\n', 0, 0)).text(), QString("compiling 4 variants"));
    }

    void stopEndsTheSweepKeepingTheFinishedVariants() {
        QTemporaryDir dir;
        const QString gemm = QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py";
        QFile src(gemm);
        QVERIFY(src.open(QIODevice::ReadOnly));
        Session s;
        s.openDocument(gemm, QString::fromUtf8(src.readAll()));
        s.setParam("N", "2048");
        s.setParam("K", "2048");
        ComparePanel p(s);
        p.resize(1920, 1080);
        p.show();
        QVERIFY(!p.loadStore(dir.filePath("results.jsonl")));
        QVERIFY(p.sweepProgressText().isEmpty());
        // As a user does: the sweep typed in, "interpreter" ticked, Tune clicked.
        QPushButton *stop = nullptr, *tune = nullptr;
        for (auto* b : p.findChildren<QPushButton*>())
            (b->text() == "Stop" ? stop : b->text() == "Tune" ? tune : b) = b;
        QCheckBox* interp = nullptr;
        for (auto* cb : p.findChildren<QCheckBox*>())
            if (cb->text() == "interpreter") interp = cb;
        auto edits = p.findChildren<QLineEdit*>();
        QVERIFY(stop && tune && interp && !edits.isEmpty());
        for (auto* e : edits)
            if (e->placeholderText().contains("block_M")) e->setText("M=128,2048 block_M=64,128");
        interp->setChecked(true);
        tune->click();
        QVERIFY2(p.sweepRunning(), qPrintable(p.statusText()));
        QVERIFY(stop->isEnabled() && !tune->isEnabled());

        // The phase names the variant; the two quick ones finish, the third (slow) one runs.
        QTRY_VERIFY_WITH_TIMEOUT(p.sweepProgressText().contains("variant 3 of 4: M=2048 block_M=64"),
                                 90000);
        QVERIFY2(p.sweepProgressText().contains("2 done: 2 ok, 0 failed"),
                 qPrintable(p.sweepProgressText()));
        QVERIFY(p.sweepProgressText().contains("Stop cancels"));
        // The elapsed time ticks while the variant runs (refreshed 5 times a second).
        const QString before = p.sweepProgressText();
        QTest::qWait(1100);
        QVERIFY(p.sweepRunning());
        QVERIFY2(p.sweepProgressText() != before, qPrintable(before));
        const QList<qint64> tilecs = childrenNamed("tilec");
        QCOMPARE(tilecs.size(), 1);
        shot(p, "sweep-running.png");

        QElapsedTimer t;
        t.start();
        stop->click();
        QTRY_VERIFY_WITH_TIMEOUT(!p.sweepRunning(), 2000);
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(childrenNamed("tilec").isEmpty());
        QVERIFY(!QDir("/proc/" + QString::number(tilecs[0])).exists());
        QVERIFY(p.sweepProgressText().isEmpty());
        QVERIFY(!stop->isEnabled());
        QVERIFY2(p.statusText().startsWith("Stopped by the user after") &&
                     p.statusText().contains("2 of 4 variants ran (2 ok)"),
                 qPrintable(p.statusText()));

        // The finished rows are kept with their results; the others are marked stopped.
        const ts::viz::VariantCompare* c = p.compare();
        QVERIFY2(c, qPrintable(p.sweepLog()));
        QCOMPARE(int(c->rows().size()), 4);
        int ok = 0, stopped = 0;
        for (int r = 0; r < 4; ++r) {
            const auto& row = c->rows()[size_t(r)];
            const QString m = QString::fromStdString(row.record["params"]["M"].get<std::string>());
            const QString shown = p.model()->data(p.model()->index(r, 0), Qt::DisplayRole).toString();
            if (m == "128") {
                QVERIFY2(row.ok(), row.reason.c_str());
                QCOMPARE(QString::fromStdString(row.record.value("check", std::string())), QString("pass"));
                ++ok;
            } else {
                QCOMPARE(QString::fromStdString(row.status), QString("stopped"));
                QCOMPARE(shown, QString("not run (stopped)"));
                ++stopped;
            }
        }
        QCOMPARE(ok, 2);
        QCOMPARE(stopped, 2);
        QCoreApplication::processEvents();
        shot(p, "sweep-stopped.png");

        // Tune works again after a stop.
        QVERIFY(p.startSweep("M=128 block_M=64", true));
        QTRY_VERIFY_WITH_TIMEOUT(!p.sweepRunning(), 60000);
        QVERIFY2(p.sweepLog().contains("best:"), qPrintable(p.sweepLog()));
    }
};

QTEST_MAIN(SweepProgressTest)
#include "SweepProgressTest.moc"
