// The pass explorer's list: one row per pass of the latest compile (CompileResult::passes) with
// its number, name, time and whether it changed the IR; and a filter proxy for "hide unchanged"
// and the search box (matches name or summary). Before any compile succeeds, the list shows the
// pipeline's pass names (ts::pipelinePasses) greyed out, so the user still sees what will run.
#pragma once
#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "app/gui/CompileWorker.h"

namespace ts::gui {

class Session;

class PassListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Index, Name, Time, Changed, ColumnCount };
    /// Extra roles: whether the pass changed the IR (bool), and whether it ran (bool).
    enum Role { ChangedRole = Qt::UserRole + 1, RanRole, SummaryRole };
    explicit PassListModel(Session& session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    /// Pass names in list order (tests: "pass list equals the pipeline").
    QStringList names() const;

private:
    void refresh();
    struct Row {
        QString name, summary;
        double micros = 0;
        bool changed = false, ran = false, failed = false;
        int diagnostics = 0;
    };
    Session& m_session;
    std::vector<Row> m_rows;
};

/// Filters PassListModel rows: hide unchanged passes, and a case-insensitive search in name and
/// summary.
class PassFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setHideUnchanged(bool hide);
    bool hideUnchanged() const { return m_hideUnchanged; }
    void setSearch(const QString& text);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    bool m_hideUnchanged = false;
    QString m_search;
};

}  // namespace ts::gui
