// Bank panel (BankPanel.h).
#include "app/gui/BankPanel.h"

#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "compiler/support/SourceReader.h"
#include "visualizer/core/Svg.h"
#include "visualizer/widgets/BankHeatmapWidget.h"
#include "visualizer/widgets/ZoomBar.h"

namespace ts::gui {

BankAccessModel::BankAccessModel(QObject* parent) : QAbstractTableModel(parent) {}

void BankAccessModel::setReport(analysis::KernelBankReport r) {
    beginResetModel();
    m_report = std::move(r);
    m_rows = viz::sortedAccessRows(m_report);
    endResetModel();
}

int BankAccessModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}
int BankAccessModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BankAccessModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size())) return {};
    const auto& r = m_rows[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case Line:
                return r.line;
            case Buffer:
                return QString::fromStdString(r.buffer);
            case Instruction:
                return QString::fromStdString(r.instruction);
            case Ways:
                return r.ways;
            case Wavefronts:
                return qlonglong(r.wavefronts);
            case Ideal:
                return qlonglong(r.ideal);
            case Excess:
                return qlonglong(r.excess);
            case Worst:
                return QString::fromStdString(r.where);
        }
    }
    if (role == Qt::ToolTipRole && (index.column() == Instruction || index.column() == Worst))
        return QString::fromStdString(index.column() == Instruction ? r.instruction : r.where);
    if (role == Qt::BackgroundRole && r.ways > 1 &&
        (index.column() == Ways || index.column() == Excess))
        return QColor(r.ways >= 8 ? "#f4a582" : "#fddbc7");
    if (role == Qt::TextAlignmentRole && index.column() != Buffer &&
        index.column() != Instruction && index.column() != Worst)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant BankAccessModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Line",       "Buffer", "Instruction", "Ways",
                                  "Wavefronts", "Ideal",  "Excess",      "Worst execution"};
    return tr(names[section]);
}

// --- predicted vs measured ---------------------------------------------------------------------

BankCompareModel::BankCompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void BankCompareModel::setPredicted(const analysis::KernelBankReport& r, bool valid) {
    beginResetModel();
    m_rows = viz::compareCounters(r, viz::MeasuredBanks{});
    m_match = {};
    m_hasMeasured = false;
    m_hasPredicted = valid;
    endResetModel();
}

void BankCompareModel::setCompared(std::vector<viz::CounterComparison> rows,
                                   viz::MatchReport match) {
    beginResetModel();
    m_rows = std::move(rows);
    m_match = std::move(match);
    m_hasMeasured = true;
    m_hasPredicted = true;
    endResetModel();
}

int BankCompareModel::disagreements() const {
    int n = 0;
    for (const auto& r : m_rows) n += r.agree.has_value() && !*r.agree;
    return n;
}

int BankCompareModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}
int BankCompareModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BankCompareModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size())) return {};
    const auto& r = m_rows[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::DisplayRole) {
        switch (c) {
            case Counter:
                return QString::fromStdString(r.label);
            case Predicted:
                if (!m_hasPredicted) return QStringLiteral("—");
                return QLocale::system().toString(qlonglong(std::llround(r.predicted)));
            case Measured:
                if (!m_hasMeasured) return QStringLiteral("—");
                return r.measured ? QLocale::system().toString(qlonglong(std::llround(*r.measured)))
                                  : tr("n/a");
            case Agree:
                if (!r.agree) return QString();
                return *r.agree ? tr("✔ agree") : tr("✖ differ");
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = tr("%1\nCUPTI metric: %2")
                          .arg(QString::fromStdString(r.label), QString::fromStdString(r.metric));
        if (r.measured && c != Counter)
            tip += tr("\nmeasured − predicted = %L1")
                       .arg(qlonglong(std::llround(*r.measured - r.predicted)));
        if (r.agree) tip += tr("\nagree: within max(2%, 64), the rule of bench/h200_banks.sh");
        return tip;
    }
    if (role == Qt::ForegroundRole && c == Agree && r.agree)
        return *r.agree ? theme().success : theme().error;
    if (role == Qt::ForegroundRole && c == Measured && !r.measured) return theme().dim;
    if (role == Qt::TextAlignmentRole && (c == Predicted || c == Measured))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant BankCompareModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Per kernel", "Predicted", "Measured", ""};
    return tr(names[section]);
}

// --- panel
// -----------------------------------------------------------------------------------------

BankPanel::BankPanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
    setObjectName("BankPanel");
    m_model = new BankAccessModel(this);
    m_table = new QTableView;
    m_table->setObjectName("bankTable");
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // Every column fits its contents except the instruction, which takes (and elides into) the
    // rest: the table never needs a horizontal scroll bar in a ~550 px wide dock.
    auto* hh = m_table->horizontalHeader();
    hh->setStretchLastSection(false);
    for (int c = 0; c < BankAccessModel::ColumnCount; ++c)
        hh->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    hh->setSectionResizeMode(BankAccessModel::Instruction, QHeaderView::Stretch);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false);
    // Compact rows (text + 6 px, as the comparison table): more accesses in the same height.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_totals = new QLabel;
    m_totals->setWordWrap(true);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Predicted vs measured, per kernel.
    m_compare = new BankCompareModel(this);
    m_compareTable = new QTableView;
    m_compareTable->setObjectName("bankCompareTable");
    m_compareTable->setModel(m_compare);
    m_compareTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_compareTable->setFocusPolicy(Qt::NoFocus);
    m_compareTable->verticalHeader()->hide();
    m_compareTable->setShowGrid(false);
    m_compareTable->setWordWrap(false);
    m_compareTable->verticalHeader()->setDefaultSectionSize(m_compareTable->fontMetrics().height() +
                                                            6);
    auto* ch = m_compareTable->horizontalHeader();
    ch->setSectionResizeMode(BankCompareModel::Counter, QHeaderView::Stretch);
    for (int col :
         {BankCompareModel::Predicted, BankCompareModel::Measured, BankCompareModel::Agree})
        ch->setSectionResizeMode(col, QHeaderView::ResizeToContents);
    ch->setHighlightSections(false);
    // Exactly the five rows: the table never scrolls and never takes the access list's room.
    const int rows = int(viz::comparedCounters().size());
    m_compareTable->setFixedHeight(ch->sizeHint().height() +
                                   rows * m_compareTable->verticalHeader()->defaultSectionSize() +
                                   2 * m_compareTable->frameWidth());
    m_compareTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_measuredInfo = new QLabel(tr("Measured: none loaded"));
    m_measuredInfo->setWordWrap(true);
    m_measuredInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_measuredInfo->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_loadButton = new QToolButton;
    m_loadButton->setText(tr("Load measured…"));
    m_loadButton->setToolTip(
        tr("Load the JSON of `tilec banks FILE --measure --json OUT` (run on a GPU)"));
    m_banner = new QLabel;
    m_banner->setObjectName("bankMeasuredBanner");
    m_banner->setWordWrap(true);
    m_banner->setContentsMargins(6, 3, 6, 3);
    m_banner->setAutoFillBackground(true);
    m_banner->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_banner->hide();
    m_heat = new viz::BankHeatmapWidget;
    m_scroll = new QScrollArea;
    m_scroll->setWidget(m_heat);
    m_scroll->setWidgetResizable(false);
    m_scroll->viewport()->installEventFilter(this);  // refit when the pane is resized
    m_zoom = new viz::ZoomBar;
    m_zoom->fitButton()->setObjectName("heatmapFit");
    m_zoom->fitButton()->setToolTip(tr("Fit all 32 banks (and the lanes, when they stay "
                                       "readable) to the pane; +/-, Ctrl + wheel or the buttons "
                                       "zoom by hand, dragging pans"));
    connect(m_zoom, &viz::ZoomBar::fitToggled, this, [this](bool on) {
        if (on) fitHeatmap();
    });
    connect(m_zoom, &viz::ZoomBar::zoomIn, this, [this] { m_heat->zoomBy(true); });
    connect(m_zoom, &viz::ZoomBar::zoomOut, this, [this] { m_heat->zoomBy(false); });
    connect(m_zoom, &viz::ZoomBar::zoomReset, this, [this] { m_heat->resetZoom(); });
    connect(m_heat, &viz::BankHeatmapWidget::zoomedByUser, this, [this] { m_zoom->setFit(false); });
    auto* split = new QSplitter(Qt::Vertical);
    auto* upper = new QWidget;
    m_split = split;
    m_upper = upper;
    auto* uv = new QVBoxLayout(upper);
    uv->setContentsMargins(0, 0, 0, 0);
    auto* measuredRow = new QHBoxLayout;
    measuredRow->addWidget(m_measuredInfo, 1);
    measuredRow->addWidget(m_loadButton);
    auto* svgButton = new QToolButton;
    svgButton->setText(tr("SVG…"));
    svgButton->setToolTip(tr("Export the heatmap of the selected access as SVG"));
    auto* pngButton = new QToolButton;
    pngButton->setText(tr("PNG…"));
    pngButton->setToolTip(tr("Export the heatmap of the selected access as PNG"));
    auto* heatRow = new QHBoxLayout;
    heatRow->setContentsMargins(0, 0, 0, 0);
    auto* heatTitle = new QLabel(tr("Heatmap of the selected access"));
    heatTitle->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // never widens the dock
    heatRow->addWidget(heatTitle, 1);
    heatRow->addWidget(m_zoom);
    heatRow->addWidget(svgButton);
    heatRow->addWidget(pngButton);
    auto* lower = new QWidget;
    auto* lv = new QVBoxLayout(lower);
    lv->setContentsMargins(0, 0, 0, 0);
    lv->setSpacing(2);
    lv->addLayout(heatRow);
    lv->addWidget(m_scroll, 1);
    connect(svgButton, &QToolButton::clicked, this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Export heatmap as SVG"), "banks.svg",
                                                 "SVG (*.svg)");
        if (!p.isEmpty()) exportHeatmapSvg(p);
    });
    connect(pngButton, &QToolButton::clicked, this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Export heatmap as PNG"), "banks.png",
                                                 "PNG (*.png)");
        if (!p.isEmpty()) exportHeatmapPng(p);
    });
    uv->addWidget(m_totals);
    uv->addLayout(measuredRow);
    uv->addWidget(m_banner);
    uv->addWidget(m_compareTable);
    uv->addWidget(m_table, 1);
    split->addWidget(upper);
    split->addWidget(lower);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    connect(split, &QSplitter::splitterMoved, this, [this] { m_userSplit = true; });
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addWidget(split);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) { selectRow(cur.row(), false); });
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex& i) { selectRow(i.row(), true); });
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex& i) { selectRow(i.row(), true); });
    connect(&m_session, &Session::resultChanged, this, [this] { refresh(); });
    connect(m_loadButton, &QToolButton::clicked, this, &BankPanel::promptLoadMeasured);
    connect(&m_session, &Session::measuredBanksAvailable, this, [this](const QString& path) {
        QString why;
        if (!loadMeasured(path, &why)) m_measuredInfo->setText(tr("Measured: %1").arg(why));
    });
    // A new document: the old measurement, accesses and heatmap are someone else's.
    connect(&m_session, &Session::documentOpened, this, [this] {
        ++m_tag;  // drop an analysis of the old document still in flight
        // Nothing of the old document stays until the new one's compile: the per-kernel
        // counters too (they showed the previous file's predictions, then zeros if the new
        // file did not compile).
        m_noResult = true;
        m_model->setReport({});
        m_heat->clear();
        clearMeasured();
        m_totals->setText(tr("No result for this program yet (compiling…)"));
    });
    refresh();
}

void BankPanel::fitHeatmap() {
    if (!m_zoom->fit() || !m_heat->hasModel()) return;
    const QSize view = m_scroll->viewport()->size();
    int cell = m_heat->cellSizeToFit(view);
    // When the lanes scroll, the vertical scroll bar takes its width from the view.
    const int sb = m_scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    if (!m_scroll->verticalScrollBar()->isVisible() && m_heat->sizeForCell(cell).height() > view.height())
        cell = m_heat->cellSizeToFit(view - QSize(sb, 0));
    if (cell != m_heat->cellSize()) m_heat->setCellSize(cell);
}

bool BankPanel::eventFilter(QObject* o, QEvent* e) {
    if (o == m_scroll->viewport() && e->type() == QEvent::Resize) fitHeatmap();
    return QWidget::eventFilter(o, e);
}

int BankPanel::visibleTableRows() const {
    return m_table->viewport()->height() / std::max(1, m_table->verticalHeader()->defaultSectionSize());
}

void BankPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fitSplit();
}

void BankPanel::fitSplit() {
    if (m_userSplit || !m_split || m_split->height() <= 0) return;
    // What the tables' part needs: everything above the access table at its size hint, plus
    // the table's header, kTableRows rows and frame (and a horizontal scroll bar's room).
    const int rowH = m_table->verticalHeader()->defaultSectionSize();
    const int tableH = m_table->horizontalHeader()->sizeHint().height() + kTableRows * rowH +
                       2 * m_table->frameWidth() +
                       m_table->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    // Everything above the table as laid out now (as hinted before the first layout).
    const QList<int> now = m_split->sizes();
    const int others =
        now.value(0) > 0 && m_table->height() > 0
            ? std::max(0, now.value(0) - m_table->height())
            : std::max(0, m_upper->sizeHint().height() - m_table->sizeHint().height());
    const int total = m_split->height() - m_split->handleWidth();
    const int upper = std::min(others + tableH, std::max(0, total - 200));
    if (upper <= 0) return;
    const QList<int> sizes{upper, total - upper};
    if (m_split->sizes() != sizes) m_split->setSizes(sizes);
}

bool BankPanel::exportHeatmapSvg(const QString& path) const {
    if (m_heat->model().cost().phases == 0) return false;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    return f.write(QByteArray::fromStdString(viz::heatmapToSvg(m_heat->model()))) > 0;
}

bool BankPanel::exportHeatmapPng(const QString& path) const {
    if (m_heat->model().cost().phases == 0) return false;
    return m_heat->grab().save(path, "PNG");
}

void BankPanel::refresh() {
    // Hidden tab of a visible window: nothing to show, so no work on every keystroke.
    if (!m_shown) {
        m_stale = true;
        return;
    }
    m_stale = false;
    auto r = m_session.shown();
    // What the next report stands for (issue 15: never another program's data unmarked).
    m_noResult = !r || !r->lowered;
    m_resultIsStale = m_session.shownIsStale();
    const quint64 tag = ++m_tag;
    QPointer<BankPanel> self(this);
    QThreadPool::globalInstance()->start([self, tag, r] {
        analysis::KernelBankReport rep;
        if (r && r->lowered) rep = analysis::analyzeBanks(r->lowered);
        // Posted to the application object; `self` is checked on the UI thread.
        QMetaObject::invokeMethod(
            qApp,
            [self, tag, rep = std::move(rep)]() mutable {
                if (self && tag == self->m_tag) self->applyReport(std::move(rep));
            },
            Qt::QueuedConnection);
    });
}

QString BankPanel::totalsText() const { return m_totals->text(); }

void BankPanel::setPanelShown(bool shown) {
    m_shown = shown;
    if (shown && m_stale) refresh();
}

void BankPanel::applyReport(analysis::KernelBankReport rep) {
    m_model->setReport(std::move(rep));
    const auto& k = m_model->report();
    if (m_noResult) {
        m_totals->setText(
            tr("No result for this program: it does not compile yet (see Problems)."));
    } else if (k.accesses.empty()) {
        m_totals->setText(tr("No shared-memory accesses in the lowered kernel."));
    } else {
        double b = double(k.blocks);
        m_totals->setText(tr("Per kernel (%1 blocks × %2 threads): loads %3 wavefronts, %4 excess; "
                             "stores %5 wavefronts, %6 "
                             "excess; cp.async writes %7 wavefronts.")
                              .arg(k.blocks)
                              .arg(k.threads)
                              .arg(b * k.loadWavefronts, 0, 'f', 0)
                              .arg(b * k.loadExcess(), 0, 'f', 0)
                              .arg(b * k.storeWavefronts, 0, 'f', 0)
                              .arg(b * k.storeExcess(), 0, 'f', 0)
                              .arg(b * k.cpAsyncWavefronts, 0, 'f', 0));
    }
    if (m_resultIsStale)
        m_totals->setText(tr("<b>Stale:</b> the current text has errors; these are the accesses "
                             "of the last compile that got this far. ") +
                          m_totals->text());
    updateComparison();
    if (m_model->rowCount() > 0) {
        m_table->selectRow(0);
        selectRow(0, false);
    } else {
        m_heat->clear();  // never the previous program's heatmap
    }
    fitSplit();  // the totals' text may have changed its height
}

void BankPanel::selectRow(int row, bool reveal) {
    if (row < 0 || row >= m_model->rowCount()) return;
    const auto& r = m_model->row(row);
    const auto& a = m_model->report().accesses[r.index];
    m_heat->setModel(
        viz::BankHeatmapModel(a.worst, a.buffer + " " + a.instruction + " @ " + a.worstWhere));
    fitHeatmap();
    if (reveal && a.span.valid()) {
        m_session.reveal(a.span);
    }
}

}  // namespace ts::gui

namespace ts::gui {

bool BankPanel::loadMeasured(const QString& path, QString* why) {
    // Bounded, regular files only (a measurement JSON is a few KB; never read a device).
    auto text = ts::readSourceFile(path.toStdString(), 64ull << 20);
    if (!text.error.empty()) {
        if (why)
            *why = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(text.error));
        return false;
    }
    std::string err;
    auto m = viz::parseMeasuredBanks(text.text, &err);
    if (!m) {
        if (why) *why = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(err));
        return false;
    }
    m_measured = std::move(*m);
    m_measuredPath = path;
    updateComparison();
    return true;
}

void BankPanel::clearMeasured() {
    m_measured.reset();
    m_measuredPath.clear();
    updateComparison();
}

void BankPanel::promptLoadMeasured() {
    QString dir = m_measuredPath.isEmpty() ? QFileInfo(m_session.path()).path()
                                           : QFileInfo(m_measuredPath).path();
    QString path = QFileDialog::getOpenFileName(this, tr("Load Measured Bank Counters"), dir,
                                                tr("tilec banks --json (*.json)"));
    if (path.isEmpty()) return;
    QString why;
    if (!loadMeasured(path, &why)) m_measuredInfo->setText(tr("Measured: %1").arg(why));
}

QString BankPanel::measuredBannerText() const {
    return m_banner->isHidden() ? QString() : m_banner->text();
}

void BankPanel::updateComparison() {
    const auto& rep = m_model->report();
    if (!m_measured) {
        m_compare->setPredicted(rep, !m_noResult);
        m_measuredInfo->setText(
            tr("Measured: none loaded (tilec banks FILE --measure --json OUT on a GPU, or Run on a "
               "GPU)"));
        m_banner->hide();
        return;
    }
    const viz::MeasuredBanks& m = *m_measured;
    std::map<std::string, std::string> params;
    auto shown = m_session.shown();
    if (shown)
        for (const auto& p : shown->params) params[p.name] = p.value;
    viz::MatchReport match =
        viz::matchMeasured(m, rep.kernel, rep.blocks, params, m_session.target().toStdString(),
                           m_session.text().toStdString());
    m_compare->setCompared(viz::compareCounters(rep, m), match);
    QString where = QString::fromStdString(m.device.empty() ? std::string("a GPU") : m.device);
    if (!m.chip.empty()) where += " (" + QString::fromStdString(m.chip) + ")";
    int measured = 0;
    for (int i = 0; i < m_compare->rowCount(); ++i) measured += m_compare->row(i).agree.has_value();
    m_measuredInfo->setText(tr("Measured on %1 · %2 · %3 of %4 counters agree")
                                .arg(where, QFileInfo(m_measuredPath).fileName())
                                .arg(measured - m_compare->disagreements())
                                .arg(measured));
    m_measuredInfo->setToolTip(m_measuredPath);
    QStringList lines;
    for (const auto& r : match.reasons) lines << QString::fromStdString(r);
    if (!m.error.empty())
        lines.prepend(tr("CUPTI reported an error: %1").arg(QString::fromStdString(m.error)));
    if (match.status == viz::MeasuredMatch::Matches && m.error.empty()) {
        m_banner->hide();
        return;
    }
    const bool bad = match.status == viz::MeasuredMatch::Mismatch;
    m_banner->setText(
        (bad ? tr("⚠ These measurements do not match the program shown: ")
             : tr("⚠ Cannot check these measurements belong to the program shown: ")) +
        lines.join(QStringLiteral("; ")) + ".");
    QPalette p = m_banner->palette();
    const Theme& t = theme();
    p.setColor(QPalette::Window, bad ? (t.dark ? QColor("#5a2a24") : QColor("#fde2dd"))
                                     : (t.dark ? QColor("#4a3f1c") : QColor("#fff4ce")));
    p.setColor(QPalette::WindowText, t.text);
    m_banner->setPalette(p);
    m_banner->show();
}

}  // namespace ts::gui
