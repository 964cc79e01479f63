// The Compare panel (app/gui/ComparePanel.h) on a stored result set: tests/gui/fixtures/
// compare-store is the results store of `tilec tune tests/e2e/programs/tune_gemm.py --interp
// -p M=128 -p N=128 -p K=128` (13 variants on the tile interpreter, the skip_k=1 one rejected as a
// wrong result; program text under sources/). Checks the table's values against the records and
// hand-derived shared-memory sizes, best highlighting, baseline deltas, sorting, and the IR/CUDA
// diff of two selected variants. With TS_COMPARE_SHOT=FILE.png it also saves a screenshot.
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>
#include <cmath>

#include "app/gui/ComparePanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/Session.h"
#include "visualizer/widgets/BarChartWidget.h"
#include "visualizer/widgets/DiffView.h"

using namespace ts;
using namespace ts::gui;

namespace {
const QString kStore = QStringLiteral(TS_SOURCE_DIR) + "/tests/gui/fixtures/compare-store/results.jsonl";

/// Model row whose variant label contains all of `parts`.
int rowWith(const viz::VariantCompare& c, std::initializer_list<const char*> parts) {
    for (size_t r = 0; r < c.rows().size(); ++r) {
        bool all = true;
        for (const char* p : parts) all &= c.rows()[r].label.find(p) != std::string::npos;
        if (all) return int(r);
    }
    return -1;
}
}  // namespace

class ComparePanelTest : public QObject {
    Q_OBJECT
private slots:
    void tableFromTheStoredTuneSession() {
        Session s;
        ComparePanel p(s);
        QVERIFY(p.loadStore(kStore));
        QCOMPARE(p.resultSets().size(), 1);
        QVERIFY(p.resultSets()[0].contains("13 variants"));
        const viz::VariantCompare* c = p.compare();
        QVERIFY(c);
        QCOMPARE(int(c->rows().size()), 13);
        QCOMPARE(p.model()->rowCount(), 13);
        const int time = c->column("time_ms"), smem = c->column("smem_bytes");
        QVERIFY(time == 0 && smem > 0);
        QVERIFY(c->column("predicted_ld_conflicts") > 0);

        // Shared memory of the pipelined tiles, by hand: (block_M + block_N) * block_K(32) * 2 B
        // (fp16) per stage, times num_stages.
        const int r64x64s2 = rowWith(*c, {"block_M=64 ", "block_N=64 ", "num_stages=2"});
        const int r128x128s4 = rowWith(*c, {"block_M=128 ", "block_N=128 ", "num_stages=4"});
        QVERIFY(r64x64s2 >= 0 && r128x128s4 >= 0);
        QCOMPARE(c->rows()[size_t(r64x64s2)].values[size_t(smem)], (64 + 64) * 32 * 2 * 2.0);
        QCOMPARE(c->rows()[size_t(r128x128s4)].values[size_t(smem)], (128 + 128) * 32 * 2 * 4.0);

        // The wrong variant: its status in red, no values, never the best.
        const int wrong = rowWith(*c, {"skip_k=1"});
        QVERIFY(wrong >= 0);
        QCOMPARE(QString::fromStdString(c->rows()[size_t(wrong)].status), QString("wrong_result"));
        QVERIFY(std::isnan(c->rows()[size_t(wrong)].values[size_t(time)]));
        QCOMPARE(p.model()->data(p.model()->index(wrong, 2), Qt::DisplayRole).toString(), QString("-"));
        QVERIFY(p.model()->data(p.model()->index(wrong, 0), Qt::ToolTipRole).toString().contains("C: rel-L2"));

        // Best time = the variant the tuner marked best (same rule: fastest correct).
        const int best = c->bestRow(time);
        QVERIFY(best >= 0);
        QVERIFY(c->rows()[size_t(best)].record["tune"]["best"].get<bool>());
        const QModelIndex bi = p.model()->index(best, CompareTableModel::kFixedColumns + time);
        QCOMPARE(p.model()->data(bi, Qt::BackgroundRole).value<QColor>(), QColor("#dafbe1"));
        QVERIFY(p.model()->data(bi, Qt::FontRole).value<QFont>().bold());
        QCOMPARE(p.chart()->best() >= 0, true);
        QCOMPARE(p.chart()->bars().size(), 12);  // ok variants only

        // Sorting the time column ascending puts the best first.
        p.table()->sortByColumn(CompareTableModel::kFixedColumns + time, Qt::AscendingOrder);
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(p.table()->model());
        QCOMPARE(proxy->mapToSource(proxy->index(0, 0)).row(), best);
    }

    void deltasAgainstABaseline() {
        Session s;
        ComparePanel p(s);
        QVERIFY(p.loadStore(kStore));
        const viz::VariantCompare* c = p.compare();
        const int smem = c->column("smem_bytes");
        const int a = rowWith(*c, {"block_M=64 ", "block_N=64 ", "num_stages=2"});
        const int b = rowWith(*c, {"block_M=128 ", "block_N=128 ", "num_stages=4"});
        p.setBaselineRow(a + 1);  // combo entry 0 is "(none)"
        p.setShowDeltas(true);
        // 65536 B vs 16384 B: +300 %.
        QCOMPARE(p.model()->data(p.model()->index(b, CompareTableModel::kFixedColumns + smem), Qt::DisplayRole).toString(),
                 QString("+300.0 %"));
        QVERIFY(p.model()->data(p.model()->index(a, 1), Qt::DisplayRole).toString().contains("(baseline)"));
        p.setShowDeltas(false);
        QCOMPARE(p.model()->data(p.model()->index(b, CompareTableModel::kFixedColumns + smem), Qt::DisplayRole).toString(),
                 QString("65536"));
    }

    void twoVariantsShowPassAndCudaDiffs() {
        Session s;
        ComparePanel p(s);
        QVERIFY(p.loadStore(kStore));
        const viz::VariantCompare* c = p.compare();
        // Same tiles, 2 vs 3 stages: the pipeline passes and the CUDA differ.
        const int a = rowWith(*c, {"block_M=64 ", "block_N=64 ", "num_stages=2"});
        const int b = rowWith(*c, {"block_M=64 ", "block_N=64 ", "num_stages=3"});
        p.compareRows(a, b);
        const viz::VariantDiff* d = p.variantDiff();
        QVERIFY(d);
        QVERIFY2(d->error.empty(), d->error.c_str());
        QVERIFY(d->passes.size() >= 8);
        QCOMPARE(p.passList()->count(), int(d->passes.size()) + 1);
        int inject = -1;
        for (size_t i = 0; i < d->passes.size(); ++i)
            if (d->passes[i].pass == "inject-pipeline") inject = int(i);
        QVERIFY(inject >= 0);
        QVERIFY(d->passes[size_t(inject)].changedLines > 0);
        QVERIFY(d->cuda.changed + d->cuda.inserted + d->cuda.deleted > 0);
        // The list opens on the first pass that differs, shown in the diff view.
        QVERIFY(p.passList()->currentRow() >= 0);
        QVERIFY(!p.diffView()->diff().identical());
        // Metric deltas beside it: shared memory 16384 -> 24576 B is +50 %.
        const int smem = c->column("smem_bytes");
        QCOMPARE(p.deltaTable()->item(smem, 3)->text(), QString("+50.0 %"));
        // The generated CUDA entry (last) shows the CUDA diff.
        p.passList()->setCurrentRow(p.passList()->count() - 1);
        QCOMPARE(p.diffView()->diff().newLines.size(), d->cuda.newLines.size());
    }

    void registeredAsADockOfTheMainWindow() {
        // The factory reads the default store: point it at the fixture.
        qputenv("TILESCOPE_RESULTS", kStore.toUtf8());
        MainWindow w;
        QVERIFY(w.dock("compare"));
        auto* p = qobject_cast<ComparePanel*>(w.panel("compare"));
        QVERIFY(p);
        QCOMPARE(p->model()->rowCount(), 13);
        qunsetenv("TILESCOPE_RESULTS");
    }

    void emptyStore() {
        Session s;
        ComparePanel p(s);
        QTemporaryDir dir;
        QVERIFY(!p.loadStore(dir.filePath("none.jsonl")));
        QVERIFY(p.statusText().contains("No results"));
        QCOMPARE(p.model()->rowCount(), 0);
    }

    void screenshot() {
        const QString out = qEnvironmentVariable("TS_COMPARE_SHOT");
        if (out.isEmpty()) QSKIP("set TS_COMPARE_SHOT=FILE.png to save the panel");
        Session s;
        ComparePanel p(s);
        p.resize(1500, 900);
        p.show();
        QVERIFY(p.loadStore(kStore));
        const viz::VariantCompare* c = p.compare();
        p.setBaselineRow(rowWith(*c, {"block_M=128 ", "block_N=128 ", "num_stages=3", "skip_k=0"}) + 1);
        p.setChartColumn(c->column("smem_bytes"));
        const int a = rowWith(*c, {"block_M=64 ", "block_N=64 ", "num_stages=2"});
        const int b = rowWith(*c, {"block_M=64 ", "block_N=64 ", "num_stages=3"});
        p.table()->selectRow(a);
        p.table()->selectionModel()->select(p.table()->model()->index(b, 0),
                                            QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QTest::qWait(300);
        QVERIFY(p.grab().save(out, "PNG"));
    }
};

QTEST_MAIN(ComparePanelTest)
#include "ComparePanelTest.moc"
