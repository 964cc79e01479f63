// The background compile queue (app/gui/CompileWorker.h), with a fake compile function so the
// timing is controlled: debounce coalesces bursts, a newer request cancels the running compile,
// stale results never reach the UI, and the UI thread keeps running while compiles are busy.
#include <QtTest>
#include <atomic>
#include <thread>

#include "app/gui/CompileWorker.h"

using namespace ts;
using namespace ts::gui;

namespace {

// Sleeps `ms` in small steps, polling the cancel flag like the pass manager does between passes.
CompileResult slowCompile(const std::string&, const std::string& text, const CompileOptions& o,
                          int ms, std::atomic<int>* calls) {
    ++*calls;
    CompileResult r;
    for (int t = 0; t < ms; t += 2) {
        if (o.cancel && o.cancel->load()) {
            r.cancelled = true;
            return r;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    r.ok = true;
    r.cuda = text;  // echo, so the test can see which text was compiled
    return r;
}

}  // namespace

class CompileWorkerTest : public QObject {
    Q_OBJECT
private slots:
    void debounceCoalescesBursts() {
        CompileWorker w;
        std::atomic<int> calls{0};
        w.setCompileFunction(
            [&](auto& p, auto& t, auto& o) { return slowCompile(p, t, o, 5, &calls); });
        QSignalSpy spy(&w, &CompileWorker::finished);
        for (int i = 0; i < 10; ++i) w.schedule({"f.py", "text" + std::to_string(i), {}}, 50);
        QVERIFY(spy.wait(2000));
        QTest::qWait(150);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(calls.load(), 1);
        auto r = spy.at(0).at(1).value<ResultPtr>();
        QCOMPARE(QString::fromStdString(r->cuda), QString("text9"));
        QCOMPARE(spy.at(0).at(0).toULongLong(), w.latestTag());
    }

    void newerRequestCancelsRunningCompile() {
        CompileWorker w;
        std::atomic<int> calls{0};
        std::atomic<bool> oldStoppedEarly{false};
        w.setCompileFunction([&](auto& p, auto& t, auto& o) {
            CompileResult r = slowCompile(p, t, o, 400, &calls);
            if (t == "old" && r.cancelled) oldStoppedEarly = true;
            return r;
        });
        QSignalSpy started(&w, &CompileWorker::started);
        QSignalSpy done(&w, &CompileWorker::finished);
        w.schedule({"f.py", "old", {}}, 0);
        QVERIFY(started.wait(1000));
        QElapsedTimer t;
        t.start();
        w.schedule({"f.py", "new", {}}, 0);
        QVERIFY(done.wait(3000));
        QCOMPARE(done.count(), 1);
        QCOMPARE(QString::fromStdString(done.at(0).at(1).value<ResultPtr>()->cuda), QString("new"));
        // The old compile stopped at its next poll instead of running its 400 ms out. Asserted
        // on the flag it saw, not on wall time: CI at load 12 took 1174 ms for the whole exchange.
        QVERIFY(oldStoppedEarly.load());
        QVERIFY2(t.elapsed() < 2500, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(w.droppedCount(), 1);
    }

    void staleResultsAreDropped() {
        CompileWorker w;
        std::atomic<int> calls{0};
        // A compile function that ignores the cancel flag: its result arrives but is stale.
        w.setCompileFunction([&](auto&, auto& t, auto&) {
            ++calls;
            std::this_thread::sleep_for(std::chrono::milliseconds(60));
            CompileResult r;
            r.cuda = t;
            return r;
        });
        QSignalSpy done(&w, &CompileWorker::finished);
        w.schedule({"f.py", "a", {}}, 0);
        QTest::qWait(20);
        w.schedule({"f.py", "b", {}}, 0);
        QVERIFY(done.wait(2000));
        QTest::qWait(100);
        QCOMPARE(done.count(), 1);
        QCOMPARE(QString::fromStdString(done.at(0).at(1).value<ResultPtr>()->cuda), QString("b"));
        QCOMPARE(calls.load(), 2);
    }

    // Speculative requests: the compile starts at once, but the result waits for the debounce,
    // so the views refresh once per burst, at the same time as without speculation or earlier.
    void speculativeResultWaitsForTheDebounce() {
        CompileWorker w;
        std::atomic<int> calls{0};
        w.setCompileFunction(
            [&](auto& p, auto& t, auto& o) { return slowCompile(p, t, o, 4, &calls); });
        QSignalSpy started(&w, &CompileWorker::started);
        QSignalSpy done(&w, &CompileWorker::finished);
        QElapsedTimer t;
        t.start();
        w.schedule({"f.py", "spec", {}}, 200, true);
        QCOMPARE(started.count(), 1);  // compiling at once, not after the 200 ms debounce
        QTRY_COMPARE_WITH_TIMEOUT(calls.load(), 1, 150);
        QVERIFY(w.busy());  // the result is held, not shown
        QCOMPARE(done.count(), 0);
        QVERIFY(done.wait(1000));
        const qint64 at = t.elapsed();
        QVERIFY2(at >= 199, qPrintable(QString::number(at)));
        QCOMPARE(done.count(), 1);
        QCOMPARE(QString::fromStdString(done.at(0).at(1).value<ResultPtr>()->cuda), QString("spec"));
        QVERIFY(!w.busy());
    }

    void speculativeBurstShowsOnlyTheLastText() {
        CompileWorker w;
        std::atomic<int> calls{0};
        w.setCompileFunction(
            [&](auto& p, auto& t, auto& o) { return slowCompile(p, t, o, 4, &calls); });
        QSignalSpy done(&w, &CompileWorker::finished);
        for (int i = 0; i < 6; ++i) {
            w.schedule({"f.py", "text" + std::to_string(i), {}}, 60, true);
            QTest::qWait(20);  // typing: 20 ms gaps, shorter than the 60 ms debounce
        }
        QVERIFY(done.wait(1000));
        QTest::qWait(150);
        QCOMPARE(done.count(), 1);  // one refresh for the burst
        QCOMPARE(QString::fromStdString(done.at(0).at(1).value<ResultPtr>()->cuda),
                 QString("text5"));
        QCOMPARE(done.at(0).at(0).toULongLong(), w.latestTag());
        QVERIFY2(calls.load() >= 2, qPrintable(QString::number(calls.load())));  // it speculated
    }

    void slowSpeculativeCompileIsShownWhenItEnds() {
        CompileWorker w;
        std::atomic<int> calls{0};
        w.setCompileFunction(
            [&](auto& p, auto& t, auto& o) { return slowCompile(p, t, o, 300, &calls); });
        QSignalSpy done(&w, &CompileWorker::finished);
        QElapsedTimer t;
        t.start();
        w.schedule({"f.py", "slow", {}}, 100, true);
        QVERIFY(done.wait(3000));
        // Started at once and shown when it ends (~300 ms), not restarted when the 100 ms debounce
        // fires: one compile. The upper bound is loose (a loaded 2-core CI box measured 449 ms
        // for the 300 ms compile); calls == 1 is what tells the two schedules apart.
        QVERIFY2(t.elapsed() >= 298 && t.elapsed() < 1500, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(calls.load(), 1);
    }

    void uiThreadStaysResponsive() {
        CompileWorker w;
        std::atomic<int> calls{0};
        w.setCompileFunction(
            [&](auto& p, auto& t, auto& o) { return slowCompile(p, t, o, 300, &calls); });
        // A 5 ms timer on the UI thread: the largest gap between its ticks is the longest block.
        QElapsedTimer clock;
        clock.start();
        qint64 last = 0, worst = 0;
        QTimer tick;
        QObject::connect(&tick, &QTimer::timeout, [&] {
            qint64 now = clock.elapsed();
            worst = std::max(worst, now - last);
            last = now;
        });
        tick.start(5);
        QSignalSpy done(&w, &CompileWorker::finished);
        w.schedule({"f.py", "x", {}}, 0);
        QVERIFY(done.wait(3000));
        QVERIFY2(worst < 50, qPrintable(QString("UI blocked %1 ms").arg(worst)));
    }
};

QTEST_MAIN(CompileWorkerTest)
#include "CompileWorkerTest.moc"
