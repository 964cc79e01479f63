// The Compare panel (issue 12): variants x metrics of a stored result set -- a `tilec tune`
// session, or every profile/bench record of the results store (profiler/store/ResultsStore.h) --
// as a sortable table with the best value of each metric highlighted and, optionally, deltas
// against a chosen baseline variant; a bar chart of one metric; and, when two variants are
// selected, their metric deltas beside the per-pass IR diff and the generated-CUDA diff (the
// variants are recompiled from the stored program text, viz::compileVariant). The data and all
// comparisons live in visualizer/core/VariantCompare.h; this file only shows them.
#pragma once
#include <QAbstractTableModel>
#include <QWidget>
#include <memory>
#include <optional>

#include "visualizer/core/VariantCompare.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;

namespace ts::viz {
class BarChartWidget;
class DiffView;
}  // namespace ts::viz

namespace ts::gui {

class Session;

/// Columns: status, variant, then VariantCompare::columns(). Display: the value, or its
/// relative delta against the baseline row; Qt::UserRole: the raw value (sorting).
class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kFixedColumns = 2;  ///< status, variant
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

    const viz::VariantCompare* compare() const { return m_compare.get(); }
    CompareTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    viz::BarChartWidget* chart() const { return m_chart; }
    viz::DiffView* diffView() const { return m_diff; }
    /// The pass list of the two compared variants ("pass — N lines", last "generated CUDA").
    QListWidget* passList() const { return m_passes; }
    QTableWidget* deltaTable() const { return m_deltaTable; }
    const viz::VariantDiff* variantDiff() const { return m_variantDiff ? &*m_variantDiff : nullptr; }
    QString statusText() const;

private:
    void rebuildChart();
    void onSelectionChanged();
    void showPassDiff(int row);
    void fillDeltaTable(int a, int b);

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
    QLabel* m_status;
    CompareTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    viz::BarChartWidget* m_chart;
    QTableWidget* m_deltaTable;
    QListWidget* m_passes;
    viz::DiffView* m_diff;
};

}  // namespace ts::gui
