// Pass list model and its filter (PassListModel.h).
#include "app/gui/PassListModel.h"

#include <QFont>

#include "app/gui/Session.h"
#include "app/gui/Theme.h"

namespace ts::gui {

PassListModel::PassListModel(Session& session, QObject* parent)
    : QAbstractTableModel(parent), m_session(session) {
    connect(&session, &Session::resultChanged, this, &PassListModel::refresh);
}

void PassListModel::refresh() {
    beginResetModel();
    m_rows.clear();
    auto r = m_session.shown();
    if (r) {
        for (const PassSnapshot& p : r->passes) {
            Row row;
            row.name = QString::fromStdString(p.name);
            row.summary = QString::fromStdString(p.summary);
            row.micros = p.micros;
            row.changed = p.changed;
            row.failed = p.failed;
            row.ran = true;
            row.diagnostics = int(p.diagnostics.size());
            m_rows.push_back(row);
        }
        // Passes that did not run (front-end error, stop-after): listed greyed from the pipeline.
        if (auto target = parseTarget(m_session.target().toStdString())) {
            auto all = pipelinePasses(*target);
            for (size_t i = m_rows.size(); i < all.size(); ++i) {
                Row row;
                row.name = QString::fromStdString(all[i].first);
                row.summary = QString::fromStdString(all[i].second);
                m_rows.push_back(row);
            }
        }
    }
    endResetModel();
}

int PassListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PassListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PassListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size())) return {};
    const Row& r = m_rows[index.row()];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case Index:
                    return index.row() + 1;
                case Name:
                    return r.name;
                case Time:
                    if (!r.ran) return QString();
                    return r.micros >= 1000 ? QString("%1 ms").arg(r.micros / 1000, 0, 'f', 1)
                                            : QString("%1 µs").arg(r.micros, 0, 'f', 0);
                case Changed:
                    if (r.failed) return QStringLiteral("failed");
                    if (!r.ran) return QStringLiteral("not run");
                    return r.changed ? QStringLiteral("changed") : QString();
            }
            break;
        case Qt::ToolTipRole: {
            QString tip = "<b>" + r.name.toHtmlEscaped() + "</b><br>" + r.summary.toHtmlEscaped();
            if (r.diagnostics) tip += QString("<br>%1 diagnostic(s)").arg(r.diagnostics);
            return tip;
        }
        case Qt::ForegroundRole:
            if (!r.ran) return theme().dim;
            if (r.failed) return theme().error;
            if (index.column() == Changed) return theme().accent;
            if (!r.changed && index.column() == Name) return theme().dim;
            if (index.column() == Time || index.column() == Index) return theme().dim;
            break;
        case Qt::FontRole:
            if (index.column() == Name && r.changed) {
                QFont f;
                f.setBold(true);
                return f;
            }
            break;
        case Qt::TextAlignmentRole:
            if (index.column() == Time || index.column() == Index)
                return int(Qt::AlignRight | Qt::AlignVCenter);
            break;
        case ChangedRole:
            return r.changed;
        case RanRole:
            return r.ran;
        case SummaryRole:
            return r.summary;
    }
    return {};
}

QVariant PassListModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Index:
            return QStringLiteral("#");
        case Name:
            return QStringLiteral("Pass");
        case Time:
            return QStringLiteral("Time");
        case Changed:
            return QStringLiteral("IR");
    }
    return {};
}

QStringList PassListModel::names() const {
    QStringList out;
    for (const Row& r : m_rows) out << r.name;
    return out;
}

void PassFilterProxy::setHideUnchanged(bool hide) {
    m_hideUnchanged = hide;
    invalidateFilter();
}

void PassFilterProxy::setSearch(const QString& text) {
    m_search = text.trimmed();
    invalidateFilter();
}

bool PassFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    QModelIndex idx = sourceModel()->index(row, PassListModel::Name, parent);
    if (m_hideUnchanged && !idx.data(PassListModel::ChangedRole).toBool()) return false;
    if (m_search.isEmpty()) return true;
    return idx.data(Qt::DisplayRole).toString().contains(m_search, Qt::CaseInsensitive) ||
           idx.data(PassListModel::SummaryRole).toString().contains(m_search, Qt::CaseInsensitive);
}

}  // namespace ts::gui
