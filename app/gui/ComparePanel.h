// The Compare panel (issue 12): variants x metrics of a stored result set -- a `tilec tune`
// session, or every profile/bench record of the results store (profiler/store/ResultsStore.h) --
// as a sortable table with the best value of each metric highlighted and, optionally, deltas
// against a chosen baseline variant; a bar chart of one metric; and, when two variants are
// selected, their metric deltas beside the per-pass IR diff and the generated-CUDA diff (the
// variants are recompiled from the stored program text, viz::compileVariant). Beside the bars, a
// roofline of the GPU-timed variants (visualizer/core/Roofline.h). A sweep typed in the panel
// ("block_M=64,128 num_stages=2,3", TuneSweep.h) runs `tilec tune` on the editor's text in a child
// process and shows the new session; Export writes the shown set as CSV or JSON. The data and all
// comparisons live in visualizer/core/VariantCompare.h; this file only shows them.
#pragma once
#include <QAbstractTableModel>
#include <QWidget>
#include <QProcess>
#include <memory>
#include <optional>

#include "visualizer/core/VariantCompare.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QSplitter;
class QTableWidget;
class QTabWidget;
class QTemporaryDir;

namespace ts::viz {
class BarChartWidget;
class DiffView;
class RooflineWidget;
}  // namespace ts::viz

namespace ts::gui {

class ProgressRow;
class Session;

/// Columns: status, variant, then VariantCompare::columns(). Display: the value, or its
/// relative delta against the baseline row; Qt::UserRole: the raw value (sorting).
class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kFixedColumns = 2;  ///< status, variant
    /// The widest a column of the table grows to its contents (px); beyond, it elides.
    static constexpr int kMaxColumnPx = 220;
    explicit CompareTableModel(QObject* parent = nullptr);
    void setCompare(const viz::VariantCompare* c);
    /// Row of the baseline (-1: none) and whether cells show deltas against it.
    void setBaseline(int row, bool showDeltas);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    const viz::VariantCompare* m_compare = nullptr;
    int m_baseline = -1;
    bool m_deltas = false;
};

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(Session& session, QWidget* parent = nullptr);
    ~ComparePanel() override;

    /// Reads the store at `path` (default: rt::defaultResultsPath()) and shows its newest tune
    /// session. False with a message in the status line when it has no records.
    bool loadStore(const QString& path = {});
    /// The result sets of the loaded store: "tune <session>" entries, then "profiles".
    QStringList resultSets() const;
    /// Shows the result set `index` of resultSets().
    void showResultSet(int index);
    /// Selects the variants at model rows `a` and `b` (unsorted order) and shows their diff.
    void compareRows(int a, int b);
    void setBaselineRow(int row);
    void setShowDeltas(bool on);
    /// Column of the bar chart (index into VariantCompare::columns()).
    void setChartColumn(int column);
    /// Writes the records of the shown set: a JSON array for a *.json path, else CSV
    /// (rt::recordsToCsv: fixed columns, then one per metric). False with `error` on failure.
    bool exportSet(const QString& path, QString* error = nullptr);
    /// Runs `tilec tune` on the current document with the sweep `text` (TuneSweep.h), on the
    /// tile interpreter when `interp`, storing into this panel's store; when it ends the store is
    /// reloaded and the new session shown. False (message in the status line) for a bad sweep or
    /// no tilec.
    bool startSweep(const QString& text, bool interp);
    bool sweepRunning() const;
    /// Stops the running sweep (Stop): tilec tune cancels the running variant and stores what
    /// ran, the rest as "not run (stopped)"; killed if it has not ended within kStopGraceMs.
    void stopSweep();
    static constexpr int kStopGraceMs = 1500;
    /// The sweep's progress row ("variant 2 of 4: block_M=128  ·  3.1 s  ·  Stop cancels");
    /// empty when no sweep runs (tests).
    QString sweepProgressText() const;
    /// tilec's output of the last sweep.
    QString sweepLog() const { return m_sweepLog; }
    /// Overrides the tilec executable (tests); default findTilec() (RunPanel.h).
    void setTilec(const QString& path) { m_tilec = path; }

    const viz::VariantCompare* compare() const { return m_compare.get(); }
    CompareTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    viz::BarChartWidget* chart() const { return m_chart; }
    viz::RooflineWidget* roofline() const { return m_roofline; }
    viz::DiffView* diffView() const { return m_diff; }
    /// The pass list of the two compared variants ("pass — N lines", last "generated CUDA").
    QListWidget* passList() const { return m_passes; }
    QTableWidget* deltaTable() const { return m_deltaTable; }
    const viz::VariantDiff* variantDiff() const { return m_variantDiff ? &*m_variantDiff : nullptr; }
    QString statusText() const;
    /// Width the table needs to show every column (sections + frame + scroll bar), px.
    int tableWidthNeeded() const;

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    /// Gives the table the width its columns need (the charts keep at least kMinChartPx),
    /// until the user moves the splitter.
    void fitTableWidth();
    static constexpr int kMinChartPx = 280;
    QSplitter* m_upperSplit = nullptr;
    bool m_userSplit = false;
    void rebuildChart();
    void onSelectionChanged();
    void showPassDiff(int row);
    void fillDeltaTable(int a, int b);
    void onSweepFinished(int exitCode, QProcess::ExitStatus status);

    Session& m_session;
    QString m_storePath;
    std::vector<nlohmann::json> m_records;
    std::vector<std::string> m_sessions;  ///< tune sessions of m_records, newest last
    std::unique_ptr<viz::VariantCompare> m_compare;
    std::optional<viz::VariantDiff> m_variantDiff;
    int m_diffA = -1, m_diffB = -1;

    QComboBox* m_sets;
    QComboBox* m_baseline;
    QComboBox* m_chartMetric;
    QCheckBox* m_deltas;
    QLineEdit* m_sweepEdit;
    QCheckBox* m_sweepInterp;
    QPushButton* m_sweepButton;
    QPushButton* m_sweepStop;
    ProgressRow* m_sweepProgress;
    bool m_sweepStopped = false;  ///< Stop pressed for the running sweep
    QString m_tilec, m_sweepLog;
    std::unique_ptr<QProcess> m_sweepProc;
    std::unique_ptr<QTemporaryDir> m_sweepDir;
    QLabel* m_status;
    CompareTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QTabWidget* m_charts;
    viz::BarChartWidget* m_chart;
    viz::RooflineWidget* m_roofline;
    QTableWidget* m_deltaTable;
    QListWidget* m_passes;
    viz::DiffView* m_diff;
};

}  // namespace ts::gui
