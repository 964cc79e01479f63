// Bank panel (BankPanel.h).
#include "app/gui/BankPanel.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QThreadPool>
#include <QVBoxLayout>

#include "app/gui/Session.h"
#include "visualizer/widgets/BankHeatmapWidget.h"

namespace ts::gui {

BankAccessModel::BankAccessModel(QObject* parent) : QAbstractTableModel(parent) {}

void BankAccessModel::setReport(analysis::KernelBankReport r) {
    beginResetModel();
    m_report = std::move(r);
    m_rows = viz::sortedAccessRows(m_report);
    endResetModel();
}

int BankAccessModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int BankAccessModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant BankAccessModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size())) return {};
    const auto& r = m_rows[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case Line: return r.line;
            case Buffer: return QString::fromStdString(r.buffer);
            case Instruction: return QString::fromStdString(r.instruction);
            case Ways: return r.ways;
            case Wavefronts: return qlonglong(r.wavefronts);
            case Ideal: return qlonglong(r.ideal);
            case Excess: return qlonglong(r.excess);
            case Worst: return QString::fromStdString(r.where);
        }
    }
    if (role == Qt::BackgroundRole && r.ways > 1 && (index.column() == Ways || index.column() == Excess))
        return QColor(r.ways >= 8 ? "#f4a582" : "#fddbc7");
    if (role == Qt::TextAlignmentRole && index.column() != Buffer && index.column() != Instruction && index.column() != Worst)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant BankAccessModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Line", "Buffer", "Instruction", "Ways", "Wavefronts", "Ideal", "Excess", "Worst execution"};
    return tr(names[section]);
}

BankPanel::BankPanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
    setObjectName("BankPanel");
    m_model = new BankAccessModel(this);
    m_table = new QTableView;
    m_table->setObjectName("bankTable");
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_totals = new QLabel;
    m_totals->setWordWrap(true);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heat = new viz::BankHeatmapWidget;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_heat);
    scroll->setWidgetResizable(false);
    auto* split = new QSplitter(Qt::Vertical);
    auto* upper = new QWidget;
    auto* uv = new QVBoxLayout(upper);
    uv->setContentsMargins(0, 0, 0, 0);
    uv->addWidget(m_totals);
    uv->addWidget(m_table, 1);
    split->addWidget(upper);
    split->addWidget(scroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addWidget(split);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) { selectRow(cur.row(), false); });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& i) { selectRow(i.row(), true); });
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& i) { selectRow(i.row(), true); });
    connect(&m_session, &Session::resultChanged, this, [this] { refresh(); });
    refresh();
}

void BankPanel::refresh() {
    // Hidden tab of a visible window: nothing to show, so no work on every keystroke.
    if (!m_shown) {
        m_stale = true;
        return;
    }
    m_stale = false;
    auto r = m_session.shown();
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

void BankPanel::setPanelShown(bool shown) {
    m_shown = shown;
    if (shown && m_stale) refresh();
}

void BankPanel::applyReport(analysis::KernelBankReport rep) {
    m_model->setReport(std::move(rep));
    const auto& k = m_model->report();
    if (k.accesses.empty()) {
        m_totals->setText(tr("No shared-memory accesses in the lowered kernel."));
    } else {
        double b = double(k.blocks);
        m_totals->setText(tr("Per kernel (%1 blocks × %2 threads): loads %3 wavefronts, %4 excess; stores %5 wavefronts, %6 "
                             "excess; cp.async writes %7 wavefronts. Measured: run bench/h200_banks.sh.")
                              .arg(k.blocks).arg(k.threads)
                              .arg(b * k.loadWavefronts, 0, 'f', 0).arg(b * k.loadExcess(), 0, 'f', 0)
                              .arg(b * k.storeWavefronts, 0, 'f', 0).arg(b * k.storeExcess(), 0, 'f', 0)
                              .arg(b * k.cpAsyncWavefronts, 0, 'f', 0));
    }
    m_table->resizeColumnsToContents();
    if (m_model->rowCount() > 0) {
        m_table->selectRow(0);
        selectRow(0, false);
    }
}

void BankPanel::selectRow(int row, bool reveal) {
    if (row < 0 || row >= m_model->rowCount()) return;
    const auto& r = m_model->row(row);
    const auto& a = m_model->report().accesses[r.index];
    m_heat->setModel(viz::BankHeatmapModel(a.worst, a.buffer + " " + a.instruction + " @ " + a.worstWhere));
    if (reveal && a.span.valid()) {
        m_session.reveal(a.span);
    }
}

}  // namespace ts::gui
