// Problems list (DiagnosticsPanel.h).
#include "app/gui/DiagnosticsPanel.h"


#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include "app/gui/DebugState.h"
#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "compiler/support/TextColumn.h"

namespace ts::gui {

DiagnosticsModel::DiagnosticsModel(Session& session, QObject* parent)
    : QAbstractTableModel(parent), m_session(session) {
    connect(&session, &Session::resultChanged, this, &DiagnosticsModel::refresh);
    connect(&DebugState::of(session), &DebugState::problemsChanged, this, &DiagnosticsModel::refresh);
}

void DiagnosticsModel::refresh() {
    beginResetModel();
    auto r = m_session.result();
    m_diags = r ? r->diagnostics : std::vector<Diagnostic>{};
    m_source = r ? r->source : nullptr;
    // The step debugger's checker reports (race, deadlock, ...), clickable like the others.
    for (const auto& d : DebugState::of(m_session).problems()) m_diags.push_back(d);
    endResetModel();
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_diags.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_diags.size())) return {};
    const Diagnostic& d = m_diags[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case Severity:
                return d.severity == ts::Severity::Error     ? tr("error")
                       : d.severity == ts::Severity::Warning ? tr("warning")
                                                             : tr("note");
            case Location:
                // Spans count bytes (the editor's positions); people count characters.
                return d.span.valid() ? QString("%1:%2").arg(d.span.line).arg(m_source ? charColumn(m_source->lineText(d.span.line), d.span.col)
                                                                                       : d.span.col)
                                      : QStringLiteral("—");
            case Message: {
                QString m = QString::fromStdString(d.message);
                if (!d.hint.empty())
                    m += QStringLiteral("  —  hint: ") + QString::fromStdString(d.hint);
                return m;
            }
            case Origin:
                return QString::fromStdString(d.origin);
        }
    }
    if (role == Qt::DecorationRole && index.column() == Severity) {
        auto icon = d.severity == ts::Severity::Error     ? QStyle::SP_MessageBoxCritical
                    : d.severity == ts::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                          : QStyle::SP_MessageBoxInformation;
        return QApplication::style()->standardIcon(icon);
    }
    if (role == Qt::ForegroundRole && index.column() == Severity)
        return d.severity == ts::Severity::Error ? theme().error : theme().warning;
    if (role == Qt::ToolTipRole && index.column() == Message) {
        QString m = QString::fromStdString(d.message);
        if (!d.hint.empty()) m += "\nhint: " + QString::fromStdString(d.hint);
        return m;
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Severity:
            return tr("Severity");
        case Location:
            return tr("Line");
        case Message:
            return tr("Message");
        case Origin:
            return tr("Phase");
    }
    return {};
}

DiagnosticsPanel::DiagnosticsPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    m_model = new DiagnosticsModel(session, this);
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->verticalHeader()->hide();
    m_view->setShowGrid(false);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    auto* hh = m_view->horizontalHeader();
    hh->setSectionResizeMode(DiagnosticsModel::Severity, QHeaderView::ResizeToContents);
    hh->setSectionResizeMode(DiagnosticsModel::Location, QHeaderView::ResizeToContents);
    hh->setSectionResizeMode(DiagnosticsModel::Message, QHeaderView::Stretch);
    hh->setSectionResizeMode(DiagnosticsModel::Origin, QHeaderView::ResizeToContents);
    m_status = new QLabel(this);
    // The summary must not set the dock's (and the window's) minimum width: it wraps.
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->setSpacing(4);
    lay->addWidget(m_view, 1);
    lay->addWidget(m_status);

    connect(m_view, &QTableView::activated, this,
            [this](const QModelIndex& i) { m_session.reveal(m_model->at(i.row()).span); });
    connect(m_view, &QTableView::clicked, this,
            [this](const QModelIndex& i) { m_session.reveal(m_model->at(i.row()).span); });
    connect(&session, &Session::resultChanged, this, [this] {
        auto r = m_session.result();
        int errors = 0, warnings = 0;
        for (const auto& d : r->diagnostics)
            (d.severity == ts::Severity::Error ? errors : warnings) +=
                d.severity != ts::Severity::Note;
        m_status->setText(tr("%1 error(s), %2 warning(s) · compiled in %3 ms (front end %4, passes "
                             "%5, codegen %6)")
                              .arg(errors)
                              .arg(warnings)
                              .arg(m_session.lastCompileMs(), 0, 'f', 1)
                              .arg(r->frontendMicros / 1000, 0, 'f', 1)
                              .arg(r->passesMicros / 1000, 0, 'f', 1)
                              .arg(r->codegenMicros / 1000, 0, 'f', 1));
    });
}

}  // namespace ts::gui
