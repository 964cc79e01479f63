// The Barrier panel (issue 9): the synchronization of the shown result's static pipeline plan
// (TimelineData.h -> viz::barrierTable) — on sm_90a each mbarrier phase with its parity, the
// tiles it carries, the iteration that waits for it, arrivals and transaction bytes expected vs
// delivered (a row that does not balance in red); on sm_80 each cp.async group with its commit
// and the wait that completes it — and the static barrier check's diagnostics (red, with their
// source line). Selecting a row or a diagnostic moves the editor to its statement. Refreshes with
// every compile, with the same "stale / no result / no pipeline" states as the other panels.
#pragma once
#include <QAbstractTableModel>
#include <QWidget>

#include "app/gui/PanelRegistry.h"
#include "app/gui/TimelineData.h"
#include "visualizer/core/BarrierTable.h"

class QLabel;
class QListWidget;
class QTableView;

namespace ts::gui {

class Session;

/// viz::BarrierTable as a Qt table model (bad rows in the theme's error colour).
class BarrierTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setTable(viz::BarrierTable t);
    const viz::BarrierTable& table() const { return m_table; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    viz::BarrierTable m_table;
};

class BarrierPanel : public QWidget, public LazyPanel {
    Q_OBJECT
public:
    explicit BarrierPanel(Session& session, QWidget* parent = nullptr);
    BarrierTableModel* model() const { return m_model; }
    QTableView* table() const { return m_view; }
    QListWidget* diagnostics() const { return m_diags; }
    QString statusText() const;
    /// Shows `t` as if it were the plan of the shown result (tests: seeded defects).
    void showTimeline(TimelinePtr t);
    bool pending() const { return m_pending; }
    void setPanelShown(bool shown) override;

signals:
    void tableShown();

private:
    void refresh();
    void selectRow(int row);

    Session& m_session;
    BarrierTableModel* m_model;
    QTableView* m_view;
    QListWidget* m_diags;
    QLabel* m_status;
    ResultPtr m_result;
    quint64 m_tag = 0;
    bool m_shown = true, m_stale = false, m_pending = false, m_resultIsStale = false;
};

}  // namespace ts::gui
