// The Bank panel's predicted-vs-measured counters (app/gui/BankPanel.h, viz::compareCounters)
// over a real Session and real H200 measurements: tests/gui/fixtures/banks/*-measured.json were
// written by `tilec banks transpose.py [--param pad=1] --measure --json` on an NVIDIA H200
// (GH100, 2026-11-29) for the copy of bench/banks/transpose.py next to them, so the source hash
// matches and the test does not depend on bench/ staying unchanged. Their "source_hash" was
// recomputed after a fix of the FNV-1a offset basis (tests/unit/BankCompareTest.cpp); every
// other value is as the H200 run wrote it.
//
// Hand-derived predictions for transpose.py (M = N = 1024, block = 32, pad = 0, float32, 256
// threads; 32 x 32 = 1024 blocks): the column read S[j, i] gives each thread 4 consecutive j of
// one i (lane l: i = l / 8, j = 4 (l % 8) + v), so a warp's ld.shared.b32 hits word j*32 + i,
// bank i: 8 lanes share each of 4 banks with distinct words -> 8 wavefronts, ideal 1. A block
// executes it 8 warps x 4 (v) = 32 times: 256 wavefronts, 224 excess per block; x1024 blocks =
// 262144 ld wavefronts and 229376 ld conflicts -- what the H200 measured.
#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/BankPanel.h"
#include "app/gui/RunPanel.h"
#include "app/gui/Session.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::gui;

namespace {
const QString kFixtures = (QString::fromUtf8(TS_SOURCE_DIR) + QStringLiteral("/tests/gui/fixtures/banks"));

QString readText(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QString::fromUtf8(f.readAll());
}

/// Opens the fixture copy of transpose.py for the H200's target and waits for the bank table.
bool openTranspose(Session& s, BankPanel& p) {
    s.setTarget("cuda:sm_90a");  // tilec's default on the H200 that measured the fixtures
    s.openDocument(kFixtures + "/transpose.py", readText(kFixtures + "/transpose.py"));
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 20000) {
        QTest::qWait(5);
        if (s.result() && !s.compiling() && p.model()->rowCount() >= 2) return true;
    }
    return false;
}

int rowOf(const BankCompareModel* m, const std::string& key) {
    for (int i = 0; i < m->rowCount(); ++i)
        if (m->row(i).key == key) return i;
    return -1;
}

QString cell(const BankCompareModel* m, int row, int col) {
    return m->index(row, col).data(Qt::DisplayRole).toString();
}
}  // namespace

class BankMeasuredTest : public QObject {
    Q_OBJECT
private slots:
    void predictedOnlyBeforeLoading() {
        Session s;
        BankPanel p(s);
        QVERIFY(openTranspose(s, p));
        auto* m = p.compareModel();
        QCOMPARE(m->rowCount(), 5);
        QVERIFY(!m->hasMeasured());
        QVERIFY(!m->mismatch());
        const int ld = rowOf(m, "ld_conflicts");
        QCOMPARE(m->row(ld).predicted, 229376.0);
        QCOMPARE(cell(m, ld, BankCompareModel::Measured), QString("—"));
        QVERIFY(!m->row(ld).agree.has_value());
    }

    void matchingMeasurementSideBySide() {
        Session s;
        BankPanel p(s);
        QVERIFY(openTranspose(s, p));
        QString why;
        QVERIFY2(p.loadMeasured(kFixtures + "/transpose-measured.json", &why), qPrintable(why));
        auto* m = p.compareModel();
        QVERIFY(m->hasMeasured());
        QCOMPARE(m->match().status, viz::MeasuredMatch::Matches);
        QVERIFY(!m->mismatch());
        QVERIFY(p.measuredBannerText().isEmpty());

        const int ld = rowOf(m, "ld_conflicts"), ldw = rowOf(m, "ld_wavefronts");
        QCOMPARE(m->row(ld).predicted, 229376.0);
        QCOMPARE(*m->row(ld).measured, 229376.0);
        QCOMPARE(*m->row(ld).agree, true);
        QCOMPARE(m->row(ldw).predicted, 262144.0);
        QCOMPARE(*m->row(ldw).measured, 262144.0);
        QVERIFY(cell(m, ld, BankCompareModel::Agree).contains("agree"));
        // Stores: measured as written by the H200; the verdict follows the 2%-or-64 rule.
        const int st = rowOf(m, "st_conflicts"), stw = rowOf(m, "st_wavefronts");
        QCOMPARE(*m->row(st).measured, 0.0);
        QCOMPARE(*m->row(stw).measured, 32768.0);
        QCOMPARE(*m->row(st).agree, std::abs(m->row(st).predicted) <= 64);
        // GH100 offers no ldmatrix wavefront counter: not measured, no verdict.
        const int ldsm = rowOf(m, "ldsm_wavefronts");
        QVERIFY(!m->row(ldsm).measured.has_value());
        QVERIFY(!m->row(ldsm).agree.has_value());
        QCOMPARE(cell(m, ldsm, BankCompareModel::Measured), QString("n/a"));

        // A parameter edit makes the same measurement a mismatch, and undoing it matches again
        // (the pragma line the edit writes is not part of the source hash).
        s.setParam("block", "16");
        QTRY_VERIFY_WITH_TIMEOUT(m->mismatch(), 20000);
        QVERIFY(p.measuredBannerText().contains("block = 32 when measured, 16 now"));
        s.setParam("block", "");
        QTRY_VERIFY_WITH_TIMEOUT(!m->mismatch(), 20000);
        QCOMPARE(m->match().status, viz::MeasuredMatch::Matches);
        // So does another target.
        s.setTarget("cuda:sm_80");
        QTRY_VERIFY_WITH_TIMEOUT(m->mismatch(), 20000);
        QVERIFY(p.measuredBannerText().contains("target = cuda:sm_90a when measured"));
    }

    void mismatchedParametersAreFlagged() {
        Session s;
        BankPanel p(s);
        QVERIFY(openTranspose(s, p));
        // Measured with pad=1 (the textbook fix: conflict-free), shown with pad=0.
        QVERIFY(p.loadMeasured(kFixtures + "/transpose-pad1-measured.json"));
        auto* m = p.compareModel();
        QVERIFY(m->mismatch());
        QVERIFY(p.measuredBannerText().contains("pad = 1 when measured, 0 now"));
        const int ld = rowOf(m, "ld_conflicts");
        QCOMPARE(*m->row(ld).measured, 0.0);
        QCOMPARE(*m->row(ld).agree, false);  // 229376 predicted for pad=0
        QVERIFY(m->disagreements() >= 1);
        // Showing pad=1 makes it match, and the prediction agrees: padding removes the conflicts.
        s.setParam("pad", "1");
        QTRY_VERIFY_WITH_TIMEOUT(!m->mismatch() && m->row(ld).predicted == 0.0, 20000);
        QCOMPARE(*m->row(ld).agree, true);
        QVERIFY(p.measuredBannerText().isEmpty());
    }

    void olderFilesLoadButCannotBeChecked() {
        // Written by the H200 run of bench/h200_banks.sh before tilec recorded parameters.
        Session s;
        BankPanel p(s);
        QVERIFY(openTranspose(s, p));
        QVERIFY(p.loadMeasured(QString::fromUtf8(TS_SOURCE_DIR) +
                               "/bench/results/banks-2026-11-29/banks-transpose-f32.json"));
        auto* m = p.compareModel();
        QCOMPARE(m->match().status, viz::MeasuredMatch::Unknown);
        QVERIFY(!m->mismatch());
        QVERIFY(p.measuredBannerText().contains("Cannot check"));
        QCOMPARE(*m->row(rowOf(m, "ld_conflicts")).measured, 229376.0);  // from raw metrics
    }

    void rejectsFilesWithoutMeasurement() {
        Session s;
        BankPanel p(s);
        QTemporaryDir dir;
        QFile f(dir.filePath("pred.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"kernel": "transpose", "blocks": 1024, "predicted": {"ld_conflicts": 1}})");
        f.close();
        QString why;
        QVERIFY(!p.loadMeasured(f.fileName(), &why));
        QVERIFY2(why.contains("without --measure"), qPrintable(why));
        QVERIFY(!p.loadMeasured(dir.filePath("missing.json"), &why));
        QVERIFY(!p.compareModel()->hasMeasured());
    }

    void runPanelAnnouncementLoadsAndNewDocumentClears() {
        Session s;
        BankPanel p(s);
        QVERIFY(openTranspose(s, p));
        s.announceMeasuredBanks(kFixtures + "/transpose-measured.json");
        QVERIFY(p.compareModel()->hasMeasured());
        s.openDocument(QString(), readText(kFixtures + "/transpose.py"));
        QVERIFY(!p.compareModel()->hasMeasured());
    }

    void gpuRunMeasuresBanksIntoThePanel() {
        // The Run panel's chain with a stand-in tilec (no GPU here): `run` passes, `banks`
        // writes the H200 fixture to its --json path and logs its arguments.
        QTemporaryDir dir;
        const QString fake = dir.filePath("tilec"), argLog = dir.filePath("args.txt");
        QFile sh(fake);
        QVERIFY(sh.open(QIODevice::WriteOnly));
        sh.write(
            QStringLiteral("#!/bin/sh\n"
                           "echo \"$@\" >> '%1'\n"
                           "if [ \"$1\" = run ]; then echo 'ran on FakeGPU: 1.0 ms'; exit 0; fi\n"
                           "while [ $# -gt 1 ]; do [ \"$1\" = --json ] && cp '%2' \"$2\"; "
                           "shift; done\n")
                .arg(argLog, kFixtures + "/transpose-measured.json")
                .toUtf8());
        sh.close();
        sh.setPermissions(sh.permissions() | QFile::ExeOwner);
        Session s;
        BankPanel p(s);
        RunPanel run(s);
        run.setTilec(fake);
        run.targetBox()->insertItem(0, "GPU 0: FakeGPU (sm_90a)", "gpu:0");
        run.targetBox()->setCurrentIndex(0);
        QVERIFY(openTranspose(s, p));
        QSignalSpy measured(&run, &RunPanel::banksMeasured);
        run.run();
        QVERIFY(measured.wait(20000));
        QVERIFY(!measured.first().first().toString().isEmpty());
        QVERIFY(p.compareModel()->hasMeasured());
        QCOMPARE(p.compareModel()->match().status, viz::MeasuredMatch::Matches);
        QStringList calls = readText(argLog).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(calls.size(), 2);
        QVERIFY(calls[0].startsWith("run "));
        QVERIFY(calls[1].startsWith("banks "));
        QVERIFY(calls[1].contains("--target cuda:sm_90a --measure --json"));
        // Not after a run on the interpreter.
        run.targetBox()->setCurrentIndex(run.targetBox()->findData("cpu-interpreter"));
        QSignalSpy done(&run, &RunPanel::finished);
        run.run();
        QVERIFY(done.wait(20000));
        QTest::qWait(200);
        QCOMPARE(readText(argLog).split('\n', Qt::SkipEmptyParts).size(), 3);
    }

    void banksCommandLine() {
        QStringList a = tilecBanksArguments("/tmp/x/transpose.py", {{"pad", "1"}, {"block", "16"}},
                                            "cuda:sm_90a", "/tmp/x/banks-measured.json");
        QCOMPARE(a, QStringList({"banks", "/tmp/x/transpose.py", "--param", "block=16", "--param",
                                 "pad=1", "--target", "cuda:sm_90a", "--measure", "--json",
                                 "/tmp/x/banks-measured.json"}));
    }

    void agreementRule() {
        // bench/h200_banks.sh: equal, or within 0.5% of the op's measured wavefronts.
        QVERIFY(viz::countersAgree(229376, 229376, 262144));
        QVERIFY(viz::countersAgree(0, 1310, 262144));
        QVERIFY(!viz::countersAgree(0, 1311, 262144));
        QVERIFY(!viz::countersAgree(5, -1, 1000));  // -1: tilec's "not measured"
    }
};

QTEST_MAIN(BankMeasuredTest)
#include "BankMeasuredTest.moc"
