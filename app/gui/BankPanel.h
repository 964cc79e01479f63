// The Bank panel (issue 4 §5): the shared-memory accesses of the shown compile result
// (compiler/analysis/Banks.h over CompileResult::lowered) as a table sorted by excess wavefronts
// — line, buffer, instruction, ways, wavefronts, ideal, excess — with the per-kernel totals;
// selecting a row paints its worst warp execution as a lanes x banks heatmap
// (viz::BankHeatmapWidget) and moves the editor to its source line through the session.
// Above the list, the per-kernel counters -- ld/st conflicts, ld/st and ldmatrix wavefronts --
// predicted next to measured with an agree/disagree mark (viz::compareCounters). Measured values
// come from a `tilec banks FILE --measure --json OUT` file: loaded by the user (Load measured…,
// File menu) or announced by the Run panel after a GPU run (Session::measuredBanksAvailable), and
// checked against the current kernel, grid, parameter values, target and source text; a banner
// says when they do not belong to what is shown.
#pragma once
#include <QAbstractTableModel>
#include <QWidget>
#include <optional>

#include "app/gui/PanelRegistry.h"
#include "compiler/analysis/Banks.h"
#include "visualizer/core/BankCompare.h"
#include "visualizer/core/BankMap.h"

class QLabel;
class QScrollArea;
class QSplitter;
class QTableView;
class QToolButton;

namespace ts::viz {
class BankHeatmapWidget;
class ZoomBar;
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

/// Predicted vs measured per-kernel counters: one row per viz::comparedCounters() entry.
class BankCompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Counter, Predicted, Measured, Agree, ColumnCount };
    explicit BankCompareModel(QObject* parent = nullptr);
    /// Predicted values only (no measurement loaded). `valid` false: no compile of this program
    /// stands behind `r` (it does not compile, or is still compiling after File › Open), so the
    /// Predicted column shows "—" rather than zeros or another file's counts.
    void setPredicted(const analysis::KernelBankReport& r, bool valid = true);
    /// Predicted next to measured, with the match verdict of the measurement.
    void setCompared(std::vector<viz::CounterComparison> rows, viz::MatchReport match);
    const viz::CounterComparison& row(int i) const { return m_rows[size_t(i)]; }
    bool hasMeasured() const { return m_hasMeasured; }
    bool hasPredicted() const { return m_hasPredicted; }
    /// The measurement does not belong to the program shown (kernel, grid, parameters, target
    /// or source differ).
    bool mismatch() const {
        return m_hasMeasured && m_match.status == viz::MeasuredMatch::Mismatch;
    }
    const viz::MatchReport& match() const { return m_match; }
    /// Rows whose measured value disagrees with the prediction.
    int disagreements() const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::vector<viz::CounterComparison> m_rows;
    viz::MatchReport m_match;
    bool m_hasMeasured = false;
    bool m_hasPredicted = true;
};

class BankPanel : public QWidget, public LazyPanel {
    Q_OBJECT
public:
    explicit BankPanel(Session& session, QWidget* parent = nullptr);
    BankAccessModel* model() const { return m_model; }
    BankCompareModel* compareModel() const { return m_compare; }
    /// Loads a `tilec banks --measure --json` file; false (and `why`) when unreadable or without
    /// measured counters. The comparison follows later recompiles until another file is loaded.
    bool loadMeasured(const QString& path, QString* why = nullptr);
    void clearMeasured();
    /// Asks for a file (Load measured… button) and loads it.
    void promptLoadMeasured();
    /// The banner above the comparison (match warnings; tests).
    QString measuredBannerText() const;
    viz::BankHeatmapWidget* heatmap() const { return m_heat; }
    /// The heatmap's zoom buttons; Fit (on by default) fits it to its pane (fitHeatmap).
    viz::ZoomBar* zoomBar() const { return m_zoom; }
    /// The scroll area the heatmap pans in (tests).
    QScrollArea* heatmapArea() const { return m_scroll; }
    /// The line above the table: totals, or why there is nothing / that it is stale (tests).
    QString totalsText() const;
    /// Shows the heatmap of table row `row` (and reveals its source line when `reveal`).
    void selectRow(int row, bool reveal = false);
    /// Writes the shown heatmap (lanes x banks of the selected access) as SVG
    /// (viz::heatmapToSvg) or as a PNG of the widget; false when nothing is shown or on I/O error.
    bool exportHeatmapSvg(const QString& path) const;
    bool exportHeatmapPng(const QString& path) const;

    /// LazyPanel: the main window says whether the dock is on screen.
    void setPanelShown(bool shown) override;
    /// Rows of the access table that fit its viewport (tests: at least 10 at 1920x1080).
    int visibleTableRows() const;

protected:
    void resizeEvent(QResizeEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    /// Splits the panel between the tables and the heatmap so that the access table shows
    /// kTableRows rows when the panel is tall enough (the heatmap keeps at least 200 px), until
    /// the user moves the splitter.
    void fitSplit();
    /// In fit mode: the heatmap's cell size for its pane (BankHeatmapWidget::cellSizeToFit).
    void fitHeatmap();
    QScrollArea* m_scroll = nullptr;
    viz::ZoomBar* m_zoom = nullptr;
    static constexpr int kTableRows = 10;
    QSplitter* m_split = nullptr;
    QWidget* m_upper = nullptr;
    bool m_userSplit = false;
    /// Re-analyses the shown result off the UI thread (the analysis takes ~100 ms on gemm.py);
    /// skipped while the panel is a hidden tab of a shown window, and redone when it is shown.
    void refresh();
    void applyReport(analysis::KernelBankReport rep);
    /// Recomputes the comparison and its banner from the current report and measurement.
    void updateComparison();
    Session& m_session;
    std::optional<viz::MeasuredBanks> m_measured;
    QString m_measuredPath;
    quint64 m_tag = 0;
    bool m_stale = false;
    bool m_shown = true;
    bool m_noResult = false;       ///< the shown report has no compile behind it
    bool m_resultIsStale = false;  ///< the shown report is of an older text (Session::shownIsStale)
    BankAccessModel* m_model;
    QTableView* m_table;
    QLabel* m_totals;
    BankCompareModel* m_compare;
    QTableView* m_compareTable;
    QLabel* m_measuredInfo;
    QLabel* m_banner;
    QToolButton* m_loadButton;
    viz::BankHeatmapWidget* m_heat;
};

}  // namespace ts::gui
