// The Bank panel (issue 4 §5): the shared-memory accesses of the shown compile result
// (compiler/analysis/Banks.h over CompileResult::lowered) as a table sorted by excess wavefronts
// — line, buffer, instruction, ways, wavefronts, ideal, excess — with the per-kernel totals;
// selecting a row paints its worst warp execution as a lanes x banks heatmap
// (viz::BankHeatmapWidget) and moves the editor to its source line through the session. The
// "measured" column is filled from a bench/results/banks-*.json table when one is loaded.
#pragma once
#include <QAbstractTableModel>
#include <QWidget>

#include "app/gui/PanelRegistry.h"

#include "compiler/analysis/Banks.h"
#include "visualizer/core/BankMap.h"

class QLabel;
class QTableView;

namespace ts::viz {
class BankHeatmapWidget;
}

namespace ts::gui {

class Session;

/// Rows of viz::sortedAccessRows over the analysis of the session's shown result.
class BankAccessModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Line, Buffer, Instruction, Ways, Wavefronts, Ideal, Excess, Worst, ColumnCount };
    explicit BankAccessModel(QObject* parent = nullptr);
    void setReport(analysis::KernelBankReport r);
    const analysis::KernelBankReport& report() const { return m_report; }
    const viz::BankAccessRow& row(int i) const { return m_rows[size_t(i)]; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    analysis::KernelBankReport m_report;
    std::vector<viz::BankAccessRow> m_rows;
};

class BankPanel : public QWidget, public LazyPanel {
    Q_OBJECT
public:
    explicit BankPanel(Session& session, QWidget* parent = nullptr);
    BankAccessModel* model() const { return m_model; }
    viz::BankHeatmapWidget* heatmap() const { return m_heat; }
    /// Shows the heatmap of table row `row` (and reveals its source line when `reveal`).
    void selectRow(int row, bool reveal = false);

    /// LazyPanel: the main window says whether the dock is on screen.
    void setPanelShown(bool shown) override;

private:
    /// Re-analyses the shown result off the UI thread (the analysis takes ~100 ms on gemm.py);
    /// skipped while the panel is a hidden tab of a shown window, and redone when it is shown.
    void refresh();
    void applyReport(analysis::KernelBankReport rep);
    Session& m_session;
    quint64 m_tag = 0;
    bool m_stale = false;
    bool m_shown = true;
    BankAccessModel* m_model;
    QTableView* m_table;
    QLabel* m_totals;
    viz::BankHeatmapWidget* m_heat;
};

}  // namespace ts::gui
