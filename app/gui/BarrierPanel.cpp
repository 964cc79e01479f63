// The Barrier panel (BarrierPanel.h).
#include "app/gui/BarrierPanel.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPointer>
#include <QSplitter>
#include <QTableView>
#include <QThreadPool>
#include <QVBoxLayout>

#include "app/gui/Session.h"
#include "app/gui/Theme.h"

namespace ts::gui {

void BarrierTableModel::setTable(viz::BarrierTable t) {
    beginResetModel();
    m_table = std::move(t);
    endResetModel();
}

int BarrierTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_table.rows.size()); }
int BarrierTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_table.columns.size()); }

QVariant BarrierTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const auto& r = m_table.rows[size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return index.column() < int(r.cells.size()) ? QString::fromStdString(r.cells[size_t(index.column())]) : QString();
        case Qt::ToolTipRole: return QString::fromStdString(r.tooltip);
        case Qt::ForegroundRole:
            if (r.bad) return theme().error;
            return {};
        case Qt::FontRole:
            if (r.bad) {
                QFont f;
                f.setBold(true);
                return f;
            }
            return {};
        default: return {};
    }
}

QVariant BarrierTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (role != Qt::DisplayRole || o != Qt::Horizontal || section >= columnCount()) return {};
    return QString::fromStdString(m_table.columns[size_t(section)]);
}

BarrierPanel::BarrierPanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
    setObjectName("barrierPanel");
    m_status = new QLabel(tr("No result for this program yet (compiling…)"), this);
    m_status->setWordWrap(true);
    m_model = new BarrierTableModel(this);
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setWordWrap(false);
    m_diags = new QListWidget(this);
    m_diags->setWordWrap(true);
    auto* diagBox = new QWidget(this);
    auto* dv = new QVBoxLayout(diagBox);
    dv->setContentsMargins(0, 0, 0, 0);
    dv->addWidget(new QLabel(tr("Static barrier check"), diagBox));
    dv->addWidget(m_diags);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(diagBox);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({400, 90});
    m_diags->setMinimumHeight(m_diags->fontMetrics().height() * 2 + 8);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addWidget(m_status);
    v->addWidget(split, 1);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& i) { selectRow(i.row()); });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& i) { selectRow(i.row()); });
    connect(m_diags, &QListWidget::itemClicked, this, [this](QListWidgetItem* it) {
        const int i = m_diags->row(it);
        const auto& d = m_model->table().diagnostics;
        if (i >= 0 && i < int(d.size()) && d[size_t(i)].span.valid()) m_session.reveal(d[size_t(i)].span);
    });
    connect(&m_session, &Session::resultChanged, this, &BarrierPanel::refresh);
    connect(&m_session, &Session::documentOpened, this, [this] {
        ++m_tag;
        m_model->setTable({});
        m_diags->clear();
        m_status->setText(tr("No result for this program yet (compiling…)"));
    });
    refresh();
}

void BarrierPanel::setPanelShown(bool shown) {
    m_shown = shown;
    if (shown && m_stale) refresh();
}

void BarrierPanel::refresh() {
    if (!m_shown) {
        m_stale = true;
        return;
    }
    m_stale = false;
    ResultPtr r = m_session.shown();
    if (!r) r = m_session.result();
    if (!r) return;
    m_resultIsStale = m_session.shownIsStale();
    const quint64 tag = ++m_tag;
    const QString target = m_session.target();
    m_pending = true;
    QPointer<BarrierPanel> self(this);
    QThreadPool::globalInstance()->start([self, tag, r, target] {
        TimelinePtr t = timelineFor(r, target);
        QMetaObject::invokeMethod(
            qApp,
            [self, tag, r, t]() {
                if (!self || tag != self->m_tag) return;
                self->m_result = r;
                self->showTimeline(t);
            },
            Qt::QueuedConnection);
    });
}

void BarrierPanel::showTimeline(TimelinePtr t) {
    m_pending = false;
    m_diags->clear();
    const auto& loops = t->timeline.loops;
    if (loops.empty()) {
        m_model->setTable({});
        const bool noResult = !m_result || !m_result->ok;
        m_status->setText(noResult ? tr("No result for this program: it does not compile yet (see Problems).")
                                   : tr("No pipeline, so no barriers to show: %1.").arg(QString::fromStdString(t->reason)));
        emit tableShown();
        return;
    }
    // Several pipelined loops: their tables one after the other would mix phases; the first.
    viz::BarrierTable table = viz::barrierTable(loops.front());
    QString status = QString::fromStdString(table.summary);
    if (loops.size() > 1) status += tr(" (first of %1 pipelined loops)").arg(loops.size());
    if (m_resultIsStale)
        status = tr("<b>Stale:</b> the current text has errors; these are the barriers of the last compile that got this far. ") +
                 status.toHtmlEscaped();
    m_status->setText(status);
    for (const auto& d : table.diagnostics) {
        auto* item = new QListWidgetItem(QString::fromStdString(d.text()), m_diags);
        item->setForeground(d.error ? theme().error : theme().warning);
    }
    if (table.diagnostics.empty()) {
        auto* item = new QListWidgetItem(table.kind == "mbarrier" ? tr("✓ every wait has its arrivals and transaction bytes")
                                                                  : tr("✓ no mbarriers in this schedule (cp.async groups)"),
                                         m_diags);
        item->setForeground(theme().success);
        item->setFlags(Qt::ItemIsEnabled);
    }
    m_model->setTable(std::move(table));
    m_view->resizeColumnsToContents();
    emit tableShown();
}

void BarrierPanel::selectRow(int row) {
    if (row < 0 || row >= m_model->rowCount()) return;
    const Span& s = m_model->table().rows[size_t(row)].span;
    if (s.valid()) m_session.reveal(s);
}

QString BarrierPanel::statusText() const { return m_status->text(); }

}  // namespace ts::gui
