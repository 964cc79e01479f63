// The Run panel (app/gui/RunPanel.h): the tilec command line it builds, and how it reports a
// passing run, a failing run, and a crashing child — with a stand-in tilec script, so no GPU and
// no real run is needed. The IDE must survive the crash and say what happened.
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/RunPanel.h"
#include "app/gui/Session.h"
#include "tests/gui/GuiTestUtil.h"

using namespace ts::gui;

class RunPanelTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString script(const QString& name, const QString& body) {
        return ts::gui::test::writeScript(m_dir.path(), name, body);
    }

private slots:
    void arguments() {
        QStringList a = tilecRunArguments("/t/gemm.py", {{"M", "256"}, {"dtype", "\"float16\""}},
                                          "cpu-interpreter", "cuda:sm_80");
        QCOMPARE(a, (QStringList{"run", "/t/gemm.py", "--param", "M=256", "--param",
                                 "dtype=\"float16\"", "--interp", "--target", "cuda:sm_80",
                                 "--time-limit", "0"}));
        a = tilecRunArguments("/t/gemm.py", {}, "gpu:0", "cuda:sm_90a");
        QCOMPARE(a, (QStringList{"run", "/t/gemm.py", "--target", "cuda:sm_90a"}));
        // The pragma's @kernel / @ref settings become --kernel / --ref (multi-kernel files).
        a = tilecRunArguments("/t/bwd.py",
                              {{"@kernel", "flash_bwd"}, {"@ref", "run.ref_program"}, {"M", "64"}},
                              "cpu-interpreter", "cuda:sm_80");
        QCOMPARE(a, (QStringList{"run", "/t/bwd.py", "--kernel", "flash_bwd", "--ref",
                                 "run.ref_program", "--param", "M=64", "--interp", "--target",
                                 "cuda:sm_80", "--time-limit", "0"}));
    }

    void summary() {
        QString log =
            "kernel k: grid (1, 1, 1)\nran on the CPU interpreter: 12.3 ms\n"
            "check against ref_program (float64, 0.00 s):\n"
            "  C: rel-L2 2.1e-04 (tol 1.0e-02), max-abs 3.9e-03, 0 NaN: PASS\nPASS\n";
        QCOMPARE(runSummary(log, 1.24), QString("C rel-L2 2.1e-04, max-abs 3.9e-03  ·  12.3 ms on "
                                                "the CPU interpreter  ·  1.2 s total"));
        QCOMPARE(runSummary("garbage", 0.5), QString("0.5 s total"));
    }

    void reportsPassFailAndCrash() {
        Session s;
        s.setDebounceMs(100000);
        s.openDocument(m_dir.filePath("k.py"), "# tilescope: M=64\nx = 1\n");
        RunPanel panel(s);

        // The child sees the editor's text (with the pragma) and the pragma's values as --param.
        panel.setTilec(script(
            "pass.sh", "echo \"args: $@\"; cat \"$2\"; echo 'C: rel-L2 1e-4: PASS'; exit 0"));
        QSignalSpy done(&panel, &RunPanel::finished);
        panel.run();
        QVERIFY(done.wait(10000));
        QCOMPARE(done.at(0).at(0).toBool(), true);
        QVERIFY(panel.statusText().contains("PASS"));
        QVERIFY(panel.logText().contains("--param M=64"));
        QVERIFY(panel.logText().contains("x = 1"));

        panel.setTilec(script("fail.sh", "echo 'C: rel-L2 0.9: FAIL'; exit 1"));
        panel.run();
        QVERIFY(done.wait(10000));
        QCOMPARE(done.at(1).at(0).toBool(), false);
        QVERIFY(panel.statusText().contains("FAILED"));

        panel.setTilec(script("crash.sh", "echo 'launching'; kill -SEGV $$"));
        panel.run();
        QVERIFY(done.wait(10000));
        QCOMPARE(done.at(2).at(0).toBool(), false);
        QVERIFY2(panel.statusText().contains("crashed"), qPrintable(panel.statusText()));

        // No ref_program on the tile interpreter: tilec exits 0 but compared nothing.
        panel.setTilec(script("unchecked.sh",
                              "echo 'ran on the CPU interpreter (tile-level): 1.0 "
                              "ms'; echo 'no ref_program: nothing to check "
                              "against'; echo 'NOT CHECKED'; exit 0"));
        panel.run();
        QVERIFY(done.wait(10000));
        QVERIFY2(panel.statusText().contains("NOT CHECKED"), qPrintable(panel.statusText()));
        QVERIFY(!panel.statusText().contains("PASS"));

        panel.setTilec(m_dir.filePath("does-not-exist"));
        panel.run();
        QTRY_COMPARE(done.count(), 5);
        QVERIFY(!panel.running());
    }

    void stopKillsAHangingRun() {
        Session s;
        s.openDocument(QString(), "x = 1\n");
        RunPanel panel(s);
        panel.setTilec(script("hang.sh", "sleep 30"));
        panel.run();
        QTRY_VERIFY(panel.running());
        panel.stop();
        QVERIFY(!panel.running());
        QVERIFY(panel.statusText().contains("Stopped"));
    }
};

QTEST_MAIN(RunPanelTest)
#include "RunPanelTest.moc"
