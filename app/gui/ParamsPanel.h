// The parameters panel: the kernel factory's parameters (CompileResult::params) as an editable
// table — name, default, value — where editing a value stores it in the file's
// `# tilescope:` pragma (ParamPragma.h) through the Session, which recompiles. In a file with
// several kernels (DESIGN.md §2b) a kernel selector above the table lists
// CompileResult::kernels; choosing one calls Session::setKernel, and this table and every other
// panel follow the new result. ParamsModel is the model (testable without a view); ParamsPanel
// the widget.
#pragma once
#include <QAbstractTableModel>
#include <QWidget>
#include <vector>

#include "compiler/Compile.h"

class QComboBox;
class QTableView;
class QLabel;

namespace ts::gui {

class Session;

class ParamsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Default, Value, ColumnCount };
    explicit ParamsModel(Session& session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    /// Editing Value sets the override (empty or equal to the default: back to the default).
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    const std::vector<FactoryParam>& params() const { return m_params; }

private:
    void refresh();
    Session& m_session;
    std::vector<FactoryParam> m_params;
};

class ParamsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParamsPanel(Session& session, QWidget* parent = nullptr);
    ParamsModel* model() const { return m_model; }
    /// The kernel selector: one item per kernel of the file (item data: the kernel's name);
    /// hidden while the file has only one.
    QComboBox* kernelSelector() const { return m_kernel; }

private:
    void refreshKernels();
    Session& m_session;
    ParamsModel* m_model;
    QComboBox* m_kernel;
    QWidget* m_kernelRow;
    QTableView* m_view;
    QLabel* m_info;
};

}  // namespace ts::gui
