// Compare panel: stored variants side by side (ComparePanel.h).
#include "app/gui/ComparePanel.h"
#include "app/gui/Theme.h"

#include <QCheckBox>
#include <algorithm>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QResizeEvent>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <cmath>

#include "app/gui/FlowLayout.h"
#include "app/gui/RunPanel.h"
#include "app/gui/Session.h"
#include "app/gui/TuneSweep.h"
#include "app/gui/ChildProgress.h"
#include "compiler/Compile.h"
#include "profiler/store/ResultsStore.h"
#include "visualizer/core/Roofline.h"
#include "visualizer/widgets/BarChartWidget.h"
#include "visualizer/widgets/DiffView.h"
#include "visualizer/widgets/RooflineWidget.h"

namespace ts::gui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

/// A record of the "profile and bench records" set: profiles, benches and the library baselines
/// `tilec bench --baseline` stored (those of a tune session belong to that session).
bool isProfileSetRecord(const nlohmann::json& r) {
    const std::string kind = r.value("kind", std::string());
    return kind == "profile" || kind == "bench" || (kind == "baseline" && !r.contains("tune"));
}

QString deltaText(double d) {
    return (d >= 0 ? "+" : "") + QString::number(100 * d, 'f', 1) + " %";
}
}  // namespace

// ---------------------------------------------------------------------------------------------
CompareTableModel::CompareTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareTableModel::setCompare(const viz::VariantCompare* c) {
    beginResetModel();
    m_compare = c;
    m_baseline = -1;
    endResetModel();
}

void CompareTableModel::setBaseline(int row, bool showDeltas) {
    m_baseline = row;
    m_deltas = showDeltas;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int CompareTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_compare ? 0 : static_cast<int>(m_compare->rows().size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_compare
               ? 0
               : kFixedColumns + static_cast<int>(m_compare->columns().size());
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || !m_compare) return {};
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (section == 0) return tr("status");
    if (section == 1) return role == Qt::ToolTipRole ? tr("variant: its parameters (hover a row for all)") : tr("variant");
    const auto& col = m_compare->columns()[size_t(section - kFixedColumns)];
    if (role == Qt::DisplayRole) return q(col.label);
    // The whole name (a column narrower than its header elides it), its unit and direction.
    return q(col.label) + (col.unit.empty() ? QString() : tr(" [%1]").arg(q(col.unit))) +
           (col.lowerIsBetter ? tr(" — lower is better") : tr(" — higher is better"));
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
    if (!m_compare || !index.isValid()) return {};
    const auto& row = m_compare->rows()[size_t(index.row())];
    const int c = index.column();
    if (row.library()) {
        // The library baseline: its own look (blue, italic) so it never reads as a variant.
        if (role == Qt::BackgroundRole) return QColor("#ddf4ff");
        if (role == Qt::ForegroundRole && !(c == 0 && row.ok())) return QColor("#1f2328");
        if (role == Qt::FontRole) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        if (c == 0 && row.ok()) {
            if (role == Qt::DisplayRole || role == Qt::UserRole) return tr("library");
            if (role == Qt::ForegroundRole) return QColor("#0969da");
        }
        if (role == Qt::ToolTipRole) {
            const auto& b = row.record.value("baseline", nlohmann::json::object());
            return tr("Library baseline: %1 %2 (%3), %4, fp32 accumulate, timed in the GPU "
                      "worker like the variants. Not a variant: never the best; choose it as "
                      "Baseline for deltas against it.%5")
                .arg(q(b.value("library", std::string())), q(b.value("version", std::string())),
                     q(b.value("api", std::string())), q(b.value("gemm", std::string())),
                     row.reason.empty() ? QString() : "\n" + q(row.reason));
        }
    }
    if (c == 0) {
        if (row.unchecked()) {
            // As `tilec tune` prints it: ran, but no reference checked the result.
            if (role == Qt::DisplayRole || role == Qt::UserRole) return tr("unchecked");
            if (role == Qt::ToolTipRole)
                return tr("ran, but its result was not checked (no reference): never the best");
            if (role == Qt::ForegroundRole) return QColor("#9a6700");
            return {};
        }
        if (row.status == "stopped") {
            // tilec tune stopped by the user (Stop / Ctrl-C) before this variant finished.
            if (role == Qt::DisplayRole || role == Qt::UserRole) return tr("not run (stopped)");
            if (role == Qt::ToolTipRole) return q(row.reason);
            if (role == Qt::ForegroundRole) return QColor("#656d76");
            return {};
        }
        if (role == Qt::DisplayRole || role == Qt::UserRole) return q(row.status);
        if (role == Qt::ToolTipRole && !row.reason.empty()) return q(row.reason);
        if (role == Qt::ForegroundRole && !row.ok()) return QColor("#cf222e");
        return {};
    }
    if (c == 1) {
        if (role == Qt::DisplayRole || role == Qt::UserRole)
            return q(row.label) + (row.library() ? tr("  — library") : QString()) +
                   (index.row() == m_baseline ? tr("  (baseline)") : QString());
        if (role == Qt::ToolTipRole) return q(row.reason.empty() ? row.label : row.reason);
        return {};
    }
    const int col = c - kFixedColumns;
    const double v = row.values[size_t(col)];
    if (role == Qt::UserRole) return std::isnan(v) ? QVariant() : QVariant(v);
    const bool best = m_compare->bestRow(col) == index.row();
    if (role == Qt::DisplayRole) {
        if (m_deltas && m_baseline >= 0 && index.row() != m_baseline) {
            auto d = m_compare->relativeDelta(index.row(), m_baseline, col);
            return d ? deltaText(*d) : QString("-");
        }
        return q(viz::formatMetric(v, m_compare->columns()[size_t(col)].unit));
    }
    if (role == Qt::BackgroundRole && best) return QColor("#dafbe1");
    // Dark text on the light green in both themes (the dark theme's light text on it was
    // unreadable: 1.1:1).
    if (role == Qt::ForegroundRole && best) return QColor("#1f2328");
    if (role == Qt::FontRole && best) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && best) return tr("best of this column");
    return {};
}

// ---------------------------------------------------------------------------------------------
ComparePanel::ComparePanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    auto* top = new FlowLayout;  // rows wrap in a narrow dock (FlowLayout.h)
    m_sets = new QComboBox(this);
    m_sets->setToolTip(tr("Result set: a tune session, or every profile/bench record"));
    m_baseline = new QComboBox(this);
    m_baseline->setToolTip(tr("Baseline variant for the deltas"));
    m_deltas = new QCheckBox(tr("Δ vs baseline"), this);
    m_chartMetric = new QComboBox(this);
    // Set and variant labels are long (a tune session's file, date and count; every parameter
    // of a config): sized to their contents, these combos made the panel, and with it the main
    // window, wider than a 1920-pixel screen (2557 px with a few tune sessions in the store).
    // They take the width the row gives them; the popup list shows the whole text.
    for (QComboBox* c : {m_sets, m_baseline, m_chartMetric}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
        c->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    auto* reload = new QPushButton(tr("Reload"), this);
    auto* open = new QPushButton(tr("Open store…"), this);
    // Two rows (the set and its store; what to compare against and chart): on one row the
    // controls alone asked for about 960 px, more than the dock gets beside the editor.
    top->addGroup({new QLabel(tr("Set:"), this), m_sets}, true);
    auto* exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setToolTip(tr("Write the shown set's records as CSV or JSON"));
    top->addGroup({reload, open, exportButton});
    auto* viewRow = new FlowLayout;
    viewRow->addGroup({new QLabel(tr("Baseline:"), this), m_baseline, m_deltas}, true);
    viewRow->addGroup({new QLabel(tr("Chart:"), this), m_chartMetric}, true);

    // A sweep defined here: values per parameter, run by `tilec tune` on the editor's text.
    auto* sweepRow = new FlowLayout;
    m_sweepEdit = new QLineEdit(this);
    m_sweepEdit->setPlaceholderText(tr("block_M=64,128 num_stages=2,3"));
    m_sweepEdit->setToolTip(tr("Values per parameter; every combination is compiled, run, "
                               "checked against the reference and timed (tilec tune --sweep)"));
    m_sweepInterp = new QCheckBox(tr("interpreter"), this);
    m_sweepInterp->setToolTip(tr("Check the variants on the tile interpreter (no GPU; the "
                                 "times are interpreter times)"));
    m_sweepButton = new QPushButton(tr("Tune"), this);
    m_sweepStop = new QPushButton(tr("Stop"), this);
    m_sweepStop->setEnabled(false);
    m_sweepStop->setToolTip(tr("Stop the sweep: the running variant is cancelled; the variants "
                               "that finished keep their results, the rest are not run"));
    m_sweepProgress = new ProgressRow([this] { return sweepProgress(m_sweepLog).text(); },
                                      [this] { return sweepRunning(); }, this);
    m_sweepEdit->setMinimumWidth(120);
    sweepRow->addGroup({new QLabel(tr("Sweep:"), this), m_sweepEdit}, true);
    sweepRow->addGroup({m_sweepInterp, m_sweepButton, m_sweepStop});

    m_model = new CompareTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Columns size to their contents up to CompareTableModel::kMaxColumnPx; longer text (a variant's whole config,
    // a long metric name) is elided in the middle, and the header's and cells' tooltips give
    // it whole. (A new-user trial saw the last columns cut off at the table's edge.)
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setMaximumSectionSize(CompareTableModel::kMaxColumnPx);
    m_table->horizontalHeader()->setTextElideMode(Qt::ElideMiddle);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();

    m_chart = new viz::BarChartWidget(this);
    m_roofline = new viz::RooflineWidget(this);
    m_charts = new QTabWidget(this);
    m_charts->addTab(m_chart, tr("Bars"));
    m_charts->addTab(m_roofline, tr("Roofline"));
    m_deltaTable = new QTableWidget(0, 4, this);
    m_deltaTable->setHorizontalHeaderLabels({tr("metric"), tr("A"), tr("B"), tr("B vs A")});
    m_deltaTable->verticalHeader()->hide();
    m_deltaTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_passes = new QListWidget(this);
    m_diff = new viz::DiffView(this);
    // Themed like the Pass Explorer's diff (it was white in the dark theme).
    styleDiffView(m_diff);
    connect(&ThemeManager::instance(), &ThemeManager::themeChanged, m_diff, [this] { styleDiffView(m_diff); });
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    auto* upper = new QSplitter(Qt::Horizontal, this);
    upper->addWidget(m_table);
    upper->addWidget(m_charts);
    upper->setStretchFactor(0, 3);
    upper->setStretchFactor(1, 2);
    m_upperSplit = upper;
    connect(upper, &QSplitter::splitterMoved, this, [this] { m_userSplit = true; });
    auto* side = new QSplitter(Qt::Vertical, this);
    side->addWidget(m_deltaTable);
    side->addWidget(m_passes);
    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(side);
    lower->addWidget(m_diff);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 3);
    lower->setSizes({380, 1100});  // the delta table's four columns readable at once
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(lower);

    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(2, 2, 2, 2);
    lay->addLayout(top);
    lay->addLayout(viewRow);
    lay->addLayout(sweepRow);
    lay->addWidget(m_sweepProgress);
    lay->addWidget(split, 1);
    lay->addWidget(m_status);

    connect(m_sets, &QComboBox::activated, this, &ComparePanel::showResultSet);
    connect(m_baseline, &QComboBox::activated, this, &ComparePanel::setBaselineRow);
    connect(m_deltas, &QCheckBox::toggled, this, &ComparePanel::setShowDeltas);
    connect(m_chartMetric, &QComboBox::activated, this, &ComparePanel::setChartColumn);
    connect(reload, &QPushButton::clicked, this, [this] { loadStore(m_storePath); });
    connect(open, &QPushButton::clicked, this, [this] {
        QString f = QFileDialog::getOpenFileName(this, tr("Open results store"), m_storePath,
                                                 tr("Results (*.jsonl);;All files (*)"));
        if (!f.isEmpty()) loadStore(f);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ComparePanel::onSelectionChanged);
    connect(m_passes, &QListWidget::currentRowChanged, this, &ComparePanel::showPassDiff);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        QString f = QFileDialog::getSaveFileName(this, tr("Export result set"), QString(),
                                                 tr("CSV (*.csv);;JSON (*.json)"));
        QString why;
        if (!f.isEmpty() && !exportSet(f, &why)) m_status->setText(why);
    });
    connect(m_sweepButton, &QPushButton::clicked, this,
            [this] { startSweep(m_sweepEdit->text(), m_sweepInterp->isChecked()); });
    connect(m_sweepEdit, &QLineEdit::returnPressed, m_sweepButton, &QPushButton::click);
    connect(m_sweepStop, &QPushButton::clicked, this, &ComparePanel::stopSweep);
    connect(m_roofline, &viz::RooflineWidget::pointClicked, this, [this](int row) {
        m_table->selectRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
    });
    connect(m_chart, &viz::BarChartWidget::barClicked, this, [this](int i) {
        if (!m_compare) return;
        // Bars list the ok variants in model order: select that row in the table.
        int seen = -1;
        for (size_t r = 0; r < m_compare->rows().size(); ++r)
            if (m_compare->rows()[r].ok() && ++seen == i) {
                m_table->selectRow(m_proxy->mapFromSource(m_model->index(int(r), 0)).row());
                return;
            }
    });
    m_status->setText(tr("Run `tilec tune FILE` or `tilec profile FILE`, then Reload."));
}

ComparePanel::~ComparePanel() {
    if (sweepRunning()) {
        m_sweepProc->disconnect(this);
        stopChild(*m_sweepProc, 0);
    }
}

QString ComparePanel::statusText() const { return m_status->text(); }

bool ComparePanel::loadStore(const QString& path) {
    m_storePath = path.isEmpty() ? q(rt::defaultResultsPath()) : path;
    size_t skipped = 0;
    m_records = rt::ResultsStore(m_storePath.toStdString()).load(&skipped);
    m_sessions.clear();
    for (auto& [s, n] : viz::VariantCompare::sessions(m_records)) m_sessions.push_back(s);
    m_sets->clear();
    for (const QString& s : resultSets()) {
        m_sets->addItem(s);
        m_sets->setItemData(m_sets->count() - 1, s, Qt::ToolTipRole);  // whole, device included
    }
    if (m_records.empty()) {
        m_compare.reset();
        m_model->setCompare(nullptr);
        m_status->setText(tr("No results in %1").arg(m_storePath));
        return false;
    }
    // The newest tune session first: what the user most likely just ran.
    const int idx = m_sessions.empty() ? m_sets->count() - 1 : int(m_sessions.size()) - 1;
    m_sets->setCurrentIndex(idx);
    showResultSet(idx);
    if (skipped) m_status->setText(m_status->text() + tr(" (%1 malformed lines skipped)").arg(skipped));
    return true;
}

QStringList ComparePanel::resultSets() const {
    QStringList out;
    for (const auto& s : m_sessions) {
        auto recs = viz::VariantCompare::sessionRecords(m_records, s);
        const std::string file = recs.empty() ? "" : recs.front().value("file", std::string());
        const std::string dev = recs.empty() ? "" : recs.front().value("device", std::string());
        size_t libraries = 0;
        for (const auto& r : recs) libraries += r.value("kind", std::string()) == "baseline";
        out << tr("tune %1 — %2, %3 variants%5, %4")
                   .arg(q(s), q(file.substr(file.find_last_of('/') + 1)))
                   .arg(recs.size() - libraries)
                   .arg(q(dev))
                   .arg(libraries ? tr(" + library baseline") : QString());
    }
    size_t profiles = 0;
    for (const auto& r : m_records) profiles += isProfileSetRecord(r);
    if (profiles) out << tr("profile and bench records (%1)").arg(profiles);
    return out;
}

int ComparePanel::tableWidthNeeded() const {
    int w = 2 * m_table->frameWidth() + m_table->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    for (int c = 0; c < m_table->model()->columnCount(); ++c)
        w += m_table->horizontalHeader()->sectionSize(c);
    return w;
}

void ComparePanel::fitTableWidth() {
    if (m_userSplit || !m_upperSplit) return;
    const int total = m_upperSplit->width() - m_upperSplit->handleWidth();
    if (total <= 0) return;
    const int table = std::clamp(tableWidthNeeded(), total * 3 / 5, std::max(total * 3 / 5, total - kMinChartPx));
    m_upperSplit->setSizes({table, total - table});
}

void ComparePanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fitTableWidth();
}

void ComparePanel::showResultSet(int index) {
    // The combo elides a long set name (its device comes last): the tooltip gives it whole.
    m_sets->setToolTip(index >= 0 && index < m_sets->count()
                           ? m_sets->itemText(index)
                           : tr("Result set: a tune session, or every profile/bench record"));
    std::vector<nlohmann::json> recs;
    if (index >= 0 && index < int(m_sessions.size())) {
        recs = viz::VariantCompare::sessionRecords(m_records, m_sessions[size_t(index)]);
    } else {
        for (const auto& r : m_records)
            if (isProfileSetRecord(r)) recs.push_back(r);
    }
    m_compare = std::make_unique<viz::VariantCompare>(std::move(recs));
    m_model->setCompare(m_compare.get());
    m_table->sortByColumn(-1, Qt::AscendingOrder);  // model order until the user sorts
    m_variantDiff.reset();
    m_passes->clear();
    m_deltaTable->setRowCount(0);
    m_diff->setDiff({}, {}, {});
    m_baseline->clear();
    m_baseline->addItem(tr("(none)"));
    for (const auto& row : m_compare->rows()) m_baseline->addItem(q(row.label));
    // A library row is the natural baseline: preselected (the deltas stay as the user set them).
    if (const int lib = m_compare->libraryRow(); lib >= 0 && m_compare->rows()[size_t(lib)].ok()) {
        m_baseline->setCurrentIndex(lib + 1);
        m_model->setBaseline(lib, m_deltas->isChecked());
    }
    m_chartMetric->clear();
    for (const auto& c : m_compare->columns()) m_chartMetric->addItem(q(c.label));
    setChartColumn(0);
    m_table->horizontalHeader()->resizeSections(QHeaderView::ResizeToContents);  // now: the split needs the widths
    fitTableWidth();
    const int best = m_compare->bestRow(0);
    m_roofline->setRoofline(viz::rooflineOf(*m_compare), best);
    size_t failed = 0, unchecked = 0, variants = 0;
    for (const auto& r : m_compare->rows())
        if (!r.library()) ++variants, failed += !r.ok() && r.status != "stopped", unchecked += r.unchecked();
    QString bestText;
    const int lib = m_compare->libraryRow();
    if (best >= 0) {
        bestText = tr("; best time: %1").arg(q(m_compare->rows()[size_t(best)].label));
        // "= 0.96x cuBLAS 13.1.0": the library's time over the best variant's (> 1: faster).
        const double bt = m_compare->rows()[size_t(best)].values[0];
        const double lt = lib >= 0 ? m_compare->rows()[size_t(lib)].values[0] : NAN;
        if (!std::isnan(lt) && bt > 0)
            bestText += tr(" = %1x %2").arg(lt / bt, 0, 'f', 2).arg(q(m_compare->rows()[size_t(lib)].label));
    }
    else if (unchecked > 0)
        bestText = tr("; no best time: %1 unchecked (no reference to check them against; add a "
                      "ref_program or tune with --ref)")
                       .arg(unchecked);
    m_status->setText(tr("%1 variants%4, %2 failed%3. Select two rows to diff their IR and CUDA.")
                          .arg(variants)
                          .arg(failed)
                          .arg(bestText)
                          .arg(lib >= 0 ? tr(" + library baseline") : QString()));
}

void ComparePanel::setBaselineRow(int comboIndex) {
    // Combo entry 0 is "(none)"; entry i+1 is model row i.
    if (m_baseline->currentIndex() != comboIndex) m_baseline->setCurrentIndex(comboIndex);
    m_model->setBaseline(comboIndex - 1, m_deltas->isChecked());
}

void ComparePanel::setShowDeltas(bool on) {
    if (m_deltas->isChecked() != on) m_deltas->setChecked(on);
    m_model->setBaseline(m_baseline->currentIndex() - 1, on);
}

void ComparePanel::setChartColumn(int column) {
    if (!m_compare || column < 0 || column >= int(m_compare->columns().size())) return;
    if (m_chartMetric->currentIndex() != column) m_chartMetric->setCurrentIndex(column);
    rebuildChart();
}

void ComparePanel::rebuildChart() {
    const int col = m_chartMetric->currentIndex();
    if (!m_compare || col < 0) return;
    QVector<viz::BarChartWidget::Bar> bars;
    int best = -1;
    const int bestRow = m_compare->bestRow(col);
    for (size_t r = 0; r < m_compare->rows().size(); ++r) {
        const auto& row = m_compare->rows()[r];
        if (!row.ok()) continue;
        if (int(r) == bestRow) best = bars.size();
        const double v = row.values[size_t(col)];
        bars.push_back({q(row.label) + (row.library() ? tr("  — library") : QString()),
                        std::isnan(v) ? 0 : v, std::isnan(v), {}});
    }
    const auto& c = m_compare->columns()[size_t(col)];
    m_chart->setBars(bars,
                     q(c.label) + (c.lowerIsBetter ? tr(" (lower is better)") : tr(" (higher is better)")),
                     best, c.unit == "ms" ? QString() : q(c.unit));
}

void ComparePanel::onSelectionChanged() {
    QList<int> rows;
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows())
        rows << m_proxy->mapToSource(i).row();
    if (rows.size() == 2) compareRows(rows[0], rows[1]);
}

void ComparePanel::compareRows(int a, int b) {
    if (!m_compare || a < 0 || b < 0 || a >= int(m_compare->rows().size()) ||
        b >= int(m_compare->rows().size()))
        return;
    if (a > b) std::swap(a, b);
    m_diffA = a, m_diffB = b;
    fillDeltaTable(a, b);
    const auto& ra = m_compare->rows()[size_t(a)].record;
    const auto& rb = m_compare->rows()[size_t(b)].record;
    if (m_compare->rows()[size_t(a)].library() || m_compare->rows()[size_t(b)].library()) {
        // A library has metrics but no IR or generated source of ours: deltas only.
        m_passes->clear();
        m_variantDiff.reset();
        m_diff->setDiff({}, {}, {});
        m_status->setText(tr("A = %1, B = %2: the library baseline has no IR or generated CUDA; "
                             "metric deltas only")
                              .arg(q(m_compare->rows()[size_t(a)].label),
                                   q(m_compare->rows()[size_t(b)].label)));
        return;
    }
    rt::ResultsStore store(m_storePath.toStdString());
    auto ta = store.loadSource(ra.value("source_hash", std::string()));
    auto tb = store.loadSource(rb.value("source_hash", std::string()));
    m_passes->clear();
    if (!ta || !tb) {
        m_variantDiff = viz::VariantDiff{};
        m_variantDiff->error = "the program text of a variant is not in the store";
        m_status->setText(q(m_variantDiff->error));
        return;
    }
    const CompileResult ca = viz::compileVariant(ra, *ta), cb = viz::compileVariant(rb, *tb);
    m_variantDiff = viz::diffVariants(ca, cb);
    if (!m_variantDiff->error.empty()) {
        m_status->setText(q(m_variantDiff->error));
        return;
    }
    int firstChanged = -1;
    for (const auto& p : m_variantDiff->passes) {
        if (p.changedLines > 0 && firstChanged < 0) firstChanged = m_passes->count();
        m_passes->addItem(tr("%1 — %2 lines differ").arg(q(p.pass)).arg(p.changedLines));
    }
    const auto& cu = m_variantDiff->cuda;
    m_passes->addItem(
        tr("generated CUDA — %1 lines differ").arg(cu.deleted + cu.inserted + cu.changed));
    m_status->setText(tr("A = %1, B = %2").arg(q(m_compare->rows()[size_t(a)].label),
                                               q(m_compare->rows()[size_t(b)].label)));
    m_passes->setCurrentRow(firstChanged >= 0 ? firstChanged : m_passes->count() - 1);
}

void ComparePanel::showPassDiff(int row) {
    if (!m_variantDiff || row < 0) return;
    const QString a = q(m_compare->rows()[size_t(m_diffA)].label);
    const QString b = q(m_compare->rows()[size_t(m_diffB)].label);
    if (row < int(m_variantDiff->passes.size())) {
        const auto& p = m_variantDiff->passes[size_t(row)];
        m_diff->setDiff(p.diff, tr("A after %1: %2").arg(q(p.pass), a),
                        tr("B after %1: %2").arg(q(p.pass), b));
    } else {
        m_diff->setDiff(m_variantDiff->cuda, tr("A CUDA: %1").arg(a), tr("B CUDA: %1").arg(b));
    }
}

void ComparePanel::fillDeltaTable(int a, int b) {
    const auto& cols = m_compare->columns();
    m_deltaTable->setRowCount(int(cols.size()));
    for (size_t c = 0; c < cols.size(); ++c) {
        const double va = m_compare->rows()[size_t(a)].values[c];
        const double vb = m_compare->rows()[size_t(b)].values[c];
        auto d = m_compare->relativeDelta(b, a, int(c));
        m_deltaTable->setItem(int(c), 0, new QTableWidgetItem(q(cols[c].label)));
        m_deltaTable->setItem(int(c), 1, new QTableWidgetItem(q(viz::formatMetric(va, cols[c].unit))));
        m_deltaTable->setItem(int(c), 2, new QTableWidgetItem(q(viz::formatMetric(vb, cols[c].unit))));
        auto* item = new QTableWidgetItem(d ? deltaText(*d) : QString("-"));
        if (d && *d != 0) {
            const bool better = cols[c].lowerIsBetter ? *d < 0 : *d > 0;
            item->setForeground(better ? QColor("#1a7f37") : QColor("#cf222e"));
        }
        m_deltaTable->setItem(int(c), 3, item);
    }
}

}  // namespace ts::gui

namespace ts::gui {

bool ComparePanel::exportSet(const QString& path, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (!m_compare) return fail(tr("Nothing to export: no result set is shown"));
    std::vector<nlohmann::json> recs;
    for (const auto& row : m_compare->rows()) recs.push_back(row.record);
    std::string text;
    if (path.endsWith(".json", Qt::CaseInsensitive)) {
        nlohmann::json arr = nlohmann::json::array();
        for (auto& r : recs) arr.push_back(r);
        text = arr.dump(2) + "\n";
    } else {
        text = rt::recordsToCsv(recs);
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(text.data(), qint64(text.size())) != qint64(text.size()))
        return fail(tr("Cannot write %1: %2").arg(path, f.errorString()));
    m_status->setText(tr("Exported %1 records to %2").arg(recs.size()).arg(path));
    return true;
}

bool ComparePanel::sweepRunning() const {
    return m_sweepProc && m_sweepProc->state() != QProcess::NotRunning;
}

bool ComparePanel::startSweep(const QString& text, bool interp) {
    if (sweepRunning()) {
        m_status->setText(tr("A sweep is already running"));
        return false;
    }
    QString why;
    auto axes = parseSweep(text, &why);
    if (!axes) {
        m_status->setText(tr("Sweep: %1").arg(why));
        return false;
    }
    const QString tilec = m_tilec.isEmpty() ? findTilec() : m_tilec;
    if (tilec.isEmpty()) {
        m_status->setText(tr("Cannot tune: tilec was not found next to tilescope or on PATH"));
        return false;
    }
    // The editor's text, not the file on disk (as Run does).
    m_sweepDir = std::make_unique<QTemporaryDir>();
    const QString name = m_session.path().isEmpty() ? QStringLiteral("untitled.py")
                                                    : QFileInfo(m_session.path()).fileName();
    const QString file = m_sweepDir->filePath(name);
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(m_session.text().toUtf8()) < 0) {
        m_status->setText(tr("Cannot tune: cannot write %1").arg(file));
        return false;
    }
    f.close();
    if (m_storePath.isEmpty()) m_storePath = q(rt::defaultResultsPath());
    const QStringList args = tilecTuneArguments(file, m_session.paramOverrides(), *axes, interp);
    m_sweepProc = std::make_unique<QProcess>();
    m_sweepProc->setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TILESCOPE_RESULTS", m_storePath);
    env.insert("TILEC_PROGRESS", "1");  // a line per variant as it starts and ends: the phase
    m_sweepProc->setProcessEnvironment(env);
    m_sweepLog = "$ tilec " + args.join(' ') + "\n";
    connect(m_sweepProc.get(), &QProcess::readyRead, this,
            [this] { m_sweepLog += QString::fromUtf8(m_sweepProc->readAll()); });
    connect(m_sweepProc.get(), &QProcess::finished, this, &ComparePanel::onSweepFinished);
    connect(m_sweepProc.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_status->setText(tr("Cannot start tilec: %1").arg(m_sweepProc->errorString()));
            m_sweepButton->setEnabled(true);
            m_sweepStop->setEnabled(false);
        }
    });
    m_sweepButton->setEnabled(false);
    m_sweepStop->setEnabled(true);
    m_sweepStopped = false;
    size_t n = 1;
    for (const auto& a : *axes) n *= size_t(a.values.size());
    m_status->setText(tr("Tuning %1 variants of %2…").arg(n).arg(name));
    m_sweepProc->start(tilec, args);
    m_sweepProgress->start();
    return true;
}

QString ComparePanel::sweepProgressText() const { return m_sweepProgress->text(); }

void ComparePanel::stopSweep() {
    if (!sweepRunning()) return;
    m_sweepStopped = true;
    m_sweepStop->setEnabled(false);
    m_status->setText(tr("Stopping the sweep…"));
    stopChild(*m_sweepProc, kStopGraceMs);  // onSweepFinished reports the end
}

void ComparePanel::onSweepFinished(int exitCode, QProcess::ExitStatus status) {
    m_sweepLog += QString::fromUtf8(m_sweepProc->readAll());
    m_sweepButton->setEnabled(true);
    m_sweepStop->setEnabled(false);
    m_sweepProgress->refresh();  // hides it
    const double secs = m_sweepProgress->elapsedS();
    const SweepProgress prog = sweepProgress(m_sweepLog);
    if (m_sweepStopped) {
        m_sweepStopped = false;
        // 130: tilec tune ended cleanly on SIGINT and stored every variant (ran or "stopped").
        if (status == QProcess::NormalExit && exitCode == 130) {
            loadStore(m_storePath);
            m_status->setText(tr("Stopped by the user after %1 s: %2 of %3 variants ran (%4 ok); "
                                 "the others are marked not run (stopped).  ")
                                  .arg(secs, 0, 'f', 1)
                                  .arg(prog.done)
                                  .arg(prog.total)
                                  .arg(prog.ok) +
                              m_status->text());
        } else {
            m_status->setText(tr("Stopped by the user after %1 s: tilec did not end within %2 s "
                                 "and was killed; nothing was stored (%3 of %4 variants had run).")
                                  .arg(secs, 0, 'f', 1)
                                  .arg(kStopGraceMs / 1000.0, 0, 'f', 1)
                                  .arg(prog.done)
                                  .arg(prog.total));
        }
        return;
    }
    // tilec tune exits 0 with a best variant, 2 when every variant failed (both stored a
    // session); anything else is an error before any variant ran (bad file, unknown parameter).
    if (status != QProcess::NormalExit || (exitCode != 0 && exitCode != 2)) {
        QStringList lines = m_sweepLog.trimmed().split('\n');
        m_status->setText(tr("tilec tune failed: %1").arg(lines.mid(std::max<qsizetype>(0, lines.size() - 3)).join(" | ")));
        return;
    }
    loadStore(m_storePath);
    if (exitCode == 2) m_status->setText(m_status->text() + tr(" No variant passed."));
}

}  // namespace ts::gui
