// The Compare panel (app/gui/ComparePanel.h) on a stored result set: tests/gui/fixtures/
// compare-store is the results store of `tilec tune tests/e2e/programs/tune_gemm.py --interp
// -p M=128 -p N=128 -p K=128` (13 variants on the tile interpreter, the skip_k=1 one rejected as a
// wrong result; program text under sources/). Checks the table's values against the records and
// hand-derived shared-memory sizes, best highlighting, baseline deltas, sorting, and the IR/CUDA
// diff of two selected variants. Also: a sweep typed in the panel runs the real tilec tune (on
// the interpreter) and shows its session; Export writes CSV/JSON; the roofline of GPU-timed
// profile records. With TS_COMPARE_SHOT=FILE.png it also saves a screenshot.
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTabWidget>
#include <QTableWidget>
#include <QComboBox>
#include <QHeaderView>
#include <QtTest>
#include <Qsci/qsciscintilla.h>
#include <cmath>

#include "app/gui/ComparePanel.h"
#include "app/gui/MainWindow.h"
#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "visualizer/widgets/DiffView.h"
#include "visualizer/widgets/PictureView.h"
#include "app/gui/TuneSweep.h"
#include "profiler/store/ResultsStore.h"
#include "visualizer/core/Roofline.h"
#include "visualizer/widgets/BarChartWidget.h"
#include "visualizer/widgets/DiffView.h"
#include "visualizer/widgets/RooflineWidget.h"
#include "tests/support/SourceDir.h"

using namespace ts;
using namespace ts::gui;

namespace {
const QString kStore = QString::fromUtf8(TS_SOURCE_DIR) + "/tests/gui/fixtures/compare-store/results.jsonl";

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

    void longLabelsDoNotWidenTheWindow() {
        // Fresh-user trial 2026-12-02: the combos were as wide as their longest item (a whole
        // variant config), so the Compare dock asked for 1818 px and the main window opened
        // 2557 px wide on a 1920x1080 screen, in every workspace.
        Session s;
        ComparePanel p(s);
        QVERIFY(p.loadStore(kStore));
        QVERIFY2(p.minimumSizeHint().width() <= 700,
                 qPrintable(QString::number(p.minimumSizeHint().width())));
    }

    // New-user trial: in Profile & Compare the table's last columns and the set's device were
    // cut off at the edge. Columns now size to their contents up to kMaxColumnPx and elide
    // beyond; every header has a tooltip with its whole name, unit and direction; the set combo
    // and each of its items have the whole set name, device included, as their tooltip.
    void columnsSizeToContentOrElideWithTooltips() {
        Session s;
        ComparePanel p(s);
        p.resize(700, 500);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QVERIFY(p.loadStore(kStore));
        QTest::qWait(20);
        QHeaderView* h = p.table()->horizontalHeader();
        QAbstractItemModel* m = p.table()->model();
        QVERIFY(m->columnCount() > 4);
        for (int c = 0; c < m->columnCount(); ++c) {
            QVERIFY2(h->sectionSize(c) <= CompareTableModel::kMaxColumnPx,
                     qPrintable(QString("column %1: %2 px").arg(c).arg(h->sectionSize(c))));
            const QString label = m->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            const QString tip = m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            QVERIFY2(!tip.isEmpty() && tip.contains(label), qPrintable(label + " | " + tip));
        }
        const int time = CompareTableModel::kFixedColumns + p.compare()->column("time_ms");
        QVERIFY(m->headerData(time, Qt::Horizontal, Qt::ToolTipRole).toString().contains("lower is better"));
        // The variant column: a whole config is longer than the cap; its cells' tooltips have it.
        QVERIFY(m->data(m->index(0, 1), Qt::ToolTipRole).toString().contains("block_M="));
        QComboBox* sets = nullptr;
        for (QComboBox* c : p.findChildren<QComboBox*>())
            if (c->count() && c->itemText(0).startsWith("tune ")) sets = c;
        QVERIFY(sets);
        QVERIFY(sets->itemData(0, Qt::ToolTipRole).toString().contains("cpu-interpreter"));
        QVERIFY(sets->toolTip().contains("cpu-interpreter"));
        // Wide enough (1600 px, the Compare dock of a 1920 screen): the table gets the width of
        // all its columns, the charts the rest (the old fixed 3:2 split cut the last columns).
        p.resize(1600, 500);
        QTest::qWait(20);
        QVERIFY2(p.table()->width() >= p.tableWidthNeeded(),
                 qPrintable(QString("table %1 px, needs %2").arg(p.table()->width()).arg(p.tableWidthNeeded())));
    }

    // Dark theme (screenshot 2026-12-03d): the best cells' light green kept the palette's light
    // text (1.1:1, the values invisible) and the variant diff was a white pane. Best and library
    // cells now carry dark text (>= 4.5:1 WCAG), and the diff view follows the theme.
    void darkThemeKeepsBestCellsAndDiffReadable() {
        ThemeManager::instance().setTheme("dark");
        Session s;
        ComparePanel p(s);
        QVERIFY(p.loadStore(kStore));
        const int time = p.compare()->column("time_ms");
        const int best = p.compare()->bestRow(time);
        QVERIFY(best >= 0);
        const QModelIndex bi = p.model()->index(best, CompareTableModel::kFixedColumns + time);
        const QColor bg = p.model()->data(bi, Qt::BackgroundRole).value<QColor>();
        const QVariant fg = p.model()->data(bi, Qt::ForegroundRole);
        QVERIFY(fg.isValid());
        QVERIFY2(viz::contrastRatio(fg.value<QColor>(), bg) >= 4.5,
                 qPrintable(fg.value<QColor>().name() + " on " + bg.name()));
        QCOMPARE(p.diffView()->left()->paper(), theme().paper);
        QCOMPARE(p.diffView()->unifiedView()->paper(), theme().paper);
        ThemeManager::instance().setTheme("light");
        QCOMPARE(p.diffView()->left()->paper(), theme().paper);
    }

    void uncheckedVariantsAreNeverTheBest() {
        // Fresh-user defect D24: the fastest of a session's variants that no reference checked
        // (record "check": "skipped") was called "best time" and painted green; `tilec tune`
        // says "unchecked" and picks only checked ones. The fixture's records, with the fastest
        // one's check removed, then every one's. TS_COMPARE_UNCHECKED_SHOT=FILE.png saves it.
        QFile f(kStore);
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::vector<nlohmann::json> recs;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (!line.trimmed().isEmpty()) recs.push_back(nlohmann::json::parse(line.toStdString()));
        size_t fastest = recs.size();
        for (size_t i = 0; i < recs.size(); ++i)
            if (recs[i]["status"] == "ok" &&
                (fastest == recs.size() || recs[i]["time_ms"] < recs[fastest]["time_ms"]))
                fastest = i;
        QVERIFY(fastest < recs.size());
        const std::string fastestLabel = viz::VariantCompare(std::vector<nlohmann::json>{recs[fastest]}).rows()[0].label;
        auto writeStore = [&](const QString& path) {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            for (const auto& r : recs) out.write(QByteArray::fromStdString(r.dump() + "\n"));
        };
        const QString dir = QDir::temp().filePath("ts_compare_unchecked");
        QDir().mkpath(dir);

        recs[fastest]["check"] = "skipped";
        writeStore(dir + "/one.jsonl");
        Session s;
        ComparePanel p(s);
        p.resize(1500, 700);
        QVERIFY(p.loadStore(dir + "/one.jsonl"));
        const viz::VariantCompare* c = p.compare();
        const int time = c->column("time_ms");
        const int row = rowWith(*c, {fastestLabel.c_str()});
        QVERIFY(row >= 0);
        QCOMPARE(p.model()->data(p.model()->index(row, 0), Qt::DisplayRole).toString(),
                 QString("unchecked"));
        const int best = c->bestRow(time);
        QVERIFY(best >= 0 && best != row);
        QVERIFY(c->rows()[size_t(best)].values[size_t(time)] >
                c->rows()[size_t(row)].values[size_t(time)]);
        QVERIFY(p.model()->data(p.model()->index(row, CompareTableModel::kFixedColumns + time),
                                Qt::BackgroundRole)
                    .isNull());
        QVERIFY(p.statusText().contains(
            QString::fromStdString("best time: " + c->rows()[size_t(best)].label)));

        for (auto& r : recs)
            if (r["status"] == "ok") r["check"] = "skipped";
        writeStore(dir + "/all.jsonl");
        QVERIFY(p.loadStore(dir + "/all.jsonl"));
        c = p.compare();
        QCOMPARE(c->bestRow(time), -1);
        QCOMPARE(p.chart()->best(), -1);
        QVERIFY2(p.statusText().contains("no best time: 12 unchecked (no reference"),
                 qPrintable(p.statusText()));
        QVERIFY(!p.statusText().contains("; best time:"));
        if (const QString shot = qEnvironmentVariable("TS_COMPARE_UNCHECKED_SHOT"); !shot.isEmpty()) {
            p.show();
            QTest::qWait(300);
            QVERIFY(p.grab().save(shot, "PNG"));
        }
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

    void sweepParsingAndArguments() {
        QString why;
        auto axes = parseSweep("block_M=64,128; num_stages=2,3  threads=128", &why);
        QVERIFY(axes);
        QCOMPARE(int(axes->size()), 3);
        QCOMPARE((*axes)[0].name, QString("block_M"));
        QCOMPARE((*axes)[0].values, QStringList({"64", "128"}));
        QCOMPARE((*axes)[2].values, QStringList({"128"}));
        QVERIFY(!parseSweep("block_M", &why) && why.contains("NAME=V1,V2"));
        QVERIFY(!parseSweep("block_M=", &why) && why.contains("no values"));
        QVERIFY(!parseSweep("a=1 a=2", &why) && why.contains("twice"));
        QVERIFY(!parseSweep("  ", &why));
        // The pragma's block_M is dropped (the sweep sets it), its M kept.
        const QStringList args = tilecTuneArguments(
            "/t/gemm.py", {{"M", "128"}, {"block_M", "32"}}, *parseSweep("block_M=64,128", &why), true);
        QCOMPARE(args, QStringList({"tune", "/t/gemm.py", "--param", "M=128", "--sweep",
                                    "block_M=64,128", "--interp"}));
    }

    void sweepFromThePanelRunsTilecTune() {
        // The real tilec (next to the test in the build tree) tunes samples/gemm.py at 128^3 on
        // the tile interpreter: 2 x 2 variants, each checked against the float64 ref_program.
        QTemporaryDir dir;
        const QString gemm = QString::fromUtf8(TS_SOURCE_DIR) + "/samples/gemm.py";
        QFile src(gemm);
        QVERIFY(src.open(QIODevice::ReadOnly));
        Session s;
        s.openDocument(gemm, QString::fromUtf8(src.readAll()));
        for (const char* n : {"M", "N", "K"}) s.setParam(n, "128");
        ComparePanel p(s);
        QVERIFY(!p.loadStore(dir.filePath("results.jsonl")));  // empty: the sweep fills it
        QVERIFY(!p.startSweep("block_M", true));
        QVERIFY(p.statusText().contains("NAME=V1,V2"));
        QVERIFY(p.startSweep("block_M=64,128 num_stages=2,3", true));
        QVERIFY(p.sweepRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!p.sweepRunning(), 120000);
        QVERIFY2(p.sweepLog().contains("best:"), qPrintable(p.sweepLog()));
        QCOMPARE(p.resultSets().size(), 1);
        QVERIFY2(p.resultSets()[0].contains("gemm.py, 4 variants"), qPrintable(p.resultSets()[0]));
        const viz::VariantCompare* c = p.compare();
        QVERIFY(c);
        QCOMPARE(int(c->rows().size()), 4);
        const int smem = c->column("smem_bytes");
        for (const auto& row : c->rows()) {
            QVERIFY2(row.ok(), row.reason.c_str());
            QCOMPARE(QString::fromStdString(row.record.value("check", std::string())), QString("pass"));
            QCOMPARE(QString::fromStdString(row.record["params"]["M"].get<std::string>()), QString("128"));
        }
        // Shared memory by hand: (block_M + block_N(128)) x block_K(32) x 2 B x num_stages.
        const int r64s2 = rowWith(*c, {"block_M=64 ", "num_stages=2"});
        const int r128s3 = rowWith(*c, {"block_M=128 ", "num_stages=3"});
        QVERIFY(r64s2 >= 0 && r128s3 >= 0);
        QCOMPARE(c->rows()[size_t(r64s2)].values[size_t(smem)], (64 + 128) * 32 * 2 * 2.0);
        QCOMPARE(c->rows()[size_t(r128s3)].values[size_t(smem)], (128 + 128) * 32 * 2 * 3.0);
        // The program text was kept: two variants diff (2 vs 3 stages).
        const int r64s3 = rowWith(*c, {"block_M=64 ", "num_stages=3"});
        p.compareRows(r64s2, r64s3);
        QVERIFY(p.variantDiff() && p.variantDiff()->error.empty());
        QVERIFY(p.variantDiff()->cuda.changed + p.variantDiff()->cuda.inserted > 0);
    }

    void exportWritesCsvAndJson() {
        Session s;
        ComparePanel p(s);
        QVERIFY(p.loadStore(kStore));
        QTemporaryDir dir;
        QString why;
        QVERIFY2(p.exportSet(dir.filePath("set.json"), &why), qPrintable(why));
        QFile j(dir.filePath("set.json"));
        QVERIFY(j.open(QIODevice::ReadOnly));
        const auto arr = nlohmann::json::parse(j.readAll().toStdString());
        QVERIFY(arr.is_array());
        QCOMPARE(int(arr.size()), 13);
        QCOMPARE(QString::fromStdString(arr[0]["tune"]["session"].get<std::string>()),
                 QString("20261202T005250-10192-0"));
        QVERIFY(p.exportSet(dir.filePath("set.csv"), &why));
        QFile csv(dir.filePath("set.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 14);  // header + 13 variants
        QVERIFY(lines[0].startsWith("id,date,kind,status,file,kernel,params"));
        QVERIFY(lines[0].contains("smem_bytes"));
        QCOMPARE(lines.filter("wrong_result").size(), 1);
        QVERIFY(!p.exportSet(dir.filePath("no/such/dir/x.csv"), &why));
        QVERIFY(why.contains("Cannot write"));
    }

    void rooflineOfProfileRecords() {
        // Two profile records of a 1024^3 fp16 GEMM on the H200 (as tilec profile stores them):
        // 2^31 FLOP over 6 MiB of DRAM traffic = 341.33 FLOP/B; 0.01 ms = 214.75 TFLOP/s.
        QTemporaryDir dir;
        rt::ResultsStore store(dir.filePath("results.jsonl").toStdString());
        for (double t : {0.01, 0.02}) {
            nlohmann::json r = {{"kind", "profile"}, {"status", "ok"}, {"check", "pass"},
                                {"device", "NVIDIA H200"}, {"flops", 2.0 * 1024 * 1024 * 1024},
                                {"bytes", 6.0 * 1024 * 1024}, {"time_ms", t},
                                {"params", {{"block_M", t < 0.015 ? "128" : "64"}}},
                                {"metrics", {{"dram_read_bytes", 4.0 * 1024 * 1024},
                                             {"dram_write_bytes", 2.0 * 1024 * 1024}}}};
            QVERIFY(store.append(r));
        }
        Session s;
        ComparePanel p(s);
        p.resize(1200, 800);
        QVERIFY(p.loadStore(dir.filePath("results.jsonl")));
        QVERIFY(p.resultSets().last().contains("profile and bench records (2)"));
        const viz::Roofline& rl = p.roofline()->roofline();
        QCOMPARE(int(rl.points.size()), 2);
        QVERIFY(rl.peaks);
        QCOMPARE(rl.peaks->dramGBps, 4800.0);
        QVERIFY(std::abs(rl.points[0].intensity - 341.333) < 1e-3);
        QVERIFY(std::abs(rl.points[0].tflops - 214.748) < 1e-3);
        QVERIFY(rl.points[0].measuredBytes);
        // The faster variant is the highest point; a click on it selects its table row.
        p.roofline()->resize(600, 400);
        QVERIFY(p.roofline()->pointPosition(0).y() < p.roofline()->pointPosition(1).y());
        QTest::mouseClick(p.roofline(), Qt::LeftButton, {}, p.roofline()->pointPosition(1).toPoint());
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(p.table()->model());
        const auto sel = p.table()->selectionModel()->selectedRows();
        QCOMPARE(sel.size(), 1);
        QCOMPARE(proxy->mapToSource(sel[0]).row(), 1);
        // The interpreter session of the fixture has no roofline (interpreter times).
        QVERIFY(p.loadStore(kStore));
        QCOMPARE(int(p.roofline()->roofline().points.size()), 0);
    }

    void libraryBaselineRow() {
        // A tune session on two GPUs with a cuBLAS baseline record, as `tilec tune --devices 0,1
        // --baseline cublas` stores it (kind "baseline", the session's id, library/version/API).
        // SYNTHETIC times (no GPU here): the fixture's 13 variants get 0.30 ms + 0.01 ms x index
        // (variant 5: 0.50 ms), alternate devices 0/1, and cuBLAS 0.25 ms -- faster than every
        // variant, so the test shows it is still never the best. TS_COMPARE_BASELINE_SHOT=FILE.png
        // saves the panel at 1920x1080.
        QFile f(kStore);
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::vector<nlohmann::json> recs;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (!line.trimmed().isEmpty()) recs.push_back(nlohmann::json::parse(line.toStdString()));
        QCOMPARE(int(recs.size()), 13);
        std::string session;
        for (auto& r : recs) {
            const int i = r["tune"]["index"].get<int>();
            r.erase("interp");
            r["device"] = "NVIDIA H200";
            r["device_ordinal"] = i % 2;
            r["target"] = "sm_90a";
            if (r["status"] == "ok") r["time_ms"] = i == 5 ? 0.50 : 0.30 + 0.01 * i;
            r["fixture"] = "synthetic times for the view test, not measurements";
            session = r["tune"]["session"].get<std::string>();
        }
        nlohmann::json b = recs[0];
        b.erase("tune"), b.erase("variant_key");
        b["kind"] = "baseline";
        b["id"] = "fixture-baseline";
        b["target"] = "library";
        b["device_ordinal"] = 0;
        b["tune"] = {{"session", session}, {"baseline", true}};
        b["baseline"] = {{"library", "cuBLAS"}, {"version", "13.1.0"}, {"api", "cublasGemmEx"},
                         {"gemm", "M=128 N=128 K=128 float16->float16"}, {"m", 128}, {"n", 128},
                         {"k", 128}, {"dtype", "float16"}, {"out_dtype", "float16"}};
        b["status"] = "ok";
        b["check"] = "pass";
        b["time_ms"] = 0.25;
        b["metrics"] = {{"event_ms", 0.25}, {"tflops", 2.0 * 128 * 128 * 128 / 0.25e-3 / 1e12}};
        recs.push_back(b);  // stored last: the view still puts it first
        const QString dir = QDir::temp().filePath("ts_compare_baseline");
        QDir().mkpath(dir);
        {
            QFile out(dir + "/results.jsonl");
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            for (const auto& r : recs) out.write(QByteArray::fromStdString(r.dump() + "\n"));
        }
        QDir().mkpath(dir + "/sources");
        QFile::remove(dir + "/sources/0514fd84cc8ef2c6.py");
        QVERIFY(QFile::copy(QFileInfo(kStore).absolutePath() + "/sources/0514fd84cc8ef2c6.py",
                            dir + "/sources/0514fd84cc8ef2c6.py"));

        Session s;
        ComparePanel p(s);
        p.resize(1920, 1080);
        QVERIFY(p.loadStore(dir + "/results.jsonl"));
        QVERIFY2(p.resultSets()[0].contains("13 variants + library baseline"),
                 qPrintable(p.resultSets()[0]));
        const viz::VariantCompare* c = p.compare();
        QCOMPARE(int(c->rows().size()), 14);
        QCOMPARE(c->libraryRow(), 0);
        QVERIFY(c->rows()[0].library());
        QCOMPARE(c->rows()[0].label, std::string("cuBLAS 13.1.0 (cublasGemmEx)"));
        auto* m = p.model();
        QCOMPARE(m->data(m->index(0, 0), Qt::DisplayRole).toString(), QString("library"));
        QVERIFY(m->data(m->index(0, 1), Qt::DisplayRole).toString().contains("— library"));
        QCOMPARE(m->data(m->index(0, 1), Qt::BackgroundRole).value<QColor>(), QColor("#ddf4ff"));
        QVERIFY(m->data(m->index(0, 1), Qt::ToolTipRole).toString().contains("never the best"));
        // The best time is the fastest variant (index 0, 0.30 ms), not the faster library.
        const int time = c->column("time_ms");
        const int best = c->bestRow(time);
        QVERIFY(best > 0);
        QCOMPARE(c->rows()[size_t(best)].values[size_t(time)], 0.30);
        QVERIFY(m->data(m->index(0, CompareTableModel::kFixedColumns + time), Qt::FontRole).value<QFont>().italic());
        // Status: 13 variants + the library; best = 0.25 / 0.30 = 0.83x cuBLAS.
        QVERIFY2(p.statusText().contains("13 variants + library baseline, 1 failed"),
                 qPrintable(p.statusText()));
        QVERIFY2(p.statusText().contains("= 0.83x cuBLAS 13.1.0 (cublasGemmEx)"),
                 qPrintable(p.statusText()));
        // The library row is preselected as the deltas' baseline: variant 5 (0.50 ms) = +100 %.
        p.setShowDeltas(true);
        const int v5 = rowWith(*c, {"block_M=64 ", "block_N=128 ", "num_stages=4"});
        QVERIFY(v5 > 0);
        QCOMPARE(c->rows()[size_t(v5)].record["tune"]["index"].get<int>(), 5);
        QCOMPARE(m->data(m->index(v5, CompareTableModel::kFixedColumns + time), Qt::DisplayRole).toString(),
                 QString("+100.0 %"));
        QVERIFY(m->data(m->index(0, 1), Qt::DisplayRole).toString().contains("(baseline)"));
        // Library vs variant: metric deltas, no IR diff (the library has none).
        p.compareRows(0, v5);
        QVERIFY2(p.statusText().contains("no IR or generated CUDA; metric deltas only"),
                 qPrintable(p.statusText()));
        QVERIFY(!p.variantDiff());
        // The bar chart lists the library too (its own bar), but does not crown it.
        QCOMPARE(p.chart()->best(), best);  // bars: the ok rows in model order, library first
        QVERIFY(p.chart()->bars()[0].label.endsWith("— library"));
        if (const QString shot = qEnvironmentVariable("TS_COMPARE_BASELINE_SHOT"); !shot.isEmpty()) {
            p.show();
            // Two variants selected: the IR diff beside the deltas; the library row unselected
            // so its own look shows.
            p.table()->selectRow(best);
            p.table()->selectionModel()->select(p.table()->model()->index(v5, 0),
                                                QItemSelectionModel::Select | QItemSelectionModel::Rows);
            QTest::qWait(300);
            QVERIFY(p.grab().save(shot, "PNG"));
        }
    }

    void screenshot() {
        // TS_COMPARE_STORE=results.jsonl shows another store (the H200 run's, bench/h200_profile.sh)
        // instead of the fixture; FILE-roofline.png is the Roofline tab of the same set.
        const QString out = qEnvironmentVariable("TS_COMPARE_SHOT");
        if (out.isEmpty()) QSKIP("set TS_COMPARE_SHOT=FILE.png to save the panel");
        const QString other = qEnvironmentVariable("TS_COMPARE_STORE");
        Session s;
        ComparePanel p(s);
        p.resize(1500, 900);
        p.show();
        QVERIFY(p.loadStore(other.isEmpty() ? kStore : other));
        const viz::VariantCompare* c = p.compare();
        if (other.isEmpty()) {
            p.setBaselineRow(rowWith(*c, {"block_M=128 ", "block_N=128 ", "num_stages=3", "skip_k=0"}) + 1);
            p.setChartColumn(c->column("smem_bytes"));
        }
        const int a = other.isEmpty() ? rowWith(*c, {"block_M=64 ", "block_N=64 ", "num_stages=2"}) : 0;
        const int b = other.isEmpty() ? rowWith(*c, {"block_M=64 ", "block_N=64 ", "num_stages=3"}) : 1;
        p.table()->selectRow(a);
        p.table()->selectionModel()->select(p.table()->model()->index(b, 0),
                                            QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QTest::qWait(300);
        QVERIFY(p.grab().save(out, "PNG"));
        auto* tabs = p.findChild<QTabWidget*>();
        QVERIFY(tabs);
        tabs->setCurrentWidget(p.roofline());
        QTest::qWait(100);
        QString roof = out;
        roof.replace(".png", "-roofline.png");
        QVERIFY(p.grab().save(roof, "PNG"));
    }
};

QTEST_MAIN(ComparePanelTest)
#include "ComparePanelTest.moc"
