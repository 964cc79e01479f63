// The Problems panel: the latest compile's diagnostics (severity, line:col, message + hint, the
// phase that reported it) as a model/view list; activating a row moves the editor there through
// Session::reveal. The status line counts errors and warnings and shows the compile time.
#pragma once
#include <QAbstractTableModel>
#include <QWidget>
#include <vector>

#include "compiler/support/Diagnostic.h"

class QLabel;
class QTableView;

namespace ts::gui {

class Session;

class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Severity, Location, Message, Origin, ColumnCount };
    explicit DiagnosticsModel(Session& session, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    const Diagnostic& at(int row) const { return m_diags[row]; }

private:
    void refresh();
    Session& m_session;
    std::vector<Diagnostic> m_diags;
    SourcePtr m_source;  ///< the compiled text: Location shows character columns of its lines
};

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(Session& session, QWidget* parent = nullptr);
    DiagnosticsModel* model() const { return m_model; }

private:
    Session& m_session;
    DiagnosticsModel* m_model;
    QTableView* m_view;
    QLabel* m_status;
};

}  // namespace ts::gui
